/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where each column of a run is: queued, building, booting, running
 * suite N of M, done.  On a terminal, one live line per column at the
 * bottom, with its elapsed time; elsewhere (CI logs, files), one
 * appended line per change.
 */
#ifndef KWM_PROGRESS_H
#define KWM_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

/* Whether @out takes colour and cursor moves: a terminal, no NO_COLOR, TERM not dumb. */
bool ansi_terminal(FILE *out);
/* Start showing @n columns named @names, all "queued". */
void progress_start(const char *const *names, int n);
/* Column @i is now doing what @fmt says; its clock starts on the first call. */
void progress_set(int i, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Column @i has finished: its clock stops, and later calls are ignored. */
void progress_done(int i, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Leave the final lines on the terminal and stop redrawing. */
void progress_stop(void);

#endif
