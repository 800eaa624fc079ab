// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "lava.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "kwm_protocol.h"
#include "fs.h"

/*
 * What the tests print: init's first line ends the boot, the suite
 * markers frame the test, and every KTAP result line is a LAVA case.
 */
static const char monitor[] =
	"- test:\n"
	"    timeout: {seconds: %d}\n"
	"    monitors:\n"
	"    - name: kw_worker\n"
	"      start: '" KWM_MARK_SUITE "'\n"
	"      end: '" KWM_MARK_DONE "'\n"
	"      pattern: '(?P<result>ok|not ok) \\d+ (?P<test_case_id>\\S+)[^\\n]*\\n'\n"
	"      fixupdict: {ok: pass, 'not ok': fail}\n";
#define BOOT_PROMPT	"prompts: ['" KWM_MARK_INIT "']"

/* @s as a YAML single-quoted scalar (free it). */
static char *yq(const char *s)
{
	char *out = xstrdup("'"), *quoted;

	for (; *s; s++) {
		xappendf(&out, "%s", *s == '\'' ? "''" : (char[]){ *s, 0 });
	}
	quoted = xasprintf("%s'", out);
	free(out);
	return quoted;
}

static int write_text(const char *dir, const char *file, char *text)
{
	char *path = xasprintf("%s/%s", dir, file);
	int ret = write_file_atomic(path, text, strlen(text));

	free(path);
	free(text);
	return ret;
}

/*
 * The device dictionary that lava-server would render from its qemu
 * device type for this job: lava-run takes it already rendered.
 */
static char *device_yaml(const struct guest *g)
{
	char *machine = xasprintf("%s -serial stdio", g->machine);
	char *q_machine = yq(machine), *q_qemu = yq(g->target->qemu);
	char *text = xasprintf(
		"# LAVA's qemu device type, rendered for lava-run (kwmatrix).\n"
		"available_architectures: [%s]\n"
		"constants:\n"
		"  failure_retry: 1\n"
		"  boot_retry: 1\n"
		"  spawn_maxread: 4092\n"
		"  kernel-start-message: 'Linux version [0-9]'\n"
		"  shutdown-message: 'reboot: Power down'\n"
		"  default-shell-prompt: 'lava-test: # '\n"
		"  posix: {lava_test_results_dir: '/lava-%%s', lava_test_sh_cmd: /bin/sh,\n"
		"          lava_test_shell_file: '~/.bashrc'}\n"
		/* Required by lava_common.schemas.device, even when empty. */
		"parameters: {}\n"
		"actions:\n"
		"  deploy: {methods: {image: {parameters: {}}}}\n"
		"  boot:\n"
		"    connections: {serial: null}\n"
		"    methods:\n"
		"      qemu:\n"
		"        parameters:\n"
		"          command: %s\n"
		"          options: [%s]\n"
		"timeouts: {actions: {}, connections: {}}\n",
		g->target->lava_arch, q_qemu, q_machine);

	free(machine);
	free(q_machine);
	free(q_qemu);
	return text;
}

static char *job_yaml(const struct guest *g, const char *name)
{
	char *kernel_arg = xasprintf("-kernel {kernel} -append \"%s\"", g->append);
	char *kernel_url = xasprintf("file://%s", g->kernel);
	char *initrd_url = xasprintf("file://%s", g->initrd);
	char *q_arg = yq(kernel_arg), *q_kernel = yq(kernel_url), *q_initrd = yq(initrd_url);
	char *test = xasprintf(monitor, (int)g->bound);
	char *text = xasprintf(
		"# %s for LAVA's qemu device type: kwmatrix runs it with lava-run,\n"
		"# and a LAVA server with a qemu device takes it as it is.\n"
		"device_type: qemu\n"
		"job_name: 'kwmatrix %s'\n"
		"timeouts: {job: {seconds: %d}, action: {seconds: %d}}\n"
		"priority: medium\n"
		"visibility: public\n"
		"context: {arch: %s}\n"
		"actions:\n"
		"- deploy:\n"
		"    to: tmpfs\n"
		"    images:\n"
		"      kernel: {url: %s, image_arg: %s}\n"
		"      ramdisk: {url: %s, image_arg: '-initrd {ramdisk}'}\n"
		"- boot: {method: qemu, media: tmpfs, timeout: {seconds: %d},\n"
		"         " BOOT_PROMPT "}\n"
		"%s",
		name, name, (int)g->bound + 60, (int)g->bound, g->target->lava_arch,
		q_kernel, q_arg, q_initrd, g->target->boot_seconds, test);

	free(kernel_arg);
	free(kernel_url);
	free(initrd_url);
	free(q_arg);
	free(q_kernel);
	free(q_initrd);
	free(test);
	return text;
}

/* The same kernel, initramfs, command line and monitor, for a real board. */
static char *board_yaml(const struct guest *g, const char *name)
{
	char *q_append = yq(g->append), *test = xasprintf(monitor, (int)g->bound);
	char *text = xasprintf(
		"# %s on a real board: a template.  Set device_type to the lab's,\n"
		"# serve the kernel and initramfs of this column over HTTP, and fix\n"
		"# console= for the board's UART.  Real arm64, POWER and RISC-V\n"
		"# hardware reorders what QEMU's TCG cannot.\n"
		"device_type: FILL-IN\n"
		"job_name: 'kwmatrix %s on hardware'\n"
		"timeouts: {job: {seconds: %d}, action: {seconds: %d}}\n"
		"priority: medium\n"
		"visibility: public\n"
		"context: {extra_kernel_args: %s}\n"
		"actions:\n"
		"- deploy:\n"
		"    to: tftp\n"
		"    kernel: {url: 'https://FILL-IN/%s', type: image}\n"
		/* Uncompressed: LAVA's schema has no "none", only no compression key. */
		"    ramdisk: {url: 'https://FILL-IN/initramfs.cpio'}\n"
		"- boot: {method: u-boot, commands: ramdisk, timeout: {seconds: %d},\n"
		"         " BOOT_PROMPT "}\n"
		"%s",
		name, name, (int)g->bound + 300, (int)g->bound, q_append,
		strrchr(g->kernel, '/') ? strrchr(g->kernel, '/') + 1 : g->kernel,
		g->target->boot_seconds + 240, test);

	free(q_append);
	free(test);
	return text;
}

/*
 * lava-run logs one JSON object per line: the guest's console lines are
 * "target", the verdicts "results".  Called every poll, so it reads only
 * the complete lines that came since the last call: appends the console
 * lines to console.log, and counts the monitor's cases and the job's
 * verdict for the cell.
 */
static void lava_collect(struct guest *g)
{
	FILE *in = fopen(g->qemu_log, "r"), *out;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!in)
		return;
	out = fopen(g->console_log, "a");
	if (!out || fseek(in, g->runner.offset, SEEK_SET)) {
		fclose(in);
		if (out)
			fclose(out);
		return;
	}
	/* A line still being written waits for the next call. */
	while ((len = getline(&line, &cap, in)) > 0 && line[len - 1] == '\n') {
		json_object *o, *msg, *lvl;

		g->runner.offset += len;
		line[len - 1] = '\0';
		o = json_tokener_parse(line);
		if (!o || !json_object_object_get_ex(o, "msg", &msg) ||
		    !json_object_object_get_ex(o, "lvl", &lvl)) {
			json_object_put(o);
			continue;
		}
		if (!strcmp(json_object_get_string(lvl), "target")) {
			fprintf(out, "%s\n", json_object_get_string(msg));
		} else if (!strcmp(json_object_get_string(lvl), "results") &&
			   json_object_is_type(msg, json_type_object)) {
			const char *def = json_object_get_string(json_object_object_get(msg, "definition"));
			const char *kase = json_object_get_string(json_object_object_get(msg, "case"));
			const char *result = json_object_get_string(json_object_object_get(msg, "result"));
			const char *error = json_object_get_string(json_object_object_get(msg, "error_msg"));

			if (def && result && !strcmp(def, "kw_worker")) {
				g->runner.passed += !strcmp(result, "pass");
				g->runner.failed += strcmp(result, "pass") != 0;
			} else if (def && kase && result && !strcmp(def, "lava") &&
				   !strcmp(kase, "job")) {
				free(g->runner.verdict);
				g->runner.verdict = error ? xasprintf("%s: %s", result, error) :
						    xstrdup(result);
			}
		}
		json_object_put(o);
	}
	free(line);
	fclose(in);
	fclose(out);
	free(g->runner_note);
	g->runner_note = xasprintf("LAVA job %s; monitor cases: %d pass, %d fail",
				   g->runner.verdict ? g->runner.verdict : "not finished",
				   g->runner.passed, g->runner.failed);
}

int lava_prepare(struct guest *g, const char *dir, const char *name, bool run)
{
	char *job = xasprintf("%s/lava-job.yaml", dir);
	char *device = xasprintf("%s/lava-device.yaml", dir);
	char *out = xasprintf("%s/lava-output", dir);
	/* lava-run works in /var/lib/lava/dispatcher/tmp/<id>: one per guest. */
	char *id = xasprintf("kwm-%d-%s", (int)getpid(), name);
	char *argv[] = { LAVA_RUN, "--job-id", id, "--device", device,
			 "--output-dir", out, job, NULL };
	int ret = write_text(dir, "lava-device.yaml", device_yaml(g)) ||
		  write_text(dir, "lava-job.yaml", job_yaml(g, name)) ||
		  write_text(dir, "lava-board-job.yaml", board_yaml(g, name)) ? -1 : 0;

	if (!ret && run) {
		for (int i = 0; g->argv[i]; i++)
			free(g->argv[i]);
		free(g->argv);
		g->argv = xcalloc(sizeof(argv) / sizeof(argv[0]), sizeof(*g->argv));
		for (int i = 0; argv[i]; i++)
			g->argv[i] = xstrdup(argv[i]);
		free(g->command);
		g->command = xasprintf("%s --job-id %s --device %s --output-dir %s %s",
				       LAVA_RUN, id, device, out, job);
		g->collect = lava_collect;
	}
	free(job);
	free(device);
	free(out);
	free(id);
	return ret;
}
