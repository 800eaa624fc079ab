/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKMM litmus tests (the C subset herd7 reads, as in the kernel's
 * tools/memory-model/litmus-tests/) turned into one kernel module, in
 * klitmus7's way: each Pn body a function over an instance of the
 * test's variables, its registers kept, its "exists" clause a C
 * predicate.  calibrate/kw_litmus.h is the harness that runs them,
 * natively and on the emulated machine (calibrate/kw_emu.h).
 *
 * A test that uses what the module cannot run is kept, with why: it is
 * listed as skipped, never counted as passed.
 */
#ifndef KWM_LITMUS_H
#define KWM_LITMUS_H

#include <stdbool.h>
#include <stddef.h>

#include "hash.h"

#define LITMUS_MODULE		"kw_litmus"
#define LITMUS_HARNESS		"kw_litmus.h"
#define LITMUS_MAX_THREADS	8	/* KWL_THREADS in calibrate/kw_litmus.h */

struct litmus_var {
	char *name;
	char *type;		/* of the variable: "int", "int *", "atomic_t" */
	char *init;		/* C for its initial value, or NULL: zero */
};

struct litmus_reg {
	char *name;
	bool pointer;
	/*
	 * Declared by the module, not the body: a register herd7 types
	 * from its use or the initial state gives, with its type and
	 * initial value (C), or NULL where the body declares it.
	 */
	char *type;
	char *init;
};

struct litmus_thread {
	char *params;		/* "int *x, int *y" */
	char *body;		/* between its braces */
	struct litmus_reg *regs;
	int nr_regs;
};

struct litmus_test {
	char *path;		/* as the module and the table name it */
	char *file;		/* as it was opened */
	char digest[KWM_HASH_HEX];	/* sha256 of its text */
	char *name;
	char *result;		/* the header's "Result:", or herd7's; NULL: none */
	char *result_by;	/* where a result not in the header came from */
	struct litmus_var *vars;
	int nr_vars;
	struct litmus_thread *threads;
	int nr_threads;
	char *exists;		/* C over kwl_in, or NULL where skipped */
	char *skip;		/* why it cannot run at all, or NULL */
	char *skip_emulated;	/* why not on the emulated machine, or NULL */
	bool slow;		/* a grace period per instance: few instances */
	/* The initial state's "1:r0=x", applied once the threads are read. */
	struct litmus_reg_init {
		int thread;
		char *name, *type, *init;
	} *reg_inits;
	int nr_reg_inits;
};

/*
 * Parse @text, the contents of @path.  0, or -1 with *@error one line
 * naming what is malformed (free it).  A test that parses but uses what
 * the module cannot run returns 0 with ->skip set.  The header may carry
 * diy7's lines (a quoted cycle, "Cycle=...", "Orig=..."), which are
 * skipped.
 */
int litmus_parse(const char *path, const char *text, struct litmus_test *t,
		 char **error);
void litmus_test_free(struct litmus_test *t);

/* The types a register may be declared with: "int", "unsigned long", ... */
extern const char *const litmus_reg_types[];
extern const int litmus_nr_reg_types;

/* The header's "Result:" verdict in a test's @text ("Never"), or NULL. */
char *litmus_expected(const char *text);

/*
 * A litmus test's shape: the length of its name's first part ("SB" of
 * "SB+fencembonceonces"), two parts for "2+2W".  The judge and the
 * module (through each test's .shape) group the tests by it.
 */
size_t litmus_shape_len(const char *test);

/*
 * Tests whose generated C does not compile (matrix/litmus_refuse.c):
 * the compiler's @log mapped back to @tests through the module's C as
 * written, @native and @emulated (the latter with KWC_EMULATE; either
 * may be NULL).  Appends a "MODE\tPATH\tERROR" line to *@tsv for each
 * test not in it yet; returns how many it added.
 */
int litmus_refusals_from_log(const char *log, const char *native,
			     const char *emulated, const struct litmus_test *tests,
			     int n, char **tsv);

/* Each test @tsv refuses: skipped, or not run on the emulated machine. */
void litmus_apply_refusals(struct litmus_test *tests, int n, const char *tsv);

/*
 * herd7's verdicts on the tests beside them (matrix/litmus_truth.c),
 * for tests without a "Result:" line.
 */
#define LITMUS_TRUTH_RECORDS	"herd7-verdicts.tsv"

/*
 * Each test of @tests without a "Result:" gets herd7's verdict on
 * @tree's model: herd7 run, where it is installed, or its record beside
 * the test; ->result_by says which.  Without either, ->result stays NULL.
 */
void litmus_truth(struct litmus_test *tests, int n, const char *tree);

/*
 * kwmatrix litmus --record TREE FILE...: herd7's verdict on each file,
 * on @tree's model, kept in LITMUS_TRUTH_RECORDS in the file's folder.
 * 0, 1 if one could not be recorded, 2 on bad input.
 */
int litmus_truth_record(const char *tree, char *const *files, int nr_files);

/* The module's C for @tests, in their order (free it). */
char *litmus_module_source(const struct litmus_test *tests, int n);

/*
 * The tests of @tree (tools/memory-model/litmus-tests/ and
 * Documentation/litmus-tests/) and of @repo/litmus/, or @files if not
 * NULL; sorted by path within each.  A file that cannot be read or is
 * malformed is one test, named after the file, skipped with the reason:
 * the others still run.  -1 with *@error only if no test parsed.
 */
int litmus_collect(const char *tree, const char *repo, char *const *files,
		   int nr_files, struct litmus_test **tests, int *n, char **error);
void litmus_tests_free(struct litmus_test *tests, int n);

#endif
