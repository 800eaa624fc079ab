/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the driver: processes, files, hashing, time. */
#ifndef KWM_UTIL_H
#define KWM_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define KWM_HASH_HEX	65	/* sha256 in hex, with the NUL */

void kwm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kwm_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Called with true before and false after each message: lets a live
 * status block on the terminal step aside (see progress.c).
 */
void kwm_set_print_guard(void (*guard)(bool before));

char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Append to the string *@s (NULL is empty), which may move. */
void xappendf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t size);

char *read_file(const char *path, size_t *len);
/*
 * Make @s printable text in place: control characters other than tab and
 * newlines, and bytes that are not valid UTF-8, become '?'.  A console can
 * hold anything; JSON and XML cannot.
 */
void text_clean(char *s);
int write_file_atomic(const char *path, const char *data, size_t len);
int copy_file_atomic(const char *from, const char *to);
int mkdir_p(const char *path);
int rm_rf(const char *path);
bool path_exists(const char *path);
bool files_equal(const char *a, const char *b);

/*
 * Run argv[0] with PATH lookup, stdout and stderr appended to @log (or
 * inherited when @log is NULL), in @cwd if not NULL.  Returns the exit
 * status, or -1 if it could not run or died of a signal.
 */
int run_cmd(char *const argv[], const char *log, const char *cwd);
/* The same in two steps, to run several at once; -1 if fork failed. */
pid_t spawn_cmd(char *const argv[], const char *log, const char *cwd);
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

struct kwm_hash;
struct kwm_hash *hash_new(void);
void hash_add(struct kwm_hash *h, const void *data, size_t len);
void hash_add_str(struct kwm_hash *h, const char *s);
int hash_add_file(struct kwm_hash *h, const char *path);
void hash_final(struct kwm_hash *h, char out[KWM_HASH_HEX]);

double now_seconds(void);

/* A growing array of strings. */
struct strlist {
	char **v;
	int n;
};
void strlist_add(struct strlist *l, const char *s);
bool strlist_has(const struct strlist *l, const char *s);
void strlist_free(struct strlist *l);

#endif
