// SPDX-License-Identifier: GPL-2.0
/*
 * The litmus row's own table on the terminal: each test, its Result:,
 * and per column its weak outcomes in its runs, natively | emulated;
 * then which "Sometimes" tests the emulated machine showed.  Only
 * formats.
 */
#define _GNU_SOURCE
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

bool litmus_side_forbidden(const struct litmus_row *r, int side)
{
	return r->side[side].weak && !strcmp(r->result, "Never");
}

/* "3/512", "-" where it was skipped, "" where it did not run. */
static void side_text(const struct litmus_side *s, char *out, size_t len)
{
	if (!s->seen)
		snprintf(out, len, "%s", "");
	else if (s->skip)
		snprintf(out, len, "%s", "skip");
	else
		snprintf(out, len, "%lu/%lu", s->weak, s->runs);
}

static const struct litmus_row *row_of(const struct target_result *tr,
				       const char *test)
{
	for (int i = 0; i < tr->nr_litmus; i++)
		if (!strcmp(tr->litmus[i].test, test))
			return &tr->litmus[i];
	return NULL;
}

/* The first column's tests, then any others' not in it. */
static void all_tests(const struct run *run, struct strlist *tests)
{
	for (int t = 0; t < run->nr_targets; t++)
		for (int i = 0; i < run->targets[t].nr_litmus; i++)
			if (!strlist_has(tests, run->targets[t].litmus[i].test))
				strlist_add(tests, run->targets[t].litmus[i].test);
}

static void print_shown(const struct run *run, const struct strlist *tests,
			FILE *out)
{
	struct strlist shown = { 0 }, unshown = { 0 };

	for (int i = 0; i < tests->n; i++) {
		bool sometimes = false, seen = false, ran = false;

		for (int t = 0; t < run->nr_targets; t++) {
			const struct litmus_row *r = row_of(&run->targets[t], tests->v[i]);
			const struct litmus_side *s = r ? &r->side[LITMUS_EMULATED] : NULL;

			sometimes |= r && !strcmp(r->result, "Sometimes");
			ran |= s && s->seen && !s->skip;
			seen |= s && s->weak;
		}
		if (sometimes && ran)
			strlist_add(seen ? &shown : &unshown, tests->v[i]);
	}
	fprintf(out, "  emulated, Sometimes shown (%d):", shown.n);
	for (int i = 0; i < shown.n; i++)
		fprintf(out, " %s", shown.v[i]);
	fprintf(out, "\n  emulated, Sometimes not shown (%d):", unshown.n);
	for (int i = 0; i < unshown.n; i++)
		fprintf(out, " %s", unshown.v[i]);
	fputc('\n', out);
	strlist_free(&shown);
	strlist_free(&unshown);
}

void report_print_litmus(const struct run *run, FILE *out)
{
	struct strlist tests = { 0 };
	int width = 4;

	all_tests(run, &tests);
	if (!tests.n)
		return;
	for (int i = 0; i < tests.n; i++)
		if ((int)strlen(tests.v[i]) > width)
			width = strlen(tests.v[i]);
	fprintf(out, "\nlitmus tests: weak outcomes/runs, native | emulated (\"skip\": see the cell's KTAP)\n");
	fprintf(out, "%-*s %-10s", width, "test", "Result:");
	for (int t = 0; t < run->nr_targets; t++)
		if (run->targets[t].nr_litmus)
			fprintf(out, " %-25s", run->targets[t].build.name);
	fputc('\n', out);
	for (int i = 0; i < tests.n; i++) {
		const char *result = "";

		for (int t = 0; t < run->nr_targets && !*result; t++)
			if (row_of(&run->targets[t], tests.v[i]))
				result = row_of(&run->targets[t], tests.v[i])->result;
		fprintf(out, "%-*s %-10s", width, tests.v[i], result);
		for (int t = 0; t < run->nr_targets; t++) {
			const struct litmus_row *r = row_of(&run->targets[t], tests.v[i]);
			char native[32] = "", emulated[32] = "", both[80];

			if (!run->targets[t].nr_litmus)
				continue;
			if (r) {
				side_text(&r->side[LITMUS_NATIVE], native, sizeof(native));
				side_text(&r->side[LITMUS_EMULATED], emulated, sizeof(emulated));
			}
			snprintf(both, sizeof(both), "%s | %s", native, emulated);
			fprintf(out, " %-25s", both);
		}
		fputc('\n', out);
	}
	print_shown(run, &tests, out);
	strlist_free(&tests);
}
