// SPDX-License-Identifier: GPL-2.0
/*
 * The collect stage: everything the judge needs, read from disk once and
 * parsed into the run's structs.  The judge then does no I/O.
 */
#define _GNU_SOURCE
#include "collect.h"

#include <stdlib.h>
#include <string.h>

#include "checkpatch.h"
#include "lkmm.h"
#include "oracles.h"
#include "plan.h"
#include "suites.h"
#include "subject.h"
#include "util.h"
#include "fs.h"

/*
 * A build-time check's log: its output, then the driver's one line with
 * its exit status (@status_mark), or the one naming its missing program.
 */
static void read_static(struct static_result *r, const char *log,
			const char *status_mark, const char *missing_mark)
{
	const char *status;

	r->log = log;
	r->text = log ? read_file(log, NULL) : NULL;
	status = r->text ? strstr(r->text, status_mark) : NULL;
	r->exit_status = status ? atoi(status + strlen(status_mark)) : -1;
	r->output_len = status ? (size_t)(status - r->text) : r->text ? strlen(r->text) : 0;
	r->tool_missing = r->text && missing_mark && strstr(r->text, missing_mark);
	for (const char *line = r->text, *nl; line && *line; line = nl + !!*nl) {
		nl = strchrnul(line, '\n');
		r->clean += !strncmp(line, CHECKPATCH_OK, strlen(CHECKPATCH_OK));
		r->findings += !strncmp(line, CHECKPATCH_FAIL, strlen(CHECKPATCH_FAIL));
	}
}

/*
 * The suites the plan left out of the guest (plan_holds_back()): not run
 * here by design, and why, not a guest that stopped early.
 */
static void note_held_back(struct target_result *tr)
{
	for (int i = 0; i < tr->suites.n; i++) {
		struct suite_result *s = &tr->console.suites[i];

		if (!plan_holds_back(tr, suite_find(tr->suites.v[i])))
			continue;
		free(s->reason);
		free(s->excerpt);
		free(s->not_run);
		s->reason = s->excerpt = NULL;
		s->status = CELL_PASS;
		s->seconds = 0;
		s->not_run = xasprintf("%s sampled it on the emulated machine, the same software on every target (hunted -d with an oracle kernel: -k all)",
				       tr->covered_sampled_on);
	}
}

/*
 * The suites whose variant this revision of the subject cannot have
 * (plan_not_applicable()): not run, by design.  A mutant or detector is
 * ABSENT, saying why; a test of the revision itself (its tortures) that
 * cannot be made is an ERROR: the revision must be tested.
 */
static void note_not_applicable(struct target_result *tr)
{
	for (int i = 0; i < tr->suites.n; i++) {
		struct suite_result *s = &tr->console.suites[i];
		const struct suite *suite = suite_find(tr->suites.v[i]);
		const char *why = plan_not_applicable(tr, suite);
		bool variant;

		if (!why)
			continue;
		variant = suite->kind == SUITE_MUTANT || suite->kind == SUITE_DETECTOR;
		free(s->reason);
		free(s->excerpt);
		s->excerpt = NULL;
		s->status = variant ? CELL_ABSENT : CELL_ERROR;
		s->seconds = 0;
		s->reason = variant ? xasprintf("not applicable to this revision: %s", why) :
			    xasprintf("this test of the revision cannot be made of it: %s (fix: the anchor in matrix/variants.c)",
				      why);
	}
}

/* The guest's console, parsed; QEMU's log where the console is empty. */
static void collect_guest(struct target_result *tr)
{
	struct guest_outcome outcome = {
		.timed_out = tr->guest.timed_out,
		.interrupted = tr->guest.interrupted,
		.exit_status = tr->guest.exit_status,
	};
	char *log = read_file(tr->guest.console_log, NULL);

	text_clean(log);
	parse_console(log ? log : "", (const char *const *)tr->suites.v,
		      tr->suites.n, &outcome, &tr->console);
	note_held_back(tr);
	note_not_applicable(tr);
	tr->nr_rates = parse_calibration(log ? log : "", &tr->rates);
	for (int i = 0; i < tr->suites.n; i++)
		if (suite_find(tr->suites.v[i])->litmus_side)
			tr->nr_litmus = parse_litmus(log ? log : "", tr->suites.v[i],
						     &tr->litmus, tr->nr_litmus);
	tr->oracle_inactive = log && tr->oracle && tr->oracle->inactive &&
			      strstr(log, tr->oracle->inactive);
	tr->console_empty = !log || !*log;
	if (tr->console_empty) {
		tr->qemu_text = read_file(tr->guest.qemu_log, NULL);
		text_clean(tr->qemu_text);
	}
	free(log);
}

void collect_target(struct target_result *tr)
{
	if (tr->collected || tr->unavailable || !tr->build_ok)
		return;
	tr->collected = true;
	if (tr->guest.ran)
		collect_guest(tr);
	tr->sparse_log = build_sparse_log(&tr->build);
	read_static(&tr->sparse, tr->sparse_log, SPARSE_STATUS, SPARSE_MISSING);
	read_static(&tr->checkpatch, tr->checkpatch_log, CHECKPATCH_STATUS, NULL);
}

void collect_run(struct run *run)
{
	for (int t = 0; t < run->nr_targets; t++)
		collect_target(&run->targets[t]);
	if (!run->models)
		collect_models(run);
}

/*
 * The subject's code as version @version of this run has it, or NULL
 * with *@why: the series' in the patched tree, the seed's as the series
 * without its fixes stages it now.
 */
static char *version_code(const struct run *run, const char *version, char **why)
{
	char *code = NULL;

	if (!strcmp(version, "seed")) {
		code = run->seed_code ? xstrdup(run->seed_code) : NULL;
	} else if (run->tree) {
		char *path = xasprintf("%s/%s", run->tree, SUBJECT_FILE);

		code = read_file(path, NULL);
		free(path);
	}
	if (!code)
		*why = xasprintf("the %s's code could not be staged here: no code to check its model against, so no verdict rests on the model",
				 version);
	return code;
}

void collect_models(struct run *run)
{
	if (!run->repo)
		return;
	run->models = xcalloc(kwm_nr_subject_versions, sizeof(*run->models));
	for (int v = 0; v < kwm_nr_subject_versions; v++) {
		char *no_code = NULL, *code = version_code(run, kwm_subject_versions[v], &no_code);

		lkmm_model_judge(run->repo, run->tree, run->cache,
				 kwm_subject_versions[v], &run->models[v]);
		lkmm_model_check_code(&run->models[v], code, no_code);
		free(code);
		free(no_code);
	}
	for (int t = 0; t < run->nr_targets; t++)
		run->targets[t].models = run->models;
}

void collect_free(struct run *run)
{
	for (int t = 0; t < run->nr_targets; t++) {
		struct target_result *tr = &run->targets[t];

		free(tr->qemu_text);
		free(tr->sparse.text);
		free(tr->checkpatch.text);
		free(tr->sparse_log);
	}
	for (int v = 0; v < kwm_nr_subject_versions && run->models; v++)
		lkmm_model_free(&run->models[v]);
	free(run->models);
	free(run->seed_code);
	run->seed_code = NULL;
	for (int i = 0; i < run->nr_verdicts; i++)
		barrier_verdict_free(&run->verdicts[i]);
	free(run->verdicts);
}
