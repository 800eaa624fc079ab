/* SPDX-License-Identifier: GPL-2.0 */
/*
 * herd7, the memory model's checker: run where it is installed, and its
 * verdicts kept as data (litmus/herd7-verdicts.tsv) where it is not.
 * Debian packages no herd7; a record lets a machine without it use what
 * herd7 said about exactly the same test on exactly the same model.
 */
#ifndef KWM_HERD7_H
#define KWM_HERD7_H

#include "hash.h"

/* The records' file, under the repository. */
#define HERD7_RECORDS	"litmus/herd7-verdicts.tsv"
/* How herd7 is run, as a record names it: in the tree's tools/memory-model. */
#define HERD7_COMMAND	"cd tools/memory-model && herd7 -conf linux-kernel.cfg TEST"

/* What herd7 said about one test on one model. */
struct herd7_record {
	char test[KWM_HASH_HEX];	/* sha256 of the test's text */
	char *lkmm;		/* herd7_model_digest() of the model used */
	char *herd7;		/* herd7's version */
	char *verdict;		/* "Never", "Sometimes" or "Always" */
	char *states;		/* the states herd7 listed, "; "-joined */
	char *date;		/* YYYY-MM-DD */
	char *name;		/* which test, for a reader: "path-seed without flush-b0" */
	char *command;		/* how herd7 was run */
};

struct herd7_records {
	struct herd7_record *v;
	int n;
};

/*
 * The model herd7 reads in @tree's tools/memory-model: "name=sha256" for
 * each .cat, .bell, .def and .cfg file, by name, comma-separated.  NULL
 * if there is none.
 */
char *herd7_model_digest(const char *tree);

/* herd7's version, or NULL if it is not installed. */
char *herd7_version(void);

/*
 * Run herd7 on the test at @path against @tree's model: its verdict and
 * states into @out (test, lkmm and name are the caller's).  0, or -1 with
 * *@why saying what herd7 printed instead.
 */
int herd7_run(const char *tree, const char *path, struct herd7_record *out,
	      char **why);

/* The records in @path: a missing file holds none.  0, or -1 with *@why. */
int herd7_records_read(const char *path, struct herd7_records *out, char **why);

/* @records to @path, whole or not at all.  0, or -1. */
int herd7_records_write(const char *path, const struct herd7_records *records);

/* The record of test @test on model @lkmm, or NULL. */
const struct herd7_record *herd7_records_find(const struct herd7_records *records,
					      const char *test, const char *lkmm);

/* Add a copy of @r, in place of any record of the same test and model. */
void herd7_records_put(struct herd7_records *records, const struct herd7_record *r);

void herd7_record_free(struct herd7_record *r);
void herd7_records_free(struct herd7_records *records);

#endif
