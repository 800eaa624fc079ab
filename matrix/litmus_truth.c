// SPDX-License-Identifier: GPL-2.0
/*
 * What a litmus test without a "Result:" line is expected to do: what
 * herd7 says on the tree's memory model, run where it is installed, or
 * its record (LITMUS_TRUTH_RECORDS beside the test, written by
 * "kwmatrix litmus --record") where it is not.  A record counts only for
 * the same text on the same model.  Without either, the test has no
 * expected result, and its row says so: it is never counted as passed.
 */
#define _GNU_SOURCE
#include "litmus.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fs.h"
#include "herd7.h"
#include "util.h"

/* herd7's verdicts of this process, by the test's digest: it runs once per test. */
static struct herd7_records ran;

static char *records_path(const char *file)
{
	char *copy = xstrdup(file);
	char *path = xasprintf("%s/%s", dirname(copy), LITMUS_TRUTH_RECORDS);

	free(copy);
	return path;
}

static char *today(void)
{
	time_t now = time(NULL);
	char date[16];

	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	return xstrdup(date);
}

/* What herd7 says of @t now, or NULL where it cannot be run. */
static const struct herd7_record *herd7_says(const struct litmus_test *t, const char *tree,
					     const char *lkmm, const char *herd7)
{
	const struct herd7_record *r = herd7_records_find(&ran, t->digest, lkmm);
	struct herd7_record fresh = { 0 };
	char full[PATH_MAX], *why = NULL;

	if (r || !herd7 || !realpath(t->file, full))
		return r;
	if (herd7_run(tree, full, &fresh, &why)) {
		free(why);
		return NULL;
	}
	memcpy(fresh.test, t->digest, sizeof(fresh.test));
	fresh.lkmm = xstrdup(lkmm);
	fresh.name = xstrdup(t->name);
	fresh.date = today();
	herd7_records_put(&ran, &fresh);
	herd7_record_free(&fresh);
	return herd7_records_find(&ran, t->digest, lkmm);
}

void litmus_truth(struct litmus_test *tests, int n, const char *tree)
{
	char *lkmm = NULL, *herd7 = NULL;
	bool asked = false;

	for (int i = 0; i < n; i++) {
		struct litmus_test *t = &tests[i];
		const struct herd7_record *r = NULL;
		struct herd7_records kept = { 0 };
		char *path, *why = NULL;

		if (t->result || t->skip || !t->file)
			continue;
		if (!asked) {
			lkmm = herd7_model_digest(tree);
			herd7 = herd7_version();
			asked = true;
		}
		if (!lkmm)
			break;
		r = herd7_says(t, tree, lkmm, herd7);
		if (r) {
			t->result = xstrdup(r->verdict);
			t->result_by = xasprintf("herd7 %s", r->herd7);
			continue;
		}
		path = records_path(t->file);
		if (!herd7_records_read(path, &kept, &why) &&
		    (r = herd7_records_find(&kept, t->digest, lkmm))) {
			t->result = xstrdup(r->verdict);
			t->result_by = xasprintf("herd7 %s, recorded %s", r->herd7, r->date);
		}
		herd7_records_free(&kept);
		free(why);
		free(path);
	}
	free(lkmm);
	free(herd7);
}

int litmus_truth_record(const char *tree, char *const *files, int nr_files)
{
	char *lkmm = herd7_model_digest(tree), *herd7 = herd7_version();
	int failed = 0, recorded = 0;

	if (!lkmm || !herd7) {
		kwm_error(!lkmm ? "%s/tools/memory-model holds no model (fix: name a kernel tree, e.g. ~/.cache/kwmatrix/src/<version>/tree)" :
			  "litmus --record needs herd7 (fix: build herd7 from herdtools7 and put it on PATH)%s",
			  !lkmm ? tree : "");
		free(lkmm);
		free(herd7);
		return 2;
	}
	for (int i = 0; i < nr_files; i++) {
		struct litmus_test t;
		char *text = read_file(files[i], NULL), *error = NULL, *path, *why = NULL;
		struct herd7_records kept = { 0 };
		const struct herd7_record *r;

		if (!text || litmus_parse(files[i], text, &t, &error)) {
			printf("not recorded: %s\n", error ? error : files[i]);
			failed++;
			free(error);
			free(text);
			if (text)
				litmus_test_free(&t);
			continue;
		}
		t.file = xstrdup(files[i]);
		r = herd7_says(&t, tree, lkmm, herd7);
		path = records_path(files[i]);
		if (!r || herd7_records_read(path, &kept, &why)) {
			printf("not recorded: %s: %s\n", files[i], why ? why : "herd7 gave no verdict");
			failed++;
		} else {
			herd7_records_put(&kept, r);
			if (herd7_records_write(path, &kept)) {
				printf("not recorded: %s: cannot write %s\n", files[i], path);
				failed++;
			} else {
				printf("%s: %s (herd7 %s) in %s\n", t.name, r->verdict, herd7, path);
				recorded++;
			}
		}
		herd7_records_free(&kept);
		free(why);
		free(path);
		litmus_test_free(&t);
		free(text);
	}
	printf("litmus --record: %d recorded, %d not\n", recorded, failed);
	free(lkmm);
	free(herd7);
	return failed ? 1 : 0;
}
