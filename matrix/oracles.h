/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own checkers, each a second kernel per target: its fragment
 * is arch-configs/oracles/<name>.config, merged after the target's.  The
 * plain kernel (no oracle) is judged by the torture checks alone.
 */
#ifndef KWM_ORACLES_H
#define KWM_ORACLES_H

#include <stdbool.h>

struct oracle {
	const char *name;		/* "kcsan": -k name, and column suffix */
	const char *title;		/* "KCSAN", as its reports say */
	const char *arch_select;	/* arch/<arch>/Kconfig must select it */
	const char *report;		/* first line of each of its reports */
	const char *inactive;		/* console line: built in, not running */
	const char *cmdline;		/* its boot parameters */
	/* The boot parameter without which it reports once per boot, or NULL. */
	const char *every_report;
	bool blame_stack;		/* blame the call trace, not the title */
	int min_seconds;		/* torture time it needs, whatever -d says */
	int hunt_seconds;		/* and a detector of it, which ends once caught */
	const char *limits;		/* what it cannot see, for its cells */
};

extern const struct oracle kwm_oracles[];
extern const int kwm_nr_oracles;

/* "plain" is the kernel without an oracle: NULL, and *found = true. */
const struct oracle *oracle_find(const char *name, bool *found);

/*
 * Why @o cannot be built for @kernel_arch in @tree (of @package), or NULL
 * if the architecture selects what it needs.
 */
char *oracle_unavailable(const struct oracle *o, const char *tree,
			 const char *kernel_arch, const char *package);

/* True if @name is one of the comma-separated @list. */
bool list_has(const char *list, const char *name);

#endif
