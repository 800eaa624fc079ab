// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibration.h"
#include "oracles.h"
#include "suites.h"
#include "targets.h"
#include "tree.h"

void options_usage(FILE *out)
{
	fprintf(out,
		"usage: kwmatrix run [options]    build, boot and report the matrix\n"
		"       kwmatrix list             show targets, kernels and suites\n"
		"       kwmatrix merge A.json B.json... -o DIR\n"
		"                                 combine shards' matrix.json into one\n"
		"       kwmatrix litmus [options] FILE...\n"
		"                                 run LKMM litmus tests (.litmus) on the targets,\n"
		"                                 natively and on the emulated machine\n"
		"       kwmatrix models TREE      the memory model's verdicts on each barrier\n"
		"                                 of each version (litmus/path-*.litmus), by\n"
		"                                 herd7 against TREE/tools/memory-model\n"
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
		xappendf(&out, "%s%s", i ? ", " : "", name_of(which, i));
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

/*
 * What was not asked for takes its default, "all" becomes every name,
 * and every name must be known.
 */
static int options_complete(struct options *o)
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
		kwm_info("suites: the calibrations the mutants asked for are judged by added");
	return 0;
}

char *options_default_cache(void)
{
	const char *home = getenv("HOME"), *env_cache = getenv("KWMATRIX_CACHE");

	return env_cache && *env_cache ? xstrdup(env_cache) :
	       xasprintf("%s/.cache/kwmatrix", home ? home : "/tmp");
}

/* @files: the arguments after the options are .litmus files (kwmatrix litmus). */
static int parse(int argc, char **argv, struct options *o, bool files)
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
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	memset(o, 0, sizeof(*o));
	o->jobs = ncpu > 0 ? (int)ncpu : 1;
	o->duration = 10;
	o->results = xstrdup("results");
	o->repo = xstrdup(".");
	o->cache = options_default_cache();

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
			options_usage(stdout);
			exit(0);
		default:
			options_usage(stderr);
			return -1;
		}
	}
	if (files && optind == argc) {
		kwm_error("no .litmus file given (fix: kwmatrix litmus [options] FILE...)");
		return -1;
	}
	if (!files && optind != argc) {
		kwm_error("unexpected argument '%s' (fix: see kwmatrix --help)",
			  argv[optind]);
		return -1;
	}
	for (; optind < argc; optind++) {
		char *path = realpath(argv[optind], NULL);

		if (!path) {
			kwm_error("cannot find %s (fix: name an existing .litmus file)",
				  argv[optind]);
			return -1;
		}
		strlist_add(&o->litmus_files, path);
		free(path);
	}
	/* Only the litmus tests, unless -s says otherwise. */
	if (files && !o->suites.n)
		for (int i = 0; i < kwm_nr_suites; i++)
			if (kwm_suites[i].litmus_side)
				strlist_add(&o->suites, kwm_suites[i].name);
	return options_complete(o);
}

int options_parse(int argc, char **argv, struct options *o)
{
	return parse(argc, argv, o, false);
}

int options_parse_litmus(int argc, char **argv, struct options *o)
{
	return parse(argc, argv, o, true);
}

void options_free(struct options *o)
{
	strlist_free(&o->targets);
	strlist_free(&o->suites);
	strlist_free(&o->kernels);
	strlist_free(&o->versions);
	strlist_free(&o->litmus_files);
	free(o->results);
	free(o->cache);
	free(o->repo);
	free(o->series_dir);
}
