// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "sanitizer.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Stack frames name their module in brackets: "kw_worker_fn+0x1c/0x90 [kw_worker]". */
static const char *const subject_modules[] = { "[kw_worker]" };
static const char *const test_modules[] = {
	"[kw_worker_torture]", "[kw_worker_kunit]", "[kw_calibrate]",
};

#define REPORT_MAX_LINES	80

static const struct oracle *report_oracle(const char *p, size_t len)
{
	for (int i = 0; i < kwm_nr_oracles; i++) {
		const char *hit = memmem(p, len, kwm_oracles[i].report,
					 strlen(kwm_oracles[i].report));

		if (hit)
			return &kwm_oracles[i];
	}
	return NULL;
}

bool sanitizer_is_report(const char *p, size_t len)
{
	return report_oracle(p, len) != NULL;
}

static bool any_of(const char *text, size_t len, const char *const *names,
		   size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memmem(text, len, names[i], strlen(names[i])))
			return true;
	return false;
}

static enum report_origin origin_of(const char *text, size_t len)
{
	if (any_of(text, len, subject_modules,
		   sizeof(subject_modules) / sizeof(subject_modules[0])))
		return ORIGIN_SUBJECT;
	if (any_of(text, len, test_modules,
		   sizeof(test_modules) / sizeof(test_modules[0])))
		return ORIGIN_TEST;
	return ORIGIN_KERNEL;
}

/*
 * KCSAN's title names both racing functions, module and all; the stacks
 * below it may run through anything an interrupt cut into.  KASAN's title
 * names where the bad access was made, often a helper: its access stack,
 * down to the allocation and free stacks, says who called it.
 */
static enum report_origin attribute(const struct oracle *o, const char *start)
{
	const char *p = strchrnul(start, '\n'), *end = p;
	enum report_origin origin = origin_of(start, p - start);

	if (origin != ORIGIN_KERNEL || !o->blame_stack)
		return origin;
	for (int n = 0; *p && n < REPORT_MAX_LINES; n++) {
		const char *line = p + 1, *nl = strchrnul(line, '\n');

		if (memmem(line, nl - line, "Allocated by task", 17) ||
		    memmem(line, nl - line, "=====", 5))
			break;
		end = p = nl;
		if (!*p)
			break;
	}
	return origin_of(start, end - start);
}

int sanitizer_scan(const char *text, struct sanitizer_report *first)
{
	int count = 0, line = 1;

	memset(first, 0, sizeof(*first));
	for (const char *p = text; *p; line++) {
		const char *nl = strchrnul(p, '\n');
		const struct oracle *o = report_oracle(p, nl - p);

		if (o) {
			enum report_origin origin = attribute(o, p);
			const char *title = memmem(p, nl - p, o->report, strlen(o->report));

			count++;
			if (origin > first->origin) {
				free(first->title);
				first->oracle = o;
				/* "BUG: KCSAN: data-race in ..." without "BUG: " */
				first->title = strndup(title + 5, nl - title - 5);
				first->origin = origin;
				first->line = line;
			}
		}
		if (!*nl)
			break;
		p = nl + 1;
	}
	first->count = count;
	if (count)
		first->excerpt = text_excerpt(text, first->line, 2, 40);
	return count;
}

void sanitizer_report_free(struct sanitizer_report *r)
{
	free(r->title);
	free(r->excerpt);
	memset(r, 0, sizeof(*r));
}

const char *report_origin_name(enum report_origin origin)
{
	switch (origin) {
	case ORIGIN_SUBJECT:
		return "the subject";
	case ORIGIN_TEST:
		return "the test code";
	case ORIGIN_KERNEL:
		return "the rest of the kernel";
	default:
		return "nowhere";
	}
}
