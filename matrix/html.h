/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results/<run>/index.html from matrix.json: one self-contained page with
 * the verdict heat-map (suites x columns, mutants x oracles), calibration
 * rates and torture throughput as SVG bars, and every cell's reason and
 * console excerpt, linked from the map.  Built as a libxml2 tree, so that
 * the library does all the escaping.
 */
#ifndef KWM_HTML_H
#define KWM_HTML_H

#include <json-c/json.h>

/* Write @path atomically from @matrix.  0 or -1. */
int html_write(json_object *matrix, const char *path);

#endif
