// SPDX-License-Identifier: GPL-2.0
/*
 * kwmatrix: build the patched kernel for each target, boot it under QEMU,
 * run the suites inside, and report one matrix.
 *
 * The stages live in their own files, as in kunit_tool: config.c
 * (fragments), build.c (kernel and initramfs), boot.c (QEMU), parse.c
 * and ktap.c (console to results), report.c (matrix.json and the table).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "build.h"
#include "calibration.h"
#include "initrd.h"
#include "kwm_protocol.h"
#include "checkpatch.h"
#include "exports.h"
#include "lava.h"
#include "litmus.h"
#include "lkmm.h"
#include "merge.h"
#include "models.h"
#include "options.h"
#include "oracles.h"
#include "plan.h"
#include "progress.h"
#include "report.h"
#include "series.h"
#include "suites.h"
#include "targets.h"
#include "tree.h"
#include "util.h"
#include "variants.h"
#include "variants.h"

#define EXIT_CELLS_FAILED	1
#define EXIT_BAD_INPUT		2
/* Interrupted: 128 + the signal, as a shell reports it (130 for Ctrl-C). */
#define EXIT_SIGNALLED		128

static volatile sig_atomic_t stop_requested;	/* the signal, or 0 */


static void on_signal(int sig)
{
	stop_requested = sig;
	/* A build stops now, not when its make is done. */
	kwm_forward_signal(sig);
}






/* Every host tool a target needs, each named with its Debian package. */
static int check_tools(const struct options *o)
{
	static const char *const host[][2] = {
		{ "make", "make" }, { "patch", "patch" }, { "ccache", "ccache" },
		{ "tar", "tar" }, { "xz", "xz-utils" }, { "bison", "bison" },
		{ "flex", "flex" }, { "bc", "bc" }, { "gcc", "gcc" },
	};

	for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++) {
		if (!in_path(host[i][0])) {
			kwm_error("%s not found (fix: apt-get install %s, or run make deps)",
				  host[i][0], host[i][1]);
			return -1;
		}
	}
	if (o->lava && !in_path(LAVA_RUN)) {
		kwm_error("%s not found (fix: apt-get install %s)", LAVA_RUN, LAVA_PACKAGE);
		return -1;
	}
	for (int i = 0; i < o->targets.n; i++) {
		const struct target *t = target_find(o->targets.v[i]);
		char *gcc = xasprintf("%sgcc", t->cross_compile);
		bool have_gcc = in_path(gcc);

		free(gcc);
		if (!have_gcc) {
			kwm_error("%s: cross compiler %sgcc not found (fix: apt-get install %s)",
				  t->name, t->cross_compile, t->cross_package);
			return -1;
		}
		if (t->qemu && !in_path(t->qemu)) {
			kwm_error("%s: %s not found (fix: apt-get install %s)",
				  t->name, t->qemu, t->qemu_package);
			return -1;
		}
		if (t->firmware && access(t->firmware, R_OK)) {
			kwm_error("%s: firmware %s not found (fix: apt-get install %s)",
				  t->name, t->firmware, t->firmware_package);
			return -1;
		}
	}
	return 0;
}

/* Hold the cache for this run; a second run waits for the first. */
static int lock_cache(const char *cache)
{
	char *path = xasprintf("%s/lock", cache);
	int fd;

	if (mkdir_p(cache)) {
		kwm_error("cannot create cache %s: %s (fix: set KWMATRIX_CACHE to a writable folder)",
			  cache, strerror(errno));
		free(path);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	if (fd < 0) {
		kwm_error("cannot open the cache lock in %s: %s (fix: set KWMATRIX_CACHE to a writable folder)",
			  cache, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		kwm_info("waiting for another kwmatrix run to release %s", cache);
		while (flock(fd, LOCK_EX)) {
			if (errno != EINTR || stop_requested) {
				close(fd);
				return -1;
			}
		}
	}
	return fd;
}

static char *make_run_dir(const struct options *o, char **id, char **utc)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32], iso[32];
	char *dir, *abs;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	*id = xasprintf("%s-%d", stamp, (int)getpid());
	*utc = xstrdup(iso);
	dir = xasprintf("%s/%s", o->results, *id);
	if (mkdir_p(dir) || access(dir, W_OK)) {
		kwm_error("cannot write results to %s: %s (fix: pass a writable --results folder)",
			  dir, strerror(errno));
		free(dir);
		return NULL;
	}
	/* QEMU and make are handed paths: make them absolute. */
	abs = realpath(dir, NULL);
	free(dir);
	return abs;
}




/* junit.xml, kcidb.json and index.html, from the matrix.json just written. */
static int export_formats(const char *dir)
{
	char *path = xasprintf("%s/matrix.json", dir);
	json_object *matrix = json_object_from_file(path);
	int ret = matrix ? exports_write(matrix, dir) : -1;

	json_object_put(matrix);
	free(path);
	return ret;
}

/* Each version's source and series; -1 after one line naming the fix. */
static int versions_locate(const struct options *o, struct version *versions)
{
	for (int v = 0; v < o->versions.n; v++) {
		struct version *ver = &versions[v];
		char *refresh = xasprintf("%s/%s", o->series_dir, o->versions.v[v]);
		int ret = series_load(o->series_dir, refresh, &ver->series);

		free(refresh);
		if (ret || source_locate(o->versions.v[v], o->cache, &ver->src))
			return -1;
		ver->env = (struct build_env){ .cache = o->cache, .repo = o->repo,
					       .src = &ver->src, .series = &ver->series,
					       .jobs = o->jobs,
					       .litmus_files = &o->litmus_files };
	}
	return 0;
}

/* What one run holds, handed from stage to stage. */
struct run_state {
	struct options *o;
	struct run run;
	struct version *versions;
	struct fragment_set *frags;	/* one per column */
	struct guest *guests;
	int nr_guests;
	int lock_fd;
	double started;
	atomic_int built;		/* columns the builder has finished */
	atomic_bool building;		/* the builder is still at work */
	bool builder_started;
	/*
	 * Where the host has no CPUs for a build beside a guest, they take
	 * turns: each column's guest runs as soon as its kernel is built,
	 * and the next build waits for it (@booted: the columns whose
	 * guests are done).  The first answer comes after one build and one
	 * guest, not after every build.
	 */
	bool alternate;
	atomic_int booted;
	bool *shown;			/* the column's cells printed early */
	int *said;			/* each verdict's kind printed early, or -1 */
	char *setup_log, *ccache_dir;
};

/* Tools, sources and columns, each column's build key: nothing written yet. */
static int stage_plan(struct run_state *st)
{
	struct run *run = &st->run;

	st->versions = xcalloc(st->o->versions.n, sizeof(*st->versions));
	if (check_tools(st->o) || versions_locate(st->o, st->versions) ||
	    plan_columns(st->o, st->versions, run))
		return EXIT_BAD_INPUT;
	st->frags = xcalloc(run->nr_targets, sizeof(*st->frags));
	for (int i = 0; i < run->nr_targets; i++)
		if (build_plan(&run->targets[i].build, run->targets[i].target,
			       run->targets[i].oracle, run->targets[i].env, &st->frags[i]))
			return EXIT_BAD_INPUT;
	return 0;
}

/* The cache's lock and the results folder; the live progress lines. */
static int stage_open(struct run_state *st)
{
	struct run *run = &st->run;
	const char **names;

	st->lock_fd = lock_cache(st->o->cache);
	if (st->lock_fd < 0)
		return EXIT_BAD_INPUT;
	run->dir = make_run_dir(st->o, &run->id, &run->started_utc);
	if (!run->dir)
		return EXIT_BAD_INPUT;
	kwm_info("run %s: %d kernels of %d targets on %d kernel versions, suites %d, results in %s",
		 run->id, run->nr_targets, st->o->targets.n, st->o->versions.n,
		 st->o->suites.n, run->dir);
	names = xcalloc(run->nr_targets, sizeof(*names));
	for (int i = 0; i < run->nr_targets; i++)
		names[i] = run->targets[i].build.name;
	progress_start(names, run->nr_targets);
	free(names);
	run->repo = st->o->repo;
	run->cache = st->o->cache;
	/* The series touches the same files on every version. */
	run->tree = st->versions[0].src.tree;
	run->series_files = &st->versions[0].series.files;
	run->suites = (const char *const *)st->o->suites.v;
	run->nr_suites = st->o->suites.n;
	return 0;
}

/* Each version's tree unpacked and patched, and checkpatch run on it once. */
static int stage_sources(struct run_state *st)
{
	struct run *run = &st->run;
	const struct options *o = st->o;

	st->setup_log = xasprintf("%s/setup.log", run->dir);
	for (int v = 0; v < o->versions.n; v++) {
		struct version *ver = &st->versions[v];

		if (source_unpack(&ver->src, st->setup_log) ||
		    tree_apply_series(&ver->src, &ver->series, st->setup_log)) {
			rm_rf(run->dir);
			return EXIT_BAD_INPUT;
		}
		if (strlist_has(&o->suites, CHECKPATCH)) {
			ver->checkpatch_log = xasprintf("%s/checkpatch%s.log", run->dir,
							ver->src.tag);
			checkpatch_run(o->repo, o->series_dir, ver->src.release,
				       o->cache, ver->checkpatch_log);
		}
	}
	for (int i = 0; i < run->nr_targets; i++)
		for (int v = 0; v < o->versions.n; v++)
			if (run->targets[i].env == &st->versions[v].env)
				run->targets[i].checkpatch_log = st->versions[v].checkpatch_log;
	report_judge_models(run);
	return 0;
}

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

/* Build column @i's kernel, modules and initramfs, or say why it is not built. */
static void build_column(struct run_state *st, int i)
{
	struct target_result *tr = &st->run.targets[i];
	const struct source *src = tr->env->src;
	char *dir, *estimate;
	bool cold;

	if (tr->oracle)
		tr->unavailable = oracle_unavailable(tr->oracle, src->tree,
						     tr->target->kernel_arch,
						     src->package);
	if (tr->unavailable) {
		progress_done(i, "%s", tr->unavailable);
		return;
	}
	dir = xasprintf("%s/%s", st->run.dir, tr->build.name);
	mkdir_p(dir);
	tr->build.log = xasprintf("%s/build.log", dir);
	free(dir);
	cold = build_is_cold(&tr->build);
	estimate = build_estimate(st, tr, cold);
	progress_set(i, "building in %s (log: %s)%s", tr->build.dir, tr->build.log, estimate);
	free(estimate);
	tr->build_ok = !build_run(&tr->build, tr->env, &st->frags[i]);
	if (tr->build_ok && cold)
		record_cold_build(st, tr);
	if (tr->build_ok) {
		progress_set(i, "%s in %.1f s", tr->build.up_to_date ? "up to date" :
			     tr->build.modules_only ? "modules rebuilt" : "built",
			     tr->build.seconds);
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

/* The builder thread: every column in order, each announced once built. */
static void *build_columns(void *arg)
{
	struct run_state *st = arg;

	for (int i = 0; i < st->run.nr_targets && !stop_requested; i++) {
		build_column(st, i);
		atomic_store(&st->built, i + 1);
		while (st->alternate && i + 1 < st->run.nr_targets &&
		       atomic_load(&st->booted) < i + 1 && !stop_requested)
			guests_wait();
	}
	atomic_store(&st->building, false);
	return NULL;
}

/* Column @i's guest, ready to boot; false if it has nothing to boot for. */
static bool prepare_guest(struct run_state *st, int i, struct guest *g)
{
	const struct options *o = st->o;
	struct target_result *tr = &st->run.targets[i];
	char *dir, *console, *qemu, *append, *run, *initrd;
	int in_guest = 0;

	for (int j = 0; j < tr->suites.n; j++)
		in_guest += suite_in_guest(suite_find(tr->suites.v[j]));
	/* Only build-time checks were asked for. */
	if (!tr->build_ok || !in_guest)
		return false;
	dir = xasprintf("%s/%s", st->run.dir, tr->build.name);
	console = xasprintf("%s/console.log", dir);
	qemu = xasprintf("%s/%s.log", dir, o->lava ? "lava" : "qemu");
	append = plan_kernel_append(o, tr);
	/* The suites, in the initrd: a command line is too short for them. */
	run = plan_run(o, tr);
	initrd = xasprintf("%s/initrd.cpio", dir);
	if (initrd_with_file(tr->build.initramfs, KWM_RUN_FILE + 1, run, initrd)) {
		kwm_error("%s: cannot write its initrd %s (fix: free some space and rerun)",
			  tr->build.name, initrd);
		free(console);
		free(qemu);
		free(append);
		free(run);
		free(initrd);
		free(dir);
		return false;
	}
	guest_prepare(g, tr->target, tr->build.image, initrd, append,
		      console, qemu, plan_guest_bound(o, tr));
	free(console);
	free(qemu);
	free(append);
	free(run);
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
	g->name = tr->build.name;
	g->column = i;
	g->nr_suites = in_guest;
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
		report_collect_target(tr);
		report_judge_target(run, tr);
		report_judge_barriers(run);
		out = open_memstream(&text, &len);
		if (!out)
			continue;
		report_print_column(run, tr, st->said, out);
		fclose(out);
		kwm_print_guarded(stdout, text);
		free(text);
	}
}

/*
 * Builds and boots overlap where the host has CPUs for both: a column's
 * guest boots as soon as its kernel is built, while the next kernel
 * builds, so the first results come after one build, not all of them.
 * On 2 host CPUs they would share them, and a torture starved to 7600
 * operations/s (a tenth of its rate) let detector-early-done survive:
 * there the guests wait for the builds.
 */
static void stage_build_and_boot(struct run_state *st)
{
	struct run *run = &st->run;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	/* On 2 host CPUs, one 2-vCPU guest at a time. */
	int slots = ncpu / GUEST_VCPUS > 0 ? (int)(ncpu / GUEST_VCPUS) : 1;
	struct guest_pool pool;
	pthread_t builder;
	int prepared = 0;
	bool overlap = ncpu >= 2 * GUEST_VCPUS;

	setenv("CCACHE_DIR", st->ccache_dir, 1);
	setenv("CCACHE_BASEDIR", st->o->cache, 1);
	st->guests = xcalloc(run->nr_targets, sizeof(*st->guests));
	guests_start(&pool, st->guests, slots);
	atomic_store(&st->building, true);
	st->alternate = !overlap;
	st->shown = xcalloc(run->nr_targets, sizeof(*st->shown));
	st->said = xcalloc(kwm_nr_subject_versions * kwm_nr_barrier_tags, sizeof(*st->said));
	for (int i = 0; i < kwm_nr_subject_versions * kwm_nr_barrier_tags; i++)
		st->said[i] = -1;
	if (pthread_create(&builder, NULL, build_columns, st)) {
		/* No thread: build everything first, then boot. */
		st->alternate = false;
		build_columns(st);
	} else {
		st->builder_started = true;
	}
	for (;;) {
		int built = atomic_load(&st->built);

		for (; prepared < built; prepared++)
			if (prepare_guest(st, prepared, &st->guests[st->nr_guests]))
				pool.nr = ++st->nr_guests;
		guests_poll(&pool, &stop_requested);
		show_ended_guests(st);
		if (guests_idle(&pool))
			atomic_store(&st->booted, prepared);
		if (!atomic_load(&st->building) && prepared == atomic_load(&st->built) &&
		    (guests_idle(&pool) || (stop_requested && !pool.running)))
			break;
		guests_wait();
	}
	if (st->builder_started)
		pthread_join(builder, NULL);
	/* The columns take over the guests. */
	for (int i = 0, g = 0; i < run->nr_targets; i++)
		if (g < st->nr_guests && st->guests[g].name == run->targets[i].build.name)
			run->targets[i].guest = st->guests[g++];
		else
			run->targets[i].guest.target = run->targets[i].target;
	free(st->guests);
	st->guests = NULL;
	st->nr_guests = 0;
	free(st->shown);
	st->shown = NULL;
	free(st->said);
	st->said = NULL;
}

static void stage_judge(struct run_state *st)
{
	struct run *run = &st->run;

	run->complete = !stop_requested;
	run->seconds = now_seconds() - st->started;
	report_collect(run);
	report_judge(run);
	for (int i = 0; i < run->nr_targets; i++) {
		char *summary = report_column_summary(&run->targets[i]);

		progress_done(i, "%s", summary);
		free(summary);
	}
	progress_stop();
}

/* matrix.json and what is made from it, then the table; the exit status. */
static int stage_report(struct run_state *st)
{
	struct run *run = &st->run;

	if (report_write_json(run) || export_formats(run->dir)) {
		kwm_error("cannot write the results in %s: %s (fix: free some space and rerun)",
			  run->dir, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	/* Interrupted: what ran is shown, and the exit says it was stopped. */
	if (!report_print_table(run, stdout) && run->complete)
		return EXIT_CELLS_FAILED;
	return run->complete ? 0 : EXIT_SIGNALLED + stop_requested;
}

static void run_state_free(struct run_state *st)
{
	progress_stop();
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	for (int i = 0; i < st->nr_guests && st->guests; i++)
		guest_free(&st->guests[i]);
	free(st->guests);
	for (int i = 0; i < st->run.nr_targets; i++) {
		struct target_result *tr = &st->run.targets[i];

		build_free(&tr->build);
		strlist_free(&tr->suites);
		free(tr->unavailable);
		guest_free(&tr->guest);
		console_result_free(&tr->console);
		shape_rates_free(tr->rates, tr->nr_rates);
		litmus_rows_free(tr->litmus, tr->nr_litmus);
		if (st->frags)
			fragments_free(&st->frags[i]);
	}
	report_free(&st->run);
	free(st->frags);
	free(st->run.targets);
	free(st->run.id);
	free(st->run.dir);
	free(st->run.started_utc);
	free(st->setup_log);
	free(st->ccache_dir);
	for (int v = 0; v < st->o->versions.n && st->versions; v++) {
		series_free(&st->versions[v].series);
		source_free(&st->versions[v].src);
		free(st->versions[v].checkpatch_log);
	}
	free(st->versions);
}

/* kunit_tool's run_tests(), for kernels: each stage, in order. */
static int cmd_run(struct options *o)
{
	struct run_state st = { .o = o, .lock_fd = -1, .started = now_seconds() };
	int ret;

	st.ccache_dir = xasprintf("%s/ccache", o->cache);
	ret = stage_plan(&st);
	if (!ret)
		ret = stage_open(&st);
	if (!ret)
		ret = stage_sources(&st);
	if (!ret) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		stage_build_and_boot(&st);
		stage_judge(&st);
		ret = stage_report(&st);
	}
	run_state_free(&st);
	return ret;
}

static void cmd_list(void)
{
	printf("targets:\n");
	for (int i = 0; i < kwm_nr_targets; i++)
		printf("  %-10s %s %s%s\n", kwm_targets[i].name,
		       kwm_targets[i].qemu ? kwm_targets[i].qemu : "build only",
		       kwm_targets[i].qemu_args ? kwm_targets[i].qemu_args : "",
		       kwm_targets[i].by_default ? "" : " (not by default)");
	printf("versions:\n");
	for (int i = 0; i < kwm_nr_kernel_versions; i++)
		printf("  %-10s linux-source-%s, the series in patch/%s%s\n",
		       kwm_kernel_versions[i], kwm_kernel_versions[i],
		       i ? kwm_kernel_versions[i] : "", i ? "/ over patch/" : " (default)");
	printf("kernels:\n  %-10s the target's fragments, judged by the tests alone\n",
	       "plain");
	for (int i = 0; i < kwm_nr_oracles; i++)
		printf("  %-10s plus arch-configs/oracles/%s.config, where the architecture selects %s\n",
		       kwm_oracles[i].name, kwm_oracles[i].name,
		       kwm_oracles[i].arch_select);
	printf("suites:\n");
	for (int i = 0; i < kwm_nr_suites; i++)
		printf("  %-24s on %-18s %s%s\n", kwm_suites[i].name,
		       kwm_suites[i].kernels, kwm_suites[i].modules,
		       kwm_suites[i].by_default ? "" : " (not by default)");
}

/* Each file of kwmatrix litmus parsed now: a bad one is named before any build. */
static int litmus_files_check(const struct options *o)
{
	for (int i = 0; i < o->litmus_files.n; i++) {
		char *text = read_file(o->litmus_files.v[i], NULL), *error = NULL;
		struct litmus_test t = { 0 };
		int ret = -1;

		if (!text)
			kwm_error("cannot read %s (fix: name a readable .litmus file)",
				  o->litmus_files.v[i]);
		else if (litmus_parse(o->litmus_files.v[i], text, &t, &error))
			kwm_error("%s", error);
		else
			ret = 0;
		litmus_test_free(&t);
		free(error);
		free(text);
		if (ret)
			return -1;
	}
	return 0;
}

static int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	int c;

	while ((c = getopt(argc, argv, "o:")) != -1) {
		if (c != 'o') {
			options_usage(stderr);
			return EXIT_BAD_INPUT;
		}
		out = optarg;
	}
	if (!out || optind >= argc) {
		kwm_error("merge needs shards and -o (fix: kwmatrix merge A/matrix.json B/matrix.json -o DIR)");
		return EXIT_BAD_INPUT;
	}
	return merge_results((const char *const *)argv + optind, argc - optind, out);
}

int main(int argc, char **argv)
{
	struct options o;
	int ret;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		options_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : 0;
	}
	if (!strcmp(argv[1], "list")) {
		cmd_list();
		return 0;
	}
	if (!strcmp(argv[1], "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "models")) {
		char *cache = options_default_cache();

		ret = cmd_models(argc - 1, argv + 1, cache);
		free(cache);
		return ret;
	}
	if (strcmp(argv[1], "run") && strcmp(argv[1], "litmus")) {
		kwm_error("unknown command '%s' (fix: kwmatrix run, litmus, list, merge or models)",
			  argv[1]);
		return EXIT_BAD_INPUT;
	}
	if ((!strcmp(argv[1], "run") ? options_parse : options_parse_litmus)(argc - 1, argv + 1, &o) ||
	    litmus_files_check(&o)) {
		options_free(&o);
		return EXIT_BAD_INPUT;
	}
	ret = cmd_run(&o);
	options_free(&o);
	return ret;
}
