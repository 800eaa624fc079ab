/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results of a run, in three stages: collect.c reads what the builds
 * and guests left on disk and parses it into these structs, judge.c
 * turns them into cells without I/O, and report_json.c and table.c only
 * format (matrix.json; the table on the terminal).
 */
#ifndef KWM_REPORT_H
#define KWM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "boot.h"
#include "build.h"
#include "parse.h"
#include "verdict.h"

/* A build-time check's output, as left in its log, parsed. */
struct static_result {
	const char *log;		/* its path */
	char *text;			/* NULL if it could not be read */
	int exit_status;		/* the check's, -1 if the log never said */
	size_t output_len;		/* of @text before that last word */
	bool tool_missing;		/* the check's program is not installed */
	int clean, findings;		/* checkpatch: patches without and with */
};

/* One kernel of one target: a column of the matrix. */
struct target_result {
	const struct target *target;
	const struct build_env *env;	/* the kernel version's source and series */
	const char *checkpatch_log;	/* its version's, if checkpatch was asked for */
	const struct oracle *oracle;	/* NULL: the plain kernel */
	const struct lkmm_model *models; /* the run's, for how long a mutant hunts */
	struct strlist suites;		/* the run's suites that run on it */
	char *unavailable;		/* why this kernel cannot exist here */
	struct build build;
	bool build_ok;
	struct guest guest;
	struct console_result console;
	struct shape_rate *rates;	/* calibration figures */
	int nr_rates;
	struct litmus_row *litmus;	/* the litmus tests' figures */
	int nr_litmus;
	/* Read by the collect stage, for the judge: */
	bool collected, judged;		/* early, as its guest ended: not again */
	bool console_empty;		/* the guest wrote nothing */
	char *qemu_text;		/* then QEMU's own log */
	bool oracle_inactive;		/* the oracle is built in, but did not start */
	struct static_result sparse, checkpatch;
	char *sparse_log;		/* the path sparse.log is read from */
};

struct run {
	char *id;
	char *dir;			/* results/<id> */
	const char *repo;		/* for litmus/ */
	const char *cache;		/* herd7's verdicts are kept there */
	const char *tree;		/* the patched kernel tree */
	const struct strlist *series_files;	/* what the series touches */
	const char *const *suites;
	int nr_suites;
	struct target_result *targets;
	int nr_targets;
	bool complete;			/* false if interrupted */
	char *started_utc;
	double seconds;
	struct lkmm_model *models;	/* per kwm_subject_versions[] */
	struct barrier_verdict *verdicts;	/* per version, then barrier */
	int nr_verdicts;
};

/* One column of report_collect() and report_judge(), once, as its guest ends. */
void report_collect_target(struct target_result *tr);
void report_judge_target(struct run *run, struct target_result *tr);
/* Each barrier's verdict on the columns judged so far (again: replaced). */
void report_judge_barriers(struct run *run);
/* A column's cells, and the verdicts decided so far, before the rest end. */
void report_print_column(const struct run *run, const struct target_result *tr,
			 int *said, FILE *out);

/* @tr's cell of suite @name, or NULL if it did not run there. */
const struct suite_result *report_find_cell(const struct target_result *tr,
					    const char *name);

/* A "Never" litmus test with a weak outcome on @side (LITMUS_NATIVE...). */
bool litmus_side_forbidden(const struct litmus_row *r, int side);
/* The litmus tests' table on the terminal, if any ran. */
void report_print_litmus(const struct run *run, FILE *out);

/*
 * The memory model's verdicts on each barrier of each version (herd7,
 * once per run), for every column: before the guests, which hunt only
 * the mutants of barriers the model does not show covered.
 */
void report_judge_models(struct run *run);

/*
 * Read every column's console, QEMU log and build-time checks' output,
 * and parse them into its structs; the models too, if not yet judged.
 */
void report_collect(struct run *run);
/*
 * Fill the cells of every column from what was collected, then each
 * barrier's verdict per version from its mutants' cells.  No I/O.
 */
void report_judge(struct run *run);
/* What report_collect() and report_judge() allocated in @run. */
void report_free(struct run *run);
/* Write @run->dir/matrix.json atomically.  0 or -1 (errno set). */
int report_write_json(const struct run *run);
/* "done: 12 PASS 3 UNOBSERVABLE", for the progress display (free it). */
char *report_column_summary(const struct target_result *tr);
/* Print the target x suite table; returns true if every cell passed. */
bool report_print_table(const struct run *run, FILE *out);

#endif
