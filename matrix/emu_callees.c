// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated subject's calls out of line, checked against the table of
 * how the emulated machine treats each (emu_callees.h).
 */
#define _GNU_SOURCE
#include "emu_callees.h"

#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "subject.h"
#include "util.h"

static const char *const callee_kinds[] = { "call", "none", "layer", "data" };

/* A row "symbol<TAB>how<TAB>why" of @len bytes at @line: its symbol, or NULL. */
static char *row_symbol(const char *line, size_t len)
{
	char *row = strndup(line, len), *save, *name, *kind, *why, *out = NULL;
	bool known = false;

	name = strtok_r(row, "\t", &save);
	kind = name ? strtok_r(NULL, "\t", &save) : NULL;
	why = kind ? strtok_r(NULL, "\t", &save) : NULL;
	for (size_t k = 0; kind && k < sizeof(callee_kinds) / sizeof(callee_kinds[0]); k++)
		known |= !strcmp(kind, callee_kinds[k]);
	if (known && why && !strtok_r(NULL, "\t", &save))
		out = xstrdup(name);
	free(row);
	return out;
}

/* Whether @table lists @symbol; *@bad_line set at its first malformed row. */
static bool table_lists(const char *table, const char *symbol, int *bad_line)
{
	bool found = false;
	int n = 0;

	for (const char *line = table, *nl; *line; line = nl + !!*nl) {
		char *name;

		nl = strchrnul(line, '\n');
		n++;
		if (*line == '#' || line == nl)
			continue;
		name = row_symbol(line, nl - line);
		if (!name && !*bad_line)
			*bad_line = n;
		found |= name && !strcmp(name, symbol);
		free(name);
	}
	return found;
}

char *emu_callees_unlisted(const char *table, const char *nm_output, int *bad_line)
{
	char *out = NULL;

	*bad_line = 0;
	for (const char *line = nm_output, *nl; *line; line = nl + !!*nl) {
		char symbol[256];

		nl = strchrnul(line, '\n');
		if (sscanf(line, " U %255s", symbol) != 1)
			continue;
		if (!table_lists(table, symbol, bad_line))
			xappendf(&out, "%s%s", out ? ", " : "", symbol);
	}
	return out;
}

/* "nm -u @object", whole, or NULL. */
static char *undefined_symbols(const char *nm, const char *object)
{
	char *cmd = xasprintf("'%s' -u '%s' 2>/dev/null", nm, object), *out = xstrdup("");
	FILE *p = popen(cmd, "r");
	char line[512];

	free(cmd);
	if (!p) {
		free(out);
		return NULL;
	}
	while (fgets(line, sizeof(line), p))
		xappendf(&out, "%s", line);
	if (pclose(p)) {
		free(out);
		return NULL;
	}
	return out;
}

char *emu_callees_check(const char *repo, const char *nm, const char *root)
{
	char *path = xasprintf("%s/%s", repo, EMU_CALLEES);
	char *pattern = xasprintf("%s/*/%s.o", root, EMULATED_MODULE);
	char *table = read_file(path, NULL), *why = NULL;
	glob_t g = { 0 };

	if (!table)
		why = xasprintf("cannot read %s (fix: restore it from git)", path);
	else if (glob(pattern, 0, NULL, &g))
		g.gl_pathc = 0;	/* no emulated module in this build: nothing to check */
	for (size_t i = 0; !why && i < g.gl_pathc; i++) {
		char *syms = undefined_symbols(nm, g.gl_pathv[i]), *unlisted;
		int bad = 0;

		if (!syms) {
			why = xasprintf("%s -u %s failed (fix: install the target's binutils)",
					nm, g.gl_pathv[i]);
			break;
		}
		unlisted = emu_callees_unlisted(table, syms, &bad);
		if (bad)
			why = xasprintf("%s:%d: not \"symbol<TAB>call|none|layer|data<TAB>why\" (fix: the table's row)",
					path, bad);
		else if (unlisted)
			why = xasprintf("%s calls %s, which %s does not list: the emulated machine would not see what it orders (fix: wrap it in KWE_CALL in calibrate/kw_emu_subject.h, or list it with why it orders nothing)",
					g.gl_pathv[i], unlisted, EMU_CALLEES);
		free(unlisted);
		free(syms);
	}
	globfree(&g);
	free(table);
	free(pattern);
	free(path);
	return why;
}
