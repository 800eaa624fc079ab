// SPDX-License-Identifier: GPL-2.0
/* The guest init's reading of the calibration, and the suites it holds back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "kwm_protocol.h"
#include "shapes.h"

/* Records as /dev/kmsg gives them: "PRIO,SEQ,TIME,FLAGS;TEXT". */
static void note_calibration(struct shape_table *t)
{
	shapes_note(t, "6,120,5000,-;    " KWM_CALIBRATION_SHAPE
		    "SB forbidden=0 runs=74752 weak=10 per_million=133\n");
	shapes_note(t, "6,121,5001,-;    " KWM_CALIBRATION_SHAPE
		    "MP+rmb forbidden=0 runs=109568 weak=0 per_million=0\n");
	shapes_note(t, "6,122,5002,-;    ok 9 MP+rmb\n");
	/* A later figure of a shape (a detector's only=) does not replace it. */
	shapes_note(t, "6,123,5003,-;    " KWM_CALIBRATION_SHAPE
		    "MP+rmb forbidden=0 runs=100 weak=7 per_million=70000\n");
	/* The emulated machine's figures are another prefix: not these. */
	shapes_note(t, "6,124,5004,-;    # kwc-emu: shape=MP forbidden=0 runs=9 weak=0 per_million=0\n");
}

static void unseen_shape_holds_the_suite_back(void **state)
{
	struct shape_table t = { 0 };
	const struct shape_seen *seen;

	(void)state;
	note_calibration(&t);
	assert_int_equal(t.n, 2);
	seen = shapes_unseen_need(&t, "kw_worker_torture.duration=2,"
				  KWM_PARAM_NEEDS_WEAK "MP+rmb");
	assert_non_null(seen);
	assert_string_equal(seen->name, "MP+rmb");
	assert_int_equal(seen->runs, 109568);
}

/* The detector of the gate: a shape seen even once runs the suite. */
static void seen_or_unreported_shape_runs_it(void **state)
{
	struct shape_table t = { 0 };

	(void)state;
	note_calibration(&t);
	assert_null(shapes_unseen_need(&t, KWM_PARAM_NEEDS_WEAK "SB"));
	/* Not reported: the calibration proves nothing, so it runs. */
	assert_null(shapes_unseen_need(&t, KWM_PARAM_NEEDS_WEAK "MP"));
	/* A prefix of a name is not the name. */
	assert_null(shapes_unseen_need(&t, KWM_PARAM_NEEDS_WEAK "MP+r"));
	assert_null(shapes_unseen_need(&t, "kw_worker_torture.duration=2"));
	assert_null(shapes_unseen_need(&t, NULL));
	/* Before any calibration: everything runs. */
	assert_null(shapes_unseen_need(&(struct shape_table){ 0 },
				       KWM_PARAM_NEEDS_WEAK "MP+rmb"));
}

static void full_table_keeps_what_it_has(void **state)
{
	static struct shape_table t;
	char record[128];

	(void)state;
	for (int i = 0; i < SHAPES_MAX + 4; i++) {
		snprintf(record, sizeof(record), KWM_CALIBRATION_SHAPE
			 "S%d forbidden=0 runs=10 weak=0 per_million=0", i);
		shapes_note(&t, record);
	}
	assert_int_equal(t.n, SHAPES_MAX);
	assert_non_null(shapes_unseen_need(&t, KWM_PARAM_NEEDS_WEAK "S0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unseen_shape_holds_the_suite_back),
		cmocka_unit_test(seen_or_unreported_shape_runs_it),
		cmocka_unit_test(full_table_keeps_what_it_has),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
