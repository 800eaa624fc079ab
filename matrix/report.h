/* SPDX-License-Identifier: GPL-2.0 */
/* The results of a run: matrix.json and the table on the terminal. */
#ifndef KWM_REPORT_H
#define KWM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "boot.h"
#include "build.h"
#include "parse.h"

/* One kernel of one target: a column of the matrix. */
struct target_result {
	const struct target *target;
	const struct build_env *env;	/* the kernel version's source and series */
	const char *checkpatch_log;	/* its version's, if checkpatch was asked for */
	const struct oracle *oracle;	/* NULL: the plain kernel */
	struct strlist suites;		/* the run's suites that run on it */
	char *unavailable;		/* why this kernel cannot exist here */
	struct build build;
	bool build_ok;
	struct guest guest;
	struct console_result console;
	struct shape_rate *rates;	/* calibration figures */
	int nr_rates;
};

struct run {
	char *id;
	char *dir;			/* results/<id> */
	const char *repo;		/* for litmus/ */
	const char *tree;		/* the patched kernel tree */
	const struct strlist *series_files;	/* what the series touches */
	const char *const *suites;
	int nr_suites;
	struct target_result *targets;
	int nr_targets;
	bool complete;			/* false if interrupted */
	char *started_utc;
	double seconds;
};

/* Fill the cells of every target from its build and console log. */
void report_judge(struct run *run);
/* Write @run->dir/matrix.json atomically.  0 or -1 (errno set). */
int report_write_json(const struct run *run);
/* "done: 12 PASS 3 UNOBSERVABLE", for the progress display (free it). */
char *report_column_summary(const struct target_result *tr);
/* Print the target x suite table; returns true if every cell passed. */
bool report_print_table(const struct run *run, FILE *out);

#endif
