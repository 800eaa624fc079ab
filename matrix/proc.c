// SPDX-License-Identifier: GPL-2.0
/* The commands the driver runs: each in a process group of its own. */
#define _GNU_SOURCE
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

int run_cmd(char *const argv[], const char *log, const char *cwd)
{
	return wait_cmd(spawn_cmd(argv, log, cwd));
}

#define CMDS_MAX	64

/*
 * Running commands' pids, 0 for a free slot: read by a signal handler,
 * written by every builder thread (lock-free, so both may).
 */
static atomic_int running_cmds[CMDS_MAX];

void kwm_forward_signal(int sig)
{
	for (int i = 0; i < CMDS_MAX; i++) {
		pid_t pid = atomic_load(&running_cmds[i]);

		if (pid > 0)
			kill(-pid, sig);
	}
}

static void track_cmd(pid_t old, pid_t new)
{
	for (int i = 0; i < CMDS_MAX; i++) {
		int expected = old;

		if (atomic_compare_exchange_strong(&running_cmds[i], &expected, new))
			return;
	}
}

void argv_add(char ***argv, const char *fmt, ...)
{
	va_list ap;
	int n = 0;
	char *arg;

	while (*argv && (*argv)[n])
		n++;
	va_start(ap, fmt);
	arg = xvasprintf(fmt, ap);
	va_end(ap);
	*argv = xrealloc(*argv, (n + 2) * sizeof(**argv));
	(*argv)[n] = arg;
	(*argv)[n + 1] = NULL;
}

void argv_free(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

pid_t spawn_child(char *const argv[], const char *log, int log_flags, const char *cwd)
{
	pid_t pid = fork();
	int fd;

	if (pid > 0)
		/* Both sides set the group: no window where a signal misses it. */
		setpgid(pid, pid);
	if (pid)
		return pid;
	setpgid(0, 0);
	if (cwd && chdir(cwd))
		_exit(127);
	if (log) {
		fd = open(log, O_WRONLY | O_CREAT | log_flags, 0644);
		if (fd < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

pid_t spawn_cmd(char *const argv[], const char *log, const char *cwd)
{
	pid_t pid = spawn_child(argv, log, O_APPEND, cwd);

	if (pid > 0)
		track_cmd(0, pid);
	return pid;
}

int wait_cmd(pid_t pid)
{
	int status;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			track_cmd(pid, 0);
			return -1;
		}
	}
	track_cmd(pid, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_shell(const char *cmd, const char *log)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };

	return run_cmd(argv, log, NULL);
}

char *cmd_output_line(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char line[1024];
	char *ret = NULL;

	if (!p)
		return NULL;
	if (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		ret = xstrdup(line);
	}
	if (pclose(p) != 0) {
		free(ret);
		return NULL;
	}
	return ret;
}

bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save, *full;
	bool found = false;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	dirs = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		full = xasprintf("%s/%s", dir, prog);
		found = access(full, X_OK) == 0;
		free(full);
	}
	free(dirs);
	return found;
}
