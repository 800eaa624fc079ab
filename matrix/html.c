// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "html.h"

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One colour per status: green for the run-green ones, red for the rest. */
static const char style[] =
	"body{font:14px sans-serif;margin:1.5em}"
	"table{border-collapse:collapse;margin:1em 0}"
	"td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
	"td a{color:inherit;text-decoration:none;display:block}"
	".PASS,.KILLED,.XFAIL{background:#c8e6c9}"
	".UNOBSERVABLE,.SKIP{background:#eeeeee;color:#555}"
	".WARN{background:#fff3bf}"
	".FAIL,.SURVIVED,.XPASS,.CRASHED,.TIMEOUT,.ERROR{background:#ffcdd2}"
	"pre{background:#f6f6f6;padding:.5em;overflow-x:auto;max-height:30em}"
	"svg text{font:11px sans-serif}";

static const char *str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static size_t len(json_object *array)
{
	return array && json_object_is_type(array, json_type_array) ?
	       json_object_array_length(array) : 0;
}

static const char *column_of(json_object *tr)
{
	return str(tr, "column") ? str(tr, "column") : str(tr, "target");
}

static json_object *find_cell(json_object *tr, const char *suite)
{
	json_object *cells = get(tr, "cells");

	for (size_t i = 0; i < len(cells); i++) {
		json_object *c = json_object_array_get_idx(cells, i);

		if (str(c, "suite") && !strcmp(str(c, "suite"), suite))
			return c;
	}
	return NULL;
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
	set(td, "class", str(cell, "status"));
	if (str(cell, "reason"))
		set(td, "title", str(cell, "reason"));
	id = cell_id(column, suite);
	a = add(td, "a", str(cell, "status"));
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
	json_object *targets = get(m, "targets"), *suites = get(m, "suites");
	xmlNodePtr table = add(body, "table", NULL), row;

	set(table, "id", "matrix");
	row = add(table, "tr", NULL);
	add(row, "th", "suite");
	for (size_t t = 0; t < len(targets); t++)
		add(row, "th", column_of(json_object_array_get_idx(targets, t)));
	for (size_t s = 0; s < len(suites); s++) {
		const char *suite = json_object_get_string(json_object_array_get_idx(suites, s));

		row = add(table, "tr", NULL);
		add(row, "th", suite);
		for (size_t t = 0; t < len(targets); t++) {
			json_object *tr = json_object_array_get_idx(targets, t);

			status_cell(row, find_cell(tr, suite), column_of(tr), suite);
		}
	}
}

/* Barriers down; the memory model's verdict, then each column's mutant. */
static void barrier_map(xmlNodePtr body, json_object *m)
{
	json_object *targets = get(m, "targets"), *barriers = get(m, "barriers");
	xmlNodePtr table, row;

	if (!len(barriers))
		return;
	add(body, "h2", "Mutants by oracle");
	table = add(body, "table", NULL);
	set(table, "id", "barriers");
	row = add(table, "tr", NULL);
	add(row, "th", "without barrier");
	add(row, "th", "LKMM (litmus/)");
	for (size_t t = 0; t < len(targets); t++)
		add(row, "th", column_of(json_object_array_get_idx(targets, t)));
	for (size_t b = 0; b < len(barriers); b++) {
		json_object *o = json_object_array_get_idx(barriers, b);
		char *suite = xasprintf("mutant-%s", str(o, "barrier"));

		row = add(table, "tr", NULL);
		add(row, "th", str(o, "barrier"));
		add(row, "td", str(o, "lkmm"));
		for (size_t t = 0; t < len(targets); t++) {
			json_object *tr = json_object_array_get_idx(targets, t);

			status_cell(row, find_cell(tr, suite), column_of(tr), suite);
		}
		free(suite);
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

static void plots(xmlNodePtr body, json_object *m)
{
	json_object *targets = get(m, "targets");
	const char **labels = NULL;
	double *values = NULL;
	int n = 0;

	/* Calibration: weak outcomes per million, per shape and column. */
	for (size_t t = 0; t < len(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *rates = get(tr, "calibration");

		for (size_t i = 0; i < len(rates); i++) {
			json_object *r = json_object_array_get_idx(rates, i);

			labels = xrealloc(labels, (n + 1) * sizeof(*labels));
			values = xrealloc(values, (n + 1) * sizeof(*values));
			labels[n] = xasprintf("%s %s", column_of(tr), str(r, "shape"));
			values[n++] = json_object_get_double(get(r, "per_million"));
		}
	}
	if (n) {
		add(body, "h2", "Calibration: weak outcomes per million (log scale)");
		bar_chart(body, "calibration", labels, values, n, true, "/M");
	}
	for (int i = 0; i < n; i++)
		free((char *)labels[i]);
	n = 0;
	/* Torture throughput of the subject, per column. */
	for (size_t t = 0; t < len(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *cell = find_cell(tr, "torture");
		json_object *stats = cell ? get(cell, "torture") : NULL;

		if (!stats || !get(stats, "ops_per_sec"))
			continue;
		labels = xrealloc(labels, (n + 1) * sizeof(*labels));
		values = xrealloc(values, (n + 1) * sizeof(*values));
		labels[n] = xstrdup(column_of(tr));
		values[n++] = json_object_get_double(get(stats, "ops_per_sec"));
	}
	if (n) {
		add(body, "h2", "Torture: operations per second");
		bar_chart(body, "throughput", labels, values, n, false, "ops/s");
	}
	for (int i = 0; i < n; i++)
		free((char *)labels[i]);
	free(labels);
	free(values);
}

/* Every cell's reason and console excerpt, where the heat-map links. */
static void details(xmlNodePtr body, json_object *m)
{
	json_object *targets = get(m, "targets");

	add(body, "h2", "Cells");
	for (size_t t = 0; t < len(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *cells = get(tr, "cells");

		for (size_t c = 0; c < len(cells); c++) {
			json_object *cell = json_object_array_get_idx(cells, c);
			char *id = cell_id(column_of(tr), str(cell, "suite"));
			char *title = xasprintf("%s / %s: %s", column_of(tr),
						str(cell, "suite"), str(cell, "status"));
			xmlNodePtr d = add(body, "details", NULL);

			set(d, "id", id);
			add(d, "summary", title);
			if (str(cell, "reason"))
				add(d, "p", str(cell, "reason"));
			if (str(cell, "excerpt"))
				add(d, "pre", str(cell, "excerpt"));
			free(id);
			free(title);
		}
	}
}

int html_write(json_object *matrix, const char *path)
{
	htmlDocPtr doc = htmlNewDoc(BAD_CAST "http://www.w3.org/TR/html4/strict.dtd",
				    BAD_CAST "-//W3C//DTD HTML 4.01//EN");
	xmlNodePtr html = xmlNewNode(NULL, BAD_CAST "html"), head, body, meta;
	json_object *complete = get(matrix, "complete");
	xmlChar *text = NULL;
	char *summary;
	int size = 0, ret;

	xmlDocSetRootElement(doc, html);
	head = add(html, "head", NULL);
	meta = add(head, "meta", NULL);
	set(meta, "charset", "utf-8");
	summary = xasprintf("kwmatrix %s", str(matrix, "run_id") ? str(matrix, "run_id") : "");
	add(head, "title", summary);
	add(head, "style", style);
	body = add(html, "body", NULL);
	add(body, "h1", summary);
	free(summary);
	summary = xasprintf("%s %s, series %.16s, %s run in %.0f s",
			    str(matrix, "source_package") ? str(matrix, "source_package") : "",
			    str(matrix, "source_version") ? str(matrix, "source_version") : "",
			    str(matrix, "series_digest") ? str(matrix, "series_digest") : "",
			    complete && json_object_get_boolean(complete) ? "complete" :
			    "INCOMPLETE",
			    json_object_get_double(get(matrix, "seconds")));
	add(body, "p", summary);
	free(summary);
	heat_map(body, matrix);
	barrier_map(body, matrix);
	plots(body, matrix);
	details(body, matrix);

	htmlDocDumpMemoryFormat(doc, &text, &size, 1);
	ret = text ? write_file_atomic(path, (const char *)text, size) : -1;
	xmlFree(text);
	xmlFreeDoc(doc);
	return ret;
}
