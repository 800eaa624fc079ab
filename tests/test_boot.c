// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* The QEMU command line: KVM where the host can, TCG otherwise, and why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "boot.h"
#include "targets.h"
#include "util.h"

static void prepare(struct guest *g, const char *target)
{
	const struct target *t = target_find(target);
	char *note;
	const char *accel = guest_accel(t, &note);

	guest_prepare(g, t, accel, note, "Image", "initramfs.cpio",
		      "console=ttyS0", "/tmp/console.log", "/tmp/qemu.log", 60);
	free(note);
}

static bool host_is(const char *machine)
{
	struct utsname host;

	return !uname(&host) && !strcmp(host.machine, machine);
}

static void kvm_when_the_device_opens(void **state)
{
	struct guest g;

	(void)state;
	if (!host_is("x86_64"))
		skip();
	/* Any node that opens read-write stands in for /dev/kvm. */
	setenv("KWMATRIX_KVM_DEVICE", "/dev/null", 1);
	prepare(&g, "x86_64");
	assert_string_equal(g.accel, "kvm");
	assert_non_null(strstr(g.command, "-accel kvm -cpu host"));
	guest_free(&g);
}

static void tcg_and_why_when_it_does_not(void **state)
{
	struct guest g;

	(void)state;
	setenv("KWMATRIX_KVM_DEVICE", "/nonexistent/kvm", 1);
	prepare(&g, "x86_64");
	assert_string_equal(g.accel, "tcg");
	assert_non_null(strstr(g.command, "-accel tcg,thread=multi"));
	assert_non_null(strstr(g.accel_note, host_is("x86_64") ?
			       "/nonexistent/kvm" : "host is not x86_64"));
	guest_free(&g);
}

static void tcg_for_a_foreign_architecture(void **state)
{
	struct guest g;

	(void)state;
	setenv("KWMATRIX_KVM_DEVICE", "/dev/null", 1);
	prepare(&g, "arm64");
	assert_string_equal(g.accel, "tcg");
	assert_non_null(g.accel_note);
	guest_free(&g);
}

/* A stand-in guest: @script under sh, its log in /tmp. */
static void fake_guest(struct guest *g, const char *script, double bound, int column)
{
	memset(g, 0, sizeof(*g));
	g->argv = xcalloc(4, sizeof(*g->argv));
	g->argv[0] = xstrdup("sh");
	g->argv[1] = xstrdup("-c");
	g->argv[2] = xstrdup(script);
	g->console_log = xasprintf("/tmp/kwm-test-console.%d.%d", (int)getpid(), column);
	g->qemu_log = xasprintf("/tmp/kwm-test-qemu.%d.%d", (int)getpid(), column);
	g->accel = "tcg";
	g->bound = bound;
	g->column = column;
}

/*
 * The pool boots what is ready, a slot at a time, takes more as they
 * become ready, and kills a guest at its bound.
 */
static void pool_boots_guests_as_they_become_ready(void **state)
{
	static volatile sig_atomic_t no_stop;
	struct guest g[3];
	struct guest_pool pool;

	(void)state;
	fake_guest(&g[0], "exit 3", 30, 0);
	fake_guest(&g[1], "sleep 30", 0.5, 1);
	fake_guest(&g[2], "exit 0", 30, 2);
	guests_start(&pool, g, 1);
	pool.nr = 1;
	while (!guests_idle(&pool)) {
		guests_poll(&pool, &no_stop);
		guests_wait();
	}
	assert_true(g[0].ran);
	assert_int_equal(g[0].exit_status, 3);
	assert_false(g[1].ran);
	/* Two more ready: one slot, so they run one after the other. */
	pool.nr = 3;
	guests_poll(&pool, &no_stop);
	assert_int_equal(pool.running, 1);
	assert_false(g[2].ran);
	while (!guests_idle(&pool)) {
		guests_poll(&pool, &no_stop);
		guests_wait();
	}
	assert_true(g[1].timed_out);
	assert_false(g[2].timed_out);
	assert_int_equal(g[2].exit_status, 0);
	for (int i = 0; i < 3; i++) {
		unlink(g[i].console_log);
		unlink(g[i].qemu_log);
		guest_free(&g[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kvm_when_the_device_opens),
		cmocka_unit_test(tcg_and_why_when_it_does_not),
		cmocka_unit_test(tcg_for_a_foreign_architecture),
		cmocka_unit_test(pool_boots_guests_as_they_become_ready),
	};

	return cmocka_run_group_tests_name("boot", tests, NULL, NULL);
}
