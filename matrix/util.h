/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the driver: messages, memory, strings, time.
 * No I/O but messages: files, processes and hashing have headers of
 * their own (fs.h, proc.h, hash.h), included where they are used.
 */
#ifndef KWM_UTIL_H
#define KWM_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

void kwm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line on stderr: something is left out, and the rest goes on. */
void kwm_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kwm_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Called with true before and false after each message: lets a live
 * status block on the terminal step aside (see progress.c).
 */
void kwm_set_print_guard(void (*guard)(bool before));
/* @text to @out, with the live status block out of its way. */
void kwm_print_guarded(FILE *out, const char *text);

/* Says so and exits: the driver does not go on without memory. */
void out_of_memory(void) __attribute__((noreturn));
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);
/* Append to the string *@s (NULL is empty), which may move. */
void xappendf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t size);

double now_seconds(void);

/*
 * Make @s printable text in place: control characters other than tab and
 * newlines, and bytes that are not valid UTF-8, become '?'.  A console can
 * hold anything; JSON and XML cannot.
 */
void text_clean(char *s);

/* Lines [@from - @before, @from + @after] of @text, 1-based; a new string. */
char *text_excerpt(const char *text, int from, int before, int after);

/* A growing array of strings. */
struct strlist {
	char **v;
	int n;
};
void strlist_add(struct strlist *l, const char *s);
bool strlist_has(const struct strlist *l, const char *s);
void strlist_free(struct strlist *l);

#endif
