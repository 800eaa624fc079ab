// SPDX-License-Identifier: GPL-2.0
/*
 * A litmus test whose generated C does not compile is left out, not the
 * batch: the compiler's errors are mapped back to the tests they are in,
 * each such test is skipped with its first error, and the module is
 * built again without it.  The record of what was refused lives in the
 * build folder (LITMUS_REFUSED), keyed to the source it was made from.
 */
#define _GNU_SOURCE
#include "litmus.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define REFUSED_NATIVE		"native"
#define REFUSED_EMULATED	"emulated"

/* The test whose code holds line @line of @source (its "struct kwl_tN {"), or -1. */
static int test_at_line(const char *source, long line)
{
	int test = -1;

	for (long l = 1; source && *source && l <= line; l++) {
		int id;

		if (sscanf(source, "struct kwl_t%d {", &id) == 1)
			test = id;
		else if (!strncmp(source, "static const struct kwl_test ", 29))
			test = -1;
		source = strchr(source, '\n');
		if (!source)
			break;
		source++;
	}
	return test;
}

/* The mode of a compiler line naming one of the module's files, or NULL. */
static const char *mode_of(const char *line, const char **rest)
{
	static const struct {
		const char *folder, *mode;
	} folders[] = {
		{ "/litmus-emu/" LITMUS_MODULE ".c:", REFUSED_EMULATED },
		{ "/litmus/" LITMUS_MODULE ".c:", REFUSED_NATIVE },
	};

	for (size_t i = 0; i < sizeof(folders) / sizeof(*folders); i++) {
		const char *hit = strstr(line, folders[i].folder);

		if (hit) {
			*rest = hit + strlen(folders[i].folder);
			return folders[i].mode;
		}
	}
	return NULL;
}

static bool refused(const char *tsv, const char *mode, const char *path)
{
	char *key = xasprintf("\n%s\t%s\t", mode, path);
	bool found = tsv && (strstr(tsv, key) ||
			     (!strncmp(tsv, key + 1, strlen(key + 1))));

	free(key);
	return found;
}

/* gcc's "error: invalid type argument of unary ‘*’", in ASCII, one line. */
static char *error_text(const char *line)
{
	const char *msg = strstr(line, "error: ");
	char *out = xstrdup("");

	msg = msg ? msg + 7 : line;
	for (const char *p = msg; *p && *p != '\n'; p++) {
		if (!strncmp(p, "\xe2\x80\x98", 3) || !strncmp(p, "\xe2\x80\x99", 3)) {
			xappendf(&out, "'");
			p += 2;
		} else if (*p == '\t') {
			xappendf(&out, " ");
		} else {
			xappendf(&out, "%c", *p);
		}
	}
	return out;
}

int litmus_refusals_from_log(const char *log, const char *native,
			     const char *emulated, const struct litmus_test *tests,
			     int n, char **tsv)
{
	const char *context_mode = NULL;
	int context_test = -1, added = 0;

	for (const char *next = log; next && *next;) {
		const char *end = strchr(next, '\n'), *rest = NULL, *mode;
		char *line = end ? strndup(next, end - next) : xstrdup(next);
		int id, test = -1;
		char *why;

		next = end ? end + 1 : NULL;
		mode = mode_of(line, &rest);

		/*
		 * "kw_litmus.c: In function 'kwl_t12_p1':" names the test;
		 * any other function, or the top level, in any file, none.
		 */
		if (strstr(line, ": In function ") || strstr(line, ": At top level:")) {
			const char *fn = mode ? strstr(rest, "kwl_t") : NULL;

			context_mode = mode;
			context_test = fn && sscanf(fn, "kwl_t%d_", &id) == 1 ? id : -1;
			free(line);
			continue;
		}
		if (!strstr(line, "error: ")) {
			free(line);
			continue;
		}
		if (mode && isdigit((unsigned char)*rest))
			test = test_at_line(!strcmp(mode, REFUSED_NATIVE) ? native : emulated,
					    atol(rest));
		if (test < 0) {
			/* In a header the test's code expanded: the function's test. */
			mode = context_mode;
			test = context_test;
		}
		if (mode && test >= 0 && test < n && !refused(*tsv, mode, tests[test].path)) {
			why = error_text(line);
			xappendf(tsv, "%s\t%s\t%s\n", mode, tests[test].path, why);
			free(why);
			added++;
		}
		free(line);
	}
	return added;
}

void litmus_apply_refusals(struct litmus_test *tests, int n, const char *tsv)
{
	for (int i = 0; i < n; i++) {
		struct litmus_test *t = &tests[i];
		bool native = refused(tsv, REFUSED_NATIVE, t->path);
		bool emulated = refused(tsv, REFUSED_EMULATED, t->path);

		if (t->skip || (!native && !emulated))
			continue;
		for (const char *line = tsv; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			const char *mode = native ? REFUSED_NATIVE : REFUSED_EMULATED;
			size_t len = strlen(mode) + 1 + strlen(t->path) + 1;
			char *key = xasprintf("%s\t%s\t", mode, t->path);
			bool hit = !strncmp(line, key, len);

			free(key);
			if (!hit)
				continue;
			if (native) {
				t->skip = xasprintf("its C does not compile: %.*s",
						    (int)strcspn(line + len, "\n"), line + len);
			} else if (!t->skip_emulated) {
				t->skip_emulated = xasprintf("its C does not compile on the emulated machine: %.*s",
							     (int)strcspn(line + len, "\n"), line + len);
			}
			break;
		}
	}
}
