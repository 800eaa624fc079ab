// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "merge.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "status.h"
#include "matrix_json.h"
#include "util.h"
#include "verdict.h"
#include "fs.h"
#include "proc.h"

/* A string member, "" if missing: shards are compared with strcmp(). */
static const char *text_of(json_object *o, const char *key)
{
	const char *s = mj_string(o, key);

	return s ? s : "";
}

/*
 * Fold a shard's barrier verdicts into @merged's: per barrier and version
 * the stronger one, with its evidence (verdict_merge()).
 */
static void merge_verdicts(json_object *merged, json_object *shard)
{
	for (size_t i = 0; i < mj_length(shard); i++) {
		json_object *s = json_object_array_get_idx(shard, i);

		for (size_t j = 0; j < mj_length(merged); j++) {
			json_object *m = json_object_array_get_idx(merged, j);
			int a = verdict_kind_from_name(mj_string(m, "verdict"));
			int b = verdict_kind_from_name(mj_string(s, "verdict"));
			enum verdict_kind to;

			if (strcmp(text_of(m, "barrier"), text_of(s, "barrier")) ||
			    strcmp(text_of(m, "version"), text_of(s, "version")) ||
			    a < 0 || b < 0)
				continue;
			to = verdict_merge(a, b);
			if (to == (enum verdict_kind)a)
				continue;
			if (to != (enum verdict_kind)b) {
				char *why = xasprintf("the shards disagree: %s in one (%s), %s in another (%s)",
						      verdict_kind_name(a), text_of(m, "evidence"),
						      verdict_kind_name(b), text_of(s, "evidence"));

				json_object_object_add(m, "evidence", json_object_new_string(why));
				free(why);
			} else {
				json_object_object_add(m, "evidence",
						       json_object_new_string(text_of(s, "evidence")));
				json_object_object_add(m, "model",
						       json_object_new_string(text_of(s, "model")));
			}
			json_object_object_add(m, "verdict",
					       json_object_new_string(verdict_kind_name(to)));
		}
	}
}

/*
 * Shards must be of one series to make one matrix: a kernel version
 * seen in two shards must be the same source with the same series.
 */
static int check_same(json_object *targets, json_object *shard, const char *path)
{
	static const char *const keys[] = { "source_version", "series_digest" };

	for (size_t i = 0; shard && i < json_object_array_length(shard); i++) {
		json_object *a = json_object_array_get_idx(shard, i);

		for (size_t j = 0; j < json_object_array_length(targets); j++) {
			json_object *b = json_object_array_get_idx(targets, j);

			if (strcmp(text_of(a, "source_package"), text_of(b, "source_package")))
				continue;
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				if (!strcmp(text_of(a, keys[k]), text_of(b, keys[k])))
					continue;
				kwm_error("%s: %s of %s is '%s', not '%s' as in an earlier shard (fix: merge shards of one run of one series)",
					  path, keys[k], text_of(a, "source_package"),
					  text_of(a, keys[k]), text_of(b, keys[k]));
				return -1;
			}
		}
	}
	return 0;
}

static bool has_column(json_object *targets, const char *column)
{
	for (size_t i = 0; i < json_object_array_length(targets); i++)
		if (!strcmp(text_of(json_object_array_get_idx(targets, i), "column"), column))
			return true;
	return false;
}

static bool all_green(json_object *targets)
{
	for (size_t t = 0; t < json_object_array_length(targets); t++) {
		json_object *cells = mj_member(json_object_array_get_idx(targets, t), "cells");

		for (size_t c = 0; cells && c < json_object_array_length(cells); c++) {
			json_object *cell = json_object_array_get_idx(cells, c);
			const struct cell_status_info *info =
				cell_status_by_name(text_of(cell, "status"));

			/* The cell says; a shard from before "green" was written, its status. */
			if (mj_member(cell, "green") ?
			    !json_object_get_boolean(mj_member(cell, "green")) :
			    !info || !info->green)
				return false;
		}
	}
	return true;
}

/* Shard @path's matrix.json, or NULL after one line naming the fix. */
static json_object *read_shard(const char *path)
{
	json_object *m = json_object_from_file(path);

	if (!m || !json_object_is_type(m, json_type_object) ||
	    strcmp(text_of(m, "format"), MATRIX_JSON_FORMAT)) {
		kwm_error("%s: not a kwmatrix matrix.json (fix: pass results/<run>/matrix.json files)",
			  path);
		json_object_put(m);
		return NULL;
	}
	return m;
}

/* Shard @m's columns onto @targets: each column from one shard only. */
static int add_columns(json_object *targets, json_object *m, const char *path)
{
	json_object *shard = mj_member(m, "targets");

	if (check_same(targets, shard, path))
		return -1;
	for (size_t t = 0; shard && t < json_object_array_length(shard); t++) {
		json_object *tr = json_object_array_get_idx(shard, t);

		if (has_column(targets, text_of(tr, "column"))) {
			kwm_error("%s: column %s is in two shards (fix: shard by target, each once)",
				  path, text_of(tr, "column"));
			return -1;
		}
		json_object_array_add(targets, json_object_get(tr));
	}
	return 0;
}

/* The logs that shard @path's matrix.json names, relative to its folder. */
static int copy_logs(const char *path, const char *out_dir)
{
	char *dir = xstrdup(path), *cmd;

	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
	if (mkdir_p(out_dir)) {
		kwm_error("cannot create %s: %s (fix: pass a writable -o folder)",
			  out_dir, strerror(errno));
		free(dir);
		return -1;
	}
	cmd = xasprintf("for d in '%s'/*/; do [ -d \"$d\" ] && cp -r \"$d\" '%s'/; done; true",
			*dir ? dir : ".", out_dir);
	run_shell(cmd, NULL);
	free(cmd);
	free(dir);
	return 0;
}

/* Into @merged: @m's verdicts, and the suites that any shard asked for. */
static void merge_shard(json_object *merged, json_object *m)
{
	json_object *more = mj_member(m, "suites"), *suites = mj_member(merged, "suites");

	merge_verdicts(mj_member(merged, "barriers"), mj_member(m, "barriers"));
	for (size_t s = 0; more && s < json_object_array_length(more); s++) {
		const char *name = json_object_get_string(json_object_array_get_idx(more, s));
		bool seen = false;

		for (size_t k = 0; k < json_object_array_length(suites); k++)
			seen |= !strcmp(name, json_object_get_string(json_object_array_get_idx(suites, k)));
		if (!seen)
			json_object_array_add(suites, json_object_new_string(name));
	}
}

int merge_results(const char *const *inputs, int nr, const char *out_dir)
{
	json_object *merged = NULL, *targets = json_object_new_array();
	bool complete = true;
	double seconds = 0;
	char *path = NULL;
	int ret = 2;

	for (int i = 0; i < nr; i++) {
		json_object *m = read_shard(inputs[i]);

		if (!m || add_columns(targets, m, inputs[i]) ||
		    copy_logs(inputs[i], out_dir)) {
			json_object_put(m);
			goto out;
		}
		complete &= json_object_get_boolean(mj_member(m, "complete"));
		if (json_object_get_double(mj_member(m, "seconds")) > seconds)
			seconds = json_object_get_double(mj_member(m, "seconds"));
		if (!merged) {
			merged = m;
		} else {
			merge_shard(merged, m);
			json_object_put(m);
		}
	}
	if (!merged) {
		kwm_error("nothing to merge (fix: kwmatrix merge A/matrix.json B/matrix.json -o DIR)");
		goto out;
	}
	json_object_object_add(merged, "targets", targets);
	targets = NULL;
	json_object_object_add(merged, "complete", json_object_new_boolean(complete));
	json_object_object_add(merged, "seconds", json_object_new_double(seconds));
	json_object_object_add(merged, "merged_from", json_object_new_int(nr));
	path = xasprintf("%s/matrix.json", out_dir);
	if (mj_write(merged, path) || exports_write(merged, out_dir)) {
		kwm_error("cannot write the merged results in %s: %s (fix: free some space and rerun)",
			  out_dir, strerror(errno));
		goto out;
	}
	kwm_info("merged %d shards, %zu columns, into %s (%s)", nr,
		 json_object_array_length(mj_member(merged, "targets")), path,
		 complete ? "complete" : "incomplete");
	ret = complete && all_green(mj_member(merged, "targets")) ? 0 : 1;
out:
	json_object_put(targets);
	json_object_put(merged);
	free(path);
	return ret;
}
