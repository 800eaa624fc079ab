// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "series.h"
#include "fs.h"
#include "hash.h"

#include <stdlib.h>
#include <string.h>

/* "--- a/lib/foo.c\t2010-..." -> "lib/foo.c"; NULL for /dev/null. */
static char *diff_path(const char *line)
{
	const char *p = line + 4, *slash;
	size_t len = strcspn(p, "\t\n");

	if (!strncmp(p, "/dev/null", 9))
		return NULL;
	slash = memchr(p, '/', len);
	if (!slash)
		return NULL;
	return strndup(slash + 1, len - (slash + 1 - p));
}

/* Files that no kernel build reads. */
static bool no_build_effect(const char *file)
{
	return !strcmp(file, "MAINTAINERS") || !strncmp(file, "Documentation/", 14);
}

/*
 * Record the files of one patch, and feed the sections that modify files
 * already in the tree to @builtin.  A section that creates a file cannot
 * change vmlinux by itself: the series builds its new files as modules,
 * and the Kconfig and Makefile lines that say so are modifications of
 * existing files, which are hashed.  So editing the subject or its tests
 * keeps the kernel build, and anything else starts a new one.
 */
static int scan_patch(struct patch_file *pf, const char *text,
		      struct kwm_hash *builtin, struct strlist *created)
{
	bool in_section = false, section_builtin = false;
	const char *p = text;
	int nr_sections = 0;

	while (*p) {
		const char *nl = strchrnul(p, '\n');
		const char *next = *nl ? nl + 1 : nl;

		if (!strncmp(p, "--- ", 4) && !strncmp(next, "+++ ", 4)) {
			char *old = diff_path(p), *new = diff_path(next);
			char *file = new ? new : old;

			in_section = true;
			/* A file an earlier patch created is new to the tree too. */
			if (!old && file && !strlist_has(created, file))
				strlist_add(created, file);
			section_builtin = old != NULL && !no_build_effect(file) &&
					  !strlist_has(created, file);
			if (file && !strlist_has(&pf->files, file))
				strlist_add(&pf->files, file);
			if (section_builtin)
				hash_add_str(builtin, file);
			free(old);
			free(new);
			nr_sections++;
			/* Skip the "+++" line too. */
			next = strchrnul(next, '\n');
			next = *next ? next + 1 : next;
		} else if (!strncmp(p, "diff ", 5) || !strncmp(p, "-- \n", 4)) {
			/* Git's headers and signature: not part of any hunk. */
			in_section = false;
		} else if (in_section && section_builtin &&
			   (*p == '@' || *p == ' ' || *p == '+' || *p == '-')) {
			hash_add(builtin, p, next - p);
		}
		p = next;
	}
	return nr_sections;
}

/* @name from @refresh if the series was refreshed there, else from @dir. */
static char *patch_path(const char *dir, const char *refresh, const char *name)
{
	if (refresh) {
		char *path = xasprintf("%s/%s", refresh, name);

		if (path_exists(path))
			return path;
		free(path);
	}
	return xasprintf("%s/%s", dir, name);
}

/*
 * The patch a line of the series file names, cut in place ("0004-x.patch
 * # fix: ..."), or NULL for a blank or comment line; @is_fix says whether
 * its comment marks it as a fix.
 */
static char *series_line(char *line, bool *is_fix)
{
	char *comment = strchr(line, '#');

	*is_fix = comment && !strncmp(comment, "# fix", 5);
	line[strcspn(line, "#")] = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	line[strcspn(line, " \t\r")] = '\0';
	return *line ? line : NULL;
}

/* Where @text's diffs begin: after its commit message and diffstat. */
static const char *patch_diffs(const char *text)
{
	const char *diff = strstr(text, "\ndiff --git ");

	if (!strncmp(text, "diff --git ", 11))
		return text;
	return diff ? diff + 1 : text;
}

/*
 * Read patch @name into @s, hashed into @all, its diffs into @code (and
 * @builtin: scan_patch()).
 */
static int add_patch(struct series *s, const char *list_path, const char *refresh,
		     const char *name, bool is_fix, struct kwm_hash *all,
		     struct kwm_hash *code, struct kwm_hash *builtin,
		     struct strlist *created)
{
	struct patch_file *pf;
	size_t len;
	char *text;

	s->patches = xrealloc(s->patches, (s->nr + 1) * sizeof(*s->patches));
	pf = &s->patches[s->nr++];
	memset(pf, 0, sizeof(*pf));
	pf->name = xstrdup(name);
	pf->is_fix = is_fix;
	pf->path = patch_path(s->dir, refresh, name);
	text = read_file(pf->path, &len);
	if (!text) {
		kwm_error("%s names %s, which does not exist (fix: add the patch or drop it from the series)",
			  list_path, pf->name);
		return -1;
	}
	hash_add_str(all, pf->name);
	hash_add(all, text, len);
	/* A reworded commit message builds nothing new. */
	hash_add_str(code, is_fix ? "fix" : "");
	hash_add_str(code, patch_diffs(text));
	if (!scan_patch(pf, text, builtin, created)) {
		kwm_error("%s: no diff in it (fix: regenerate it with git format-patch)",
			  pf->path);
		free(text);
		return -1;
	}
	for (int i = 0; i < pf->files.n; i++)
		if (!strlist_has(&s->files, pf->files.v[i]))
			strlist_add(&s->files, pf->files.v[i]);
	free(text);
	return 0;
}

int series_load(const char *dir, const char *refresh, struct series *s)
{
	char *list_path = xasprintf("%s/series", dir), *list, *line, *save;
	struct kwm_hash *all, *code, *builtin;
	struct strlist created = { 0 };
	int ret = -1;

	memset(s, 0, sizeof(*s));
	s->dir = xstrdup(dir);
	list = read_file(list_path, NULL);
	if (!list) {
		kwm_error("%s: cannot read the series file (fix: list the patches, one per line, in %s)",
			  list_path, list_path);
		free(list_path);
		return -1;
	}
	all = hash_new();
	code = hash_new();
	builtin = hash_new();
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool is_fix;
		char *name = series_line(line, &is_fix);

		if (name && add_patch(s, list_path, refresh, name, is_fix, all,
				      code, builtin, &created))
			goto out;
	}
	if (!s->nr) {
		kwm_error("%s lists no patch (fix: list the patches, one per line)",
			  list_path);
		goto out;
	}
	ret = 0;
out:
	hash_final(all, s->digest);
	hash_final(code, s->code_digest);
	hash_final(builtin, s->builtin_digest);
	strlist_free(&created);
	free(list);
	free(list_path);
	return ret;
}

void series_free(struct series *s)
{
	for (int i = 0; i < s->nr; i++) {
		free(s->patches[i].name);
		free(s->patches[i].path);
		strlist_free(&s->patches[i].files);
	}
	free(s->patches);
	strlist_free(&s->files);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

bool series_diagnostic(const struct strlist *files, const char *line, size_t len)
{
	if (!memmem(line, len, ": warning: ", 11) && !memmem(line, len, ": error: ", 9))
		return false;
	for (int i = 0; files && i < files->n; i++) {
		char *at = xasprintf("/%s:", files->v[i]);
		bool hit = memmem(line, len, at, strlen(at)) != NULL;

		free(at);
		if (hit)
			return true;
	}
	return false;
}
