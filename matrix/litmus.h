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

#define LITMUS_MODULE		"kw_litmus"
#define LITMUS_HARNESS		"kw_litmus.h"
#define LITMUS_MAX_THREADS	4

struct litmus_var {
	char *name;
	char *type;		/* of the variable: "int", "int *", "atomic_t" */
	char *init;		/* C for its initial value, or NULL: zero */
};

struct litmus_reg {
	char *name;
	bool pointer;
};

struct litmus_thread {
	char *params;		/* "int *x, int *y" */
	char *body;		/* between its braces */
	struct litmus_reg *regs;
	int nr_regs;
};

struct litmus_test {
	char *path;
	char *name;
	char *result;		/* the header's "Result:", or NULL */
	struct litmus_var *vars;
	int nr_vars;
	struct litmus_thread *threads;
	int nr_threads;
	char *exists;		/* C over kwl_in, or NULL where skipped */
	char *skip;		/* why it cannot run at all, or NULL */
	char *skip_emulated;	/* why not on the emulated machine, or NULL */
	bool slow;		/* a grace period per instance: few instances */
};

/*
 * Parse @text, the contents of @path.  0, or -1 with *@error one line
 * naming what is malformed (free it).  A test that parses but uses what
 * the module cannot run returns 0 with ->skip set.
 */
int litmus_parse(const char *path, const char *text, struct litmus_test *t,
		 char **error);
void litmus_test_free(struct litmus_test *t);

/* The header's "Result:" verdict in a test's @text ("Never"), or NULL. */
char *litmus_expected(const char *text);

/*
 * A litmus test's shape: the length of its name's first part ("SB" of
 * "SB+fencembonceonces"), two parts for "2+2W".  The judge and the
 * module (through each test's .shape) group the tests by it.
 */
size_t litmus_shape_len(const char *test);

/* The module's C for @tests, in their order (free it). */
char *litmus_module_source(const struct litmus_test *tests, int n);

/*
 * The tests of @tree (tools/memory-model/litmus-tests/ and
 * Documentation/litmus-tests/) and of @repo/litmus/, or @files if not
 * NULL; sorted by path within each.  -1 with *@error on a file that
 * cannot be read or is malformed.
 */
int litmus_collect(const char *tree, const char *repo, char *const *files,
		   int nr_files, struct litmus_test **tests, int *n, char **error);
void litmus_tests_free(struct litmus_test *tests, int n);

#endif
