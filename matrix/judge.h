/* SPDX-License-Identifier: GPL-2.0 */
/* The judge: cells from what was collected, and each barrier's verdict.  No I/O. */
#ifndef KWM_JUDGE_H
#define KWM_JUDGE_H

#include "run.h"

/* One column's cells, once, as its guest ends (judge_run() skips it then). */
void judge_target(struct run *run, struct target_result *tr);

/* Each barrier's verdict on the columns judged so far (again: replaced). */
void judge_barriers(struct run *run);

/*
 * Fill the cells of every column from what was collected, then each
 * barrier's verdict per version from its mutants' cells.  No I/O.
 */
void judge_run(struct run *run);

#endif
