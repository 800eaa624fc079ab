/* SPDX-License-Identifier: GPL-2.0 */
/* Finds kernel crashes and warnings in a console log. */
#ifndef KWM_CONSOLE_H
#define KWM_CONSOLE_H

enum console_severity {
	CONSOLE_CLEAN,
	CONSOLE_WARN,		/* WARNING, hung task, RCU stall */
	CONSOLE_CRASH,		/* panic, oops, BUG */
};

struct console_event {
	enum console_severity severity;
	const char *what;	/* which pattern matched */
	int line;		/* 1-based line in the scanned text */
	char *excerpt;		/* lines around it */
};

/*
 * Scan @text for the most severe event (the first one of that severity).
 * Returns its severity; fills @ev (free ev->excerpt) unless clean.
 */
enum console_severity console_scan(const char *text, struct console_event *ev);

#endif
