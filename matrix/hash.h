/* SPDX-License-Identifier: GPL-2.0 */
/* sha256, in hex: the build cache's keys and stamps. */
#ifndef KWM_HASH_H
#define KWM_HASH_H

#include <stddef.h>

#define KWM_HASH_HEX	65	/* sha256 in hex, with the NUL */

struct kwm_hash;
struct kwm_hash *hash_new(void);
void hash_add(struct kwm_hash *h, const void *data, size_t len);
void hash_add_str(struct kwm_hash *h, const char *s);
int hash_add_file(struct kwm_hash *h, const char *path);
void hash_final(struct kwm_hash *h, char out[KWM_HASH_HEX]);

/* sha256 of @text's bytes alone, as sha256sum prints it for a file. */
void hash_text(const char *text, char out[KWM_HASH_HEX]);

#endif
