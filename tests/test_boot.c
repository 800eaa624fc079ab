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

#include "boot.h"
#include "targets.h"
#include "util.h"

static void prepare(struct guest *g, const char *target)
{
	guest_prepare(g, target_find(target), "Image", "initramfs.cpio",
		      "console=ttyS0", "/tmp/console.log", "/tmp/qemu.log", 60);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kvm_when_the_device_opens),
		cmocka_unit_test(tcg_and_why_when_it_does_not),
		cmocka_unit_test(tcg_for_a_foreign_architecture),
	};

	return cmocka_run_group_tests_name("boot", tests, NULL, NULL);
}
