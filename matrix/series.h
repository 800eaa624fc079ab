/* SPDX-License-Identifier: GPL-2.0 */
/* The quilt-style series under patch/: which patches, which files. */
#ifndef KWM_SERIES_H
#define KWM_SERIES_H

#include <stdbool.h>

#include "hash.h"
#include "util.h"

struct patch_file {
	char *name;		/* as listed in series */
	char *path;
	struct strlist files;	/* every file it touches, -p1 */
	bool is_fix;		/* "# fix" in series: a fix of the seed */
};

struct series {
	char *dir;
	struct patch_file *patches;
	int nr;
	struct strlist files;	/* union over the patches */
	/*
	 * Everything; what is built (the diffs, in order, and which are
	 * fixes: not the commit messages); and only what can reach vmlinux
	 * (see series.c).
	 */
	char digest[KWM_HASH_HEX];
	char code_digest[KWM_HASH_HEX];
	char builtin_digest[KWM_HASH_HEX];
};

/*
 * The series listed in @dir/series, each patch taken from @refresh (a
 * folder of patches refreshed for another kernel version) where it is
 * there, else from @dir.  @refresh may be NULL or missing.  0, or -1
 * after printing one line naming the problem and the fix.
 */
int series_load(const char *dir, const char *refresh, struct series *s);
void series_free(struct series *s);

/*
 * Whether the compiler or sparse line at @line (@len bytes) is a warning
 * or an error in one of @files ("<tree>/lib/kw_worker.c:12:3: warning:").
 */
bool series_diagnostic(const struct strlist *files, const char *line, size_t len);

#endif
