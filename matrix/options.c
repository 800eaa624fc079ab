// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibration.h"
#include "oracles.h"
#include "suites.h"
#include "targets.h"
#include "tree.h"

/* What an option sets, and so how its argument is read. */
enum option_kind {
	OPTION_LIST,		/* comma-separated, into a struct strlist */
	OPTION_PATH,		/* a string, replacing the default */
	OPTION_COUNT,		/* a whole positive number */
	OPTION_FLAG,		/* no argument: true */
};

/*
 * The options of run and litmus, in one table: the parser, getopt's
 * tables and --help are made from it.  @help's lines after the first are
 * indented under it.
 */
static const struct option_spec {
	char letter;
	const char *name;
	const char *arg;		/* in --help; NULL for a flag */
	enum option_kind kind;
	size_t field;			/* offsetof(struct options, ...) */
	const char *help;
} option_specs[] = {
	{ 't', "targets", "LIST", OPTION_LIST, offsetof(struct options, targets),
	  "comma-separated targets, or all (default: the boot\n"
	  "targets; the build-only ones are for the nightly)" },
	{ 's', "suites", "LIST", OPTION_LIST, offsetof(struct options, suites),
	  "comma-separated suites (default: the default set)" },
	{ 'k', "kernels", "LIST", OPTION_LIST, offsetof(struct options, kernels),
	  "plain and oracle kernels per target, or all\n"
	  "(default: plain; the oracles build a kernel each)" },
	{ 'V', "versions", "LIST", OPTION_LIST, offsetof(struct options, versions),
	  "kernel versions, each Debian's linux-source-VERSION,\n"
	  "or all (default: 6.1; patch/VERSION/ holds refreshes)" },
	{ 'r', "results", "DIR", OPTION_PATH, offsetof(struct options, results),
	  "where results/<run-id>/ goes (default: results)" },
	{ 'c', "cache", "DIR", OPTION_PATH, offsetof(struct options, cache),
	  "build cache (default: $KWMATRIX_CACHE or ~/.cache/kwmatrix)" },
	{ 'p', "series", "DIR", OPTION_PATH, offsetof(struct options, series_dir),
	  "patch series (default: <repo>/patch)" },
	{ 'R', "repo", "DIR", OPTION_PATH, offsetof(struct options, repo),
	  "kwmatrix checkout (default: .)" },
	{ 'j', "jobs", "N", OPTION_COUNT, offsetof(struct options, jobs),
	  "parallel make jobs (default: host CPUs)" },
	{ 'd', "duration", "S", OPTION_COUNT, offsetof(struct options, duration),
	  "seconds per torture run (default: 10)" },
	{ 'T', "timeout", "S", OPTION_COUNT, offsetof(struct options, timeout),
	  "time bound of each guest (default: per target)" },
	{ 'L', "lava", NULL, OPTION_FLAG, offsetof(struct options, lava),
	  "boot each guest through LAVA's lava-run (every\n"
	  "run writes the LAVA jobs beside its results)" },
};
#define NR_OPTIONS	(sizeof(option_specs) / sizeof(option_specs[0]))
#define HELP_COLUMN	23

void options_usage(FILE *out)
{
	fprintf(out,
		"usage: kwmatrix run [options]    build, boot and report the matrix\n"
		"       kwmatrix list             show targets, kernels, suites and statuses\n"
		"       kwmatrix merge A.json B.json... -o DIR\n"
		"                                 combine shards' matrix.json into one\n"
		"       kwmatrix litmus [options] FILE...\n"
		"                                 run LKMM litmus tests (.litmus) on the targets,\n"
		"                                 natively and on the emulated machine; a file\n"
		"                                 that is no test, or whose C does not compile,\n"
		"                                 is skipped with why, and the others run\n"
		"       kwmatrix litmus --record TREE FILE...\n"
		"                                 herd7's verdict on each file, on TREE's model,\n"
		"                                 kept in herd7-verdicts.tsv beside it: the\n"
		"                                 expected result of a test without Result:\n"
		"       kwmatrix models TREE      the memory model's verdicts on each barrier\n"
		"                                 of each version (litmus/path-*.litmus), by\n"
		"                                 herd7 against TREE/tools/memory-model\n"
		"options:\n");
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const struct option_spec *spec = &option_specs[i];
		const char *line = spec->help;
		int width = fprintf(out, "  -%c, --%s %s", spec->letter, spec->name,
				    spec->arg ? spec->arg : "");

		while (line) {
			const char *nl = strchr(line, '\n');

			fprintf(out, "%*s%.*s\n", HELP_COLUMN - width, "",
				nl ? (int)(nl - line) : (int)strlen(line), line);
			width = 0;
			line = nl ? nl + 1 : NULL;
		}
	}
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
		kwm_info("suites: added the calibrations and validations the mutants are judged by");
	return 0;
}

char *options_default_cache(void)
{
	const char *home = getenv("HOME"), *env_cache = getenv("KWMATRIX_CACHE");

	return env_cache && *env_cache ? xstrdup(env_cache) :
	       xasprintf("%s/.cache/kwmatrix", home ? home : "/tmp");
}

/* @files: the arguments after the options are .litmus files (kwmatrix litmus). */
/* Set what @spec names in @o from @arg.  -1 after one line naming the fix. */
static int set_option(struct options *o, const struct option_spec *spec,
		      const char *arg)
{
	void *field = (char *)o + spec->field;
	char *what = xasprintf("--%s", spec->name);
	int ret = 0;

	switch (spec->kind) {
	case OPTION_LIST:
		ret = split_list(what, arg, field);
		break;
	case OPTION_PATH:
		free(*(char **)field);
		*(char **)field = xstrdup(arg);
		break;
	case OPTION_COUNT:
		*(int *)field = parse_count(what, arg);
		ret = *(int *)field < 0 ? -1 : 0;
		break;
	case OPTION_FLAG:
		*(bool *)field = true;
		break;
	}
	free(what);
	return ret;
}

static void set_defaults(struct options *o)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(o, 0, sizeof(*o));
	o->jobs = ncpu > 0 ? (int)ncpu : 1;
	o->duration = 10;
	o->results = xstrdup("results");
	o->repo = xstrdup(".");
	o->cache = options_default_cache();
}

/* The options in argv, until the first operand.  -1 on a bad one. */
static int parse_options(int argc, char **argv, struct options *o)
{
	struct option longopts[NR_OPTIONS + 2] = { { 0 } };
	char shortopts[3 * NR_OPTIONS + 2] = "", *p = shortopts;
	int c;

	for (size_t i = 0; i < NR_OPTIONS; i++) {
		longopts[i] = (struct option){ option_specs[i].name,
			option_specs[i].arg ? required_argument : no_argument,
			NULL, option_specs[i].letter };
		*p++ = option_specs[i].letter;
		if (option_specs[i].arg)
			*p++ = ':';
	}
	longopts[NR_OPTIONS] = (struct option){ "help", no_argument, NULL, 'h' };
	*p++ = 'h';
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		size_t i = 0;

		if (c == 'h') {
			options_usage(stdout);
			exit(0);
		}
		while (i < NR_OPTIONS && option_specs[i].letter != c)
			i++;
		if (i == NR_OPTIONS) {
			options_usage(stderr);
			return -1;
		}
		if (set_option(o, &option_specs[i], optarg))
			return -1;
	}
	return 0;
}

/* kwmatrix litmus's operands: the .litmus files, each found. */
static int parse_files(int argc, char **argv, struct options *o, bool files)
{
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
	return 0;
}

static int parse(int argc, char **argv, struct options *o, bool files)
{
	set_defaults(o);
	if (parse_options(argc, argv, o) || parse_files(argc, argv, o, files))
		return -1;
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
