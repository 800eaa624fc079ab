// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* The series: loading it, its errors, and what the build key sees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs.h"
#include "hash.h"
#include "series.h"
#include "tmpdir.h"
#include "util.h"



static const char *const modify_kconfig =
	"Subject: x\n---\ndiff --git a/lib/Kconfig b/lib/Kconfig\n"
	"index 1111111..2222222 100644\n--- a/lib/Kconfig\n+++ b/lib/Kconfig\n"
	"@@ -1,2 +1,3 @@\n a\n+config KW\n b\n";
static const char *const new_file_fmt =
	"Subject: y\n---\ndiff --git a/lib/kw.c b/lib/kw.c\nnew file mode 100644\n"
	"index 0000000..%s\n--- /dev/null\n+++ b/lib/kw.c\n@@ -0,0 +1 @@\n+%s\n-- \n2.39.5\n";

static const char *const fix_new_file_fmt =
	"Subject: z\n---\ndiff --git a/lib/kw.c b/lib/kw.c\n"
	"index 1111111..2222222 100644\n--- a/lib/kw.c\n+++ b/lib/kw.c\n"
	"@@ -1 +1 @@\n-int b;\n+%s\n";

static void put(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	free(path);
}

static void real_series_loads(void **state)
{
	struct series s;

	(void)state;
	assert_int_equal(series_load("patch", NULL, &s), 0);
	assert_true(s.nr >= 2);
	assert_true(strlist_has(&s.files, "lib/kw_worker.c"));
	assert_true(strlist_has(&s.files, "include/linux/kw_worker.h"));
	series_free(&s);
}

static void refreshed_patches_replace_their_namesakes(void **state)
{
	struct series base, v612;

	(void)state;
	assert_int_equal(series_load("patch", NULL, &base), 0);
	assert_int_equal(series_load("patch", "patch/6.12", &v612), 0);
	assert_int_equal(base.nr, v612.nr);
	/* 0001 and 0002 are refreshed for 6.12; the rest are shared. */
	assert_non_null(strstr(v612.patches[0].path, "patch/6.12/"));
	assert_null(strstr(v612.patches[base.nr - 1].path, "patch/6.12/"));
	assert_string_not_equal(base.digest, v612.digest);
	series_free(&base);
	series_free(&v612);
}

static void new_files_do_not_touch_the_build_key(void **state)
{
	char builtin[KWM_HASH_HEX], digest[KWM_HASH_HEX], code[KWM_HASH_HEX];
	char *text;
	struct series s;

	(void)state;
	put("0001-k.patch", modify_kconfig);
	text = xasprintf(new_file_fmt, "aaaaaaa", "int a;");
	put("0002-n.patch", text);
	free(text);
	put("series", "# comment\n0001-k.patch\n\n0002-n.patch  \n");
	assert_int_equal(series_load(dir, NULL, &s), 0);
	assert_int_equal(s.nr, 2);
	memcpy(builtin, s.builtin_digest, sizeof(builtin));
	memcpy(digest, s.digest, sizeof(digest));
	memcpy(code, s.code_digest, sizeof(code));
	series_free(&s);

	/* Reword a commit message: nothing to build again. */
	text = xasprintf(new_file_fmt, "aaaaaaa", "int a;");
	text[strlen("Subject: ")] = 'w';
	put("0002-n.patch", text);
	free(text);
	assert_int_equal(series_load(dir, NULL, &s), 0);
	assert_string_not_equal(s.digest, digest);
	assert_string_equal(s.code_digest, code);
	series_free(&s);

	/* Edit the new file: same kernel build, different series. */
	text = xasprintf(new_file_fmt, "bbbbbbb", "int b;");
	put("0002-n.patch", text);
	free(text);
	assert_int_equal(series_load(dir, NULL, &s), 0);
	assert_string_equal(s.builtin_digest, builtin);
	assert_string_not_equal(s.digest, digest);
	assert_string_not_equal(s.code_digest, code);
	series_free(&s);

	/* A later patch fixing the new file: still the same kernel build. */
	text = xasprintf(fix_new_file_fmt, "int c;");
	put("0003-f.patch", text);
	free(text);
	put("series", "0001-k.patch\n0002-n.patch\n0003-f.patch # fix\n");
	assert_int_equal(series_load(dir, NULL, &s), 0);
	assert_string_equal(s.builtin_digest, builtin);
	series_free(&s);
	text = xasprintf(fix_new_file_fmt, "int d;");
	put("0003-f.patch", text);
	free(text);
	assert_int_equal(series_load(dir, NULL, &s), 0);
	assert_string_equal(s.builtin_digest, builtin);
	series_free(&s);

	/* Edit Kconfig: a new kernel build. */
	text = xstrdup(modify_kconfig);
	text[strlen(text) - 4] = 'c';
	put("0001-k.patch", text);
	free(text);
	assert_int_equal(series_load(dir, NULL, &s), 0);
	assert_string_not_equal(s.builtin_digest, builtin);
	series_free(&s);
}

static void missing_patch_and_missing_series(void **state)
{
	struct series s;
	char *empty = xasprintf("%s/empty", dir);

	(void)state;
	put("series", "0001-k.patch\n0009-gone.patch\n");
	assert_int_equal(series_load(dir, NULL, &s), -1);
	series_free(&s);
	mkdir_p(empty);
	assert_int_equal(series_load(empty, NULL, &s), -1);
	series_free(&s);
	put("series", "# nothing\n");
	assert_int_equal(series_load(dir, NULL, &s), -1);
	series_free(&s);
	put("notapatch.patch", "just words\n");
	put("series", "notapatch.patch\n");
	assert_int_equal(series_load(dir, NULL, &s), -1);
	series_free(&s);
	free(empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_series_loads),
		cmocka_unit_test(refreshed_patches_replace_their_namesakes),
		cmocka_unit_test(new_files_do_not_touch_the_build_key),
		cmocka_unit_test(missing_patch_and_missing_series),
	};

	return cmocka_run_group_tests_name("series", tests, setup, teardown);
}
