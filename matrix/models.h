/* SPDX-License-Identifier: GPL-2.0 */
/* kwmatrix models: the path models' verdicts, checked and recorded. */
#ifndef KWM_MODELS_H
#define KWM_MODELS_H

/*
 * "models [--record] TREE": every verdict of the path models, herd7's (or
 * its record's) beside the header's.  0 if herd7 ran and agrees with each
 * header and record, 1 if not, 77 (skipped) if herd7 ran on none, 2 on
 * bad input.  --record writes this herd7's verdicts on @TREE's model to
 * HERD7_RECORDS, in place of that model's old ones; other models' stay.
 */
int cmd_models(int argc, char **argv, const char *cache);

#endif
