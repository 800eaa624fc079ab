/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel configuration: arch-configs/common.config and the target's
 * fragment merged onto tinyconfig with the tree's merge_config.sh, then
 * checked, since Kconfig silently drops a symbol whose dependencies are
 * not met.
 */
#ifndef KWM_CONFIG_H
#define KWM_CONFIG_H

#include "util.h"

struct config_sym {
	char *name;		/* CONFIG_FOO */
	char *value;		/* "y", "m", "\"str\"", ..., or "n" for not set */
	char *where;		/* file:line */
};

struct fragment_set {
	struct strlist files;
	struct config_sym *syms;
	int nr;
};

/*
 * Parse the fragments in order (later ones override earlier ones).
 * Returns 0, or -1 after one line naming the file, line and fix.
 */
int fragments_load(struct fragment_set *set, const char *const *paths, int nr);
void fragments_free(struct fragment_set *set);

/*
 * Compare @dotconfig with what the fragments asked for.  Each symbol that
 * is not set as asked goes to @problems as "CONFIG_FOO: asked y, got ...".
 * Returns the number of problems, or -1 if @dotconfig cannot be read.
 */
int config_check(const struct fragment_set *set, const char *dotconfig,
		 struct strlist *problems);

#endif
