// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "ktap.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum line_kind {
	LINE_VERSION,	/* "KTAP version N" or "TAP version N" */
	LINE_PLAN,	/* "1..N" */
	LINE_RESULT,	/* "ok N name # directive", "not ok ..." */
	LINE_SUBTEST,	/* "# Subtest: name" */
};

struct line {
	enum line_kind kind;
	int indent;
	int plan;
	bool ok;
	char *name;
	char *directive;
};

struct cursor {
	struct line *lines;
	int nr, pos;
	struct ktap_result *res;
};

static void note_error(struct ktap_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note_error(struct ktap_result *res, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	res->nr_errors++;
	if (res->first_error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	res->first_error = msg;
}

/* Console lines may carry a printk timestamp: "[    1.234567] ". */
static const char *skip_timestamp(const char *s)
{
	const char *close;

	if (*s != '[')
		return s;
	close = strchr(s, ']');
	if (!close)
		return s;
	for (const char *p = s + 1; p < close; p++)
		if (!isdigit((unsigned char)*p) && *p != '.' && *p != ' ')
			return s;
	return close[1] == ' ' ? close + 2 : close + 1;
}

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	return strndup(s, len);
}

/* Classify one line; false for anything that is not KTAP. */
static bool classify(const char *raw, struct line *l)
{
	const char *s = skip_timestamp(raw), *p, *hash;
	char *end;
	long n;

	memset(l, 0, sizeof(*l));
	while (*s == ' ' || *s == '\t') {
		l->indent += *s == '\t' ? 8 : 1;
		s++;
	}
	if (!strncmp(s, "KTAP version ", 13) || !strncmp(s, "TAP version ", 12)) {
		l->kind = LINE_VERSION;
		return true;
	}
	if (!strncmp(s, "# Subtest: ", 11)) {
		l->kind = LINE_SUBTEST;
		l->name = trimmed(s + 11, strlen(s + 11));
		return true;
	}
	if (!strncmp(s, "1..", 3) && isdigit((unsigned char)s[3])) {
		n = strtol(s + 3, &end, 10);
		if (*end && !isspace((unsigned char)*end))
			return false;
		l->kind = LINE_PLAN;
		l->plan = (int)n;
		return true;
	}
	if (!strncmp(s, "ok ", 3)) {
		l->ok = true;
		p = s + 3;
	} else if (!strncmp(s, "not ok ", 7)) {
		p = s + 7;
	} else {
		return false;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	strtol(p, &end, 10);
	p = end;
	if (*p == ' ')
		p++;
	if (*p == '-' && p[1] == ' ')
		p += 2;
	hash = strstr(p, " #");
	if (!hash && *p == '#')
		hash = p - 1;
	l->kind = LINE_RESULT;
	if (hash) {
		l->name = trimmed(p, hash > p ? (size_t)(hash - p) : 0);
		l->directive = trimmed(hash + 2, strlen(hash + 2));
	} else {
		l->name = trimmed(p, strlen(p));
	}
	return true;
}

static bool is_skip(const char *directive)
{
	return directive && !strncasecmp(directive, "SKIP", 4);
}

static void add_test(struct ktap_test **tests, int *nr, struct ktap_test *t)
{
	*tests = xrealloc(*tests, (*nr + 1) * sizeof(**tests));
	(*tests)[(*nr)++] = *t;
}

static void free_tests(struct ktap_test *tests, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(tests[i].name);
		free(tests[i].directive);
		free_tests(tests[i].subtests, tests[i].nr_subtests);
	}
	free(tests);
}

/*
 * Parse the results at exactly @indent until a shallower line or the end.
 * Deeper blocks are parsed recursively and handed to the next result.
 * @top is true for column zero, where a version line starts a new document.
 */
/* One block of KTAP being read: a document, or a subtest's lines. */
struct block {
	struct ktap_test **out;
	int *nr_out;
	struct ktap_test *pending;	/* the subtests read for the next result */
	int nr_pending;
	int plan, nr_results;
	char *subtest_name;		/* "# Subtest: NAME" of the pending ones */
	const char *where;		/* "document" or "subtest block" */
};

/* A result for @b's pending subtests, whose parent never reported one. */
static void add_crashed_parent(struct block *b, const char *directive)
{
	struct ktap_test t = {
		.name = xstrdup(b->subtest_name ? b->subtest_name : "(unnamed)"),
		.status = KTAP_CRASHED,
		.directive = directive ? xstrdup(directive) : NULL,
		.subtests = b->pending,
		.nr_subtests = b->nr_pending,
	};

	add_test(b->out, b->nr_out, &t);
	b->nr_results++;
	b->pending = NULL;
	b->nr_pending = 0;
}

static void add_result(struct block *b, const struct line *l)
{
	struct ktap_test t = {
		.name = xstrdup(l->name),
		.status = l->ok ? KTAP_PASS : KTAP_FAIL,
		.directive = l->directive ? xstrdup(l->directive) : NULL,
		.subtests = b->pending,
		.nr_subtests = b->nr_pending,
	};

	if (is_skip(l->directive))
		t.status = KTAP_SKIP;
	for (int i = 0; i < b->nr_pending; i++)
		if (b->pending[i].status == KTAP_CRASHED)
			t.status = KTAP_CRASHED;
	add_test(b->out, b->nr_out, &t);
	b->nr_results++;
	b->pending = NULL;
	b->nr_pending = 0;
	free(b->subtest_name);
	b->subtest_name = NULL;
}

/* A version line at the top: a new document closes the current one. */
static void start_document(struct cursor *c, struct block *b)
{
	if (b->nr_results || b->plan >= 0) {
		if (b->plan >= 0 && b->plan != b->nr_results)
			note_error(c->res, "plan 1..%d but %d results in a %s",
				   b->plan, b->nr_results, b->where);
		c->res->nr_documents++;
		b->plan = -1;
		b->nr_results = 0;
	} else if (!c->res->nr_documents) {
		c->res->nr_documents = 1;
	}
}

/* The block's end: what is still pending, and the plan's missing results. */
static void end_block(struct cursor *c, struct block *b, bool top)
{
	if (b->nr_pending) {
		/* Output stopped inside a subtest: its parent never reported. */
		note_error(c->res, "output cut off inside subtest '%s'",
			   b->subtest_name ? b->subtest_name : "(unnamed)");
		add_crashed_parent(b, "no result line: output cut off");
	} else if (b->subtest_name && top) {
		note_error(c->res, "output cut off in subtest '%s'", b->subtest_name);
	}
	if (b->plan >= 0 && b->plan != b->nr_results) {
		note_error(c->res, "plan 1..%d but %d results in a %s", b->plan,
			   b->nr_results, b->where);
		/* Account for every planned test that never reported. */
		for (int i = b->nr_results; i < b->plan; i++) {
			struct ktap_test t = {
				.name = xasprintf("(missing result %d)", i + 1),
				.status = KTAP_CRASHED,
			};
			add_test(b->out, b->nr_out, &t);
		}
	}
	free(b->subtest_name);
}

static void parse_block(struct cursor *c, int indent, bool top,
			struct ktap_test **out, int *nr_out, char **block_name)
{
	struct block b = {
		.out = out, .nr_out = nr_out, .plan = -1,
		.where = top ? "document" : "subtest block",
	};

	while (c->pos < c->nr) {
		struct line *l = &c->lines[c->pos];

		if (l->indent < indent)
			break;
		if (l->indent > indent) {
			if (b.nr_pending) {
				/* Two blocks in a row: the first lost its result. */
				note_error(c->res, "subtest block without a result line");
				add_crashed_parent(&b, NULL);
			}
			/* KUnit names the parent inside the block. */
			parse_block(c, l->indent, false, &b.pending, &b.nr_pending,
				    b.subtest_name ? NULL : &b.subtest_name);
			continue;
		}
		c->pos++;
		switch (l->kind) {
		case LINE_VERSION:
			if (top)
				start_document(c, &b);
			break;
		case LINE_PLAN:
			b.plan = l->plan;
			break;
		case LINE_SUBTEST:
			if (block_name && !*block_name && !b.nr_results) {
				*block_name = xstrdup(l->name);
				break;
			}
			free(b.subtest_name);
			b.subtest_name = xstrdup(l->name);
			break;
		case LINE_RESULT:
			add_result(&b, l);
			break;
		}
	}
	end_block(c, &b, top);
}

void ktap_parse(const char *text, struct ktap_result *res)
{
	struct cursor c = { .res = res };
	const char *p = text, *nl;
	int cap = 0;

	memset(res, 0, sizeof(*res));
	while (*p) {
		char *raw;
		struct line l;

		nl = strchr(p, '\n');
		raw = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
		raw[strcspn(raw, "\r")] = '\0';
		if (classify(raw, &l)) {
			if (c.nr == cap) {
				cap = cap ? 2 * cap : 64;
				c.lines = xrealloc(c.lines, cap * sizeof(*c.lines));
			}
			c.lines[c.nr++] = l;
		}
		free(raw);
		if (!nl)
			break;
		p = nl + 1;
	}

	/* Indented blocks become subtests of the next column-zero result. */
	parse_block(&c, 0, true, &res->tests, &res->nr_tests, NULL);

	for (int i = 0; i < c.nr; i++) {
		free(c.lines[i].name);
		free(c.lines[i].directive);
	}
	free(c.lines);
}

void ktap_free(struct ktap_result *res)
{
	free_tests(res->tests, res->nr_tests);
	free(res->first_error);
	memset(res, 0, sizeof(*res));
}

static void count_tests(const struct ktap_test *tests, int nr,
			struct ktap_counts *counts)
{
	for (int i = 0; i < nr; i++) {
		const struct ktap_test *t = &tests[i];

		if (t->nr_subtests && t->status != KTAP_SKIP) {
			count_tests(t->subtests, t->nr_subtests, counts);
			/* A parent that failed on its own still counts once. */
			if (t->status == KTAP_FAIL) {
				bool child_failed = false;

				for (int j = 0; j < t->nr_subtests; j++)
					child_failed |= t->subtests[j].status != KTAP_PASS &&
							t->subtests[j].status != KTAP_SKIP;
				if (!child_failed)
					counts->failed++;
			}
			continue;
		}
		switch (t->status) {
		case KTAP_PASS:
			counts->passed++;
			break;
		case KTAP_FAIL:
			counts->failed++;
			break;
		case KTAP_SKIP:
			counts->skipped++;
			break;
		case KTAP_CRASHED:
			counts->crashed++;
			break;
		}
	}
}

void ktap_count(const struct ktap_result *res, struct ktap_counts *counts)
{
	memset(counts, 0, sizeof(*counts));
	count_tests(res->tests, res->nr_tests, counts);
}

const char *ktap_status_name(enum ktap_status status)
{
	static const char *const names[] = {
		[KTAP_PASS] = "PASS",
		[KTAP_FAIL] = "FAIL",
		[KTAP_SKIP] = "SKIP",
		[KTAP_CRASHED] = "CRASHED",
	};

	return names[status];
}
