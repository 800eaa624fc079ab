/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel source in the cache: Debian's tarball unpacked once as a
 * read-only "pristine" tree, and a hard-linked working "tree" that carries
 * the series.  Applying a series rewrites only the files whose content
 * changes, so make rebuilds only what the edit touched.
 */
#ifndef KWM_TREE_H
#define KWM_TREE_H

#include <stdbool.h>

#include "series.h"

/*
 * The kernel versions Debian 12 ships a linux-source package of.  The
 * first is the reference: its columns carry no "@version" tag.
 */
extern const char *const kwm_kernel_versions[];
extern const int kwm_nr_kernel_versions;

struct source {
	char *release;		/* 6.1 */
	char *tag;		/* in column names: "" for the reference, "@6.12" */
	char *package;		/* linux-source-6.1 */
	char *version;		/* Debian version of that package */
	char *tarball;
	char *root;		/* CACHE/src/VERSION */
	char *pristine;
	char *tree;
};

/* Find linux-source-@release; -1 after one line naming the fix. */
int source_locate(const char *release, const char *cache, struct source *src);

/* Unpack into the cache if it is not there yet. */
int source_unpack(struct source *src, const char *log);
/* Make the working tree equal to pristine plus @s. */
int tree_apply_series(struct source *src, const struct series *s,
		      const char *log);
/*
 * The files of @s, pristine, with @s applied (without its "# fix" patches
 * if @skip_fixes), in the folder @staging.
 */
int tree_stage(const struct source *src, const struct series *s,
	       bool skip_fixes, const char *staging, const char *log);
void source_free(struct source *src);

#endif
