// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "lkmm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "util.h"
#include "variants.h"

#define HERD7		"herd7"
#define COVERS_MARK	"/* covers "

const char *const kwm_subject_versions[] = { "seed", "series" };
const int kwm_nr_subject_versions = sizeof(kwm_subject_versions) /
				    sizeof(kwm_subject_versions[0]);

/* The first word after " * @label" at the start of a line of @text. */
static char *header_word(const char *text, const char *label)
{
	char *pattern = xasprintf("\n * %s", label);
	const char *hit = text ? strstr(text, pattern) : NULL;
	char *out = NULL;

	if (hit) {
		hit += strlen(pattern);
		out = strndup(hit, strcspn(hit, " \t\n"));
	}
	free(pattern);
	return out;
}

char *litmus_expected(const char *text)
{
	return header_word(text, "Result: ");
}

const char *lkmm_outcome_verdict(const struct lkmm_outcome *o)
{
	return o->seen ? o->seen : o->expected;
}

char *lkmm_outcome_describe(const struct lkmm_outcome *o)
{
	if (!o->expected)
		return xstrdup("no verdict in the model's header");
	if (!o->seen)
		return xasprintf("%s (expected, unchecked: %s)", o->expected,
				 o->unchecked ? o->unchecked : "herd7 not run");
	if (strcmp(o->seen, o->expected))
		return xasprintf("herd7 says %s, the header %s", o->seen, o->expected);
	return xasprintf("%s (herd7)", o->seen);
}

char *litmus_uncover(const char *text, const char *tag, char **what)
{
	char *out = xstrdup(""), *line;
	bool any = false;

	*what = NULL;
	for (const char *at = text, *nl; *at; at = nl + !!*nl) {
		const char *mark, *colon, *end;

		nl = strchrnul(at, '\n');
		line = strndup(at, nl - at);
		mark = strstr(line, COVERS_MARK);
		colon = mark ? strchr(mark, ':') : NULL;
		if (colon) {
			char *tags = strndup(mark + strlen(COVERS_MARK),
					     colon - mark - strlen(COVERS_MARK));
			bool names_tag = false;

			for (char *save, *t = strtok_r(tags, " ,", &save); t;
			     t = strtok_r(NULL, " ,", &save))
				names_tag |= !strcmp(t, tag);
			free(tags);
			if (names_tag) {
				end = strstr(colon, "*/");
				if (!*what && end)
					*what = strndup(colon + 2, end - colon - 3);
				any = true;
				free(line);
				continue;
			}
		}
		xappendf(&out, "%s\n", line);
		free(line);
	}
	if (!any) {
		free(out);
		return NULL;
	}
	return out;
}

/* herd7's "Observation <name> Never|Sometimes|Always" for the test at @path. */
static char *herd7_run(const char *tree, const char *path)
{
	char *cmd = xasprintf("cd '%s/tools/memory-model' && " HERD7 " -conf linux-kernel.cfg '%s' 2>&1 | grep '^Observation'",
			      tree, path);
	char *line = cmd_output_line(cmd), *out = NULL;
	char name[128], verdict[32];

	if (line && sscanf(line, "Observation %127s %31s", name, verdict) == 2)
		out = xstrdup(verdict);
	free(line);
	free(cmd);
	return out;
}

/*
 * Check @text with herd7.  A path model takes herd7 seconds: its verdict
 * is kept in @cache/lkmm under the hash of the test, the model's files
 * and herd7's version, so that an unchanged model is not run again.
 */
static void herd7_check(const char *tree, const char *cache, const char *text,
			struct lkmm_outcome *o)
{
	struct kwm_hash *h;
	char key[KWM_HASH_HEX], *version, *dir, *entry, *test, *cfg;

	if (!in_path(HERD7)) {
		o->unchecked = xstrdup("herd7 not installed");
		return;
	}
	version = cmd_output_line(HERD7 " -version 2>&1");
	cfg = xasprintf("%s/tools/memory-model/linux-kernel.cat", tree);
	h = hash_new();
	hash_add_str(h, text);
	hash_add_str(h, version ? version : "");
	hash_add_file(h, cfg);
	hash_final(h, key);
	free(version);
	free(cfg);

	dir = xasprintf("%s/lkmm", cache);
	entry = xasprintf("%s/%s", dir, key);
	test = xasprintf("%s/%s.litmus", dir, key);
	o->seen = read_file(entry, NULL);
	if (o->seen) {
		o->seen[strcspn(o->seen, "\n")] = '\0';
	} else if (mkdir_p(dir) || write_file_atomic(test, text, strlen(text))) {
		o->unchecked = xasprintf("cannot write %s", test);
	} else if (!(o->seen = herd7_run(tree, test))) {
		o->unchecked = xasprintf("herd7 gave no verdict on %s (fix: make litmus shows why)", test);
	} else {
		/* Written whole or not at all: a half entry is never read. */
		write_file_atomic(entry, o->seen, strlen(o->seen));
	}
	free(dir);
	free(entry);
	free(test);
}

static void barrier_judge(const char *tree, const char *cache,
			  const char *model, const char *version,
			  const char *tag, struct lkmm_barrier *out)
{
	char *mutant, *uncovered, *removed = NULL, *label;

	mutant = mutate_remove_barrier(model, tag, &removed);
	if (!mutant) {
		out->error = xasprintf("no barrier tagged %s in litmus/path-%s.litmus (fix: keep \"%s paired with\" in its comment)",
				       tag, version, tag);
		return;
	}
	label = xasprintf("Without %s: ", tag);
	out->without.expected = header_word(model, label);
	free(label);
	herd7_check(tree, cache, mutant, &out->without);

	uncovered = litmus_uncover(mutant, tag, &out->covered_by);
	if (uncovered) {
		label = xasprintf("Uncovered %s: ", tag);
		out->uncovered.expected = header_word(model, label);
		free(label);
		herd7_check(tree, cache, uncovered, &out->uncovered);
	}
	free(uncovered);
	free(mutant);
	free(removed);
}

void lkmm_model_judge(const char *repo, const char *tree, const char *cache,
		      const char *version, struct lkmm_model *out)
{
	char *text;

	memset(out, 0, sizeof(*out));
	out->version = version;
	out->path = xasprintf("%s/litmus/path-%s.litmus", repo, version);
	out->barriers = xcalloc(kwm_nr_barrier_tags, sizeof(*out->barriers));
	text = read_file(out->path, NULL);
	if (!text) {
		out->error = xasprintf("no litmus/path-%s.litmus (fix: restore the model of the %s)",
				       version, version);
		return;
	}
	out->full.expected = litmus_expected(text);
	herd7_check(tree, cache, text, &out->full);
	for (int b = 0; b < kwm_nr_barrier_tags; b++)
		barrier_judge(tree, cache, text, version, kwm_barrier_tags[b],
			      &out->barriers[b]);
	free(text);
}

const struct lkmm_barrier *lkmm_find(const struct lkmm_model *models,
				     const char *version, const char *tag)
{
	for (int v = 0; models && version && tag && v < kwm_nr_subject_versions; v++) {
		if (!models[v].barriers || strcmp(models[v].version, version))
			continue;
		for (int b = 0; b < kwm_nr_barrier_tags; b++)
			if (!strcmp(kwm_barrier_tags[b], tag))
				return &models[v].barriers[b];
	}
	return NULL;
}

/*
 * What herd7 itself said, and the header agrees: a header nobody ran is a
 * claim, not evidence, and a header herd7 contradicts is a wrong model.
 */
static bool says(const struct lkmm_outcome *o, const char *verdict)
{
	return o->seen && !strcmp(o->seen, verdict) &&
	       !(o->expected && strcmp(o->seen, o->expected));
}

bool lkmm_barrier_covered(const struct lkmm_barrier *b)
{
	return b && !b->error && b->covered_by && says(&b->without, "Never") &&
	       says(&b->uncovered, "Sometimes");
}

static bool claims(const struct lkmm_outcome *o, const char *verdict)
{
	return o->expected && !strcmp(o->expected, verdict) &&
	       !(o->seen && strcmp(o->seen, o->expected));
}

bool lkmm_barrier_claims_cover(const struct lkmm_barrier *b)
{
	return b && !b->error && b->covered_by && claims(&b->without, "Never") &&
	       claims(&b->uncovered, "Sometimes");
}

static void outcome_free(struct lkmm_outcome *o)
{
	free(o->expected);
	free(o->seen);
	free(o->unchecked);
}

void lkmm_model_free(struct lkmm_model *m)
{
	for (int b = 0; m->barriers && b < kwm_nr_barrier_tags; b++) {
		free(m->barriers[b].error);
		outcome_free(&m->barriers[b].without);
		free(m->barriers[b].covered_by);
		outcome_free(&m->barriers[b].uncovered);
	}
	free(m->barriers);
	free(m->path);
	free(m->error);
	outcome_free(&m->full);
}
