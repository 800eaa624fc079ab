// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * A run's initrd: the build's archive untouched, then a newc archive of
 * the plan that cpio(1), as the kernel, reads back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "initrd.h"
#include "proc.h"
#include "tmpdir.h"
#include "util.h"

static void plan_appended_to_the_base(void **state)
{
	char *base = xasprintf("%s/base.cpio", dir), *out = xasprintf("%s/initrd.cpio", dir);
	char *cmd, *text;
	size_t len = 0;

	(void)state;
	/* A base of an odd length: the next archive still starts aligned. */
	assert_int_equal(write_file_atomic(base, "07070", 5), 0);
	assert_int_equal(initrd_with_file(base, "kwm-run", "kwm.run=kunit:kw_worker\n", out), 0);
	text = read_file(out, &len);
	assert_non_null(text);
	assert_memory_equal(text, "07070\0\0\0" "070701", 14);
	assert_int_equal(len % 4, 0);
	free(text);
	/* cpio reads the appended archive as the kernel does. */
	cmd = xasprintf("cd %s && tail -c +9 initrd.cpio | cpio -i --quiet 2>/dev/null && cat kwm-run", dir);
	text = cmd_output_line(cmd);
	assert_non_null(text);
	assert_string_equal(text, "kwm.run=kunit:kw_worker");
	free(text);
	free(cmd);
	/* No base: nothing written. */
	assert_int_equal(initrd_with_file("/nonexistent", "kwm-run", "x", out), -1);
	free(base);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_appended_to_the_base),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
