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

struct suite {
	const char *name;
	const char *modules;		/* "a+b+c" */
	int seconds;			/* fixed part of its time bound */
	const char *duration_module;	/* gets MODULE.duration=--duration */
	const char *mutant_of;		/* barrier tag this mutant lacks */
	const char *shape;		/* calibration shape it needs */
	const char *expect_fail;	/* a known finding: this check failing is XFAIL */
	const char *must_kill;		/* a detector: the check or oracle that must fire */
	const char *kernels;		/* "plain,kcsan": the kernels it runs on */
	const char *params;		/* more of the guest's command line */
	const char *static_check;	/* run at build time, not in the guest */
	bool by_default;
};

extern const struct suite kwm_suites[];
extern const int kwm_nr_suites;

const struct suite *suite_find(const char *name);

#endif
