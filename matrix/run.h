/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's results, as the stages after the guests hand them on:
 * collect.c reads what the builds and guests left on disk into these
 * structs, judge.c turns them into cells and verdicts without I/O, and
 * report_json.c and table.c only format them.
 */
#ifndef KWM_RUN_H
#define KWM_RUN_H

#include <stdbool.h>

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
	/*
	 * Its guest's plan, made before any guest boots (plan_guests()),
	 * the run list and bound again as it boots (plan_before_boot()):
	 */
	int nr_guest_suites;		/* suites run in the guest; 0: none boots */
	char *kernel_append;		/* the guest's kernel command line */
	char *run_list;			/* its init's arguments and "kwm.run=...", in its initrd */
	int bound;			/* seconds the guest may take */
	bool booted;			/* its guest was started */
	const char *emu_hunted_on;	/* the column that hunts the emulated machine's tests -d */
	bool samples_covered;		/* covered barriers' emulated mutants: briefly */
	const char *covered_sampled_on;	/* the column that sampled them (plan_holds_back()) */
	const char *accel;		/* "kvm" or "tcg" (guest_accel()) */
	char *accel_note;		/* and why */
	bool under_tcg;			/* its guest is emulated by TCG */
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
	char *seed_code;		/* the seed's subject file, as staged now; NULL if it does not stage */
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

/* @tr's cell of suite @name, or NULL if it did not run there. */
const struct suite_result *report_find_cell(const struct target_result *tr,
					    const char *name);

#endif
