// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "boot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "util.h"
#include "kwm_protocol.h"
#include "fs.h"
#include "proc.h"

#define POLL_NS		(100 * 1000 * 1000)

static void add_arg(char ***argv, int *n, const char *arg)
{
	*argv = xrealloc(*argv, (*n + 2) * sizeof(**argv));
	(*argv)[(*n)++] = xstrdup(arg);
	(*argv)[*n] = NULL;
}

static void add_split(char ***argv, int *n, const char *args)
{
	char *copy = xstrdup(args), *tok, *save;

	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		add_arg(argv, n, tok);
	free(copy);
}

static char *shell_quote_join(char *const *argv)
{
	char *out = xstrdup("");

	for (int i = 0; argv[i]; i++) {
		bool plain = strspn(argv[i], "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "-_=.,/:+") == strlen(argv[i]);
		xappendf(&out, plain ? "%s%s" : "%s'%s'", i ? " " : "", argv[i]);
	}
	return out;
}

/*
 * KVM where the host runs the target's own architecture and can open
 * /dev/kvm (KWMATRIX_KVM_DEVICE names another node, for the tests);
 * else multi-threaded TCG, with the reason kept for the cell.
 */
const char *guest_accel(const struct target *t, char **note)
{
	const char *dev = getenv("KWMATRIX_KVM_DEVICE");
	struct utsname host;
	int fd;

	if (!dev || !*dev)
		dev = "/dev/kvm";
	if (!t->kvm_host) {
		*note = xstrdup("TCG: no KVM for this target on any host here");
		return "tcg";
	}
	if (uname(&host) || strcmp(host.machine, t->kvm_host)) {
		*note = xasprintf("TCG: the host is not %s", t->kvm_host);
		return "tcg";
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*note = xasprintf("TCG: %s: %s", dev, strerror(errno));
		return "tcg";
	}
	close(fd);
	*note = xasprintf("KVM: %s", dev);
	return "kvm";
}

void guest_prepare(struct guest *g, const struct target *t,
		   const char *accel, const char *accel_note,
		   const char *kernel, const char *initrd, const char *append,
		   const char *console_log, const char *qemu_log, double bound)
{
	char *serial = xasprintf("file:%s", console_log);
	char *smp = xasprintf("%d", GUEST_VCPUS);
	int n = 0;

	memset(g, 0, sizeof(*g));
	g->target = t;
	g->console_log = xstrdup(console_log);
	g->qemu_log = xstrdup(qemu_log);
	g->bound = bound;
	add_arg(&g->argv, &n, t->qemu);
	g->accel = accel;
	g->accel_note = xstrdup(accel_note);
	/* One host thread per vCPU, so that the vCPUs really race. */
	add_split(&g->argv, &n, strcmp(g->accel, "kvm") ?
		  "-accel tcg,thread=multi -smp" : "-accel kvm -cpu host -smp");
	add_arg(&g->argv, &n, smp);
	add_split(&g->argv, &n, "-nodefaults -nographic -no-reboot");
	add_split(&g->argv, &n, t->qemu_args);
	/* The machine without its payload, for other runners (lava.c). */
	g->machine = shell_quote_join(g->argv + 1);
	g->kernel = xstrdup(kernel);
	g->initrd = xstrdup(initrd);
	g->append = xstrdup(append);
	add_arg(&g->argv, &n, "-kernel");
	add_arg(&g->argv, &n, kernel);
	add_arg(&g->argv, &n, "-initrd");
	add_arg(&g->argv, &n, initrd);
	add_arg(&g->argv, &n, "-append");
	add_arg(&g->argv, &n, append);
	add_arg(&g->argv, &n, "-serial");
	add_arg(&g->argv, &n, serial);
	g->command = shell_quote_join(g->argv);
	free(serial);
	free(smp);
}

/* Own process group: killing the guest kills nothing else. */
static pid_t spawn(struct guest *g)
{
	return spawn_child(g->argv, g->qemu_log, O_TRUNC, NULL);
}

/*
 * Once a second, read the guest's console: note its first KTAP line, and
 * tell the progress display when it starts another suite.
 */
static void watch_console(struct guest *g, double now)
{
	char *text, *p;
	int started = 0;

	/* Every poll until the first KTAP line: boot time is a figure. */
	if (g->first_ktap && now - g->checked < 1.0)
		return;
	g->checked = now;
	if (g->collect)
		g->collect(g);
	text = read_file(g->console_log, NULL);
	if (!text)
		return;
	if (!g->first_ktap && strstr(text, "KTAP version"))
		g->first_ktap = now - g->started;
	for (p = text; (p = strstr(p, KWM_MARK_SUITE)); p += strlen(KWM_MARK_SUITE)) {
		if (++started <= g->suites_started)
			continue;
		progress_set(g->column, "suite %d of %d: %.*s (%.0f s)", started,
			     g->nr_suites, (int)strcspn(p + strlen(KWM_MARK_SUITE), "\r\n"),
			     p + strlen(KWM_MARK_SUITE), now - g->started);
	}
	g->suites_started = started;
	free(text);
}

static void kill_guest(struct guest *g)
{
	kill(-g->pid, SIGKILL);
	kill(g->pid, SIGKILL);
}

void guests_start(struct guest_pool *pool, struct guest *guests, int slots)
{
	*pool = (struct guest_pool){ .guests = guests, .slots = slots,
				     .t0 = now_seconds() };
}

bool guests_idle(const struct guest_pool *pool)
{
	return pool->next == pool->nr && !pool->running;
}

/* Boot the next ready guest; false if none may start now. */
static bool boot_next(struct guest_pool *pool, double now, volatile sig_atomic_t *stop)
{
	struct guest *g;

	if (*stop || pool->running >= pool->slots || pool->next >= pool->nr)
		return false;
	g = &pool->guests[pool->next++];
	unlink(g->console_log);
	progress_set(g->column, "booting with %s%s (bound %.0f s)",
		     g->accel, g->collect ? " through LAVA" : "", g->bound);
	g->started = now;
	g->pid = spawn(g);
	g->ran = g->pid > 0;
	pool->running += g->ran;
	return true;
}

/* Reap @g if it ended; kill it at its bound or when the run stops. */
static void watch_guest(struct guest_pool *pool, struct guest *g, double now,
			volatile sig_atomic_t *stop)
{
	int status;

	if (!g->pid)
		return;
	watch_console(g, now);
	if (waitpid(g->pid, &status, WNOHANG) == g->pid) {
		g->ended = now - g->started;
		g->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		g->pid = 0;
		pool->running--;
		if (g->collect)
			g->collect(g);
		progress_set(g->column, "guest finished after %.1f s%s", g->ended,
			     g->timed_out ? " (killed at its time bound)" :
			     g->interrupted ? " (interrupted)" : "");
		return;
	}
	if (*stop && !g->interrupted) {
		g->interrupted = true;
		kill_guest(g);
	} else if (!g->timed_out && now - g->started > g->bound) {
		g->timed_out = true;
		kill_guest(g);
	}
}

void guests_poll(struct guest_pool *pool, volatile sig_atomic_t *stop)
{
	double now = now_seconds() - pool->t0;

	while (boot_next(pool, now, stop))
		;
	for (int i = 0; i < pool->next; i++)
		watch_guest(pool, &pool->guests[i], now, stop);
}

void guests_wait(void)
{
	struct timespec poll = { 0, POLL_NS };

	nanosleep(&poll, NULL);
}

void guest_free(struct guest *g)
{
	for (int i = 0; g->argv && g->argv[i]; i++)
		free(g->argv[i]);
	free(g->argv);
	free(g->command);
	free(g->machine);
	free(g->kernel);
	free(g->initrd);
	free(g->append);
	free(g->accel_note);
	free(g->runner_note);
	free(g->runner.verdict);
	free(g->console_log);
	free(g->qemu_log);
	memset(g, 0, sizeof(*g));
}
