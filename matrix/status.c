// SPDX-License-Identifier: GPL-2.0
#include "status.h"

#include <stddef.h>
#include <string.h>

/*
 * JUnit and KCIDB have no word for "nothing here could show it": such a
 * cell was not a test that ran, so it is skipped there, never passed.
 * KCIDB's MISS is "not run", which is what a cell whose build failed is.
 */
const struct cell_status_info kwm_statuses[CELL_NR_STATUSES] = {
	[CELL_PASS] = { "PASS", true, "pass", "PASS", SHADE_SHOWN,
		"every check ran and held" },
	[CELL_KILLED] = { "KILLED", true, "pass", "PASS", SHADE_SHOWN,
		"a mutant caught: which check, when" },
	[CELL_UNOBSERVABLE] = { "UNOBSERVABLE", true, "skipped", "SKIP", SHADE_NOT_SHOWN,
		"a mutant or check that this platform cannot show" },
	[CELL_XFAIL] = { "XFAIL", true, "pass", "PASS", SHADE_SHOWN,
		"a known finding, reproduced" },
	[CELL_COVERED] = { "COVERED", true, "skipped", "SKIP", SHADE_NOT_SHOWN,
		"a mutant the memory model shows no test can kill" },
	[CELL_ABSENT] = { "ABSENT", true, "skipped", "SKIP", SHADE_NOT_SHOWN,
		"not applicable to this revision: what it removes or edits is not in its code" },
	[CELL_UNCHECKED] = { "UNCHECKED", true, "skipped", "SKIP", SHADE_NOT_SHOWN,
		"survived where only an unchecked model covers it (no herd7)" },
	[CELL_SKIP] = { "SKIP", false, "skipped", "SKIP", SHADE_NOT_SHOWN,
		"a case the guest skipped" },
	[CELL_WARN] = { "WARN", false, "failure", "FAIL", SHADE_UNSURE,
		"the checks held, but the kernel warned" },
	[CELL_FAIL] = { "FAIL", false, "failure", "FAIL", SHADE_WRONG,
		"a check failed" },
	[CELL_CRASHED] = { "CRASHED", false, "error", "FAIL", SHADE_WRONG,
		"the kernel crashed, or the guest stopped mid-suite" },
	[CELL_TIMEOUT] = { "TIMEOUT", false, "error", "ERROR", SHADE_WRONG,
		"the guest ran over its time bound" },
	[CELL_ERROR] = { "ERROR", false, "error", "MISS", SHADE_WRONG,
		"not run: the build or the setup failed" },
	[CELL_SURVIVED] = { "SURVIVED", false, "failure", "FAIL", SHADE_WRONG,
		"a mutant not caught where it is observable" },
	[CELL_XPASS] = { "XPASS", false, "failure", "FAIL", SHADE_WRONG,
		"a known finding no longer reproduced" },
	[CELL_UNDECIDED] = { "UNDECIDED", false, "error", "ERROR", SHADE_UNSURE,
		"ran, but what it needs to be judged was not seen" },
};

const char *const kwm_shade_sgr[SHADE_NR] = {
	[SHADE_SHOWN] = "32",
	[SHADE_NOT_SHOWN] = "33",
	[SHADE_UNSURE] = "33",
	[SHADE_WRONG] = "1;31",
};

const char *const kwm_shade_css[SHADE_NR] = {
	[SHADE_SHOWN] = "background:#c8e6c9",
	[SHADE_NOT_SHOWN] = "background:#eeeeee;color:#555",
	[SHADE_UNSURE] = "background:#fff3bf",
	[SHADE_WRONG] = "background:#ffcdd2",
};

const struct cell_status_info *cell_status_by_name(const char *name)
{
	int s = cell_status_from_name(name);

	return s < 0 ? NULL : &kwm_statuses[s];
}

int cell_status_from_name(const char *name)
{
	for (int s = 0; s < CELL_NR_STATUSES; s++)
		if (name && !strcmp(kwm_statuses[s].name, name))
			return s;
	return -1;
}
