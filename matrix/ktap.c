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
static void parse_block(struct cursor *c, int indent, bool top,
			struct ktap_test **out, int *nr_out, char **block_name)
{
	struct ktap_test *pending = NULL;
	int nr_pending = 0, plan = -1, nr_results = 0;
	char *subtest_name = NULL;
	const char *where = top ? "document" : "subtest block";

	while (c->pos < c->nr) {
		struct line *l = &c->lines[c->pos];

		if (l->indent < indent)
			break;
		if (l->indent > indent) {
			if (nr_pending) {
				/* Two blocks in a row: the first lost its result. */
				note_error(c->res, "subtest block without a result line");
				struct ktap_test t = {
					.name = xstrdup(subtest_name ? subtest_name : "(unnamed)"),
					.status = KTAP_CRASHED,
					.subtests = pending,
					.nr_subtests = nr_pending,
				};
				add_test(out, nr_out, &t);
				nr_results++;
				pending = NULL;
				nr_pending = 0;
			}
			/* KUnit names the parent inside the block. */
			parse_block(c, l->indent, false, &pending, &nr_pending,
				    subtest_name ? NULL : &subtest_name);
			continue;
		}
		c->pos++;
		switch (l->kind) {
		case LINE_VERSION:
			if (top && (nr_results || plan >= 0)) {
				/* A new document: close the current one. */
				if (plan >= 0 && plan != nr_results)
					note_error(c->res, "plan 1..%d but %d results in a %s",
						   plan, nr_results, where);
				c->res->nr_documents++;
				plan = -1;
				nr_results = 0;
			} else if (top && !c->res->nr_documents) {
				c->res->nr_documents = 1;
			}
			break;
		case LINE_PLAN:
			plan = l->plan;
			break;
		case LINE_SUBTEST:
			if (block_name && !*block_name && !nr_results) {
				*block_name = xstrdup(l->name);
				break;
			}
			free(subtest_name);
			subtest_name = xstrdup(l->name);
			break;
		case LINE_RESULT: {
			struct ktap_test t = {
				.name = xstrdup(l->name),
				.status = l->ok ? KTAP_PASS : KTAP_FAIL,
				.directive = l->directive ? xstrdup(l->directive) : NULL,
				.subtests = pending,
				.nr_subtests = nr_pending,
			};

			if (is_skip(l->directive))
				t.status = KTAP_SKIP;
			for (int i = 0; i < nr_pending; i++)
				if (pending[i].status == KTAP_CRASHED)
					t.status = KTAP_CRASHED;
			add_test(out, nr_out, &t);
			nr_results++;
			pending = NULL;
			nr_pending = 0;
			free(subtest_name);
			subtest_name = NULL;
			break;
		}
		}
	}

	if (nr_pending) {
		/* Output stopped inside a subtest: its parent never reported. */
		note_error(c->res, "output cut off inside subtest '%s'",
			   subtest_name ? subtest_name : "(unnamed)");
		struct ktap_test t = {
			.name = xstrdup(subtest_name ? subtest_name : "(unnamed)"),
			.status = KTAP_CRASHED,
			.directive = xstrdup("no result line: output cut off"),
			.subtests = pending,
			.nr_subtests = nr_pending,
		};
		add_test(out, nr_out, &t);
		nr_results++;
	} else if (subtest_name && top) {
		note_error(c->res, "output cut off in subtest '%s'", subtest_name);
	}
	if (plan >= 0 && plan != nr_results) {
		note_error(c->res, "plan 1..%d but %d results in a %s", plan,
			   nr_results, where);
		/* Account for every planned test that never reported. */
		for (int i = nr_results; i < plan; i++) {
			struct ktap_test t = {
				.name = xasprintf("(missing result %d)", i + 1),
				.status = KTAP_CRASHED,
			};
			add_test(out, nr_out, &t);
		}
	}
	free(subtest_name);
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
