/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Linux-kernel memory model's verdict on each barrier of each version
 * of the subject.  litmus/path-<version>.litmus and each
 * litmus/path-<version>+<caller>.litmus model flush_kw_work() and
 * kw_worker_fn() as they run for one kind of caller (the flusher queued
 * the work; another thread queued it, ...), with every primitive on the
 * path that implies ordering.  Each header states the callers it covers
 * ("Callers: ..."), the outcome expected without each barrier ("Without
 * flush-b0: Never") and, for a barrier that something else covers,
 * without the lines marked "covers <tag>: <primitive>" too ("Uncovered
 * flush-b0: Sometimes").  herd7, when installed, checks every one of them
 * against the tree's tools/memory-model.  A barrier's verdict is that of
 * the caller that needs it most: REDUNDANT only where every caller's
 * model is Never without it.
 */
#ifndef KWM_LKMM_H
#define KWM_LKMM_H

#include <stdbool.h>

#include "hash.h"
#include "subject.h"

/* One litmus test, as its header says and as herd7 saw it. */
struct lkmm_outcome {
	char *name;		/* "path-seed without flush-b0" */
	char test[KWM_HASH_HEX];	/* sha256 of the test's text */
	char *expected;		/* "Never", "Sometimes", or NULL: no such line */
	char *seen;		/* herd7's verdict, or NULL: not checked */
	char *states;		/* the states herd7 listed, with seen */
	char *herd7;		/* the herd7 that said it, with seen */
	char *from_record;	/* "herd7 7.57, recorded <date> ...": herd7 not run here */
	bool recorded;		/* a record of herd7's holds this test and model */
	char *record_disagrees;	/* herd7 ran and its record says otherwise */
	char *unchecked;	/* why herd7 did not check it, or NULL */
};

/* One barrier of one version, in the memory model. */
struct lkmm_barrier {
	const char *callers;		/* every caller the version's models cover */
	char *error;			/* the barrier is not in the model, or NULL */
	struct lkmm_outcome without;	/* the barrier deleted */
	char *covered_by;		/* the "covers <tag>:" primitive, or NULL */
	struct lkmm_outcome uncovered;	/* and the covering lines deleted */
	/*
	 * Why the model does not describe the version's code as it is (a
	 * function its "Code:" line names changed, or no code to check it
	 * against), or NULL: then no verdict rests on the model.
	 */
	char *stale;
};

/* One caller's model: whole, and without each of kwm_barrier_tags. */
struct lkmm_caller {
	char *path;			/* litmus/path-<version>[+<caller>].litmus */
	char *callers;			/* its header's "Callers:" text */
	struct lkmm_outcome full;
	struct lkmm_barrier *barriers;
};

/* One version's models, one per kind of caller. */
struct lkmm_model {
	const char *version;
	char *error;			/* none can be read, or NULL */
	char *callers;			/* each caller's "Callers:", joined */
	int nr_callers;
	struct lkmm_caller *caller;
	/* Per barrier, the caller's model that decides: the one needing it most. */
	const struct lkmm_barrier **barriers;
};

/* The sha256 of a test's text, as herd7's records name it. */
void lkmm_test_digest(const char *text, char out[KWM_HASH_HEX]);

/* The verdict that counts: herd7's where it ran, else the header's. */
const char *lkmm_outcome_verdict(const struct lkmm_outcome *o);

/*
 * "Never (herd7)", "Sometimes (expected, unchecked: herd7 not installed)"
 * or "herd7 says Never, the header Sometimes": one line (free it).
 */
char *lkmm_outcome_describe(const struct lkmm_outcome *o);

/*
 * @text without the lines whose "covers" comment names @tag, or NULL if
 * there are none; @what gets the primitive the comment names.
 */
char *litmus_uncover(const char *text, const char *tag, char **what);

/*
 * The memory model's verdicts on @version and each of its barriers, for
 * each of its callers' models: herd7's where it is installed (kept in
 * @cache/lkmm by the test's text), else its records in @repo's
 * HERD7_RECORDS for exactly the same test and model files.
 */
void lkmm_model_judge(const char *repo, const char *tree, const char *cache,
		      const char *version, struct lkmm_model *out);
void lkmm_model_free(struct lkmm_model *m);

/*
 * Each caller's model of @m holds for the version's code @code (its
 * subject file's text) only if every function its "Code:" line names
 * has there the digest the line gives (code.h); else, or with no @code
 * (@no_code says why), every barrier of @m is ->stale.
 */
void lkmm_model_check_code(struct lkmm_model *m, const char *code,
			   const char *no_code);

/* Barrier @tag of @version among kwm_subject_versions' @models, or NULL. */
const struct lkmm_barrier *lkmm_find(const struct lkmm_model *models,
				     const char *version, const char *tag);

/*
 * Whether the model shows @b covered: herd7 says Never without it, and
 * Sometimes without the primitive its "covers" lines name as well.
 */
bool lkmm_barrier_covered(const struct lkmm_barrier *b);

/* Whether the model said so (or claimed it) before its code changed (->stale). */
bool lkmm_barrier_covered_as_was(const struct lkmm_barrier *b);

/*
 * Whether the model's header says so, herd7 not run here (or agreeing):
 * a claim someone once checked, never evidence of its own.
 */
bool lkmm_barrier_claims_cover(const struct lkmm_barrier *b);

#endif
