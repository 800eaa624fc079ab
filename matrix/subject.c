// SPDX-License-Identifier: GPL-2.0
#include "subject.h"

#include <string.h>

#include "util.h"

#define BARRIER_TAG(tag, shape)	tag,
const char *const kwm_barrier_tags[] = { KWM_BARRIERS(BARRIER_TAG) };
#undef BARRIER_TAG
const int kwm_nr_barrier_tags = sizeof(kwm_barrier_tags) / sizeof(kwm_barrier_tags[0]);

const char *const kwm_subject_versions[] = { "seed", "series" };
const int kwm_nr_subject_versions = sizeof(kwm_subject_versions) /
				    sizeof(kwm_subject_versions[0]);

const char *subject_version_prefix(const char *version)
{
	return !strcmp(version, "seed") ? SEED_PREFIX : "";
}

char *variant_name(const char *prefix, const char *tag)
{
	return xasprintf("%s" VARIANT_NAME("", "%s"), prefix, tag);
}
