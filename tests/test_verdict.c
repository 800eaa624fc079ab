// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * Barrier verdicts: NECESSARY only from a kill, REDUNDANT only from a
 * model that says Never and names what covers it, a CONTRADICTION where
 * the evidence disagrees, and NOT DECIDED for anything short of these.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "herd7.h"
#include "tmpdir.h"
#include "util.h"
#include "subject.h"
#include "verdict.h"

/*
 * A model whose header says @without, herd7 @seen (NULL: herd7 not run,
 * on the uncovered model too, which herd7 otherwise agrees with).
 */
static struct lkmm_barrier model(const char *without, const char *seen,
				 const char *covered_by, const char *uncovered)
{
	return (struct lkmm_barrier){
		.without = { .expected = (char *)without, .seen = (char *)seen },
		.covered_by = (char *)covered_by,
		.uncovered = { .expected = (char *)uncovered,
			       .seen = seen ? (char *)uncovered : NULL },
	};
}

static struct barrier_verdict decide(const struct lkmm_barrier *m,
				     const struct mutant_seen *seen, int n)
{
	struct barrier_verdict v = { .version = "series", .barrier = "flush-b1" };

	verdict_decide(m, seen, n, &v);
	return v;
}

static const struct mutant_seen unobservable[] = {
	{ "arm64", "mutant-flush-b1", CELL_UNOBSERVABLE, "MP+wmb: 0 per million", NULL },
	{ "riscv64", "mutant-flush-b1", CELL_UNOBSERVABLE, "MP+wmb: 0 per million", NULL },
};

static void a_kill_makes_a_needed_barrier_necessary(void **state)
{
	struct lkmm_barrier m = model("Sometimes", "Sometimes", NULL, NULL);
	struct mutant_seen seen[] = {
		unobservable[0],
		{ "ppc64le", "mutant-flush-b1", CELL_KILLED,
		  "visibility: work 2 data[0] stale", "seconds=3 flushes=1200" },
	};
	struct barrier_verdict v = decide(&m, seen, 2);

	(void)state;
	assert_int_equal(v.kind, VERDICT_NECESSARY);
	/* Where, which check, how fast. */
	assert_non_null(strstr(v.evidence, "ppc64le"));
	assert_non_null(strstr(v.evidence, "visibility"));
	assert_non_null(strstr(v.evidence, "seconds=3 flushes=1200"));
	assert_string_equal(v.model, "Sometimes (herd7)");
	barrier_verdict_free(&v);
}

/*
 * A revision without the barrier: every mutant of it ABSENT.  A barrier
 * the model allowed it to lose reads ABSENT, saying why; one it needed is
 * NOT DECIDED; one mutant that ran and the rest decide.
 */
static void a_barrier_the_revision_lacks_is_absent(void **state)
{
	struct lkmm_barrier m = model("Never", "Never", NULL, NULL);
	struct lkmm_barrier needed = model("Sometimes", "Sometimes", NULL, NULL);
	struct mutant_seen seen[] = {
		{ "arm64", "mutant-flush-b1", CELL_ABSENT,
		  "not applicable to this revision: no barrier tagged flush-b1 in the series' lib/kw_worker.c", NULL },
		{ "riscv64", "mutant-emu-flush-b1", CELL_ABSENT,
		  "not applicable to this revision: no barrier tagged flush-b1 in the series' lib/kw_worker.c", NULL },
		unobservable[0],
	};
	struct barrier_verdict v = decide(&m, seen, 2);

	(void)state;
	assert_int_equal(v.kind, VERDICT_ABSENT);
	assert_string_equal(v.evidence, "absent in this version: not applicable to this revision: no barrier tagged flush-b1 in the series' lib/kw_worker.c");
	barrier_verdict_free(&v);
	v = decide(&needed, seen, 2);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_non_null(strstr(v.evidence, "absent in this version, though the model of the code before needed it (Sometimes without it)"));
	barrier_verdict_free(&v);
	v = decide(&needed, seen, 3);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	barrier_verdict_free(&v);
}

static void unobserved_is_not_decided_never_green(void **state)
{
	struct lkmm_barrier m = model("Sometimes", NULL, NULL, NULL);
	struct barrier_verdict v = decide(&m, unobservable, 2);

	(void)state;
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_non_null(strstr(v.evidence, "arm64 UNOBSERVABLE"));
	assert_non_null(strstr(v.model, "expected, unchecked"));
	barrier_verdict_free(&v);

	v = decide(&m, NULL, 0);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_non_null(strstr(v.evidence, "no mutant of the series"));
	barrier_verdict_free(&v);

	/* A header herd7 did not check is a claim: REDUNDANT waits for it. */
	m = model("Never", NULL, "a lock", "Sometimes");
	v = decide(&m, unobservable, 2);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_non_null(strstr(v.evidence, "fix: build herd7"));
	barrier_verdict_free(&v);
}

/* A kill decides even where herd7 did not run. */
static void a_kill_needs_no_herd7(void **state)
{
	struct lkmm_barrier m = model("Never", NULL, "a lock", "Sometimes");
	struct mutant_seen killed = { "arm64", "mutant-flush-b1", CELL_KILLED,
				      "visibility: stale", NULL };
	struct barrier_verdict v = decide(&m, &killed, 1);

	(void)state;
	assert_int_equal(v.kind, VERDICT_NECESSARY);
	assert_non_null(strstr(v.evidence, "visibility: stale"));
	barrier_verdict_free(&v);
}

static void survived_where_needed_is_a_contradiction(void **state)
{
	struct lkmm_barrier m = model("Sometimes", "Sometimes", NULL, NULL);
	struct mutant_seen seen[] = {
		{ "arm64", "mutant-flush-b1", CELL_SURVIVED, "MP+wmb: 80 per million", NULL },
	};
	struct barrier_verdict v = decide(&m, seen, 1);

	(void)state;
	assert_int_equal(v.kind, VERDICT_CONTRADICTION);
	barrier_verdict_free(&v);
}

static void covered_and_unkilled_is_redundant(void **state)
{
	struct lkmm_barrier m = model("Never", "Never", "patch 5's worker->lock handoff",
				      "Sometimes");
	struct barrier_verdict v = decide(&m, unobservable, 2);

	(void)state;
	assert_int_equal(v.kind, VERDICT_REDUNDANT);
	assert_non_null(strstr(v.evidence, "covered by patch 5's worker->lock handoff"));
	barrier_verdict_free(&v);
}

static void redundant_needs_its_cover_named_and_real(void **state)
{
	struct lkmm_barrier bare = model("Never", "Never", NULL, NULL);
	struct lkmm_barrier still = model("Never", "Never", "a lock", "Never");
	struct barrier_verdict v = decide(&bare, NULL, 0);

	(void)state;
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	barrier_verdict_free(&v);
	/* The cover removed, and still Never: it is not what covers it. */
	v = decide(&still, NULL, 0);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_non_null(strstr(v.evidence, "not what covers"));
	barrier_verdict_free(&v);
}

static void killed_though_never_is_a_contradiction(void **state)
{
	struct lkmm_barrier m = model("Never", "Never", "a lock", "Sometimes");
	struct mutant_seen seen[] = {
		{ "arm64", "mutant-flush-b1", CELL_KILLED, "visibility: stale", NULL },
	};
	struct barrier_verdict v = decide(&m, seen, 1);

	(void)state;
	assert_int_equal(v.kind, VERDICT_CONTRADICTION);
	barrier_verdict_free(&v);
}

static void herd7_against_the_header_is_a_contradiction(void **state)
{
	struct lkmm_barrier m = model("Never", "Sometimes", "a lock", "Sometimes");
	struct barrier_verdict v = decide(&m, NULL, 0);

	(void)state;
	assert_int_equal(v.kind, VERDICT_CONTRADICTION);
	assert_non_null(strstr(v.model, "herd7 says Sometimes"));
	barrier_verdict_free(&v);
}

static void merged_shards_keep_the_stronger_evidence(void **state)
{
	(void)state;
	assert_int_equal(verdict_merge(VERDICT_NOT_DECIDED, VERDICT_NECESSARY),
			 VERDICT_NECESSARY);
	assert_int_equal(verdict_merge(VERDICT_REDUNDANT, VERDICT_NOT_DECIDED),
			 VERDICT_REDUNDANT);
	assert_int_equal(verdict_merge(VERDICT_NECESSARY, VERDICT_REDUNDANT),
			 VERDICT_CONTRADICTION);
	assert_int_equal(verdict_merge(VERDICT_CONTRADICTION, VERDICT_NECESSARY),
			 VERDICT_CONTRADICTION);
	assert_int_equal(verdict_kind_from_name("NOT DECIDED"), VERDICT_NOT_DECIDED);
	assert_int_equal(verdict_kind_from_name("FINE"), -1);
}

static void uncover_drops_only_the_lines_naming_the_tag(void **state)
{
	const char *text = "a;\nb; /* covers x-b0 y-b1: the lock */\nc; /* covers y-b1: other */\n";
	char *what, *out = litmus_uncover(text, "x-b0", &what);

	(void)state;
	assert_string_equal(out, "a;\nc; /* covers y-b1: other */\n");
	assert_string_equal(what, "the lock");
	free(out);
	free(what);
	out = litmus_uncover(text, "y-b1", &what);
	assert_string_equal(out, "a;\n");
	free(out);
	free(what);
	assert_null(litmus_uncover(text, "z-b2", &what));
	assert_null(what);
}

/*
 * The repository's own models, with herd7 kept off PATH: every barrier
 * is in both, and their headers give the expected table: the seed needs
 * all but flush-b0, which set_current_state() covers; the series needs
 * worker-b1, and flush-b1 for a work another thread queued.
 */
/* What litmus/expected-verdicts.tsv, the tests' one truth, says of @barrier. */
static const char *expected_without(const char *version, const char *barrier)
{
	static char *truth;
	char *key = xasprintf("\n%s\t%s\t", version, barrier);
	const char *hit;

	if (!truth)
		truth = read_file("litmus/expected-verdicts.tsv", NULL);
	assert_non_null(truth);
	hit = strstr(truth, key);
	assert_non_null(hit);
	hit += strlen(key);
	free(key);
	/* REDUNDANT: the model Never without it; NECESSARY: Sometimes. */
	return !strncmp(hit, "REDUNDANT\t", 10) ? "Never" : "Sometimes";
}

static void the_models_state_the_expected_table(void **state)
{
	char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;

	(void)state;
	assert_int_equal(setup(NULL), 0);
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(kwm_nr_subject_versions, 2);
	for (int v = 0; v < kwm_nr_subject_versions; v++) {
		struct lkmm_model m;

		lkmm_model_judge(getenv("PWD"), "/nonexistent", dir,
				 kwm_subject_versions[v], &m);
		assert_null(m.error);
		for (int i = 0; i < m.nr_callers; i++) {
			assert_string_equal(m.caller[i].full.expected, "Never");
			assert_non_null(strstr(m.caller[i].full.unchecked,
					       "herd7 not installed"));
			assert_null(strstr(m.caller[i].callers, "no \"Callers:\""));
		}
		for (int b = 0; b < kwm_nr_barrier_tags; b++) {
			const struct lkmm_barrier *lb = m.barriers[b];

			assert_null(lb->error);
			const char *want = expected_without(kwm_subject_versions[v],
							    kwm_barrier_tags[b]);

			assert_string_equal(lb->without.expected, want);
			if (!strcmp(want, "Never")) {
				assert_non_null(lb->covered_by);
				assert_string_equal(lb->uncovered.expected, "Sometimes");
			}
		}
		lkmm_model_free(&m);
	}
	if (path)
		setenv("PATH", path, 1);
	free(path);
	teardown(NULL);
}

/*
 * A second caller's model that needs a barrier the first one's covers:
 * the barrier is judged by the second, and every caller is named.
 */
static void the_caller_needing_a_barrier_decides(void **state)
{
	char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	char *repo, *own, *other, *text, *made_up;
	const struct lkmm_barrier *lb;
	const char *at;
	struct lkmm_model m;

	(void)state;
	/* A folder of its own: the last test's is gone. */
	strcpy(dir, "/tmp/kwm-test-XXXXXX");
	assert_int_equal(setup(NULL), 0);
	setenv("PATH", "/nonexistent", 1);
	repo = xasprintf("%s/repo", dir);
	own = xasprintf("%s/litmus/path-seed.litmus", repo);
	other = xasprintf("%s/litmus/path-seed+made-up.litmus", repo);
	text = xasprintf("%s/litmus", repo);
	assert_int_equal(mkdir_p(text), 0);
	free(text);
	assert_int_equal(copy_file_atomic("litmus/path-seed.litmus", own), 0);
	text = read_file(own, NULL);
	at = strstr(text, " * Without flush-b0: Never");
	assert_non_null(at);
	memcpy(strstr(text, " * Callers: ") + 12, "MADE-UP", 7);
	made_up = xasprintf("%.*s * Without flush-b0: Sometimes%s", (int)(at - text),
			    text, at + strlen(" * Without flush-b0: Never"));
	assert_int_equal(write_file_atomic(other, made_up, strlen(made_up)), 0);

	lkmm_model_judge(repo, "/nonexistent", dir, "seed", &m);
	assert_int_equal(m.nr_callers, 2);
	lb = lkmm_find(&m, "seed", "flush-b0");
	assert_string_equal(lb->without.expected, "Sometimes");
	assert_string_equal(lb->without.name, "path-seed+made-up without flush-b0");
	assert_non_null(strstr(lb->callers, "(1) a flush by the thread"));
	assert_non_null(strstr(lb->callers, "(2) MADE-UP"));
	/* Where both say Never, the first caller's model stands. */
	lb = lkmm_find(&m, "seed", "worker-b1");
	assert_string_equal(lb->without.name, "path-seed without worker-b1");
	lkmm_model_free(&m);

	free(made_up);
	free(text);
	free(other);
	free(own);
	free(repo);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	teardown(NULL);
}

/*
 * The seed's verdict on flush-b0, judged from @repo against @tree's
 * model, for the seed's code @code (NULL: not checked against code).
 */
static struct barrier_verdict seed_flush_b0_of(const char *repo, const char *tree,
					       const char *code, bool check)
{
	struct barrier_verdict v = { .version = "seed", .barrier = "flush-b0" };
	struct lkmm_model m;

	lkmm_model_judge(repo, tree, dir, "seed", &m);
	assert_null(m.error);
	if (check)
		lkmm_model_check_code(&m, code, "the seed's code was not built here");
	verdict_decide(m.barriers[2], NULL, 0, &v);
	lkmm_model_free(&m);
	return v;
}

static struct barrier_verdict seed_flush_b0(const char *repo, const char *tree)
{
	return seed_flush_b0_of(repo, tree, NULL, false);
}

/* The seed's lib/kw_worker.c: patch 1's new file, as the seed has it. */
static char *seed_code(void)
{
	char *patch = read_file("patch/0001-kthread-implement-kthread_worker-2010-design-as-kw_w.patch", NULL);
	char *code = xstrdup("");
	const char *p;

	assert_non_null(patch);
	p = strstr(patch, "+++ b/lib/kw_worker.c\n");
	assert_non_null(p);
	for (p = strchr(p, '\n') + 1; *p && strncmp(p, "diff --git", 10); p = strchr(p, '\n') + 1) {
		if (*p == '+')
			xappendf(&code, "%.*s\n", (int)strcspn(p + 1, "\n"), p + 1);
		if (!strchr(p, '\n'))
			break;
	}
	free(patch);
	return code;
}

static void record_outcome(struct herd7_records *r, const struct lkmm_outcome *o,
			   const char *lkmm)
{
	struct herd7_record rec = {
		.lkmm = (char *)lkmm, .herd7 = "7.57", .verdict = o->expected,
		.states = "0:r0=0;", .date = "2026-12-04", .name = o->name,
		.command = "herd7 -conf linux-kernel.cfg TEST",
	};

	memcpy(rec.test, o->test, sizeof(rec.test));
	herd7_records_put(r, &rec);
}

/*
 * Without herd7, a record of herd7's makes the seed's flush-b0 REDUNDANT
 * for exactly the test and model it names: one byte more in either, and
 * it is NOT DECIDED.
 */
static void a_record_counts_for_its_exact_model_only(void **state)
{
	char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	char *repo, *tree, *model_dir, *cat, *litmus, *records, *text, *lkmm, *code, *edit;
	struct herd7_records recs = { 0 };
	struct barrier_verdict v;
	struct lkmm_model m;

	(void)state;
	/* A folder of its own: the last test's is gone. */
	strcpy(dir, "/tmp/kwm-test-XXXXXX");
	assert_int_equal(setup(NULL), 0);
	setenv("PATH", "/nonexistent", 1);
	repo = xasprintf("%s/repo", dir);
	tree = xasprintf("%s/tree", dir);
	model_dir = xasprintf("%s/tools/memory-model", tree);
	cat = xasprintf("%s/linux-kernel.cat", model_dir);
	litmus = xasprintf("%s/litmus", repo);
	records = xasprintf("%s/%s", repo, HERD7_RECORDS);
	assert_int_equal(mkdir_p(model_dir), 0);
	assert_int_equal(mkdir_p(litmus), 0);
	assert_int_equal(write_file_atomic(cat, "\"the model\"\n", 12), 0);
	free(litmus);
	litmus = xasprintf("%s/litmus/path-seed.litmus", repo);
	assert_int_equal(copy_file_atomic("litmus/path-seed.litmus", litmus), 0);

	/* What herd7 would say, as the header does, recorded for this model. */
	lkmm = herd7_model_digest(tree);
	assert_non_null(strstr(lkmm, "linux-kernel.cat="));
	lkmm_model_judge(repo, tree, dir, "seed", &m);
	record_outcome(&recs, &m.barriers[2]->without, lkmm);
	record_outcome(&recs, &m.barriers[2]->uncovered, lkmm);
	lkmm_model_free(&m);
	assert_int_equal(herd7_records_write(records, &recs), 0);

	v = seed_flush_b0(repo, tree);
	assert_int_equal(v.kind, VERDICT_REDUNDANT);
	assert_string_equal(v.model, "Never (herd7 7.57, recorded 2026-12-04 for this exact model; not re-run here) [path-seed without flush-b0]");
	assert_non_null(strstr(v.evidence, "for every caller modelled: (1) a flush by the thread that queued"));
	barrier_verdict_free(&v);

	/*
	 * The model holds for the code its Code: line names: the seed's as
	 * patch 1 has it.  One line of flush_kw_work() edited, and the
	 * verdict is NOT DECIDED, naming the function; so it is with no code.
	 */
	code = seed_code();
	v = seed_flush_b0_of(repo, tree, code, true);
	assert_int_equal(v.kind, VERDICT_REDUNDANT);
	barrier_verdict_free(&v);
	edit = strstr(strstr(code, "void flush_kw_work("), "\n\tatomic_inc(");
	assert_non_null(edit);
	/* atomic_inc(&work->flushing) becomes atomic_dec(). */
	memcpy(edit + 9, "dec", 3);
	v = seed_flush_b0_of(repo, tree, code, true);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_non_null(strstr(v.evidence, "describes flush_kw_work() as it was (dd84e1654605); the code changed"));
	barrier_verdict_free(&v);
	v = seed_flush_b0_of(repo, tree, NULL, true);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_string_equal(v.evidence, "the seed's code was not built here");
	barrier_verdict_free(&v);
	free(code);

	/* One byte of the test edited. */
	text = read_file(litmus, NULL);
	text[strlen(text) - 2] ^= 1;
	assert_int_equal(write_file_atomic(litmus, text, strlen(text)), 0);
	v = seed_flush_b0(repo, tree);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	assert_non_null(strstr(v.evidence, "herd7"));
	barrier_verdict_free(&v);
	text[strlen(text) - 2] ^= 1;
	assert_int_equal(write_file_atomic(litmus, text, strlen(text)), 0);
	free(text);

	/* One byte of the model's files edited. */
	assert_int_equal(write_file_atomic(cat, "\"the modem\"\n", 12), 0);
	v = seed_flush_b0(repo, tree);
	assert_int_equal(v.kind, VERDICT_NOT_DECIDED);
	barrier_verdict_free(&v);

	/* A malformed record file is said so, never read as a verdict. */
	assert_int_equal(write_file_atomic(cat, "\"the model\"\n", 12), 0);
	assert_int_equal(write_file_atomic(records, "not\ta record\n", 13), 0);
	lkmm_model_judge(repo, tree, dir, "seed", &m);
	assert_null(m.barriers[2]->without.seen);
	assert_non_null(strstr(m.barriers[2]->without.unchecked, "is not a record"));
	lkmm_model_free(&m);

	herd7_records_free(&recs);
	free(lkmm);
	free(records);
	free(litmus);
	free(cat);
	free(model_dir);
	free(tree);
	free(repo);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	teardown(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_kill_makes_a_needed_barrier_necessary),
		cmocka_unit_test(unobserved_is_not_decided_never_green),
		cmocka_unit_test(a_barrier_the_revision_lacks_is_absent),
		cmocka_unit_test(survived_where_needed_is_a_contradiction),
		cmocka_unit_test(covered_and_unkilled_is_redundant),
		cmocka_unit_test(redundant_needs_its_cover_named_and_real),
		cmocka_unit_test(a_kill_needs_no_herd7),
		cmocka_unit_test(killed_though_never_is_a_contradiction),
		cmocka_unit_test(herd7_against_the_header_is_a_contradiction),
		cmocka_unit_test(merged_shards_keep_the_stronger_evidence),
		cmocka_unit_test(uncover_drops_only_the_lines_naming_the_tag),
		cmocka_unit_test(the_models_state_the_expected_table),
		cmocka_unit_test(the_caller_needing_a_barrier_decides),
		cmocka_unit_test(a_record_counts_for_its_exact_model_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
