// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const kwm_barrier_tags[] = {
	"worker-b0", "worker-b1", "flush-b0", "flush-b1",
};
const int kwm_nr_barrier_tags = sizeof(kwm_barrier_tags) / sizeof(kwm_barrier_tags[0]);

/*
 * Mutants that break what a torture check guards, whatever the platform:
 * they show that each detector can fire.  Each must be KILLED.
 */
/*
 * The worker's last touches of a flushed work, made late: the flusher
 * polls, a jiffy at a time, until the worker has published done_seq, and
 * the worker lingers 20 ms after that before it reads flushing.  Polling,
 * not a fixed sleep: a busy worker may reach the work long after it was
 * queued.  Delays only; wait_event() still checks its condition.  The
 * seed's worker holds no lock there and sleeps; the patched one holds
 * worker->lock and must spin.
 */
#define LATE_WAKE_EDITS(linger)						\
	{ "#include <linux/kthread.h>\n",				\
	  "#include <linux/delay.h>\n#include <linux/kthread.h>\n" },	\
	{ "\t\tsmp_mb();\t/* mb worker-b1 paired with flush-b0 */\n",	\
	  "\t\tsmp_mb();\t/* mb worker-b1 paired with flush-b0 */\n"	\
	  "\t\t" linger "; /* kwmatrix: still to touch the work */\n" },	\
	{ "\twait_event(work->done,",					\
	  "\twhile (seq - READ_ONCE(work->done_seq) > 0)\n"		\
	  "\t\tmsleep(1); /* kwmatrix: let the worker publish first */\n" \
	  "\twait_event(work->done," }

const struct detector_mutant kwm_detector_mutants[] = {
	/* Flushers are never woken: liveness. */
	{ "no-wakeup", false, { { "wake_up_all(&work->done);",
	  "(void)0; /* kwmatrix: wake-up removed */" } } },
	/* done_seq published before the work runs: completion. */
	{ "early-done", false, { { "\t\twork->func(work);\n",
	  "\t\tWRITE_ONCE(work->done_seq, seq); /* kwmatrix: too early */\n"
	  "\t\twork->func(work);\n" } } },
	/* Flushers woken and done before the work writes: visibility. */
	{ "early-wake", false, { { "\t\t__set_current_state(TASK_RUNNING);\n\t\twork->func(work);\n",
	  "\t\t__set_current_state(TASK_RUNNING);\n"
	  "\t\tWRITE_ONCE(work->done_seq, seq); /* kwmatrix: too early */\n"
	  "\t\twake_up_all(&work->done);\n"
	  "\t\twork->func(work);\n" } } },
	/* The node is left poisoned, so the work looks pending forever: requeue. */
	{ "stays-pending", false, { { "list_del_init(&work->node);",
	  "list_del(&work->node); /* kwmatrix: not re-initialised */" } } },
	/* done_seq written plainly while flushers read it: KCSAN. */
	{ "plain-done-seq", false, { { "\t\tWRITE_ONCE(work->done_seq, seq);\n",
	  "\t\twork->done_seq = seq; /* kwmatrix: plain store */\n" } } },
	/* The worker's last touches of a flushed work, made slow: KASAN. */
	{ "late-wake", false, { LATE_WAKE_EDITS("mdelay(20)") } },
	{ "seed-late-wake", true, { LATE_WAKE_EDITS("msleep(20)") } },
};
const int kwm_nr_detector_mutants = sizeof(kwm_detector_mutants) /
				    sizeof(kwm_detector_mutants[0]);

void variant_names(struct strlist *names)
{
	strlist_add(names, "seed");
	for (int i = 0; i < 2 * kwm_nr_barrier_tags; i++) {
		char *name = xasprintf("%sno-%s", i < kwm_nr_barrier_tags ? "" : "seed-",
				       kwm_barrier_tags[i % kwm_nr_barrier_tags]);

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

/* @source with every edit of @m made, or NULL if one does not apply. */
static char *apply_edits(const char *source, const struct detector_mutant *m)
{
	char *out = xstrdup(source);

	for (int i = 0; i < MUTANT_MAX_EDITS && m->edits[i].find && out; i++) {
		char *next = replace_once(out, m->edits[i].find,
					  m->edits[i].replace);

		free(out);
		out = next;
	}
	return out;
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

/* An out-of-tree module in @dir, against the kernel built in @b->dir. */
static char **make_module_argv(const struct build *b, const char *dir)
{
	char **argv = kbuild_argv(b->target, b->dir);

	argv_add(&argv, "-s");
	argv_add(&argv, "M=%s", dir);
	argv_add(&argv, "W=1");
	argv_add(&argv, "modules");
	return argv;
}

static long mtime_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_mtime;
}

/*
 * Write one module's source into @dir; if its .ko is older than the
 * source or the kernel's Module.symvers, add @dir to @stale.
 */
static int stage_module(const struct build *b, struct strlist *stale,
			const char *dir, const char *name, const char *source)
{
	char *c = xasprintf("%s/%s.c", dir, name), *ko = xasprintf("%s/%s.ko", dir, name);
	char *symvers = xasprintf("%s/Module.symvers", b->dir);
	int ret = write_module(dir, name, source, strlen(source));
	long built = mtime_of(ko);

	if (!ret && (built < 0 || built < mtime_of(c) || built < mtime_of(symvers)))
		strlist_add(stale, dir);
	free(c);
	free(ko);
	free(symvers);
	return ret;
}

/*
 * @source built under emulation: KWC_EMULATE set, and calibrate/kw_emu.h
 * beside it, which it includes.
 */
static int stage_emulated(const struct build *b, struct strlist *stale, const char *dir,
			  const char *name, const char *source, const char *repo)
{
	char *header = xasprintf("%s/calibrate/%s", repo, EMULATION_HEADER);
	char *text = read_file(header, NULL), *copy = xasprintf("%s/%s", dir, EMULATION_HEADER);
	char *emulated = xasprintf("#define KWC_EMULATE 1\n%s", source);
	int ret = !text || mkdir_p(dir);
	bool changed = !ret && !files_equal(header, copy);

	if (changed)
		ret = copy_file_atomic(header, copy);
	if (!ret)
		ret = stage_module(b, stale, dir, name, emulated);
	/* A header edit rebuilds the module, though its .c is the same. */
	if (!ret && changed && !strlist_has(stale, dir))
		strlist_add(stale, dir);
	free(emulated);
	free(copy);
	free(text);
	free(header);
	return ret;
}

/* Build the stale modules all at once: each is small, make's start-up is not. */
static int make_modules(struct build *b, const struct strlist *stale)
{
	pid_t *pids = xcalloc(stale->n, sizeof(*pids));
	int ret = 0;

	for (int i = 0; i < stale->n; i++) {
		char **argv = make_module_argv(b, stale->v[i]);
		char *log = xasprintf("%s/build.log", stale->v[i]);

		unlink(log);
		pids[i] = spawn_cmd(argv, log, NULL);
		argv_free(argv);
		free(log);
	}
	for (int i = 0; i < stale->n; i++) {
		if (wait_cmd(pids[i]) && !ret) {
			char *log = xasprintf("%s/build.log", stale->v[i]);

			b->error = xasprintf("%s: building the module in %s failed (see %s)",
					     b->name, stale->v[i], log);
			b->excerpt = read_file(log, NULL);
			free(log);
			ret = -1;
		}
	}
	free(pids);
	return ret;
}

/* One variant's source, @source (freed), in @root/@name. */
static int stage_variant(struct build *b, struct strlist *stale,
			 const char *root, const char *name, char *source)
{
	char *dir = xasprintf("%s/%s", root, name);
	int ret = stage_module(b, stale, dir, SUBJECT_MODULE, source);

	free(source);
	free(dir);
	if (ret)
		b->error = xasprintf("%s: cannot write module sources under %s (fix: check free space)",
				     b->name, root);
	return ret;
}

/*
 * The barrier mutants of one version: @prefix "" for the series' (in
 * no-<tag>/), "seed-" for the seed's (in seed-no-<tag>/).
 */
static int stage_barrier_mutants(struct build *b, struct strlist *stale,
				 const char *root, const char *source,
				 const char *prefix)
{
	for (int i = 0; i < kwm_nr_barrier_tags; i++) {
		char *removed = NULL, *name;
		char *mutant = mutate_remove_barrier(source, kwm_barrier_tags[i], &removed);
		int ret;

		free(removed);
		if (!mutant) {
			b->error = xasprintf("%s: no barrier tagged %s in the %s %s (fix: keep the tag in the barrier's comment)",
					     b->name, kwm_barrier_tags[i],
					     *prefix ? "seed's" : "series'", SUBJECT_FILE);
			return -1;
		}
		name = xasprintf("%sno-%s", prefix, kwm_barrier_tags[i]);
		ret = stage_variant(b, stale, root, name, mutant);
		free(name);
		if (ret)
			return -1;
	}
	return 0;
}

int variants_stage_mutants(struct build *b, struct strlist *stale,
			   const char *root, const char *subject, const char *seed)
{
	if (stage_barrier_mutants(b, stale, root, subject, "") ||
	    stage_barrier_mutants(b, stale, root, seed, "seed-"))
		return -1;
	for (int i = 0; i < kwm_nr_detector_mutants; i++) {
		const struct detector_mutant *m = &kwm_detector_mutants[i];
		char *mutant = apply_edits(m->of_seed ? seed : subject, m);

		if (!mutant) {
			b->error = xasprintf("%s: mutant %s: an edit's text is not in the %s %s exactly once (fix: update variants.c)",
					     b->name, m->name,
					     m->of_seed ? "seed's" : "subject's", SUBJECT_FILE);
			return -1;
		}
		if (stage_variant(b, stale, root, m->name, mutant))
			return -1;
	}
	return 0;
}

int variants_build(struct build *b, const struct build_env *env)
{
	char *subject_path = xasprintf("%s/%s", env->src->tree, SUBJECT_FILE);
	char *root = xasprintf("%s/kwm/variants", b->dir);
	char *staging = xasprintf("%s/seed-staging", root);
	char *seed_path = xasprintf("%s/%s", staging, SUBJECT_FILE);
	char *calibration = xasprintf("%s/calibrate/%s.c", env->repo, CALIBRATION_MODULE);
	char *subject = read_file(subject_path, NULL), *seed = NULL, *text = NULL;
	struct strlist stale = { 0 };
	int ret = -1;

	if (!subject) {
		b->error = xasprintf("%s: %s is not in the tree (fix: the series must create it)",
				     b->name, SUBJECT_FILE);
		goto out;
	}
	mkdir_p(root);

	/* The seed: the series without its fixes. */
	rm_rf(staging);
	if (tree_stage(env->src, env->series, true, staging, b->log) ||
	    !(seed = read_file(seed_path, NULL))) {
		b->error = xasprintf("%s: staging the seed variant failed (see %s)",
				     b->name, b->log);
		goto out;
	}
	text = xasprintf("%s/seed", root);
	if (stage_module(b, &stale, text, SUBJECT_MODULE, seed))
		goto write_failed;
	free(text);
	text = NULL;

	/* Every error path below sets b->error and leaves ret at -1. */
	if (variants_stage_mutants(b, &stale, root, subject, seed))
		goto out;

	text = read_file(calibration, NULL);
	if (!text) {
		b->error = xasprintf("cannot read %s (fix: restore it from git)", calibration);
		goto out;
	}
	free(seed);
	seed = xasprintf("%s/kwm/calibrate", b->dir);
	if (stage_module(b, &stale, seed, CALIBRATION_MODULE, text))
		goto write_failed;
	free(seed);
	seed = xasprintf("%s/kwm/calibrate-emu", b->dir);
	if (stage_emulated(b, &stale, seed, CALIBRATION_MODULE, text, env->repo))
		goto write_failed;
	free(text);
	text = NULL;

	ret = make_modules(b, &stale);
	goto out;

write_failed:
	b->error = xasprintf("%s: cannot write module sources under %s (fix: check free space)",
			     b->name, b->dir);
out:
	rm_rf(staging);
	strlist_free(&stale);
	free(text);
	free(subject);
	free(seed);
	free(subject_path);
	free(root);
	free(staging);
	free(seed_path);
	free(calibration);
	return ret;
}
