// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void (*print_guard)(bool before);

void kwm_set_print_guard(void (*guard)(bool before))
{
	print_guard = guard;
}

static void message(const char *prefix, const char *fmt, va_list ap)
{
	if (print_guard)
		print_guard(true);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	if (print_guard)
		print_guard(false);
}

void kwm_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("kwmatrix: error: ", fmt, ap);
	va_end(ap);
}

void kwm_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("kwmatrix: warning: ", fmt, ap);
	va_end(ap);
}

void kwm_print_guarded(FILE *out, const char *text)
{
	if (print_guard)
		print_guard(true);
	fputs(text, out);
	fflush(out);
	if (print_guard)
		print_guard(false);
}

void kwm_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("kwmatrix: ", fmt, ap);
	va_end(ap);
}

void out_of_memory(void)
{
	fputs("kwmatrix: error: out of memory\n", stderr);
	abort();
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		out_of_memory();
	return d;
}

void xappendf(char **s, const char *fmt, ...)
{
	va_list ap;
	char *tail, *joined;

	va_start(ap, fmt);
	if (vasprintf(&tail, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	joined = xasprintf("%s%s", *s ? *s : "", tail);
	free(tail);
	free(*s);
	*s = joined;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory();
	return s;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void strlist_add(struct strlist *l, const char *s)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
}

bool strlist_has(const struct strlist *l, const char *s)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

void strlist_free(struct strlist *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Length of the valid UTF-8 sequence at @p, or 0. */
static int utf8_length(const unsigned char *p)
{
	int len = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 :
		  p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : 0;
	unsigned char lo = 0x80, hi = 0xbf;

	/* No overlong forms, surrogates or code points past U+10FFFF. */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (len && (p[1] < lo || p[1] > hi))
		return 0;
	for (int i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

char *text_excerpt(const char *text, int from, int before, int after)
{
	int first = from - before < 1 ? 1 : from - before;
	int last = from + after, line = 1;
	const char *p = text, *start = NULL, *end = NULL;

	while (*p && line <= last) {
		if (line == first && !start)
			start = p;
		p = strchrnul(p, '\n');
		if (*p)
			p++;
		end = p;
		line++;
	}
	if (!start)
		return xstrdup("");
	return strndup(start, end - start);
}

void text_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (p && *p) {
		int len;

		if (*p < 0x80) {
			if ((*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') ||
			    *p == 0x7f)
				*p = '?';
			p++;
		} else if ((len = utf8_length(p))) {
			p += len;
		} else {
			*p++ = '?';
		}
	}
}
