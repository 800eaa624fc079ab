/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report stage: a run's cells and verdicts as matrix.json and as the
 * table on the terminal.  Formatting only: collect.h and judge.h made them.
 */
#ifndef KWM_REPORT_H
#define KWM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "run.h"

/* A column's cells, and the verdicts decided so far, before the rest end. */
void report_print_column(const struct run *run, const struct target_result *tr,
			 int *said, FILE *out);

/* A "Never" litmus test with a weak outcome on @side (LITMUS_NATIVE...). */
bool litmus_side_forbidden(const struct litmus_row *r, int side);
/* The litmus tests' table on the terminal, if any ran. */
void report_print_litmus(const struct run *run, FILE *out);

/* Write @run->dir/matrix.json atomically.  0 or -1 (errno set). */
int report_write_json(const struct run *run);
/* "done: 12 PASS 3 UNOBSERVABLE", for the progress display (free it). */
char *report_column_summary(const struct target_result *tr);
/* Print the target x suite table; returns true if every cell passed. */
bool report_print_table(const struct run *run, FILE *out);

#endif
