/* SPDX-License-Identifier: GPL-2.0 */
/* The judge: cells from what was collected, and each barrier's verdict.  No I/O. */
#ifndef KWM_JUDGE_H
#define KWM_JUDGE_H

#include "run.h"

/* One column's cells, once, as its guest ends (report_judge() skips it then). */
void report_judge_target(struct run *run, struct target_result *tr);

/* Each barrier's verdict on the columns judged so far (again: replaced). */
void report_judge_barriers(struct run *run);

/*
 * Fill the cells of every column from what was collected, then each
 * barrier's verdict per version from its mutants' cells.  No I/O.
 */
void report_judge(struct run *run);

#endif
