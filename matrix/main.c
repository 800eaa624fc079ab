// SPDX-License-Identifier: GPL-2.0
/*
 * kwmatrix: build the patched kernel for each target, boot it under QEMU,
 * run the suites inside, and report one matrix.
 *
 * main() and the subcommands; cmd_run() is the list of the run's stages
 * (stages.h), as kunit_tool's run_tests() is.
 */
#define _GNU_SOURCE
#include "stages.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus.h"
#include "merge.h"
#include "models.h"
#include "status.h"
#include "suites.h"
#include "fs.h"

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
	if (!ret)
		ret = stage_plan_guests(&st);
	if (!ret) {
		signal(SIGINT, stages_on_signal);
		signal(SIGTERM, stages_on_signal);
		/* Its reader gone (kwmatrix run | head): stop so, not die and leave QEMU running. */
		signal(SIGPIPE, stages_on_signal);
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
	printf("statuses:\n");
	for (int s = 0; s < CELL_NR_STATUSES; s++)
		printf("  %-13s %-9s JUnit %-8s KCIDB %-5s %s\n", kwm_statuses[s].name,
		       kwm_statuses[s].green ? "green" : "not green", kwm_statuses[s].junit,
		       kwm_statuses[s].kcidb, kwm_statuses[s].meaning);
}

/*
 * Each file of kwmatrix litmus parsed now: a bad one is named before any
 * build, and left out (the module skips it, with the same reason); the
 * run stops only if not one file is a test.
 */
static int litmus_files_check(const struct options *o)
{
	int parsed = 0;

	for (int i = 0; i < o->litmus_files.n; i++) {
		char *text = read_file(o->litmus_files.v[i], NULL), *error = NULL;
		struct litmus_test t = { 0 };

		if (!text)
			error = xasprintf("cannot read %s (fix: name a readable .litmus file)",
					  o->litmus_files.v[i]);
		else if (!litmus_parse(o->litmus_files.v[i], text, &t, &error))
			parsed++;
		if (error)
			kwm_warning("%s; it is skipped, the others run", error);
		litmus_test_free(&t);
		free(error);
		free(text);
	}
	if (o->litmus_files.n && !parsed) {
		kwm_error("not one of the %d files is an LKMM litmus test (fix: name .litmus files in herd7's C dialect)",
			  o->litmus_files.n);
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
	/* kwmatrix litmus --record TREE FILE...: herd7's verdicts kept beside the files. */
	if (!strcmp(argv[1], "litmus") && argc > 2 && !strcmp(argv[2], "--record")) {
		if (argc < 5) {
			kwm_error("litmus --record needs a kernel tree and files (fix: kwmatrix litmus --record ~/.cache/kwmatrix/src/<version>/tree FILE...)");
			return EXIT_BAD_INPUT;
		}
		return litmus_truth_record(argv[3], argv + 4, argc - 4);
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
