// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const kwm_barrier_tags[] = {
	"worker-b0", "worker-b1", "flush-b0", "flush-b1",
};
const int kwm_nr_barrier_tags = sizeof(kwm_barrier_tags) / sizeof(kwm_barrier_tags[0]);

/*
 * Mutants that break what a torture check guards, whatever the platform:
 * they show that each detector can fire.  Each must be KILLED.
 */
const struct detector_mutant kwm_detector_mutants[] = {
	/* Flushers are never woken: liveness. */
	{ "no-wakeup", "wake_up_all(&work->done);",
	  "(void)0; /* kwmatrix: wake-up removed */" },
	/* done_seq published before the work runs: completion, visibility. */
	{ "early-done", "\t\twork->func(work);\n",
	  "\t\tWRITE_ONCE(work->done_seq, seq); /* kwmatrix: too early */\n"
	  "\t\twork->func(work);\n" },
};
const int kwm_nr_detector_mutants = sizeof(kwm_detector_mutants) /
				    sizeof(kwm_detector_mutants[0]);

void variant_names(struct strlist *names)
{
	strlist_add(names, "seed");
	for (int i = 0; i < kwm_nr_barrier_tags; i++) {
		char *name = xasprintf("no-%s", kwm_barrier_tags[i]);

		strlist_add(names, name);
		free(name);
	}
	for (int i = 0; i < kwm_nr_detector_mutants; i++)
		strlist_add(names, kwm_detector_mutants[i].name);
}

static char *replace_once(const char *source, const char *find,
			  const char *replace)
{
	const char *hit = strstr(source, find);

	if (!hit || strstr(hit + 1, find))
		return NULL;
	return xasprintf("%.*s%s%s", (int)(hit - source), source, replace,
			 hit + strlen(find));
}

static const char *line_start(const char *text, const char *at)
{
	while (at > text && at[-1] != '\n')
		at--;
	return at;
}

char *mutate_remove_barrier(const char *source, const char *tag,
			    char **removed)
{
	char *pattern = xasprintf("%s paired with", tag);
	const char *hit = strstr(source, pattern), *line, *eol, *call, *semi;
	char *out;

	*removed = NULL;
	/* A tag must name exactly one barrier. */
	if (!hit || strstr(hit + 1, pattern)) {
		free(pattern);
		return NULL;
	}
	free(pattern);

	line = line_start(source, hit);
	eol = strchrnul(line, '\n');
	call = strstr(line, "smp_");
	if (!call || call > eol) {
		/* A block comment above the barrier: the first one after it. */
		const char *end = strstr(hit, "*/");

		call = end ? strstr(end, "smp_") : NULL;
	}
	if (!call)
		return NULL;
	semi = strchr(call, ';');
	if (!semi || memchr(call, '\n', semi - call))
		return NULL;
	line = line_start(source, call);
	*removed = strndup(line, strchrnul(call, '\n') - line);
	out = xasprintf("%.*s/* kwmatrix: %s removed */%s", (int)(call - source),
			source, tag, semi + 1);
	return out;
}

static int write_module(const char *dir, const char *name, const char *source,
			size_t len)
{
	char *c = xasprintf("%s/%s.c", dir, name);
	char *kbuild = xasprintf("%s/Kbuild", dir);
	char *obj = xasprintf("obj-m := %s.o\n", name);
	int ret = mkdir_p(dir);

	size_t old_len = 0;
	char *old = ret ? NULL : read_file(c, &old_len);

	/* Unchanged files keep their time stamps: make rebuilds nothing. */
	if (!ret && !(old && old_len == len && !memcmp(old, source, len)))
		ret = write_file_atomic(c, source, len);
	free(old);
	if (!ret && !path_exists(kbuild))
		ret = write_file_atomic(kbuild, obj, strlen(obj));
	free(c);
	free(kbuild);
	free(obj);
	return ret;
}

static int make_module(const struct build *b, const char *dir)
{
	char *argv[] = {
		"make", "-s", xasprintf("-C%s", b->dir), xasprintf("M=%s", dir),
		xasprintf("ARCH=%s", b->target->kernel_arch),
		xasprintf("CROSS_COMPILE=%s", b->target->cross_compile),
		xasprintf("CC=ccache %sgcc", b->target->cross_compile),
		"W=1", "modules", NULL,
	};
	int ret = run_cmd(argv, b->log, NULL);

	for (int i = 2; i < 7; i++)
		free(argv[i]);
	return ret;
}

int calibration_build(struct build *b, const struct build_env *env)
{
	char *from = xasprintf("%s/calibrate/%s.c", env->repo, CALIBRATION_MODULE);
	char *dir = xasprintf("%s/kwm/calibrate", b->dir);
	size_t len;
	char *source = read_file(from, &len);
	int ret = -1;

	if (!source)
		b->error = xasprintf("cannot read %s (fix: restore it from git)", from);
	else if (write_module(dir, CALIBRATION_MODULE, source, len) ||
		 make_module(b, dir))
		b->error = xasprintf("%s: building %s failed (see %s)",
				     b->target->name, CALIBRATION_MODULE, b->log);
	else
		ret = 0;
	free(source);
	free(from);
	free(dir);
	return ret;
}

int variants_build(struct build *b, const struct build_env *env)
{
	char *subject_path = xasprintf("%s/%s", env->src->tree, SUBJECT_FILE);
	char *root = xasprintf("%s/kwm/variants", b->dir);
	char *staging = xasprintf("%s/seed-staging", root);
	char *seed_path = xasprintf("%s/%s", staging, SUBJECT_FILE);
	size_t len;
	char *subject = read_file(subject_path, &len), *seed = NULL;
	int ret = -1;

	if (!subject) {
		b->error = xasprintf("%s: %s is not in the tree (fix: the series must create it)",
				     b->target->name, SUBJECT_FILE);
		goto out;
	}
	mkdir_p(root);

	/* The seed: the series without its fixes. */
	rm_rf(staging);
	if (tree_stage(env->src, env->series, true, staging, b->log) ||
	    !(seed = read_file(seed_path, NULL))) {
		b->error = xasprintf("%s: staging the seed variant failed (see %s)",
				     b->target->name, b->log);
		goto out;
	}
	{
		char *dir = xasprintf("%s/seed", root);

		ret = write_module(dir, SUBJECT_MODULE, seed, strlen(seed));
		if (!ret && make_module(b, dir))
			ret = -1;
		free(dir);
		if (ret) {
			b->error = xasprintf("%s: building the seed variant failed (see %s)",
					     b->target->name, b->log);
			goto out;
		}
	}

	for (int i = 0; i < kwm_nr_barrier_tags; i++) {
		char *removed, *dir = xasprintf("%s/no-%s", root, kwm_barrier_tags[i]);
		char *mutant = mutate_remove_barrier(subject, kwm_barrier_tags[i],
						     &removed);

		ret = -1;
		if (!mutant)
			b->error = xasprintf("%s: no barrier tagged %s in %s (fix: keep the tag in the barrier's comment)",
					     b->target->name, kwm_barrier_tags[i],
					     SUBJECT_FILE);
		else if (write_module(dir, SUBJECT_MODULE, mutant, strlen(mutant)) || make_module(b, dir))
			b->error = xasprintf("%s: building mutant no-%s failed (see %s)",
					     b->target->name, kwm_barrier_tags[i], b->log);
		else
			ret = 0;
		free(mutant);
		free(removed);
		free(dir);
		if (ret)
			goto out;
	}
	for (int i = 0; i < kwm_nr_detector_mutants; i++) {
		const struct detector_mutant *m = &kwm_detector_mutants[i];
		char *dir = xasprintf("%s/%s", root, m->name);
		char *mutant = replace_once(subject, m->find, m->replace);

		ret = -1;
		if (!mutant)
			b->error = xasprintf("%s: mutant %s: its text is not in %s exactly once (fix: update variants.c)",
					     b->target->name, m->name, SUBJECT_FILE);
		else if (write_module(dir, SUBJECT_MODULE, mutant, strlen(mutant)) ||
			 make_module(b, dir))
			b->error = xasprintf("%s: building mutant %s failed (see %s)",
					     b->target->name, m->name, b->log);
		else
			ret = 0;
		free(mutant);
		free(dir);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	rm_rf(staging);
	free(subject);
	free(seed);
	free(subject_path);
	free(root);
	free(staging);
	free(seed_path);
	return ret;
}
