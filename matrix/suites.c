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
	{
		/* What each platform can show: read before the mutants. */
		.name = "calibrate",
		.modules = "kw_calibrate",
		.seconds = 30,
		.by_default = true,
	},
	{
		.name = "torture",
		.modules = "torture+kw_worker+kw_worker_torture",
		.seconds = 30,
		.duration_module = "kw_worker_torture",
		.by_default = true,
	},
	{
		/* The series without its fixes: the seed's own findings. */
		.name = "torture-seed",
		.modules = "torture+seed/kw_worker+kw_worker_torture",
		.seconds = 30,
		.duration_module = "kw_worker_torture",
		.expect_fail = true,
		.by_default = true,
	},
#define MUTANT(tag, shape_name)						\
	{								\
		.name = "mutant-" tag,					\
		.modules = "torture+no-" tag "/kw_worker+kw_worker_torture", \
		.seconds = 30,						\
		.duration_module = "kw_worker_torture",			\
		.mutant_of = tag,					\
		.shape = shape_name,					\
		.by_default = true,					\
	}
	/* Each barrier, and the litmus shape that shows it missing. */
	MUTANT("worker-b0", "MP+rmb"),
	MUTANT("worker-b1", "SB+mb-plain+wait"),
	MUTANT("flush-b0", "SB+mb-atomic"),
	MUTANT("flush-b1", "MP+wmb"),
#undef MUTANT
#define DETECTOR(variant, check)					\
	{								\
		.name = "detector-" variant,				\
		.modules = "torture+" variant "/kw_worker+kw_worker_torture", \
		.seconds = 30,						\
		.duration_module = "kw_worker_torture",			\
		.must_kill = check,					\
		.by_default = true,					\
	}
	/* A break per torture check, which it must catch on any platform. */
	DETECTOR("no-wakeup", "liveness"),
	DETECTOR("early-done", "completion"),
	DETECTOR("early-wake", "visibility"),
	DETECTOR("stays-pending", "requeue"),
#undef DETECTOR
};

const int kwm_nr_suites = sizeof(kwm_suites) / sizeof(kwm_suites[0]);

const struct suite *suite_find(const char *name)
{
	for (int i = 0; i < kwm_nr_suites; i++)
		if (!strcmp(kwm_suites[i].name, name))
			return &kwm_suites[i];
	return NULL;
}
