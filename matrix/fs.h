/* SPDX-License-Identifier: GPL-2.0 */
/* Files and folders: whole reads, atomic writes, trees made and removed. */
#ifndef KWM_FS_H
#define KWM_FS_H

#include <stdbool.h>
#include <stddef.h>

char *read_file(const char *path, size_t *len);
int write_file_atomic(const char *path, const char *data, size_t len);
int copy_file_atomic(const char *from, const char *to);
int mkdir_p(const char *path);
int rm_rf(const char *path);
bool path_exists(const char *path);
bool files_equal(const char *a, const char *b);

#endif
