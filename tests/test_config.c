// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* Fragments: parsing, overriding, and checking a merged .config. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "fs.h"
#include "tmpdir.h"
#include "util.h"



static char *write_tmp(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

static void real_fragments_parse(void **state)
{
	const char *paths[] = { "arch-configs/common.config",
				"arch-configs/ppc64le.config" };
	struct fragment_set set;

	(void)state;
	assert_int_equal(fragments_load(&set, paths, 2), 0);
	assert_true(set.nr > 10);
	fragments_free(&set);
}

static void later_fragment_overrides(void **state)
{
	char *a = write_tmp("a.config", "# c\nCONFIG_A=y\nCONFIG_B=m\n\n");
	char *b = write_tmp("b.config", "# CONFIG_A is not set\nCONFIG_S=\"x y\"\n");
	const char *paths[] = { a, b };
	struct fragment_set set;

	(void)state;
	assert_int_equal(fragments_load(&set, (const char *const *)paths, 2), 0);
	assert_int_equal(set.nr, 3);
	assert_string_equal(set.syms[0].name, "CONFIG_A");
	assert_string_equal(set.syms[0].value, "n");
	assert_string_equal(set.syms[2].value, "\"x y\"");
	fragments_free(&set);
	free(a);
	free(b);
}

static void syntax_errors_are_refused(void **state)
{
	static const char *const bad[] = {
		"CONFIG_A y\n", "CONFIG_=y\n", "FOO=y\n", "CONFIG_A=\n",
		"CONFIG_A=\"open\n", "CONFIG_A-B=y\n", "# CONFIG_A is not sett\nCONFIG_\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *p = write_tmp("bad.config", bad[i]);
		const char *paths[] = { p };
		struct fragment_set set;

		assert_int_equal(fragments_load(&set, paths, 1), -1);
		fragments_free(&set);
		free(p);
	}
}

static void missing_fragment(void **state)
{
	const char *paths[] = { "arch-configs/sparc32.config" };
	struct fragment_set set;

	(void)state;
	assert_int_equal(fragments_load(&set, paths, 1), -1);
	fragments_free(&set);
}

static void check_names_each_dropped_symbol(void **state)
{
	char *frag = write_tmp("f.config",
			       "CONFIG_KEPT=y\nCONFIG_DROPPED=y\nCONFIG_MOD=m\n"
			       "# CONFIG_OFF is not set\nCONFIG_ALSO_OFF=n\n");
	char *dot = write_tmp(".config",
			      "CONFIG_KEPT=y\n# CONFIG_DROPPED is not set\n"
			      "CONFIG_MOD=y\nCONFIG_ALSO_OFF=y\n");
	const char *paths[] = { frag };
	struct strlist problems = { 0 };
	struct fragment_set set;

	(void)state;
	assert_int_equal(fragments_load(&set, paths, 1), 0);
	assert_int_equal(config_check(&set, dot, &problems), 3);
	assert_non_null(strstr(problems.v[0], "CONFIG_DROPPED: asked y"));
	assert_non_null(strstr(problems.v[0], "got not set"));
	assert_non_null(strstr(problems.v[1], "CONFIG_MOD: asked m"));
	assert_non_null(strstr(problems.v[2], "CONFIG_ALSO_OFF: asked not set"));
	assert_int_equal(config_check(&set, "/nonexistent/.config", &problems), -1);
	strlist_free(&problems);
	fragments_free(&set);
	free(frag);
	free(dot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_fragments_parse),
		cmocka_unit_test(later_fragment_overrides),
		cmocka_unit_test(syntax_errors_are_refused),
		cmocka_unit_test(missing_fragment),
		cmocka_unit_test(check_names_each_dropped_symbol),
	};

	return cmocka_run_group_tests_name("config", tests, setup, teardown);
}
