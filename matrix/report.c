// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "report.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "checkpatch.h"
#include "lkmm.h"
#include "matrix_json.h"
#include "progress.h"
#include "suites.h"
#include "variants.h"
#include "util.h"

/* Cells of a target that could not be booted all carry the build error. */
static void fail_all(struct target_result *tr, const struct run *run,
		     enum cell_status status, const char *reason,
		     const char *excerpt)
{
	struct console_result *c = &tr->console;

	(void)run;
	c->suites = xcalloc(tr->suites.n, sizeof(*c->suites));
	c->nr_suites = tr->suites.n;
	for (int i = 0; i < tr->suites.n; i++) {
		c->suites[i].name = xstrdup(tr->suites.v[i]);
		c->suites[i].status = status;
		c->suites[i].reason = xstrdup(reason);
		c->suites[i].excerpt = excerpt ? xstrdup(excerpt) : NULL;
	}
}

/* The first failing check of a torture run: "completion: 81 violations, ..." */
static char *first_violation(const struct suite_result *s)
{
	for (int i = 0; i < s->ktap.nr_tests; i++) {
		const struct ktap_test *t = &s->ktap.tests[i];

		for (int j = 0; j < t->nr_subtests; j++)
			if (t->subtests[j].status == KTAP_FAIL)
				return xasprintf("%s: %s", t->subtests[j].name,
						 t->subtests[j].directive ?
						 t->subtests[j].directive : "violated");
	}
	return NULL;
}

/* The torture's subtest named @name, or NULL. */
static const struct ktap_test *find_check(const struct suite_result *s,
					  const char *name)
{
	for (int i = 0; i < s->ktap.nr_tests; i++)
		for (int j = 0; j < s->ktap.tests[i].nr_subtests; j++)
			if (!strcmp(s->ktap.tests[i].subtests[j].name, name))
				return &s->ktap.tests[i].subtests[j];
	return NULL;
}

static const struct shape_rate *find_rate(const struct target_result *tr,
					  const char *shape)
{
	for (int i = 0; i < tr->nr_rates; i++)
		if (!strcmp(tr->rates[i].shape, shape))
			return &tr->rates[i];
	return NULL;
}

/* The failing checks of a torture run other than @name, or NULL: "liveness, requeue". */
static char *other_violations(const struct suite_result *s, const char *name)
{
	char *out = NULL;

	for (int i = 0; i < s->ktap.nr_tests; i++)
		for (int j = 0; j < s->ktap.tests[i].nr_subtests; j++) {
			const struct ktap_test *t = &s->ktap.tests[i].subtests[j];
			char *next;

			if (t->status != KTAP_FAIL || !strcmp(t->name, name))
				continue;
			next = xasprintf("%s%s%s", out ? out : "", out ? ", " : "", t->name);
			free(out);
			out = next;
		}
	return out;
}

static double per_million(const struct shape_rate *r)
{
	return r->runs ? r->weak * 1e6 / r->runs : 0;
}

/*
 * A mutant caught by a check is KILLED.  One that got through is SURVIVED
 * where calibration saw its shape on this target (the torture must do
 * better), and UNOBSERVABLE where it did not: never a pass.
 */
static void set_cell(struct suite_result *s, enum cell_status status,
		     char *reason)
{
	free(s->reason);
	s->reason = reason;
	s->status = status;
}

/* The oracle a detector must fire, or NULL for a torture check. */
static const struct oracle *detector_oracle(const struct suite *suite)
{
	bool found;

	return oracle_find(suite->must_kill, &found);
}

/*
 * A detector is KILLED only by what it names: its torture check, or its
 * oracle's report on the subject.  Other checks may fire beside it (a
 * wake-up before func() also breaks completion); the reason says so.
 */
static void classify_detector(struct suite_result *s, const struct suite *suite)
{
	const struct oracle *o = detector_oracle(suite);
	const struct ktap_test *check = o ? NULL : find_check(s, suite->must_kill);

	if (o && s->report.oracle == o && s->report.origin == ORIGIN_SUBJECT)
		set_cell(s, CELL_KILLED, xstrdup(s->report.title));
	else if (check && check->status == KTAP_FAIL)
		set_cell(s, CELL_KILLED, xasprintf("%s: %s", check->name,
						   check->directive ? check->directive : "violated"));
	else if (!o && !check && s->status == CELL_FAIL)
		/* Not a survivor: the torture never got to check (a module did not load). */
		set_cell(s, CELL_FAIL, xasprintf("the %s check never ran: %s", suite->must_kill,
						 s->reason ? s->reason : "no KTAP case of it"));
	else if (s->status == CELL_PASS || s->status == CELL_FAIL)
		set_cell(s, CELL_SURVIVED,
			 xasprintf("%s did not catch a break it must catch anywhere (a slow platform may need a longer -d)",
				   o ? o->title : suite->must_kill));
}

/*
 * A mutant caught by a check or by the oracle is KILLED.  One that got
 * through is SURVIVED where calibration saw its shape on this target (the
 * torture must do better), and UNOBSERVABLE where it did not, or where
 * the oracle cannot model it: never a pass.
 */
/*
 * Racing instances one weak outcome needs at @r's rate, against the
 * flushes the torture made: a survivor of a rare shape says how far off
 * the torture was.
 */
static char *survivor_reason(const struct suite_result *s, const struct shape_rate *r,
			     const char *shape)
{
	const char *flushes = s->stats ? strstr(s->stats, "flushes=") : NULL;

	return xasprintf("no check caught it, yet calibration saw %s here: %lu weak in %lu runs (%.2f per million); one weak outcome takes about %.0f racing instances at that rate, and the torture made %s flushes (raise -d, or make the torture race harder)",
			 shape, r->weak, r->runs, per_million(r),
			 (double)r->runs / (double)r->weak,
			 flushes ? flushes + strlen("flushes=") : "an unknown number of");
}

static void classify_mutant(struct target_result *tr, struct suite_result *s,
			    const struct suite *suite)
{
	const struct shape_rate *r;
	char *why;

	if (s->report.origin == ORIGIN_SUBJECT) {
		set_cell(s, CELL_KILLED, xasprintf("%s", s->report.title));
		return;
	}
	if (s->status == CELL_FAIL && (why = first_violation(s))) {
		set_cell(s, CELL_KILLED, why);
		return;
	}
	if (s->status != CELL_PASS)
		return;
	if (tr->oracle) {
		set_cell(s, CELL_UNOBSERVABLE,
			 xasprintf("%s reported nothing and no check fired: %s",
				   tr->oracle->title, tr->oracle->limits));
		return;
	}
	/*
	 * A single weak outcome is an observation, not noise: a fenced shape
	 * fails on one.  Without a figure nothing was shown either way.
	 */
	r = find_rate(tr, suite->shape);
	if (!r || !r->runs)
		set_cell(s, CELL_UNDECIDED,
			 xasprintf("no calibration figure for %s on this kernel (the calibrate suite did not report it), so its survival proves nothing either way",
				   suite->shape));
	else if (r->weak)
		set_cell(s, CELL_SURVIVED, survivor_reason(s, r, suite->shape));
	else
		set_cell(s, CELL_UNOBSERVABLE,
			 xasprintf("calibration saw %s 0 times in %lu runs here: this platform cannot show what the barrier guards against",
				   suite->shape, r->runs));
}

/*
 * A check made at build time: sparse's output, kept in the build folder.
 * Only the series' files count; make C=2 also checks what they depend on.
 */
static void judge_static(const struct run *run, const struct target_result *tr,
			 struct suite_result *s)
{
	char *log = build_sparse_log(&tr->build), *text = read_file(log, NULL);
	char *excerpt = xstrdup(""), *status;
	int findings = 0;

	if (!text) {
		set_cell(s, CELL_ERROR, xasprintf("no sparse output in %s", log));
	} else if (strstr(text, SPARSE_MISSING)) {
		set_cell(s, CELL_ERROR, xstrdup(SPARSE_MISSING));
	} else {
		for (char *line = text, *nl; *line; line = nl + !!*nl) {
			nl = strchrnul(line, '\n');
			if (!series_diagnostic(run->series_files, line, nl - line))
				continue;
			if (findings++ < 20) {
				char *next = xasprintf("%s%.*s\n", excerpt, (int)(nl - line), line);

				free(excerpt);
				excerpt = next;
			}
		}
		status = strstr(text, SPARSE_STATUS);
		if (findings)
			set_cell(s, CELL_FAIL, xasprintf("sparse: %d warnings and errors in the series (see %s)",
							  findings, log));
		else if (!status || atoi(status + strlen(SPARSE_STATUS)))
			/* Say why in the cell: e.g. riscv's -march is too new for sparse 0.6.4. */
			set_cell(s, CELL_UNOBSERVABLE,
				 xasprintf("sparse could not check the series here, for a reason outside it (see %s)",
					   log));
		else
			set_cell(s, CELL_PASS, NULL);
	}
	free(s->excerpt);
	s->excerpt = findings ? excerpt : NULL;
	if (!findings)
		free(excerpt);
	/* Not a KTAP suite: no counts. */
	memset(&s->counts, 0, sizeof(s->counts));
	free(text);
	free(log);
}

/* checkpatch --strict on the column's version of the series (checkpatch.c). */
static void judge_checkpatch(const struct target_result *tr, struct suite_result *s)
{
	char *text = tr->checkpatch_log ? read_file(tr->checkpatch_log, NULL) : NULL;
	char *status = text ? strstr(text, CHECKPATCH_STATUS) : NULL;
	int ok = 0, failed = 0;

	memset(&s->counts, 0, sizeof(s->counts));
	if (!status) {
		set_cell(s, CELL_ERROR, xasprintf("no checkpatch output in %s",
						  tr->checkpatch_log ? tr->checkpatch_log : "the run"));
		free(text);
		return;
	}
	for (char *line = text, *nl; *line; line = nl + !!*nl) {
		nl = strchrnul(line, '\n');
		ok += !strncmp(line, CHECKPATCH_OK, strlen(CHECKPATCH_OK));
		failed += !strncmp(line, CHECKPATCH_FAIL, strlen(CHECKPATCH_FAIL));
	}
	if (failed) {
		set_cell(s, CELL_FAIL, xasprintf("checkpatch --strict: findings in %d of %d patches (see %s)",
						  failed, ok + failed, tr->checkpatch_log));
		free(s->excerpt);
		s->excerpt = xasprintf("%.*s", (int)(status - text), text);
	} else if (atoi(status + strlen(CHECKPATCH_STATUS)) || !ok) {
		/* No tree to take checkpatch.pl from: its one line says why. */
		set_cell(s, CELL_ERROR, xasprintf("%.*s", (int)strcspn(text, "\n"), text));
	} else {
		set_cell(s, CELL_PASS, xasprintf("%d patches clean", ok));
	}
	s->counts.passed = ok;
	s->counts.failed = failed;
	free(text);
}

/*
 * Whether the build errors name one of the series' files, or what is made
 * from one: "lib/kw_worker_torture.ko" for lib/kw_worker_torture.c.
 */
static bool mentions_series(const struct run *run, const char *excerpt)
{
	for (int i = 0; excerpt && run->series_files && i < run->series_files->n; i++) {
		const char *file = run->series_files->v[i], *dot = strrchr(file, '.');
		char *stem = strndup(file, dot ? (size_t)(dot - file) : strlen(file));
		bool hit = strstr(excerpt, stem) != NULL;

		free(stem);
		if (hit)
			return true;
	}
	return false;
}

/* The build-time cells of a column that built, whatever its guest did. */
static void judge_static_cells(const struct run *run, const struct target_result *tr)
{
	for (int i = 0; i < tr->console.nr_suites; i++) {
		const struct suite *suite = suite_find(tr->suites.v[i]);

		if (!suite || !suite->static_check)
			continue;
		if (!strcmp(suite->static_check, SPARSE))
			judge_static(run, tr, &tr->console.suites[i]);
		else if (!strcmp(suite->static_check, CHECKPATCH))
			judge_checkpatch(tr, &tr->console.suites[i]);
		else
			/* The build itself, with W=1 on the series' files. */
			set_cell(&tr->console.suites[i], CELL_PASS, NULL);
	}
}

/*
 * The column's oracle is built in but did not start: what it would have
 * judged was not shown.  What happened anyway (a failing check, a crash,
 * a timeout) stays what it is, with the oracle's absence said beside it.
 */
static void judge_inactive_oracle(struct target_result *tr)
{
	char *why = xasprintf("%s is built in but did not start here: the console says \"%s\"",
			      tr->oracle->title, tr->oracle->inactive);

	for (int i = 0; i < tr->console.nr_suites; i++) {
		struct suite_result *s = &tr->console.suites[i];

		if (s->status == CELL_PASS || s->status == CELL_UNOBSERVABLE ||
		    s->status == CELL_SURVIVED)
			set_cell(s, CELL_UNOBSERVABLE, xstrdup(why));
		else
			set_cell(s, s->status, xasprintf("%s (and %s)",
							 s->reason ? s->reason : cell_status_name(s->status),
							 why));
	}
	free(why);
}

static void classify(struct target_result *tr, struct suite_result *s,
		     const struct suite *suite)
{
	if (suite->expect_fail && s->status == CELL_FAIL) {
		const struct ktap_test *check = find_check(s, suite->expect_fail);
		char *others = other_violations(s, suite->expect_fail);

		/* Only the finding's own check makes it XFAIL; anything else is new. */
		if (s->report.origin == ORIGIN_SUBJECT)
			;
		else if (others)
			set_cell(s, CELL_FAIL,
				 xasprintf("not the known finding: the %s check failed (the finding is the %s check)",
					   others, suite->expect_fail));
		else if (check && check->status == KTAP_FAIL)
			set_cell(s, CELL_XFAIL,
				 xasprintf("known finding reproduced: %s: %s", check->name,
					   check->directive ? check->directive : "violated"));
		else
			set_cell(s, CELL_FAIL,
				 xasprintf("the %s check never ran, so the known finding was not looked for: %s",
					   suite->expect_fail,
					   s->reason ? s->reason : "no KTAP case of it"));
		free(others);
	} else if (suite->expect_fail && s->status == CELL_PASS) {
		set_cell(s, CELL_XPASS,
			 xstrdup("known finding not reproduced: run longer, or has it gone?"));
	}
	if (suite->must_kill)
		classify_detector(s, suite);
	else if (suite->mutant_of)
		classify_mutant(tr, s, suite);
}

void report_judge(struct run *run)
{
	for (int t = 0; t < run->nr_targets; t++) {
		struct target_result *tr = &run->targets[t];
		struct guest_outcome outcome;
		char *log;

		if (tr->unavailable) {
			fail_all(tr, run, CELL_UNOBSERVABLE, tr->unavailable, NULL);
			continue;
		}
		if (!tr->build_ok && tr->build.error && !tr->target->qemu &&
		    !mentions_series(run, tr->build.excerpt)) {
			char *why = xasprintf("%s cannot be built here for a reason outside the series: %s",
					      tr->target->name,
					      tr->build.error ? tr->build.error : "not built");

			fail_all(tr, run, CELL_UNOBSERVABLE, why, tr->build.excerpt);
			free(why);
			continue;
		}
		if (!tr->build_ok) {
			fail_all(tr, run, CELL_ERROR,
				 tr->build.error ? tr->build.error :
				 run->complete ? "not built" :
				 "run interrupted before this build",
				 tr->build.excerpt);
			continue;
		}
		if (!tr->guest.ran) {
			fail_all(tr, run, CELL_ERROR,
				 run->complete ? "guest did not start" :
				 "run interrupted before this guest", NULL);
			judge_static_cells(run, tr);
			continue;
		}
		outcome.timed_out = tr->guest.timed_out;
		outcome.exit_status = tr->guest.exit_status;
		log = read_file(tr->guest.console_log, NULL);
		text_clean(log);
		parse_console(log ? log : "", (const char *const *)tr->suites.v,
			      tr->suites.n, &outcome, &tr->console);
		tr->nr_rates = parse_calibration(log ? log : "", &tr->rates);
		for (int i = 0; i < tr->console.nr_suites; i++) {
			const struct suite *suite = suite_find(tr->suites.v[i]);

			if (suite && !suite->static_check)
				classify(tr, &tr->console.suites[i], suite);
		}
		if (log && tr->oracle && tr->oracle->inactive &&
		    strstr(log, tr->oracle->inactive))
			judge_inactive_oracle(tr);
		if (!log || !*log) {
			char *qemu = read_file(tr->guest.qemu_log, NULL);

			text_clean(qemu);
			for (int i = 0; i < tr->console.nr_suites; i++) {
				struct suite_result *s = &tr->console.suites[i];

				if (s->status == CELL_TIMEOUT)
					continue;
				free(s->reason);
				s->reason = xasprintf("QEMU exited with status %d and no console output",
						      tr->guest.exit_status);
				free(s->excerpt);
				s->excerpt = qemu ? xstrdup(qemu) : NULL;
			}
			free(qemu);
		}
		free(log);
		judge_static_cells(run, tr);
	}
}

static json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *tests_json(const struct ktap_test *tests, int nr)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < nr; i++) {
		json_object *t = json_object_new_object();

		json_object_object_add(t, "name", jstr(tests[i].name));
		json_object_object_add(t, "status",
				       jstr(ktap_status_name(tests[i].status)));
		if (tests[i].directive)
			json_object_object_add(t, "directive",
					       jstr(tests[i].directive));
		if (tests[i].nr_subtests)
			json_object_object_add(t, "subtests",
					       tests_json(tests[i].subtests,
							  tests[i].nr_subtests));
		json_object_array_add(arr, t);
	}
	return arr;
}

static json_object *cell_json(const struct suite_result *s)
{
	json_object *c = json_object_new_object(), *counts;

	json_object_object_add(c, "suite", jstr(s->name));
	json_object_object_add(c, "status", jstr(cell_status_name(s->status)));
	json_object_object_add(c, "reason", jstr(s->reason));
	counts = json_object_new_object();
	json_object_object_add(counts, "passed", json_object_new_int(s->counts.passed));
	json_object_object_add(counts, "failed", json_object_new_int(s->counts.failed));
	json_object_object_add(counts, "skipped", json_object_new_int(s->counts.skipped));
	json_object_object_add(counts, "crashed", json_object_new_int(s->counts.crashed));
	json_object_object_add(c, "counts", counts);
	json_object_object_add(c, "tests", tests_json(s->ktap.tests, s->ktap.nr_tests));
	json_object_object_add(c, "excerpt", jstr(s->excerpt));
	if (s->report.count) {
		json_object *r = json_object_new_object();

		json_object_object_add(r, "oracle", jstr(s->report.oracle->name));
		json_object_object_add(r, "title", jstr(s->report.title));
		json_object_object_add(r, "origin", jstr(report_origin_name(s->report.origin)));
		json_object_object_add(r, "count", json_object_new_int(s->report.count));
		json_object_object_add(c, "oracle_report", r);
	}
	if (s->stats) {
		json_object *stats = json_object_new_object();
		char *copy = xstrdup(s->stats), *tok, *save;

		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');

			if (!eq)
				continue;
			*eq = '\0';
			json_object_object_add(stats, tok, json_object_new_int64(atoll(eq + 1)));
		}
		free(copy);
		json_object_object_add(c, "torture", stats);
	}
	return c;
}

static const char *relative(const struct run *run, const char *path)
{
	size_t len = strlen(run->dir);

	if (path && !strncmp(path, run->dir, len) && path[len] == '/')
		return path + len + 1;
	return path;
}

static json_object *target_json(const struct run *run,
				const struct target_result *tr)
{
	json_object *t = json_object_new_object(), *b, *g, *cells;
	const struct guest *guest = &tr->guest;

	json_object_object_add(t, "target", jstr(tr->target->name));
	json_object_object_add(t, "arch", jstr(tr->target->kernel_arch));
	json_object_object_add(t, "kernel", jstr(tr->oracle ? tr->oracle->name : "plain"));
	if (tr->env) {
		json_object_object_add(t, "source_package", jstr(tr->env->src->package));
		json_object_object_add(t, "source_version", jstr(tr->env->src->version));
		json_object_object_add(t, "series_digest", jstr(tr->env->series->digest));
	}
	json_object_object_add(t, "column", jstr(tr->build.name));
	json_object_object_add(t, "unavailable", jstr(tr->unavailable));
	b = json_object_new_object();
	json_object_object_add(b, "status", jstr(tr->build_ok ? "PASS" :
						 tr->unavailable ? "SKIP" : "ERROR"));
	json_object_object_add(b, "error", jstr(tr->build.error));
	json_object_object_add(b, "key", jstr(tr->build.key));
	json_object_object_add(b, "dir", jstr(tr->build.dir));
	json_object_object_add(b, "toolchain", jstr(tr->build.toolchain));
	json_object_object_add(b, "seconds", json_object_new_double(tr->build.seconds));
	json_object_object_add(b, "up_to_date", json_object_new_boolean(tr->build.up_to_date));
	json_object_object_add(b, "log", jstr(relative(run, tr->build.log)));
	json_object_object_add(t, "build", b);

	g = json_object_new_object();
	json_object_object_add(g, "ran", json_object_new_boolean(guest->ran));
	json_object_object_add(g, "qemu_command", jstr(guest->command));
	json_object_object_add(g, "accel", jstr(guest->accel));
	json_object_object_add(g, "accel_note", jstr(guest->accel_note));
	json_object_object_add(g, "runner", jstr(guest->collect ? "lava" : "qemu"));
	json_object_object_add(g, "runner_note", jstr(guest->runner_note));
	json_object_object_add(g, "console_log", jstr(relative(run, guest->console_log)));
	json_object_object_add(g, "qemu_log", jstr(relative(run, guest->qemu_log)));
	json_object_object_add(g, "time_bound_seconds", json_object_new_double(guest->bound));
	json_object_object_add(g, "boot_seconds",
			       guest->first_ktap ? json_object_new_double(guest->first_ktap) : NULL);
	json_object_object_add(g, "run_seconds", json_object_new_double(guest->ended));
	json_object_object_add(g, "timed_out", json_object_new_boolean(guest->timed_out));
	json_object_object_add(g, "interrupted", json_object_new_boolean(guest->interrupted));
	json_object_object_add(g, "exit_status", json_object_new_int(guest->exit_status));
	json_object_object_add(g, "init_started", json_object_new_boolean(tr->console.init_started));
	json_object_object_add(g, "init_done", json_object_new_boolean(tr->console.done));
	json_object_object_add(t, "guest", g);

	cells = json_object_new_array();
	for (int i = 0; i < tr->console.nr_suites; i++)
		json_object_array_add(cells, cell_json(&tr->console.suites[i]));
	json_object_object_add(t, "cells", cells);
	cells = json_object_new_array();
	for (int i = 0; i < tr->nr_rates; i++) {
		const struct shape_rate *r = &tr->rates[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "shape", jstr(r->shape));
		json_object_object_add(o, "forbidden", json_object_new_boolean(r->forbidden));
		json_object_object_add(o, "runs", json_object_new_int64(r->runs));
		json_object_object_add(o, "weak", json_object_new_int64(r->weak));
		json_object_object_add(o, "per_million", json_object_new_double(per_million(r)));
		json_object_array_add(cells, o);
	}
	json_object_object_add(t, "calibration", cells);
	return t;
}

int report_write_json(const struct run *run)
{
	json_object *root = json_object_new_object(), *targets, *suites;
	char *path = xasprintf("%s/matrix.json", run->dir);
	int ret;

	json_object_object_add(root, "format", jstr("kwmatrix-1"));
	json_object_object_add(root, "run_id", jstr(run->id));
	json_object_object_add(root, "complete", json_object_new_boolean(run->complete));
	json_object_object_add(root, "started", jstr(run->started_utc));
	json_object_object_add(root, "seconds", json_object_new_double(run->seconds));
	suites = json_object_new_array();
	for (int i = 0; i < run->nr_suites; i++)
		json_object_array_add(suites, jstr(run->suites[i]));
	json_object_object_add(root, "suites", suites);
	/* Each barrier's verdict from the memory model, for the reports. */
	suites = json_object_new_array();
	for (int b = 0; b < kwm_nr_barrier_tags && run->repo; b++) {
		json_object *o = json_object_new_object();
		char *lkmm = lkmm_verdict(run->repo, run->tree, kwm_barrier_tags[b]);

		json_object_object_add(o, "barrier", jstr(kwm_barrier_tags[b]));
		json_object_object_add(o, "lkmm", jstr(lkmm));
		json_object_array_add(suites, o);
		free(lkmm);
	}
	json_object_object_add(root, "barriers", suites);
	targets = json_object_new_array();
	for (int i = 0; i < run->nr_targets; i++)
		json_object_array_add(targets, target_json(run, &run->targets[i]));
	json_object_object_add(root, "targets", targets);

	ret = mj_write(root, path);
	json_object_put(root);
	free(path);
	return ret;
}

char *report_column_summary(const struct target_result *tr)
{
	int count[CELL_NR_STATUSES] = { 0 };
	char *out;

	if (tr->unavailable)
		return xstrdup(tr->unavailable);
	if (!tr->build_ok)
		return xstrdup("build failed");
	out = xstrdup("done:");
	for (int i = 0; i < tr->console.nr_suites; i++)
		count[tr->console.suites[i].status]++;
	for (int s = 0; s < CELL_NR_STATUSES; s++) {
		char *next;

		if (!count[s])
			continue;
		next = xasprintf("%s %d %s", out, count[s], cell_status_name(s));
		free(out);
		out = next;
	}
	return out;
}

static const struct suite_result *find_cell(const struct target_result *tr,
					    const char *suite)
{
	for (int i = 0; i < tr->console.nr_suites; i++)
		if (!strcmp(tr->console.suites[i].name, suite))
			return &tr->console.suites[i];
	return NULL;
}

static void format_cell(const struct suite_result *s, char *cell, size_t len)
{
	const struct ktap_counts *k = &s->counts;
	int total = k->passed + k->failed + k->crashed + k->skipped;

	if (total)
		snprintf(cell, len, "%s %d/%d", cell_status_name(s->status),
			 k->passed, total);
	else
		snprintf(cell, len, "%s", cell_status_name(s->status));
}

/* SGR colours of the table on a terminal: set by report_print_table(). */
static bool colour;

/*
 * Green for what keeps the run green and shows something, yellow for
 * what could not be shown here, red for the rest.
 */
static void put_cell(FILE *out, const char *text, int status)
{
	const char *sgr = !colour || status < 0 ? NULL :
			  status == CELL_UNOBSERVABLE || status == CELL_SKIP ||
			  status == CELL_WARN || status == CELL_UNDECIDED ? "33" :
			  cell_status_ok(status) ? "32" : "1;31";

	if (sgr)
		fprintf(out, " \033[%sm%-16s\033[0m", sgr, text);
	else
		fprintf(out, " %-16s", text);
}

/*
 * Suites down, kernels across: a suite that does not run on a kernel
 * shows "-".
 */
static bool print_cells(const struct run *run, FILE *out)
{
	bool all_pass = run->complete;

	fprintf(out, "\n%-24s", "");
	for (int t = 0; t < run->nr_targets; t++)
		fprintf(out, " %-16s", run->targets[t].build.name);
	fprintf(out, "\n%-24s", "build");
	for (int t = 0; t < run->nr_targets; t++) {
		const struct target_result *tr = &run->targets[t];

		put_cell(out, tr->unavailable ? "n/a" : !tr->build_ok ? "ERROR" :
			 tr->build.up_to_date ? "cached" : "built",
			 tr->unavailable ? CELL_UNOBSERVABLE : tr->build_ok ? CELL_PASS :
			 CELL_ERROR);
	}
	fprintf(out, "\n%-24s", "boot");
	for (int t = 0; t < run->nr_targets; t++) {
		const struct guest *g = &run->targets[t].guest;
		char boot[24] = "-";

		/* How it booted says how far its timings and rates carry. */
		if (g->first_ktap)
			snprintf(boot, sizeof(boot), "%.1fs %s", g->first_ktap,
				 g->accel ? g->accel : "");
		fprintf(out, " %-16s", boot);
	}
	fputc('\n', out);
	for (int i = 0; i < run->nr_suites; i++) {
		bool anywhere = false;

		for (int t = 0; t < run->nr_targets; t++)
			anywhere |= find_cell(&run->targets[t], run->suites[i]) != NULL;
		/* Asked for, but on none of these kernels. */
		if (!anywhere)
			continue;
		fprintf(out, "%-24s", run->suites[i]);
		for (int t = 0; t < run->nr_targets; t++) {
			const struct suite_result *s = find_cell(&run->targets[t],
								 run->suites[i]);
			char cell[64] = "-";

			if (s) {
				format_cell(s, cell, sizeof(cell));
				all_pass &= cell_status_ok(s->status);
			}
			put_cell(out, cell, s ? (int)s->status : -1);
		}
		fputc('\n', out);
	}
	return all_pass;
}

static bool run_has_suite(const struct run *run, const char *name)
{
	for (int i = 0; i < run->nr_suites; i++)
		if (!strcmp(run->suites[i], name))
			return true;
	return false;
}

/* Each barrier: the memory model's verdict without it, and what each kernel saw. */
static void print_barriers(const struct run *run, FILE *out)
{
	bool any = false;

	for (int b = 0; b < kwm_nr_barrier_tags; b++) {
		char *suite = xasprintf("mutant-%s", kwm_barrier_tags[b]);
		char *lkmm;

		bool anywhere = false;

		for (int t = 0; t < run->nr_targets; t++)
			anywhere |= find_cell(&run->targets[t], suite) != NULL;
		if (!run_has_suite(run, suite) || !anywhere) {
			free(suite);
			continue;
		}
		if (!any) {
			fprintf(out, "\n%-24s %-52s", "without barrier", "LKMM (litmus/)");
			for (int t = 0; t < run->nr_targets; t++)
				fprintf(out, " %-16s", run->targets[t].build.name);
			fputc('\n', out);
			any = true;
		}
		lkmm = lkmm_verdict(run->repo, run->tree, kwm_barrier_tags[b]);
		fprintf(out, "%-24s %-52s", kwm_barrier_tags[b], lkmm);
		for (int t = 0; t < run->nr_targets; t++) {
			const struct suite_result *s = find_cell(&run->targets[t], suite);

			put_cell(out, s ? cell_status_name(s->status) : "-",
				 s ? (int)s->status : -1);
		}
		fputc('\n', out);
		free(lkmm);
		free(suite);
	}
}

bool report_print_table(const struct run *run, FILE *out)
{
	bool all_pass;

	colour = ansi_terminal(out);
	all_pass = print_cells(run, out);

	print_barriers(run, out);
	fputc('\n', out);
	for (int t = 0; t < run->nr_targets; t++) {
		const struct target_result *tr = &run->targets[t];

		for (int i = 0; i < tr->console.nr_suites; i++) {
			const struct suite_result *s = &tr->console.suites[i];

			if (s->status != CELL_PASS || s->report.count)
				fprintf(out, "  %s/%s: %s: %s\n", tr->build.name,
					s->name, cell_status_name(s->status),
					s->reason ? s->reason : "");
			if (s->stats && !suite_find(s->name)->mutant_of)
				fprintf(out, "  %s/%s: %s\n", tr->build.name,
					s->name, s->stats);
		}
	}
	for (int t = 0; t < run->nr_targets; t++)
		if (run->targets[t].guest.runner_note)
			fprintf(out, "  %s: %s\n", run->targets[t].build.name,
				run->targets[t].guest.runner_note);
	for (int t = 0; t < run->nr_targets; t++) {
		const struct target_result *tr = &run->targets[t];

		if (!tr->nr_rates)
			continue;
		fprintf(out, "  %s calibration, weak outcomes per million:", tr->target->name);
		for (int i = 0; i < tr->nr_rates; i++)
			fprintf(out, " %s=%.2f%s", tr->rates[i].shape,
				per_million(&tr->rates[i]),
				tr->rates[i].forbidden ? "(forbidden)" : "");
		fputc('\n', out);
	}
	fprintf(out, "\nresults: %s/matrix.json%s\n", run->dir,
		run->complete ? "" : " (incomplete: the run was interrupted)");
	return all_pass;
}
