// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "lkmm.h"
#include "litmus.h"

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "code.h"
#include "hash.h"
#include "herd7.h"
#include "util.h"
#include "variants.h"
#include "fs.h"

#define COVERS_MARK	"/* covers "


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
	if (o->from_record)
		return xasprintf("%s (%s)", o->seen, o->from_record);
	if (o->herd7)
		return xasprintf("%s (herd7 %s)", o->seen, o->herd7);
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

/* What a run of the models needs: herd7, its records, the model's files. */
struct lkmm_checker {
	const char *tree, *cache;
	char *herd7;		/* its version, or NULL: not installed */
	char *lkmm;		/* herd7_model_digest() of the tree's model */
	struct herd7_records records;
	char *records_error;
};

static void checker_open(struct lkmm_checker *c, const char *repo,
			 const char *tree, const char *cache)
{
	char *path = xasprintf("%s/%s", repo, HERD7_RECORDS);

	memset(c, 0, sizeof(*c));
	c->tree = tree;
	c->cache = cache;
	c->herd7 = herd7_version();
	c->lkmm = herd7_model_digest(tree);
	herd7_records_read(path, &c->records, &c->records_error);
	free(path);
}

static void checker_close(struct lkmm_checker *c)
{
	free(c->herd7);
	free(c->lkmm);
	herd7_records_free(&c->records);
	free(c->records_error);
}

void lkmm_test_digest(const char *text, char out[KWM_HASH_HEX])
{
	hash_text(text, out);
}

/*
 * herd7 on @text: its verdict, kept in @c->cache/lkmm under the hash of
 * the test, the model's files and herd7's version, so that an unchanged
 * model is not run again.  0, or -1 with o->unchecked.
 */
static int herd7_cached(const struct lkmm_checker *c, const char *text,
			struct lkmm_outcome *o)
{
	struct herd7_record seen = { 0 };
	struct kwm_hash *h = hash_new();
	char key[KWM_HASH_HEX], *dir, *entry, *test, *kept, *why = NULL;
	int ret = 0;

	hash_add_str(h, text);
	hash_add_str(h, c->herd7);
	hash_add_str(h, c->lkmm ? c->lkmm : "");
	hash_final(h, key);
	dir = xasprintf("%s/lkmm", c->cache);
	entry = xasprintf("%s/%s.verdict", dir, key);
	test = xasprintf("%s/%s.litmus", dir, key);
	kept = read_file(entry, NULL);
	if (kept && strchr(kept, '\t')) {
		o->seen = strndup(kept, strcspn(kept, "\t"));
		o->states = strndup(strchr(kept, '\t') + 1,
				    strcspn(strchr(kept, '\t') + 1, "\n"));
	} else if (mkdir_p(dir) || write_file_atomic(test, text, strlen(text))) {
		o->unchecked = xasprintf("cannot write %s (fix: check free space)", test);
		ret = -1;
	} else if (herd7_run(c->tree, test, &seen, &why)) {
		o->unchecked = xasprintf("%s, on %s (fix: make litmus shows why)", why, test);
		ret = -1;
	} else {
		char *line = xasprintf("%s\t%s\n", seen.verdict, seen.states);

		o->seen = xstrdup(seen.verdict);
		o->states = xstrdup(seen.states);
		/* Written whole or not at all: a half entry is never read. */
		write_file_atomic(entry, line, strlen(line));
		free(line);
	}
	herd7_record_free(&seen);
	free(why);
	free(kept);
	free(dir);
	free(entry);
	free(test);
	return ret;
}

/*
 * Check @text, named @name: with herd7 where it is installed, else with
 * herd7's record of exactly this test on exactly this model, if any.
 */
static void herd7_check(const struct lkmm_checker *c, const char *text,
			const char *name, struct lkmm_outcome *o)
{
	const struct herd7_record *r;

	o->name = xstrdup(name);
	lkmm_test_digest(text, o->test);
	r = herd7_records_find(&c->records, o->test, c->lkmm);
	if (c->herd7) {
		if (herd7_cached(c, text, o))
			return;
		o->herd7 = xstrdup(c->herd7);
		if (r && strcmp(r->verdict, o->seen))
			o->record_disagrees = xasprintf("herd7 %s says %s, its record (herd7 %s, %s) %s",
							c->herd7, o->seen, r->herd7, r->date,
							r->verdict);
		o->recorded = r != NULL;
	} else if (r) {
		o->seen = xstrdup(r->verdict);
		o->states = xstrdup(r->states);
		o->herd7 = xstrdup(r->herd7);
		o->from_record = xasprintf("herd7 %s, recorded %s for this exact model; not re-run here",
					   r->herd7, r->date);
		o->recorded = true;
	} else if (c->records_error) {
		o->unchecked = xstrdup(c->records_error);
	} else {
		/* No parentheses: the text is quoted inside some. */
		o->unchecked = xstrdup("herd7 not installed, and no record of herd7's matches this exact test and model: build herd7 from herdtools7 and put it on PATH");
	}
}

static void barrier_judge(const struct lkmm_checker *c, const char *model,
			  const char *test, const char *version, const char *tag,
			  struct lkmm_barrier *out)
{
	char *mutant, *uncovered, *removed = NULL, *label, *name;

	mutant = mutate_remove_barrier(model, tag, &removed);
	if (!mutant) {
		out->error = xasprintf("no barrier tagged %s in litmus/%s.litmus, a model of the %s (fix: keep \"%s paired with\" in its comment)",
				       tag, test, version, tag);
		return;
	}
	label = xasprintf("Without %s: ", tag);
	out->without.expected = header_word(model, label);
	free(label);
	name = xasprintf("%s without %s", test, tag);
	herd7_check(c, mutant, name, &out->without);
	free(name);

	uncovered = litmus_uncover(mutant, tag, &out->covered_by);
	if (uncovered) {
		label = xasprintf("Uncovered %s: ", tag);
		out->uncovered.expected = header_word(model, label);
		free(label);
		name = xasprintf("%s without %s and %s", test, tag,
				 out->covered_by ? out->covered_by : "what covers it");
		herd7_check(c, uncovered, name, &out->uncovered);
		free(name);
	}
	free(uncovered);
	free(mutant);
	free(removed);
}

/*
 * The text after " * @label" up to the header's next empty line, its
 * lines joined by spaces, or NULL.
 */
static char *header_paragraph(const char *text, const char *label)
{
	char *pattern = xasprintf("\n * %s", label), *out = NULL;
	const char *at = text ? strstr(text, pattern) : NULL;

	if (at)
		at += strlen(pattern);
	while (at && *at && *at != '\n') {
		const char *nl = strchrnul(at, '\n');

		xappendf(&out, "%s%.*s", out ? " " : "", (int)(nl - at), at);
		if (!*nl || strncmp(nl, "\n * ", 4) || nl[4] == '\n')
			break;
		at = nl + 4;
	}
	free(pattern);
	return out;
}

static void caller_judge(const struct lkmm_checker *c, const char *version,
			 const char *path, struct lkmm_caller *out)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *text = read_file(path, NULL), *name;

	out->path = xstrdup(path);
	out->barriers = xcalloc(kwm_nr_barrier_tags, sizeof(*out->barriers));
	name = strndup(base, strcspn(base, "."));
	out->callers = header_paragraph(text, "Callers: ");
	if (!out->callers)
		out->callers = xasprintf("%s: no \"Callers:\" line in its header", name);
	out->full.expected = litmus_expected(text);
	herd7_check(c, text ? text : "", name, &out->full);
	for (int b = 0; b < kwm_nr_barrier_tags; b++)
		barrier_judge(c, text ? text : "", name, version,
			      kwm_barrier_tags[b], &out->barriers[b]);
	free(name);
	free(text);
}

/*
 * How much a caller's model needs the barrier, most first: one that
 * cannot say, or says Sometimes, decides before one that says Never.
 */
static int need(const struct lkmm_barrier *b)
{
	const char *without = lkmm_outcome_verdict(&b->without);

	if (b->error)
		return 0;
	if (b->without.seen && b->without.expected &&
	    strcmp(b->without.seen, b->without.expected))
		return 1;
	if (without && !strcmp(without, "Sometimes"))
		return 2;
	if (!without || !b->without.seen)
		return 3;
	return lkmm_barrier_covered(b) ? 5 : 4;
}

void lkmm_model_judge(const char *repo, const char *tree, const char *cache,
		      const char *version, struct lkmm_model *out)
{
	char *own = xasprintf("%s/litmus/path-%s.litmus", repo, version);
	char *others = xasprintf("%s/litmus/path-%s+*.litmus", repo, version);
	struct lkmm_checker c;
	glob_t g = { 0 };

	memset(out, 0, sizeof(*out));
	out->version = version;
	out->barriers = xcalloc(kwm_nr_barrier_tags, sizeof(*out->barriers));
	if (access(own, R_OK)) {
		/* Every barrier says so: no verdict without a model. */
		out->error = xasprintf("no litmus/path-%s.litmus (fix: restore the model of the %s)",
				       version, version);
		out->nr_callers = 1;
		out->caller = xcalloc(1, sizeof(*out->caller));
		out->caller[0].barriers = xcalloc(kwm_nr_barrier_tags,
						  sizeof(*out->caller[0].barriers));
		for (int b = 0; b < kwm_nr_barrier_tags; b++)
			out->caller[0].barriers[b].error = xstrdup(out->error);
	} else {
		glob(others, 0, NULL, &g);
		out->nr_callers = 1 + g.gl_pathc;
		out->caller = xcalloc(out->nr_callers, sizeof(*out->caller));
		checker_open(&c, repo, tree, cache);
		for (int i = 0; i < out->nr_callers; i++) {
			caller_judge(&c, version, i ? g.gl_pathv[i - 1] : own,
				     &out->caller[i]);
			xappendf(&out->callers, "%s(%d) %s", i ? "; " : "", i + 1,
				 out->caller[i].callers);
		}
		checker_close(&c);
	}
	for (int b = 0; b < kwm_nr_barrier_tags; b++) {
		const struct lkmm_barrier *pick = &out->caller[0].barriers[b];

		for (int i = 0; i < out->nr_callers; i++) {
			struct lkmm_barrier *lb = &out->caller[i].barriers[b];

			lb->callers = out->callers;
			if (need(lb) < need(pick))
				pick = lb;
		}
		out->barriers[b] = pick;
	}
	globfree(&g);
	free(own);
	free(others);
}

/*
 * Why @text (caller @name's model) does not describe @code, or NULL: each
 * "NAME() DIGEST" of its "Code:" line against the function's text there.
 */
static char *code_mismatch(const char *text, const char *name, const char *code)
{
	char *line = header_paragraph(text, "Code: "), *why = NULL;
	int named = 0;

	for (const char *p = line ? strstr(line, "()") : NULL; p && !why; p = strstr(p + 2, "()")) {
		const char *fn = p;
		char want[CODE_DIGEST_HEX] = "", now[CODE_DIGEST_HEX];
		char *function;

		while (fn > line && (isalnum((unsigned char)fn[-1]) || fn[-1] == '_'))
			fn--;
		function = strndup(fn, p - fn);
		sscanf(p + 2 + strspn(p + 2, " :,"), "%12[0-9a-f]", want);
		named++;
		if (strlen(want) != CODE_DIGEST_HEX - 1)
			why = xasprintf("the model %s's Code: line gives no digest for %s() (fix: the first 12 hex digits of the sha256 of its text after it)",
					name, function);
		else if (code_function_digest(code, function, now))
			why = xasprintf("the model %s describes %s(), which the code does not define",
					name, function);
		else if (strcmp(want, now))
			why = xasprintf("the model %s describes %s() as it was (%s); the code changed (now %s): its verdicts do not hold for this code (fix: bring the model to the code, check it with herd7, and give its Code: line the new digest)",
					name, function, *want ? want : "no digest", now);
		free(function);
	}
	if (!why && !named)
		why = xasprintf("the model %s names no code it describes (fix: a \"Code:\" line with each function it models and its digest)",
				name);
	free(line);
	return why;
}

void lkmm_model_check_code(struct lkmm_model *m, const char *code,
			   const char *no_code)
{
	char *why = NULL;

	for (int i = 0; i < m->nr_callers && !why && m->caller[i].path; i++) {
		const char *path = m->caller[i].path;
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		char *text = read_file(path, NULL);
		char *name = strndup(base, strcspn(base, "."));

		why = code ? code_mismatch(text, name, code) : xstrdup(no_code);
		free(name);
		free(text);
	}
	for (int i = 0; why && i < m->nr_callers; i++)
		for (int b = 0; m->caller[i].barriers && b < kwm_nr_barrier_tags; b++)
			if (!m->caller[i].barriers[b].stale)
				m->caller[i].barriers[b].stale = xstrdup(why);
	free(why);
}

const struct lkmm_barrier *lkmm_find(const struct lkmm_model *models,
				     const char *version, const char *tag)
{
	for (int v = 0; models && version && tag && v < kwm_nr_subject_versions; v++) {
		if (!models[v].barriers || strcmp(models[v].version, version))
			continue;
		for (int b = 0; b < kwm_nr_barrier_tags; b++)
			if (!strcmp(kwm_barrier_tags[b], tag))
				return models[v].barriers[b];
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

bool lkmm_barrier_covered_as_was(const struct lkmm_barrier *b)
{
	struct lkmm_barrier as_was = *b;

	as_was.stale = NULL;
	return lkmm_barrier_covered(&as_was) || lkmm_barrier_claims_cover(&as_was);
}

bool lkmm_barrier_covered(const struct lkmm_barrier *b)
{
	return b && !b->error && !b->stale && b->covered_by && says(&b->without, "Never") &&
	       says(&b->uncovered, "Sometimes");
}

static bool claims(const struct lkmm_outcome *o, const char *verdict)
{
	return o->expected && !strcmp(o->expected, verdict) &&
	       !(o->seen && strcmp(o->seen, o->expected));
}

bool lkmm_barrier_claims_cover(const struct lkmm_barrier *b)
{
	return b && !b->error && !b->stale && b->covered_by && claims(&b->without, "Never") &&
	       claims(&b->uncovered, "Sometimes");
}

static void outcome_free(struct lkmm_outcome *o)
{
	free(o->expected);
	free(o->seen);
	free(o->unchecked);
	free(o->name);
	free(o->states);
	free(o->herd7);
	free(o->from_record);
	free(o->record_disagrees);
}

void lkmm_model_free(struct lkmm_model *m)
{
	for (int i = 0; i < m->nr_callers; i++) {
		struct lkmm_caller *c = &m->caller[i];

		for (int b = 0; c->barriers && b < kwm_nr_barrier_tags; b++) {
			free(c->barriers[b].error);
			free(c->barriers[b].stale);
			outcome_free(&c->barriers[b].without);
			free(c->barriers[b].covered_by);
			outcome_free(&c->barriers[b].uncovered);
		}
		free(c->barriers);
		free(c->path);
		free(c->callers);
		outcome_free(&c->full);
	}
	free(m->caller);
	free(m->barriers);
	free(m->callers);
	free(m->error);
}
