// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* matrix.json: what it holds, and that it is written whole or not at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calibration.h"
#include "fs.h"
#include "lkmm.h"
#include "oracles.h"
#include "collect.h"
#include "judge.h"
#include "report.h"
#include "suites.h"
#include "tmpdir.h"
#include "util.h"
#include "subject.h"


static const char *const suites[] = { "kunit" };

static void fill_run(struct run *run, struct target_result *tr)
{
	char *log = xasprintf("%s/console.log", dir);
	char *text = read_file("tests/data/riscv64-kunit-pass.log", NULL);

	assert_non_null(text);
	assert_int_equal(write_file_atomic(log, text, strlen(text)), 0);
	free(text);
	memset(run, 0, sizeof(*run));
	memset(tr, 0, sizeof(*tr));
	tr->target = target_find("riscv64");
	tr->build.name = xstrdup("riscv64");
	strlist_add(&tr->suites, suites[0]);
	tr->build_ok = true;
	tr->build.dir = xstrdup("/cache/build/riscv64-0123");
	tr->guest.ran = true;
	tr->guest.console_log = log;
	tr->guest.qemu_log = xasprintf("%s/qemu.log", dir);
	tr->guest.command = xstrdup("qemu-system-riscv64 -M virt 'quoted arg'");
	tr->guest.first_ktap = 0.5;
	tr->guest.ended = 1.5;
	run->id = xstrdup("test-run");
	run->dir = xstrdup(dir);
	run->suites = suites;
	run->nr_suites = 1;
	run->targets = tr;
	run->nr_targets = 1;
	run->complete = true;
}

/* The run and its one column ask for @v. */
static void use_suites(struct run *run, struct target_result *tr,
		       const char *const *v, int n)
{
	strlist_free(&tr->suites);
	for (int i = 0; i < n; i++)
		strlist_add(&tr->suites, v[i]);
	run->suites = v;
	run->nr_suites = n;
}

/* The collect stage reads the logs on disk, then the judge. */
static void collect_and_judge(struct run *run)
{
	collect_run(run);
	judge_run(run);
}

/*
 * A column that ran @v and whose console says @log, judged as structs
 * beside @models (NULL: none): parsed here, with no file and no collect
 * stage.
 */
static void judge_log_models(struct run *run, struct target_result *tr,
			     const char *log, const char *const *v, int n,
			     struct lkmm_model *models)
{
	struct guest_outcome outcome = { 0 };

	fill_run(run, tr);
	use_suites(run, tr, v, n);
	parse_console(log, (const char *const *)tr->suites.v, tr->suites.n, &outcome,
		      &tr->console);
	tr->nr_rates = parse_calibration(log, &tr->rates);
	run->models = models;
	judge_run(run);
}

static void judge_log(struct run *run, struct target_result *tr, const char *log,
		      const char *const *v, int n)
{
	judge_log_models(run, tr, log, v, n, NULL);
}

static void free_run(struct run *run, struct target_result *tr)
{
	collect_free(run);
	build_free(&tr->build);
	strlist_free(&tr->suites);
	free(tr->guest.console_log);
	free(tr->guest.qemu_log);
	free(tr->guest.command);
	console_result_free(&tr->console);
	litmus_rows_free(tr->litmus, tr->nr_litmus);
	free(run->id);
	free(run->dir);
}

static void json_holds_every_cell(void **state)
{
	struct target_result tr;
	struct run run;
	char *path = xasprintf("%s/matrix.json", dir);
	json_object *root, *t, *cell, *v;
	FILE *devnull = fopen("/dev/null", "w");

	(void)state;
	fill_run(&run, &tr);
	collect_and_judge(&run);
	assert_int_equal(report_write_json(&run), 0);
	assert_true(report_print_table(&run, devnull));
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "complete", &v));
	assert_true(json_object_get_boolean(v));
	t = json_object_array_get_idx(json_object_object_get(root, "targets"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(t, "target")),
			    "riscv64");
	v = json_object_object_get(json_object_object_get(t, "guest"), "qemu_command");
	assert_string_equal(json_object_get_string(v),
			    "qemu-system-riscv64 -M virt 'quoted arg'");
	v = json_object_object_get(json_object_object_get(t, "guest"), "console_log");
	assert_string_equal(json_object_get_string(v), "console.log");
	cell = json_object_array_get_idx(json_object_object_get(t, "cells"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(cell, "status")),
			    "PASS");
	v = json_object_object_get(json_object_object_get(cell, "counts"), "passed");
	assert_int_equal(json_object_get_int(v), 7);
	json_object_put(root);
	fclose(devnull);
	free_run(&run, &tr);
	free(path);
}

static void incomplete_run_is_marked_and_fails(void **state)
{
	struct target_result tr;
	struct run run;
	char *path = xasprintf("%s/matrix.json", dir);
	json_object *root;
	FILE *devnull = fopen("/dev/null", "w");

	(void)state;
	fill_run(&run, &tr);
	run.complete = false;
	collect_and_judge(&run);
	assert_int_equal(report_write_json(&run), 0);
	assert_false(report_print_table(&run, devnull));
	root = json_object_from_file(path);
	assert_false(json_object_get_boolean(json_object_object_get(root, "complete")));
	json_object_put(root);
	fclose(devnull);
	free_run(&run, &tr);
	free(path);
}

static void unwritable_folder_leaves_nothing(void **state)
{
	struct target_result tr;
	struct run run;
	char *ro = xasprintf("%s/ro", dir);
	struct dirent *de;
	DIR *d;

	(void)state;
	if (!geteuid()) {
		/* root ignores permissions: use a folder that cannot exist. */
		free(ro);
		ro = xstrdup("/proc/kwm-no-such-folder");
	} else {
		mkdir_p(ro);
		chmod(ro, 0555);
	}
	fill_run(&run, &tr);
	free(run.dir);
	run.dir = xstrdup(ro);
	collect_and_judge(&run);
	assert_int_equal(report_write_json(&run), -1);
	d = opendir(dir);
	while ((de = readdir(d)))
		assert_null(strstr(de->d_name, ".tmp."));
	closedir(d);
	free_run(&run, &tr);
	free(ro);
}

static void build_error_fills_every_cell(void **state)
{
	struct target_result tr;
	struct run run;

	(void)state;
	fill_run(&run, &tr);
	tr.build_ok = false;
	tr.build.error = xstrdup("riscv64 build: make failed (see build.log)");
	tr.build.excerpt = xstrdup("lib/kw_worker.c:1: error: oops\n");
	collect_and_judge(&run);
	assert_int_equal(tr.console.suites[0].status, CELL_ERROR);
	assert_non_null(strstr(tr.console.suites[0].excerpt, "error: oops"));
	free_run(&run, &tr);
}

/* Mutant cells read the target's calibration figures. */
static void mutants_are_classified_by_calibration(void **state)
{
	static const char *const mutant_suites[] = {
		"calibrate", "mutant-worker-b1", "mutant-flush-b1", "mutant-worker-b0",
		"torture-seed",
	};
	static const char *const log =
		"# kwm: init started\n# kwm-suite: calibrate\n"
		"    # kwc: shape=SB+mb-plain+wait forbidden=0 runs=1000000 weak=25 per_million=25\n"
		"    # kwc: shape=MP+wmb forbidden=0 runs=1000000 weak=3 per_million=3\n"
		"    ok 1 SB\nok 1 kw_calibrate\n# kwm-suite-end: calibrate\n"
		"# kwm-suite: mutant-worker-b1\n    ok 1 completion\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-worker-b1\n"
		"# kwm-suite: mutant-flush-b1\n    ok 1 completion\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-flush-b1\n"
		"# kwm-suite: mutant-worker-b0\n"
		"    not ok 2 visibility # 4 violations, first after 10 ms and 99 operations\n"
		"not ok 1 kw_worker_torture\n# kwm-suite-end: mutant-worker-b0\n"
		"# kwm-suite: torture-seed\n    not ok 1 completion # 9 violations\n"
		"not ok 1 kw_worker_torture\n# kwm-suite-end: torture-seed\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	judge_log(&run, &tr, log, mutant_suites, 5);
	c = tr.console.suites;
	assert_int_equal(c[0].status, CELL_PASS);
	/* Seen 25 times: a survivor there is the torture's failure. */
	assert_int_equal(c[1].status, CELL_SURVIVED);
	/* Seen 3 times is seen: the rate, and what the torture would need. */
	assert_int_equal(c[2].status, CELL_SURVIVED);
	assert_non_null(strstr(c[2].reason, "3 weak in 1000000 runs (3.00 per million)"));
	assert_non_null(strstr(c[2].reason, "about 333333 racing instances"));
	assert_int_equal(c[3].status, CELL_KILLED);
	assert_non_null(strstr(c[3].reason, "visibility: 4 violations"));
	assert_int_equal(c[4].status, CELL_XFAIL);
	assert_string_equal(c[4].reason, "known finding reproduced: completion: 9 violations");
	assert_false(cell_status_ok(c[1].status) || cell_status_ok(c[2].status));
	assert_true(cell_status_ok(c[3].status));
	shape_rates_free(tr.rates, tr.nr_rates);
	free_run(&run, &tr);
}

/*
 * A shape seen a few times per million, and a torture too short to be
 * expected to meet it: that survivor could not fail, so it is
 * UNOBSERVABLE, not red; one whose flushes would meet three weak
 * outcomes at that rate stays SURVIVED.
 */
static void rare_shape_survivor_too_short_to_fail(void **state)
{
	static const char *const v[] = {
		"calibrate", "mutant-worker-b1", "mutant-seed-worker-b1",
	};
	static const char *const log =
		"# kwm: init started\n# kwm-suite: calibrate\n"
		"    # kwc: shape=SB+mb-plain+wait forbidden=0 runs=129536 weak=1 per_million=7\n"
		"    ok 1 SB\nok 1 kw_calibrate\n# kwm-suite-end: calibrate\n"
		"# kwm-suite: mutant-worker-b1\n"
		"    # kwt: seconds=2 ops=100 ops_per_sec=50 flushes=3000 queues=40\n"
		"    ok 1 completion\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-worker-b1\n"
		"# kwm-suite: mutant-seed-worker-b1\n"
		"    # kwt: seconds=2 ops=100 ops_per_sec=50 flushes=388608 queues=40\n"
		"    ok 1 completion\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-seed-worker-b1\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	judge_log(&run, &tr, log, v, 3);
	c = tr.console.suites;
	assert_int_equal(c[1].status, CELL_UNOBSERVABLE);
	assert_non_null(strstr(c[1].reason, "1 weak in 129536 runs (7.72 per million)"));
	assert_non_null(strstr(c[1].reason, "the torture's 3000 flushes in 2 s would meet 0.02 weak outcomes, fewer than the 3"));
	assert_int_equal(c[2].status, CELL_SURVIVED);
	shape_rates_free(tr.rates, tr.nr_rates);
	free_run(&run, &tr);
}

/* The litmus row's figures of @log, judged: its cell is c[0]. */
static struct suite_result *judge_litmus_log(struct run *run, struct target_result *tr,
					     const char *log)
{
	static const char *const v[] = { "litmus" };
	struct guest_outcome outcome = { 0 };

	fill_run(run, tr);
	use_suites(run, tr, v, 1);
	parse_console(log, (const char *const *)tr->suites.v, tr->suites.n, &outcome,
		      &tr->console);
	tr->nr_litmus = parse_litmus(log, "litmus", &tr->litmus, 0);
	judge_run(run);
	return tr->console.suites;
}

#define LITMUS_FIGURES(test, result, weak)				\
	"    # kwl: mode=native test=" test " result=" result		\
	" runs=512 weak=" weak " ms=1\n"

/*
 * A Never test can fail only where its shape's allowed outcome shows: the
 * cell says which could, and is UNOBSERVABLE where none could.
 */
static void litmus_never_tests_that_could_not_fail(void **state)
{
	static const char *const shown =
		"# kwm: init started\n# kwm-suite: litmus\n"
		LITMUS_FIGURES("SB+poonceonces", "Sometimes", "3")
		LITMUS_FIGURES("SB+fencembonceonces", "Never", "0")
		LITMUS_FIGURES("S+poonceonces", "Sometimes", "0")
		LITMUS_FIGURES("S+fencewmbonceonce+poacquireonce", "Never", "0")
		LITMUS_FIGURES("2+2W+fencembonceonces", "Never", "0")
		"    ok 1 SB+poonceonces\nok 1 kw_litmus\n# kwm-suite-end: litmus\n# kwm-done\n";
	/* The module ran S's Never test briefly, S+poonceonces having shown nothing. */
	static const char *const brief =
		"# kwm: init started\n# kwm-suite: litmus\n"
		LITMUS_FIGURES("SB+poonceonces", "Sometimes", "3")
		LITMUS_FIGURES("S+poonceonces", "Sometimes", "0")
		LITMUS_FIGURES("SB+fencembonceonces", "Never", "0")
		"    # kwl: mode=native test=S+fencewmbonceonce+poacquireonce result=Never"
		" runs=64 weak=0 ms=1 brief=1\n"
		"    ok 1 SB+poonceonces\nok 1 kw_litmus\n# kwm-suite-end: litmus\n# kwm-done\n";
	static const char *const unshown =
		"# kwm: init started\n# kwm-suite: litmus\n"
		LITMUS_FIGURES("MP+poonceonces", "Sometimes", "0")
		LITMUS_FIGURES("MP+fencewmbonceonce+fencermbonceonce", "Never", "0")
		"    ok 1 MP+poonceonces\nok 1 kw_litmus\n# kwm-suite-end: litmus\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	c = judge_litmus_log(&run, &tr, shown);
	assert_int_equal(c[0].status, CELL_PASS);
	assert_string_equal(c[0].reason, "1 of 3 Never tests could fail here (a Sometimes test of their shape showed its weak outcome: SB); 2 could not (S, 2+2W: unobservable here)");
	free_run(&run, &tr);
	c = judge_litmus_log(&run, &tr, unshown);
	assert_int_equal(c[0].status, CELL_UNOBSERVABLE);
	assert_non_null(strstr(c[0].reason, "none of its 1 Never tests could fail here"));
	free_run(&run, &tr);
	c = judge_litmus_log(&run, &tr, brief);
	assert_int_equal(c[0].status, CELL_PASS);
	assert_true(tr.litmus[3].side[0].brief);
	assert_false(tr.litmus[2].side[0].brief);
	assert_non_null(strstr(c[0].reason, "1 could not (S: unobservable here; 1 of them ran their minimum rounds only"));
	free_run(&run, &tr);
}
#undef LITMUS_FIGURES

/* A shape that calibration never showed: the mutant proves nothing, and says so. */
static void unseen_or_unmeasured_shapes(void **state)
{
	static const char *const v[] = { "calibrate", "mutant-flush-b1", "mutant-worker-b1" };
	static const char *const log =
		"# kwm: init started\n# kwm-suite: calibrate\n"
		"    # kwc: shape=MP+wmb forbidden=0 runs=1000000 weak=0 per_million=0\n"
		"    ok 1 MP+wmb\nok 1 kw_calibrate\n# kwm-suite-end: calibrate\n"
		"# kwm-suite: mutant-flush-b1\n"
		"    # kwt: seconds=2 ops=100 ops_per_sec=50 flushes=60 queues=40\n"
		"    ok 1 completion\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-flush-b1\n"
		"# kwm-suite: mutant-worker-b1\n    ok 1 completion\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-worker-b1\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	judge_log(&run, &tr, log, v, 3);
	c = tr.console.suites;
	assert_int_equal(c[1].status, CELL_UNOBSERVABLE);
	assert_string_equal(c[1].reason, "calibration saw MP+wmb 0 times in 1000000 runs here: this platform cannot show what the barrier guards against (the mutant ran 2 s)");
	/* No figure for SB+mb-plain+wait: not decided, and not green. */
	assert_int_equal(c[2].status, CELL_UNDECIDED);
	assert_non_null(strstr(c[2].reason, "no calibration figure for SB+mb-plain+wait"));
	assert_false(cell_status_ok(c[2].status));
	shape_rates_free(tr.rates, tr.nr_rates);
	free_run(&run, &tr);
}

/*
 * A native mutant the guest did not run, as calibration saw its shape 0
 * times: UNOBSERVABLE on that figure.  The same line beside a figure
 * with weak outcomes is not decided; on any other kind of cell, an ERROR.
 */
static void mutants_not_run_for_an_unseen_shape(void **state)
{
	static const char *const v[] = {
		"calibrate", "mutant-flush-b1", "mutant-worker-b0", "torture",
	};
	static const char *const log =
		"# kwm: init started\n# kwm-suite: calibrate\n"
		"    # kwc: shape=MP+wmb forbidden=0 runs=1000 weak=0 per_million=0\n"
		"    # kwc: shape=MP+rmb forbidden=0 runs=1000 weak=2 per_million=2000\n"
		"    ok 1 MP+wmb\nok 1 kw_calibrate\n# kwm-suite-end: calibrate\n"
		"# kwm-suite: mutant-flush-b1\n"
		"# kwm: not run: calibration saw MP+wmb 0 times in 1000 runs\n"
		"# kwm-suite-end: mutant-flush-b1\n"
		"# kwm-suite: mutant-worker-b0\n"
		"# kwm: not run: calibration saw MP+rmb 0 times in 1000 runs\n"
		"# kwm-suite-end: mutant-worker-b0\n"
		"# kwm-suite: torture\n"
		"# kwm: not run: calibration saw MP 0 times in 1000 runs\n"
		"# kwm-suite-end: torture\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	judge_log(&run, &tr, log, v, 4);
	c = tr.console.suites;
	assert_string_equal(c[1].not_run, "calibration saw MP+wmb 0 times in 1000 runs");
	assert_int_equal(c[1].status, CELL_UNOBSERVABLE);
	assert_non_null(strstr(c[1].reason, "calibration saw MP+wmb 0 times in 1000 runs here"));
	assert_non_null(strstr(c[1].reason, "the guest did not run it"));
	assert_int_equal(c[2].status, CELL_UNDECIDED);
	assert_non_null(strstr(c[2].reason, "yet calibration saw MP+rmb 2 times in 1000 runs"));
	assert_int_equal(c[3].status, CELL_ERROR);
	assert_false(cell_status_ok(c[3].status));
	shape_rates_free(tr.rates, tr.nr_rates);
	free_run(&run, &tr);
}

/*
 * The litmus/ models judged by a stand-in for herd7 that answers as herd7
 * 7.57 did (README): Never where the removed barrier's accesses are
 * still covered, Sometimes where nothing is left to order them.
 */
static const char stub_herd7[] =
	"#!/bin/sh\n"
	"[ \"$1\" = -version ] && { echo 'herd7 stub'; exit 0; }\n"
	"for tag in worker-b0 worker-b1 flush-b0 flush-b1; do\n"
	"	grep -q \"kwmatrix: $tag removed\" \"$3\" || continue\n"
	"	grep -q \"covers [^:]*$tag\" \"$3\" || { echo 'Observation t Sometimes'; exit 0; }\n"
	"done\n"
	"echo 'Observation t Never'\n";

/* The models judged with @path as PATH, which is put back after. */
static struct lkmm_model *judge_models(const char *path, const char *tree)
{
	struct lkmm_model *models = xcalloc(kwm_nr_subject_versions, sizeof(*models));
	char *saved = xstrdup(getenv("PATH"));

	setenv("PATH", path, 1);
	for (int i = 0; i < kwm_nr_subject_versions; i++)
		lkmm_model_judge(getenv("PWD"), tree, dir, kwm_subject_versions[i],
				 &models[i]);
	setenv("PATH", saved, 1);
	free(saved);
	return models;
}

static struct lkmm_model *stub_herd7_models(void)
{
	char *path, *bin = xasprintf("%s/bin", dir);
	char *tree = xasprintf("%s/tree", dir);
	char *herd7 = xasprintf("%s/herd7", bin);
	char *mm = xasprintf("%s/tools/memory-model", tree);
	char *cat = xasprintf("%s/linux-kernel.cat", mm);
	struct lkmm_model *models;

	assert_int_equal(mkdir_p(bin), 0);
	assert_int_equal(mkdir_p(mm), 0);
	assert_int_equal(write_file_atomic(cat, "", 0), 0);
	assert_int_equal(write_file_atomic(herd7, stub_herd7, strlen(stub_herd7)), 0);
	assert_int_equal(chmod(herd7, 0755), 0);
	path = xasprintf("%s:/usr/bin:/bin", bin);
	models = judge_models(path, tree);
	free(path);
	free(bin);
	free(tree);
	free(herd7);
	free(mm);
	free(cat);
	return models;
}

/*
 * The repository's path models beside the cells, judged by the stub: a
 * mutant of a barrier the model shows covered is COVERED, not a platform's
 * limit; the seed's known finding kills none of its mutants; and the
 * verdicts follow.
 */
static void covered_mutants_and_verdicts(void **state)
{
	static const char *const v[] = {
		"calibrate", "mutant-worker-b0", "mutant-seed-flush-b1", "mutant-seed-worker-b0",
	};
	static const char *const log =
		"# kwm: init started\n# kwm-suite: calibrate\n"
		"    # kwc: shape=MP+wmb forbidden=0 runs=1000 weak=0 per_million=0\n"
		"    # kwc: shape=MP+rmb forbidden=0 runs=1000 weak=0 per_million=0\n"
		"    ok 1 MP+wmb\n    ok 2 MP+rmb\nok 1 kw_calibrate\n# kwm-suite-end: calibrate\n"
		"# kwm-suite: mutant-worker-b0\n    ok 1 visibility\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-worker-b0\n"
		"# kwm-suite: mutant-seed-flush-b1\n    ok 1 visibility\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-seed-flush-b1\n"
		"# kwm-suite: mutant-seed-worker-b0\n    not ok 1 completion # 3 violations\n"
		"    ok 2 visibility\nnot ok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-seed-worker-b0\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	judge_log_models(&run, &tr, log, v, 4, stub_herd7_models());

	c = tr.console.suites;
	assert_int_equal(c[1].status, CELL_COVERED);
	assert_non_null(strstr(c[1].reason, "covered by patch 5's worker->lock handoff"));
	assert_true(cell_status_ok(c[1].status));
	assert_int_equal(c[2].status, CELL_UNOBSERVABLE);
	/* Only the seed's own finding fired: no kill. */
	assert_int_equal(c[3].status, CELL_UNOBSERVABLE);
	for (int i = 0; i < run.nr_verdicts; i++) {
		const struct barrier_verdict *bv = &run.verdicts[i];

		/* Needed by the series' other-queuer caller: no kill here. */
		if (!strcmp(bv->barrier, "flush-b1"))
			assert_int_equal(bv->kind, VERDICT_NOT_DECIDED);
		if (!strcmp(bv->barrier, "worker-b0") && !strcmp(bv->version, "series"))
			assert_int_equal(bv->kind, VERDICT_REDUNDANT);
		if (!strcmp(bv->barrier, "worker-b0") && !strcmp(bv->version, "seed"))
			assert_non_null(strstr(bv->evidence, "not killed in 1 cell: riscv64 UNOBSERVABLE"));
	}
	assert_int_equal(run.nr_verdicts, 2 * kwm_nr_barrier_tags);
	shape_rates_free(tr.rates, tr.nr_rates);
	free_run(&run, &tr);
}

/* The emulated machine's calibration, then mutant-emu-worker-b0 not caught. */
static const char *const emulated_worker_b0[] = { "calibrate-emu", "mutant-emu-worker-b0" };
#define EMULATED_WORKER_B0_GOT_THROUGH					\
	"# kwm: init started\n# kwm-suite: calibrate-emu\n    ok 1 MP\n"	\
	"ok 1 kw_calibrate\n# kwm-suite-end: calibrate-emu\n"		\
	"# kwm-suite: mutant-emu-worker-b0\n    ok 1 visibility\n"	\
	"ok 1 kw_worker_torture\n# kwm-suite-end: mutant-emu-worker-b0\n"

/*
 * emulated_worker_b0's two suites after @log, judged with the stub herd7
 * models: @hunted_on the column that hunted them, or by default sampled.
 */
static struct suite_result *judge_emulated_worker_b0(struct run *run, struct target_result *tr,
						    const char *hunted_on)
{
	static const char *const log = EMULATED_WORKER_B0_GOT_THROUGH
		"# kwm-suite-seconds: mutant-emu-worker-b0 2.051\n# kwm-done\n";
	struct guest_outcome outcome = { 0 };

	fill_run(run, tr);
	use_suites(run, tr, emulated_worker_b0, 2);
	parse_console(log, (const char *const *)tr->suites.v, tr->suites.n, &outcome,
		      &tr->console);
	run->models = stub_herd7_models();
	tr->models = run->models;	/* as collect.c does */
	tr->emu_hunted_on = hunted_on;
	tr->samples_covered = !hunted_on;
	judge_run(run);
	return tr->console.suites;
}

/*
 * A later column repeats the emulated machine's tests another hunted -d
 * (with an oracle kernel in the run): its cells say so.
 */
static void emulated_machine_tests_repeated_after_another_column(void **state)
{
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	c = judge_emulated_worker_b0(&run, &tr, "arm64");
	assert_int_equal(c[0].status, CELL_PASS);
	assert_non_null(strstr(c[0].reason, "hunted -d on arm64, repeated "));
	assert_int_equal(c[1].status, CELL_COVERED);
	assert_non_null(strstr(c[1].reason, "; hunted -d on arm64, repeated 2 s here: "
			       "the emulated machine is the same software on every target"));
	free_run(&run, &tr);
}

/* By default a covered barrier's emulated mutant was sampled: its cell says so. */
static void covered_emulated_mutant_sampled(void **state)
{
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	c = judge_emulated_worker_b0(&run, &tr, NULL);
	assert_int_equal(c[1].status, CELL_COVERED);
	assert_non_null(strstr(c[1].reason, "; sampled 2 s here (hunted -d with an oracle kernel: -k all)"));
	assert_null(strstr(c[1].reason, "repeated"));
	free_run(&run, &tr);
}

/*
 * A later column leaves out the covered mutant an earlier one sampled:
 * no suite in its console, yet a cell that says who sampled it.
 */
static void covered_emulated_mutant_held_back(void **state)
{
	static const char *const log = "# kwm: init started\n# kwm-suite: calibrate-emu\n"
		"    ok 1 MP\nok 1 kw_calibrate\n# kwm-suite-end: calibrate-emu\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	fill_run(&run, &tr);
	use_suites(&run, &tr, emulated_worker_b0, 2);
	assert_int_equal(write_file_atomic(tr.guest.console_log, log, strlen(log)), 0);
	run.models = stub_herd7_models();
	tr.models = run.models;
	tr.samples_covered = true;
	tr.covered_sampled_on = "riscv64";
	collect_and_judge(&run);
	c = tr.console.suites;
	assert_int_equal(c[0].status, CELL_PASS);
	assert_int_equal(c[1].status, CELL_COVERED);
	assert_non_null(strstr(c[1].reason, "; not run here: riscv64 sampled it on the emulated machine"));
	assert_true(c[1].seconds == 0);
	/* Left out of a guest that stopped early, it is no crash either. */
	free_run(&run, &tr);
	fill_run(&run, &tr);
	use_suites(&run, &tr, emulated_worker_b0, 2);
	assert_int_equal(write_file_atomic(tr.guest.console_log, "# kwm: init started\n", 21), 0);
	run.models = stub_herd7_models();
	tr.models = run.models;
	tr.samples_covered = true;
	tr.covered_sampled_on = "riscv64";
	collect_and_judge(&run);
	assert_int_equal(tr.console.suites[0].status, CELL_CRASHED);
	assert_int_equal(tr.console.suites[1].status, CELL_COVERED);
	free_run(&run, &tr);
}

/* Without herd7 a header is a claim: nothing is COVERED on its word. */
static void nothing_covered_on_an_unchecked_header(void **state)
{
	struct lkmm_model *models = judge_models("/nonexistent", "/nonexistent");
	const struct lkmm_barrier *b = lkmm_find(models, "series", "worker-b0");

	(void)state;
	assert_non_null(b);
	assert_string_equal(b->without.expected, "Never");
	assert_null(b->without.seen);
	assert_non_null(strstr(b->without.unchecked, "herd7 not installed"));
	assert_false(lkmm_barrier_covered(b));
	for (int i = 0; i < kwm_nr_subject_versions; i++)
		lkmm_model_free(&models[i]);
	free(models);
}

/*
 * On the emulated machine too: a survivor that only an unchecked header
 * says is covered is UNCHECKED, never COVERED, and its reason names the
 * fix.
 */
static void emulated_survivor_on_an_unchecked_header(void **state)
{
	static const char *const log = EMULATED_WORKER_B0_GOT_THROUGH "# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;

	(void)state;
	judge_log_models(&run, &tr, log, emulated_worker_b0, 2,
			 judge_models("/nonexistent", "/nonexistent"));

	c = tr.console.suites;
	assert_int_equal(c[1].status, CELL_UNCHECKED);
	assert_non_null(strstr(c[1].reason, "only the memory model's header says"));
	assert_non_null(strstr(c[1].reason, "fix: build herd7"));
	free_run(&run, &tr);
}

/*
 * A kill on the emulated machine stands only where the machine passed the
 * memory model's own litmus tests: where a Never test showed a weak
 * outcome, the kill is UNDECIDED and says why, and with the litmus tests
 * passed it is KILLED.
 */
static void kills_need_a_validated_machine(void **state)
{
	static const char *const v[] = { "litmus-emu", "litmus-emu-steered", "mutant-emu-worker-b1" };
	static const char *const mutant =
		"# kwm-suite: mutant-emu-worker-b1\n    not ok 1 liveness # 1 violations\n"
		"not ok 1 kw_worker_torture\n# kwm-suite-end: mutant-emu-worker-b1\n# kwm-done\n";
	static const char *const failed =
		"    not ok 1 SB+fencembonceonces # Never, yet 3 weak outcomes in 512 runs (emulated)\nnot ok 1 kw_litmus\n";
	static const char *const passed =
		"    ok 1 SB+fencembonceonces # Never: 0 weak in 512 runs (emulated)\nok 1 kw_litmus\n";
	static const struct {
		const char *litmus, *steered;
		enum cell_status want;
		const char *why;
	} cases[] = {
		{ failed, passed, CELL_UNDECIDED, "failed its validation: litmus-emu is FAIL" },
		{ passed, passed, CELL_KILLED, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *log = xasprintf("# kwm: init started\n# kwm-suite: litmus-emu\n%s"
				      "# kwm-suite-end: litmus-emu\n# kwm-suite: litmus-emu-steered\n%s"
				      "# kwm-suite-end: litmus-emu-steered\n%s",
				      cases[i].litmus, cases[i].steered, mutant);
		struct target_result tr;
		struct run run;

		judge_log(&run, &tr, log, v, 3);
		assert_int_equal(tr.console.suites[2].status, cases[i].want);
		if (cases[i].why)
			assert_non_null(strstr(tr.console.suites[2].reason, cases[i].why));
		free_run(&run, &tr);
		free(log);
	}
}

/*
 * A needed barrier's emulated mutant that got through where its steering
 * never met a wait (a site it waits at is gone from the code): the hunt
 * made nothing, UNDECIDED; where it met some, SURVIVED.
 */
static void a_hunt_that_never_met_proves_nothing(void **state)
{
	static const char *const v[] = { "calibrate-emu", "mutant-emu-worker-b1" };
	static const char *const met[] = { "met=0", "met=3" };
	static const enum cell_status want[] = { CELL_UNDECIDED, CELL_SURVIVED };

	(void)state;
	for (int i = 0; i < 2; i++) {
		char *log = xasprintf("# kwm: init started\n# kwm-suite: calibrate-emu\n    ok 1 MP\n"
				      "ok 1 kw_calibrate\n# kwm-suite-end: calibrate-emu\n"
				      "# kwm-suite: mutant-emu-worker-b1\n"
				      "# kwe: steered=worker-b1 awaits=371 %s windows=340 met=0 partner_on_same_cpu=48\n"
				      "    ok 1 liveness\nok 1 kw_worker_torture\n"
				      "# kwm-suite-end: mutant-emu-worker-b1\n# kwm-done\n", met[i]);
		struct target_result tr;
		struct run run;

		judge_log(&run, &tr, log, v, 2);
		assert_int_equal(tr.console.suites[1].status, want[i]);
		if (want[i] == CELL_UNDECIDED)
			assert_non_null(strstr(tr.console.suites[1].reason,
						"its steering never met a wait (steered=worker-b1 awaits=371 met=0"));
		free_run(&run, &tr);
		free(log);
	}
}

/*
 * A kill where litmus-emu did not run at all proves no more than one on
 * a machine that failed it: UNDECIDED, naming the suite to run.
 */
static void a_kill_without_validation_is_undecided(void **state)
{
	static const char *const v[] = { "mutant-emu-worker-b1" };
	static const char *const log =
		"# kwm: init started\n# kwm-suite: mutant-emu-worker-b1\n"
		"    not ok 1 liveness # 1 violations\nnot ok 1 kw_worker_torture\n"
		"# kwm-suite-end: mutant-emu-worker-b1\n# kwm-done\n";
	struct target_result tr;
	struct run run;

	(void)state;
	judge_log(&run, &tr, log, v, 1);
	assert_int_equal(tr.console.suites[0].status, CELL_UNDECIDED);
	assert_non_null(strstr(tr.console.suites[0].reason,
				"litmus-emu did not run here"));
	free_run(&run, &tr);
}

/* torture-seed is XFAIL only when its finding's own check fired. */
static void known_finding_only_by_its_check(void **state)
{
	static const char *const v[] = { "torture-seed" };
	static const char *const logs[] = {
		/* Another check failed: a new finding, not the known one. */
		"# kwm: init started\n# kwm-suite: torture-seed\n    ok 1 completion\n"
		"    not ok 2 liveness # 1 violations\nnot ok 1 kw_worker_torture\n"
		"# kwm-suite-end: torture-seed\n# kwm-done\n",
		/* The module did not load: nothing was looked for. */
		"# kwm: init started\n# kwm-suite: torture-seed\n"
		"# kwm: finit_module seed/kw_worker: Invalid argument\n"
		"not ok 1 seed/kw_worker # module did not load\n"
		"# kwm-suite-end: torture-seed\n# kwm-done\n",
	};
	static const char *const want[] = {
		"not ok 2 liveness", "the completion check never ran",
	};
	struct target_result tr;
	struct run run;

	(void)state;
	for (int i = 0; i < 2; i++) {
		judge_log(&run, &tr, logs[i], v, 1);
		assert_int_equal(tr.console.suites[0].status, CELL_FAIL);
		if (i == 0)
			assert_string_equal(tr.console.suites[0].reason,
					    "not the known finding: the liveness check failed (the finding is the completion check)");
		else
			assert_non_null(strstr(tr.console.suites[0].reason, want[i]));
		free_run(&run, &tr);
	}
}

/* Every suite's shape is one the calibration module runs. */
static void suite_shapes_are_calibration_shapes(void **state)
{
	struct strlist shapes = { 0 };
	int mutants = 0;

	(void)state;
	assert_int_equal(calibration_shapes(".", &shapes), 0);
	assert_true(strlist_has(&shapes, "SB") && strlist_has(&shapes, "MP+wmb+rmb"));
	for (int i = 0; i < kwm_nr_suites; i++)
		if (kwm_suites[i].shape) {
			assert_true(strlist_has(&shapes, kwm_suites[i].shape));
			mutants++;
		}
	assert_int_equal(mutants, 2 * kwm_nr_barrier_tags);
	assert_int_equal(calibration_check_suites("."), 0);
	strlist_free(&shapes);
	/* A mutant asked for alone brings its calibration. */
	strlist_add(&shapes, "mutant-worker-b1");
	assert_true(calibration_add_if_needed(&shapes));
	assert_true(strlist_has(&shapes, "calibrate"));
	assert_false(calibration_add_if_needed(&shapes));
	strlist_free(&shapes);
}

#define PASSING_TORTURE	"    ok 1 completion\nok 1 kw_worker_torture\n"
#define KCSAN_REPORT(module)						\
	"==================================================================\n" \
	"BUG: KCSAN: data-race in flush_kw_work" module " / kw_worker_fn" module "\n\n" \
	"write to 0xffff0000 of 4 bytes by task 60 on cpu 1:\n"	\
	" kw_worker_fn+0x70/0x110" module "\n"			\
	" kthread+0x10c/0x110\n"					\
	"==================================================================\n"

static void oracle_reports_are_attributed(void **state)
{
	static const char *const oracle_suites[] = {
		"torture", "mutant-worker-b0", "mutant-flush-b1",
		"detector-plain-done-seq", "kunit",
	};
	const char *log =
		"# kwm: init started\n"
		"# kwm-suite: torture\n" KCSAN_REPORT(" [kw_worker_torture]")
		PASSING_TORTURE "# kwm-suite-end: torture\n"
		"# kwm-suite: mutant-worker-b0\n" KCSAN_REPORT(" [kw_worker]")
		PASSING_TORTURE "# kwm-suite-end: mutant-worker-b0\n"
		"# kwm-suite: mutant-flush-b1\n"
		"BUG: KCSAN: data-race in __hrtimer_run_queues / hrtimer_active\n\n"
		"read to 0xffff of 8 bytes by interrupt on cpu 1:\n hrtimer_active+0xa0/0xf0\n"
		" el1_interrupt+0x38/0x70\n kw_worker_fn+0x70/0x110 [kw_worker]\n"
		"==================================================================\n"
		PASSING_TORTURE
		"# kwm-suite-end: mutant-flush-b1\n"
		"# kwm-suite: detector-plain-done-seq\n" KCSAN_REPORT(" [kw_worker]")
		PASSING_TORTURE "# kwm-suite-end: detector-plain-done-seq\n"
		"# kwm-suite: kunit\n" KCSAN_REPORT("")
		"    ok 1 queue\nok 1 kw_worker\n# kwm-suite-end: kunit\n# kwm-done\n";
	struct target_result tr;
	struct run run;
	struct suite_result *c;
	bool found;

	(void)state;
	fill_run(&run, &tr);
	tr.oracle = oracle_find("kcsan", &found);
	assert_int_equal(write_file_atomic(tr.guest.console_log, log, strlen(log)), 0);
	use_suites(&run, &tr, oracle_suites, 5);
	collect_and_judge(&run);
	c = tr.console.suites;
	/* A race in the test code fails the test: fix the test. */
	assert_int_equal(c[0].status, CELL_FAIL);
	assert_non_null(strstr(c[0].reason, "in the test code"));
	assert_int_equal(c[1].status, CELL_KILLED);
	assert_non_null(strstr(c[1].reason, "KCSAN: data-race in flush_kw_work"));
	/* Not seen by the oracle: says what it cannot see, never a pass. */
	assert_int_equal(c[2].status, CELL_UNOBSERVABLE);
	assert_non_null(strstr(c[2].reason, "KCSAN reported nothing"));
	assert_int_equal(c[3].status, CELL_KILLED);
	/* Elsewhere in the kernel: shown, not held against the cell. */
	assert_int_equal(c[4].status, CELL_PASS);
	assert_non_null(strstr(c[4].reason, "the rest of the kernel"));
	free_run(&run, &tr);
}

static void oracle_that_cannot_run_is_unobservable(void **state)
{
	static const char *const v[] = { "kunit", "torture" };
	const char *log = "KASAN not enabled as it requires radix!\n"
			  "# kwm: init started\n# kwm-suite: kunit\n"
			  "    ok 1 queue\nok 1 kw_worker\n# kwm-suite-end: kunit\n"
			  "# kwm-suite: torture\n    ok 1 completion\n"
			  "Kernel panic - not syncing: kwmatrix fault\n";
	struct target_result tr;
	struct run run;
	bool found;

	(void)state;
	fill_run(&run, &tr);
	tr.oracle = oracle_find("kasan", &found);
	assert_int_equal(write_file_atomic(tr.guest.console_log, log, strlen(log)), 0);
	use_suites(&run, &tr, v, 2);
	collect_and_judge(&run);
	assert_int_equal(tr.console.suites[0].status, CELL_UNOBSERVABLE);
	assert_non_null(strstr(tr.console.suites[0].reason, "did not start"));
	/* The oracle's absence does not hide a crash. */
	assert_int_equal(tr.console.suites[1].status, CELL_CRASHED);
	assert_non_null(strstr(tr.console.suites[1].reason, "did not start"));
	free_run(&run, &tr);

	/* Not selected by the architecture: no build, and the cell says why. */
	fill_run(&run, &tr);
	tr.oracle = oracle_find("kcsan", &found);
	tr.unavailable = oracle_unavailable(tr.oracle, "tests/data/tree", "riscv",
					    "linux-source-6.1");
	assert_non_null(tr.unavailable);
	tr.build_ok = false;
	collect_and_judge(&run);
	assert_int_equal(tr.console.suites[0].status, CELL_UNOBSERVABLE);
	assert_non_null(strstr(tr.console.suites[0].reason, "does not select HAVE_ARCH_KCSAN"));
	free(tr.unavailable);
	free_run(&run, &tr);
}

/*
 * KASAN reports once per boot without kasan_multi_shot: an unrelated
 * report in an earlier suite leaves torture-free-seed judged by an
 * oracle that could say nothing, UNOBSERVABLE and not SURVIVED; with
 * the parameter, as kwmatrix boots it, the survivor stands.
 */
static void a_blind_oracle_judges_nothing(void **state)
{
	static const char *const v[] = { "torture-free", "torture-free-seed" };
	static const char *const log =
		"# kwm: init started\n# kwm-suite: torture-free\n"
		"BUG: KASAN: global-out-of-bounds in load_module+0xcc8/0x1cac\n"
		"    ok 1 completion\nok 1 kw_worker_torture\n# kwm-suite-end: torture-free\n"
		"# kwm-suite: torture-free-seed\n    ok 1 completion\nok 1 kw_worker_torture\n"
		"# kwm-suite-end: torture-free-seed\n# kwm-done\n";
	static const char *const appends[] = {
		"console=ttyS0 panic=-1 earlycon",
		"console=ttyS0 panic=-1 earlycon kasan_multi_shot",
	};
	static const enum cell_status want[] = { CELL_UNOBSERVABLE, CELL_SURVIVED };
	bool found;

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct target_result tr;
		struct run run;

		fill_run(&run, &tr);
		tr.oracle = oracle_find("kasan", &found);
		tr.kernel_append = xstrdup(appends[i]);
		assert_int_equal(write_file_atomic(tr.guest.console_log, log, strlen(log)), 0);
		use_suites(&run, &tr, v, 2);
		collect_and_judge(&run);
		assert_int_equal(tr.console.suites[0].status, CELL_PASS);
		assert_int_equal(tr.console.suites[1].status, want[i]);
		if (want[i] == CELL_UNOBSERVABLE)
			assert_non_null(strstr(tr.console.suites[1].reason,
						"without kasan_multi_shot on the command line, and reported in torture-free"));
		free(tr.kernel_append);
		free_run(&run, &tr);
	}
}

/* A column whose sparse log in the build folder says @text. */
static void judge_sparse_log(struct run *run, struct target_result *tr,
			     const struct strlist *files, const char *text)
{
	static const char *const with_sparse[] = { "sparse", "kunit" };
	char *log = xasprintf("%s/kwm/sparse.log", dir);

	fill_run(run, tr);
	free(tr->build.dir);
	tr->build.dir = xstrdup(dir);
	run->series_files = files;
	use_suites(run, tr, with_sparse, 2);
	assert_int_equal(write_file_atomic(log, text, strlen(text)), 0);
	collect_and_judge(run);
	free(log);
}

static void sparse_cell_from_the_build(void **state)
{
	char *kwm = xasprintf("%s/kwm", dir);
	struct strlist files = { 0 };
	struct target_result tr;
	struct run run;

	(void)state;
	assert_int_equal(mkdir_p(kwm), 0);
	strlist_add(&files, "lib/kw_worker.c");
	judge_sparse_log(&run, &tr, &files,
			 "  CHECK   /t/arch/arm64/kernel/vdso/vgettimeofday.c\n"
			 "/t/arch/arm64/kernel/vdso/vgettimeofday.c:9:5: warning: not ours\n"
			 "/t/lib/kw_worker.c:40:9: warning: context imbalance in 'kw_worker_fn'\n"
			 SPARSE_STATUS "0\n");
	assert_int_equal(tr.console.suites[0].status, CELL_FAIL);
	assert_non_null(strstr(tr.console.suites[0].reason, "1 warnings"));
	assert_non_null(strstr(tr.console.suites[0].excerpt, "context imbalance"));
	assert_int_equal(tr.console.suites[1].status, CELL_PASS);
	free_run(&run, &tr);

	/* Others' warnings are not the series'. */
	judge_sparse_log(&run, &tr, &files,
			 "/t/arch/arm64/kernel/vdso/vgettimeofday.c:9:5: warning: not ours\n"
			 SPARSE_STATUS "0\n");
	assert_int_equal(tr.console.suites[0].status, CELL_PASS);
	free_run(&run, &tr);

	/* sparse could not run for this architecture: said, not passed. */
	judge_sparse_log(&run, &tr, &files,
			 "invalid argument to '-march': '_zicsr_zifencei'\n" SPARSE_STATUS "2\n");
	assert_int_equal(tr.console.suites[0].status, CELL_UNOBSERVABLE);
	free_run(&run, &tr);

	judge_sparse_log(&run, &tr, &files, SPARSE_MISSING "\n");
	assert_int_equal(tr.console.suites[0].status, CELL_ERROR);
	assert_non_null(strstr(tr.console.suites[0].reason, "apt-get install sparse"));
	free_run(&run, &tr);
	strlist_free(&files);
	rm_rf(kwm);
	free(kwm);
}

/* armhf (build only) failed to build with @excerpt. */
static void judge_build_only(struct run *run, struct target_result *tr,
			     const struct strlist *files, const char *excerpt)
{
	static const char *const build_cells[] = { "build", "sparse" };

	fill_run(run, tr);
	tr->target = target_find("armhf");
	tr->build_ok = false;
	tr->build.error = xstrdup("armhf build: make failed");
	tr->build.excerpt = xstrdup(excerpt);
	run->series_files = files;
	use_suites(run, tr, build_cells, 2);
	collect_and_judge(run);
}

/* A build-only target's failure: the series' fault, or outside it. */
static void build_only_failure_is_blamed_by_its_errors(void **state)
{
	struct strlist files = { 0 };
	struct target_result tr;
	struct run run;

	(void)state;
	strlist_add(&files, "lib/kw_worker_torture.c");
	judge_build_only(&run, &tr, &files,
			 "ERROR: modpost: \"__aeabi_uldivmod\" [lib/kw_worker_torture.ko] undefined!\n");
	assert_int_equal(tr.console.suites[0].status, CELL_ERROR);
	free_run(&run, &tr);
	judge_build_only(&run, &tr, &files, "arch/arm/kernel/entry.S:1: Error: unknown pseudo-op\n");
	assert_int_equal(tr.console.suites[0].status, CELL_UNOBSERVABLE);
	assert_non_null(strstr(tr.console.suites[0].reason, "outside the series"));
	free_run(&run, &tr);
	strlist_free(&files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_holds_every_cell),
		cmocka_unit_test(incomplete_run_is_marked_and_fails),
		cmocka_unit_test(unwritable_folder_leaves_nothing),
		cmocka_unit_test(build_error_fills_every_cell),
		cmocka_unit_test(mutants_are_classified_by_calibration),
		cmocka_unit_test(rare_shape_survivor_too_short_to_fail),
		cmocka_unit_test(unseen_or_unmeasured_shapes),
		cmocka_unit_test(litmus_never_tests_that_could_not_fail),
		cmocka_unit_test(known_finding_only_by_its_check),
		cmocka_unit_test(covered_mutants_and_verdicts),
		cmocka_unit_test(nothing_covered_on_an_unchecked_header),
		cmocka_unit_test(emulated_survivor_on_an_unchecked_header),
		cmocka_unit_test(kills_need_a_validated_machine),
		cmocka_unit_test(a_kill_without_validation_is_undecided),
		cmocka_unit_test(a_hunt_that_never_met_proves_nothing),
		cmocka_unit_test(a_blind_oracle_judges_nothing),
		cmocka_unit_test(suite_shapes_are_calibration_shapes),
		cmocka_unit_test(oracle_reports_are_attributed),
		cmocka_unit_test(oracle_that_cannot_run_is_unobservable),
		cmocka_unit_test(sparse_cell_from_the_build),
		cmocka_unit_test(build_only_failure_is_blamed_by_its_errors),
		cmocka_unit_test(mutants_not_run_for_an_unseen_shape),
		cmocka_unit_test(emulated_machine_tests_repeated_after_another_column),
		cmocka_unit_test(covered_emulated_mutant_sampled),
		cmocka_unit_test(covered_emulated_mutant_held_back),
	};

	return cmocka_run_group_tests_name("report", tests, setup, teardown);
}
