/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A KTAP parser (Documentation/dev-tools/ktap.rst) for console logs: the
 * KTAP documents are mixed with other kernel messages, which are ignored.
 * Any deeper indentation opens a subtest block, which belongs to the next
 * result line at the outer level, as KUnit prints it.
 */
#ifndef KWM_KTAP_H
#define KWM_KTAP_H

enum ktap_status {
	KTAP_PASS,
	KTAP_FAIL,
	KTAP_SKIP,
	KTAP_CRASHED,	/* missing result, plan mismatch, cut-off output */
};

struct ktap_test {
	char *name;
	enum ktap_status status;
	char *directive;		/* text after "#", or NULL */
	struct ktap_test *subtests;
	int nr_subtests;
};

struct ktap_counts {
	int passed, failed, skipped, crashed;
};

struct ktap_result {
	struct ktap_test *tests;	/* top-level tests of every document */
	int nr_tests;
	int nr_documents;
	int nr_errors;			/* plan mismatches and cut-offs */
	char *first_error;
};

/* Parse @text (NUL-terminated).  Never fails; problems are in the result. */
void ktap_parse(const char *text, struct ktap_result *res);
void ktap_free(struct ktap_result *res);

/* Leaf test counts; a test with subtests counts through its subtests. */
void ktap_count(const struct ktap_result *res, struct ktap_counts *counts);
const char *ktap_status_name(enum ktap_status status);

#endif
