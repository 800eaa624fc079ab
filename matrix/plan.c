// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "plan.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "kwm_protocol.h"
#include "lkmm.h"
#include "oracles.h"
#include "suites.h"
#include "targets.h"
#include "subject.h"

/* Whether @s is the first of @tr's suites to ask for @text on the command line. */
static bool first_to_ask(const struct target_result *tr, int upto,
			 const char *(*field)(const struct suite *),
			 const char *text)
{
	for (int j = 0; j < upto; j++) {
		const char *other = field(suite_find(tr->suites.v[j]));

		if (other && !strcmp(other, text))
			return false;
	}
	return true;
}

static const char *duration_module_of(const struct suite *s)
{
	return s->duration_module;
}

static const char *params_of(const struct suite *s)
{
	return s->params;
}

/* -d, or more where the column's oracle needs it. */
/* A native mutant's torture under TCG (suite_seconds()). */
#define TCG_NATIVE_MUTANT_SECONDS	2
/* A test of the emulated machine another column hunted -d (suite_seconds()). */
#define REPEATED_HUNT_SECONDS		2
/* A covered barrier's emulated mutant where the run samples it (suite_seconds()). */
#define COVERED_SAMPLE_SECONDS		2

static int torture_seconds(const struct options *o, const struct target_result *tr)
{
	if (tr->oracle && tr->oracle->min_seconds > o->duration)
		return tr->oracle->min_seconds;
	return o->duration;
}

/*
 * A native mutant on a plain kernel under TCG: only reordering can kill
 * it there, and on an x86 host TCG shows no MP and almost no SB
 * (docs/figures.md).  The guest runs it only where the calibration before
 * it saw its shape's weak outcome (KWM_PARAM_NEEDS_WEAK), for
 * TCG_NATIVE_MUTANT_SECONDS; its cell is judged by that calibration, so a
 * shape the host does show still makes it SURVIVED, not green.  The
 * oracle kernels' mutants and the emulated ones keep their time, and so
 * does every mutant through LAVA (-L), which may boot a real board.
 */
static bool only_reordering_kills(const struct options *o,
				  const struct target_result *tr,
				  const struct suite *s)
{
	return s->kind == SUITE_MUTANT && !s->emulated && s->shape &&
	       !tr->oracle && tr->under_tcg && !o->lava;
}

static bool is_covered_emulated_mutant(const struct target_result *tr,
				      const struct suite *s)
{
	return s->kind == SUITE_MUTANT && s->emulated &&
	       lkmm_barrier_claims_cover(lkmm_find(tr->models, s->subject, s->mutant_of));
}

/*
 * Whether the run hunts covered barriers' emulated mutants -d: where it
 * spends time for depth, with an oracle kernel (the nightly's -k all), or
 * may boot a real board (-L).  Otherwise each is sampled
 * COVERED_SAMPLE_SECONDS by the first column of its version that boots
 * with it, and the later ones leave it out (plan_holds_back()): the
 * memory model says nothing can kill it, the emulated machine is the same
 * software on every target, and on it every uncovered barrier's mutant
 * died within 1.4 s in a default run (9.86 s once, beside a make check:
 * docs/emulation.md), so hunting longer looks only for the model to be
 * wrong.
 */
static bool hunts_covered(const struct options *o)
{
	bool found;

	if (o->lava)
		return true;
	for (int i = 0; i < o->kernels.n; i++)
		if (oracle_find(o->kernels.v[i], &found))
			return true;
	return false;
}

bool plan_samples_covered(const struct target_result *tr, const struct suite *s)
{
	return tr->samples_covered && is_covered_emulated_mutant(tr, s);
}

bool plan_holds_back(const struct target_result *tr, const struct suite *s)
{
	return tr->covered_sampled_on && plan_samples_covered(tr, s);
}

const char *plan_not_applicable(const struct target_result *tr, const struct suite *s)
{
	const struct strlist *na = &tr->build.not_applicable;
	const char *m = s && na->n ? s->modules : NULL;

	while (m && *m) {
		size_t len = strcspn(m, KWM_RUN_MODULES_SEP), dir = strcspn(m, "/");

		for (int i = 0; dir < len && i < na->n; i++)
			if (strlen(na->v[i]) == dir && !strncmp(na->v[i], m, dir))
				return tr->build.not_applicable_why.v[i];
		m += len + (m[len] != '\0');
	}
	return NULL;
}

/* What column @tr's guest runs: in the guest, not held back, applicable. */
static bool runs_in_guest(const struct target_result *tr, const struct suite *s)
{
	return suite_in_guest(s) && !plan_holds_back(tr, s) && !plan_not_applicable(tr, s);
}

/*
 * What passes where the emulated machine is right: its own tests
 * (calibrate-emu, litmus-emu, torture-emu: same_everywhere) and, where the
 * run hunts them (hunts_covered()), a covered barrier's mutant on it, the
 * memory model's claim that nothing can kill it.  That machine is the
 * same software on every target (calibrate/kw_emu.h), so each version's
 * are hunted -d in the first guest that boots with them; a later column
 * of the same version and series runs them REPEATED_HUNT_SECONDS (a
 * failure or a kill there still counts), and its cells name the column
 * that hunted them.
 */
static bool tests_emulated_machine(const struct target_result *tr, const struct suite *s)
{
	if (s->same_everywhere)
		return true;
	return !tr->samples_covered && is_covered_emulated_mutant(tr, s);
}

bool plan_repeats_hunt(const struct target_result *tr, const struct suite *s)
{
	return tr->emu_hunted_on && tests_emulated_machine(tr, s);
}

/*
 * How long suite @s tortures, 0 if it does not.  A detector of the
 * column's oracle hunts: it runs until the oracle reports on the subject
 * (the guest's init ends it then), or the oracle's hunt_seconds.  So does
 * a mutant of a barrier the model does not say is covered: its torture
 * ends at its first violation.  One that is covered runs -d, on every
 * kernel: nothing can kill it, and hunting it, or sampling it for an
 * oracle's min_seconds, would only spend time (a kill would be a
 * CONTRADICTION, looked for as long as every other suite runs).
 *
 * A native mutant that only reordering can kill (only_reordering_kills())
 * runs TCG_NATIVE_MUTANT_SECONDS, where it runs at all; a test of the
 * emulated machine another column hunted, REPEATED_HUNT_SECONDS; a
 * covered barrier's emulated mutant where the run samples it,
 * COVERED_SAMPLE_SECONDS.
 */
static int suite_seconds(const struct options *o, const struct target_result *tr,
			 const struct suite *s)
{
	int seconds = torture_seconds(o, tr);
	bool covered = s->kind == SUITE_MUTANT &&
		lkmm_barrier_claims_cover(lkmm_find(tr->models, s->subject, s->mutant_of));

	if (!s->duration_module)
		return 0;
	if (only_reordering_kills(o, tr, s) && seconds > TCG_NATIVE_MUTANT_SECONDS)
		return TCG_NATIVE_MUTANT_SECONDS;
	if (plan_repeats_hunt(tr, s) && o->duration > REPEATED_HUNT_SECONDS)
		return REPEATED_HUNT_SECONDS;
	if (plan_samples_covered(tr, s) && o->duration > COVERED_SAMPLE_SECONDS)
		return COVERED_SAMPLE_SECONDS;
	/* Nothing to sample for: an oracle's min_seconds does not apply. */
	if (covered)
		return o->duration;
	if (s->hunt_seconds > seconds)
		return s->hunt_seconds;
	if (tr->oracle && s->kind == SUITE_DETECTOR && !strcmp(s->must_fire, tr->oracle->name) &&
	    tr->oracle->hunt_seconds > seconds)
		return tr->oracle->hunt_seconds;
	return seconds;
}

/* One more of a suite's own PARAMS in *@params. */
static void add_own_param(char **params, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_own_param(char **params, const char *fmt, ...)
{
	va_list ap;
	char *param;

	va_start(ap, fmt);
	param = xvasprintf(fmt, ap);
	va_end(ap);
	xappendf(params, "%s%s", *params ? KWM_RUN_PARAMS_SEP : "", param);
	free(param);
}

char *plan_run(const struct options *o, const struct target_result *tr)
{
	char *run = NULL, *params = NULL, *out;

	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);
		int seconds = suite_seconds(o, tr, s);

		if (!runs_in_guest(tr, s))
			continue;
		/* NAME:MODULES, and :PARAMS of its own: a duration not the line's. */
		xappendf(&run, "%s%s" KWM_RUN_FIELDS_SEP "%s", run ? KWM_RUN_SUITES_SEP : "",
			 s->name, s->modules);
		if (seconds && seconds != torture_seconds(o, tr))
			add_own_param(&params, "%s.duration=%d", s->duration_module, seconds);
		if (s->own_params)
			add_own_param(&params, "%s", s->own_params);
		if (only_reordering_kills(o, tr, s))
			add_own_param(&params, KWM_PARAM_NEEDS_WEAK "%s", s->shape);
		if (params)
			xappendf(&run, KWM_RUN_FIELDS_SEP "%s", params);
		free(params);
		params = NULL;
	}
	out = xasprintf(KWM_ARG_RUN "%s\n", run ? run : "");
	free(run);
	return out;
}

char *plan_kernel_append(const struct options *o, const struct target_result *tr)
{
	char *append = xasprintf("console=%s panic=-1%s%s", tr->target->console,
				 tr->target->early_console ? " " : "",
				 tr->target->early_console ? tr->target->early_console : "");

	(void)o;
	if (tr->oracle && tr->oracle->cmdline)
		xappendf(&append, " %s", tr->oracle->cmdline);
	return append;
}

char *plan_guest_args(const struct options *o, const struct target_result *tr)
{
	char *args = xstrdup("");

	if (tr->oracle)
		/* "KCSAN:" and "[kw_worker]" on one line: a report on the subject. */
		xappendf(&args, KWM_ARG_CATCH "%s: " KWM_ARG_SUBJECT "%s",
			 tr->oracle->title, SUBJECT_MODULE);
	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);

		if (s->duration_module &&
		    first_to_ask(tr, i, duration_module_of, s->duration_module))
			xappendf(&args, "%s%s.duration=%d", *args ? " " : "",
				 s->duration_module, torture_seconds(o, tr));
		if (s->params && first_to_ask(tr, i, params_of, s->params))
			xappendf(&args, "%s%s", *args ? " " : "", s->params);
	}
	return args;
}

/* The initrd's KWM_RUN_FILE: the guest's arguments, then its run list. */
static char *run_file(const struct options *o, const struct target_result *tr)
{
	char *args = plan_guest_args(o, tr), *run = plan_run(o, tr);
	char *file = xasprintf("%s\n%s", args, run);

	free(args);
	free(run);
	return file;
}

int plan_guest_bound(const struct options *o, const struct target_result *tr)
{
	int bound = tr->target->boot_seconds;

	if (o->timeout)
		return o->timeout;
	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);

		if (runs_in_guest(tr, s))
			bound += s->seconds + suite_seconds(o, tr, s);
	}
	return bound;
}

int plan_columns(const struct options *o, const struct version *versions,
		 struct run *run)
{
	int n = 0;

	run->targets = xcalloc(o->targets.n * o->versions.n * o->kernels.n,
			       sizeof(*run->targets));
	for (int t = 0; t < o->targets.n; t++) {
		for (int kk = 0; kk < o->versions.n * o->kernels.n; kk++) {
			struct target_result *tr = &run->targets[n];
			int k = kk % o->kernels.n;
			bool found;

			tr->env = &versions[kk / o->kernels.n].env;
			tr->target = target_find(o->targets.v[t]);
			tr->oracle = oracle_find(o->kernels.v[k], &found);
			for (int i = 0; i < o->suites.n; i++) {
				const struct suite *s = suite_find(o->suites.v[i]);

				/* A build-only target has only build-time cells. */
				if (list_has(s->kernels, o->kernels.v[k]) &&
				    (tr->target->qemu || !suite_in_guest(s)))
					strlist_add(&tr->suites, o->suites.v[i]);
			}
			if (tr->suites.n)
				n++;
			else
				memset(tr, 0, sizeof(*tr));
		}
	}
	run->nr_targets = n;
	if (!n)
		kwm_error("none of the suites asked for runs on the kernels asked for (fix: see kwmatrix list)");
	return n ? 0 : -1;
}

struct boot_policy plan_boot_policy(long ncpu, int nr_columns, int nr_cold)
{
	int builders = ncpu > 1 && !nr_cold ? (int)(2 * ncpu) : 1;

	return (struct boot_policy){
		.slots = ncpu / GUEST_VCPUS > 0 ? (int)(ncpu / GUEST_VCPUS) : 1,
		.alternate = ncpu < 2 * GUEST_VCPUS,
		.builders = builders < nr_columns ? builders : (nr_columns > 0 ? nr_columns : 1),
	};
}

/*
 * kwmatrix's own modules that column @tr's guest loads: whether any, and
 * the folders of those cut from the subject ("seed", "emu-series"), the
 * only ones of them built and packed (build.c).  A default column never
 * loads the detectors of the oracle kernels (late-wake, plain-done-seq).
 */
static void plan_test_modules(struct target_result *tr)
{
	struct build *b = &tr->build;

	b->test_modules = false;
	strlist_free(&b->module_dirs);
	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);

		for (const char *m = s->modules; suite_in_guest(s) && *m;) {
			size_t len = strcspn(m, KWM_RUN_MODULES_SEP);
			const char *slash = memchr(m, '/', len);

			if (build_made_module(m, len))
				b->test_modules = true;
			if (slash) {
				char *dir = xasprintf("%.*s", (int)(slash - m), m);

				if (!strlist_has(&b->module_dirs, dir))
					strlist_add(&b->module_dirs, dir);
				free(dir);
			}
			m += len + !!m[len];
		}
	}
}

/* Whether column @tr runs a suite of @kind. */
static bool asks_for(const struct target_result *tr, enum suite_kind kind)
{
	for (int i = 0; i < tr->suites.n; i++)
		if (suite_find(tr->suites.v[i])->kind == kind)
			return true;
	return false;
}

/* Whether column @tr's guest tests the emulated machine (tests_emulated_machine()). */
static bool tests_emulated_machines(const struct target_result *tr)
{
	for (int i = 0; i < tr->suites.n; i++)
		if (tests_emulated_machine(tr, suite_find(tr->suites.v[i])))
			return true;
	return false;
}

/* Whether column @on's guest samples every covered emulated mutant @tr has. */
static bool samples_covered_of(const struct target_result *on,
			       const struct target_result *tr)
{
	bool any = false;

	if (on->covered_sampled_on)
		return false;
	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);

		if (!plan_samples_covered(tr, s))
			continue;
		if (!strlist_has(&on->suites, s->name))
			return false;
		any = true;
	}
	return any;
}

static int count_guest_suites(const struct target_result *tr)
{
	int n = 0;

	for (int i = 0; i < tr->suites.n; i++)
		n += runs_in_guest(tr, suite_find(tr->suites.v[i]));
	return n;
}

void plan_before_boot(const struct options *o, struct run *run, int i)
{
	struct target_result *tr = &run->targets[i];
	const char *tested_on = NULL, *sampled_on = NULL;
	bool tests_it = tests_emulated_machines(tr);

	for (int j = 0; j < i; j++) {
		const struct target_result *on = &run->targets[j];

		if (!on->booted || on->env != tr->env)
			continue;
		if (!tested_on && tests_it && !on->emu_hunted_on &&
		    tests_emulated_machines(on))
			tested_on = on->build.name;
		if (!sampled_on && samples_covered_of(on, tr))
			sampled_on = on->build.name;
	}
	/* The build may have found variants this revision cannot have. */
	if (tested_on == tr->emu_hunted_on && sampled_on == tr->covered_sampled_on &&
	    !tr->build.not_applicable.n)
		return;
	tr->emu_hunted_on = tested_on;
	tr->covered_sampled_on = sampled_on;
	tr->nr_guest_suites = count_guest_suites(tr);
	free(tr->run_list);
	tr->run_list = run_file(o, tr);
	tr->bound = plan_guest_bound(o, tr);
}

void plan_guests(const struct options *o, struct run *run)
{
	for (int i = 0; i < run->nr_targets; i++) {
		struct target_result *tr = &run->targets[i];

		tr->samples_covered = !hunts_covered(o);
		tr->nr_guest_suites = count_guest_suites(tr);
		/* An edit loop of -s kunit waits for no variant. */
		plan_test_modules(tr);
		/* Nor for W=1 and sparse: they are the build and sparse suites'. */
		tr->build.w1_check = asks_for(tr, SUITE_BUILD);
		tr->build.sparse_check = asks_for(tr, SUITE_SPARSE);
		tr->kernel_append = plan_kernel_append(o, tr);
		tr->run_list = run_file(o, tr);
		tr->bound = plan_guest_bound(o, tr);
	}
}
