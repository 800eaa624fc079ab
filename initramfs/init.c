// SPDX-License-Identifier: GPL-2.0
/*
 * kwm-init: PID 1 of the kwmatrix guest.
 *
 * Mounts sys and dev, runs the suites named in the plan the driver put in
 * the initrd, lets their KTAP reach the console, and powers the machine
 * off.  The plan's grammar and the console's markers are the driver's
 * too: include/kwm_protocol.h.
 *
 * A MODULE is a path under /lib/kw without ".ko".  The modules of a suite
 * are loaded in order and unloaded in reverse order once the suite ends,
 * so that the next suite starts from a clean slate (a mutant replaces the
 * subject module under the same name).  Test modules print their KTAP
 * through printk while they load.  A module that fails to load is
 * reported here, as a KTAP document of its own, and the guest still
 * powers off.
 *
 * A sanitizer samples, so a detector meant for one runs long; once the
 * kernel logs a line holding kwm.catch's TEXT and "[MODULE]" (a report of
 * the sanitizer in the subject), the suite has done its job.  A watcher
 * child reading /dev/kmsg then signals this process, which wakes the
 * torture module's interruptible sleep and so ends its run early.
 *
 * A suite may need a shape's weak outcome (kwm.needs_weak=SHAPE): a
 * native mutant, which only reordering kills on a plain kernel.  The
 * calibration's figures are read back from /dev/kmsg as its suite ends;
 * where it saw the shape 0 times, the suite is not run, and the console
 * says why.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "kwm_protocol.h"
#include "shapes.h"

#define CMDLINE_MAX	4096
#define PARAMS_MAX	1024
#define MODULES_MAX	16
#define CATCH_MAX	128
#define RECORD_MAX	8192

static char cmdline[CMDLINE_MAX];
static char catch_text[CATCH_MAX], catch_module[CATCH_MAX];
static volatile sig_atomic_t caught;

/* The calibration's figures seen so far in this guest. */
static struct shape_table shapes;

/* Whole milliseconds: the init does no floating point. */
static long long monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	/*
	 * The console's UART sends a write() later; the kernel's own messages
	 * go out at once.  Wait for ours to be sent, so that no kernel line
	 * lands inside a marker.
	 */
	tcdrain(STDOUT_FILENO);
}

/* @path's text appended to cmdline, after a space. */
static void append_file(const char *path)
{
	size_t used = strlen(cmdline);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || used + 2 >= sizeof(cmdline)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	cmdline[used++] = ' ';
	n = read(fd, cmdline + used, sizeof(cmdline) - 1 - used);
	cmdline[used + (n < 0 ? 0 : n)] = '\0';
	close(fd);
}

/* The plan, in the initrd (KWM_RUN_FILE): the kernel has no /proc. */
static void read_cmdline(void)
{
	cmdline[0] = '\0';
	append_file(KWM_RUN_FILE);
}

/* Next space-separated token of *pos, honouring double quotes. */
static int next_token(const char **pos, char *tok, size_t size)
{
	const char *p = *pos;
	size_t len = 0;
	int quoted = 0;

	while (*p == ' ' || *p == '\n')
		p++;
	if (!*p)
		return 0;
	for (; *p && (quoted || (*p != ' ' && *p != '\n')); p++) {
		if (*p == '"') {
			quoted = !quoted;
			continue;
		}
		if (len + 1 < size)
			tok[len++] = *p;
	}
	tok[len] = '\0';
	*pos = p;
	return 1;
}

/* Append "PARAM=VALUE" to @out if @tok is "@module.PARAM=VALUE". */
static void add_param(const char *tok, size_t tok_len, const char *module,
		      char *out, size_t size, size_t *used)
{
	size_t mlen = strlen(module);

	if (*used >= size || tok_len <= mlen + 1 ||
	    strncmp(tok, module, mlen) || tok[mlen] != '.')
		return;
	*used += snprintf(out + *used, size - *used, "%s%.*s", *used ? " " : "",
			  (int)(tok_len - mlen - 1), tok + mlen + 1);
	if (*used >= size)
		out[size - 1] = '\0';
}

/*
 * Collect @module's parameters as "PARAM=VALUE ...": the command line's,
 * then the suite's own, which win as the kernel applies them in order.
 */
static void module_params(const char *module, const char *suite_params,
			  char *out, size_t size)
{
	const char *pos = cmdline, *p;
	size_t used = 0;
	char tok[512];

	out[0] = '\0';
	while (next_token(&pos, tok, sizeof(tok)))
		add_param(tok, strlen(tok), module, out, size, &used);
	for (p = suite_params; p && *p;) {
		size_t len = strcspn(p, KWM_RUN_PARAMS_SEP);

		add_param(p, len, module, out, size, &used);
		p += len + !!p[len];
	}
}

/* The value of the command line's "@key" (which ends in '='), or "". */
static void cmdline_value(const char *key, char *out, size_t size)
{
	const char *pos = cmdline;
	size_t klen = strlen(key);
	char tok[512];

	out[0] = '\0';
	while (next_token(&pos, tok, sizeof(tok))) {
		if (!strncmp(tok, key, klen)) {
			snprintf(out, size, "%s", tok + klen);
			return;
		}
	}
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int load_module(const char *path, const char *suite_params)
{
	const char *name = basename_of(path);
	char file[256], params[PARAMS_MAX];
	int fd, ret;

	snprintf(file, sizeof(file), "/lib/kw/%s.ko", path);
	module_params(name, suite_params, params, sizeof(params));
	say("# kwm: load %s %s\n", path, params);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static void unload_module(const char *path)
{
	if (syscall(SYS_delete_module, basename_of(path), O_NONBLOCK))
		say("# kwm: unload %s: %s\n", path, strerror(errno));
}

static void on_caught(int sig)
{
	(void)sig;
	caught = 1;
}

/* Does one /dev/kmsg record ("PRIO,SEQ,TIME,FLAGS;TEXT") show the catch? */
static int is_catch(const char *record)
{
	const char *text = strchr(record, ';');

	return text && strstr(text, catch_text) && strstr(text, catch_module);
}

/*
 * Fork a child that signals us at the first catch logged from now on;
 * its pid, or -1 if nothing is to be caught or it cannot watch.
 */
static pid_t watch_for_catch(void)
{
	char record[RECORD_MAX];
	pid_t pid;
	ssize_t n;
	int fd;

	caught = 0;
	if (!catch_text[0] || !catch_module[0])
		return -1;
	/* Opened here, so that no record logged after this is missed. */
	fd = open("/dev/kmsg", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	lseek(fd, 0, SEEK_END);
	pid = fork();
	if (pid) {
		close(fd);
		return pid;
	}
	for (;;) {
		n = read(fd, record, sizeof(record) - 1);
		/* EPIPE: records were overwritten before we read them. */
		if (n < 0 && errno != EPIPE && errno != EINTR)
			_exit(0);
		if (n <= 0)
			continue;
		record[n] = '\0';
		if (is_catch(record)) {
			kill(getppid(), SIGUSR1);
			_exit(0);
		}
	}
}

static void stop_watching(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* A reader of /dev/kmsg from now on that never blocks, or -1. */
static int kmsg_from_now(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * The calibration figures logged since @fd was opened: the modules have
 * loaded, so every line their init printed is in the log.
 */
static void read_shapes(int fd)
{
	char record[RECORD_MAX];
	ssize_t n;

	if (fd < 0)
		return;
	for (;;) {
		n = read(fd, record, sizeof(record) - 1);
		/* EPIPE: records overwritten before we read them; go on. */
		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (n <= 0)
			break;
		record[n] = '\0';
		shapes_note(&shapes, record);
	}
	close(fd);
}

/*
 * Whether the suite needs a shape's weak outcome that calibration saw 0
 * times here: then nothing can come of it, and the console says why.
 */
static int needs_unseen_shape(const char *params)
{
	const struct shape_seen *seen = shapes_unseen_need(&shapes, params);

	if (seen)
		say(KWM_MARK_NOT_RUN "calibration saw %s 0 times in %lu runs\n",
		    seen->name, seen->runs);
	return seen != NULL;
}

/* Run one "NAME:MODULE[+MODULE...][:PARAMS]" suite. */
static void run_suite(char *suite)
{
	char *modules[MODULES_MAX], *colon = strstr(suite, KWM_RUN_FIELDS_SEP), *mod, *save;
	char *params;
	int nr = 0, i, ret, kmsg;
	long long started, took;
	pid_t watcher;

	if (!colon) {
		say("KTAP version 1\n1..1\nnot ok 1 %s # malformed " KWM_ARG_RUN " entry\n",
		    suite);
		return;
	}
	*colon = '\0';
	params = strstr(colon + 1, KWM_RUN_FIELDS_SEP);
	if (params)
		*params++ = '\0';
	say(KWM_MARK_SUITE "%s\n", suite);
	started = monotonic_ms();
	if (needs_unseen_shape(params))
		goto end;
	kmsg = kmsg_from_now();
	watcher = watch_for_catch();
	for (mod = strtok_r(colon + 1, KWM_RUN_MODULES_SEP, &save);
	     mod && nr < MODULES_MAX;
	     mod = strtok_r(NULL, KWM_RUN_MODULES_SEP, &save)) {
		ret = load_module(mod, params);
		if (ret) {
			say("KTAP version 1\n1..1\nnot ok 1 %s # load failed: %s\n",
			    basename_of(mod), strerror(-ret));
			break;
		}
		modules[nr++] = mod;
	}
	stop_watching(watcher);
	read_shapes(kmsg);
	if (caught)
		say(KWM_MARK_ENDED_EARLY "the kernel reported \"%s\" in %s\n",
		    catch_text, catch_module);
	for (i = nr - 1; i >= 0; i--)
		unload_module(modules[i]);
end:
	say(KWM_MARK_SUITE_END "%s\n", suite);
	took = monotonic_ms() - started;
	say(KWM_MARK_SUITE_SECONDS "%s %lld.%03lld\n", suite, took / 1000, took % 1000);
}

static void run_suites(void)
{
	const char *pos = cmdline;
	char tok[CMDLINE_MAX], *suite, *save;

	while (next_token(&pos, tok, sizeof(tok))) {
		if (strncmp(tok, KWM_ARG_RUN, strlen(KWM_ARG_RUN)))
			continue;
		for (suite = strtok_r(tok + strlen(KWM_ARG_RUN), KWM_RUN_SUITES_SEP, &save);
		     suite; suite = strtok_r(NULL, KWM_RUN_SUITES_SEP, &save))
			run_suite(suite);
		return;
	}
	say("# kwm: no " KWM_ARG_RUN " on the kernel command line\n");
}

int main(void)
{
	/* The kernel's devtmpfs automount does not apply to an initramfs. */
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);

	read_cmdline();
	cmdline_value(KWM_ARG_CATCH, catch_text, sizeof(catch_text));
	cmdline_value(KWM_ARG_SUBJECT, catch_module + 1, sizeof(catch_module) - 2);
	/* As stack frames and report titles name a module: "[kw_worker]". */
	if (catch_module[1]) {
		catch_module[0] = '[';
		strcat(catch_module, "]");
	}
	/* No SA_RESTART: the signal is to cut the module's sleep short. */
	sigaction(SIGUSR1, &(struct sigaction){ .sa_handler = on_caught }, NULL);
	say(KWM_MARK_INIT "\n");
	run_suites();
	say(KWM_MARK_DONE "\n");

	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if power-off failed: -no-reboot turns a panic into an exit. */
	return 1;
}
