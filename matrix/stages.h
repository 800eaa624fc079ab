/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stages of kwmatrix run, as kunit_tool's run_tests() chains config,
 * build, exec and parse: main.c's cmd_run() lists them, each one
 * function over a struct run_state.  stages.c: plan, open, sources,
 * judge, report; pipeline.c: build and boot.
 */
#ifndef KWM_STAGES_H
#define KWM_STAGES_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "boot.h"
#include "config.h"
#include "options.h"
#include "collect.h"
#include "judge.h"
#include "report.h"
#include "tree.h"

#define EXIT_CELLS_FAILED	1
#define EXIT_BAD_INPUT		2
/* Interrupted: 128 + the signal, as a shell reports it (130 for Ctrl-C). */
#define EXIT_SIGNALLED		128


/* The signal that asked the run to stop, or 0 (stages_on_signal()). */
extern volatile sig_atomic_t stop_requested;
/* SIGINT and SIGTERM: stop the run, and pass the signal on to the builds. */
void stages_on_signal(int sig);

/* What one run holds, handed from stage to stage. */
struct run_state {
	struct options *o;
	struct run run;
	struct version *versions;
	struct fragment_set *frags;	/* one per column */
	struct guest *guests;
	int nr_guests;
	int lock_fd;
	double started;
	atomic_bool *built;		/* each column's build has ended */
	atomic_int next_column;		/* the next column a builder takes */
	atomic_int building;		/* builders still at work */
	pthread_t *builders;
	int nr_builders;		/* threads started */
	/*
	 * Where the host has no CPUs for a build beside a guest, they take
	 * turns: each column's guest runs as soon as its kernel is built,
	 * and the next build waits for it (@booted: the columns whose
	 * guests are done).  The first answer comes after one build and one
	 * guest, not after every build.  Warm builds side by side
	 * (plan_boot_policy()) all end before the first guest boots.
	 */
	bool alternate;
	atomic_int booted;
	bool *shown;			/* the column's cells printed early */
	int *said;			/* each verdict's kind printed early, or -1 */
	char *setup_log, *ccache_dir;
};

/* Tools, sources and columns, each build's key: nothing written yet. */
int stage_plan(struct run_state *st);
/* The cache's lock and the results folder; the live progress lines. */
int stage_open(struct run_state *st);
/* Each version's tree unpacked and patched, checkpatch run once on it. */
int stage_sources(struct run_state *st);
/*
 * The memory model's verdicts (herd7, or its records), then each guest's
 * plan, once: its suites, command line and time bound.
 */
int stage_plan_guests(struct run_state *st);
/* Every column built, and booted as soon as it is (pipeline.c). */
void stage_build_and_boot(struct run_state *st);
/* The rest of the columns collected and judged, and the barriers. */
void stage_judge(struct run_state *st);
/* matrix.json and what is made from it, then the table; the exit status. */
int stage_report(struct run_state *st);
void run_state_free(struct run_state *st);

#endif
