// SPDX-License-Identifier: GPL-2.0
/* Console logs to cells: markers, crashes, warnings, time-outs, cut-offs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "parse.h"
#include "util.h"

static const char *const one[] = { "kunit" };
static const char *const two[] = { "kunit", "torture" };

#define SUITE_OK "# kwm-suite: kunit\nKTAP version 1\n1..1\nok 1 a\n# kwm-suite-end: kunit\n"

static enum cell_status judge(const char *log, const char *const *suites,
			      int nr, bool timed_out, int which,
			      struct console_result *res)
{
	struct guest_outcome outcome = { .timed_out = timed_out };

	parse_console(log, suites, nr, &outcome, res);
	return res->suites[which].status;
}

static void pass_from_real_log(void **state)
{
	char *log = read_file("tests/data/riscv64-kunit-pass.log", NULL);
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, one, 1, false, 0, &res), CELL_PASS);
	assert_true(res.init_started && res.done);
	assert_int_equal(res.suites[0].counts.passed, 7);
	console_result_free(&res);
	free(log);
}

static void init_died_before_suites(void **state)
{
	char *log = read_file("tests/data/riscv64-init-sigill.log", NULL);
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, one, 1, false, 0, &res), CELL_CRASHED);
	assert_non_null(strstr(res.suites[0].reason, "Kernel panic"));
	assert_non_null(strstr(res.suites[0].excerpt, "Attempted to kill init"));
	console_result_free(&res);
	free(log);
}

static void oops_in_one_suite_only(void **state)
{
	const char *log = "# kwm: init started\n" SUITE_OK
		"# kwm-suite: torture\nKTAP version 1\n1..1\n"
		"Unable to handle kernel NULL pointer dereference at 0\n"
		"Internal error: Oops: 96000005 [#1] PREEMPT SMP\n";
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, two, 2, false, 0, &res), CELL_PASS);
	assert_int_equal(res.suites[1].status, CELL_CRASHED);
	assert_non_null(strstr(res.suites[1].excerpt, "Internal error: Oops"));
	console_result_free(&res);
}

static void warning_is_warn(void **state)
{
	const char *log = "# kwm: init started\n# kwm-suite: kunit\n"
		"KTAP version 1\n1..1\n"
		"WARNING: CPU: 1 PID: 40 at lib/kw_worker.c:35 kw_worker_fn+0x1c/0x1d0\n"
		"ok 1 a\n# kwm-suite-end: kunit\n# kwm-done\n";
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, one, 1, false, 0, &res), CELL_WARN);
	console_result_free(&res);
}

static void timeout_mid_suite_and_before(void **state)
{
	const char *log = "# kwm: init started\n# kwm-suite: kunit\n"
		"KTAP version 1\n1..1\n";
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, two, 2, true, 0, &res), CELL_TIMEOUT);
	assert_int_equal(res.suites[1].status, CELL_TIMEOUT);
	console_result_free(&res);
	/* The same log, but QEMU exited: cut off, so crashed. */
	assert_int_equal(judge(log, two, 2, false, 0, &res), CELL_CRASHED);
	console_result_free(&res);
}

/* The run stopped (Ctrl-C): not a crash, an ERROR that says so. */
static void interrupted_mid_suite_and_before(void **state)
{
	const char *log = "# kwm: init started\n# kwm-suite: kunit\n"
		"KTAP version 1\n1..1\n";
	struct guest_outcome outcome = { .interrupted = true, .exit_status = -1 };
	struct console_result res;

	(void)state;
	parse_console(log, two, 2, &outcome, &res);
	assert_int_equal(res.suites[0].status, CELL_ERROR);
	assert_string_equal(res.suites[0].reason, "run interrupted during this suite");
	assert_int_equal(res.suites[1].status, CELL_ERROR);
	assert_string_equal(res.suites[1].reason, "run interrupted before this suite");
	console_result_free(&res);
}

static void powered_off_without_results(void **state)
{
	const char *log = "# kwm: init started\n# kwm-suite: kunit\n"
		"# kwm-suite-end: kunit\n# kwm-done\nreboot: Power down\n";
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, one, 1, false, 0, &res), CELL_CRASHED);
	assert_non_null(strstr(res.suites[0].reason, "no KTAP"));
	console_result_free(&res);
}

static void load_failure_is_fail(void **state)
{
	const char *log = "# kwm: init started\n# kwm-suite: kunit\n"
		"KTAP version 1\n1..1\nnot ok 1 kw_worker # load failed: No such file or directory\n"
		"# kwm-suite-end: kunit\n# kwm-done\n";
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, one, 1, false, 0, &res), CELL_FAIL);
	console_result_free(&res);
}

static void garbage_console(void **state)
{
	struct console_result res;
	char garbage[4096];

	(void)state;
	for (size_t i = 0; i < sizeof(garbage) - 1; i++)
		garbage[i] = (char)(1 + (i * 7919) % 250);
	garbage[sizeof(garbage) - 1] = '\0';
	assert_int_equal(judge(garbage, one, 1, false, 0, &res), CELL_CRASHED);
	console_result_free(&res);
}

static void torture_figures_without_carriage_return(void **state)
{
	/* A serial console ends its lines with "\r\n". */
	const char *log = "# kwm: init started\r\n"
		"# kwm-suite: kunit\r\nKTAP version 1\r\n"
		"# kwt: seconds=3 ops=9 max_lost_wakeup_ms=0\r\n"
		"1..1\r\nok 1 a\r\n# kwm-suite-end: kunit\r\n";
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, one, 1, false, 0, &res), CELL_PASS);
	assert_string_equal(res.suites[0].stats, "seconds=3 ops=9 max_lost_wakeup_ms=0");
	console_result_free(&res);
}

/* Each suite's time, as the guest says it; none where it did not. */
static void suite_seconds_from_the_guest(void **state)
{
	const char *log = "# kwm: init started\r\n" SUITE_OK
		"# kwm-suite-seconds: kunit 1.250\r\n"
		"# kwm-suite: torture\nKTAP version 1\n1..1\nok 1 a\n"
		"# kwm-suite-end: torture\n# kwm-done\n";
	struct console_result res;

	(void)state;
	assert_int_equal(judge(log, two, 2, false, 0, &res), CELL_PASS);
	assert_true(res.suites[0].seconds > 1.249 && res.suites[0].seconds < 1.251);
	/* An older init: no time, never a made-up one. */
	assert_true(res.suites[1].seconds < 0);
	console_result_free(&res);
}

static void status_names_round_trip(void **state)
{
	(void)state;
	for (int s = CELL_PASS; s < CELL_NR_STATUSES; s++)
		assert_int_equal(cell_status_from_name(cell_status_name(s)), s);
	assert_int_equal(cell_status_from_name("GREEN"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pass_from_real_log),
		cmocka_unit_test(init_died_before_suites),
		cmocka_unit_test(oops_in_one_suite_only),
		cmocka_unit_test(warning_is_warn),
		cmocka_unit_test(timeout_mid_suite_and_before),
		cmocka_unit_test(interrupted_mid_suite_and_before),
		cmocka_unit_test(powered_off_without_results),
		cmocka_unit_test(load_failure_is_fail),
		cmocka_unit_test(garbage_console),
		cmocka_unit_test(torture_figures_without_carriage_return),
		cmocka_unit_test(suite_seconds_from_the_guest),
		cmocka_unit_test(status_names_round_trip),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
