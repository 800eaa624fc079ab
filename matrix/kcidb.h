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

/*
 * @name as one component of a KCIDB test path, whose alphabet is
 * [.a-zA-Z0-9_-] with '.' between levels: '+' becomes "__", anything else
 * outside it '_'.  The same name always gives the same path (free it).
 */
char *kcidb_path_component(const char *name);

/* Write @path atomically from @matrix.  0 or -1. */
int kcidb_write(json_object *matrix, const char *path);

#endif
