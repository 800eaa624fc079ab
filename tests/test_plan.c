// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* Planning: the columns of a run, their guests' command lines and bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kwm_protocol.h"
#include "lkmm.h"
#include "oracles.h"
#include "build.h"
#include "plan.h"
#include "suites.h"
#include "targets.h"

static void add_all(struct strlist *l, const char *const *v)
{
	for (; *v; v++)
		strlist_add(l, *v);
}

static void free_run(struct run *run)
{
	for (int i = 0; i < run->nr_targets; i++)
		strlist_free(&run->targets[i].suites);
	free(run->targets);
}

static void columns_have_the_suites_of_their_kernel(void **state)
{
	static const char *const targets[] = { "arm64", "sparc64", NULL };
	static const char *const kernels[] = { "plain", "kcsan", NULL };
	static const char *const suites[] = { "kunit", "sparse", "calibrate", NULL };
	struct options o = { .duration = 10 };
	struct version versions[1] = { 0 };
	struct run run = { 0 };

	(void)state;
	add_all(&o.targets, targets);
	add_all(&o.kernels, kernels);
	add_all(&o.suites, suites);
	strlist_add(&o.versions, "6.1");
	assert_int_equal(plan_columns(&o, versions, &run), 0);
	/* arm64, arm64+kcsan; sparc64 builds only, and KCSAN has no sparse. */
	assert_int_equal(run.nr_targets, 3);
	assert_string_equal(run.targets[0].target->name, "arm64");
	assert_null(run.targets[0].oracle);
	assert_int_equal(run.targets[0].suites.n, 3);
	assert_non_null(run.targets[1].oracle);
	assert_int_equal(run.targets[1].suites.n, 1);
	assert_string_equal(run.targets[1].suites.v[0], "kunit");
	assert_string_equal(run.targets[2].target->name, "sparc64");
	assert_int_equal(run.targets[2].suites.n, 1);
	assert_string_equal(run.targets[2].suites.v[0], "sparse");
	assert_ptr_equal(run.targets[0].env, &versions[0].env);
	free_run(&run);
	strlist_free(&o.targets);
	strlist_free(&o.kernels);
	strlist_free(&o.suites);
	strlist_free(&o.versions);
}

static void nothing_to_run_is_refused(void **state)
{
	struct options o = { .duration = 10 };
	struct version versions[1] = { 0 };
	struct run run = { 0 };

	(void)state;
	strlist_add(&o.targets, "arm64");
	strlist_add(&o.kernels, "kasan");
	strlist_add(&o.suites, "calibrate");
	strlist_add(&o.versions, "6.1");
	assert_int_equal(plan_columns(&o, versions, &run), -1);
	assert_int_equal(run.nr_targets, 0);
	free(run.targets);
	strlist_free(&o.targets);
	strlist_free(&o.kernels);
	strlist_free(&o.suites);
	strlist_free(&o.versions);
}

/* The guest's command line, in include/kwm_protocol.h's grammar. */
static void command_line_and_bound(void **state)
{
	struct options o = { .duration = 10 };
	struct target_result tr = { 0 };
	bool found;
	char *append;

	(void)state;
	tr.target = target_find("arm64");
	strlist_add(&tr.suites, "kunit");
	strlist_add(&tr.suites, "build");
	strlist_add(&tr.suites, "calibrate");
	strlist_add(&tr.suites, "torture");
	/* The kernel's own; the init reads its plan from the initrd (no /proc). */
	append = plan_kernel_append(&o, &tr);
	assert_string_equal(append, "console=ttyAMA0 panic=-1");
	free(append);
	append = plan_guest_args(&o, &tr);
	assert_string_equal(append, "kw_calibrate.duration=10 kw_worker_torture.duration=10");
	free(append);
	/* The suites go in the initrd: a command line is too short for them. */
	append = plan_run(&o, &tr);
	assert_string_equal(append, "kwm.run=kunit:kw_worker+kw_worker_kunit;"
			    "calibrate:kw_calibrate;torture:torture+kw_worker+kw_worker_torture\n");
	free(append);
	/* Booting, then each suite's fixed part and its torture. */
	assert_int_equal(plan_guest_bound(&o, &tr),
			 tr.target->boot_seconds + 30 + 30 + 10 + 30 + 10);
	o.timeout = 7;
	assert_int_equal(plan_guest_bound(&o, &tr), 7);
	strlist_free(&tr.suites);

	/* An oracle's detector hunts for its own, longer, time. */
	tr.oracle = oracle_find("kcsan", &found);
	strlist_add(&tr.suites, "detector-plain-done-seq");
	append = plan_run(&o, &tr);
	assert_string_equal(append, "kwm.run=detector-plain-done-seq:torture+plain-done-seq/"
			    "kw_worker+kw_worker_torture:kw_worker_torture.duration=120\n");
	free(append);
	append = plan_kernel_append(&o, &tr);
	assert_string_equal(append, "console=ttyAMA0 panic=-1 kcsan.skip_watch=100");
	free(append);
	append = plan_guest_args(&o, &tr);
	assert_non_null(strstr(append, "kwm.catch=KCSAN: kwm.subject=kw_worker "));
	/* KCSAN's minimum, not -d's 10 s. */
	assert_non_null(strstr(append, " kw_worker_torture.duration=15"));
	free(append);
	strlist_free(&tr.suites);
}

/* Each guest's plan is made once, before any boots: what boot reads. */
/* kwmatrix's own modules: in folders, and the calibration and litmus ones. */
static void test_modules_are_told_apart(void **state)
{
	static const char *const own[] = { "kw_calibrate", "kw_litmus", "emu/kw_litmus",
					   "no-wakeup/kw_worker" };
	static const char *const series[] = { "kw_worker", "kw_worker_kunit", "torture",
					      "kw_litmus_x" };

	(void)state;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		assert_true(build_made_module(own[i], strlen(own[i])));
	for (size_t i = 0; i < sizeof(series) / sizeof(series[0]); i++)
		assert_false(build_made_module(series[i], strlen(series[i])));
	/* Only the first @len bytes count: "kw_litmus+..." names kw_litmus. */
	assert_true(build_made_module("kw_litmus+kw_worker", strlen("kw_litmus")));
}

static void guests_are_planned_once(void **state)
{
	struct options o = { .duration = 10 };
	struct target_result trs[2] = { { 0 } };
	struct run run = { .targets = trs, .nr_targets = 2 };

	(void)state;
	trs[0].target = target_find("arm64");
	strlist_add(&trs[0].suites, "kunit");
	strlist_add(&trs[0].suites, "build");
	trs[1].target = target_find("riscv64");
	strlist_add(&trs[1].suites, "sparse");
	plan_guests(&o, &run);
	assert_int_equal(trs[0].nr_guest_suites, 1);
	/* The initrd's plan: the init's arguments (none here), then the suites. */
	assert_string_equal(trs[0].run_list, "\nkwm.run=kunit:kw_worker+kw_worker_kunit\n");
	assert_non_null(strstr(trs[0].kernel_append, "console=ttyAMA0"));
	assert_int_equal(trs[0].bound, trs[0].target->boot_seconds + 30);
	/* kunit loads only the series' modules: no variant is built for it. */
	assert_false(trs[0].build.test_modules);
	assert_int_equal(trs[0].build.module_dirs.n, 0);
	/* W=1 is the build suite's, sparse the sparse suite's: each only if asked. */
	assert_true(trs[0].build.w1_check);
	assert_false(trs[0].build.sparse_check);
	assert_false(trs[1].build.w1_check);
	assert_true(trs[1].build.sparse_check);
	/* Only a build-time check: nothing to boot for. */
	assert_int_equal(trs[1].nr_guest_suites, 0);
	for (int i = 0; i < 2; i++) {
		free(trs[i].kernel_append);
		free(trs[i].run_list);
	}

	/*
	 * Under TCG a native mutant of a plain kernel runs 2 s: nothing but
	 * reordering kills it, and TCG shows none of its shape.
	 */
	strlist_add(&trs[0].suites, "mutant-worker-b0");
	trs[0].under_tcg = true;
	plan_guests(&o, &run);
	assert_non_null(strstr(trs[0].run_list, "mutant-worker-b0:torture+no-worker-b0/"
			       "kw_worker+kw_worker_torture:kw_worker_torture.duration=2,"
			       KWM_PARAM_NEEDS_WEAK "MP+rmb"));
	/* A mutant is one of kwmatrix's own modules, the only variant built. */
	assert_true(trs[0].build.test_modules);
	assert_int_equal(trs[0].build.module_dirs.n, 1);
	assert_string_equal(trs[0].build.module_dirs.v[0], "no-worker-b0");
	trs[0].under_tcg = false;
	free(trs[0].run_list);
	free(trs[0].kernel_append);
	free(trs[1].run_list);
	free(trs[1].kernel_append);
	plan_guests(&o, &run);
	assert_null(strstr(trs[0].run_list, "duration=2"));
	assert_null(strstr(trs[0].run_list, KWM_PARAM_NEEDS_WEAK));
	for (int i = 0; i < 2; i++) {
		free(trs[i].kernel_append);
		free(trs[i].run_list);
		strlist_free(&trs[i].build.module_dirs);
		strlist_free(&trs[i].suites);
	}
}

/* What the model says of a barrier a lock covers. */
static const struct lkmm_barrier covered_by_a_lock = {
	.without = { .expected = "Never" }, .covered_by = "a lock",
	.uncovered = { .expected = "Sometimes" },
};

/*
 * On the emulated machine a mutant hunts, up to its hunt_seconds, unless
 * the model says its barrier is covered: then nothing can kill it.
 */
static void only_needed_barriers_are_hunted(void **state)
{
	struct lkmm_barrier seed[4] = { 0 }, series[4] = { 0 };
	const struct lkmm_barrier *seed_at[4] = { &seed[0], &seed[1], &seed[2], &seed[3] };
	const struct lkmm_barrier *series_at[4] = {
		&series[0], &series[1], &series[2], &series[3],
	};
	struct lkmm_model models[2] = {
		{ .version = "seed", .barriers = seed_at },
		{ .version = "series", .barriers = series_at },
	};
	struct options o = { .duration = 5 };
	struct target_result tr = { .models = models };
	char *append;

	(void)state;
	series[3] = covered_by_a_lock;
	tr.target = target_find("arm64");
	strlist_add(&tr.suites, "mutant-emu-seed-worker-b1");
	strlist_add(&tr.suites, "mutant-emu-flush-b1");
	append = plan_run(&o, &tr);
	assert_string_equal(append, "kwm.run=mutant-emu-seed-worker-b1:torture+emu-seed-no-worker-b1/kw_worker_emu:"
			    "kw_worker_emu.duration=20,kw_worker_emu.emu_direct=worker-b1,"
			    "kw_worker_emu.hunt_past=completion;"
			    "mutant-emu-flush-b1:torture+emu-no-flush-b1/kw_worker_emu:"
			    "kw_worker_emu.emu_direct=flush-b1\n");
	free(append);
	append = plan_guest_args(&o, &tr);
	assert_non_null(strstr(append, "kw_worker_emu.duration=5 "));
	assert_int_equal(plan_guest_bound(&o, &tr),
			 tr.target->boot_seconds + 30 + 20 + 30 + 5);
	free(append);
	strlist_free(&tr.suites);

	/*
	 * On KCSAN's kernel (min_seconds 15) a needed barrier's native
	 * mutant samples 15 s, the line's; a covered one runs -d.
	 */
	series[0] = series[3];
	tr.oracle = oracle_find("kcsan", &(bool){ false });
	strlist_add(&tr.suites, "mutant-worker-b0");
	strlist_add(&tr.suites, "mutant-worker-b1");
	append = plan_run(&o, &tr);
	assert_string_equal(append, "kwm.run=mutant-worker-b0:torture+no-worker-b0/kw_worker+kw_worker_torture:"
			    "kw_worker_torture.duration=5;"
			    "mutant-worker-b1:torture+no-worker-b1/kw_worker+kw_worker_torture\n");
	free(append);
	append = plan_guest_args(&o, &tr);
	assert_non_null(strstr(append, " kw_worker_torture.duration=15"));
	free(append);
	strlist_free(&tr.suites);
}

/* What plan_guests() and the tests below gave columns @trs. */
static void free_columns(struct target_result *trs, int n)
{
	for (int i = 0; i < n; i++) {
		free(trs[i].kernel_append);
		free(trs[i].run_list);
		free(trs[i].build.name);
		strlist_free(&trs[i].build.module_dirs);
		strlist_free(&trs[i].suites);
	}
}

/* @n columns running mutant-emu-flush-b1 on @v61, the fourth on @v612. */
static void flush_b1_columns(struct target_result *trs, int n, struct lkmm_model *models,
			     struct build_env *v61, struct build_env *v612)
{
	for (int i = 0; i < n; i++) {
		trs[i].target = target_find(i ? "arm64" : "riscv64");
		trs[i].models = models;
		trs[i].env = i == 3 && v612 ? v612 : v61;
		trs[i].build.name = xasprintf("column%d", i);
		strlist_add(&trs[i].suites, "mutant-emu-flush-b1");
	}
}

/*
 * With an oracle kernel in the run (the nightly's -k all), a covered
 * barrier's emulated mutant is hunted -d by the first guest of its
 * version that boots; a later column of that version repeats it 2 s, one
 * of another version, or after a column that did not boot, hunts it.
 */
static void covered_claims_are_hunted_once_per_version(void **state)
{
	struct lkmm_barrier seed[4] = { 0 }, series[4] = { 0 };
	const struct lkmm_barrier *seed_at[4] = { &seed[0], &seed[1], &seed[2], &seed[3] };
	const struct lkmm_barrier *series_at[4] = {
		&series[0], &series[1], &series[2], &series[3],
	};
	struct lkmm_model models[2] = {
		{ .version = "seed", .barriers = seed_at },
		{ .version = "series", .barriers = series_at },
	};
	struct build_env v61 = { 0 }, v612 = { 0 };
	struct options o = { .duration = 10 };
	struct target_result trs[4] = { 0 };
	struct run run = { .targets = trs, .nr_targets = 4 };
	const char *covered = "mutant-emu-flush-b1:torture+emu-no-flush-b1/kw_worker_emu:"
			      "kw_worker_emu.emu_direct=flush-b1";

	(void)state;
	strlist_add(&o.kernels, "plain");
	strlist_add(&o.kernels, "kcsan");
	series[3] = covered_by_a_lock;
	flush_b1_columns(trs, 4, models, &v61, &v612);
	plan_guests(&o, &run);
	/* Column 0 boots first and hunts it -d. */
	plan_before_boot(&o, &run, 0);
	assert_null(trs[0].emu_hunted_on);
	assert_non_null(strstr(trs[0].run_list, covered));
	assert_null(strstr(trs[0].run_list, "duration=2"));
	trs[0].booted = true;
	/* Column 1, the same version: 2 s, and it names column 0. */
	plan_before_boot(&o, &run, 1);
	assert_string_equal(trs[1].emu_hunted_on, "column0");
	assert_non_null(strstr(trs[1].run_list, "kw_worker_emu.duration=2,kw_worker_emu.emu_direct=flush-b1"));
	assert_int_equal(trs[1].bound, trs[1].target->boot_seconds + 30 + 2);
	/* Column 3, 6.12: its own series, hunted -d. */
	plan_before_boot(&o, &run, 3);
	assert_null(trs[3].emu_hunted_on);
	assert_null(strstr(trs[3].run_list, "duration=2"));
	/* Had column 0 not booted, column 1 would hunt it. */
	trs[0].booted = false;
	plan_before_boot(&o, &run, 1);
	assert_null(trs[1].emu_hunted_on);
	assert_null(strstr(trs[1].run_list, "duration=2"));
	free_columns(trs, 4);
	strlist_free(&o.kernels);
}

/*
 * By default (plain kernels only) the first column of a version to boot
 * samples a covered barrier's emulated mutant 2 s and names no hunter; a
 * later one of that version leaves it out (its cell names the sampler),
 * one of another version, or after a column that did not boot, samples it.
 */
static void covered_claims_are_sampled_once_by_default(void **state)
{
	struct lkmm_barrier seed[4] = { 0 }, series[4] = { 0 };
	const struct lkmm_barrier *seed_at[4] = { &seed[0], &seed[1], &seed[2], &seed[3] };
	const struct lkmm_barrier *series_at[4] = {
		&series[0], &series[1], &series[2], &series[3],
	};
	struct lkmm_model models[2] = {
		{ .version = "seed", .barriers = seed_at },
		{ .version = "series", .barriers = series_at },
	};
	struct build_env v61 = { 0 }, v612 = { 0 };
	struct options o = { .duration = 10 };
	struct target_result trs[4] = { 0 };
	struct run run = { .targets = trs, .nr_targets = 4 };
	const struct suite *covered = suite_find("mutant-emu-flush-b1");
	const char *sampled = "kw_worker_emu.duration=2,kw_worker_emu.emu_direct=flush-b1";

	(void)state;
	strlist_add(&o.kernels, "plain");
	series[3] = covered_by_a_lock;
	flush_b1_columns(trs, 4, models, &v61, &v612);
	plan_guests(&o, &run);
	plan_before_boot(&o, &run, 0);
	assert_null(trs[0].emu_hunted_on);
	assert_null(trs[0].covered_sampled_on);
	assert_true(plan_samples_covered(&trs[0], covered));
	assert_false(plan_holds_back(&trs[0], covered));
	assert_false(plan_repeats_hunt(&trs[0], covered));
	assert_non_null(strstr(trs[0].run_list, sampled));
	assert_int_equal(trs[0].nr_guest_suites, 1);
	trs[0].booted = true;
	/* Column 1, the same version: left out, and it names column 0. */
	plan_before_boot(&o, &run, 1);
	assert_string_equal(trs[1].covered_sampled_on, "column0");
	assert_true(plan_holds_back(&trs[1], covered));
	assert_null(strstr(trs[1].run_list, "mutant-emu-flush-b1"));
	assert_int_equal(trs[1].nr_guest_suites, 0);
	assert_int_equal(trs[1].bound, trs[1].target->boot_seconds);
	trs[1].booted = true;
	/* Column 2 does not take column 1, which left it out, for a sampler. */
	plan_before_boot(&o, &run, 2);
	assert_string_equal(trs[2].covered_sampled_on, "column0");
	/* Column 3, 6.12: its own series, sampled. */
	plan_before_boot(&o, &run, 3);
	assert_null(trs[3].covered_sampled_on);
	assert_non_null(strstr(trs[3].run_list, sampled));
	/* Had column 0 not booted, column 1 would sample it. */
	trs[0].booted = false;
	plan_before_boot(&o, &run, 1);
	assert_null(trs[1].covered_sampled_on);
	assert_non_null(strstr(trs[1].run_list, sampled));
	assert_int_equal(trs[1].nr_guest_suites, 1);
	free_columns(trs, 4);
	strlist_free(&o.kernels);
}

/*
 * The emulated machine's own tests, where no model claims anything: the
 * first column hunts them -d, a later one of the same version repeats
 * each 2 s.
 */
static void emulated_machine_tests_are_hunted_once(void **state)
{
	static const char *const own[] = { "calibrate-emu", "litmus-emu", "torture-emu" };
	struct build_env v61 = { 0 };
	struct options o = { .duration = 10 };
	struct target_result trs[2] = { 0 };
	struct run run = { .targets = trs, .nr_targets = 2 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		trs[i].target = target_find(i ? "arm64" : "riscv64");
		trs[i].env = &v61;
		trs[i].build.name = xasprintf("column%d", i);
		for (int j = 0; j < 3; j++)
			strlist_add(&trs[i].suites, own[j]);
	}
	plan_guests(&o, &run);
	plan_before_boot(&o, &run, 0);
	assert_null(trs[0].emu_hunted_on);
	assert_null(strstr(trs[0].run_list, "duration=2"));
	trs[0].booted = true;
	plan_before_boot(&o, &run, 1);
	assert_string_equal(trs[1].emu_hunted_on, "column0");
	assert_non_null(strstr(trs[1].run_list, "calibrate-emu:emu/kw_calibrate:kw_calibrate.duration=2"));
	assert_non_null(strstr(trs[1].run_list, "litmus-emu:emu/kw_litmus:kw_litmus.duration=2"));
	assert_non_null(strstr(trs[1].run_list, "kw_worker_emu.duration=2,kw_worker_emu.emu_direct=each"));
	free_columns(trs, 2);
}

/*
 * Builds and guests: on 2 host CPUs one guest at a time, taking turns
 * with the builds; from 4 on, a guest per two CPUs beside the builds.
 * Warm builds run side by side, up to two per CPU; one from scratch
 * anywhere among them, and they go one at a time.
 */
/*
 * A suite one of whose modules is a variant the build found this revision
 * cannot have does not run, and says why; the others are unaffected.
 */
static void inapplicable_variants_do_not_run(void **state)
{
	struct target_result tr = { 0 };

	(void)state;
	strlist_add(&tr.build.not_applicable, "no-flush-b0");
	strlist_add(&tr.build.not_applicable_why, "no barrier tagged flush-b0");
	assert_string_equal(plan_not_applicable(&tr, suite_find("mutant-flush-b0")),
			    "no barrier tagged flush-b0");
	assert_null(plan_not_applicable(&tr, suite_find("mutant-emu-flush-b0")));
	assert_null(plan_not_applicable(&tr, suite_find("mutant-seed-flush-b0")));
	assert_null(plan_not_applicable(&tr, suite_find("torture")));
	strlist_add(&tr.build.not_applicable, "emu-no-flush-b0");
	strlist_add(&tr.build.not_applicable_why, "no barrier tagged flush-b0 (emulated)");
	assert_string_equal(plan_not_applicable(&tr, suite_find("mutant-emu-flush-b0")),
			    "no barrier tagged flush-b0 (emulated)");
	strlist_free(&tr.build.not_applicable);
	strlist_free(&tr.build.not_applicable_why);
}

static void boot_policy_by_host_cpus(void **state)
{
	static const struct {
		long ncpu;
		int columns, cold;
		int slots;
		bool alternate;
		int builders;
	} want[] = {
		{ 1, 3, 0, 1, true, 1 }, { 2, 3, 0, 1, true, 3 },
		{ 2, 3, 1, 1, true, 1 }, { 2, 8, 0, 1, true, 4 },
		{ 3, 3, 0, 1, true, 3 }, { 4, 3, 0, 2, false, 3 },
		{ 8, 3, 3, 4, false, 1 }, { -1, 3, 0, 1, true, 1 },
		{ 2, 0, 0, 1, true, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		struct boot_policy p = plan_boot_policy(want[i].ncpu, want[i].columns,
							want[i].cold);

		assert_int_equal(p.slots, want[i].slots);
		assert_int_equal(p.alternate, want[i].alternate);
		assert_int_equal(p.builders, want[i].builders);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(columns_have_the_suites_of_their_kernel),
		cmocka_unit_test(nothing_to_run_is_refused),
		cmocka_unit_test(command_line_and_bound),
		cmocka_unit_test(test_modules_are_told_apart),
		cmocka_unit_test(guests_are_planned_once),
		cmocka_unit_test(only_needed_barriers_are_hunted),
		cmocka_unit_test(covered_claims_are_hunted_once_per_version),
		cmocka_unit_test(covered_claims_are_sampled_once_by_default),
		cmocka_unit_test(emulated_machine_tests_are_hunted_once),
		cmocka_unit_test(inapplicable_variants_do_not_run),
		cmocka_unit_test(boot_policy_by_host_cpus),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
