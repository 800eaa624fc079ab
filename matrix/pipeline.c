// SPDX-License-Identifier: GPL-2.0
/*
 * Building and booting: builder threads make the columns' kernels, one
 * at a time from scratch and side by side when warm, while the guests
 * boot as soon as theirs is ready, as many at once as the host has CPUs
 * for (plan_boot_policy()); each column is judged and printed as its
 * guest ends.
 */
#define _GNU_SOURCE
#include "stages.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "initrd.h"
#include "kwm_protocol.h"
#include "lava.h"
#include "plan.h"
#include "progress.h"
#include "suites.h"
#include "subject.h"
#include "fs.h"

/*
 * The last cold build of a column, kept in the cache: a newcomer's
 * progress line says how long the next one will take.
 */
static char *timing_path(const struct run_state *st, const struct target_result *tr)
{
	return xasprintf("%s/timings/%s", st->o->cache, tr->build.name);
}

static char *build_estimate(const struct run_state *st, const struct target_result *tr,
			    bool cold)
{
	char *path = timing_path(st, tr), *text = cold ? read_file(path, NULL) : NULL;
	char *out = text ? xasprintf(", about %d s as its last build from scratch", atoi(text)) :
		    xstrdup(cold ? ", from scratch" : "");

	free(text);
	free(path);
	return out;
}

static void record_cold_build(const struct run_state *st, const struct target_result *tr)
{
	char *path = timing_path(st, tr), *text = xasprintf("%.0f\n", tr->build.seconds);
	char *dir = xasprintf("%s/timings", st->o->cache);

	if (!mkdir_p(dir))
		write_file_atomic(path, text, strlen(text));
	free(dir);
	free(text);
	free(path);
}

/*
 * Whether column @i has a kernel to build: an oracle its architecture
 * does not select has none, and its cell says why.  Its build log's
 * folder made, if it has.
 */
static bool column_buildable(struct run_state *st, int i)
{
	struct target_result *tr = &st->run.targets[i];
	const struct source *src = tr->env->src;
	char *dir;

	if (tr->build.log)
		return true;
	if (tr->oracle && !tr->unavailable)
		tr->unavailable = oracle_unavailable(tr->oracle, src->tree,
						     tr->target->kernel_arch,
						     src->package);
	if (tr->unavailable)
		return false;
	dir = xasprintf("%s/%s", st->run.dir, tr->build.name);
	mkdir_p(dir);
	tr->build.log = xasprintf("%s/build.log", dir);
	free(dir);
	return true;
}

/* Build column @i's kernel, modules and initramfs, or say why it is not built. */
static void build_column(struct run_state *st, int i)
{
	struct target_result *tr = &st->run.targets[i];
	char *estimate;
	bool cold;

	if (!column_buildable(st, i)) {
		progress_done(i, "%s", tr->unavailable);
		return;
	}
	cold = build_is_cold(&tr->build) || tr->build.prepared_seconds;
	estimate = build_estimate(st, tr, cold);
	progress_set(i, "building in %s (log: %s)%s", tr->build.dir, tr->build.log, estimate);
	free(estimate);
	tr->build_ok = !build_run(&tr->build, tr->env, &st->frags[i]);
	if (tr->build_ok && cold)
		record_cold_build(st, tr);
	if (tr->build_ok) {
		progress_set(i, "%s in %.1f s%s%s%s", tr->build.up_to_date ? "up to date" :
			     tr->build.modules_only ? "modules rebuilt" : "built",
			     tr->build.seconds, tr->build.steps ? " (" : "",
			     tr->build.steps ? tr->build.steps : "",
			     tr->build.steps ? ")" : "");
	} else if (stop_requested) {
		/* Its make was passed the signal: not a failure of the series. */
		free(tr->build.error);
		tr->build.error = xasprintf("%s build: stopped by %s before it finished",
					    tr->build.name, strsignal(stop_requested));
		progress_done(i, "build stopped");
	} else {
		kwm_error("%s", tr->build.error);
		progress_done(i, "build failed");
	}
}

/*
 * A builder thread: it takes the next column no builder has taken, until
 * none is left.  Alone and taking turns with the guests, it waits for
 * each column's guest before the next build.
 */
static void *build_columns(void *arg)
{
	struct run_state *st = arg;
	int nr = st->run.nr_targets, i;

	while (!stop_requested && (i = atomic_fetch_add(&st->next_column, 1)) < nr) {
		build_column(st, i);
		atomic_store(&st->built[i], true);
		while (st->alternate && st->nr_builders == 1 && i + 1 < nr &&
		       atomic_load(&st->booted) < i + 1 && !stop_requested)
			guests_wait();
	}
	atomic_fetch_sub(&st->building, 1);
	return NULL;
}

struct column_ahead {
	struct run_state *st;
	int i;
	pthread_t thread;
};

static void *prepare_column(void *arg)
{
	struct column_ahead *a = arg;
	struct target_result *tr = &a->st->run.targets[a->i];

	build_prepare(&tr->build, tr->env, &a->st->frags[a->i]);
	return NULL;
}

/*
 * The builds from scratch configured and prepared side by side before
 * the first kernel's make (build_prepare()): one after another, riscv64's,
 * arm64's and ppc64le's took 41.2 s here, side by side 26.4 s.  A failure
 * is said when its column's turn to build comes.
 */
static void prepare_ahead(struct run_state *st)
{
	struct column_ahead *ahead = xcalloc(st->run.nr_targets, sizeof(*ahead));
	int started = 0;

	for (int i = 0; i < st->run.nr_targets && !stop_requested; i++) {
		struct column_ahead *a = &ahead[started];

		if (!build_is_cold(&st->run.targets[i].build) || !column_buildable(st, i))
			continue;
		a->st = st;
		a->i = i;
		progress_set(i, "configuring and preparing beside the other builds from scratch");
		started += !pthread_create(&a->thread, NULL, prepare_column, a);
	}
	for (int k = 0; k < started; k++)
		pthread_join(ahead[k].thread, NULL);
	free(ahead);
}

/* The columns whose build has not begun: from scratch, or warm. */
static int cold_builds(const struct run_state *st)
{
	int n = 0;

	for (int i = 0; i < st->run.nr_targets; i++)
		n += build_is_cold(&st->run.targets[i].build);
	return n;
}

/* @n builder threads, or the builds right here if none can start. */
static void start_builders(struct run_state *st, int n)
{
	st->builders = xcalloc(n, sizeof(*st->builders));
	atomic_store(&st->building, n);
	for (int i = 0; i < n; i++) {
		if (!pthread_create(&st->builders[i], NULL, build_columns, st))
			st->nr_builders++;
		else
			atomic_fetch_sub(&st->building, 1);
	}
	if (!st->nr_builders) {
		/* No thread: build everything first, then boot. */
		st->alternate = false;
		atomic_store(&st->building, 1);
		build_columns(st);
	}
}

/* Column @i's guest, ready to boot; false if it has nothing to boot for. */
static bool prepare_guest(struct run_state *st, int i, struct guest *g)
{
	const struct options *o = st->o;
	struct target_result *tr = &st->run.targets[i];
	char *dir, *console, *qemu, *initrd;

	/* Only build-time checks were asked for. */
	if (!tr->build_ok || !tr->nr_guest_suites)
		return false;
	plan_before_boot(o, &st->run, i);
	dir = xasprintf("%s/%s", st->run.dir, tr->build.name);
	console = xasprintf("%s/console.log", dir);
	qemu = xasprintf("%s/%s.log", dir, o->lava ? "lava" : "qemu");
	/* The suites, in the initrd: a command line is too short for them. */
	initrd = xasprintf("%s/initrd.cpio", dir);
	if (initrd_with_file(tr->build.initramfs, KWM_RUN_FILE + 1, tr->run_list, initrd)) {
		kwm_error("%s: cannot write its initrd %s (fix: free some space and rerun)",
			  tr->build.name, initrd);
		free(console);
		free(qemu);
		free(initrd);
		free(dir);
		return false;
	}
	guest_prepare(g, tr->target, tr->accel, tr->accel_note, tr->build.image,
		      initrd, tr->kernel_append, console, qemu, tr->bound);
	free(console);
	free(qemu);
	free(initrd);
	/* Every booted column gets its LAVA jobs, for a lab to take. */
	if (lava_prepare(g, dir, tr->build.name, o->lava)) {
		kwm_error("%s: cannot write its LAVA job in %s (fix: check free space)",
			  tr->build.name, dir);
		/* Through LAVA, not booted: its cells say so. */
		if (o->lava) {
			guest_free(g);
			free(dir);
			return false;
		}
	}
	free(dir);
	tr->booted = true;
	g->name = tr->build.name;
	g->column = i;
	g->nr_suites = tr->nr_guest_suites;
	return true;
}

/* Each column whose guest has ended, judged and printed once: the first answer. */
static void show_ended_guests(struct run_state *st)
{
	struct run *run = &st->run;

	for (int g = 0; g < st->nr_guests; g++) {
		struct guest *guest = &st->guests[g];
		struct target_result *tr = &run->targets[guest->column];
		char *text = NULL;
		size_t len = 0;
		FILE *out;

		if (!guest->ran || guest->pid || st->shown[guest->column])
			continue;
		st->shown[guest->column] = true;
		tr->guest = *guest;
		collect_target(tr);
		judge_target(run, tr);
		judge_barriers(run);
		out = open_memstream(&text, &len);
		if (!out)
			continue;
		report_print_column(run, tr, st->said, out);
		fclose(out);
		kwm_print_guarded(stdout, text);
		free(text);
	}
}

/* Each column's guest boots as soon as its kernel is built (plan_boot_policy()). */
void stage_build_and_boot(struct run_state *st)
{
	struct run *run = &st->run;
	struct boot_policy policy = plan_boot_policy(sysconf(_SC_NPROCESSORS_ONLN),
						     run->nr_targets, cold_builds(st));
	struct guest_pool pool;
	int prepared = 0;

	setenv("CCACHE_DIR", st->ccache_dir, 1);
	setenv("CCACHE_BASEDIR", st->o->cache, 1);
	/*
	 * Hash what kbuild's -Wp,-MMD lists instead of running the
	 * preprocessor on a miss: a build from scratch, all misses, took
	 * 8% longer than without ccache this way and 17% the default way.
	 */
	setenv("CCACHE_DEPEND", "1", 1);
	st->guests = xcalloc(run->nr_targets, sizeof(*st->guests));
	guests_start(&pool, st->guests, policy.slots);
	st->alternate = policy.alternate;
	st->built = xcalloc(run->nr_targets, sizeof(*st->built));
	st->shown = xcalloc(run->nr_targets, sizeof(*st->shown));
	st->said = xcalloc(kwm_nr_subject_versions * kwm_nr_barrier_tags, sizeof(*st->said));
	for (int i = 0; i < kwm_nr_subject_versions * kwm_nr_barrier_tags; i++)
		st->said[i] = -1;
	if (cold_builds(st) > 1)
		prepare_ahead(st);
	start_builders(st, policy.builders);
	for (;;) {
		bool building = atomic_load(&st->building) > 0;

		/* Taking turns, the guests wait for builds side by side. */
		if (!building || !st->alternate || st->nr_builders == 1)
			for (; prepared < run->nr_targets && atomic_load(&st->built[prepared]);
			     prepared++)
				if (prepare_guest(st, prepared, &st->guests[st->nr_guests]))
					pool.nr = ++st->nr_guests;
		guests_poll(&pool, &stop_requested);
		show_ended_guests(st);
		if (guests_idle(&pool))
			atomic_store(&st->booted, prepared);
		/* Done building: every built column has been prepared above. */
		if (!building && (guests_idle(&pool) || (stop_requested && !pool.running)))
			break;
		guests_wait();
	}
	for (int i = 0; i < st->nr_builders; i++)
		pthread_join(st->builders[i], NULL);
	/* The columns take over the guests. */
	for (int i = 0, g = 0; i < run->nr_targets; i++)
		if (g < st->nr_guests && st->guests[g].name == run->targets[i].build.name)
			run->targets[i].guest = st->guests[g++];
		else
			run->targets[i].guest.target = run->targets[i].target;
	free(st->guests);
	st->guests = NULL;
	st->nr_guests = 0;
	free(st->builders);
	st->builders = NULL;
	free((void *)st->built);
	st->built = NULL;
	free(st->shown);
	st->shown = NULL;
	free(st->said);
	st->said = NULL;
}

