// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "html.h"

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "matrix_json.h"
#include "status.h"
#include "util.h"
#include "verdict.h"

static const char style[] =
	"body{font:14px sans-serif;margin:1.5em}"
	"table{border-collapse:collapse;margin:1em 0}"
	"td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
	"td a{color:inherit;text-decoration:none;display:block}"
	"pre{background:#f6f6f6;padding:.5em;overflow-x:auto;max-height:30em}"
	"svg text{font:11px sans-serif}";

/* A status or verdict as a class name: "NOT DECIDED" is "NOT_DECIDED". */
static char *class_of(const char *name)
{
	char *class = xstrdup(name);

	for (char *p = class; *p; p++)
		if (*p == ' ')
			*p = '_';
	return class;
}

/* The style sheet: each status and verdict in its shade (status.h). */
static char *style_sheet(void)
{
	char *css = xstrdup(style);

	for (int s = 0; s < CELL_NR_STATUSES; s++)
		xappendf(&css, ".%s{%s}", kwm_statuses[s].name,
			 kwm_shade_css[kwm_statuses[s].shade]);
	for (int k = 0; k < VERDICT_NR_KINDS; k++) {
		char *class = class_of(kwm_verdict_kinds[k].name);

		xappendf(&css, ".%s{%s}", class, kwm_shade_css[kwm_verdict_kinds[k].shade]);
		free(class);
	}
	return css;
}

static const char *column_of(json_object *tr)
{
	return mj_string(tr, "column") ? mj_string(tr, "column") : mj_string(tr, "target");
}

/* The element of @tr's array @array whose @key is @value, or NULL. */
static json_object *find_by(json_object *tr, const char *array, const char *key,
			    const char *value)
{
	json_object *rows = mj_member(tr, array);

	for (size_t i = 0; i < mj_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (mj_string(r, key) && !strcmp(mj_string(r, key), value))
			return r;
	}
	return NULL;
}

static json_object *find_cell(json_object *tr, const char *suite)
{
	return find_by(tr, "cells", "suite", suite);
}

/* The anchor of a cell's details: ids may hold no '+' or '/'. */
static char *cell_id(const char *column, const char *suite)
{
	char *id = xasprintf("cell-%s-%s", column, suite);

	for (char *p = id; *p; p++)
		if (*p == '+' || *p == '/')
			*p = '_';
	return id;
}

static xmlNodePtr add(xmlNodePtr parent, const char *tag, const char *text)
{
	return xmlNewTextChild(parent, NULL, BAD_CAST tag, BAD_CAST text);
}

static void set(xmlNodePtr node, const char *name, const char *value)
{
	xmlSetProp(node, BAD_CAST name, BAD_CAST value);
}

static void status_cell(xmlNodePtr row, json_object *cell, const char *column,
			const char *suite)
{
	xmlNodePtr td, a;
	char *id;

	if (!cell) {
		add(row, "td", "-");
		return;
	}
	td = add(row, "td", NULL);
	set(td, "class", mj_string(cell, "status"));
	if (mj_string(cell, "reason"))
		set(td, "title", mj_string(cell, "reason"));
	id = cell_id(column, suite);
	a = add(td, "a", mj_string(cell, "status"));
	{
		char *href = xasprintf("#%s", id);

		set(a, "href", href);
		free(href);
	}
	free(id);
}

/* Suites down, columns across. */
static void heat_map(xmlNodePtr body, json_object *m)
{
	json_object *targets = mj_member(m, "targets"), *suites = mj_member(m, "suites");
	xmlNodePtr table = add(body, "table", NULL), row;

	set(table, "id", "matrix");
	row = add(table, "tr", NULL);
	add(row, "th", "suite");
	for (size_t t = 0; t < mj_length(targets); t++)
		add(row, "th", column_of(json_object_array_get_idx(targets, t)));
	for (size_t s = 0; s < mj_length(suites); s++) {
		const char *suite = json_object_get_string(json_object_array_get_idx(suites, s));
		bool anywhere = false;

		for (size_t t = 0; t < mj_length(targets); t++)
			anywhere |= find_cell(json_object_array_get_idx(targets, t), suite) != NULL;
		/* Asked for, but on none of these kernels. */
		if (!anywhere)
			continue;
		row = add(table, "tr", NULL);
		add(row, "th", suite);
		for (size_t t = 0; t < mj_length(targets); t++) {
			json_object *tr = json_object_array_get_idx(targets, t);

			status_cell(row, find_cell(tr, suite), column_of(tr), suite);
		}
	}
}

static json_object *litmus_row(json_object *tr, const char *test)
{
	return find_by(tr, "litmus", "test", test);
}

/* "weak/runs" of one side, red where a Never test showed a weak outcome. */
static void litmus_side_cell(xmlNodePtr row, json_object *side)
{
	xmlNodePtr td;
	char *text;

	if (!side) {
		add(row, "td", "-");
		return;
	}
	if (mj_string(side, "skipped")) {
		td = add(row, "td", "skipped");
		set(td, "class", "SKIP");
		set(td, "title", mj_string(side, "skipped"));
		return;
	}
	text = xasprintf("%s/%s in %.1f s",
			 json_object_get_string(mj_member(side, "weak")),
			 json_object_get_string(mj_member(side, "runs")),
			 json_object_get_double(mj_member(side, "seconds")));
	td = add(row, "td", text);
	free(text);
	if (json_object_get_boolean(mj_member(side, "forbidden_seen")))
		set(td, "class", "FAIL");
}

/* Each litmus test down; per column, weak outcomes native and emulated. */
static void litmus_table(xmlNodePtr body, json_object *m)
{
	json_object *targets = mj_member(m, "targets");
	struct strlist tests = { 0 };
	xmlNodePtr table, row;

	for (size_t t = 0; t < mj_length(targets); t++) {
		json_object *rows = mj_member(json_object_array_get_idx(targets, t), "litmus");

		for (size_t i = 0; i < mj_length(rows); i++) {
			const char *test = mj_string(json_object_array_get_idx(rows, i), "test");

			if (test && !strlist_has(&tests, test))
				strlist_add(&tests, test);
		}
	}
	if (!tests.n)
		return;
	add(body, "h2", "Litmus tests: weak outcomes/runs, native and emulated");
	table = add(body, "table", NULL);
	set(table, "id", "litmus");
	row = add(table, "tr", NULL);
	add(row, "th", "test");
	add(row, "th", "Result:");
	for (size_t t = 0; t < mj_length(targets); t++) {
		char *head = xasprintf("%s native", column_of(json_object_array_get_idx(targets, t)));

		add(row, "th", head);
		free(head);
		head = xasprintf("%s emulated", column_of(json_object_array_get_idx(targets, t)));
		add(row, "th", head);
		free(head);
	}
	for (int i = 0; i < tests.n; i++) {
		const char *result = NULL;

		row = add(table, "tr", NULL);
		add(row, "th", tests.v[i]);
		for (size_t t = 0; t < mj_length(targets) && !result; t++) {
			json_object *r = litmus_row(json_object_array_get_idx(targets, t), tests.v[i]);

			result = r ? mj_string(r, "result") : NULL;
		}
		add(row, "td", result ? result : "");
		for (size_t t = 0; t < mj_length(targets); t++) {
			json_object *r = litmus_row(json_object_array_get_idx(targets, t), tests.v[i]);

			litmus_side_cell(row, r ? mj_member(r, "native") : NULL);
			litmus_side_cell(row, r ? mj_member(r, "emulated") : NULL);
		}
	}
	strlist_free(&tests);
}

/* One row per barrier and version: its verdict, the model, the evidence. */
static void barrier_verdicts(xmlNodePtr body, json_object *m)
{
	json_object *barriers = mj_member(m, "barriers");
	xmlNodePtr table, row, cell;

	if (!mj_length(barriers))
		return;
	add(body, "h2", "Barrier verdicts");
	table = add(body, "table", NULL);
	set(table, "id", "barriers");
	row = add(table, "tr", NULL);
	add(row, "th", "barrier");
	add(row, "th", "version");
	add(row, "th", "verdict");
	add(row, "th", "memory model without it");
	add(row, "th", "evidence");
	for (size_t b = 0; b < mj_length(barriers); b++) {
		json_object *o = json_object_array_get_idx(barriers, b);
		const char *verdict = mj_string(o, "verdict");

		row = add(table, "tr", NULL);
		add(row, "th", mj_string(o, "barrier"));
		add(row, "td", mj_string(o, "version"));
		cell = add(row, "td", verdict);
		if (verdict) {
			char *class = class_of(verdict);

			set(cell, "class", class);
			free(class);
		}
		add(row, "td", mj_string(o, "model"));
		add(row, "td", mj_string(o, "evidence"));
	}
}

/* A horizontal bar chart in SVG: one bar per label, log scale if asked. */
static void bar_chart(xmlNodePtr body, const char *id, const char *const *labels,
		      const double *values, int n, bool log_scale, const char *unit)
{
	double max = 0;
	int bar = 16, left = 260, width = 420;
	xmlNodePtr svg;
	char buf[64];

	for (int i = 0; i < n; i++) {
		double v = log_scale ? log10(1 + values[i]) : values[i];

		if (v > max)
			max = v;
	}
	svg = add(body, "svg", NULL);
	set(svg, "id", id);
	snprintf(buf, sizeof(buf), "%d", left + width + 120);
	set(svg, "width", buf);
	snprintf(buf, sizeof(buf), "%d", n * (bar + 4) + 4);
	set(svg, "height", buf);
	for (int i = 0; i < n; i++) {
		double v = log_scale ? log10(1 + values[i]) : values[i];
		int y = 4 + i * (bar + 4);
		xmlNodePtr node;

		node = add(svg, "text", labels[i]);
		snprintf(buf, sizeof(buf), "%d", y + bar - 4);
		set(node, "y", buf);
		set(node, "x", "0");
		node = add(svg, "rect", NULL);
		set(node, "x", "260");
		snprintf(buf, sizeof(buf), "%d", y);
		set(node, "y", buf);
		snprintf(buf, sizeof(buf), "%d", max > 0 ? (int)(v / max * width) : 0);
		set(node, "width", buf);
		snprintf(buf, sizeof(buf), "%d", bar);
		set(node, "height", buf);
		set(node, "fill", "#5c7cfa");
		snprintf(buf, sizeof(buf), "%.2f %s", values[i], unit);
		node = add(svg, "text", buf);
		snprintf(buf, sizeof(buf), "%d", left + (max > 0 ? (int)(v / max * width) : 0) + 6);
		set(node, "x", buf);
		snprintf(buf, sizeof(buf), "%d", y + bar - 4);
		set(node, "y", buf);
	}
}

struct bars {
	char **labels;
	double *values;
	int n;
};

static void bars_add(struct bars *b, char *label, double value)
{
	b->labels = xrealloc(b->labels, (b->n + 1) * sizeof(*b->labels));
	b->values = xrealloc(b->values, (b->n + 1) * sizeof(*b->values));
	b->labels[b->n] = label;
	b->values[b->n++] = value;
}

/* A heading and the chart, if there is anything to plot; then empty @b. */
static void bars_flush(xmlNodePtr body, struct bars *b, const char *heading,
		       const char *id, bool log_scale, const char *unit)
{
	if (b->n) {
		add(body, "h2", heading);
		bar_chart(body, id, (const char *const *)b->labels, b->values,
			  b->n, log_scale, unit);
	}
	for (int i = 0; i < b->n; i++)
		free(b->labels[i]);
	free(b->labels);
	free(b->values);
	memset(b, 0, sizeof(*b));
}

static void plots(xmlNodePtr body, json_object *m)
{
	json_object *targets = mj_member(m, "targets");
	struct bars b = { 0 };

	/* Calibration: weak outcomes per million, per shape and column. */
	for (size_t t = 0; t < mj_length(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *rates = mj_member(tr, "calibration");

		for (size_t i = 0; i < mj_length(rates); i++) {
			json_object *r = json_object_array_get_idx(rates, i);

			bars_add(&b, xasprintf("%s %s", column_of(tr), mj_string(r, "shape")),
				 json_object_get_double(mj_member(r, "per_million")));
		}
	}
	bars_flush(body, &b, "Calibration: weak outcomes per million (log scale)",
		   "calibration", true, "/M");
	/* Torture throughput of the subject, per column. */
	for (size_t t = 0; t < mj_length(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *cell = find_cell(tr, "torture");
		json_object *stats = cell ? mj_member(cell, "torture") : NULL;

		if (stats && mj_member(stats, "ops_per_sec"))
			bars_add(&b, xstrdup(column_of(tr)),
				 json_object_get_double(mj_member(stats, "ops_per_sec")));
	}
	bars_flush(body, &b, "Torture: operations per second", "throughput",
		   false, "ops/s");
}

/* Every cell's reason and console excerpt, where the heat-map links. */
static void details(xmlNodePtr body, json_object *m)
{
	json_object *targets = mj_member(m, "targets");

	add(body, "h2", "Cells");
	for (size_t t = 0; t < mj_length(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *cells = mj_member(tr, "cells");

		for (size_t c = 0; c < mj_length(cells); c++) {
			json_object *cell = json_object_array_get_idx(cells, c);
			char *id = cell_id(column_of(tr), mj_string(cell, "suite"));
			char *title = xasprintf("%s / %s: %s", column_of(tr),
						mj_string(cell, "suite"), mj_string(cell, "status"));
			xmlNodePtr d = add(body, "details", NULL);

			set(d, "id", id);
			add(d, "summary", title);
			if (mj_string(cell, "reason"))
				add(d, "p", mj_string(cell, "reason"));
			if (mj_string(cell, "excerpt"))
				add(d, "pre", mj_string(cell, "excerpt"));
			free(id);
			free(title);
		}
	}
}

/* "linux-source-6.1 6.1.158-1 (series 0123abcd...)", one per source. */
static char *sources_line(json_object *matrix)
{
	json_object *targets = mj_member(matrix, "targets");
	char *line = xstrdup("");

	for (size_t i = 0; targets && i < json_object_array_length(targets); i++) {
		json_object *t = json_object_array_get_idx(targets, i);
		const char *package = mj_string(t, "source_package");
		char *seen = xasprintf("%s ", package ? package : "");
		bool again = strstr(line, seen) != NULL;

		free(seen);
		if (!package || again)
			continue;
		xappendf(&line, "%s%s %s (series %.16s)", *line ? ", " : "", package,
			 mj_string(t, "source_version") ? mj_string(t, "source_version") : "",
			 mj_string(t, "series_digest") ? mj_string(t, "series_digest") : "");
	}
	return line;
}

int html_write(json_object *matrix, const char *path)
{
	htmlDocPtr doc = htmlNewDoc(BAD_CAST "http://www.w3.org/TR/html4/strict.dtd",
				    BAD_CAST "-//W3C//DTD HTML 4.01//EN");
	xmlNodePtr html = xmlNewNode(NULL, BAD_CAST "html"), head, body, meta;
	json_object *complete = mj_member(matrix, "complete");
	xmlChar *text = NULL;
	char *summary, *sources;
	int size = 0, ret;
	char *css;

	xmlDocSetRootElement(doc, html);
	head = add(html, "head", NULL);
	meta = add(head, "meta", NULL);
	set(meta, "charset", "utf-8");
	summary = xasprintf("kwmatrix %s", mj_string(matrix, "run_id") ? mj_string(matrix, "run_id") : "");
	add(head, "title", summary);
	css = style_sheet();
	add(head, "style", css);
	free(css);
	body = add(html, "body", NULL);
	add(body, "h1", summary);
	free(summary);
	sources = sources_line(matrix);
	summary = xasprintf("%s; %s run in %.0f s", sources,
			    complete && json_object_get_boolean(complete) ? "complete" :
			    "INCOMPLETE",
			    json_object_get_double(mj_member(matrix, "seconds")));
	free(sources);
	add(body, "p", summary);
	free(summary);
	heat_map(body, matrix);
	barrier_verdicts(body, matrix);
	litmus_table(body, matrix);
	plots(body, matrix);
	details(body, matrix);

	htmlDocDumpMemoryFormat(doc, &text, &size, 1);
	ret = text ? write_file_atomic(path, (const char *)text, size) : -1;
	xmlFree(text);
	xmlFreeDoc(doc);
	return ret;
}
