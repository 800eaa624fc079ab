// SPDX-License-Identifier: GPL-2.0
/* sha256 of what a build depends on: the cache's keys. */
#define _GNU_SOURCE
#include "hash.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "util.h"

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

void hash_text(const char *text, char out[KWM_HASH_HEX])
{
	struct kwm_hash *h = hash_new();

	hash_add(h, text, strlen(text));
	hash_final(h, out);
}
