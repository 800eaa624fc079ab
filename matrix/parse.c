// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "kwm_protocol.h"


/* Find a marker line "MARK<name>" at the start of a line; NULL if none. */
static const char *find_marker(const char *text, const char *mark,
			       const char *name)
{
	size_t mlen = strlen(mark), nlen = name ? strlen(name) : 0;
	const char *p = text;

	while (p && *p) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, mark, mlen) &&
		    (!name || ((size_t)(nl - p) >= mlen + nlen &&
			       !strncmp(p + mlen, name, nlen) &&
			       (p + mlen + nlen == nl || p[mlen + nlen] == '\r'))))
			return p;
		p = *nl ? nl + 1 : NULL;
	}
	return NULL;
}

static int line_of(const char *text, const char *at)
{
	int line = 1;

	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return line;
}

/* Parsing only uses PASS, SKIP, WARN, FAIL, CRASHED and TIMEOUT: in order. */
static void set_status(struct suite_result *s, enum cell_status status,
		       char *reason)
{
	if (status < s->status && s->status != CELL_PASS) {
		free(reason);
		return;
	}
	if (status == s->status && s->reason) {
		free(reason);
		return;
	}
	s->status = status;
	free(s->reason);
	s->reason = reason;
}

/*
 * The rest of the line of @region that holds @marker, from after @skip (a
 * prefix of it), without the console's "\r"; NULL if none does.
 */
static char *marker_text(const char *region, const char *marker, const char *skip)
{
	const char *at = strstr(region, marker);

	if (!at)
		return NULL;
	at += strlen(skip);
	return strndup(at, strcspn(at, "\r\n"));
}

static void judge_region(struct suite_result *s, const char *log,
			 const char *begin, const char *end)
{
	char *region = strndup(begin, end - begin);
	struct console_event ev;
	enum console_severity sev;

	ktap_parse(region, &s->ktap);
	ktap_count(&s->ktap, &s->counts);
	s->stats = marker_text(region, KWM_TORTURE_FIGURES, KWM_TORTURE_STATS);
	s->steering = marker_text(region, KWM_STEERING_FIGURES, KWM_STEERING);
	s->not_run = marker_text(region, KWM_MARK_NOT_RUN, KWM_MARK_NOT_RUN);

	/* The subject's and the tests' reports fail the cell. */
	if (sanitizer_scan(region, &s->report)) {
		char *why = xasprintf("%s (in %s; %d reports)", s->report.title,
				      report_origin_name(s->report.origin),
				      s->report.count);

		/* The rest of the kernel's races are shown, not held against the cell. */
		if (s->report.origin == ORIGIN_KERNEL)
			s->reason = why;
		else
			set_status(s, CELL_FAIL, why);
		s->excerpt = xstrdup(s->report.excerpt);
	}
	sev = console_scan(region, &ev);
	if (sev != CONSOLE_CLEAN) {
		set_status(s, sev == CONSOLE_CRASH ? CELL_CRASHED : CELL_WARN,
			   xasprintf("console: \"%s\" at line %d", ev.what,
				     line_of(log, begin) + ev.line - 1));
		free(s->excerpt);
		s->excerpt = ev.excerpt;
	}
	if (s->ktap.nr_errors)
		set_status(s, CELL_CRASHED, xasprintf("KTAP: %s (%d problems)",
						      s->ktap.first_error,
						      s->ktap.nr_errors));
	else if (!s->ktap.nr_tests && !s->not_run)
		set_status(s, CELL_CRASHED, xstrdup("no KTAP results"));
	if (s->counts.crashed)
		set_status(s, CELL_CRASHED,
			   xasprintf("%d tests did not report", s->counts.crashed));
	if (s->counts.failed)
		set_status(s, CELL_FAIL,
			   xasprintf("%d tests failed", s->counts.failed));
	if (s->status == CELL_PASS && s->counts.skipped && !s->counts.passed)
		set_status(s, CELL_SKIP, xstrdup("every test skipped"));
	free(region);
}

/* The seconds the guest says suite @name took, after @end; -1 if none. */
static double suite_seconds(const char *end, const char *name)
{
	char *prefix = xasprintf(KWM_MARK_SUITE_SECONDS "%s ", name);
	const char *p = strstr(end, prefix);
	double seconds = -1;

	if (p && (p == end || p[-1] == '\n') &&
	    sscanf(p + strlen(prefix), "%lf", &seconds) != 1)
		seconds = -1;
	free(prefix);
	return seconds;
}

/* Suite @name's piece of @log, judged; where it starts, or NULL. */
static const char *parse_suite(struct suite_result *s, const char *log,
			       const char *name, const struct guest_outcome *outcome)
{
	const char *begin = find_marker(log, KWM_MARK_SUITE, name);
	const char *end = begin ? find_marker(begin, KWM_MARK_SUITE_END, name) : NULL;

	s->name = xstrdup(name);
	s->status = CELL_PASS;
	s->started = begin != NULL;
	s->ended = end != NULL;
	s->seconds = end ? suite_seconds(end, name) : -1;
	if (!begin)
		return NULL;
	judge_region(s, log, begin, end ? end : log + strlen(log));
	if (!end && outcome->interrupted)
		set_status(s, CELL_ERROR, xstrdup("run interrupted during this suite"));
	else if (!end)
		set_status(s, outcome->timed_out ? CELL_TIMEOUT : CELL_CRASHED,
			   xstrdup(outcome->timed_out ?
				   "guest killed at its time bound during this suite" :
				   "guest stopped during this suite"));
	return begin;
}

/* Why suite @s never started: what the console shows before the first one. */
static void judge_unstarted(struct suite_result *s, const struct console_result *res,
			    const struct console_event *boot_ev,
			    const struct guest_outcome *outcome)
{
	if (outcome->interrupted)
		set_status(s, CELL_ERROR, xstrdup("run interrupted before this suite"));
	else if (outcome->timed_out)
		set_status(s, CELL_TIMEOUT,
			   xstrdup("guest killed at its time bound before this suite"));
	else if (boot_ev->severity == CONSOLE_CRASH)
		set_status(s, CELL_CRASHED,
			   xasprintf("guest crashed before this suite: \"%s\"",
				     boot_ev->what));
	else if (!res->init_started)
		set_status(s, CELL_CRASHED,
			   xstrdup("guest stopped before its init ran"));
	else if (res->done)
		set_status(s, CELL_ERROR,
			   xstrdup("guest init did not run this suite"));
	else
		set_status(s, CELL_CRASHED,
			   xstrdup("guest stopped before this suite"));
	if (boot_ev->excerpt && !s->excerpt)
		s->excerpt = xstrdup(boot_ev->excerpt);
}

void parse_console(const char *log, const char *const *suites, int nr_suites,
		   const struct guest_outcome *outcome,
		   struct console_result *res)
{
	const char *first_suite = NULL;
	struct console_event boot_ev;
	char *before;

	memset(res, 0, sizeof(*res));
	res->init_started = find_marker(log, KWM_MARK_INIT, NULL) != NULL;
	res->done = find_marker(log, KWM_MARK_DONE, NULL) != NULL;
	res->suites = xcalloc(nr_suites, sizeof(*res->suites));
	res->nr_suites = nr_suites;

	for (int i = 0; i < nr_suites; i++) {
		const char *begin = parse_suite(&res->suites[i], log, suites[i], outcome);

		if (begin && (!first_suite || begin < first_suite))
			first_suite = begin;
	}

	/* Whatever went wrong before the first suite explains the rest. */
	before = strndup(log, first_suite ? (size_t)(first_suite - log) :
			       strlen(log));
	console_scan(before, &boot_ev);
	free(before);
	for (int i = 0; i < nr_suites; i++)
		if (!res->suites[i].started)
			judge_unstarted(&res->suites[i], res, &boot_ev, outcome);
	free(boot_ev.excerpt);
}

void console_result_free(struct console_result *res)
{
	for (int i = 0; i < res->nr_suites; i++) {
		free(res->suites[i].name);
		free(res->suites[i].reason);
		free(res->suites[i].excerpt);
		free(res->suites[i].stats);
		free(res->suites[i].steering);
		free(res->suites[i].not_run);
		sanitizer_report_free(&res->suites[i].report);
		ktap_free(&res->suites[i].ktap);
	}
	free(res->suites);
	memset(res, 0, sizeof(*res));
}

const char *const litmus_side_names[LITMUS_SIDES] = { "native", "emulated" };

/* The first line of @log that is @mark then @name, whole; NULL if none. */
static const char *marker_line(const char *log, const char *mark, const char *name)
{
	for (const char *p = log; (p = strstr(p, mark)); p++) {
		const char *n = p + strlen(mark);

		/* A console may end its lines with "\r\n". */
		if (!strncmp(n, name, strlen(name)) && strchr("\r\n", n[strlen(name)]))
			return p;
	}
	return NULL;
}

/* @name's section of @log: from its start marker to its end, or NULL. */
static const char *suite_section(const char *log, const char *name, size_t *len)
{
	const char *p = marker_line(log, KWM_MARK_SUITE, name), *q;

	if (p) {
		p += strcspn(p, "\n");
		q = marker_line(p, KWM_MARK_SUITE_END, name);
		*len = q ? (size_t)(q - p) : strlen(p);
	}
	return p;
}

static struct litmus_row *litmus_row_of(struct litmus_row **rows, int *nr,
					const char *test, const char *result)
{
	for (int i = 0; i < *nr; i++)
		if (!strcmp((*rows)[i].test, test))
			return &(*rows)[i];
	*rows = xrealloc(*rows, (*nr + 1) * sizeof(**rows));
	memset(&(*rows)[*nr], 0, sizeof(**rows));
	(*rows)[*nr].test = xstrdup(test);
	(*rows)[*nr].result = xstrdup(result);
	return &(*rows)[(*nr)++];
}

int parse_litmus(const char *log, const char *suite, struct litmus_row **rows, int nr)
{
	size_t len = 0;
	const char *p = suite_section(log, suite, &len), *end = p ? p + len : NULL;

	while (p && (p = strstr(p, KWM_LITMUS_FIGURES)) && p < end) {
		char mode[16], test[256], result[32];
		struct litmus_side s = { .seen = true };
		const char *skip, *brief, *nl = strchrnul(p, '\n');
		int side;

		if (sscanf(p, KWM_LITMUS_FIGURES "mode=%15s test=%255s result=%31s runs=%lu weak=%lu ms=%u",
			   mode, test, result, &s.runs, &s.weak, &s.ms) == 6) {
			for (side = 0; side < LITMUS_SIDES && strcmp(mode, litmus_side_names[side]); side++)
				;
			skip = strstr(p, " skip=");
			if (skip && skip < nl)
				s.skip = strndup(skip + 6, nl - skip - 6);
			brief = strstr(p, " brief=1");
			s.brief = brief && brief < nl;
			if (side < LITMUS_SIDES) {
				struct litmus_row *r = litmus_row_of(rows, &nr, test, result);

				free(r->side[side].skip);
				r->side[side] = s;
			} else {
				free(s.skip);
			}
		}
		p = nl;
	}
	return nr;
}

void litmus_rows_free(struct litmus_row *rows, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(rows[i].test);
		free(rows[i].result);
		for (int s = 0; s < LITMUS_SIDES; s++)
			free(rows[i].side[s].skip);
	}
	free(rows);
}

int parse_calibration(const char *log, struct shape_rate **rates)
{
	const char *p = log;
	int nr = 0;

	*rates = NULL;
	while ((p = strstr(p, KWM_CALIBRATION_SHAPE))) {
		char shape[64];
		int forbidden;
		struct shape_rate r;

		if (sscanf(p, KWM_CALIBRATION_SHAPE "%63s forbidden=%d runs=%lu weak=%lu per_million=%lu",
			   shape, &forbidden, &r.runs, &r.weak, &r.per_million) == 5) {
			r.shape = xstrdup(shape);
			r.forbidden = forbidden;
			*rates = xrealloc(*rates, (nr + 1) * sizeof(**rates));
			(*rates)[nr++] = r;
		}
		p++;
	}
	return nr;
}

double shape_rate_per_million(const struct shape_rate *r)
{
	return r->runs ? r->weak * 1e6 / r->runs : 0;
}

void shape_rates_free(struct shape_rate *rates, int nr)
{
	for (int i = 0; i < nr; i++)
		free(rates[i].shape);
	free(rates);
}
