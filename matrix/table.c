// SPDX-License-Identifier: GPL-2.0
/*
 * The run on the terminal: suites down, columns across, then one row per
 * barrier and version, the reasons, and the calibration figures.  Only
 * formats.
 */
#define _GNU_SOURCE
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "suites.h"
#include "util.h"

char *report_column_summary(const struct target_result *tr)
{
	int count[CELL_NR_STATUSES] = { 0 };
	char *out;

	if (tr->unavailable)
		return xstrdup(tr->unavailable);
	if (!tr->build_ok)
		return xstrdup("build failed");
	out = xstrdup("done:");
	for (int i = 0; i < tr->console.nr_suites; i++)
		count[tr->console.suites[i].status]++;
	for (int s = 0; s < CELL_NR_STATUSES; s++)
		if (count[s])
			xappendf(&out, " %d %s", count[s], cell_status_name(s));
	return out;
}

static void format_cell(const struct suite_result *s, char *cell, size_t len)
{
	const struct ktap_counts *k = &s->counts;
	int total = k->passed + k->failed + k->crashed + k->skipped;

	if (total)
		snprintf(cell, len, "%s %d/%d", cell_status_name(s->status),
			 k->passed, total);
	else
		snprintf(cell, len, "%s", cell_status_name(s->status));
}

/* SGR colours of the table on a terminal: set by report_print_table(). */
static bool colour;

/* Each status in its shade's colour (status.c). */
static void put_cell(FILE *out, const char *text, int status)
{
	const char *sgr = !colour || status < 0 ? NULL :
			  kwm_shade_sgr[cell_status_info(status)->shade];

	if (sgr)
		fprintf(out, " \033[%sm%-16s\033[0m", sgr, text);
	else
		fprintf(out, " %-16s", text);
}

/*
 * Suites down, kernels across: a suite that does not run on a kernel
 * shows "-".
 */
static bool print_cells(const struct run *run, FILE *out)
{
	bool all_pass = run->complete;
	int width = 24;

	/* The suites' names fit, however long. */
	for (int i = 0; i < run->nr_suites; i++)
		if ((int)strlen(run->suites[i]) + 1 > width)
			width = strlen(run->suites[i]) + 1;

	fprintf(out, "\n%-*s", width, "");
	for (int t = 0; t < run->nr_targets; t++)
		fprintf(out, " %-16s", run->targets[t].build.name);
	fprintf(out, "\n%-*s", width, "build");
	for (int t = 0; t < run->nr_targets; t++) {
		const struct target_result *tr = &run->targets[t];

		put_cell(out, tr->unavailable ? "n/a" : !tr->build_ok ? "ERROR" :
			 tr->build.up_to_date ? "cached" : "built",
			 tr->unavailable ? CELL_UNOBSERVABLE : tr->build_ok ? CELL_PASS :
			 CELL_ERROR);
	}
	fprintf(out, "\n%-*s", width, "boot");
	for (int t = 0; t < run->nr_targets; t++) {
		const struct guest *g = &run->targets[t].guest;
		char boot[24] = "-";

		/* How it booted says how far its timings and rates carry. */
		if (g->first_ktap)
			snprintf(boot, sizeof(boot), "%.1fs %s", g->first_ktap,
				 g->accel ? g->accel : "");
		fprintf(out, " %-16s", boot);
	}
	fputc('\n', out);
	for (int i = 0; i < run->nr_suites; i++) {
		bool anywhere = false;

		for (int t = 0; t < run->nr_targets; t++)
			anywhere |= report_find_cell(&run->targets[t], run->suites[i]) != NULL;
		/* Asked for, but on none of these kernels. */
		if (!anywhere)
			continue;
		fprintf(out, "%-*s", width, run->suites[i]);
		for (int t = 0; t < run->nr_targets; t++) {
			const struct suite_result *s = report_find_cell(&run->targets[t],
								 run->suites[i]);
			char cell[64] = "-";

			if (s) {
				format_cell(s, cell, sizeof(cell));
				all_pass &= cell_status_ok(s->status);
			}
			put_cell(out, cell, s ? (int)s->status : -1);
		}
		fputc('\n', out);
	}
	return all_pass;
}

/*
 * Each barrier of each version: its verdict, the model without it, and
 * the evidence.  False if a verdict is a CONTRADICTION: that is red.
 */
static bool print_verdicts(const struct run *run, FILE *out)
{
	bool ok = true;

	if (run->nr_verdicts)
		fprintf(out, "\n%-10s %-7s %-14s %s\n", "barrier", "version",
			"verdict", "memory model without it; evidence");
	for (int i = 0; i < run->nr_verdicts; i++) {
		const struct barrier_verdict *v = &run->verdicts[i];
		const char *sgr = kwm_shade_sgr[kwm_verdict_kinds[v->kind].shade];

		ok &= v->kind != VERDICT_CONTRADICTION;
		fprintf(out, "%-10s %-7s ", v->barrier, v->version);
		if (colour)
			fprintf(out, "\033[%sm%-14s\033[0m", sgr, verdict_kind_name(v->kind));
		else
			fprintf(out, "%-14s", verdict_kind_name(v->kind));
		fprintf(out, " %s; %s\n", v->model, v->evidence);
	}
	return ok;
}

bool report_print_table(const struct run *run, FILE *out)
{
	bool all_pass;

	colour = ansi_terminal(out);
	all_pass = print_cells(run, out);

	all_pass &= print_verdicts(run, out);
	fputc('\n', out);
	for (int t = 0; t < run->nr_targets; t++) {
		const struct target_result *tr = &run->targets[t];

		for (int i = 0; i < tr->console.nr_suites; i++) {
			const struct suite_result *s = &tr->console.suites[i];

			if (s->status != CELL_PASS || s->report.count)
				fprintf(out, "  %s/%s: %s: %s\n", tr->build.name,
					s->name, cell_status_name(s->status),
					s->reason ? s->reason : "");
			if (s->stats && !suite_find(s->name)->mutant_of)
				fprintf(out, "  %s/%s: %s\n", tr->build.name,
					s->name, s->stats);
		}
	}
	for (int t = 0; t < run->nr_targets; t++)
		if (run->targets[t].guest.runner_note)
			fprintf(out, "  %s: %s\n", run->targets[t].build.name,
				run->targets[t].guest.runner_note);
	for (int t = 0; t < run->nr_targets; t++) {
		const struct target_result *tr = &run->targets[t];

		if (!tr->nr_rates)
			continue;
		fprintf(out, "  %s calibration, weak outcomes per million:", tr->target->name);
		for (int i = 0; i < tr->nr_rates; i++)
			fprintf(out, " %s=%.2f%s", tr->rates[i].shape,
				shape_rate_per_million(&tr->rates[i]),
				tr->rates[i].forbidden ? "(forbidden)" : "");
		fputc('\n', out);
	}
	report_print_litmus(run, out);
	fprintf(out, "\nresults: %s/matrix.json%s\n", run->dir,
		run->complete ? "" : " (incomplete: the run was interrupted)");
	return all_pass;
}

/*
 * The first answer: a column's cells as soon as its guest ends, and the
 * verdicts its evidence (with the models') decides so far and that were
 * not said before (@said, per verdict: the kind last printed, or -1);
 * those still NOT DECIDED wait for the other columns and the table.
 */
void report_print_column(const struct run *run, const struct target_result *tr,
			 int *said, FILE *out)
{
	char *summary = report_column_summary(tr);

	fprintf(out, "\n%s, as its guest ended (%s; the full table follows when every column has):\n",
		tr->build.name, summary);
	free(summary);
	for (int i = 0; i < tr->console.nr_suites; i++) {
		const struct suite_result *s = &tr->console.suites[i];

		fprintf(out, "  %-34s %-12s %s\n", s->name, cell_status_name(s->status),
			s->reason ? s->reason : "");
	}
	for (int i = 0; i < run->nr_verdicts; i++) {
		const struct barrier_verdict *v = &run->verdicts[i];

		if (v->kind == VERDICT_NOT_DECIDED || said[i] == (int)v->kind)
			continue;
		said[i] = v->kind;
		fprintf(out, "  verdict so far: %-9s %-6s %-13s %s\n", v->barrier,
			v->version, verdict_kind_name(v->kind), v->evidence);
	}
	fflush(out);
}
