// SPDX-License-Identifier: GPL-2.0
/*
 * The judge of barriers.  A barrier is NECESSARY only when an oracle
 * killed its mutant, and REDUNDANT only when nothing did and the model of
 * the path as it runs says Never without it, naming what covers it; when
 * the two kinds of evidence disagree it is a CONTRADICTION, and anything
 * short of either is NOT DECIDED, never green by default.
 */
#define _GNU_SOURCE
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

const struct verdict_kind_info kwm_verdict_kinds[VERDICT_NR_KINDS] = {
	[VERDICT_NECESSARY] = { "NECESSARY", SHADE_SHOWN, "PASS" },
	[VERDICT_REDUNDANT] = { "REDUNDANT", SHADE_SHOWN, "PASS" },
	[VERDICT_CONTRADICTION] = { "CONTRADICTION", SHADE_WRONG, "FAIL" },
	[VERDICT_NOT_DECIDED] = { "NOT DECIDED", SHADE_UNSURE, "ERROR" },
	[VERDICT_ABSENT] = { "ABSENT", SHADE_NOT_SHOWN, "SKIP" },
};

const char *verdict_kind_name(enum verdict_kind kind)
{
	return kwm_verdict_kinds[kind].name;
}

int verdict_kind_from_name(const char *name)
{
	for (int k = 0; name && k < VERDICT_NR_KINDS; k++)
		if (!strcmp(kwm_verdict_kinds[k].name, name))
			return k;
	return -1;
}

enum verdict_kind verdict_merge(enum verdict_kind a, enum verdict_kind b)
{
	/* The stronger evidence first; NOT DECIDED is the weakest. */
	static const int strength[VERDICT_NR_KINDS] = {
		[VERDICT_CONTRADICTION] = 3, [VERDICT_NECESSARY] = 2,
		[VERDICT_REDUNDANT] = 1, [VERDICT_NOT_DECIDED] = 0,
		[VERDICT_ABSENT] = 0,
	};

	if ((a == VERDICT_NECESSARY && b == VERDICT_REDUNDANT) ||
	    (a == VERDICT_REDUNDANT && b == VERDICT_NECESSARY))
		return VERDICT_CONTRADICTION;
	return strength[a] >= strength[b] ? a : b;
}

static const struct mutant_seen *first_with(const struct mutant_seen *seen,
					    int n, enum cell_status status)
{
	for (int i = 0; i < n; i++)
		if (seen[i].status == status)
			return &seen[i];
	return NULL;
}

static void decide(struct barrier_verdict *out, enum verdict_kind kind,
		   char *evidence)
{
	out->kind = kind;
	out->evidence = evidence;
}

/* "arm64 (mutant-flush-b0): liveness: ... [seconds=3 flushes=...]" */
static char *cell_evidence(const struct mutant_seen *s)
{
	char *out = xasprintf("%s on %s: %s", s->suite, s->column,
			      s->reason ? s->reason : "no reason given");

	if (s->stats)
		xappendf(&out, " [%s]", s->stats);
	return out;
}

/* Why no oracle showed it: what the mutant's cells were. */
static char *unkilled_evidence(const struct barrier_verdict *v,
			       const struct mutant_seen *seen, int n)
{
	char *out;

	if (!n)
		return xasprintf("no mutant of the %s without %s ran in this run",
				 v->version, v->barrier);
	out = xasprintf("not killed in %d cell%s:", n, n == 1 ? "" : "s");
	for (int i = 0; i < n; i++)
		xappendf(&out, "%s %s %s", i ? "," : "", seen[i].column,
			 cell_status_name(seen[i].status));
	/* Why one was left undecided: a machine that failed its validation, say. */
	for (int i = 0; i < n; i++)
		if (seen[i].status == CELL_UNDECIDED && seen[i].reason) {
			xappendf(&out, " (%s: %s)", seen[i].column, seen[i].reason);
			break;
		}
	return out;
}

static void decide_never(const struct lkmm_barrier *model,
			 const struct mutant_seen *seen, int n,
			 struct barrier_verdict *out)
{
	const struct mutant_seen *killed = first_with(seen, n, CELL_KILLED);
	const char *uncovered = model->uncovered.seen;
	char *why;

	if (killed) {
		why = cell_evidence(killed);
		decide(out, VERDICT_CONTRADICTION,
		       xasprintf("killed although the model says Never: %s; the model misses a reordering, or the oracle is unsound",
				 why));
		free(why);
	} else if (!model->covered_by) {
		decide(out, VERDICT_NOT_DECIDED,
		       xstrdup("the model says Never, but no line of it says what covers the barrier (fix: mark it \"covers <tag>: <primitive>\")"));
	} else if (!uncovered || strcmp(uncovered, "Sometimes")) {
		why = lkmm_outcome_describe(&model->uncovered);
		decide(out, VERDICT_NOT_DECIDED,
		       xasprintf("the model without %s too says %s: it is not what covers the barrier",
				 model->covered_by, why));
		free(why);
	} else {
		why = lkmm_outcome_describe(&model->uncovered);
		decide(out, VERDICT_REDUNDANT,
		       xasprintf("covered by %s (without it too: %s), Never without it for every caller modelled: %s; %s",
				 model->covered_by, why,
				 model->callers ? model->callers : "one model",
				 n ? "no oracle killed the mutant" :
				 "no mutant of it ran here"));
		free(why);
	}
}

static void decide_sometimes(const struct mutant_seen *seen, int n,
			     struct barrier_verdict *out)
{
	const struct mutant_seen *killed = first_with(seen, n, CELL_KILLED);
	const struct mutant_seen *survived = first_with(seen, n, CELL_SURVIVED);
	char *why;

	if (killed) {
		decide(out, VERDICT_NECESSARY, cell_evidence(killed));
	} else if (survived) {
		why = cell_evidence(survived);
		decide(out, VERDICT_CONTRADICTION,
		       xasprintf("the model says Sometimes, and its mutant SURVIVED where its shape was seen: %s", why));
		free(why);
	} else {
		why = unkilled_evidence(out, seen, n);
		decide(out, VERDICT_NOT_DECIDED,
		       xasprintf("the model needs it, and no oracle here showed it: %s", why));
		free(why);
	}
}

/*
 * herd7 did not run here: the header's verdict is what someone once saw,
 * so only a kill decides, and REDUNDANT waits for herd7.
 */
static void decide_unchecked(const struct mutant_seen *seen, int n,
			     struct barrier_verdict *out)
{
	const struct mutant_seen *killed = first_with(seen, n, CELL_KILLED);
	char *why;

	if (killed) {
		decide(out, VERDICT_NECESSARY, cell_evidence(killed));
		return;
	}
	why = unkilled_evidence(out, seen, n);
	decide(out, VERDICT_NOT_DECIDED,
	       xasprintf("herd7 did not check the model here; %s (fix: build herd7 from herdtools7 and put it on PATH)",
			 why));
	free(why);
}

/*
 * The model does not describe this code: a kill still shows the barrier
 * needed (an execution the code has), but nothing the model says counts.
 */
static void decide_stale(const struct lkmm_barrier *model,
			 const struct mutant_seen *seen, int n,
			 struct barrier_verdict *out)
{
	const struct mutant_seen *killed = first_with(seen, n, CELL_KILLED);

	if (killed)
		decide(out, VERDICT_NECESSARY, cell_evidence(killed));
	else
		decide(out, VERDICT_NOT_DECIDED, xstrdup(model->stale));
}

/* Every mutant of it ABSENT: the version, as this revision has it, has no such barrier. */
static const struct mutant_seen *absent(const struct mutant_seen *seen, int n)
{
	for (int i = 0; i < n; i++)
		if (seen[i].status != CELL_ABSENT)
			return NULL;
	return n ? &seen[0] : NULL;
}

void verdict_decide(const struct lkmm_barrier *model,
		    const struct mutant_seen *seen, int nr_seen,
		    struct barrier_verdict *out)
{
	const char *without = lkmm_outcome_verdict(&model->without);
	const struct mutant_seen *gone = absent(seen, nr_seen);

	/*
	 * Absent: a deletion the model allowed (Never without it) reads so;
	 * one it needed is undecided until the revision's own tests and a
	 * model of its code say the flush still holds.
	 */
	if (gone) {
		out->model = lkmm_outcome_describe(&model->without);
		if (without && !strcmp(without, "Never"))
			decide(out, VERDICT_ABSENT, xasprintf("absent in this version: %s",
							      gone->reason ? gone->reason : "its mutants are not applicable"));
		else
			decide(out, VERDICT_NOT_DECIDED,
			       xasprintf("absent in this version, though the model of the code before needed it (%s without it): only the revision's own tortures, and a model of its code, can say the flush still holds; %s",
					 without ? without : "no verdict", gone->reason ? gone->reason : ""));
		return;
	}

	out->model = model->error ? xstrdup(model->error) :
		     model->stale ? xstrdup(model->stale) :
		     lkmm_outcome_describe(&model->without);
	/* Which caller's model decides, where a version has several. */
	if (!model->error && !model->stale && model->without.name)
		xappendf(&out->model, " [%s]", model->without.name);
	if (model->error)
		decide(out, VERDICT_NOT_DECIDED, xstrdup(model->error));
	else if (model->stale)
		decide_stale(model, seen, nr_seen, out);
	else if (model->without.seen && model->without.expected &&
		 strcmp(model->without.seen, model->without.expected))
		decide(out, VERDICT_CONTRADICTION,
		       xasprintf("herd7 says %s and the model's header %s (fix: the header, or the model)",
				 model->without.seen, model->without.expected));
	else if (without && !model->without.seen)
		decide_unchecked(seen, nr_seen, out);
	else if (without && !strcmp(without, "Never"))
		decide_never(model, seen, nr_seen, out);
	else if (without && !strcmp(without, "Sometimes"))
		decide_sometimes(seen, nr_seen, out);
	else
		decide(out, VERDICT_NOT_DECIDED,
		       xasprintf("the model has no \"Without %s:\" verdict", out->barrier));
}

void barrier_verdict_free(struct barrier_verdict *v)
{
	free(v->model);
	free(v->evidence);
}
