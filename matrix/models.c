// SPDX-License-Identifier: GPL-2.0
/*
 * kwmatrix models: the one place herd7 is run for a reader.  Each test
 * of litmus/ beside its "Result:" header, then each path model, whole and
 * without each barrier (and what covers it), beside what its header says.
 * With --record, herd7's verdicts on the path models become the
 * repository's data, for machines without herd7.
 */
#define _GNU_SOURCE
#include "models.h"

#include <stdbool.h>
#include <stdio.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fs.h"
#include "herd7.h"
#include "litmus.h"
#include "lkmm.h"
#include "util.h"
#include "subject.h"

#define EXIT_SKIPPED	77
#define EXIT_BAD_INPUT	2

struct models_tally {
	bool ok;		/* every verdict agrees with its header and record */
	int ran, unrecorded;
};

/* Print one outcome; false if herd7 and the header or the record disagree. */
static void outcome_show(const struct lkmm_outcome *o, struct models_tally *t)
{
	char *line = lkmm_outcome_describe(o);

	printf(" %s", line);
	free(line);
	if (!o->seen || o->from_record)
		return;
	t->ran++;
	if (o->expected && strcmp(o->seen, o->expected))
		t->ok = false;
	if (o->record_disagrees) {
		printf(" [%s]", o->record_disagrees);
		t->ok = false;
	} else if (!o->recorded) {
		printf(" [no record: kwmatrix models --record]");
		t->unrecorded++;
		t->ok = false;
	}
}

static void record_add(struct herd7_records *out, const struct lkmm_outcome *o,
		       const char *lkmm, const char *date)
{
	struct herd7_record r = {
		.lkmm = (char *)lkmm, .herd7 = o->herd7, .verdict = o->seen,
		.states = o->states, .date = (char *)date, .name = o->name,
		.command = HERD7_COMMAND,
	};

	if (!o->seen || o->from_record)
		return;
	memcpy(r.test, o->test, sizeof(r.test));
	herd7_records_put(out, &r);
}

static void caller_show(const char *version, const struct lkmm_caller *c,
			struct models_tally *t, struct herd7_records *records,
			const char *lkmm, const char *date)
{
	printf("%-7s %s: %s\n", version, c->full.name, c->callers);
	printf("%-7s %-10s", version, "all");
	outcome_show(&c->full, t);
	record_add(records, &c->full, lkmm, date);
	putchar('\n');
	for (int b = 0; b < kwm_nr_barrier_tags; b++) {
		const struct lkmm_barrier *lb = &c->barriers[b];

		printf("%-7s %-10s without:", version, kwm_barrier_tags[b]);
		if (lb->error) {
			printf(" %s\n", lb->error);
			t->ok = false;
			continue;
		}
		outcome_show(&lb->without, t);
		record_add(records, &lb->without, lkmm, date);
		if (lb->covered_by) {
			printf("; without %s too:", lb->covered_by);
			outcome_show(&lb->uncovered, t);
			record_add(records, &lb->uncovered, lkmm, date);
		}
		putchar('\n');
	}
}

static void model_show(const struct lkmm_model *m, struct models_tally *t,
		       struct herd7_records *records, const char *lkmm,
		       const char *date)
{
	for (int i = 0; i < m->nr_callers; i++)
		caller_show(m->version, &m->caller[i], t, records, lkmm, date);
}

/* herd7's verdict on the test at @path against @tree, beside its header's. */
static bool litmus_file_agrees(const char *tree, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	/* herd7 runs in the tree's tools/memory-model: the path must be whole. */
	char *full = realpath(path, NULL), *why = NULL;
	char *text = full ? read_file(full, NULL) : NULL;
	struct litmus_test test = { 0 };
	struct herd7_record r = { 0 };
	bool ok = false;

	if (!text || litmus_parse(path, text, &test, &why))
		printf("litmus: FAIL %s: %s\n", base, why ? why : "cannot be read");
	else if (herd7_run(tree, full, &r, &why))
		printf("litmus: FAIL %s: %s\n", base, why);
	else if (!test.result || strcmp(test.result, r.verdict))
		printf("litmus: FAIL %s: herd7 says '%s', header says '%s'\n", base,
		       r.verdict, test.result ? test.result : "nothing");
	else
		ok = printf("litmus: ok   %s: %s\n", base, r.verdict) > 0;
	herd7_record_free(&r);
	litmus_test_free(&test);
	free(text);
	free(full);
	free(why);
	return ok;
}

/*
 * The repository's litmus tests against @tree's model.  Skipped without
 * herd7: nothing says a test's header is right then.
 */
static void litmus_files_check_all(const char *tree, const char *herd7,
				   struct models_tally *t)
{
	glob_t g;
	size_t agree = 0;

	if (!herd7 || glob("litmus/*.litmus", 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++)
		agree += litmus_file_agrees(tree, g.gl_pathv[i]);
	printf("litmus: %zu of %zu tests as their Result: says (herd7 %s)\n",
	       agree, g.gl_pathc, herd7);
	t->ran += g.gl_pathc;
	t->ok &= agree == g.gl_pathc;
	globfree(&g);
}

/*
 * The records of other trees' models, which --record keeps: those of
 * this one are what herd7 says now.  0, or -1 if the file is bad.
 */
static int records_of_other_models(struct herd7_records *out, const char *lkmm)
{
	struct herd7_records old;
	char *why;

	if (herd7_records_read(HERD7_RECORDS, &old, &why)) {
		kwm_error("%s", why);
		free(why);
		return -1;
	}
	for (int i = 0; i < old.n; i++)
		if (strcmp(old.v[i].lkmm, lkmm))
			herd7_records_put(out, &old.v[i]);
	herd7_records_free(&old);
	return 0;
}

int cmd_models(int argc, char **argv, const char *cache)
{
	struct models_tally t = { .ok = true };
	struct herd7_records records = { 0 };
	bool record = argc == 3 && !strcmp(argv[1], "--record");
	const char *tree = argv[argc - 1];
	char date[16], *lkmm, *herd7;
	time_t now = time(NULL);
	int ret;

	if (argc != 2 && !record) {
		kwm_error("models needs the kernel tree (fix: kwmatrix models [--record] ~/.cache/kwmatrix/src/<version>/tree)");
		return EXIT_BAD_INPUT;
	}
	lkmm = herd7_model_digest(tree);
	if (!lkmm) {
		kwm_error("%s/tools/memory-model holds no model (fix: name a kernel tree, e.g. ~/.cache/kwmatrix/src/<version>/tree)",
			  tree);
		return EXIT_BAD_INPUT;
	}
	herd7 = herd7_version();
	if (record && !herd7) {
		kwm_error("models --record needs herd7 (fix: build herd7 from herdtools7 and put it on PATH)");
		free(lkmm);
		return EXIT_BAD_INPUT;
	}
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	if (record && records_of_other_models(&records, lkmm)) {
		free(herd7);
		free(lkmm);
		return EXIT_BAD_INPUT;
	}
	litmus_files_check_all(tree, herd7, &t);
	for (int v = 0; v < kwm_nr_subject_versions; v++) {
		struct lkmm_model m;

		lkmm_model_judge(".", tree, cache, kwm_subject_versions[v], &m);
		if (m.error) {
			kwm_error("%s", m.error);
			t.ok = false;
		} else {
			model_show(&m, &t, &records, lkmm, date);
		}
		lkmm_model_free(&m);
	}
	ret = !t.ok ? 1 : t.ran ? 0 : EXIT_SKIPPED;
	if (record && t.ran) {
		/* This model's records are what this herd7 said now. */
		if (herd7_records_write(HERD7_RECORDS, &records)) {
			kwm_error("cannot write %s (fix: run from the repository's top folder)",
				  HERD7_RECORDS);
			ret = 1;
		} else {
			printf("models: %d verdicts of %s recorded in %s\n", records.n,
			       herd7, HERD7_RECORDS);
			ret = 0;
		}
	} else if (t.unrecorded) {
		printf("models: %d verdicts have no record (fix: kwmatrix models --record %s)\n",
		       t.unrecorded, tree);
	}
	herd7_records_free(&records);
	free(herd7);
	free(lkmm);
	return ret;
}
