// SPDX-License-Identifier: GPL-2.0
#include "shapes.h"

#include <stdio.h>
#include <string.h>

#include "kwm_protocol.h"

void shapes_note(struct shape_table *t, const char *record)
{
	const char *p = strstr(record, KWM_CALIBRATION_SHAPE);
	struct shape_seen seen;

	if (!p || t->n == SHAPES_MAX ||
	    sscanf(p + strlen(KWM_CALIBRATION_SHAPE), "%47s forbidden=%*d runs=%lu weak=%lu",
		   seen.name, &seen.runs, &seen.weak) != 3)
		return;
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, seen.name))
			return;
	t->v[t->n++] = seen;
}

/* The figure of the shape @len bytes at @name, or NULL. */
static const struct shape_seen *shape_find(const struct shape_table *t,
					   const char *name, size_t len)
{
	for (int i = 0; i < t->n; i++)
		if (strlen(t->v[i].name) == len && !strncmp(t->v[i].name, name, len))
			return &t->v[i];
	return NULL;
}

const struct shape_seen *shapes_unseen_need(const struct shape_table *t,
					    const char *params)
{
	size_t key = strlen(KWM_PARAM_NEEDS_WEAK), len;

	for (const char *p = params; p && *p; p += len + !!p[len]) {
		const struct shape_seen *seen;

		len = strcspn(p, KWM_RUN_PARAMS_SEP);
		if (len <= key || strncmp(p, KWM_PARAM_NEEDS_WEAK, key))
			continue;
		seen = shape_find(t, p + key, len - key);
		if (seen && seen->runs && !seen->weak)
			return seen;
	}
	return NULL;
}
