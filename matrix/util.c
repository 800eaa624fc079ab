// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

void kwm_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("kwmatrix: ", fmt, ap);
	va_end(ap);
}

static void out_of_memory(void)
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

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf;

	if (!f)
		return NULL;
	buf = xcalloc(1, cap + 1);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Write to PATH.tmp.PID, fsync, then rename: readers never see half a file. */
int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t off = 0;
	ssize_t n;

	if (fd < 0)
		goto fail;
	while (off < len) {
		n = write(fd, data + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			goto fail_unlink;
		}
		off += n;
	}
	if (fsync(fd) || close(fd))
		goto fail_unlink;
	if (rename(tmp, path))
		goto fail_unlink;
	free(tmp);
	return 0;

fail_unlink:
	{
		int err = errno;

		unlink(tmp);
		errno = err;
	}
fail:
	free(tmp);
	return -1;
}

int copy_file_atomic(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);
	struct stat st;
	int ret;

	if (!data)
		return -1;
	ret = write_file_atomic(to, data, len);
	free(data);
	if (!ret && !stat(from, &st))
		chmod(to, st.st_mode & 07777);
	return ret;
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST) {
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

int rm_rf(const char *path)
{
	if (!path_exists(path))
		return 0;
	return nftw(path, rm_one, 64, FTW_DEPTH | FTW_PHYS);
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

bool files_equal(const char *a, const char *b)
{
	size_t la, lb;
	char *da = read_file(a, &la), *db = read_file(b, &lb);
	bool eq = da && db && la == lb && !memcmp(da, db, la);

	free(da);
	free(db);
	return eq;
}

int run_cmd(char *const argv[], const char *log, const char *cwd)
{
	return wait_cmd(spawn_cmd(argv, log, cwd));
}

#define CMDS_MAX	64

/* Running commands' pids, 0 for a free slot: read by a signal handler. */
static volatile sig_atomic_t running_cmds[CMDS_MAX];

void kwm_forward_signal(int sig)
{
	for (int i = 0; i < CMDS_MAX; i++)
		if (running_cmds[i] > 0)
			kill(-running_cmds[i], sig);
}

static void track_cmd(pid_t old, pid_t new)
{
	for (int i = 0; i < CMDS_MAX; i++) {
		if (running_cmds[i] == old) {
			running_cmds[i] = new;
			return;
		}
	}
}

pid_t spawn_cmd(char *const argv[], const char *log, const char *cwd)
{
	pid_t pid = fork();
	int fd;

	if (pid > 0) {
		/* Both sides set the group: no window where a signal misses it. */
		setpgid(pid, pid);
		track_cmd(0, pid);
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (cwd && chdir(cwd))
			_exit(127);
		if (log) {
			fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
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
		_exit(127);
	}
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

struct kwm_hash {
	EVP_MD_CTX *ctx;
};

struct kwm_hash *hash_new(void)
{
	struct kwm_hash *h = xcalloc(1, sizeof(*h));

	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || !EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL))
		out_of_memory();
	return h;
}

void hash_add(struct kwm_hash *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

/* Strings are framed by their length so that ("ab","c") != ("a","bc"). */
void hash_add_str(struct kwm_hash *h, const char *s)
{
	size_t len = s ? strlen(s) : 0;

	hash_add(h, &len, sizeof(len));
	hash_add(h, s ? s : "", len);
}

int hash_add_file(struct kwm_hash *h, const char *path)
{
	size_t len;
	char *data = read_file(path, &len);

	if (!data)
		return -1;
	/* Content only: the key must not depend on where the checkout is. */
	hash_add(h, &len, sizeof(len));
	hash_add(h, data, len);
	free(data);
	return 0;
}

void hash_final(struct kwm_hash *h, char out[KWM_HASH_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0, i;

	EVP_DigestFinal_ex(h->ctx, md, &len);
	for (i = 0; i < len && i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[64] = '\0';
	EVP_MD_CTX_free(h->ctx);
	free(h);
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
