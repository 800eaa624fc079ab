// SPDX-License-Identifier: GPL-2.0
/*
 * kwm-init: PID 1 of the kwmatrix guest.
 *
 * Mounts proc, sys and dev, runs the suites named on the kernel command
 * line, lets their KTAP reach the console, and powers the machine off.
 *
 *   kwm.run=SUITE[;SUITE...]      SUITE is NAME:MODULE[+MODULE...]
 *   MODULE.PARAM=VALUE            passed to MODULE when it is loaded
 *
 * A MODULE is a path under /lib/kw without ".ko".  The modules of a suite
 * are loaded in order and unloaded in reverse order once the suite ends,
 * so that the next suite starts from a clean slate (a mutant replaces the
 * subject module under the same name).  Test modules print their KTAP
 * through printk while they load.  A module that fails to load is
 * reported here, as a KTAP document of its own, and the guest still
 * powers off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#define CMDLINE_MAX	4096
#define PARAMS_MAX	1024
#define MODULES_MAX	16

static char cmdline[CMDLINE_MAX];

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

static void read_cmdline(void)
{
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, cmdline, sizeof(cmdline) - 1);

	if (n < 0)
		n = 0;
	cmdline[n] = '\0';
	if (fd >= 0)
		close(fd);
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

/* Collect "MODULE.PARAM=VALUE" tokens for @module as "PARAM=VALUE ...". */
static void module_params(const char *module, char *out, size_t size)
{
	size_t mlen = strlen(module), used = 0;
	const char *pos = cmdline;
	char tok[512];

	out[0] = '\0';
	while (next_token(&pos, tok, sizeof(tok))) {
		if (strncmp(tok, module, mlen) || tok[mlen] != '.')
			continue;
		used += snprintf(out + used, size - used, "%s%s",
				 used ? " " : "", tok + mlen + 1);
		if (used >= size) {
			out[size - 1] = '\0';
			return;
		}
	}
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int load_module(const char *path)
{
	const char *name = basename_of(path);
	char file[256], params[PARAMS_MAX];
	int fd, ret;

	snprintf(file, sizeof(file), "/lib/kw/%s.ko", path);
	module_params(name, params, sizeof(params));
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

/* Run one "NAME:MODULE[+MODULE...]" suite. */
static void run_suite(char *suite)
{
	char *modules[MODULES_MAX], *colon = strchr(suite, ':'), *mod, *save;
	int nr = 0, i, ret;

	if (!colon) {
		say("KTAP version 1\n1..1\nnot ok 1 %s # malformed kwm.run entry\n",
		    suite);
		return;
	}
	*colon = '\0';
	say("# kwm-suite: %s\n", suite);
	for (mod = strtok_r(colon + 1, "+", &save); mod && nr < MODULES_MAX;
	     mod = strtok_r(NULL, "+", &save)) {
		ret = load_module(mod);
		if (ret) {
			say("KTAP version 1\n1..1\nnot ok 1 %s # load failed: %s\n",
			    basename_of(mod), strerror(-ret));
			break;
		}
		modules[nr++] = mod;
	}
	for (i = nr - 1; i >= 0; i--)
		unload_module(modules[i]);
	say("# kwm-suite-end: %s\n", suite);
}

static void run_suites(void)
{
	const char *pos = cmdline;
	char tok[CMDLINE_MAX], *suite, *save;

	while (next_token(&pos, tok, sizeof(tok))) {
		if (strncmp(tok, "kwm.run=", 8))
			continue;
		for (suite = strtok_r(tok + 8, ";", &save); suite;
		     suite = strtok_r(NULL, ";", &save))
			run_suite(suite);
		return;
	}
	say("# kwm: no kwm.run= on the kernel command line\n");
}

int main(void)
{
	/* The kernel's devtmpfs automount does not apply to an initramfs. */
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);

	read_cmdline();
	say("# kwm: init started\n");
	run_suites();
	say("# kwm-done\n");

	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if power-off failed: -no-reboot turns a panic into an exit. */
	return 1;
}
