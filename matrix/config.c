// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "config.h"
#include "fs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool valid_name(const char *s, size_t len)
{
	if (len <= 7 || strncmp(s, "CONFIG_", 7))
		return false;
	for (size_t i = 7; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static bool valid_value(const char *v)
{
	size_t len = strlen(v);

	if (!len)
		return false;
	if (v[0] == '"')
		return len >= 2 && v[len - 1] == '"';
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)v[i]) && v[i] != '-' && v[i] != '_')
			return false;
	return true;
}

static void set_sym(struct fragment_set *set, char *name, char *value,
		    char *where)
{
	for (int i = 0; i < set->nr; i++) {
		if (strcmp(set->syms[i].name, name))
			continue;
		free(set->syms[i].value);
		free(set->syms[i].where);
		free(name);
		set->syms[i].value = value;
		set->syms[i].where = where;
		return;
	}
	set->syms = xrealloc(set->syms, (set->nr + 1) * sizeof(*set->syms));
	set->syms[set->nr++] = (struct config_sym){ name, value, where };
}

/* One line: CONFIG_X=v, "# CONFIG_X is not set", a comment, or blank. */
static int parse_line(struct fragment_set *set, const char *path, int lineno,
		      char *line)
{
	char *eq, *where = xasprintf("%s:%d", path, lineno);
	size_t len;

	line[strcspn(line, "\r")] = '\0';
	len = strlen(line);
	while (len && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (!strncmp(line, "# CONFIG_", 9) &&
	    len > 13 && !strcmp(line + len - 11, " is not set")) {
		if (!valid_name(line + 2, len - 13))
			goto bad;
		set_sym(set, strndup(line + 2, len - 13), xstrdup("n"), where);
		return 0;
	}
	if (!len || line[0] == '#') {
		free(where);
		return 0;
	}
	eq = strchr(line, '=');
	if (!eq || !valid_name(line, eq - line) || !valid_value(eq + 1))
		goto bad;
	set_sym(set, strndup(line, eq - line),
		xstrdup(!strcmp(eq + 1, "n") ? "n" : eq + 1), where);
	return 0;
bad:
	kwm_error("%s: not a Kconfig assignment: '%s' (fix: write CONFIG_NAME=value or '# CONFIG_NAME is not set')",
		  where, line);
	free(where);
	return -1;
}

int fragments_load(struct fragment_set *set, const char *const *paths, int nr)
{
	memset(set, 0, sizeof(*set));
	for (int f = 0; f < nr; f++) {
		char *text = read_file(paths[f], NULL), *p, *nl;
		int lineno = 1;

		if (!text) {
			kwm_error("cannot read config fragment %s (fix: create it, or drop the target from targets.c)",
				  paths[f]);
			return -1;
		}
		strlist_add(&set->files, paths[f]);
		for (p = text; *p; p = nl + 1, lineno++) {
			nl = strchrnul(p, '\n');
			bool last = !*nl;

			*nl = '\0';
			if (parse_line(set, paths[f], lineno, p)) {
				free(text);
				return -1;
			}
			if (last)
				break;
		}
		free(text);
	}
	return 0;
}

void fragments_free(struct fragment_set *set)
{
	for (int i = 0; i < set->nr; i++) {
		free(set->syms[i].name);
		free(set->syms[i].value);
		free(set->syms[i].where);
	}
	free(set->syms);
	strlist_free(&set->files);
	memset(set, 0, sizeof(*set));
}

/* Value of @name in a .config text: "n" when unset or absent. */
static char *dotconfig_value(const char *text, const char *name)
{
	size_t nlen = strlen(name);
	const char *p = text;

	while (*p) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, name, nlen) && p[nlen] == '=')
			return strndup(p + nlen + 1, nl - (p + nlen + 1));
		p = *nl ? nl + 1 : nl;
	}
	return xstrdup("n");
}

int config_check(const struct fragment_set *set, const char *dotconfig,
		 struct strlist *problems)
{
	char *text = read_file(dotconfig, NULL);
	int nr = 0;

	if (!text)
		return -1;
	for (int i = 0; i < set->nr; i++) {
		const struct config_sym *sym = &set->syms[i];
		char *got = dotconfig_value(text, sym->name);

		if (strcmp(got, sym->value)) {
			char *msg = xasprintf("%s: asked %s (%s), got %s",
					      sym->name,
					      !strcmp(sym->value, "n") ? "not set" : sym->value,
					      sym->where,
					      !strcmp(got, "n") ? "not set" : got);

			strlist_add(problems, msg);
			free(msg);
			nr++;
		}
		free(got);
	}
	free(text);
	return nr;
}
