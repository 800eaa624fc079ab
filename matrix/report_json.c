// SPDX-License-Identifier: GPL-2.0
/* matrix.json: every cell of a judged run, written whole or not at all. */
#define _GNU_SOURCE
#include "report.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_json.h"
#include "suites.h"
#include "util.h"

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
	const struct suite *suite = suite_find(s->name);

	json_object_object_add(c, "suite", jstr(s->name));
	/* What the suite is, so that no reader parses its name (suites.c). */
	if (suite) {
		json_object_object_add(c, "kind", jstr(suite_kind_name(suite->kind)));
		json_object_object_add(c, "subject", jstr(suite->subject));
		json_object_object_add(c, "barrier", jstr(suite->mutant_of));
		json_object_object_add(c, "emulated", json_object_new_boolean(suite->emulated));
	}
	json_object_object_add(c, "status", jstr(cell_status_name(s->status)));
	/* Whether it keeps the run green: readers need not know the statuses. */
	json_object_object_add(c, "green", json_object_new_boolean(cell_status_ok(s->status)));
	json_object_object_add(c, "reason", jstr(s->reason));
	/* Its time in the guest, where the guest said it. */
	json_object_object_add(c, "seconds", s->seconds >= 0 ?
			       json_object_new_double(s->seconds) : NULL);
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

/* Each litmus test: its Result:, and per side its runs, weak outcomes, time. */
static json_object *litmus_json(const struct target_result *tr)
{
	json_object *rows = json_object_new_array();

	for (int i = 0; i < tr->nr_litmus; i++) {
		const struct litmus_row *r = &tr->litmus[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "test", jstr(r->test));
		json_object_object_add(o, "result", jstr(r->result));
		for (int side = 0; side < LITMUS_SIDES; side++) {
			const struct litmus_side *s = &r->side[side];
			json_object *so;

			if (!s->seen)
				continue;
			so = json_object_new_object();
			json_object_object_add(so, "runs", json_object_new_int64(s->runs));
			json_object_object_add(so, "weak", json_object_new_int64(s->weak));
			json_object_object_add(so, "seconds", json_object_new_double(s->ms / 1000.0));
			json_object_object_add(so, "skipped", s->skip ? jstr(s->skip) : NULL);
			/* Its minimum rounds only: its shape showed nothing here. */
			json_object_object_add(so, "brief", json_object_new_boolean(s->brief));
			json_object_object_add(so, "forbidden_seen",
					       json_object_new_boolean(litmus_side_forbidden(r, side)));
			json_object_object_add(o, litmus_side_names[side], so);
		}
		json_object_array_add(rows, o);
	}
	return rows;
}

static json_object *build_json(const struct run *run, const struct target_result *tr)
{
	json_object *b = json_object_new_object();
	enum cell_status status = tr->build_ok ? CELL_PASS :
				  tr->unavailable ? CELL_SKIP : CELL_ERROR;

	json_object_object_add(b, "status", jstr(cell_status_name(status)));
	json_object_object_add(b, "error", jstr(tr->build.error));
	json_object_object_add(b, "key", jstr(tr->build.key));
	json_object_object_add(b, "dir", jstr(tr->build.dir));
	json_object_object_add(b, "toolchain", jstr(tr->build.toolchain));
	json_object_object_add(b, "seconds", json_object_new_double(tr->build.seconds));
	json_object_object_add(b, "up_to_date", json_object_new_boolean(tr->build.up_to_date));
	/* Where a build's time went: "config 0.0 s, modules 8.2 s, ...". */
	json_object_object_add(b, "steps", jstr(tr->build.steps));
	json_object_object_add(b, "log", jstr(relative(run, tr->build.log)));
	return b;
}

static json_object *guest_json(const struct run *run, const struct target_result *tr)
{
	json_object *g = json_object_new_object();
	const struct guest *guest = &tr->guest;

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
	return g;
}

/* The calibration's rate of each shape. */
static json_object *calibration_json(const struct target_result *tr)
{
	json_object *rates = json_object_new_array();

	for (int i = 0; i < tr->nr_rates; i++) {
		const struct shape_rate *r = &tr->rates[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "shape", jstr(r->shape));
		json_object_object_add(o, "forbidden", json_object_new_boolean(r->forbidden));
		json_object_object_add(o, "runs", json_object_new_int64(r->runs));
		json_object_object_add(o, "weak", json_object_new_int64(r->weak));
		json_object_object_add(o, "per_million", json_object_new_double(shape_rate_per_million(r)));
		json_object_array_add(rates, o);
	}
	return rates;
}

static json_object *target_json(const struct run *run,
				const struct target_result *tr)
{
	json_object *t = json_object_new_object(), *cells;

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
	json_object_object_add(t, "build", build_json(run, tr));
	json_object_object_add(t, "guest", guest_json(run, tr));
	cells = json_object_new_array();
	for (int i = 0; i < tr->console.nr_suites; i++)
		json_object_array_add(cells, cell_json(&tr->console.suites[i]));
	json_object_object_add(t, "cells", cells);
	json_object_object_add(t, "calibration", calibration_json(tr));
	json_object_object_add(t, "litmus", litmus_json(tr));
	return t;
}

int report_write_json(const struct run *run)
{
	json_object *root = json_object_new_object(), *targets, *suites;
	char *path = xasprintf("%s/matrix.json", run->dir);
	int ret;

	json_object_object_add(root, "format", jstr(MATRIX_JSON_FORMAT));
	json_object_object_add(root, "run_id", jstr(run->id));
	json_object_object_add(root, "complete", json_object_new_boolean(run->complete));
	json_object_object_add(root, "started", jstr(run->started_utc));
	json_object_object_add(root, "seconds", json_object_new_double(run->seconds));
	suites = json_object_new_array();
	for (int i = 0; i < run->nr_suites; i++)
		json_object_array_add(suites, jstr(run->suites[i]));
	json_object_object_add(root, "suites", suites);
	/* Each barrier's verdict per version of the subject, for the reports. */
	suites = json_object_new_array();
	for (int i = 0; i < run->nr_verdicts; i++) {
		const struct barrier_verdict *v = &run->verdicts[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "barrier", jstr(v->barrier));
		json_object_object_add(o, "version", jstr(v->version));
		json_object_object_add(o, "verdict", jstr(verdict_kind_name(v->kind)));
		json_object_object_add(o, "model", jstr(v->model));
		json_object_object_add(o, "evidence", jstr(v->evidence));
		json_object_array_add(suites, o);
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
