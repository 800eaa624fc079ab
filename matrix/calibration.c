// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "calibration.h"

#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "subject.h"
#include "fs.h"

#define SHAPES_TABLE	"kwc_shapes[] = {"

int calibration_shapes(const char *repo, struct strlist *shapes)
{
	char *path = xasprintf("%s/calibrate/%s.c", repo, CALIBRATION_MODULE);
	char *text = read_file(path, NULL);
	const char *p = text ? strstr(text, SHAPES_TABLE) : NULL;
	const char *end = p ? strstr(p, "\n};") : NULL;

	free(path);
	if (!p || !end) {
		free(text);
		return -1;
	}
	/* One row per line: { "SB+mbs", true, 0, ... }, */
	while ((p = strstr(p, "\n\t{ \"")) && p < end) {
		const char *name = p + strlen("\n\t{ \"");
		char *copy = strndup(name, strcspn(name, "\""));

		strlist_add(shapes, copy);
		free(copy);
		p = name;
	}
	free(text);
	return 0;
}

int calibration_check_suites(const char *repo)
{
	struct strlist shapes = { 0 };
	int ret = 0;

	if (calibration_shapes(repo, &shapes)) {
		kwm_error("cannot read the shapes of calibrate/%s.c (fix: restore it from git)",
			  CALIBRATION_MODULE);
		return -1;
	}
	for (int i = 0; i < kwm_nr_suites && !ret; i++) {
		const struct suite *s = &kwm_suites[i];

		if (s->shape && !strlist_has(&shapes, s->shape)) {
			kwm_error("suite %s needs shape '%s', which calibrate/%s.c does not run (fix: add it to kwc_shapes[] or correct suites.c)",
				  s->name, s->shape, CALIBRATION_MODULE);
			ret = -1;
		}
	}
	strlist_free(&shapes);
	return ret;
}

bool calibration_add_if_needed(struct strlist *suites)
{
	bool added = false;

	/* Added ones are calibrations, which ask for none: one pass does. */
	for (int i = 0, n = suites->n; i < n; i++) {
		const struct suite *s = suite_find(suites->v[i]);

		if (s && s->calibrated_by && !strlist_has(suites, s->calibrated_by)) {
			strlist_add(suites, s->calibrated_by);
			added = true;
		}
		/* And the validations its kills stand on (set_killed()). */
		if (s && s->validated_by) {
			char *names = xstrdup(s->validated_by), *save;

			for (char *name = strtok_r(names, ",", &save); name;
			     name = strtok_r(NULL, ",", &save))
				if (!strlist_has(suites, name)) {
					strlist_add(suites, name);
					added = true;
				}
			free(names);
		}
	}
	return added;
}
