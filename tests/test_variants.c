// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* Mutants: each barrier tag removes exactly its own barrier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "variants.h"

/* lib/kw_worker.c as patch 0001 creates it. */
static char *subject_from_patch(void)
{
	glob_t g;
	char *patch, *p, *out = xstrdup("");

	assert_int_equal(glob("patch/0001-*.patch", 0, NULL, &g), 0);
	patch = read_file(g.gl_pathv[0], NULL);
	globfree(&g);
	assert_non_null(patch);
	p = strstr(patch, "+++ b/" SUBJECT_FILE "\n");
	assert_non_null(p);
	p = strstr(p, "\n@@");
	for (p = strchr(p + 1, '\n') + 1; *p == '+'; p = strchrnul(p, '\n') + 1) {
		char *next = xasprintf("%s%.*s\n", out, (int)(strchrnul(p, '\n') - p - 1),
				       p + 1);

		free(out);
		out = next;
	}
	free(patch);
	return out;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void each_tag_removes_one_barrier(void **state)
{
	static const char *const barrier[] = {
		"smp_wmb();", "smp_mb();", "smp_mb__after_atomic();",
		"smp_mb__after_atomic();",
	};
	char *subject = subject_from_patch();

	(void)state;
	assert_int_equal(count(subject, "smp_"), 4);
	for (int i = 0; i < kwm_nr_barrier_tags; i++) {
		char *removed, *mutant;

		mutant = mutate_remove_barrier(subject, kwm_barrier_tags[i], &removed);
		assert_non_null(mutant);
		assert_non_null(strstr(removed, barrier[i]));
		assert_int_equal(count(mutant, "smp_"), 3);
		assert_int_equal(count(mutant, barrier[i]),
				 count(subject, barrier[i]) - 1);
		assert_non_null(strstr(mutant, kwm_barrier_tags[i]));
		free(mutant);
		free(removed);
	}
	free(subject);
}

static void flush_tags_hit_the_right_call(void **state)
{
	char *subject = subject_from_patch(), *removed;
	char *mutant = mutate_remove_barrier(subject, "flush-b0", &removed);
	const char *inc = strstr(mutant, "atomic_inc(&work->flushing);");
	const char *dec = strstr(mutant, "atomic_dec(&work->flushing);");

	(void)state;
	/* flush-b0 follows the increment; flush-b1 after the decrement stays. */
	assert_non_null(strstr(inc, "kwmatrix: flush-b0 removed"));
	assert_true(strstr(inc, "kwmatrix: flush-b0 removed") < dec);
	assert_non_null(strstr(dec, "smp_mb__after_atomic();"));
	free(mutant);
	free(removed);
	free(subject);
}

static void unknown_or_ambiguous_tags_are_refused(void **state)
{
	const char *twice = "smp_mb(); /* mb x-b0 paired with y */\n"
			    "smp_mb(); /* mb x-b0 paired with z */\n";
	char *removed;

	(void)state;
	assert_null(mutate_remove_barrier("int a;\n", "worker-b0", &removed));
	assert_null(mutate_remove_barrier(twice, "x-b0", &removed));
	assert_null(mutate_remove_barrier("/* w-b0 paired with q */\nint a;\n",
					  "w-b0", &removed));
}

static void detector_texts_occur_once(void **state)
{
	char *subject = subject_from_patch();

	(void)state;
	for (int i = 0; i < kwm_nr_detector_mutants; i++)
		assert_int_equal(count(subject, kwm_detector_mutants[i].find), 1);
	free(subject);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_tag_removes_one_barrier),
		cmocka_unit_test(flush_tags_hit_the_right_call),
		cmocka_unit_test(unknown_or_ambiguous_tags_are_refused),
		cmocka_unit_test(detector_texts_occur_once),
	};

	return cmocka_run_group_tests_name("variants", tests, NULL, NULL);
}
