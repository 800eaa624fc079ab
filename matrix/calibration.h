/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calibration module's shapes, read from its source: the one list a
 * mutant's shape must come from, so that a mutant never waits for a
 * figure that no calibration run can print.
 */
#ifndef KWM_CALIBRATION_H
#define KWM_CALIBRATION_H

#include "util.h"

#define CALIBRATION_SUITE	"calibrate"

/* The names of kwc_shapes[] in @repo/calibrate/kw_calibrate.c; -1 if unreadable. */
int calibration_shapes(const char *repo, struct strlist *shapes);

/*
 * Every suite's shape is a calibration shape: -1 after one line naming
 * the first that is not, and the fix.
 */
int calibration_check_suites(const char *repo);

/*
 * A mutant is judged by the calibration of the machine it runs on (its
 * suite's calibrated_by), and its kill by that machine's validation
 * (validated_by): add each that @suites lacks.  True if one was added.
 */
bool calibration_add_if_needed(struct strlist *suites);

#endif
