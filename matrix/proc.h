/* SPDX-License-Identifier: GPL-2.0 */
/* Running commands: each in its own process group, logged, reaped. */
#ifndef KWM_PROC_H
#define KWM_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Run argv[0] with PATH lookup, stdout and stderr appended to @log (or
 * inherited when @log is NULL), in @cwd if not NULL.  Returns the exit
 * status, or -1 if it could not run or died of a signal.
 */
int run_cmd(char *const argv[], const char *log, const char *cwd);
/* The same in two steps, to run several at once; -1 if fork failed. */
pid_t spawn_cmd(char *const argv[], const char *log, const char *cwd);
/*
 * The child's side alone: its own process group, stdin from /dev/null,
 * stdout and stderr to @log opened with @log_flags (O_APPEND, O_TRUNC).
 * Not tracked: the caller kills and reaps it.
 */
pid_t spawn_child(char *const argv[], const char *log, int log_flags, const char *cwd);
int wait_cmd(pid_t pid);
/*
 * Each command runs in a process group of its own, so that a signal to
 * the driver alone (CI's SIGTERM) reaches a make and its compilers too:
 * a signal handler calls this to pass @sig on to every running command.
 */
void kwm_forward_signal(int sig);
/* Like run_cmd() but through "sh -c". */
int run_shell(const char *cmd, const char *log);
/* First line of a command's stdout, or NULL. */
char *cmd_output_line(const char *cmd);

bool in_path(const char *prog);

/* A NULL-terminated argv that grows: argv_add(&argv, ...) from NULL. */
void argv_add(char ***argv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(char **argv);

#endif
