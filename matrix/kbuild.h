/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one target's build is and what it is built from: the vocabulary
 * that the build stage and the variants it builds share, and kbuild's
 * command line.
 */
#ifndef KWM_KBUILD_H
#define KWM_KBUILD_H

#include <stdbool.h>

#include "hash.h"
#include "oracles.h"
#include "series.h"
#include "targets.h"
#include "tree.h"
#include "util.h"

struct build_env {
	const char *cache;
	const char *repo;		/* for initramfs/ and arch-configs/ */
	const struct source *src;
	const struct series *series;
	int jobs;
	/* The .litmus files the litmus module runs; none: the tree's and litmus/'s. */
	const struct strlist *litmus_files;
};

struct build {
	const struct target *target;
	const struct oracle *oracle;	/* NULL: the plain kernel */
	char *name;			/* "arm64", "arm64+kcsan" */
	char key[KWM_HASH_HEX];
	char *dir;			/* O= */
	char *log;			/* in the results folder */
	char *image, *initramfs;
	char *toolchain;		/* "aarch64-linux-gnu-gcc (Debian ...) 12.2.0" */
	double seconds;
	double prepared_seconds;	/* configured and prepared ahead (build_prepare()), or 0 */
	char *steps;			/* "kernel 380.1 s, W=1 3.2 s, ...": where they went */
	bool test_modules;		/* its guest loads kwmatrix's own modules too */
	struct strlist module_dirs;	/* the folders of those it loads: "seed", ... */
	bool w1_check, sparse_check;	/* the build and sparse suites are asked */
	bool up_to_date;		/* nothing was rebuilt */
	bool modules_only;		/* only the series' modules were rebuilt */
	/*
	 * Variant folders this revision of the subject cannot have (what
	 * they remove or edit is not in its code), with why: not built,
	 * and their suites not run (plan.c), their cells ABSENT.
	 */
	struct strlist not_applicable, not_applicable_why;
	char *error;			/* one line, or NULL if it built */
	char *excerpt;			/* compiler errors */
};

/*
 * "make -C@dir" with @t's ARCH, CROSS_COMPILE and ccache: kbuild's part
 * of every make the driver runs; add the rest with argv_add().
 */
char **kbuild_argv(const struct target *t, const char *dir);

#endif
