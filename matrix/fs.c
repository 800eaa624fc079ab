// SPDX-License-Identifier: GPL-2.0
/* Files and folders, written so that a reader never sees half of one. */
#define _GNU_SOURCE
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

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
