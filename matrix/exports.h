/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What other systems read, each made from matrix.json alone: junit.xml
 * (CI test views), kcidb.json (KernelCI) and index.html (people).
 */
#ifndef KWM_EXPORTS_H
#define KWM_EXPORTS_H

#include <json-c/json.h>

/* Write the three into @dir.  0, or -1 with errno set. */
int exports_write(json_object *matrix, const char *dir);

#endif
