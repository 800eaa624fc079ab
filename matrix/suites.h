/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suites a guest can run: which modules its init loads, in order
 * (paths under the initramfs's /lib/kw, without .ko), and how long the
 * suite may take on top of booting.  Module parameters are the guest's,
 * not the suite's: suites with different @params never share a kernel.
 * A detector of an oracle is the exception: its duration is its own.
 */
#ifndef KWM_SUITES_H
#define KWM_SUITES_H

#include <stdbool.h>

/* What a suite is, and so how its cell is judged (judge.c's suite_ops). */
enum suite_kind {
	SUITE_KTAP,		/* PASS when every KTAP case passes */
	SUITE_FINDING,		/* a known finding: @must_fire failing is XFAIL */
	SUITE_MUTANT,		/* a barrier removed: KILLED, or read beside calibration */
	SUITE_DETECTOR,		/* a planted break: @must_fire (check or oracle) KILLS it */
	/* Judged at build time, not in the guest: */
	SUITE_BUILD,		/* the kernel and the series' modules, W=1 */
	SUITE_SPARSE,		/* sparse over the series' C files */
	SUITE_CHECKPATCH,	/* checkpatch --strict on the series */
	SUITE_NR_KINDS
};

struct suite {
	const char *name;
	enum suite_kind kind;
	const char *modules;		/* "a+b+c" (KWM_RUN_MODULES_SEP) */
	int seconds;			/* fixed part of its time bound */
	const char *duration_module;	/* gets MODULE.duration=--duration */
	const char *mutant_of;		/* a mutant: the barrier tag it lacks */
	const char *subject;		/* a mutant: the version it is cut from */
	const char *known_finding;	/* a check that fails there anyway: no kill */
	const char *shape;		/* a mutant: the calibration shape it needs */
	const char *calibrated_by;	/* a mutant: the suite that shows its machine reorders */
	bool emulated;			/* runs on calibrate/kw_emu.h's machine */
	bool same_everywhere;		/* tests that machine itself: one column per run hunts it */
	const char *validated_by;	/* a kill counts only where these suites (a,b) passed */
	int litmus_side;		/* 1 + its litmus table's side (LITMUS_NATIVE...), or 0 */
	int hunt_seconds;		/* a needed barrier's mutant: tortured up to this, to its kill */
	const char *must_fire;		/* the check or oracle that must fire */
	const char *kernels;		/* "plain,kcsan": the kernels it runs on */
	const char *params;		/* more of the guest's command line */
	const char *own_params;		/* "MOD.P=V,...": this suite's alone (kwm.run) */
	bool by_default;
};

extern const struct suite kwm_suites[];
extern const int kwm_nr_suites;

const struct suite *suite_find(const char *name);

/* "ktap", "finding", "mutant", ...: matrix.json's word for @kind. */
const char *suite_kind_name(enum suite_kind kind);

/* Whether @s runs in the guest (not a build-time check). */
bool suite_in_guest(const struct suite *s);

#endif
