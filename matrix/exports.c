// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "exports.h"

#include <stdlib.h>

#include "html.h"
#include "junit.h"
#include "kcidb.h"
#include "util.h"

static const struct export {
	const char *file;
	int (*write)(json_object *matrix, const char *path);
} exports[] = {
	{ "junit.xml", junit_write },
	{ "kcidb.json", kcidb_write },
	{ "index.html", html_write },
};

int exports_write(json_object *matrix, const char *dir)
{
	int ret = 0;

	for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]) && !ret; i++) {
		char *path = xasprintf("%s/%s", dir, exports[i].file);

		ret = exports[i].write(matrix, path);
		free(path);
	}
	return ret;
}
