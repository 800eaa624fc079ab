// SPDX-License-Identifier: GPL-2.0
#include "suites.h"

#include <string.h>

const struct suite kwm_suites[] = {
	{
		.name = "kunit",
		.modules = "kw_worker+kw_worker_kunit",
		.seconds = 30,
		.by_default = true,
	},
};

const int kwm_nr_suites = sizeof(kwm_suites) / sizeof(kwm_suites[0]);

const struct suite *suite_find(const char *name)
{
	for (int i = 0; i < kwm_nr_suites; i++)
		if (!strcmp(kwm_suites[i].name, name))
			return &kwm_suites[i];
	return NULL;
}
