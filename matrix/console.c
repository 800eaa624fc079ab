// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "console.h"

#include <stdlib.h>
#include <string.h>

#include "sanitizer.h"
#include "util.h"

#define EXCERPT_BEFORE	5
#define EXCERPT_AFTER	25

static const struct {
	const char *pattern;
	enum console_severity severity;
} patterns[] = {
	{ "Kernel panic - not syncing", CONSOLE_CRASH },
	{ "Internal error: Oops", CONSOLE_CRASH },
	{ "Oops: ", CONSOLE_CRASH },
	{ "Oops - ", CONSOLE_CRASH },
	{ "kernel BUG at ", CONSOLE_CRASH },
	{ "BUG: ", CONSOLE_CRASH },	/* sleeping in atomic, ...: not oracles */
	{ "Unable to handle kernel ", CONSOLE_CRASH },
	{ "Unable to handle kernel paging request", CONSOLE_CRASH },
	{ "WARNING: ", CONSOLE_WARN },
	{ "INFO: task ", CONSOLE_WARN },	/* hung task */
	{ "rcu: INFO: ", CONSOLE_WARN },	/* RCU stall */
	{ "watchdog: BUG: soft lockup", CONSOLE_CRASH },
};

enum console_severity console_scan(const char *text, struct console_event *ev)
{
	enum console_severity worst = CONSOLE_CLEAN;
	const char *p = text;
	int line = 1;

	memset(ev, 0, sizeof(*ev));
	while (*p) {
		const char *nl = strchrnul(p, '\n');

		/* The oracles' reports are judged by sanitizer.c. */
		for (size_t i = 0; !sanitizer_is_report(p, nl - p) &&
		     i < sizeof(patterns) / sizeof(patterns[0]); i++) {
			const char *hit = memmem(p, nl - p, patterns[i].pattern,
						 strlen(patterns[i].pattern));

			if (!hit || patterns[i].severity <= worst)
				continue;
			worst = patterns[i].severity;
			ev->severity = worst;
			ev->what = patterns[i].pattern;
			ev->line = line;
		}
		if (!*nl)
			break;
		p = nl + 1;
		line++;
	}
	if (worst != CONSOLE_CLEAN)
		ev->excerpt = text_excerpt(text, ev->line, EXCERPT_BEFORE,
					      EXCERPT_AFTER);
	return worst;
}
