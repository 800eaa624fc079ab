# kwmatrix entry points.
#
#   make matrix   build, boot and report every target (the main job)
#   make check    the tests: host unit tests, then a real matrix run
#   make bench    print build, boot and matrix timings
#   make litmus   check litmus/ with herd7 (the kernel memory model); exits 77,
#                 skipped, where herd7 is not installed
#
# KWMATRIX_CACHE (default ~/.cache/kwmatrix) holds kernel trees and builds.
# KWM_ARGS passes options to the driver, e.g. KWM_ARGS="-t arm64".

CC       := gcc
PKGS     := json-c libcrypto libxml-2.0
CFLAGS   := -std=c11 -Wall -Wextra -Werror -O2 -g -Iinclude $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -ljson-c -lcrypto -lxml2) -lm -pthread
OUT      := build
NPROC    := $(shell nproc 2>/dev/null || echo 1)
KWM_ARGS ?=

LIB_SRCS := $(filter-out matrix/main.c,$(wildcard matrix/*.c))
HEADERS  := $(wildcard matrix/*.h include/*.h)
TESTS    := $(patsubst tests/%.c,$(OUT)/tests/%,$(wildcard tests/test_*.c))

.PHONY: all deps matrix check unit-tests checkpatch litmus bench clean
all: $(OUT)/kwmatrix

deps:
	@scripts/deps.sh

# One object per file, so that make -j compiles them side by side.
LIB_OBJS := $(patsubst matrix/%.c,$(OUT)/obj/%.o,$(LIB_SRCS))

$(OUT)/obj/%.o: matrix/%.c $(HEADERS)
	@mkdir -p $(OUT)/obj
	$(CC) $(CFLAGS) -c -o $@ $<

$(OUT)/kwmatrix: matrix/main.c $(LIB_OBJS) $(HEADERS)
	$(CC) $(CFLAGS) -o $@ matrix/main.c $(LIB_OBJS) $(LDLIBS)

# The driver as the tests run it, and the tests: one archive of the
# driver compiled once with the sanitizers.
LIB_SAN_OBJS := $(patsubst matrix/%.c,$(OUT)/san/%.o,$(LIB_SRCS))

$(OUT)/san/%.o: matrix/%.c $(HEADERS)
	@mkdir -p $(OUT)/san
	$(CC) $(CFLAGS) $(SANITIZE) -c -o $@ $<

$(OUT)/libkwm-san.a: $(LIB_SAN_OBJS)
	rm -f $@
	ar rcs $@ $^

$(OUT)/kwmatrix-san: matrix/main.c $(OUT)/libkwm-san.a $(HEADERS)
	$(CC) $(CFLAGS) $(SANITIZE) -o $@ matrix/main.c $(OUT)/libkwm-san.a $(LDLIBS)

$(OUT)/tests/%: tests/%.c $(OUT)/libkwm-san.a $(HEADERS) $(wildcard tests/*.h)
	@mkdir -p $(OUT)/tests
	$(CC) $(CFLAGS) $(SANITIZE) -Imatrix -o $@ $< $(OUT)/libkwm-san.a $(LDLIBS) -lcmocka

# The emulated machine's layer on the host, through a shim of the kernel's
# API: kernel code, so GNU C, as the kernel is built.
$(OUT)/tests/test_emu: tests/test_emu.c calibrate/kw_emu.h $(wildcard tests/emu_shim/*.h tests/emu_shim/linux/*.h)
	@mkdir -p $(OUT)/tests
	$(CC) $(subst -std=c11,-std=gnu11,$(CFLAGS)) $(SANITIZE) -Itests/emu_shim -Icalibrate -o $@ $< -lcmocka

# The guest init's reading of the calibration, on the host.
$(OUT)/tests/test_shapes: tests/test_shapes.c initramfs/shapes.c initramfs/shapes.h include/kwm_protocol.h
	@mkdir -p $(OUT)/tests
	$(CC) $(CFLAGS) $(SANITIZE) -Iinitramfs -o $@ $< initramfs/shapes.c -lcmocka

matrix: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(OUT)/kwmatrix
	$(OUT)/kwmatrix run --repo . $(KWM_ARGS)

unit-tests: $(TESTS)
	@tests/run-unit-tests.sh $(TESTS)

checkpatch: deps
	@patch/checkpatch.sh

# Every stage runs to its end; the summary lists each, litmus as SKIPPED
# where herd7 is missing.
check:
	@scripts/deps.sh check
	@$(MAKE) --no-print-directory -j$(NPROC) $(TESTS) $(OUT)/kwmatrix $(OUT)/kwmatrix-san
	@tests/check.sh $(OUT)/kwmatrix-san

litmus: $(OUT)/kwmatrix
	@KWM=$(OUT)/kwmatrix scripts/litmus.sh

bench: deps $(OUT)/kwmatrix
	bench/bench.sh

clean:
	rm -rf $(OUT)
