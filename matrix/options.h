/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of "kwmatrix run": its options, their defaults, and
 * the checks that refuse bad input with one line naming the fix.
 */
#ifndef KWM_OPTIONS_H
#define KWM_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "util.h"

struct options {
	struct strlist targets, suites, kernels, versions;
	char *results, *cache, *repo, *series_dir;
	int jobs;
	int duration;		/* seconds, for suites that take one */
	int timeout;		/* seconds; 0: from the target and suites */
	bool lava;		/* boot through lava-run */
	struct strlist litmus_files;	/* kwmatrix litmus FILE...: the tests to run */
};

void options_usage(FILE *out);
/* $KWMATRIX_CACHE, or ~/.cache/kwmatrix (free it). */
char *options_default_cache(void);

/* Fill @o from argv (argv[0] is "run"); -1 after one line naming the fix. */
int options_parse(int argc, char **argv, struct options *o);
/* The same for "litmus [options] FILE...": the files, and its suites by default. */
int options_parse_litmus(int argc, char **argv, struct options *o);
void options_free(struct options *o);

#endif
