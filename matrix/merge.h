/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kwmatrix merge: shards of one matrix, run on different machines (one
 * target each in the nightly), combined into one matrix.json, junit.xml
 * and kcidb.json, with each shard's logs copied beside them.
 */
#ifndef KWM_MERGE_H
#define KWM_MERGE_H

/* 0 if every cell is green, 1 if not, 2 on bad input (one line printed). */
int merge_results(const char *const *inputs, int nr, const char *out_dir);

#endif
