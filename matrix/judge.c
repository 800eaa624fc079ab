// SPDX-License-Identifier: GPL-2.0
/*
 * Judging the cells: from what the collect stage parsed (the consoles,
 * the calibration figures, the build-time checks' output), each cell's
 * status and the reason for it.  No I/O: the tests hand it structs.
 */
#define _GNU_SOURCE
#include "judge.h"

#include <stdlib.h>
#include <string.h>

#include "checkpatch.h"
#include "litmus.h"
#include "oracles.h"
#include "plan.h"
#include "suites.h"
#include "subject.h"
#include "util.h"

/* Cells of a target that could not be booted all carry the build error. */
static void fail_all(struct target_result *tr, enum cell_status status,
		     const char *reason, const char *excerpt)
{
	struct console_result *c = &tr->console;

	c->suites = xcalloc(tr->suites.n, sizeof(*c->suites));
	c->nr_suites = tr->suites.n;
	for (int i = 0; i < tr->suites.n; i++) {
		c->suites[i].name = xstrdup(tr->suites.v[i]);
		c->suites[i].status = status;
		c->suites[i].reason = xstrdup(reason);
		c->suites[i].excerpt = excerpt ? xstrdup(excerpt) : NULL;
	}
}

/*
 * The first failing check of a torture run ("completion: 81 violations,
 * ..."), but for @known, a finding of the version that is no kill.
 */
static char *first_violation(const struct suite_result *s, const char *known)
{
	for (int i = 0; i < s->ktap.nr_tests; i++) {
		const struct ktap_test *t = &s->ktap.tests[i];

		for (int j = 0; j < t->nr_subtests; j++)
			if (t->subtests[j].status == KTAP_FAIL &&
			    !(known && !strcmp(t->subtests[j].name, known)))
				return xasprintf("%s: %s", t->subtests[j].name,
						 t->subtests[j].directive ?
						 t->subtests[j].directive : "violated");
	}
	return NULL;
}

/* The torture's subtest named @name, or NULL. */
static const struct ktap_test *find_check(const struct suite_result *s,
					  const char *name)
{
	for (int i = 0; i < s->ktap.nr_tests; i++)
		for (int j = 0; j < s->ktap.tests[i].nr_subtests; j++)
			if (!strcmp(s->ktap.tests[i].subtests[j].name, name))
				return &s->ktap.tests[i].subtests[j];
	return NULL;
}

static const struct shape_rate *find_rate(const struct target_result *tr,
					  const char *shape)
{
	for (int i = 0; i < tr->nr_rates; i++)
		if (!strcmp(tr->rates[i].shape, shape))
			return &tr->rates[i];
	return NULL;
}

/* The failing checks of a torture run other than @name, or NULL: "liveness, requeue". */
static char *other_violations(const struct suite_result *s, const char *name)
{
	char *out = NULL;

	for (int i = 0; i < s->ktap.nr_tests; i++)
		for (int j = 0; j < s->ktap.tests[i].nr_subtests; j++) {
			const struct ktap_test *t = &s->ktap.tests[i].subtests[j];

			if (t->status == KTAP_FAIL && strcmp(t->name, name))
				xappendf(&out, "%s%s", out ? ", " : "", t->name);
		}
	return out;
}


/*
 * A mutant caught by a check is KILLED.  One that got through is SURVIVED
 * where calibration saw its shape on this target (the torture must do
 * better), and UNOBSERVABLE where it did not: never a pass.
 */
static void set_cell(struct suite_result *s, enum cell_status status,
		     char *reason)
{
	free(s->reason);
	s->reason = reason;
	s->status = status;
}

/* The oracle a detector must fire, or NULL for a torture check. */
static const struct oracle *detector_oracle(const struct suite *suite)
{
	bool found;

	return oracle_find(suite->must_fire, &found);
}

/*
 * The earlier suite whose report left @tr's oracle unable to report when
 * @s ran, or NULL: an oracle that reports once per boot (KASAN without
 * kasan_multi_shot) and already did.  Reports from the boot before the
 * first suite are not kept per suite; kwmatrix boots with the parameter.
 */
static const char *oracle_blinded_by(const struct target_result *tr,
				     const struct suite_result *s)
{
	const struct oracle *o = tr->oracle;

	if (!o || !o->every_report ||
	    (tr->kernel_append && strstr(tr->kernel_append, o->every_report)))
		return NULL;
	for (const struct suite_result *e = tr->console.suites; e < s; e++)
		if (e->report.oracle == o && e->report.count)
			return e->name;
	return NULL;
}

/* An oracle that could no longer report judged nothing: not a survivor. */
static bool judge_blind_oracle(const struct target_result *tr, struct suite_result *s)
{
	const char *by = oracle_blinded_by(tr, s);

	if (!by)
		return false;
	set_cell(s, CELL_UNOBSERVABLE,
		 xasprintf("%s could not report here: it reports once per boot without %s on the command line, and reported in %s before this suite ran",
			   tr->oracle->title, tr->oracle->every_report, by));
	return true;
}

/*
 * A detector is KILLED only by what it names: its torture check, or its
 * oracle's report on the subject.  Other checks may fire beside it (a
 * wake-up before func() also breaks completion); the reason says so.
 */
static void judge_detector(const struct run *run, struct target_result *tr,
			   struct suite_result *s, const struct suite *suite)
{
	const struct oracle *o = detector_oracle(suite);
	const struct ktap_test *check = o ? NULL : find_check(s, suite->must_fire);

	(void)run;
	if (o && s->report.oracle == o && s->report.origin == ORIGIN_SUBJECT)
		set_cell(s, CELL_KILLED, xstrdup(s->report.title));
	else if (check && check->status == KTAP_FAIL)
		set_cell(s, CELL_KILLED, xasprintf("%s: %s", check->name,
						   check->directive ? check->directive : "violated"));
	else if (!o && !check && s->status == CELL_FAIL)
		/* Not a survivor: the torture never got to check (a module did not load). */
		set_cell(s, CELL_FAIL, xasprintf("the %s check never ran: %s", suite->must_fire,
						 s->reason ? s->reason : "no KTAP case of it"));
	else if ((s->status == CELL_PASS || s->status == CELL_FAIL) &&
		 !(o && judge_blind_oracle(tr, s)))
		set_cell(s, CELL_SURVIVED,
			 xasprintf("%s did not catch a break it must catch anywhere, in %s",
				   o ? o->title : suite->must_fire,
				   s->stats ? s->stats : "a run without figures"));
}

/* The value of "@key=" in the torture's figures, up to a space; "?" if not said. */
static char *stat_value(const struct suite_result *s, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = s->stats; p && (p = strstr(p, key)); p += len)
		if ((p == s->stats || p[-1] == ' ') && p[len] == '=')
			return xasprintf("%.*s", (int)strcspn(p + len + 1, " "), p + len + 1);
	return xstrdup("?");
}

/*
 * Racing instances one weak outcome needs at @r's rate, against the
 * flushes the torture made: a survivor of a rare shape says how far off
 * the torture was.
 */
static char *survivor_reason(const struct suite_result *s, const struct shape_rate *r,
			     const char *shape)
{
	char *flushes = stat_value(s, "flushes");
	char *why = xasprintf("no check caught it, yet calibration saw %s here: %lu weak in %lu runs (%.2f per million); one weak outcome takes about %.0f racing instances at that rate, and the torture made %s flushes (raise -d, or make the torture race harder)",
			      shape, r->weak, r->runs, shape_rate_per_million(r),
			      (double)r->runs / (double)r->weak, flushes);

	free(flushes);
	return why;
}

/* A short repeat of the hunt another column made -d (plan_repeats_hunt()). */
static char *repeat_note(const struct target_result *tr, const struct suite_result *s)
{
	return xasprintf("hunted -d on %s, repeated %.0f s here: the emulated machine is the same software on every target",
			 tr->emu_hunted_on, s->seconds);
}

/*
 * What a survivor's cell adds about its own run: not run (held back by
 * the calibration before it, or a covered mutant another column sampled:
 * collect.c), a covered mutant sampled, or a short repeat of another
 * column's hunt.
 */
static char *survivor_run_note(const struct target_result *tr,
			       const struct suite_result *s, const struct suite *suite)
{
	char *repeat, *note;

	if (s->not_run)
		return xasprintf("; not run here: %s", s->not_run);
	if (plan_samples_covered(tr, suite))
		return xasprintf("; sampled %.0f s here (hunted -d with an oracle kernel: -k all)",
				 s->seconds);
	if (!plan_repeats_hunt(tr, suite))
		return xstrdup("");
	repeat = repeat_note(tr, s);
	note = xasprintf("; %s", repeat);
	free(repeat);
	return note;
}

/*
 * A survivor on the emulated machine: that machine reorders every
 * unfenced shape where calibrate-emu passed, so getting through means
 * the torture did not race hard enough, not that nothing reorders.
 */
/* Whether a steered hunt waited and never met its partner: it steered nothing. */
static bool steering_never_met(const struct suite_result *s)
{
	const char *awaits = s->steering ? strstr(s->steering, " awaits=") : NULL;
	const char *met = awaits ? strstr(awaits, " met=") : NULL;

	return met && atoi(awaits + 8) > 0 && atoi(met + 5) == 0;
}

static void judge_emulated_survivor(const struct run *run,
				    const struct target_result *tr,
				    struct suite_result *s, const struct suite *suite)
{
	const struct suite_result *machine = report_find_cell(tr, suite->calibrated_by);
	const struct lkmm_barrier *model = lkmm_find(run->models, suite->subject,
						     suite->mutant_of);
	char *why, *note;

	/*
	 * No herd7 here, and only the header says nothing can kill it: a
	 * claim, not evidence.  The cell says what ran and that it is
	 * unchecked; it is neither a pass nor a survivor to chase.
	 */
	if (lkmm_barrier_claims_cover(model)) {
		why = lkmm_outcome_describe(&model->without);
		note = survivor_run_note(tr, s, suite);
		set_cell(s, CELL_UNCHECKED,
			 xasprintf("no check caught it on the emulated machine in %s; only the memory model's header says the %s without %s is %s, covered by %s (fix: build herd7, README \"Barrier verdicts\")%s",
				   s->stats ? s->stats : "a run without figures",
				   suite->subject, suite->mutant_of, why,
				   model->covered_by, note));
		free(note);
		free(why);
	} else if (!machine || machine->status != CELL_PASS) {
		set_cell(s, CELL_UNDECIDED,
			 xasprintf("%s did not pass here (%s), so nothing shows the emulation reorders: its survival proves nothing either way",
				   suite->calibrated_by,
				   machine ? cell_status_name(machine->status) : "not run"));
	} else if (steering_never_met(s)) {
		set_cell(s, CELL_UNDECIDED,
			 xasprintf("no check caught it, but its steering never met a wait (%s): a site it waits at is not in this code, or never passed, so the hunt did not make the execution it looks for, and its survival proves nothing",
				   s->steering));
	} else
		set_cell(s, CELL_SURVIVED,
			 xasprintf("no check caught it on the emulated machine, which %s shows reorders every unfenced shape, in %s (raise -d, or make the torture race harder)",
				   suite->calibrated_by,
				   s->stats ? s->stats : "a run without figures"));
}

/*
 * A mutant caught by a check or by the oracle is KILLED.  One that got
 * through is COVERED where the memory model shows another primitive
 * orders what its barrier did (no test can kill it on any machine),
 * SURVIVED where calibration saw its shape on this target (the torture
 * must do better), and UNOBSERVABLE where it did not, or where the oracle
 * cannot model it: never a pass.
 */
/*
 * Why a kill on @suite's machine proves nothing here, or NULL: each of
 * its validations (@suite->validated_by, comma-separated) must have run
 * and passed on the column; a machine that showed what the memory model
 * forbids, or that nobody validated, proves no barrier necessary.
 */
static char *unvalidated(const struct target_result *tr, const struct suite *suite)
{
	char *names = xstrdup(suite->validated_by ? suite->validated_by : ""), *save, *out = NULL;

	for (char *name = strtok_r(names, ",", &save); name && !out;
	     name = strtok_r(NULL, ",", &save)) {
		const struct suite_result *check = report_find_cell(tr, name);

		if (!check)
			out = xasprintf("%s did not run here, so nothing shows the machine that killed it is sound (fix: run -s %s with it)",
					name, name);
		else if (check->status != CELL_PASS)
			out = xasprintf("on a machine that failed its validation: %s is %s here (%s), so the kill proves nothing",
					name, cell_status_name(check->status),
					check->reason ? check->reason : "no reason given");
	}
	free(names);
	return out;
}

static void set_killed(const struct target_result *tr, struct suite_result *s,
		       const struct suite *suite, char *why)
{
	char *not_sound = unvalidated(tr, suite);

	if (not_sound) {
		set_cell(s, CELL_UNDECIDED, xasprintf("killed (%s), but %s", why, not_sound));
		free(why);
		free(not_sound);
	} else {
		set_cell(s, CELL_KILLED, why);
	}
}

/*
 * Weak outcomes of its shape a native mutant's torture must be expected
 * to meet, at the rate calibration saw, for its survival to be evidence:
 * at three, 95 % of such runs meet one (Poisson).  Its flushes are its
 * racing instances.  Under TCG it runs 2 s (plan.c), and a shape seen a
 * few times per million needs far more.
 */
#define SURVIVOR_EXPECTED_WEAK	3

/* The weak outcomes @s's flushes would meet at @r's rate; < 0 if not said. */
static double expected_weak(const struct suite_result *s, const struct shape_rate *r)
{
	char *flushes = stat_value(s, "flushes"), *end;
	unsigned long made = strtoul(flushes, &end, 10);
	bool known = end != flushes && !*end;

	free(flushes);
	return known ? (double)made * (double)r->weak / (double)r->runs : -1;
}

/* Without a figure, assume it could fail: the cell stays red rather than excused. */
static bool long_enough_for(const struct suite_result *s, const struct shape_rate *r)
{
	double expected = expected_weak(s, r);

	return expected < 0 || expected >= SURVIVOR_EXPECTED_WEAK;
}

static char *too_short_reason(const struct suite_result *s, const struct shape_rate *r,
			      const char *shape)
{
	char *flushes = stat_value(s, "flushes"), *seconds = stat_value(s, "seconds");
	char *why = xasprintf("calibration saw %s here, but rarely: %lu weak in %lu runs (%.2f per million); at that rate the torture's %s flushes in %s s would meet %.2f weak outcomes, fewer than the %d at which 95 %% of runs meet one, so this run could not be expected to fail (a real board, -L, runs it -d)",
			      shape, r->weak, r->runs, shape_rate_per_million(r),
			      flushes, seconds, expected_weak(s, r), SURVIVOR_EXPECTED_WEAK);

	free(flushes);
	free(seconds);
	return why;
}

/*
 * A native mutant on a plain kernel that nothing killed, or that the
 * guest did not run (KWM_PARAM_NEEDS_WEAK): judged by the calibration of
 * its shape.  A single weak outcome is an observation, not noise: a
 * fenced shape fails on one.  But a torture too short to be expected to
 * meet one at the rate calibration saw could not fail
 * (SURVIVOR_EXPECTED_WEAK).  Without a figure nothing was shown either
 * way.
 */
static void judge_native_survivor(const struct target_result *tr,
				  struct suite_result *s, const struct suite *suite)
{
	const struct shape_rate *r = find_rate(tr, suite->shape);

	if (!r || !r->runs)
		set_cell(s, CELL_UNDECIDED,
			 xasprintf("no calibration figure for %s on this kernel (the calibrate suite did not report it), so its survival proves nothing either way",
				   suite->shape));
	else if (s->not_run && r->weak)
		set_cell(s, CELL_UNDECIDED,
			 xasprintf("the guest did not run it (%s), yet calibration saw %s %lu times in %lu runs",
				   s->not_run, suite->shape, r->weak, r->runs));
	else if (s->not_run)
		/* The guest's own reading of the same figure (plan.c). */
		set_cell(s, CELL_UNOBSERVABLE,
			 xasprintf("calibration saw %s 0 times in %lu runs here: this platform cannot show what the barrier guards against, and only that reordering kills this mutant here, so the guest did not run it",
				   suite->shape, r->runs));
	else if (r->weak && !long_enough_for(s, r))
		set_cell(s, CELL_UNOBSERVABLE, too_short_reason(s, r, suite->shape));
	else if (r->weak)
		set_cell(s, CELL_SURVIVED, survivor_reason(s, r, suite->shape));
	else {
		char *seconds = stat_value(s, "seconds");

		/* Its time may be cut under TCG (plan.c): say how long it ran. */
		set_cell(s, CELL_UNOBSERVABLE,
			 xasprintf("calibration saw %s 0 times in %lu runs here: this platform cannot show what the barrier guards against (the mutant ran %s s)",
				   suite->shape, r->runs, seconds));
		free(seconds);
	}
}

static void judge_mutant(const struct run *run, struct target_result *tr,
			 struct suite_result *s, const struct suite *suite)
{
	const struct lkmm_barrier *covered;
	char *why;

	if (s->report.origin == ORIGIN_SUBJECT) {
		set_killed(tr, s, suite, xasprintf("%s", s->report.title));
		return;
	}
	if (s->status == CELL_FAIL && (why = first_violation(s, suite->known_finding))) {
		set_killed(tr, s, suite, why);
		return;
	}
	/* Only the version's own finding fired: the mutant got through. */
	if (s->status == CELL_FAIL && suite->known_finding &&
	    find_check(s, suite->known_finding) &&
	    find_check(s, suite->known_finding)->status == KTAP_FAIL)
		s->status = CELL_PASS;
	if (s->status != CELL_PASS)
		return;
	/* Not a platform's limit: no test anywhere can kill this one. */
	covered = lkmm_find(run->models, suite->subject, suite->mutant_of);
	if (lkmm_barrier_covered(covered)) {
		char *note = survivor_run_note(tr, s, suite);

		set_cell(s, CELL_COVERED,
			 xasprintf("nothing can kill it anywhere: the memory model of the %s without %s says %s, covered by %s%s",
				   suite->subject, suite->mutant_of,
				   lkmm_outcome_verdict(&covered->without),
				   covered->covered_by, note));
		free(note);
		return;
	}
	/*
	 * The model that says nothing can kill it is not of this code: its
	 * claim does not hold.  (A barrier it needs is judged by the platform.)
	 */
	if (covered && covered->stale && lkmm_barrier_covered_as_was(covered)) {
		set_cell(s, CELL_UNDECIDED,
			 xasprintf("no check caught it, and the memory model's word on it does not hold: %s",
				   covered->stale));
		return;
	}
	if (suite->emulated) {
		judge_emulated_survivor(run, tr, s, suite);
		return;
	}
	if (tr->oracle && judge_blind_oracle(tr, s))
		return;
	if (tr->oracle) {
		set_cell(s, CELL_UNOBSERVABLE,
			 xasprintf("%s reported nothing and no check fired: %s",
				   tr->oracle->title, tr->oracle->limits));
		return;
	}
	judge_native_survivor(tr, s, suite);
}

/*
 * A check made at build time: sparse's output, kept in the build folder.
 * Only the series' files count; make C=2 also checks what they depend on.
 */
static void judge_sparse(const struct run *run, struct target_result *tr,
			 struct suite_result *s, const struct suite *suite)
{
	const char *log = tr->sparse.log, *text = tr->sparse.text;
	char *excerpt = NULL;
	int findings = 0;

	(void)suite;

	if (!text) {
		set_cell(s, CELL_ERROR, xasprintf("no sparse output in %s", log));
	} else if (tr->sparse.tool_missing) {
		set_cell(s, CELL_ERROR, xstrdup(SPARSE_MISSING));
	} else {
		for (const char *line = text, *nl; *line; line = nl + !!*nl) {
			nl = strchrnul(line, '\n');
			if (!series_diagnostic(run->series_files, line, nl - line))
				continue;
			if (findings++ < 20)
				xappendf(&excerpt, "%.*s\n", (int)(nl - line), line);
		}
		if (findings)
			set_cell(s, CELL_FAIL, xasprintf("sparse: %d warnings and errors in the series (see %s)",
							  findings, log));
		else if (tr->sparse.exit_status)
			/* Say why in the cell: e.g. riscv's -march is too new for sparse 0.6.4. */
			set_cell(s, CELL_UNOBSERVABLE,
				 xasprintf("sparse could not check the series here, for a reason outside it (see %s)",
					   log));
		else
			set_cell(s, CELL_PASS, NULL);
	}
	free(s->excerpt);
	s->excerpt = excerpt;
	/* Not a KTAP suite: no counts. */
	memset(&s->counts, 0, sizeof(s->counts));
}

/* checkpatch --strict on the column's version of the series (checkpatch.c). */
static void judge_checkpatch(const struct run *run, struct target_result *tr,
			     struct suite_result *s, const struct suite *suite)
{
	const struct static_result *r = &tr->checkpatch;
	const char *text = r->text;
	int ok = r->clean, failed = r->findings;

	(void)run;
	(void)suite;

	memset(&s->counts, 0, sizeof(s->counts));
	if (r->exit_status < 0) {
		set_cell(s, CELL_ERROR, xasprintf("no checkpatch output in %s",
						  r->log ? r->log : "the run"));
		return;
	}
	if (failed) {
		set_cell(s, CELL_FAIL, xasprintf("checkpatch --strict: findings in %d of %d patches (see %s)",
						  failed, ok + failed, tr->checkpatch.log));
		free(s->excerpt);
		s->excerpt = xasprintf("%.*s", (int)r->output_len, text);
	} else if (r->exit_status || !ok) {
		/* No tree to take checkpatch.pl from: its one line says why. */
		set_cell(s, CELL_ERROR, xasprintf("%.*s", (int)strcspn(text, "\n"), text));
	} else {
		set_cell(s, CELL_PASS, xasprintf("%d patches clean", ok));
	}
	s->counts.passed = ok;
	s->counts.failed = failed;
}

/* The build itself, with W=1 on the series' files: it built. */
static void judge_build(const struct run *run, struct target_result *tr,
			struct suite_result *s, const struct suite *suite)
{
	(void)run;
	(void)tr;
	(void)suite;
	set_cell(s, CELL_PASS, NULL);
}

/*
 * Whether the build errors name one of the series' files, or what is made
 * from one: "lib/kw_worker_torture.ko" for lib/kw_worker_torture.c.
 */
static bool mentions_series(const struct run *run, const char *excerpt)
{
	for (int i = 0; excerpt && run->series_files && i < run->series_files->n; i++) {
		const char *file = run->series_files->v[i], *dot = strrchr(file, '.');
		char *stem = strndup(file, dot ? (size_t)(dot - file) : strlen(file));
		bool hit = strstr(excerpt, stem) != NULL;

		free(stem);
		if (hit)
			return true;
	}
	return false;
}


/*
 * The column's oracle is built in but did not start: what it would have
 * judged was not shown.  What happened anyway (a failing check, a crash,
 * a timeout) stays what it is, with the oracle's absence said beside it.
 */
static void judge_inactive_oracle(struct target_result *tr)
{
	char *why = xasprintf("%s is built in but did not start here: the console says \"%s\"",
			      tr->oracle->title, tr->oracle->inactive);

	for (int i = 0; i < tr->console.nr_suites; i++) {
		struct suite_result *s = &tr->console.suites[i];

		if (s->status == CELL_PASS || s->status == CELL_UNOBSERVABLE ||
		    s->status == CELL_SURVIVED)
			set_cell(s, CELL_UNOBSERVABLE, xstrdup(why));
		else
			set_cell(s, s->status, xasprintf("%s (and %s)",
							 s->reason ? s->reason : cell_status_name(s->status),
							 why));
	}
	free(why);
}

/* A known finding: XFAIL only when the finding's own check fired. */
static void judge_finding(const struct run *run, struct target_result *tr,
			  struct suite_result *s, const struct suite *suite)
{
	(void)run;
	(void)tr;
	if (s->status == CELL_FAIL) {
		const struct ktap_test *check = find_check(s, suite->must_fire);
		char *others = other_violations(s, suite->must_fire);

		/* A report of an oracle on the subject stays what it is. */
		if (s->report.origin == ORIGIN_SUBJECT)
			;
		else if (others)
			set_cell(s, CELL_FAIL,
				 xasprintf("not the known finding: the %s check failed (the finding is the %s check)",
					   others, suite->must_fire));
		else if (check && check->status == KTAP_FAIL)
			set_cell(s, CELL_XFAIL,
				 xasprintf("known finding reproduced: %s: %s", check->name,
					   check->directive ? check->directive : "violated"));
		else
			set_cell(s, CELL_FAIL,
				 xasprintf("the %s check never ran, so the known finding was not looked for: %s",
					   suite->must_fire,
					   s->reason ? s->reason : "no KTAP case of it"));
		free(others);
	} else if (s->status == CELL_PASS) {
		set_cell(s, CELL_XPASS,
			 xstrdup("known finding not reproduced: run longer, or has it gone?"));
	}
}

/* Whether a "Sometimes" test of @test's shape showed its weak outcome on @side. */
static bool litmus_shape_shown(const struct target_result *tr, const char *test,
			       int side)
{
	size_t len = litmus_shape_len(test);

	for (int i = 0; i < tr->nr_litmus; i++) {
		const struct litmus_row *r = &tr->litmus[i];

		if (!strcmp(r->result, "Sometimes") && r->side[side].weak &&
		    litmus_shape_len(r->test) == len && !strncmp(r->test, test, len))
			return true;
	}
	return false;
}

/* Add @test's shape to *@shapes, "SB, R", once. */
static void add_shape(char **shapes, const char *test)
{
	int len = (int)litmus_shape_len(test);
	char *shape = xasprintf("%.*s", len, test);
	const char *at = *shapes ? strstr(*shapes, shape) : NULL;

	/* A whole item: "S" is not in "SB, R" */
	while (at && ((at != *shapes && at[-1] != ' ') || (at[len] && at[len] != ',')))
		at = strstr(at + 1, shape);
	if (!at)
		xappendf(shapes, "%s%s", *shapes ? ", " : "", shape);
	free(shape);
}

/*
 * A passing litmus cell: which of its "Never" tests could have failed
 * here.  One whose shape never showed its allowed weak outcome on this
 * side (no "Sometimes" test of that shape, by name, saw one) was not put
 * to the test; where none was, the cell is UNOBSERVABLE, never a pass.
 */
static void judge_litmus(struct target_result *tr, struct suite_result *s, int side)
{
	char *could = NULL, *could_not = NULL, *why = NULL;
	int n_could = 0, n_not = 0, n_brief = 0;

	for (int i = 0; i < tr->nr_litmus; i++) {
		const struct litmus_row *r = &tr->litmus[i];
		bool tested;

		if (strcmp(r->result, "Never") || !r->side[side].seen || r->side[side].skip)
			continue;
		tested = litmus_shape_shown(tr, r->test, side);
		n_could += tested;
		n_not += !tested;
		n_brief += r->side[side].brief;
		add_shape(tested ? &could : &could_not, r->test);
	}
	if (n_brief)
		why = xasprintf("%d could not (%s: unobservable here; %d of them ran their minimum rounds only, a Sometimes test of their shape having shown nothing)",
				n_not, could_not, n_brief);
	else if (n_not)
		why = xasprintf("%d could not (%s: unobservable here)", n_not, could_not);
	if (!n_could && n_not)
		set_cell(s, CELL_UNOBSERVABLE,
			 xasprintf("none of its %d Never tests could fail here: no Sometimes test of their shapes showed its weak outcome; %s",
				   n_not, why));
	else if (n_could)
		set_cell(s, CELL_PASS,
			 xasprintf("%d of %d Never tests could fail here (a Sometimes test of their shape showed its weak outcome: %s)%s%s",
				   n_could, n_could + n_not, could, why ? "; " : "",
				   why ? why : ""));
	free(why);
	free(could);
	free(could_not);
}

/*
 * Every KTAP case passed, or not: what parsing the console found stands.
 * A test of the emulated machine another column hunted says so.
 */
static void judge_ktap(const struct run *run, struct target_result *tr,
		       struct suite_result *s, const struct suite *suite)
{
	char *repeat, *reason;

	(void)run;
	if (suite->litmus_side && s->status == CELL_PASS)
		judge_litmus(tr, s, suite->litmus_side - 1);
	/* A failed test names the check that failed, and how. */
	if (s->status == CELL_FAIL && !s->report.count && (reason = first_violation(s, NULL))) {
		free(s->reason);
		s->reason = reason;
	}
	if (!plan_repeats_hunt(tr, suite))
		return;
	repeat = repeat_note(tr, s);
	reason = s->reason ? xasprintf("%s; %s", s->reason, repeat) : xstrdup(repeat);
	free(repeat);
	free(s->reason);
	s->reason = reason;
}

/* How each kind of suite is judged: locktorture's cur_ops, for cells. */
struct suite_ops {
	void (*judge)(const struct run *run, struct target_result *tr,
		      struct suite_result *s, const struct suite *suite);
	/* A cell that may stand without a run (KWM_PARAM_NEEDS_WEAK). */
	bool judges_not_run;
};

static const struct suite_ops suite_ops[SUITE_NR_KINDS] = {
	[SUITE_KTAP] = { judge_ktap },
	[SUITE_FINDING] = { judge_finding },
	[SUITE_MUTANT] = { judge_mutant, .judges_not_run = true },
	[SUITE_DETECTOR] = { judge_detector },
	[SUITE_BUILD] = { judge_build },
	[SUITE_SPARSE] = { judge_sparse },
	[SUITE_CHECKPATCH] = { judge_checkpatch },
};

/* The cells of @tr whose suites run in the guest (@in_guest), or the others. */
static void judge_cells(const struct run *run, struct target_result *tr, bool in_guest)
{
	for (int i = 0; i < tr->console.nr_suites; i++) {
		const struct suite *suite = suite_find(tr->suites.v[i]);

		struct suite_result *s = &tr->console.suites[i];

		/* Not made of this revision (plan_not_applicable()): nothing ran to judge. */
		if (!suite || suite_in_guest(suite) != in_guest || plan_not_applicable(tr, suite))
			continue;
		if (s->not_run && !suite_ops[suite->kind].judges_not_run)
			set_cell(s, CELL_ERROR,
				 xasprintf("the guest did not run it (%s), and nothing else decides this cell",
					   s->not_run));
		else
			suite_ops[suite->kind].judge(run, tr, s, suite);
	}
}

/* What a column's guest showed, once its console has been parsed. */
static void judge_guest(const struct run *run, struct target_result *tr)
{
	judge_cells(run, tr, true);
	if (tr->oracle_inactive)
		judge_inactive_oracle(tr);
	if (!tr->console_empty)
		return;
	for (int i = 0; i < tr->console.nr_suites; i++) {
		struct suite_result *s = &tr->console.suites[i];

		if (s->status == CELL_TIMEOUT)
			continue;
		set_cell(s, s->status, xasprintf("QEMU exited with status %d and no console output",
						 tr->guest.exit_status));
		free(s->excerpt);
		s->excerpt = tr->qemu_text ? xstrdup(tr->qemu_text) : NULL;
	}
}

/* The mutant cells of barrier @tag of @version, in every column. */
static int mutants_seen(const struct run *run, const char *version,
			const char *tag, struct mutant_seen *seen)
{
	int n = 0;

	for (int t = 0; t < run->nr_targets; t++) {
		const struct target_result *tr = &run->targets[t];

		for (int i = 0; i < tr->console.nr_suites; i++) {
			const struct suite_result *s = &tr->console.suites[i];
			const struct suite *suite = suite_find(s->name);

			if (!suite || !suite->mutant_of || strcmp(suite->mutant_of, tag) ||
			    strcmp(suite->subject, version))
				continue;
			seen[n++] = (struct mutant_seen){
				.column = tr->build.name, .suite = s->name,
				.status = s->status, .reason = s->reason,
				.stats = s->stats,
			};
		}
	}
	return n;
}

/* Each barrier of each version: its model beside its mutants' cells. */
void judge_barriers(struct run *run)
{
	int most = 0;
	struct mutant_seen *seen;

	/* Again, on more evidence: the earlier verdicts go. */
	for (int i = 0; i < run->nr_verdicts; i++)
		barrier_verdict_free(&run->verdicts[i]);
	free(run->verdicts);
	run->verdicts = NULL;
	run->nr_verdicts = 0;
	if (!run->models)
		return;
	for (int t = 0; t < run->nr_targets; t++)
		most += run->targets[t].console.nr_suites;
	seen = xcalloc(most + 1, sizeof(*seen));
	run->verdicts = xcalloc(kwm_nr_subject_versions * kwm_nr_barrier_tags,
				sizeof(*run->verdicts));
	for (int v = 0; v < kwm_nr_subject_versions; v++) {
		for (int b = 0; b < kwm_nr_barrier_tags; b++) {
			struct barrier_verdict *out = &run->verdicts[run->nr_verdicts++];
			int n = mutants_seen(run, kwm_subject_versions[v],
					     kwm_barrier_tags[b], seen);

			out->version = kwm_subject_versions[v];
			out->barrier = kwm_barrier_tags[b];
			verdict_decide(run->models[v].barriers[b], seen, n, out);
		}
	}
	free(seen);
}

void judge_target(struct run *run, struct target_result *tr)
{
	if (tr->judged)
		return;
	tr->judged = true;
	if (tr->unavailable) {
		fail_all(tr, CELL_UNOBSERVABLE, tr->unavailable, NULL);
		return;
	}
	if (!tr->build_ok && tr->build.error && !tr->target->qemu &&
	    !mentions_series(run, tr->build.excerpt)) {
		char *why = xasprintf("%s cannot be built here for a reason outside the series: %s",
				      tr->target->name, tr->build.error);

		fail_all(tr, CELL_UNOBSERVABLE, why, tr->build.excerpt);
		free(why);
		return;
	}
	if (!tr->build_ok) {
		fail_all(tr, CELL_ERROR,
			 tr->build.error ? tr->build.error :
			 run->complete ? "not built" :
			 "run interrupted before this build",
			 tr->build.excerpt);
		return;
	}
	if (tr->guest.ran)
		judge_guest(run, tr);
	else
		fail_all(tr, CELL_ERROR,
			 run->complete ? "guest did not start" :
			 "run interrupted before this guest", NULL);
	/* Whatever its guest did, the build-time checks stand. */
	judge_cells(run, tr, false);
}

void judge_run(struct run *run)
{
	for (int t = 0; t < run->nr_targets; t++)
		judge_target(run, &run->targets[t]);
	judge_barriers(run);
}

