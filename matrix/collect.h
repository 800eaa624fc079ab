/* SPDX-License-Identifier: GPL-2.0 */
/* The collect stage: what the builds and guests left on disk, read and parsed. */
#ifndef KWM_COLLECT_H
#define KWM_COLLECT_H

#include "run.h"

/* One column's, once, as its guest ends (collect_run() skips it then). */
void collect_target(struct target_result *tr);

/*
 * The memory model's verdicts on each barrier of each version (herd7,
 * once per run), for every column: before the guests, which hunt only
 * the mutants of barriers the model does not show covered.
 */
void collect_models(struct run *run);

/*
 * Read every column's console, QEMU log and build-time checks' output,
 * and parse them into its structs; the models too, if not yet judged.
 */
void collect_run(struct run *run);

/* What collect_run() and judge_run() allocated in @run. */
void collect_free(struct run *run);

#endif
