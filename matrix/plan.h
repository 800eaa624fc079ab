/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Planning a run: which columns (target x kernel x version) it has and
 * which suites each runs, how long each guest may take, and the kernel
 * command line that tells the guest's init what to run
 * (include/kwm_protocol.h).  No I/O: the tests call it directly.
 */
#ifndef KWM_PLAN_H
#define KWM_PLAN_H

#include "build.h"
#include "options.h"
#include "run.h"
#include "series.h"
#include "tree.h"

struct suite;

/* One kernel version: its source tree, its series, and how to build on it. */
struct version {
	struct source src;
	struct series series;
	struct build_env env;
	char *checkpatch_log;	/* results/<run>/checkpatch@6.12.log */
};

/*
 * The columns of the matrix: each target's kernels on each version, each
 * with the asked suites that run on it.  A kernel with none is left out.
 * -1 after one line if no column is left.
 */
int plan_columns(const struct options *o, const struct version *versions,
		 struct run *run);

/*
 * Each column's guest plan, before any guest boots: the suites it runs
 * in the guest, its command line, its run list and its time bound (the
 * functions below; plan_before_boot() remakes the last two).  After the models: a mutant they show covered
 * is not hunted.
 */
void plan_guests(const struct options *o, struct run *run);

/*
 * Column @i's plan made again as its guest is about to boot, after the
 * columns before it that booted: a test of the emulated machine (its own,
 * or a covered barrier's mutant on it), which one of them hunted -d, runs
 * shorter here (plan_repeats_hunt()); a covered barrier's emulated
 * mutant that one of them sampled does not run here (plan_holds_back()).
 */
void plan_before_boot(const struct options *o, struct run *run, int i);

/* Whether column @tr runs @s briefly, another column having hunted it -d. */
bool plan_repeats_hunt(const struct target_result *tr, const struct suite *s);
/* Whether column @tr samples @s briefly: a covered barrier's emulated mutant. */
bool plan_samples_covered(const struct target_result *tr, const struct suite *s);
/*
 * Whether column @tr's guest leaves @s out: a covered barrier's emulated
 * mutant that an earlier column of the same version sampled.
 */
bool plan_holds_back(const struct target_result *tr, const struct suite *s);

/*
 * Why suite @s cannot run on this revision of the subject (one of its
 * modules is a variant the build found not applicable), or NULL.
 */
const char *plan_not_applicable(const struct target_result *tr, const struct suite *s);

/*
 * The guest's kernel command line for column @tr (free it): the console,
 * and what the kernel itself reads.  What the init reads goes in the
 * initrd (KWM_RUN_FILE: plan_guest_args(), then plan_run()); the kernel
 * has no /proc to show the init its command line (common.config).
 */
char *plan_kernel_append(const struct options *o, const struct target_result *tr);

/* "kwm.catch=... MODULE.PARAM=VALUE ...": the init's arguments, for KWM_RUN_FILE. */
char *plan_guest_args(const struct options *o, const struct target_result *tr);

/* "kwm.run=...": the suites column @tr's guest runs, for KWM_RUN_FILE. */
char *plan_run(const struct options *o, const struct target_result *tr);

/* Seconds column @tr's guest may take: booting plus every suite's bound. */
int plan_guest_bound(const struct options *o, const struct target_result *tr);

/*
 * How builds and guests share @ncpu host CPUs: a slot per two (a guest
 * has GUEST_VCPUS), at least one; and where there are not CPUs for a
 * build beside a guest, they take turns (@alternate): on 2 host CPUs a
 * torture beside a build starved to a tenth of its rate and let
 * detector-early-done survive, so each build waits for the guest before
 * it.  Either way a column's guest boots as soon as its kernel is built.
 *
 * @builders: how many of the @nr_columns builds run side by side.  A
 * build from scratch (@nr_cold of them) keeps every CPU busy with its
 * own make -j, so builds then go one at a time.  A warm one (the
 * subject's modules again, W=1, sparse, the test modules) is mostly one
 * make reading kbuild's makefiles, one CPU's work: all of them, up to
 * two per CPU, run at once.  Where they take turns with the guests, the
 * guests then wait for all of them.
 */
struct boot_policy {
	int slots;
	bool alternate;
	int builders;
};

struct boot_policy plan_boot_policy(long ncpu, int nr_columns, int nr_cold);

#endif
