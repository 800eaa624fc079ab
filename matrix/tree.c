// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "tree.h"
#include "fs.h"
#include "proc.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define APPLIED_LIST	".kwm-applied"

const char *const kwm_kernel_versions[] = { "6.1", "6.12" };
const int kwm_nr_kernel_versions = sizeof(kwm_kernel_versions) /
				   sizeof(kwm_kernel_versions[0]);

int source_locate(const char *release, const char *cache, struct source *src)
{
	char *package = xasprintf("linux-source-%s", release);
	char *cmd = xasprintf("dpkg-query -W -f='${Status} ${Version}\\n' %s 2>/dev/null",
			      package);
	char *line = cmd_output_line(cmd), *version;

	free(cmd);
	memset(src, 0, sizeof(*src));
	src->release = xstrdup(release);
	src->tag = strcmp(release, kwm_kernel_versions[0]) ?
		   xasprintf("@%s", release) : xstrdup("");
	src->package = package;
	if (!line || strncmp(line, "install ok installed ", 21)) {
		kwm_error("%s is not installed (fix: apt-get install %s, or run make deps)",
			  package, package);
		free(line);
		return -1;
	}
	version = line + 21;
	src->version = xstrdup(version);
	src->tarball = xasprintf("/usr/src/%s.tar.xz", package);
	src->root = xasprintf("%s/src/%s", cache, version);
	src->pristine = xasprintf("%s/pristine", src->root);
	src->tree = xasprintf("%s/tree", src->root);
	free(line);
	if (access(src->tarball, R_OK)) {
		kwm_error("%s is missing although %s is installed (fix: apt-get install --reinstall %s)",
			  src->tarball, package, package);
		return -1;
	}
	return 0;
}

int source_unpack(struct source *src, const char *log)
{
	char *tmp, *cmd, *top;
	int ret = -1;

	if (mkdir_p(src->root)) {
		kwm_error("cannot create %s: %s (fix: make KWMATRIX_CACHE point at a writable folder)",
			  src->root, strerror(errno));
		return -1;
	}
	tmp = xasprintf("%s/unpack.%d", src->root, (int)getpid());
	top = xasprintf("%s/%s", tmp, src->package);
	if (!path_exists(src->pristine)) {
		kwm_info("unpacking %s %s into %s", src->package, src->version,
			 src->root);
		rm_rf(tmp);
		mkdir_p(tmp);
		/* Debian's tarball is xz in blocks: unpacked on every CPU, not one. */
		cmd = xasprintf("tar -x --use-compress-program='xz -T0' -f '%s' -C '%s'",
				src->tarball, tmp);
		ret = run_shell(cmd, log);
		free(cmd);
		if (ret || !path_exists(top) || rename(top, src->pristine)) {
			kwm_error("unpacking %s failed (fix: check free space in %s; see %s)",
				  src->tarball, src->root, log);
			rm_rf(tmp);
			ret = -1;
			goto out;
		}
		rm_rf(tmp);
	}
	if (!path_exists(src->tree)) {
		/* Hard links: patch and the sync below replace, never modify. */
		cmd = xasprintf("cp -al '%s' '%s'", src->pristine, tmp);
		ret = run_shell(cmd, log);
		free(cmd);
		if (ret || rename(tmp, src->tree)) {
			kwm_error("copying the source tree failed (fix: check free space in %s; see %s)",
				  src->root, log);
			rm_rf(tmp);
			ret = -1;
			goto out;
		}
	}
	ret = 0;
out:
	free(top);
	free(tmp);
	return ret;
}

static void read_applied(const struct source *src, struct strlist *files)
{
	char *path = xasprintf("%s/%s", src->tree, APPLIED_LIST);
	char *text = read_file(path, NULL), *line, *save;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		strlist_add(files, line);
	free(text);
	free(path);
}

static int write_applied(const struct source *src, const struct strlist *files)
{
	char *path = xasprintf("%s/%s", src->tree, APPLIED_LIST);
	size_t len = 0;
	char *text = xstrdup("");
	int ret;

	for (int i = 0; i < files->n; i++) {
		xappendf(&text, "%s\n", files->v[i]);
	}
	len = strlen(text);
	ret = write_file_atomic(path, text, len);
	free(text);
	free(path);
	return ret;
}

static int copy_into(const char *from, const char *to)
{
	char *dir = xstrdup(to);
	int ret = mkdir_p(dirname(dir));

	free(dir);
	return ret ? ret : copy_file_atomic(from, to);
}

/* The first hunk of @rej, indented, for the error message. */
static void print_first_hunk(const char *rej)
{
	char *text = read_file(rej, NULL), *p, *end;
	int lines = 0;

	if (!text)
		return;
	p = strstr(text, "\n@@");
	if (p) {
		p++;
		end = strstr(p + 2, "\n@@");
		if (end)
			*end = '\0';
		fputs("  first rejected hunk:\n", stderr);
		for (char *l = strtok(p, "\n"); l && lines < 30;
		     l = strtok(NULL, "\n"), lines++)
			fprintf(stderr, "    %s\n", l);
	}
	free(text);
}

static int apply_in_staging(const struct series *s, bool skip_fixes,
			    const char *staging, const char *log,
			    const char *version)
{
	for (int i = 0; i < s->nr; i++) {
		const struct patch_file *pf = &s->patches[i];

		if (skip_fixes && pf->is_fix)
			continue;
		char *abs = realpath(pf->path, NULL);
		char *argv[] = { "patch", "-p1", "--batch", "--forward", "-s",
				 "-d", (char *)staging, "-i", abs, NULL };
		int ret = abs ? run_cmd(argv, log, NULL) : -1;

		free(abs);
		if (!ret)
			continue;
		if (skip_fixes)
			kwm_error("the seed (the series without its \"# fix\" patches) does not stage: patch %s does not apply to linux-source %s without them (fix: if it builds on a fix, mark it \"# fix\" in the series file too; details in %s)",
				  pf->name, version, log);
		else
			kwm_error("patch %s does not apply to linux-source %s (fix: refresh it against that tree; details in %s)",
				  pf->name, version, log);
		for (int j = 0; j < pf->files.n; j++) {
			char *rej = xasprintf("%s/%s.rej", staging, pf->files.v[j]);

			if (path_exists(rej)) {
				fprintf(stderr, "  in %s:\n", pf->files.v[j]);
				print_first_hunk(rej);
				free(rej);
				break;
			}
			free(rej);
		}
		return -1;
	}
	return 0;
}

/* Pristine copies of @files in @staging, with the series applied. */
static int stage_files(const struct source *src, const struct strlist *files,
		       const struct series *s, bool skip_fixes,
		       const char *staging, const char *log)
{
	rm_rf(staging);
	mkdir_p(staging);
	for (int i = 0; i < files->n; i++) {
		char *from = xasprintf("%s/%s", src->pristine, files->v[i]);
		char *to = xasprintf("%s/%s", staging, files->v[i]);
		int err = path_exists(from) && copy_into(from, to);

		free(from);
		free(to);
		if (err) {
			kwm_error("cannot stage %s in %s (fix: check free space)",
				  files->v[i], staging);
			return -1;
		}
	}
	return apply_in_staging(s, skip_fixes, staging, log, src->version);
}

int tree_stage(const struct source *src, const struct series *s,
	       bool skip_fixes, const char *staging, const char *log)
{
	return stage_files(src, &s->files, s, skip_fixes, staging, log);
}

int tree_apply_series(struct source *src, const struct series *s,
		      const char *log)
{
	char *staging = xasprintf("%s/staging.%d", src->root, (int)getpid());
	struct strlist files = { 0 };
	int ret = -1, changed = 0;

	/* Files the last series touched must return to pristine too. */
	read_applied(src, &files);
	for (int i = 0; i < s->files.n; i++)
		if (!strlist_has(&files, s->files.v[i]))
			strlist_add(&files, s->files.v[i]);

	if (stage_files(src, &files, s, false, staging, log))
		goto out;

	/* A crash in the loop below leaves a superset on record: still safe. */
	if (write_applied(src, &files))
		goto write_failed;
	for (int i = 0; i < files.n; i++) {
		char *from = xasprintf("%s/%s", staging, files.v[i]);
		char *to = xasprintf("%s/%s", src->tree, files.v[i]);
		int err = 0;

		if (path_exists(from)) {
			if (!files_equal(from, to)) {
				err = copy_into(from, to);
				changed++;
			}
		} else if (path_exists(to)) {
			err = unlink(to);
			changed++;
		}
		free(from);
		free(to);
		if (err)
			goto write_failed;
	}
	strlist_free(&files);
	for (int i = 0; i < s->files.n; i++)
		strlist_add(&files, s->files.v[i]);
	if (write_applied(src, &files))
		goto write_failed;
	if (changed)
		kwm_info("series: %d files changed in the source tree", changed);
	ret = 0;
	goto out;

write_failed:
	kwm_error("cannot update the source tree in %s: %s (fix: check free space)",
		  src->tree, strerror(errno));
out:
	rm_rf(staging);
	strlist_free(&files);
	free(staging);
	return ret;
}

void source_free(struct source *src)
{
	free(src->release);
	free(src->tag);
	free(src->package);
	free(src->version);
	free(src->tarball);
	free(src->root);
	free(src->pristine);
	free(src->tree);
	memset(src, 0, sizeof(*src));
}
