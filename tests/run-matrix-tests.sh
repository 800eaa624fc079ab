#!/bin/sh
# The driver end to end: bad input is refused without leaving anything
# behind, then a real matrix run on every target, then faults injected
# with a fake QEMU.  Prints "N passed, N failed".
#
#   tests/run-matrix-tests.sh DRIVER
#
# KWM_TEST_DURATION sets the torture seconds (default 5).
cd "$(dirname "$0")/.." || exit 1
KWM=$1
DURATION=${KWM_TEST_DURATION:-5}
work=$(mktemp -d /tmp/kwm-matrix-tests.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; [ -f "$work/err" ] && sed 's/^/     /' "$work/err"; }

# expect_refused NAME PATTERN ARGS...: exit 2, the pattern on stderr,
# and nothing written to the results folder.
expect_refused() {
	name=$1 pattern=$2
	shift 2
	rm -rf "$work/results"
	# KWM_PATH, when set, is the driver's PATH (a missing tool); not ours.
	env PATH="${KWM_PATH:-$PATH}" "$KWM" run --repo . -r "$work/results" "$@" \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ $status -eq 2 ] && grep -q -- "$pattern" "$work/err" &&
	   [ "$(find "$work/results" -mindepth 1 2>/dev/null | wc -l)" -eq 0 ]; then
		ok "$name"
	else
		echo "     exit $status" >>"$work/err"
		bad "$name"
	fi
}

expect_refused "unknown target" "unknown target 'sparc32'.*pick from" -t sparc32
expect_refused "duplicated target" "names 'arm64' twice" -t arm64,arm64
expect_refused "unknown suite" "unknown suite 'fuzz'" -s fuzz
expect_refused "negative duration" "not a positive whole number" -d -5
expect_refused "unparseable duration" "not a positive whole number" -d 5s
expect_refused "zero jobs" "not a positive whole number" -j 0

mkdir -p "$work/series"
cp patch/*.patch "$work/series/"
printf '0001-kthread-implement-kthread_worker-2010-design-as-kw_w.patch\n0009-missing.patch\n' >"$work/series/series"
expect_refused "series names a missing patch" "0009-missing.patch, which does not exist" -p "$work/series"

# A patch that no longer applies: its context changed.
sed 's/^ obj-\$(CONFIG_POLYNOMIAL) += polynomial.o/ obj-$(CONFIG_POLYNOMIAL) += polynomial_renamed.o/' \
	patch/0001-*.patch >"$work/series/0001-broken.patch"
printf '0001-broken.patch\n' >"$work/series/series"
expect_refused "patch that does not apply" "patch 0001-broken.patch does not apply" -t arm64 -p "$work/series"
grep -q "first rejected hunk" "$work/err" && ok "rejected hunk shown" || bad "rejected hunk shown"

# A checkout whose fragment has a syntax error.
mkdir -p "$work/repo"
cp -r arch-configs initramfs calibrate patch "$work/repo/"
printf 'CONFIG_SERIAL_AMBA_PL011 y\n' >>"$work/repo/arch-configs/arm64.config"
expect_refused "fragment syntax error" "arm64.config:.*not a Kconfig assignment" -t arm64 -R "$work/repo"

# A missing cross compiler or QEMU, named with its Debian package.
mkdir -p "$work/bin"
for tool in make patch ccache tar xz bison flex bc gcc; do
	ln -sf "$(command -v $tool)" "$work/bin/$tool"
done
KWM_PATH=$work/bin
expect_refused "missing cross compiler" "apt-get install gcc-aarch64-linux-gnu" -t arm64
ln -sf "$(command -v aarch64-linux-gnu-gcc)" "$work/bin/aarch64-linux-gnu-gcc"
expect_refused "missing QEMU" "apt-get install qemu-system-arm" -t arm64
unset KWM_PATH

expect_refused "unwritable results folder" "cannot write results" -t arm64 -r /proc/kwm-results
rm -f "$work/err"

# The real matrix: every target, every suite.
echo "matrix: every target, torture ${DURATION}s (this builds kernels on a cold cache)"
"$KWM" run --repo . -r "$work/matrix" -d "$DURATION" 2>&1 | tee "$work/matrix.out"
status=$?
json=$(ls "$work"/matrix/*/matrix.json 2>/dev/null | head -1)
# Every cell green: PASS, KILLED, XFAIL, or UNOBSERVABLE (mutants only).
cells_green() {
	python3 - "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
ok = m["complete"]
for t in m["targets"]:
    for c in t["cells"]:
        good = {"PASS", "KILLED", "XFAIL"}
        if c["suite"].startswith("mutant-"):
            good.add("UNOBSERVABLE")
        if c["status"] not in good:
            print(f"     {t['target']}/{c['suite']}: {c['status']}: {c['reason']}")
            ok = False
sys.exit(0 if ok else 1)
PY
}
if [ -n "$json" ] && cells_green "$json"; then
	ok "matrix: every cell as expected"
else
	bad "matrix: every cell as expected (see $json)"
fi
mkdir -p results
cp -r "$work"/matrix/* results/ 2>/dev/null

# Faults, with a fake QEMU in front of the real one.
mkdir -p "$work/fake"
printf '#!/bin/sh\nsleep 600\n' >"$work/fake/qemu-system-aarch64"
chmod +x "$work/fake/qemu-system-aarch64"
start=$(date +%s)
PATH=$work/fake:$PATH "$KWM" run --repo . -r "$work/hang" -t arm64 -s kunit -T 5 >"$work/out" 2>"$work/err"
status=$? took=$(( $(date +%s) - start ))
json=$(ls "$work"/hang/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && grep -q '"status": "TIMEOUT"' "$json" && [ $took -lt 60 ] &&
   ! pgrep -f "$work/fake/qemu-system-aarch64" >/dev/null; then
	ok "hung guest: TIMEOUT, QEMU gone"
else
	bad "hung guest: TIMEOUT, QEMU gone (exit $status, ${took}s)"
fi

printf '#!/bin/sh\necho "qemu: fake crash" >&2\nexit 1\n' >"$work/fake/qemu-system-aarch64"
PATH=$work/fake:$PATH "$KWM" run --repo . -r "$work/dead" -t arm64 -s kunit >"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/dead/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && grep -q '"status": "CRASHED"' "$json" && grep -q 'fake crash' "$json"; then
	ok "QEMU exits early: CRASHED with its message"
else
	bad "QEMU exits early: CRASHED with its message (exit $status)"
fi

# Ctrl-C during a run: guests killed, partial results marked incomplete.
"$KWM" run --repo . -r "$work/int" -t arm64 -s torture -d 60 >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 1 120); do
	grep -q "booting" "$work/err" && break
	sleep 1
done
sleep 3
kill -INT $pid
wait $pid
status=$?
json=$(ls "$work"/int/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 130 ] && grep -q '"complete": false' "$json" &&
   ! pgrep -f "kwm/initramfs.cpio.*$work/int" >/dev/null; then
	ok "interrupted run: incomplete results, guests gone"
else
	bad "interrupted run: incomplete results, guests gone (exit $status)"
fi

# Two runs at once on one cache: the second waits, both complete.
"$KWM" run --repo . -r "$work/two" -t arm64 -s kunit >"$work/out1" 2>&1 &
pid=$!
"$KWM" run --repo . -r "$work/two" -t arm64 -s kunit >"$work/out2" 2>&1
status2=$?
wait $pid
status1=$?
if [ $status1 -eq 0 ] && [ $status2 -eq 0 ] &&
   [ "$(grep -l '"complete": true' "$work"/two/*/matrix.json | wc -l)" -eq 2 ]; then
	ok "two runs at once on one cache"
else
	bad "two runs at once on one cache (exits $status1 $status2)"
fi

# A build that fails: the compiler's error in the cell, exit 1, and the
# next run with the real series builds again.
cp patch/* "$work/series/"
sed -i '0,/^+\tKUNIT_EXPECT_EQ(test, tw.runs, 1);$/s//+\tKUNIT_EXPECT_EQ(test, tw.runs, 1) kwmatrix_fault;/' \
	"$work"/series/0002-*.patch
"$KWM" run --repo . -r "$work/broken" -t arm64 -s kunit -p "$work/series" >"$work/out" 2>"$work/err"
status=$?
json=$(ls "$work"/broken/*/matrix.json 2>/dev/null | head -1)
if [ $status -eq 1 ] && grep -q '"status": "ERROR"' "$json" && grep -q 'kwmatrix_fault' "$json"; then
	ok "failing build: ERROR with the compiler's message"
else
	bad "failing build: ERROR with the compiler's message (exit $status)"
fi
"$KWM" run --repo . -r "$work/fixed" -t arm64 -s kunit >"$work/out" 2>"$work/err" &&
	ok "next run after a failed build" || bad "next run after a failed build"

echo "matrix tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
