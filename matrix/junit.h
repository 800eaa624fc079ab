/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JUnit XML from matrix.json, for CI services' test views: one testsuite
 * per column (a target's kernel), one testcase per cell and per KTAP case.
 */
#ifndef KWM_JUNIT_H
#define KWM_JUNIT_H

#include <json-c/json.h>

/* Write @path atomically from @matrix.  0 or -1. */
int junit_write(json_object *matrix, const char *path);

#endif
