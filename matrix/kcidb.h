/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KernelCI's KCIDB I/O schema v4.2 from matrix.json: one checkout (the
 * Debian source package plus the series), a build per column, and a test
 * per cell and per KTAP case, with dot-separated paths.
 */
#ifndef KWM_KCIDB_H
#define KWM_KCIDB_H

#include <json-c/json.h>

#define KCIDB_ORIGIN	"kwmatrix"

/* The KCIDB status of a cell status name: PASS, FAIL, ERROR, MISS or SKIP. */
const char *kcidb_status(const char *cell_status);

/* Write @path atomically from @matrix.  0 or -1. */
int kcidb_write(json_object *matrix, const char *path);

#endif
