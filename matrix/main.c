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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "build.h"
#include "calibration.h"
#include "checkpatch.h"
#include "html.h"
#include "junit.h"
#include "kcidb.h"
#include "lava.h"
#include "merge.h"
#include "oracles.h"
#include "progress.h"
#include "report.h"
#include "series.h"
#include "suites.h"
#include "targets.h"
#include "tree.h"
#include "util.h"
#include "variants.h"

#define EXIT_CELLS_FAILED	1
#define EXIT_BAD_INPUT		2
/* Interrupted: 128 + the signal, as a shell reports it (130 for Ctrl-C). */
#define EXIT_SIGNALLED		128

static volatile sig_atomic_t stop_requested;	/* the signal, or 0 */

struct options {
	struct strlist targets, suites, kernels, versions;
	char *results, *cache, *repo, *series_dir;
	int jobs;
	int duration;		/* seconds, for suites that take one */
	int timeout;		/* seconds; 0: from the target and suites */
	bool lava;		/* boot through lava-run */
};

static void on_signal(int sig)
{
	stop_requested = sig;
	/* A build stops now, not when its make is done. */
	kwm_forward_signal(sig);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: kwmatrix run [options]    build, boot and report the matrix\n"
		"       kwmatrix list             show targets, kernels and suites\n"
		"       kwmatrix merge A.json B.json... -o DIR\n"
		"                                 combine shards' matrix.json into one\n"
		"options:\n"
		"  -t, --targets LIST   comma-separated targets, or all (default: the boot\n"
		"                       targets; the build-only ones are for the nightly)\n"
		"  -s, --suites LIST    comma-separated suites (default: the default set)\n"
		"  -k, --kernels LIST   plain and oracle kernels per target, or all\n"
		"                       (default: plain; the oracles build a kernel each)\n"
		"  -V, --versions LIST  kernel versions, each Debian's linux-source-VERSION,\n"
		"                       or all (default: 6.1; patch/VERSION/ holds refreshes)\n"
		"  -r, --results DIR    where results/<run-id>/ goes (default: results)\n"
		"  -c, --cache DIR      build cache (default: $KWMATRIX_CACHE or ~/.cache/kwmatrix)\n"
		"  -p, --series DIR     patch series (default: <repo>/patch)\n"
		"  -R, --repo DIR       kwmatrix checkout (default: .)\n"
		"  -j, --jobs N         parallel make jobs (default: host CPUs)\n"
		"  -d, --duration S     seconds per torture run (default: 10)\n"
		"  -T, --timeout S      time bound of each guest (default: per target)\n"
		"  -L, --lava           boot each guest through LAVA's lava-run (every\n"
		"                       run writes the LAVA jobs beside its results)\n");
}

/* A whole positive number, or -1. */
static int parse_count(const char *opt, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX) {
		kwm_error("%s '%s' is not a positive whole number (fix: e.g. %s 10)",
			  opt, s, opt);
		return -1;
	}
	return (int)v;
}

static int split_list(const char *opt, const char *arg, struct strlist *l)
{
	char *copy = xstrdup(arg), *tok, *save;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strlist_has(l, tok)) {
			kwm_error("%s names '%s' twice (fix: list each once)", opt, tok);
			free(copy);
			return -1;
		}
		strlist_add(l, tok);
	}
	free(copy);
	if (!l->n) {
		kwm_error("%s is empty (fix: name at least one)", opt);
		return -1;
	}
	return 0;
}

enum names { TARGET_NAMES, SUITE_NAMES, KERNEL_NAMES, VERSION_NAMES };

static const char *name_of(enum names which, int i)
{
	if (which == TARGET_NAMES)
		return kwm_targets[i].name;
	if (which == SUITE_NAMES)
		return kwm_suites[i].name;
	if (which == VERSION_NAMES)
		return kwm_kernel_versions[i];
	return i ? kwm_oracles[i - 1].name : "plain";
}

static int nr_names(enum names which)
{
	return which == TARGET_NAMES ? kwm_nr_targets :
	       which == SUITE_NAMES ? kwm_nr_suites :
	       which == VERSION_NAMES ? kwm_nr_kernel_versions : kwm_nr_oracles + 1;
}

static char *known_names(enum names which)
{
	char *out = xstrdup("");

	for (int i = 0; i < nr_names(which); i++) {
		char *next = xasprintf("%s%s%s", out, i ? ", " : "",
				       name_of(which, i));

		free(out);
		out = next;
	}
	return out;
}

/* Every name in @asked is one of @which; else one line naming the @what. */
static int check_known(enum names which, const char *what, const struct strlist *asked)
{
	for (int i = 0; i < asked->n; i++) {
		bool found = false;
		char *known;

		for (int k = 0; k < nr_names(which) && !found; k++)
			found = !strcmp(asked->v[i], name_of(which, k));
		if (found)
			continue;
		known = known_names(which);
		kwm_error("unknown %s '%s' (fix: pick from %s)", what, asked->v[i], known);
		free(known);
		return -1;
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "targets", required_argument, NULL, 't' },
		{ "suites", required_argument, NULL, 's' },
		{ "kernels", required_argument, NULL, 'k' },
		{ "results", required_argument, NULL, 'r' },
		{ "cache", required_argument, NULL, 'c' },
		{ "series", required_argument, NULL, 'p' },
		{ "repo", required_argument, NULL, 'R' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "duration", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "versions", required_argument, NULL, 'V' },
		{ "lava", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *home = getenv("HOME"), *env_cache = getenv("KWMATRIX_CACHE");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	memset(o, 0, sizeof(*o));
	o->jobs = ncpu > 0 ? (int)ncpu : 1;
	o->duration = 10;
	o->results = xstrdup("results");
	o->repo = xstrdup(".");
	o->cache = env_cache && *env_cache ? xstrdup(env_cache) :
		   xasprintf("%s/.cache/kwmatrix", home ? home : "/tmp");

	while ((c = getopt_long(argc, argv, "t:s:k:V:r:c:p:R:j:d:T:Lh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 't':
			if (split_list("--targets", optarg, &o->targets))
				return -1;
			break;
		case 's':
			if (split_list("--suites", optarg, &o->suites))
				return -1;
			break;
		case 'k':
			if (split_list("--kernels", optarg, &o->kernels))
				return -1;
			break;
		case 'V':
			if (split_list("--versions", optarg, &o->versions))
				return -1;
			break;
		case 'r':
			free(o->results);
			o->results = xstrdup(optarg);
			break;
		case 'c':
			free(o->cache);
			o->cache = xstrdup(optarg);
			break;
		case 'p':
			free(o->series_dir);
			o->series_dir = xstrdup(optarg);
			break;
		case 'R':
			free(o->repo);
			o->repo = xstrdup(optarg);
			break;
		case 'j':
			o->jobs = parse_count("--jobs", optarg);
			if (o->jobs < 0)
				return -1;
			break;
		case 'd':
			o->duration = parse_count("--duration", optarg);
			if (o->duration < 0)
				return -1;
			break;
		case 'T':
			o->timeout = parse_count("--timeout", optarg);
			if (o->timeout < 0)
				return -1;
			break;
		case 'L':
			o->lava = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		kwm_error("unexpected argument '%s' (fix: see kwmatrix --help)",
			  argv[optind]);
		return -1;
	}
	{
		/* Children run in other folders: make the checkout absolute. */
		char *abs = realpath(o->repo, NULL);

		if (!abs) {
			kwm_error("--repo %s: %s (fix: run from a kwmatrix checkout)",
				  o->repo, strerror(errno));
			return -1;
		}
		free(o->repo);
		o->repo = abs;
	}
	if (!o->series_dir)
		o->series_dir = xasprintf("%s/patch", o->repo);
	if (!o->targets.n || strlist_has(&o->targets, "all")) {
		bool all = o->targets.n > 0;

		strlist_free(&o->targets);
		for (int i = 0; i < kwm_nr_targets; i++)
			if (all || kwm_targets[i].by_default)
				strlist_add(&o->targets, kwm_targets[i].name);
	}
	if (!o->versions.n || strlist_has(&o->versions, "all")) {
		bool all = o->versions.n > 0;

		strlist_free(&o->versions);
		for (int i = 0; i < (all ? kwm_nr_kernel_versions : 1); i++)
			strlist_add(&o->versions, kwm_kernel_versions[i]);
	}
	if (!o->suites.n)
		for (int i = 0; i < kwm_nr_suites; i++)
			if (kwm_suites[i].by_default)
				strlist_add(&o->suites, kwm_suites[i].name);
	if (!o->kernels.n) {
		/*
		 * The barrier verdicts and the API suites need only the plain
		 * kernel; each oracle is one more kernel build per target.
		 */
		strlist_add(&o->kernels, "plain");
		kwm_info("kernels: plain (the oracle kernels, %d more builds per target: -k all)",
			 kwm_nr_oracles);
	} else if (strlist_has(&o->kernels, "all")) {
		strlist_free(&o->kernels);
		for (int i = 0; i <= kwm_nr_oracles; i++)
			strlist_add(&o->kernels, name_of(KERNEL_NAMES, i));
	}
	if (check_known(KERNEL_NAMES, "kernel", &o->kernels) ||
	    check_known(VERSION_NAMES, "kernel version", &o->versions) ||
	    check_known(TARGET_NAMES, "target", &o->targets) ||
	    check_known(SUITE_NAMES, "suite", &o->suites) ||
	    calibration_check_suites(o->repo))
		return -1;
	/* A surviving mutant means something only beside its calibration. */
	if (calibration_add_if_needed(&o->suites))
		kwm_info("suites: calibrate added, which the mutants asked for are judged by");
	return 0;
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
static int torture_seconds(const struct options *o, const struct target_result *tr)
{
	if (tr->oracle && tr->oracle->min_seconds > o->duration)
		return tr->oracle->min_seconds;
	return o->duration;
}

/*
 * How long suite @s tortures, 0 if it does not.  A detector of the
 * column's oracle hunts: it runs until the oracle reports on the subject
 * (the guest's init ends it then), or the oracle's hunt_seconds.
 */
static int suite_seconds(const struct options *o, const struct target_result *tr,
			 const struct suite *s)
{
	int seconds = torture_seconds(o, tr);

	if (!s->duration_module)
		return 0;
	if (tr->oracle && s->must_kill && !strcmp(s->must_kill, tr->oracle->name) &&
	    tr->oracle->hunt_seconds > seconds)
		return tr->oracle->hunt_seconds;
	return seconds;
}

static char *kernel_append(const struct options *o, const struct target_result *tr)
{
	char *run = xstrdup("");
	char *append, *next, *own;

	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);
		int seconds = suite_seconds(o, tr, s);

		if (s->static_check)
			continue;
		/* The command line's duration is torture_seconds(): say only others. */
		own = seconds && seconds != torture_seconds(o, tr) ?
		      xasprintf(":%s.duration=%d", s->duration_module, seconds) :
		      xstrdup("");
		next = xasprintf("%s%s%s:%s%s", run, *run ? ";" : "", s->name,
				 s->modules, own);
		free(own);
		free(run);
		run = next;
	}
	append = xasprintf("console=%s panic=-1 kwm.run=%s", tr->target->console, run);
	free(run);
	if (tr->oracle) {
		/*
		 * "KCSAN:" and "[kw_worker]" on one line: the title of a report
		 * on the subject.  No spaces, no quotes: LAVA splits the line.
		 */
		next = xasprintf("%s kwm.catch=%s: kwm.subject=%s%s%s", append,
				 tr->oracle->title, SUBJECT_MODULE,
				 tr->oracle->cmdline ? " " : "",
				 tr->oracle->cmdline ? tr->oracle->cmdline : "");
		free(append);
		append = next;
	}
	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);

		if (s->duration_module &&
		    first_to_ask(tr, i, duration_module_of, s->duration_module)) {
			next = xasprintf("%s %s.duration=%d", append,
					 s->duration_module, torture_seconds(o, tr));
			free(append);
			append = next;
		}
		if (s->params && first_to_ask(tr, i, params_of, s->params)) {
			next = xasprintf("%s %s", append, s->params);
			free(append);
			append = next;
		}
	}
	return append;
}

static int guest_bound(const struct options *o, const struct target_result *tr)
{
	int bound = tr->target->boot_seconds;

	if (o->timeout)
		return o->timeout;
	for (int i = 0; i < tr->suites.n; i++) {
		const struct suite *s = suite_find(tr->suites.v[i]);

		bound += s->seconds + suite_seconds(o, tr, s);
	}
	return bound;
}

/* One kernel version: its source tree, its series, and how to build on it. */
struct version {
	struct source src;
	struct series series;
	struct build_env env;
	char *checkpatch_log;	/* results/<run>/checkpatch@6.12.log */
};

/*
 * The columns of the matrix: each target's kernels on each version, each
 * with the asked suites that run on it.  A kernel with none is left out.
 */
static int plan_columns(const struct options *o, const struct version *versions,
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
				    (tr->target->qemu || s->static_check))
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

/* junit.xml, kcidb.json and index.html, from the matrix.json just written. */
static int export_formats(const char *dir)
{
	char *path = xasprintf("%s/matrix.json", dir);
	json_object *matrix = json_object_from_file(path);
	int ret = -1;

	free(path);
	if (!matrix)
		return -1;
	path = xasprintf("%s/junit.xml", dir);
	ret = junit_write(matrix, path);
	free(path);
	path = xasprintf("%s/kcidb.json", dir);
	if (!ret)
		ret = kcidb_write(matrix, path);
	free(path);
	path = xasprintf("%s/index.html", dir);
	if (!ret)
		ret = html_write(matrix, path);
	free(path);
	json_object_put(matrix);
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
					       .jobs = o->jobs };
	}
	return 0;
}

static int cmd_run(struct options *o)
{
	struct run run = { 0 };
	struct version *versions = xcalloc(o->versions.n, sizeof(*versions));
	struct fragment_set *frags = NULL;
	struct guest *guests = NULL;
	int lock_fd = -1, ret = EXIT_BAD_INPUT, nr_guests = 0, slots;
	double t0 = now_seconds();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char *setup_log = NULL, *ccache_dir = NULL;

	if (check_tools(o) || versions_locate(o, versions))
		goto out;
	if (plan_columns(o, versions, &run))
		goto out;
	frags = xcalloc(run.nr_targets, sizeof(*frags));
	for (int i = 0; i < run.nr_targets; i++)
		if (build_plan(&run.targets[i].build, run.targets[i].target,
			       run.targets[i].oracle, run.targets[i].env, &frags[i]))
			goto out;

	lock_fd = lock_cache(o->cache);
	if (lock_fd < 0)
		goto out;
	run.dir = make_run_dir(o, &run.id, &run.started_utc);
	if (!run.dir)
		goto out;
	kwm_info("run %s: %d kernels of %d targets on %d kernel versions, suites %d, results in %s",
		 run.id, run.nr_targets, o->targets.n, o->versions.n, o->suites.n,
		 run.dir);
	{
		const char **names = xcalloc(run.nr_targets, sizeof(*names));

		for (int i = 0; i < run.nr_targets; i++)
			names[i] = run.targets[i].build.name;
		progress_start(names, run.nr_targets);
		free(names);
	}
	run.repo = o->repo;
	/* The series touches the same files on every version. */
	run.tree = versions[0].src.tree;
	run.series_files = &versions[0].series.files;
	run.suites = (const char *const *)o->suites.v;
	run.nr_suites = o->suites.n;

	setup_log = xasprintf("%s/setup.log", run.dir);
	for (int v = 0; v < o->versions.n; v++) {
		struct version *ver = &versions[v];

		if (source_unpack(&ver->src, setup_log) ||
		    tree_apply_series(&ver->src, &ver->series, setup_log)) {
			rm_rf(run.dir);
			goto out;
		}
		/* Needs only the tree: once per version, for every column. */
		if (strlist_has(&o->suites, CHECKPATCH)) {
			ver->checkpatch_log = xasprintf("%s/checkpatch%s.log", run.dir,
							ver->src.tag);
			checkpatch_run(o->repo, o->series_dir, ver->src.release,
				       o->cache, ver->checkpatch_log);
		}
	}
	for (int i = 0; i < run.nr_targets; i++)
		for (int v = 0; v < o->versions.n; v++)
			if (run.targets[i].env == &versions[v].env)
				run.targets[i].checkpatch_log = versions[v].checkpatch_log;

	ccache_dir = xasprintf("%s/ccache", o->cache);
	setenv("CCACHE_DIR", ccache_dir, 1);
	setenv("CCACHE_BASEDIR", o->cache, 1);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	for (int i = 0; i < run.nr_targets && !stop_requested; i++) {
		struct target_result *tr = &run.targets[i];
		const struct source *src = tr->env->src;
		char *dir = xasprintf("%s/%s", run.dir, tr->build.name);

		if (tr->oracle)
			tr->unavailable = oracle_unavailable(tr->oracle, src->tree,
							     tr->target->kernel_arch,
							     src->package);
		if (tr->unavailable) {
			progress_done(i, "%s", tr->unavailable);
			free(dir);
			continue;
		}
		mkdir_p(dir);
		tr->build.log = xasprintf("%s/build.log", dir);
		progress_set(i, "building in %s (log: %s)", tr->build.dir, tr->build.log);
		tr->build_ok = !build_run(&tr->build, tr->env, &frags[i]);
		if (tr->build_ok) {
			progress_set(i, "%s in %.1f s", tr->build.up_to_date ?
				     "up to date" : "built", tr->build.seconds);
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
		free(dir);
	}

	guests = xcalloc(run.nr_targets, sizeof(*guests));
	for (int i = 0; i < run.nr_targets; i++) {
		struct target_result *tr = &run.targets[i];
		char *dir, *console, *qemu, *append;
		int in_guest = 0;

		for (int j = 0; j < tr->suites.n; j++)
			in_guest += !suite_find(tr->suites.v[j])->static_check;
		/* Nothing to boot for: only build-time checks were asked for. */
		if (!tr->build_ok || !in_guest)
			continue;
		dir = xasprintf("%s/%s", run.dir, tr->build.name);
		console = xasprintf("%s/console.log", dir);
		qemu = xasprintf("%s/%s.log", dir, o->lava ? "lava" : "qemu");
		append = kernel_append(o, tr);
		guest_prepare(&guests[nr_guests], tr->target, tr->build.image,
			      tr->build.initramfs, append, console, qemu,
			      guest_bound(o, tr));
		free(console);
		free(qemu);
		free(append);
		/* Every booted column gets its LAVA jobs, for a lab to take. */
		if (lava_prepare(&guests[nr_guests], dir, tr->build.name, o->lava)) {
			kwm_error("%s: cannot write its LAVA job in %s (fix: check free space)",
				  tr->build.name, dir);
			if (o->lava) {
				/* Not booted: its cells say so. */
				guest_free(&guests[nr_guests]);
				free(dir);
				continue;
			}
		}
		free(dir);
		guests[nr_guests].name = tr->build.name;
		guests[nr_guests].column = i;
		guests[nr_guests].nr_suites = in_guest;
		nr_guests++;
	}
	/* On 2 host CPUs, one 2-vCPU guest at a time. */
	slots = ncpu / GUEST_VCPUS > 0 ? (int)(ncpu / GUEST_VCPUS) : 1;
	if (!stop_requested)
		guests_run(guests, nr_guests, slots, &stop_requested);
	/* The targets take over the guests. */
	for (int i = 0, g = 0; i < run.nr_targets; i++)
		if (g < nr_guests && guests[g].name == run.targets[i].build.name)
			run.targets[i].guest = guests[g++];
		else
			run.targets[i].guest.target = run.targets[i].target;
	free(guests);
	guests = NULL;

	run.complete = !stop_requested;
	run.seconds = now_seconds() - t0;
	report_judge(&run);
	for (int i = 0; i < run.nr_targets; i++) {
		char *summary = report_column_summary(&run.targets[i]);

		progress_done(i, "%s", summary);
		free(summary);
	}
	progress_stop();
	if (report_write_json(&run) || export_formats(run.dir)) {
		kwm_error("cannot write the results in %s: %s (fix: free some space and rerun)",
			  run.dir, strerror(errno));
		goto out;
	}
	ret = report_print_table(&run, stdout) ? 0 : EXIT_CELLS_FAILED;
	if (!run.complete)
		ret = EXIT_SIGNALLED + stop_requested;
out:
	progress_stop();
	if (lock_fd >= 0)
		close(lock_fd);
	for (int i = 0; i < nr_guests && guests; i++)
		guest_free(&guests[i]);
	free(guests);
	for (int i = 0; i < run.nr_targets; i++) {
		struct target_result *tr = &run.targets[i];

		build_free(&tr->build);
		strlist_free(&tr->suites);
		free(tr->unavailable);
		guest_free(&tr->guest);
		console_result_free(&tr->console);
		shape_rates_free(tr->rates, tr->nr_rates);
		if (frags)
			fragments_free(&frags[i]);
	}
	free(frags);
	free(run.targets);
	free(run.id);
	free(run.dir);
	free(run.started_utc);
	free(setup_log);
	free(ccache_dir);
	for (int v = 0; v < o->versions.n; v++) {
		series_free(&versions[v].series);
		source_free(&versions[v].src);
		free(versions[v].checkpatch_log);
	}
	free(versions);
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

static int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	int c;

	while ((c = getopt(argc, argv, "o:")) != -1) {
		if (c != 'o') {
			usage(stderr);
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

static void options_free(struct options *o)
{
	strlist_free(&o->targets);
	strlist_free(&o->suites);
	strlist_free(&o->kernels);
	strlist_free(&o->versions);
	free(o->results);
	free(o->cache);
	free(o->repo);
	free(o->series_dir);
}

int main(int argc, char **argv)
{
	struct options o;
	int ret;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : 0;
	}
	if (!strcmp(argv[1], "list")) {
		cmd_list();
		return 0;
	}
	if (!strcmp(argv[1], "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (strcmp(argv[1], "run")) {
		kwm_error("unknown command '%s' (fix: kwmatrix run, or kwmatrix list)",
			  argv[1]);
		return EXIT_BAD_INPUT;
	}
	if (parse_options(argc - 1, argv + 1, &o)) {
		options_free(&o);
		return EXIT_BAD_INPUT;
	}
	ret = cmd_run(&o);
	options_free(&o);
	return ret;
}
