/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statuses a cell can have, and everything each one means to every
 * reader, in one table (status.c), the way kselftest.h spells KSFT_*:
 * whether the run stays green, JUnit's and KCIDB's word for it, its shade
 * on a terminal and in HTML, and what it says.  Everything else looks a
 * status up here instead of listing statuses.
 */
#ifndef KWM_STATUS_H
#define KWM_STATUS_H

#include <stdbool.h>

/* In increasing order of severity: a cell shows the worst that happened. */
enum cell_status {
	CELL_PASS,
	CELL_KILLED,
	CELL_UNOBSERVABLE,
	CELL_XFAIL,
	CELL_COVERED,
	CELL_ABSENT,
	CELL_UNCHECKED,
	CELL_SKIP,
	CELL_WARN,
	CELL_FAIL,
	CELL_CRASHED,
	CELL_TIMEOUT,
	CELL_ERROR,
	CELL_SURVIVED,
	CELL_XPASS,
	CELL_UNDECIDED,
	CELL_NR_STATUSES
};

/* How a status looks: what was shown, what could not be, what is wrong. */
enum status_shade {
	SHADE_SHOWN,		/* green */
	SHADE_NOT_SHOWN,	/* grey: nothing here could show it */
	SHADE_UNSURE,		/* yellow: ran, but not enough to judge */
	SHADE_WRONG,		/* red */
	SHADE_NR
};

struct cell_status_info {
	const char *name;	/* "KILLED": in matrix.json and every report */
	bool green;		/* the run stays green */
	const char *junit;	/* "pass", "skipped", "error" or "failure" */
	const char *kcidb;	/* KCIDB's status enum */
	enum status_shade shade;
	const char *meaning;	/* one line, for the README and --help */
};

extern const struct cell_status_info kwm_statuses[CELL_NR_STATUSES];

/* Each shade's colour on a terminal (SGR) and in HTML (CSS declarations). */
extern const char *const kwm_shade_sgr[SHADE_NR];
extern const char *const kwm_shade_css[SHADE_NR];

static inline const struct cell_status_info *cell_status_info(enum cell_status s)
{
	return &kwm_statuses[s];
}

static inline bool cell_status_ok(enum cell_status s)
{
	return kwm_statuses[s].green;
}

static inline const char *cell_status_name(enum cell_status s)
{
	return kwm_statuses[s].name;
}

int cell_status_from_name(const char *name);	/* -1 if unknown */
/* The row of status @name, or NULL if there is none. */
const struct cell_status_info *cell_status_by_name(const char *name);

#endif
