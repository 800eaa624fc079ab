// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "progress.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

struct progress_line {
	const char *name;
	char *status;
	double started, ended;		/* 0: not yet */
};

static struct {
	struct progress_line *lines;
	int n, width, height;
	int drawn;			/* lines on screen now */
	bool live;
	pthread_mutex_t lock;
	pthread_t ticker;
	volatile bool stopping;
} p = { .lock = PTHREAD_MUTEX_INITIALIZER };

bool ansi_terminal(FILE *out)
{
	const char *term = getenv("TERM"), *no_colour = getenv("NO_COLOR");

	/* no-color.org: NO_COLOR set and not empty turns colour off. */
	return isatty(fileno(out)) && !(no_colour && *no_colour) && term && *term &&
	       strcmp(term, "dumb");
}

/* Cursor up over the block, then clear to the end of the screen. */
static void erase(void)
{
	if (p.drawn)
		fprintf(stderr, "\033[%dF\033[J", p.drawn);
	p.drawn = 0;
}

/* One screen line each, or the cursor arithmetic breaks. */
static void put_line(char *line)
{
	fprintf(stderr, "%.*s\033[K\n", p.width - 1, line);
	free(line);
	p.drawn++;
}

/*
 * Every column, or, when they do not fit on the screen (the nightly's
 * -t all -V all), the ones at work and a count of the others.
 */
static void draw(void)
{
	double now = now_seconds();
	bool fits = p.n < p.height - 2;
	int queued = 0, done = 0;

	for (int i = 0; i < p.n; i++) {
		const struct progress_line *l = &p.lines[i];
		double end = l->ended ? l->ended : now;
		char clock[32] = "";

		if (!fits && (!l->started || l->ended)) {
			queued += !l->started;
			done += !!l->ended;
			continue;
		}
		if (l->started) {
			unsigned int secs = (unsigned int)(end - l->started);

			snprintf(clock, sizeof(clock), "%u:%02u", secs / 60, secs % 60);
		}
		put_line(xasprintf("%-18s %6s  %s", l->name, clock, l->status));
	}
	if (!fits)
		put_line(xasprintf("%-18s %6s  %d queued, %d done", "...", "", queued, done));
	fflush(stderr);
}

/* kwm_info() and kwm_error() print above the block. */
static void guard(bool before)
{
	if (before) {
		pthread_mutex_lock(&p.lock);
		erase();
	} else {
		draw();
		pthread_mutex_unlock(&p.lock);
	}
}

static void *tick(void *unused)
{
	struct timespec second = { 1, 0 };

	(void)unused;
	while (!p.stopping) {
		nanosleep(&second, NULL);
		pthread_mutex_lock(&p.lock);
		if (!p.stopping) {
			erase();
			draw();
		}
		pthread_mutex_unlock(&p.lock);
	}
	return NULL;
}

void progress_start(const char *const *names, int n)
{
	struct winsize ws;

	p.lines = xcalloc(n, sizeof(*p.lines));
	p.n = n;
	for (int i = 0; i < n; i++) {
		p.lines[i].name = names[i];
		p.lines[i].status = xstrdup("queued");
	}
	p.live = ansi_terminal(stderr);
	if (!p.live)
		return;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 20 || ws.ws_row < 5)
		ws = (struct winsize){ .ws_col = 80, .ws_row = 24 };
	p.width = ws.ws_col;
	p.height = ws.ws_row;
	kwm_set_print_guard(guard);
	pthread_mutex_lock(&p.lock);
	draw();
	pthread_mutex_unlock(&p.lock);
	if (pthread_create(&p.ticker, NULL, tick, NULL))
		p.ticker = 0;
}

static void update(int i, bool done, const char *fmt, va_list ap)
{
	char *status;

	if (i < 0 || i >= p.n)
		return;
	if (vasprintf(&status, fmt, ap) < 0)
		return;
	pthread_mutex_lock(&p.lock);
	/* A column that ended early (its build failed) keeps its last word. */
	if (done && p.lines[i].ended) {
		pthread_mutex_unlock(&p.lock);
		free(status);
		return;
	}
	free(p.lines[i].status);
	p.lines[i].status = status;
	if (!p.lines[i].started)
		p.lines[i].started = now_seconds();
	if (done)
		p.lines[i].ended = now_seconds();
	if (p.live) {
		erase();
		draw();
	} else {
		fprintf(stderr, "kwmatrix: %s: %s\n", p.lines[i].name, status);
	}
	pthread_mutex_unlock(&p.lock);
}

void progress_set(int i, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	update(i, false, fmt, ap);
	va_end(ap);
}

void progress_done(int i, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	update(i, true, fmt, ap);
	va_end(ap);
}

void progress_stop(void)
{
	if (p.live) {
		pthread_mutex_lock(&p.lock);
		p.stopping = true;
		pthread_mutex_unlock(&p.lock);
		if (p.ticker)
			pthread_join(p.ticker, NULL);
		kwm_set_print_guard(NULL);
	}
	for (int i = 0; i < p.n; i++)
		free(p.lines[i].status);
	free(p.lines);
	memset(&p.lines, 0, sizeof(p.lines));
	p.n = 0;
	p.live = false;
	p.drawn = 0;
	p.stopping = false;
}
