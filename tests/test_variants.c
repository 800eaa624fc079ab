// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* Mutants: each barrier tag removes exactly its own barrier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "emu_callees.h"
#include "fs.h"
#include "tmpdir.h"
#include "util.h"
#include "variants.h"

/*
 * lib/kw_worker.c after the patches that match @pattern: the seed is
 * 0001 alone (0002 and 0003 do not touch it), the subject the whole series.
 */
static char *subject_after(const char *pattern)
{
	char *cmd, *out;

	assert_int_equal(setup(NULL), 0);
	cmd = xasprintf("cd %s && git apply --include=%s %s/patch/%s",
			dir, SUBJECT_FILE, getenv("PWD"), pattern);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	cmd = xasprintf("%s/%s", dir, SUBJECT_FILE);
	out = read_file(cmd, NULL);
	assert_non_null(out);
	free(cmd);
	teardown(NULL);
	strcpy(dir, "/tmp/kwm-test-XXXXXX");
	return out;
}

static char *subject_from_patch(void)
{
	return subject_after("0*.patch");
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void each_tag_removes_one_barrier(void **state)
{
	static const char *const barrier[] = {
		"smp_wmb();", "smp_mb();", "smp_mb__after_atomic();",
		"smp_mb__after_atomic();",
	};
	char *subject = subject_from_patch();

	(void)state;
	assert_int_equal(count(subject, "smp_"), 4);
	for (int i = 0; i < kwm_nr_barrier_tags; i++) {
		char *removed, *mutant;

		mutant = mutate_remove_barrier(subject, kwm_barrier_tags[i], &removed);
		assert_non_null(mutant);
		assert_non_null(strstr(removed, barrier[i]));
		assert_int_equal(count(mutant, "smp_"), 3);
		assert_int_equal(count(mutant, barrier[i]),
				 count(subject, barrier[i]) - 1);
		assert_non_null(strstr(mutant, kwm_barrier_tags[i]));
		free(mutant);
		free(removed);
	}
	free(subject);
}

static void flush_tags_hit_the_right_call(void **state)
{
	char *subject = subject_from_patch(), *removed;
	char *mutant = mutate_remove_barrier(subject, "flush-b0", &removed);
	const char *inc = strstr(mutant, "atomic_inc(&work->flushing);");
	const char *dec = strstr(mutant, "atomic_dec(&work->flushing);");

	(void)state;
	/* flush-b0 follows the increment; flush-b1 after the decrement stays. */
	assert_non_null(strstr(inc, "kwmatrix: flush-b0 removed"));
	assert_true(strstr(inc, "kwmatrix: flush-b0 removed") < dec);
	assert_non_null(strstr(dec, "smp_mb__after_atomic();"));
	free(mutant);
	free(removed);
	free(subject);
}

/*
 * The steering sites: one per barrier, just after it, and kept where a
 * mutant cuts it; and the start of each flush.
 */
static void sites_follow_each_barrier_and_survive_its_cut(void **state)
{
	char *subject = subject_from_patch();
	char *sited = mark_barrier_sites(subject);

	(void)state;
	assert_non_null(sited);
	assert_int_equal(count(sited, "kwe_site(\"flush-entry\", work);"), 1);
	for (int i = 0; i < kwm_nr_barrier_tags; i++) {
		char *site = xasprintf("; kwe_site(\"%s\", work);", kwm_barrier_tags[i]);
		char *removed, *mutant;

		assert_int_equal(count(sited, site), 1);
		mutant = mutate_remove_barrier(sited, kwm_barrier_tags[i], &removed);
		assert_non_null(mutant);
		/* The barrier goes, its site stays. */
		assert_int_equal(count(mutant, "smp_"), 3);
		assert_int_equal(count(mutant, site + 2), 1);
		free(mutant);
		free(removed);
		free(site);
	}
	assert_null(mark_barrier_sites("int a;\n"));
	free(sited);
	free(subject);
}

static void unknown_or_ambiguous_tags_are_refused(void **state)
{
	const char *twice = "smp_mb(); /* mb x-b0 paired with y */\n"
			    "smp_mb(); /* mb x-b0 paired with z */\n";
	char *removed;

	(void)state;
	assert_null(mutate_remove_barrier("int a;\n", "worker-b0", &removed));
	assert_null(mutate_remove_barrier(twice, "x-b0", &removed));
	assert_null(mutate_remove_barrier("/* w-b0 paired with q */\nint a;\n",
					  "w-b0", &removed));
}

static void detector_texts_occur_once(void **state)
{
	char *subject = subject_from_patch(), *seed = subject_after("0001-*.patch");

	(void)state;
	for (int i = 0; i < kwm_nr_detector_mutants; i++) {
		const struct detector_mutant *m = &kwm_detector_mutants[i];

		for (int j = 0; j < MUTANT_MAX_EDITS && m->edits[j].find; j++)
			assert_int_equal(count(m->of_seed ? seed : subject,
					       m->edits[j].find), 1);
	}
	free(subject);
	free(seed);
}

/*
 * Every tag names a barrier in both versions; a revision without one has
 * that mutant ABSENT, never an error of the whole column, and never one
 * built from an older text.
 */
static void a_missing_tag_makes_its_mutant_absent(void **state)
{
	char *subject = subject_from_patch(), *seed = subject_after("0001-*.patch");
	char *broken, *hit, *root;
	struct build b = { .name = (char *)"arm64" };
	struct strlist stale = { 0 };

	(void)state;
	assert_int_equal(setup(NULL), 0);
	b.dir = dir;
	root = xasprintf("%s/variants", dir);
	assert_int_equal(variants_stage_mutants(&b, &stale, root, subject, seed), 0);
	assert_null(b.error);
	assert_int_equal(stale.n, 2 * kwm_nr_barrier_tags + kwm_nr_detector_mutants);
	/* The seed's mutants are cut from the seed: no patch 5 in them. */
	hit = xasprintf("%s/seed-no-worker-b0/%s.c", root, SUBJECT_MODULE);
	broken = read_file(hit, NULL);
	assert_non_null(broken);
	assert_non_null(strstr(broken, "kwmatrix: worker-b0 removed"));
	assert_null(strstr(broken, "WRITE_ONCE(work->worker"));
	free(broken);
	free(hit);

	/*
	 * A revision without worker-b1's tag: its mutant is not applicable,
	 * says why, and leaves nothing older of it; the others are made.
	 */
	broken = xstrdup(subject);
	hit = strstr(broken, kwm_barrier_tags[1]);
	assert_non_null(hit);
	memcpy(hit, "xxxxxx", 6);
	strlist_free(&stale);
	assert_int_equal(variants_stage_mutants(&b, &stale, root, broken, seed), 0);
	assert_null(b.error);
	/* And any detector whose edit's anchor held the tag (named, not found). */
	for (int i = 1; i < b.not_applicable.n; i++)
		assert_non_null(strstr(b.not_applicable_why.v[i], "' not found in its "));
	assert_string_equal(b.not_applicable.v[0], "no-worker-b1");
	assert_string_equal(b.not_applicable_why.v[0],
			    "worker-b1 in the series' " SUBJECT_FILE ": no barrier is tagged so");
	hit = xasprintf("%s/no-worker-b1", root);
	assert_false(path_exists(hit));
	free(hit);
	hit = xasprintf("%s/no-flush-b1/%s.c", root, SUBJECT_MODULE);
	assert_true(path_exists(hit));
	free(hit);
	strlist_free(&b.not_applicable);
	strlist_free(&b.not_applicable_why);
	free(broken);

	/* Its tag kept on a barrier that is no smp_*(): none is taken for it. */
	broken = xstrdup(subject);
	hit = strstr(broken, "smp_mb();\t/* mb worker-b1 paired");
	assert_non_null(hit);
	memcpy(hit, "barrier();", 10);
	assert_int_equal(variants_stage_mutants(&b, &stale, root, broken, seed), 0);
	assert_string_equal(b.not_applicable.v[0], "no-worker-b1");
	assert_string_equal(b.not_applicable_why.v[0], "worker-b1 in the series' " SUBJECT_FILE
			    ": the comment with its tag is on no smp_*() barrier");
	hit = xasprintf("%s/no-worker-b0/%s.c", root, SUBJECT_MODULE);
	free(broken);
	broken = read_file(hit, NULL);
	assert_non_null(strstr(broken, "kwmatrix: worker-b0 removed"));
	assert_non_null(strstr(broken, "barrier();/* mb worker-b1 paired"));
	free(hit);
	strlist_free(&b.not_applicable);
	strlist_free(&b.not_applicable_why);
	strlist_free(&stale);
	free(broken);
	free(root);
	free(subject);
	free(seed);
	teardown(NULL);
	strcpy(dir, "/tmp/kwm-test-XXXXXX");
}

/*
 * The variants all build kw_worker.ko, which one make refuses twice: each
 * goes to its own make, and modules of other names join them there, so
 * no make has two modules of one name.
 */
static void one_make_never_builds_two_of_one_name(void **state)
{
	char *subject = subject_from_patch(), *seed = subject_after("0001-*.patch");
	struct build b = { .name = (char *)"arm64" };
	struct strlist stale = { 0 };
	struct module_group *groups;
	char *root;
	int n;

	(void)state;
	assert_int_equal(setup(NULL), 0);
	b.dir = dir;
	root = xasprintf("%s/variants", dir);
	assert_int_equal(variants_stage_mutants(&b, &stale, root, subject, seed), 0);
	for (int i = 0; i < 2; i++) {
		char *other = xasprintf("%s/calibrate%d", dir, i);
		char *kbuild = xasprintf("%s/Kbuild", other);

		assert_int_equal(mkdir_p(other), 0);
		assert_int_equal(write_file_atomic(kbuild, "obj-m := kw_calibrate.o\n", 24), 0);
		strlist_add(&stale, other);
		free(kbuild);
		free(other);
	}
	n = variants_group_modules(&stale, &groups);
	assert_int_equal(n, stale.n - 2);
	for (int k = 0; k < n; k++)
		for (int i = 0; i < groups[k].names.n; i++)
			for (int j = 0; j < i; j++)
				assert_string_not_equal(groups[k].names.v[i], groups[k].names.v[j]);
	assert_int_equal(groups[0].dirs.n, 2);
	assert_string_equal(groups[1].names.v[1], "kw_calibrate");
	variants_free_groups(groups, n);
	strlist_free(&stale);
	free(root);
	free(subject);
	free(seed);
	teardown(NULL);
	strcpy(dir, "/tmp/kwm-test-XXXXXX");
}

/*
 * The repository's table lists every symbol the emulated modules took at
 * the last build here, and a call it does not list is named: the build
 * of a module that reads the clock unwrapped would fail.
 */
static void unlisted_callees_are_named(void **state)
{
	static const char *const nm =
		"                 U _raw_spin_lock_irq\n"
		"                 U ktime_get\n"
		"                 U jiffies\n";
	static const char *const table =
		"# symbol\thow\twhy\n"
		"_raw_spin_lock_irq\tcall\tspin_lock_irq()\n"
		"jiffies\tdata\ta variable\n";
	char *repo_table = read_file(EMU_CALLEES, NULL), *unlisted;
	int bad;

	(void)state;
	unlisted = emu_callees_unlisted(table, nm, &bad);
	assert_int_equal(bad, 0);
	assert_string_equal(unlisted, "ktime_get");
	free(unlisted);
	/* The repository's own table lists it, each row well formed. */
	assert_non_null(repo_table);
	assert_null(emu_callees_unlisted(repo_table, nm, &bad));
	assert_int_equal(bad, 0);
	/* A row without its why, or with an unknown how, is refused. */
	unlisted = emu_callees_unlisted("ktime_get\tcall\n", nm, &bad);
	assert_int_equal(bad, 1);
	free(unlisted);
	unlisted = emu_callees_unlisted("x\ty\tz\nktime_get\tsometimes\tno\n", nm, &bad);
	assert_int_equal(bad, 1);
	free(unlisted);
	free(repo_table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_tag_removes_one_barrier),
		cmocka_unit_test(flush_tags_hit_the_right_call),
		cmocka_unit_test(sites_follow_each_barrier_and_survive_its_cut),
		cmocka_unit_test(unknown_or_ambiguous_tags_are_refused),
		cmocka_unit_test(detector_texts_occur_once),
		cmocka_unit_test(a_missing_tag_makes_its_mutant_absent),
		cmocka_unit_test(one_make_never_builds_two_of_one_name),
		cmocka_unit_test(unlisted_callees_are_named),
	};

	return cmocka_run_group_tests_name("variants", tests, NULL, NULL);
}
