// SPDX-License-Identifier: GPL-2.0
#include "matrix_json.h"

#include <string.h>

#include "util.h"
#include "fs.h"

json_object *mj_member(json_object *o, const char *key)
{
	json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *mj_string(json_object *o, const char *key)
{
	json_object *v = mj_member(o, key);

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

size_t mj_length(json_object *array)
{
	return array && json_object_is_type(array, json_type_array) ?
	       json_object_array_length(array) : 0;
}

int mj_write(json_object *o, const char *path)
{
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE);

	return write_file_atomic(path, text, strlen(text));
}
