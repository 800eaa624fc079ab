// SPDX-License-Identifier: GPL-2.0
#include "run.h"

#include <string.h>

const struct suite_result *report_find_cell(const struct target_result *tr,
					    const char *name)
{
	for (int i = 0; i < tr->console.nr_suites; i++)
		if (!strcmp(tr->console.suites[i].name, name))
			return &tr->console.suites[i];
	return NULL;
}
