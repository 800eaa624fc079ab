// SPDX-License-Identifier: GPL-2.0
/*
 * A C function's text in a source file, and its digest: what a memory
 * model's "Code:" line names, so that a verdict from the model holds for
 * that text only.
 */
#define _GNU_SOURCE
#include "code.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "util.h"

char *code_function(const char *source, const char *name)
{
	size_t len = strlen(name);

	/* A definition starts a line, kernel style: "void flush_kw_work(...)\n{". */
	for (const char *line = source; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *at = strstr(line, name), *nl = strchrnul(line, '\n'), *open, *end;

		if (!at || at > nl || isspace((unsigned char)*line) || *line == '#' ||
		    at[len] != '(' || (at > line && (isalnum((unsigned char)at[-1]) || at[-1] == '_')))
			continue;
		/* Its body: the next line that is "{", up to the line that is "}". */
		open = strstr(nl, "\n{\n");
		/* A prototype, or a call, is no definition. */
		if (!open || memchr(at, ';', open - at))
			continue;
		end = strstr(open, "\n}\n");
		if (!end)
			return NULL;
		return strndup(line, end + 3 - line);
	}
	return NULL;
}

int code_function_digest(const char *source, const char *name,
			 char out[CODE_DIGEST_HEX])
{
	char *text = source ? code_function(source, name) : NULL;
	char full[KWM_HASH_HEX];

	if (!text)
		return -1;
	hash_text(text, full);
	memcpy(out, full, CODE_DIGEST_HEX - 1);
	out[CODE_DIGEST_HEX - 1] = '\0';
	free(text);
	return 0;
}
