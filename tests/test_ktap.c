// SPDX-License-Identifier: GPL-2.0
/* The KTAP parser on real console logs and on broken ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "ktap.h"
#include "util.h"

static struct ktap_result parse(const char *text)
{
	struct ktap_result res;

	ktap_parse(text, &res);
	return res;
}

static void real_kunit_log(void **state)
{
	char *log = read_file("tests/data/riscv64-kunit-pass.log", NULL);
	struct ktap_result res;
	struct ktap_counts k;

	(void)state;
	assert_non_null(log);
	/* The boot-time "1..0" document and the module's one. */
	res = parse(strstr(log, "# kwm-suite: kunit"));
	ktap_count(&res, &k);
	assert_int_equal(res.nr_errors, 0);
	assert_int_equal(res.nr_tests, 1);
	assert_string_equal(res.tests[0].name, "kw_worker");
	assert_int_equal(res.tests[0].status, KTAP_PASS);
	assert_int_equal(res.tests[0].nr_subtests, 7);
	assert_string_equal(res.tests[0].subtests[0].name, "kw_queue_pending_test");
	assert_int_equal(k.passed, 7);
	assert_int_equal(k.failed + k.crashed + k.skipped, 0);
	ktap_free(&res);
	free(log);
}

static void real_failure(void **state)
{
	char *log = read_file("tests/data/arm64-kunit-fail.log", NULL);
	struct ktap_result res;
	struct ktap_counts k;

	(void)state;
	assert_non_null(log);
	res = parse(log);
	ktap_count(&res, &k);
	assert_int_equal(res.tests[0].status, KTAP_FAIL);
	assert_int_equal(res.tests[0].subtests[5].status, KTAP_FAIL);
	assert_string_equal(res.tests[0].subtests[5].name, "kw_stop_test");
	assert_int_equal(k.passed, 6);
	assert_int_equal(k.failed, 1);
	ktap_free(&res);
	free(log);
}

static void cut_off_inside_subtests(void **state)
{
	struct ktap_result res = parse("KTAP version 1\n1..1\n"
				       "    KTAP version 1\n    # Subtest: s\n"
				       "    1..3\n    ok 1 a\n    ok 2 b\n");
	struct ktap_counts k;

	(void)state;
	ktap_count(&res, &k);
	assert_true(res.nr_errors > 0);
	assert_int_equal(res.nr_tests, 1);
	assert_string_equal(res.tests[0].name, "s");
	assert_int_equal(res.tests[0].status, KTAP_CRASHED);
	/* The two that reported, and the one the plan promised. */
	assert_int_equal(k.passed, 2);
	assert_int_equal(k.crashed, 1);
	ktap_free(&res);
}

static void plan_mismatch(void **state)
{
	struct ktap_result res = parse("KTAP version 1\n1..3\nok 1 a\nok 2 b\n");
	struct ktap_counts k;

	(void)state;
	ktap_count(&res, &k);
	assert_true(res.nr_errors > 0);
	assert_non_null(strstr(res.first_error, "plan 1..3 but 2"));
	assert_int_equal(k.crashed, 1);
	ktap_free(&res);
}

static void skip_and_directives(void **state)
{
	struct ktap_result res = parse("KTAP version 1\n1..3\n"
				       "ok 1 a # SKIP no hotplug here\n"
				       "not ok 2 b # TODO later\nok 3 - c\n");
	struct ktap_counts k;

	(void)state;
	ktap_count(&res, &k);
	assert_int_equal(res.nr_errors, 0);
	assert_int_equal(res.tests[0].status, KTAP_SKIP);
	assert_string_equal(res.tests[0].directive, "SKIP no hotplug here");
	assert_string_equal(res.tests[1].name, "b");
	assert_string_equal(res.tests[2].name, "c");
	assert_int_equal(k.skipped, 1);
	assert_int_equal(k.failed, 1);
	assert_int_equal(k.passed, 1);
	ktap_free(&res);
}

static void garbage_and_timestamps(void **state)
{
	struct ktap_result res = parse(
		"\x01\x02 random: crng init done\n"
		"[    1.234567] KTAP version 1\n"
		"okay this is not a result\n"
		"[    1.234568] 1..1\n"
		"ok\n"
		"not ok x y\n"
		"[    1.300000]     ok 1 inner\n"
		"[    1.300001] ok 1 outer\n");
	struct ktap_counts k;

	(void)state;
	ktap_count(&res, &k);
	assert_int_equal(res.nr_errors, 0);
	assert_int_equal(res.nr_tests, 1);
	assert_string_equal(res.tests[0].name, "outer");
	assert_int_equal(res.tests[0].nr_subtests, 1);
	assert_int_equal(k.passed, 1);
	ktap_free(&res);
}

static void three_levels(void **state)
{
	struct ktap_result res = parse(
		"KTAP version 1\n1..1\n"
		"  KTAP version 1\n  1..2\n"
		"    KTAP version 1\n    1..2\n    ok 1 x\n    not ok 2 y\n"
		"  not ok 1 param\n"
		"  ok 2 plain\n"
		"not ok 1 suite\n");
	struct ktap_counts k;

	(void)state;
	ktap_count(&res, &k);
	assert_int_equal(res.nr_errors, 0);
	assert_int_equal(res.tests[0].nr_subtests, 2);
	assert_int_equal(res.tests[0].subtests[0].nr_subtests, 2);
	assert_int_equal(k.passed, 2);
	assert_int_equal(k.failed, 1);
	ktap_free(&res);
}

static void empty_and_two_documents(void **state)
{
	struct ktap_result res = parse("");

	(void)state;
	assert_int_equal(res.nr_tests, 0);
	assert_int_equal(res.nr_errors, 0);
	ktap_free(&res);

	res = parse("KTAP version 1\n1..1\nok 1 a\nKTAP version 1\n1..2\nok 1 b\n");
	assert_int_equal(res.nr_documents, 2);
	assert_int_equal(res.nr_errors, 1);	/* the second lost a result */
	ktap_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_kunit_log),
		cmocka_unit_test(real_failure),
		cmocka_unit_test(cut_off_inside_subtests),
		cmocka_unit_test(plan_mismatch),
		cmocka_unit_test(skip_and_directives),
		cmocka_unit_test(garbage_and_timestamps),
		cmocka_unit_test(three_levels),
		cmocka_unit_test(empty_and_two_documents),
	};

	return cmocka_run_group_tests_name("ktap", tests, NULL, NULL);
}
