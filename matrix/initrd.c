// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "initrd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fs.h"
#include "util.h"

/* One newc ("070701") member: header, name and data, each padded to 4. */
static void newc_member(char **out, size_t *len, const char *name,
			unsigned int mode, const char *data, size_t size)
{
	unsigned int namesize = strlen(name) + 1;
	char header[111];
	size_t at;

	/* newc sizes are 32-bit: a plan is a few kilobytes. */
	snprintf(header, sizeof(header),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 0u, mode, 0u, 0u, 1u, 0u, (unsigned int)size, 0u, 0u, 0u, 0u,
		 namesize, 0u);
	at = *len;
	*len += (110 + namesize + 3) / 4 * 4 + (size + 3) / 4 * 4;
	*out = xrealloc(*out, *len);
	memset(*out + at, 0, *len - at);
	memcpy(*out + at, header, 110);
	memcpy(*out + at + 110, name, namesize);
	if (size)
		memcpy(*out + at + (110 + namesize + 3) / 4 * 4, data, size);
}

int initrd_with_file(const char *base, const char *name, const char *text,
		     const char *out)
{
	size_t base_len = 0, len;
	char *image = read_file(base, &base_len);
	int ret;

	if (!image)
		return -1;
	/* The archive after it starts on a 4-byte boundary, as the kernel reads. */
	len = (base_len + 3) / 4 * 4;
	image = xrealloc(image, len);
	memset(image + base_len, 0, len - base_len);
	newc_member(&image, &len, name, S_IFREG | 0644, text, strlen(text));
	newc_member(&image, &len, "TRAILER!!!", 0, NULL, 0);
	ret = write_file_atomic(out, image, len);
	free(image);
	return ret;
}
