// SPDX-License-Identifier: GPL-2.0
/*
 * The stages of a run but building and booting (pipeline.c): the plan,
 * the cache's lock and results folder, the sources, the judge and the
 * report.
 */
#define _GNU_SOURCE
#include "stages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "checkpatch.h"
#include "exports.h"
#include "lava.h"
#include "plan.h"
#include "progress.h"
#include "fs.h"
#include "proc.h"

volatile sig_atomic_t stop_requested;	/* the signal, or 0 */

void stages_on_signal(int sig)
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

/* Tools, sources and columns, each column's build key: nothing written yet. */
int stage_plan(struct run_state *st)
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
int stage_open(struct run_state *st)
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
int stage_sources(struct run_state *st)
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
	return 0;
}

/*
 * The seed's subject file as this series stages it (the series without
 * its fixes), for its models' Code: check: the builds' copies may be of
 * an older revision until they are rebuilt.
 */
static void stage_seed_code(struct run_state *st)
{
	char *staging = xasprintf("%s/seed-code", st->run.dir);
	char *path = xasprintf("%s/%s", staging, SUBJECT_FILE);

	if (!tree_stage(&st->versions[0].src, &st->versions[0].series, true, staging,
			st->setup_log))
		st->run.seed_code = read_file(path, NULL);
	rm_rf(staging);
	free(path);
	free(staging);
}

int stage_plan_guests(struct run_state *st)
{
	for (int i = 0; i < st->run.nr_targets; i++) {
		struct target_result *tr = &st->run.targets[i];

		if (!tr->target->qemu)
			continue;
		tr->accel = guest_accel(tr->target, &tr->accel_note);
		tr->under_tcg = !strcmp(tr->accel, "tcg");
	}
	stage_seed_code(st);
	collect_models(&st->run);
	plan_guests(st->o, &st->run);
	return 0;
}

void stage_judge(struct run_state *st)
{
	struct run *run = &st->run;

	run->complete = !stop_requested;
	run->seconds = now_seconds() - st->started;
	collect_run(run);
	judge_run(run);
	for (int i = 0; i < run->nr_targets; i++) {
		char *summary = report_column_summary(&run->targets[i]);

		progress_done(i, "%s", summary);
		free(summary);
	}
	progress_stop();
}

/* matrix.json and what is made from it, then the table; the exit status. */
int stage_report(struct run_state *st)
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

void run_state_free(struct run_state *st)
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
		free(tr->kernel_append);
		free(tr->accel_note);
		free(tr->run_list);
		guest_free(&tr->guest);
		console_result_free(&tr->console);
		shape_rates_free(tr->rates, tr->nr_rates);
		litmus_rows_free(tr->litmus, tr->nr_litmus);
		if (st->frags)
			fragments_free(&st->frags[i]);
	}
	collect_free(&st->run);
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

