// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "variants.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "litmus.h"
#include "emu_callees.h"
#include "fs.h"
#include "proc.h"

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
		char *name = variant_name(i < kwm_nr_barrier_tags ? "" : SEED_PREFIX,
					  kwm_barrier_tags[i % kwm_nr_barrier_tags]);

		strlist_add(names, name);
		free(name);
	}
	for (int i = 0; i < kwm_nr_detector_mutants; i++)
		strlist_add(names, kwm_detector_mutants[i].name);
}

/*
 * The test of a COVERED verdict: the series without a barrier and
 * without what the model says covers it, on the emulated machine, where
 * it must then be killed.  Patch 5's handoff: the worker's lock around
 * its publish, and the flusher's lock before it returns.
 */
const struct emulated_detector kwm_emulated_detectors[] = {
	{ "uncovered-worker-b0", "worker-b0", {
	  { "\t\tspin_lock_irq(&worker->lock);\n\t\tsmp_wmb();",
	    "\t\tsmp_wmb();" },
	  { "\t\t\twake_up_all(&work->done);\n\t\tspin_unlock_irq(&worker->lock);\n",
	    "\t\t\twake_up_all(&work->done);\n" },
	  { "\t\tspin_lock_irq(&worker->lock);\n\t\tspin_unlock_irq(&worker->lock);\n",
	    "\t\t/* kwmatrix: the handoff removed */\n" } } },
};
const int kwm_nr_emulated_detectors = sizeof(kwm_emulated_detectors) /
				      sizeof(kwm_emulated_detectors[0]);

void emulated_names(struct strlist *names)
{
	for (int i = 0; i < kwm_nr_emulated_detectors; i++) {
		char *name = xasprintf("emu-%s", kwm_emulated_detectors[i].name);

		strlist_add(names, name);
		free(name);
	}
	for (int v = 0; v < 2; v++) {
		const char *prefix = v ? SEED_PREFIX : "";

		strlist_add(names, v ? "emu-seed" : "emu-series");
		for (int i = 0; i < kwm_nr_barrier_tags; i++) {
			char *variant = variant_name(prefix, kwm_barrier_tags[i]);
			char *name = xasprintf("emu-%s", variant);

			strlist_add(names, name);
			free(variant);
			free(name);
		}
	}
}

const struct module_family kwm_module_families[] = {
	{ variant_names, VARIANTS_FOLDER, SUBJECT_MODULE },
	{ emulated_names, EMULATED_FOLDER, EMULATED_MODULE },
};
const int kwm_nr_module_families = sizeof(kwm_module_families) /
				   sizeof(kwm_module_families[0]);

/*
 * The torture as calibrate/kw_emu_subject.h runs it: the work's data
 * stores and the flusher's reads of them marked, so that the layer sees
 * them (on hardware they stay plain, for KCSAN), and the layer set up
 * before the run and torn down after it.
 */
/*
 * Where the emulated subject is steered (calibrate/kw_emu_subject.h):
 * the start of a flush, the end of a queueing's stores, then each
 * barrier's site, just after it (or, in a mutant, where it was).  @work
 * is in scope at each.
 */
static const struct text_edit emulated_subject_sites[] = {
	{ "\tatomic_inc(&work->flushing);\n",
	  "\tkwe_site(\"flush-entry\", work);\n\tatomic_inc(&work->flushing);\n" },
	{ "\t\tWRITE_ONCE(work->queue_seq, work->queue_seq + 1);\n",
	  "\t\tWRITE_ONCE(work->queue_seq, work->queue_seq + 1);\n"
	  "\t\tkwe_site(\"queued\", work);\n" },
};

static const struct text_edit emulated_torture_edits[] = {
	{ "\t\tp->data[i] = want;\n", "\t\tWRITE_ONCE(p->data[i], want);\n" },
	{ "\t\t\tif (f->own.data[i] != gen) {\n",
	  "\t\t\tif (READ_ONCE(f->own.data[i]) != gen) {\n" },
	{ "\tret = kwt_alloc();\n",
	  "\tret = kwe_subject_setup();\n\tif (!ret)\n\t\tret = kwt_alloc();\n" },
	{ "\t\tkwt_free();\n\t\treturn ret;\n",
	  "\t\tkwt_free();\n\t\tkwe_teardown();\n\t\treturn ret;\n" },
	{ "\tkwt_free();\n\treturn 0;\n}", "\tkwt_free();\n\tkwe_teardown();\n\treturn 0;\n}" },
	/*
	 * A hunt: the first violation decides, the rest of the run would
	 * not; hunt_past names a check that fails anyway (the seed's).
	 */
	{ "\treturn kwt_stop_check >= 0 &&\n"
	  "\t       atomic_long_read(&kwt_violations[kwt_stop_check].count);\n",
	  "\treturn kwt_hunt_over();\n" },
};

static void hash_edits(struct kwm_hash *h, const struct text_edit *edits, int n)
{
	for (int i = 0; i < n && edits[i].find; i++) {
		hash_add_str(h, edits[i].find);
		hash_add_str(h, edits[i].replace);
	}
}

void variants_hash_tables(struct kwm_hash *h)
{
	for (int i = 0; i < kwm_nr_barrier_tags; i++)
		hash_add_str(h, kwm_barrier_tags[i]);
	for (int i = 0; i < kwm_nr_detector_mutants; i++) {
		const struct detector_mutant *m = &kwm_detector_mutants[i];

		hash_add_str(h, m->name);
		hash_add_str(h, m->of_seed ? "seed" : "subject");
		hash_edits(h, m->edits, MUTANT_MAX_EDITS);
	}
	hash_edits(h, emulated_torture_edits,
		   sizeof(emulated_torture_edits) / sizeof(emulated_torture_edits[0]));
	hash_edits(h, emulated_subject_sites,
		   sizeof(emulated_subject_sites) / sizeof(emulated_subject_sites[0]));
	for (int i = 0; i < kwm_nr_emulated_detectors; i++) {
		hash_add_str(h, kwm_emulated_detectors[i].name);
		hash_add_str(h, kwm_emulated_detectors[i].tag);
		hash_edits(h, kwm_emulated_detectors[i].edits, MUTANT_MAX_EDITS);
	}
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

/* @source with each of @n @edits made, or NULL if one does not apply. */
static char *apply_edits(const char *source, const struct text_edit *edits, int n)
{
	char *out = xstrdup(source);

	for (int i = 0; i < n && edits[i].find && out; i++) {
		char *next = replace_once(out, edits[i].find, edits[i].replace);

		free(out);
		out = next;
	}
	return out;
}

/* The first of @edits whose text is not in @source exactly once, or NULL. */
static const char *missing_anchor(const char *source, const struct text_edit *edits, int n)
{
	char *out = xstrdup(source);
	const char *missing = NULL;

	for (int i = 0; i < n && edits[i].find && !missing; i++) {
		char *next = replace_once(out, edits[i].find, edits[i].replace);

		if (!next)
			missing = edits[i].find;
		free(out);
		out = next ? next : xstrdup("");
	}
	free(out);
	return missing;
}

/*
 * Variant @name (in @root) cannot be made of this revision: what it
 * removes or edits is not in the code.  Its folder goes, so that nothing
 * older of it is packed; its suites do not run, and say @why (taken).
 */
static void not_applicable(struct build *b, const char *root, const char *name, char *why)
{
	char *dir = xasprintf("%s/%s", root, name);

	rm_rf(dir);
	free(dir);
	if (!strlist_has(&b->not_applicable, name)) {
		strlist_add(&b->not_applicable, name);
		strlist_add(&b->not_applicable_why, why);
	}
	free(why);
}

/* "'atomic_inc(&work->flushing);' not found": an anchor, on one line. */
static char *anchor_not_found(const char *anchor)
{
	if (!anchor)
		return xasprintf("an edit's text is not in its %s once", SUBJECT_FILE);
	return xasprintf("'%.*s' not found in its %s", (int)strcspn(anchor, "\n"), anchor,
			 SUBJECT_FILE);
}

static const char *line_start(const char *text, const char *at)
{
	while (at > text && at[-1] != '\n')
		at--;
	return at;
}

enum { BARRIER_NO_TAG = -1, BARRIER_TWICE = -2, BARRIER_NOT_SMP = -3 };

/*
 * The barrier @tag names in @source: *@call at its "smp_", *@semi at the
 * ';' that ends it.  A tag must name exactly one barrier: the code its
 * comment follows on its line, or the statement right after the block
 * comment that holds it.  0, or a BARRIER_ code saying what is missing.
 */
static int barrier_find(const char *source, const char *tag,
			const char **call, const char **semi)
{
	char *pattern = xasprintf("%s paired with", tag);
	const char *hit = strstr(source, pattern), *line, *first;

	if (!hit || strstr(hit + 1, pattern)) {
		free(pattern);
		return hit ? BARRIER_TWICE : BARRIER_NO_TAG;
	}
	free(pattern);
	line = line_start(source, hit);
	first = line + strspn(line, " \t");
	if (strncmp(first, "/*", 2) && *first != '*') {
		/* A comment after code: the barrier is that code, or none. */
		*call = strstr(line, "smp_");
		if (*call > hit)
			*call = NULL;
	} else {
		/* A block comment above it: the statement right after it. */
		const char *end = strstr(hit, "*/");

		*call = end ? end + 2 + strspn(end + 2, " \t\n") : NULL;
		if (*call && strncmp(*call, "smp_", 4))
			*call = NULL;
	}
	if (!*call)
		return BARRIER_NOT_SMP;
	*semi = strchr(*call, ';');
	return *semi ? 0 : BARRIER_NOT_SMP;
}

const char *barrier_absence(const char *source, const char *tag)
{
	const char *call, *semi;

	switch (barrier_find(source, tag, &call, &semi)) {
	case 0:
		return NULL;
	case BARRIER_TWICE:
		return "its tag is in two comments";
	case BARRIER_NOT_SMP:
		return "the comment with its tag is on no smp_*() barrier";
	default:
		return "no barrier is tagged so";
	}
}

char *mutate_remove_barrier(const char *source, const char *tag,
			    char **removed)
{
	const char *call, *semi, *line;

	*removed = NULL;
	if (barrier_find(source, tag, &call, &semi))
		return NULL;
	line = line_start(source, call);
	*removed = strndup(line, strchrnul(call, '\n') - line);
	return xasprintf("%.*s/* kwmatrix: %s removed */%s", (int)(call - source),
			 source, tag, semi + 1);
}

char *mark_barrier_sites(const char *source)
{
	char *out = apply_edits(source, emulated_subject_sites,
				sizeof(emulated_subject_sites) /
				sizeof(emulated_subject_sites[0]));

	for (int i = 0; i < kwm_nr_barrier_tags && out; i++) {
		const char *call, *semi;
		char *next = NULL;

		/* A barrier this revision does not have has no site to steer at. */
		if (barrier_find(out, kwm_barrier_tags[i], &call, &semi))
			continue;
		next = xasprintf("%.*s kwe_site(\"%s\", work);%s",
				 (int)(semi + 1 - out), out, kwm_barrier_tags[i], semi + 1);
		free(out);
		out = next;
	}
	return out;
}

/* A module's folder's Kbuild, written and read back (module_name_in()). */
#define MODULE_KBUILD		"obj-m := %s.o\n"
#define MODULE_KBUILD_SCAN	"obj-m := %255[^.].o"

static int write_module(const char *dir, const char *name, const char *source,
			size_t len)
{
	char *c = xasprintf("%s/%s.c", dir, name);
	char *kbuild = xasprintf("%s/Kbuild", dir);
	char *obj = xasprintf(MODULE_KBUILD, name);
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

/* calibrate/@name copied into @dir; *@changed if it was not there as it is. */
static int copy_header(const char *repo, const char *dir, const char *name,
		       bool *changed)
{
	char *header = xasprintf("%s/calibrate/%s", repo, name);
	char *copy = xasprintf("%s/%s", dir, name);
	int ret = !path_exists(header) || mkdir_p(dir);

	if (!ret && !files_equal(header, copy)) {
		*changed = true;
		ret = copy_file_atomic(header, copy);
	}
	free(copy);
	free(header);
	return ret;
}

/*
 * @source built under emulation: KWC_EMULATE set, and calibrate/'s
 * @headers (NULL-terminated, kw_emu.h first) beside it.
 */
static int stage_emulated(const struct build *b, struct strlist *stale, const char *dir,
			  const char *name, const char *source, const char *repo,
			  const char *const *headers)
{
	char *emulated = xasprintf("#define KWC_EMULATE 1\n%s", source);
	bool changed = false;
	int ret = 0;

	for (int i = 0; headers[i] && !ret; i++)
		ret = copy_header(repo, dir, headers[i], &changed);
	if (!ret)
		ret = stage_module(b, stale, dir, name, emulated);
	/* A header edit rebuilds the module, though its .c is the same. */
	if (!ret && changed && !strlist_has(stale, dir))
		strlist_add(stale, dir);
	free(emulated);
	return ret;
}

/*
 * @subject, then @torture, as one module on the emulated machine, in
 * @dir; both freed.
 */
static int stage_emulated_torture(struct build *b, struct strlist *stale,
				  const struct build_env *env, char *dir,
				  char *subject, const char *torture)
{
	static const char *const headers[] = {
		EMULATION_HEADER, EMULATED_SUBJECT_HEADER, EMULATED_HUNT_HEADER, NULL,
	};
	char *text = xasprintf("#include \"%s\"\n\n%s\n%s\n#include \"%s\"\n",
			       EMULATED_SUBJECT_HEADER, subject, torture,
			       EMULATED_HUNT_HEADER);
	int ret = stage_emulated(b, stale, dir, EMULATED_MODULE, text, env->repo,
				 headers);

	if (ret)
		b->error = xasprintf("%s: cannot write module sources under %s (fix: check free space)",
				     b->name, dir);
	free(text);
	free(subject);
	free(dir);
	return ret;
}

/*
 * One version of the subject, @subject, and the torture, @torture, under
 * emulation in @root: as it is (emu-@version), and without each barrier
 * (emu-@prefix no-<tag>).
 */
static int stage_emulated_version(struct build *b, struct strlist *stale,
				  const struct build_env *env, const char *root,
				  const char *version, const char *prefix,
				  const char *subject, const char *torture)
{
	char *sited = mark_barrier_sites(subject);
	int ret = 0;

	for (int i = -1; i < kwm_nr_barrier_tags && !ret; i++) {
		char *removed = NULL, *mutant = NULL, *dir, *variant, *name;

		if (sited)
			mutant = i < 0 ? xstrdup(sited) :
				 mutate_remove_barrier(sited, kwm_barrier_tags[i], &removed);
		free(removed);
		variant = i < 0 ? xstrdup(version) :
			  variant_name(prefix, kwm_barrier_tags[i]);
		name = xasprintf("emu-%s", variant);
		free(variant);
		if (!mutant) {
			not_applicable(b, root, name, !sited ?
				       xasprintf("the start of a flush, where the emulated machine steers, is not in the %s %s once",
						 *prefix ? "seed's" : "series'", SUBJECT_FILE) :
				       xasprintf("%s in the %s %s: %s", kwm_barrier_tags[i],
						 *prefix ? "seed's" : "series'", SUBJECT_FILE,
						 barrier_absence(subject, kwm_barrier_tags[i])));
			free(name);
			continue;
		}
		dir = xasprintf("%s/%s", root, name);
		free(name);
		ret = stage_emulated_torture(b, stale, env, dir, mutant, torture);
	}
	free(sited);
	return ret;
}

/* Each emulated detector: the series, edited, without its barrier. */
static int stage_emulated_detectors(struct build *b, struct strlist *stale,
				    const struct build_env *env, const char *root,
				    const char *subject, const char *torture)
{
	int ret = 0;

	for (int i = 0; i < kwm_nr_emulated_detectors && !ret; i++) {
		const struct emulated_detector *d = &kwm_emulated_detectors[i];
		char *edited = apply_edits(subject, d->edits, MUTANT_MAX_EDITS);
		char *sited = edited ? mark_barrier_sites(edited) : NULL;
		char *removed = NULL, *mutant = NULL;

		if (sited)
			mutant = mutate_remove_barrier(sited, d->tag, &removed);
		free(removed);
		free(sited);
		free(edited);
		if (!mutant) {
			const char *anchor = missing_anchor(subject, d->edits, MUTANT_MAX_EDITS);
			char *name = xasprintf("emu-%s", d->name);

			not_applicable(b, root, name, anchor ? anchor_not_found(anchor) :
				       xasprintf("%s in the series' %s: %s", d->tag, SUBJECT_FILE,
						 barrier_absence(subject, d->tag)));
			free(name);
			continue;
		}
		ret = stage_emulated_torture(b, stale, env,
					     xasprintf("%s/emu-%s", root, d->name),
					     mutant, torture);
	}
	return ret;
}

/* The series and the seed, as they are and without each barrier, under emulation. */
static int stage_emulated_tortures(struct build *b, struct strlist *stale,
				   const struct build_env *env, const char *subject,
				   const char *seed)
{
	char *path = xasprintf("%s/%s", env->src->tree, TORTURE_FILE);
	char *root = xasprintf("%s/kwm/" EMULATED_FOLDER, b->dir);
	char *text = read_file(path, NULL), *torture = NULL;
	int ret = -1;

	if (!text)
		b->error = xasprintf("%s: %s is not in the tree (fix: the series must create it)",
				     b->name, TORTURE_FILE);
	else if (!(torture = apply_edits(text, emulated_torture_edits,
					 sizeof(emulated_torture_edits) /
					 sizeof(emulated_torture_edits[0]))))
		b->error = xasprintf("%s: the torture under emulation: an edit's text is not in %s exactly once (fix: update variants.c)",
				     b->name, TORTURE_FILE);
	else
		ret = stage_emulated_version(b, stale, env, root, "series", "",
					     subject, torture) ||
		      stage_emulated_version(b, stale, env, root, "seed", SEED_PREFIX,
					     seed, torture) ||
		      stage_emulated_detectors(b, stale, env, root, subject,
					       torture) ? -1 : 0;
	free(torture);
	free(text);
	free(root);
	free(path);
	return ret;
}

/* The module @dir builds, from its Kbuild (write_module()); NULL if none. */
static char *module_name_in(const char *dir)
{
	char *kbuild = xasprintf("%s/Kbuild", dir);
	char *text = read_file(kbuild, NULL), name[256];
	bool found = text && sscanf(text, MODULE_KBUILD_SCAN, name) == 1;

	free(text);
	free(kbuild);
	return found ? xstrdup(name) : NULL;
}

int variants_group_modules(const struct strlist *stale, struct module_group **groups)
{
	int n = 0;

	*groups = NULL;
	for (int i = 0; i < stale->n; i++) {
		char *name = module_name_in(stale->v[i]);
		int k = 0;

		if (!name)
			name = xasprintf("?%d", i);	/* its make will say why */
		while (k < n && strlist_has(&(*groups)[k].names, name))
			k++;
		if (k == n) {
			*groups = xrealloc(*groups, ++n * sizeof(**groups));
			memset(&(*groups)[k], 0, sizeof(**groups));
		}
		strlist_add(&(*groups)[k].dirs, stale->v[i]);
		strlist_add(&(*groups)[k].names, name);
		free(name);
	}
	return n;
}

/*
 * Group @g as a folder kbuild can make, @dir: a link to each of its
 * module folders (named after its place under kwm/) and a Kbuild that
 * descends into them.
 */
static int write_group(const struct build *b, const struct module_group *g,
		       const char *dir)
{
	char *prefix = xasprintf("%s/kwm/", b->dir), *kbuild = xstrdup("obj-m +=");
	char *path = xasprintf("%s/Kbuild", dir);
	int ret = mkdir_p(dir);

	for (int i = 0; !ret && i < g->dirs.n; i++) {
		const char *member = g->dirs.v[i];
		char *link_name = xstrdup(strncmp(member, prefix, strlen(prefix)) ?
					  strrchr(member, '/') + 1 : member + strlen(prefix));
		char *link = NULL;

		for (char *c = link_name; *c; c++)
			if (*c == '/')
				*c = '-';
		link = xasprintf("%s/%s", dir, link_name);
		ret = symlink(member, link);
		xappendf(&kbuild, " %s/", link_name);
		free(link);
		free(link_name);
	}
	xappendf(&kbuild, "\n");
	if (!ret)
		ret = write_file_atomic(path, kbuild, strlen(kbuild));
	free(path);
	free(kbuild);
	free(prefix);
	return ret;
}

void variants_free_groups(struct module_group *groups, int n)
{
	for (int k = 0; k < n; k++) {
		strlist_free(&groups[k].dirs);
		strlist_free(&groups[k].names);
	}
	free(groups);
}

/*
 * Build the stale modules all at once, a make per group (variants_group_modules())
 * in kwm/groups/: each module is small, and a make's start-up, about a
 * CPU second (arm64: 1.07 s with nothing to build, 1.24 s for a
 * variant), was most of what 31 makes cost.
 */
static int make_modules(struct build *b, const struct strlist *stale)
{
	struct module_group *groups;
	int n = variants_group_modules(stale, &groups), ret = 0;
	char *root = xasprintf("%s/kwm/groups", b->dir);
	pid_t *pids = xcalloc(n ? n : 1, sizeof(*pids));

	rm_rf(root);
	for (int k = 0; k < n; k++) {
		char *dir = xasprintf("%s/%d", root, k), *log = xasprintf("%s/build.log", dir);
		char **argv = make_module_argv(b, dir);

		if (write_group(b, &groups[k], dir)) {
			if (!ret)
				b->error = xasprintf("%s: cannot write the module group %s (fix: check free space)",
						     b->name, dir);
			ret = -1;
		} else {
			pids[k] = spawn_cmd(argv, log, NULL);
		}
		argv_free(argv);
		free(log);
		free(dir);
	}
	for (int k = 0; k < n; k++) {
		/* Not started (0): write_group() failed, and said so. */
		if (pids[k] && wait_cmd(pids[k]) && !ret) {
			char *log = xasprintf("%s/%d/build.log", root, k), *dirs = xstrdup("");

			for (int i = 0; i < groups[k].dirs.n; i++)
				xappendf(&dirs, "%s%s", i ? ", " : "", groups[k].dirs.v[i]);
			b->error = xasprintf("%s: building the modules in %s failed (see %s)",
					     b->name, dirs, log);
			b->excerpt = read_file(log, NULL);
			free(dirs);
			free(log);
			ret = -1;
		}
	}
	free(pids);
	free(root);
	variants_free_groups(groups, n);
	return ret;
}

/*
 * Every call out of the emulated subject is one the machine sees, or one
 * that orders nothing (emu_callees.h): a build that breaks it fails.
 */
static int check_emulated_callees(struct build *b, const struct build_env *env)
{
	char *nm = xasprintf("%snm", b->target->cross_compile);
	char *root = xasprintf("%s/kwm/" EMULATED_FOLDER, b->dir);
	char *why = emu_callees_check(env->repo, nm, root);

	if (why)
		b->error = xasprintf("%s: %s", b->name, why);
	free(why);
	free(root);
	free(nm);
	return why ? -1 : 0;
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
		name = variant_name(prefix, kwm_barrier_tags[i]);
		if (!mutant) {
			not_applicable(b, root, name,
				       xasprintf("%s in the %s %s: %s", kwm_barrier_tags[i],
						 *prefix ? "seed's" : "series'", SUBJECT_FILE,
						 barrier_absence(source, kwm_barrier_tags[i])));
			free(name);
			continue;
		}
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
	    stage_barrier_mutants(b, stale, root, seed, SEED_PREFIX))
		return -1;
	for (int i = 0; i < kwm_nr_detector_mutants; i++) {
		const struct detector_mutant *m = &kwm_detector_mutants[i];
		char *mutant = apply_edits(m->of_seed ? seed : subject, m->edits,
					   MUTANT_MAX_EDITS);

		if (!mutant) {
			not_applicable(b, root, m->name,
				       anchor_not_found(missing_anchor(m->of_seed ? seed : subject,
								       m->edits, MUTANT_MAX_EDITS)));
			continue;
		}
		if (stage_variant(b, stale, root, m->name, mutant))
			return -1;
	}
	return 0;
}

/* calibrate/, natively in kwm/calibrate and under emulation in kwm/calibrate-emu. */
static int stage_calibration(struct build *b, struct strlist *stale,
			     const struct build_env *env)
{
	static const char *const headers[] = { EMULATION_HEADER, NULL };
	char *path = xasprintf("%s/calibrate/%s.c", env->repo, CALIBRATION_MODULE);
	char *native = xasprintf("%s/kwm/calibrate", b->dir);
	char *emulated = xasprintf("%s/kwm/calibrate-emu", b->dir);
	char *text = read_file(path, NULL);
	int ret = -1;

	if (!text)
		b->error = xasprintf("cannot read %s (fix: restore it from git)", path);
	else if (stage_module(b, stale, native, CALIBRATION_MODULE, text) ||
		 stage_emulated(b, stale, emulated, CALIBRATION_MODULE, text,
				env->repo, headers))
		b->error = xasprintf("%s: cannot write module sources under %s (fix: check free space)",
				     b->name, b->dir);
	else
		ret = 0;
	free(text);
	free(emulated);
	free(native);
	free(path);
	return ret;
}

char *litmus_source(const struct build_env *env, const char *refused, char **error)
{
	const struct strlist *files = env->litmus_files;
	struct litmus_test *tests;
	char *why = NULL, *source = NULL;
	int n;

	if (!litmus_collect(env->src->tree, env->repo,
			    files && files->n ? files->v : NULL,
			    files ? files->n : 0, &tests, &n, &why)) {
		litmus_truth(tests, n, env->src->tree);
		if (refused)
			litmus_apply_refusals(tests, n, refused);
		source = litmus_module_source(tests, n);
		litmus_tests_free(tests, n);
	}
	if (error)
		*error = why;
	else
		free(why);
	return source;
}

/*
 * The tests of this build whose C did not compile (LITMUS_REFUSED), if
 * the record was made from @source and the harness as they are now; a
 * new record (its key line alone) if not.
 */
#define LITMUS_REFUSED		"litmus-refused.tsv"
#define LITMUS_REFUSED_KEY	"# made from %s\n"

static char *litmus_refused(const struct build *b, const struct build_env *env,
			    const char *source)
{
	static const char *const harness[] = { LITMUS_HARNESS, EMULATION_HEADER };
	char *path = xasprintf("%s/kwm/" LITMUS_REFUSED, b->dir);
	char *record = read_file(path, NULL), *key_line;
	struct kwm_hash *h = hash_new();
	char key[KWM_HASH_HEX];

	hash_add_str(h, source);
	for (size_t i = 0; i < sizeof(harness) / sizeof(*harness); i++) {
		char *header = xasprintf("%s/calibrate/%s", env->repo, harness[i]);

		hash_add_file(h, header);
		free(header);
	}
	hash_final(h, key);
	key_line = xasprintf(LITMUS_REFUSED_KEY, key);
	if (!record || strncmp(record, key_line, strlen(key_line))) {
		free(record);
		record = key_line;
	} else {
		free(key_line);
	}
	free(path);
	return record;
}

/*
 * After a make that failed: the litmus tests its errors are in, added to
 * the build's record of refused tests.  How many were added: none means
 * the failure is not a litmus test's.
 */
static int litmus_refuse(const struct build *b, const struct build_env *env)
{
	char *unrefused = litmus_source(env, NULL, NULL);
	char *record = unrefused ? litmus_refused(b, env, unrefused) : NULL;
	char *native_path = xasprintf("%s/kwm/litmus/%s.c", b->dir, LITMUS_MODULE);
	char *emulated_path = xasprintf("%s/kwm/litmus-emu/%s.c", b->dir, LITMUS_MODULE);
	char *native = read_file(native_path, NULL), *emulated = read_file(emulated_path, NULL);
	char *pattern = xasprintf("%s/kwm/groups/*/build.log", b->dir), *log = xstrdup("");
	const struct strlist *files = env->litmus_files;
	struct litmus_test *tests = NULL;
	char *why = NULL, *path;
	int n = 0, added = 0;
	glob_t g;

	if (!glob(pattern, 0, NULL, &g))
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *text = read_file(g.gl_pathv[i], NULL);

			xappendf(&log, "%s", text ? text : "");
			free(text);
		}
	globfree(&g);
	if (record && !litmus_collect(env->src->tree, env->repo,
				      files && files->n ? files->v : NULL,
				      files ? files->n : 0, &tests, &n, &why))
		added = litmus_refusals_from_log(log, native, emulated, tests, n, &record);
	path = xasprintf("%s/kwm/" LITMUS_REFUSED, b->dir);
	if (added && write_file_atomic(path, record, strlen(record)))
		added = 0;
	free(path);
	litmus_tests_free(tests, n);
	free(why);
	free(log);
	free(pattern);
	free(native);
	free(emulated);
	free(native_path);
	free(emulated_path);
	free(record);
	free(unrefused);
	return added;
}

/* The litmus tests, natively in kwm/litmus and under emulation in kwm/litmus-emu. */
static int stage_litmus(struct build *b, struct strlist *stale,
			const struct build_env *env)
{
	static const char *const headers[] = { EMULATION_HEADER, LITMUS_HARNESS, NULL };
	char *native = xasprintf("%s/kwm/litmus", b->dir);
	char *emulated = xasprintf("%s/kwm/litmus-emu", b->dir);
	char *why = NULL, *unrefused = litmus_source(env, NULL, &why);
	char *refused = unrefused ? litmus_refused(b, env, unrefused) : NULL;
	char *text = refused ? litmus_source(env, refused, NULL) : NULL;
	bool changed = false;
	int ret = -1;

	if (!text)
		b->error = xasprintf("%s: %s", b->name, why);
	else if (copy_header(env->repo, native, LITMUS_HARNESS, &changed) ||
		 stage_module(b, stale, native, LITMUS_MODULE, text) ||
		 stage_emulated(b, stale, emulated, LITMUS_MODULE, text,
				env->repo, headers))
		b->error = xasprintf("%s: cannot write module sources under %s (fix: check free space)",
				     b->name, b->dir);
	else
		ret = 0;
	/* A harness edit rebuilds the module, though its .c is the same. */
	if (!ret && changed && !strlist_has(stale, native))
		strlist_add(stale, native);
	free(why);
	free(text);
	free(refused);
	free(unrefused);
	free(emulated);
	free(native);
	return ret;
}

/*
 * Of @stale, the folders the guest loads from: a variant it does not
 * load (on a default column, the oracle kernels' detectors) is written
 * but not built, and a run that loads it finds it stale then.
 */
static void keep_loaded(const struct build *b, struct strlist *stale)
{
	struct strlist kept = { 0 };

	for (int i = 0; i < stale->n; i++) {
		const char *dir = stale->v[i];
		bool cut = false;

		for (int f = 0; f < kwm_nr_module_families; f++) {
			char *root = xasprintf("%s/kwm/%s/", b->dir,
					       kwm_module_families[f].folder);

			cut |= !strncmp(dir, root, strlen(root));
			free(root);
		}
		if (!cut || strlist_has(&b->module_dirs, strrchr(dir, '/') + 1))
			strlist_add(&kept, dir);
	}
	strlist_free(stale);
	*stale = kept;
}

/* Where a build keeps its variants that are not applicable, for the runs after it. */
#define NOT_APPLICABLE_FILE	"not-applicable.tsv"

static int not_applicable_save(const struct build *b)
{
	char *path = xasprintf("%s/kwm/" NOT_APPLICABLE_FILE, b->dir), *text = xstrdup("");
	int ret;

	for (int i = 0; i < b->not_applicable.n; i++)
		xappendf(&text, "%s\t%s\n", b->not_applicable.v[i], b->not_applicable_why.v[i]);
	ret = write_file_atomic(path, text, strlen(text));
	free(text);
	free(path);
	return ret;
}

void variants_not_applicable_load(struct build *b)
{
	char *path = xasprintf("%s/kwm/" NOT_APPLICABLE_FILE, b->dir);
	char *text = b->not_applicable.n ? NULL : read_file(path, NULL);

	for (char *line = text, *nl; line && *line; line = nl + !!*nl) {
		char *tab = strchr(line, '\t');

		nl = strchrnul(line, '\n');
		if (!tab || tab > nl)
			continue;
		*tab = *nl = '\0';
		strlist_add(&b->not_applicable, line);
		strlist_add(&b->not_applicable_why, tab + 1);
	}
	free(text);
	free(path);
}

int variants_build(struct build *b, const struct build_env *env)
{
	char *subject_path = xasprintf("%s/%s", env->src->tree, SUBJECT_FILE);
	char *root = xasprintf("%s/kwm/" VARIANTS_FOLDER, b->dir);
	char *staging = xasprintf("%s/seed-staging", root);
	char *seed_path = xasprintf("%s/%s", staging, SUBJECT_FILE);
	char *seed_dir = xasprintf("%s/seed", root);
	char *subject = read_file(subject_path, NULL), *seed = NULL;
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
	for (;;) {
		if (stage_module(b, &stale, seed_dir, SUBJECT_MODULE, seed)) {
			b->error = xasprintf("%s: cannot write module sources under %s (fix: check free space)",
					     b->name, root);
			goto out;
		}
		/* Each stage sets b->error when it fails. */
		if (variants_stage_mutants(b, &stale, root, subject, seed) ||
		    stage_emulated_tortures(b, &stale, env, subject, seed) ||
		    stage_calibration(b, &stale, env) ||
		    stage_litmus(b, &stale, env))
			goto out;
		keep_loaded(b, &stale);
		ret = make_modules(b, &stale);
		/*
		 * A litmus test whose C does not compile is left out, with
		 * why, and the rest built again; each round leaves out one
		 * more at least.
		 */
		if (!ret || !litmus_refuse(b, env))
			break;
		free(b->error);
		free(b->excerpt);
		b->error = NULL;
		b->excerpt = NULL;
		strlist_free(&stale);
	}
	if (!ret)
		ret = check_emulated_callees(b, env);
	if (!ret && not_applicable_save(b)) {
		b->error = xasprintf("%s: cannot write %s/kwm/" NOT_APPLICABLE_FILE " (fix: check free space)",
				     b->name, b->dir);
		ret = -1;
	}
out:
	rm_rf(staging);
	strlist_free(&stale);
	free(subject);
	free(seed);
	free(subject_path);
	free(root);
	free(staging);
	free(seed_path);
	free(seed_dir);
	return ret;
}
