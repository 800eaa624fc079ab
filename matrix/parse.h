/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turns one guest's console log into one result per suite: the log is cut
 * at the markers the guest's init prints ("# kwm-suite: NAME" and
 * "# kwm-suite-end: NAME"), each piece is parsed as KTAP and scanned for
 * crashes.
 */
#ifndef KWM_PARSE_H
#define KWM_PARSE_H

#include <stdbool.h>

#include "console.h"
#include "ktap.h"
#include "sanitizer.h"
#include "status.h"

struct suite_result {
	char *name;
	enum cell_status status;
	char *reason;		/* one line: why not PASS, or NULL */
	char *excerpt;		/* console lines that show it, or NULL */
	struct ktap_result ktap;
	struct ktap_counts counts;
	char *stats;		/* "key=value ..." from a "# kwt: seconds=" line */
	char *steering;		/* "steered=TAG awaits=N met=N ..." from a "# kwe: " line */
	char *not_run;		/* why the guest's init did not run it, or NULL */
	struct sanitizer_report report;	/* the oracles' reports, if any */
	bool started, ended;
	double seconds;		/* in the guest, start to end; < 0: not said */
};

struct guest_outcome {
	bool timed_out;		/* killed at its time bound */
	bool interrupted;	/* killed as the run was stopped (Ctrl-C, SIGTERM) */
	int exit_status;	/* QEMU's, -1 if killed by a signal */
};

struct console_result {
	bool init_started, done;
	struct suite_result *suites;
	int nr_suites;
};

/* Results for @suites (in the order asked) from @log. */
void parse_console(const char *log, const char *const *suites, int nr_suites,
		   const struct guest_outcome *outcome,
		   struct console_result *res);
void console_result_free(struct console_result *res);

/* One calibration figure: "# kwc: shape=SB forbidden=0 runs=.. weak=.." */
struct shape_rate {
	char *shape;
	bool forbidden;
	unsigned long runs, weak, per_million;
};

/*
 * One litmus test's figures, natively and emulated: from "# kwl: mode=
 * test= result= runs= weak= ms= [skip=...]" lines (calibrate/kw_litmus.h).
 */
enum { LITMUS_NATIVE, LITMUS_EMULATED, LITMUS_SIDES };
extern const char *const litmus_side_names[LITMUS_SIDES];

struct litmus_row {
	char *test, *result;
	struct litmus_side {
		bool seen;
		unsigned long runs, weak;
		unsigned int ms;
		char *skip;		/* why it did not run, or NULL */
		bool brief;		/* its minimum rounds only: its shape showed nothing */
	} side[LITMUS_SIDES];
};

/* Add the figures of suite @suite's section of @log to *@rows; the new count. */
int parse_litmus(const char *log, const char *suite, struct litmus_row **rows, int nr);
void litmus_rows_free(struct litmus_row *rows, int nr);

/* Every calibration figure in @log; returns how many (*rates: free). */
int parse_calibration(const char *log, struct shape_rate **rates);
void shape_rates_free(struct shape_rate *rates, int nr);
double shape_rate_per_million(const struct shape_rate *r);

#endif
