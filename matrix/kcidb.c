// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "kcidb.h"

#include <stdlib.h>
#include <string.h>

#include "matrix_json.h"
#include "status.h"
#include "util.h"
#include "verdict.h"

/* A KTAP case's status ("PASS", "FAIL", "SKIP", "CRASHED") in KCIDB's enum. */
static const char *kcidb_ktap_status(const char *ktap_status)
{
	return !strcmp(ktap_status, "PASS") || !strcmp(ktap_status, "FAIL") ||
	       !strcmp(ktap_status, "SKIP") ? ktap_status : "ERROR";
}

const char *kcidb_status(const char *cell_status)
{
	const struct cell_status_info *info = cell_status_by_name(cell_status);

	return info ? info->kcidb : "FAIL";
}

/* KCIDB forbids nulls: add @key only if @value is set. */
static void add_str(json_object *o, const char *key, const char *value)
{
	if (value)
		json_object_object_add(o, key, json_object_new_string(value));
}

static json_object *test(const char *id, const char *build_id,
			 const char *path, const char *status,
			 const char *comment)
{
	json_object *t = json_object_new_object();

	add_str(t, "id", id);
	add_str(t, "build_id", build_id);
	add_str(t, "origin", KCIDB_ORIGIN);
	add_str(t, "path", path);
	add_str(t, "status", status);
	add_str(t, "comment", comment);
	return t;
}

char *kcidb_path_component(const char *name)
{
	char *out = NULL;

	for (const char *p = name; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')
			xappendf(&out, "%c", *p);
		else
			/* "SB+mbs": '+' joins a shape's parts; "__" keeps them apart. */
			xappendf(&out, "%s", *p == '+' ? "__" : "_");
	}
	return out ? out : xstrdup("_");
}

/*
 * A test with its path component made from @name; the name as it was is
 * kept in misc when the mapping changed it.
 */
static json_object *named_test(const char *id, const char *build_id,
			       const char *prefix, const char *name,
			       const char *status, const char *comment, char **path)
{
	char *component = kcidb_path_component(name);
	json_object *t;

	*path = xasprintf("%s.%s", prefix, component);
	t = test(id, build_id, *path, status, comment);
	if (strcmp(component, name)) {
		json_object *misc = json_object_new_object();

		add_str(misc, "name", name);
		json_object_object_add(t, "misc", misc);
	}
	free(component);
	return t;
}

/* KTAP cases under a cell: kw_worker.<suite>.<case>.<subcase> */
static void add_ktap(json_object *tests, json_object *cases, const char *cell_id,
		     const char *build_id, const char *prefix)
{
	for (size_t i = 0; cases && i < json_object_array_length(cases); i++) {
		json_object *c = json_object_array_get_idx(cases, i);
		const char *name = mj_string(c, "name"), *status = mj_string(c, "status");
		char *id, *path;

		if (!name || !status)
			continue;
		id = xasprintf("%s.%zu", cell_id, i + 1);
		json_object_array_add(tests, named_test(id, build_id, prefix, name,
							kcidb_ktap_status(status),
							mj_string(c, "directive"), &path));
		add_ktap(tests, mj_member(c, "subtests"), id, build_id, path);
		free(id);
		free(path);
	}
}

/*
 * One checkout per kernel source a column was built from, added on first
 * sight; returns its id.
 */
static char *add_checkout(json_object *checkouts, const char *run_id,
			  json_object *matrix, json_object *column)
{
	const char *package = mj_string(column, "source_package");
	char *id = xasprintf("%s:%s", run_id, package ? package : "source");
	json_object *checkout;

	for (size_t i = 0; i < json_object_array_length(checkouts); i++)
		if (!strcmp(mj_string(json_object_array_get_idx(checkouts, i), "id"), id))
			return id;
	checkout = json_object_new_object();
	add_str(checkout, "id", id);
	add_str(checkout, "origin", KCIDB_ORIGIN);
	add_str(checkout, "tree_name", package);
	add_str(checkout, "comment", mj_string(column, "source_version"));
	add_str(checkout, "start_time", mj_string(matrix, "started"));
	json_object_object_add(checkout, "valid", json_object_new_boolean(1));
	json_object_array_add(checkouts, checkout);
	return id;
}

/* A barrier's verdict (verdict.h) as a KCIDB status: red stays red. */
static const char *kcidb_verdict_status(const char *verdict)
{
	int kind = verdict_kind_from_name(verdict);

	return kind < 0 ? "ERROR" : kwm_verdict_kinds[kind].kcidb;
}

/*
 * kw_worker.verdict.<version>.<barrier>: a run's verdicts, under its
 * first build, since KCIDB has no test without one.
 */
static void add_verdicts(json_object *tests, json_object *barriers,
			 const char *build_id)
{
	for (size_t b = 0; build_id && b < mj_length(barriers); b++) {
		json_object *o = json_object_array_get_idx(barriers, b), *t, *misc;
		const char *barrier = mj_string(o, "barrier"), *version = mj_string(o, "version");
		char *id, *prefix, *path, *comment;

		if (!barrier || !version)
			continue;
		id = xasprintf("%s:verdict.%s.%s", build_id, version, barrier);
		prefix = xasprintf("kw_worker.verdict.%s", version);
		comment = xasprintf("%s: %s; %s", mj_string(o, "verdict"),
				    mj_string(o, "model"), mj_string(o, "evidence"));
		t = named_test(id, build_id, prefix, barrier,
			       kcidb_verdict_status(mj_string(o, "verdict")),
			       comment, &path);
		misc = mj_member(t, "misc");
		if (!misc) {
			misc = json_object_new_object();
			json_object_object_add(t, "misc", misc);
		}
		add_str(misc, "kwmatrix_verdict", mj_string(o, "verdict"));
		json_object_array_add(tests, t);
		free(id);
		free(prefix);
		free(path);
		free(comment);
	}
}

/* Column @tr's build, named @build_id, under checkout @source_id. */
static json_object *build_of(json_object *tr, const char *build_id,
			     const char *source_id, const char *column)
{
	json_object *b = mj_member(tr, "build"), *build = json_object_new_object();

	add_str(build, "id", build_id);
	add_str(build, "checkout_id", source_id);
	add_str(build, "origin", KCIDB_ORIGIN);
	add_str(build, "architecture", mj_string(tr, "arch"));
	add_str(build, "compiler", b ? mj_string(b, "toolchain") : NULL);
	add_str(build, "config_name", column);
	if (b && mj_member(b, "seconds"))
		json_object_object_add(build, "duration",
				       json_object_get(mj_member(b, "seconds")));
	json_object_object_add(build, "valid", json_object_new_boolean(
		b && mj_string(b, "status") && !strcmp(mj_string(b, "status"), "PASS")));
	return build;
}

/* A cell of column @tr as a test of @build_id, and its KTAP cases after it. */
static void add_cell(json_object *tests, json_object *tr, json_object *cell,
		     const char *build_id)
{
	json_object *g = mj_member(tr, "guest"), *env, *t1;
	const char *suite = mj_string(cell, "suite"), *status = mj_string(cell, "status");
	char *id = xasprintf("%s:%s", build_id, suite);
	char *test_path;

	t1 = named_test(id, build_id, "kw_worker", suite,
			kcidb_status(status ? status : "ERROR"),
			mj_string(cell, "reason"), &test_path);
	env = json_object_new_object();
	add_str(env, "comment", g ? mj_string(g, "qemu_command") : NULL);
	json_object_object_add(t1, "environment", env);
	env = mj_member(t1, "misc");
	if (!env) {
		env = json_object_new_object();
		json_object_object_add(t1, "misc", env);
	}
	add_str(env, "kwmatrix_status", status);
	add_str(env, "excerpt", mj_string(cell, "excerpt"));
	json_object_array_add(tests, t1);
	add_ktap(tests, mj_member(cell, "tests"), id, build_id, test_path);
	free(id);
	free(test_path);
}

int kcidb_write(json_object *matrix, const char *path)
{
	json_object *root = json_object_new_object(), *version, *checkouts, *builds,
		    *tests, *targets = mj_member(matrix, "targets");
	const char *run = mj_string(matrix, "run_id");
	char *run_id = xasprintf(KCIDB_ORIGIN ":%s", run ? run : "run");
	int ret;

	version = json_object_new_object();
	json_object_object_add(version, "major", json_object_new_int(4));
	json_object_object_add(version, "minor", json_object_new_int(2));
	json_object_object_add(root, "version", version);

	checkouts = json_object_new_array();
	json_object_object_add(root, "checkouts", checkouts);

	builds = json_object_new_array();
	tests = json_object_new_array();
	for (size_t t = 0; targets && t < json_object_array_length(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *cells = mj_member(tr, "cells");
		const char *column = mj_string(tr, "column") ? mj_string(tr, "column") : mj_string(tr, "target");
		char *source_id = add_checkout(checkouts, run_id, matrix, tr);
		char *build_id = xasprintf("%s:%s", run_id, column);

		json_object_array_add(builds, build_of(tr, build_id, source_id, column));
		free(source_id);
		for (size_t c = 0; cells && c < json_object_array_length(cells); c++)
			add_cell(tests, tr, json_object_array_get_idx(cells, c), build_id);
		if (!t)
			add_verdicts(tests, mj_member(matrix, "barriers"), build_id);
		free(build_id);
	}
	json_object_object_add(root, "builds", builds);
	json_object_object_add(root, "tests", tests);

	ret = mj_write(root, path);
	json_object_put(root);
	free(run_id);
	return ret;
}
