// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "junit.h"

#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "matrix_json.h"
#include "status.h"
#include "util.h"

/*
 * The JUnit element a status (a cell's or a KTAP case's) is reported as:
 * "skipped", "failure" or "error"; NULL for a pass.
 */
static const char *junit_element(const char *status)
{
	const struct cell_status_info *info = cell_status_by_name(status);
	const char *element = info ? info->junit : "failure";

	return strcmp(element, "pass") ? element : NULL;
}

static bool is(const char *element, const char *name)
{
	return element && !strcmp(element, name);
}

static void attr_int(xmlTextWriterPtr w, const char *name, int value)
{
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%d", value);
}

static void testcase(xmlTextWriterPtr w, const char *classname,
		     const char *name, const char *status, const char *reason,
		     const char *excerpt)
{
	const char *element = junit_element(status);

	xmlTextWriterStartElement(w, BAD_CAST "testcase");
	xmlTextWriterWriteAttribute(w, BAD_CAST "classname", BAD_CAST classname);
	xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST name);
	if (element) {
		char *message = xasprintf("%s: %s", status, reason ? reason : "");

		xmlTextWriterStartElement(w, BAD_CAST element);
		xmlTextWriterWriteAttribute(w, BAD_CAST "message", BAD_CAST message);
		if (excerpt) {
			/* Merged shards may come from an older kwmatrix. */
			char *clean = xstrdup(excerpt);

			text_clean(clean);
			xmlTextWriterWriteString(w, BAD_CAST clean);
			free(clean);
		}
		xmlTextWriterEndElement(w);
		free(message);
	} else if (reason) {
		/* Why a mutant counts as caught, or a finding as reproduced. */
		char *out = xasprintf("%s: %s", status, reason);

		xmlTextWriterWriteElement(w, BAD_CAST "system-out", BAD_CAST out);
		free(out);
	}
	xmlTextWriterEndElement(w);
}

/* One testcase per KTAP case: classname column.suite, name case.subcase. */
static void ktap_cases(xmlTextWriterPtr w, json_object *cases,
		       const char *classname, const char *prefix, int *n,
		       int *failures)
{
	for (size_t i = 0; cases && i < json_object_array_length(cases); i++) {
		json_object *c = json_object_array_get_idx(cases, i);
		const char *name = mj_string(c, "name"), *status = mj_string(c, "status");
		char *full;

		if (!name || !status)
			continue;
		full = prefix ? xasprintf("%s.%s", prefix, name) : xstrdup(name);
		testcase(w, classname, full, status, mj_string(c, "directive"), NULL);
		(*n)++;
		*failures += is(junit_element(status), "failure");
		ktap_cases(w, mj_member(c, "subtests"), classname, full, n, failures);
		free(full);
	}
}

static void count(json_object *cases, int *n, int *failures)
{
	for (size_t i = 0; cases && i < json_object_array_length(cases); i++) {
		json_object *c = json_object_array_get_idx(cases, i);
		const char *status = mj_string(c, "status");

		(*n)++;
		*failures += status && is(junit_element(status), "failure");
		count(mj_member(c, "subtests"), n, failures);
	}
}

int junit_write(json_object *matrix, const char *path)
{
	json_object *targets = mj_member(matrix, "targets");
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = xmlNewTextWriterMemory(buf, 0);
	int ret;

	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
	xmlTextWriterStartElement(w, BAD_CAST "testsuites");
	xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST "kwmatrix");
	for (size_t t = 0; targets && t < json_object_array_length(targets); t++) {
		json_object *tr = json_object_array_get_idx(targets, t);
		json_object *cells = mj_member(tr, "cells");
		const char *column = mj_string(tr, "column") ? mj_string(tr, "column") : mj_string(tr, "target");
		int n = 0, failures = 0, errors = 0, skipped = 0;

		for (size_t c = 0; cells && c < json_object_array_length(cells); c++) {
			json_object *cell = json_object_array_get_idx(cells, c);
			const char *element = junit_element(mj_string(cell, "status"));

			n++;
			failures += is(element, "failure");
			errors += is(element, "error");
			skipped += is(element, "skipped");
			count(mj_member(cell, "tests"), &n, &failures);
		}
		xmlTextWriterStartElement(w, BAD_CAST "testsuite");
		xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST column);
		attr_int(w, "tests", n);
		attr_int(w, "failures", failures);
		attr_int(w, "errors", errors);
		attr_int(w, "skipped", skipped);
		for (size_t c = 0; cells && c < json_object_array_length(cells); c++) {
			json_object *cell = json_object_array_get_idx(cells, c);
			const char *suite = mj_string(cell, "suite");
			char *classname = xasprintf("%s.%s", column, suite);
			int unused_n = 0, unused_f = 0;

			testcase(w, classname, suite, mj_string(cell, "status"),
				 mj_string(cell, "reason"), mj_string(cell, "excerpt"));
			ktap_cases(w, mj_member(cell, "tests"), classname, NULL,
				   &unused_n, &unused_f);
			free(classname);
		}
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
	xmlTextWriterEndDocument(w);
	xmlFreeTextWriter(w);
	ret = write_file_atomic(path, (const char *)xmlBufferContent(buf),
				xmlBufferLength(buf));
	xmlBufferFree(buf);
	return ret;
}
