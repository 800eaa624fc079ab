/* SPDX-License-Identifier: GPL-2.0 */
/* Reading and writing matrix.json and the formats made from it. */
#ifndef KWM_MATRIX_JSON_H
#define KWM_MATRIX_JSON_H

#include <json-c/json.h>
#include <stddef.h>

/* matrix.json's "format": a reader refuses any other. */
#define MATRIX_JSON_FORMAT	"kwmatrix-1"

/* @o's member @key, or NULL. */
json_object *mj_member(json_object *o, const char *key);
/* @o's string member @key, or NULL if missing or not a string. */
const char *mj_string(json_object *o, const char *key);
/* The length of @array, 0 if it is not an array. */
size_t mj_length(json_object *array);
/* @o, pretty-printed, written atomically to @path.  0 or -1. */
int mj_write(json_object *o, const char *path);

#endif
