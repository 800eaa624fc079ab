// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "lkmm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define HERD7	"herd7"

char *litmus_expected(const char *path)
{
	char *text = read_file(path, NULL), *out = NULL;
	const char *hit = text ? strstr(text, "Result: ") : NULL;

	if (hit) {
		hit += strlen("Result: ");
		out = strndup(hit, strcspn(hit, " \t\n"));
	}
	free(text);
	return out;
}

/* herd7's "Observation <name> Never|Sometimes|Always" for @path. */
static char *herd7_verdict(const char *tree, const char *path)
{
	char *cmd = xasprintf("cd '%s/tools/memory-model' && " HERD7 " -conf linux-kernel.cfg '%s' 2>&1 | grep '^Observation'",
			      tree, path);
	char *line = cmd_output_line(cmd), *out = NULL;

	if (line) {
		char name[128], verdict[32];

		if (sscanf(line, "Observation %127s %31s", name, verdict) == 2)
			out = xstrdup(verdict);
	}
	free(line);
	free(cmd);
	return out;
}

char *lkmm_verdict(const char *repo, const char *tree, const char *tag)
{
	char *path = xasprintf("%s/litmus/no-%s.litmus", repo, tag);
	char *expected = litmus_expected(path), *seen, *out;

	if (!expected)
		out = xasprintf("no litmus/no-%s.litmus", tag);
	else if (!in_path(HERD7))
		out = xasprintf("%s (expected, unchecked: herd7 not installed)", expected);
	else if (!(seen = herd7_verdict(tree, path)))
		out = xstrdup("herd7 failed: make litmus");
	else {
		out = strcmp(seen, expected) ?
		      xasprintf("%s, expected %s!", seen, expected) :
		      xasprintf("%s (herd7)", seen);
		free(seen);
	}
	free(expected);
	free(path);
	return out;
}
