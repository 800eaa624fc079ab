/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One verdict per barrier and version of the subject, from two kinds of
 * evidence: what the oracles did to its mutant (the mutant cells of every
 * column) and what the memory model says of the path without it
 * (lkmm.h).  No I/O: the judge of barriers, as judge.c is of cells.
 */
#ifndef KWM_VERDICT_H
#define KWM_VERDICT_H

#include "lkmm.h"
#include "parse.h"
#include "status.h"

enum verdict_kind {
	VERDICT_NECESSARY,	/* an oracle killed its mutant */
	VERDICT_REDUNDANT,	/* nothing kills it, and the model says Never */
	VERDICT_CONTRADICTION,	/* the model and an oracle disagree: red */
	VERDICT_NOT_DECIDED,	/* the model needs it, and no oracle showed it */
	VERDICT_ABSENT,		/* this revision of the version has no such barrier */
	VERDICT_NR_KINDS
};

/* What a verdict is called and how it reads, as status.h's table for cells. */
struct verdict_kind_info {
	const char *name;
	enum status_shade shade;
	const char *kcidb;	/* red stays red; NOT DECIDED is not a pass */
};

extern const struct verdict_kind_info kwm_verdict_kinds[VERDICT_NR_KINDS];

const char *verdict_kind_name(enum verdict_kind kind);
int verdict_kind_from_name(const char *name);	/* -1 if unknown */

/*
 * Two runs' verdicts on one barrier as one (kwmatrix merge): a kill in
 * either makes it NECESSARY, a contradiction in either stays, and a kill
 * in one beside a REDUNDANT model in the other is a contradiction.
 */
enum verdict_kind verdict_merge(enum verdict_kind a, enum verdict_kind b);

/* What one column's mutant cell of a barrier saw. */
struct mutant_seen {
	const char *column;	/* "arm64+kcsan" */
	const char *suite;	/* "mutant-flush-b0" */
	enum cell_status status;
	const char *reason;	/* the cell's: which check, or why not */
	const char *stats;	/* the torture's "seconds=... flushes=..." */
};

struct barrier_verdict {
	const char *version;	/* kwm_subject_versions[] */
	const char *barrier;	/* kwm_barrier_tags[] */
	enum verdict_kind kind;
	char *model;		/* the model without it, in one line */
	char *evidence;		/* why this verdict, in one line */
};

/* The verdict on one barrier of one version from its model and mutants. */
void verdict_decide(const struct lkmm_barrier *model,
		    const struct mutant_seen *seen, int nr_seen,
		    struct barrier_verdict *out);
void barrier_verdict_free(struct barrier_verdict *v);

#endif
