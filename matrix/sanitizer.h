/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports of the oracles (KCSAN, KASAN) in a console log, each attributed
 * to the code it names: the subject (module kw_worker, or a variant of
 * it), the test code, or the rest of the kernel.
 */
#ifndef KWM_SANITIZER_H
#define KWM_SANITIZER_H

#include <stdbool.h>
#include <stddef.h>

#include "oracles.h"

enum report_origin {
	ORIGIN_NONE,
	ORIGIN_KERNEL,
	ORIGIN_TEST,
	ORIGIN_SUBJECT,		/* in increasing order of interest */
};

struct sanitizer_report {
	const struct oracle *oracle;
	char *title;		/* "KCSAN: data-race in a / b" */
	enum report_origin origin;
	int line;		/* 1-based, in the scanned text */
	int count;		/* reports in the text, of any origin */
	char *excerpt;
};

/* True if the line at @p (@len bytes) starts an oracle's report. */
bool sanitizer_is_report(const char *p, size_t len);

/*
 * The most telling report in @text: the first from the subject, else the
 * test code, else the kernel.  Returns how many reports there are.
 */
int sanitizer_scan(const char *text, struct sanitizer_report *first);
void sanitizer_report_free(struct sanitizer_report *r);

const char *report_origin_name(enum report_origin origin);

#endif
