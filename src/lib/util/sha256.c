/*
 * sha256.c - SHA-256 through libcrypto's EVP interface (see sha256.h).
 */
#include <errno.h>

#include <openssl/evp.h>

#include "util/sha256.h"

int
ts_sha256_init(struct ts_sha256 *h)
{
	EVP_MD_CTX *c;

	h->ctx = NULL;
	if ((c = EVP_MD_CTX_new()) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	if (EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(c);
		errno = ENOMEM;
		return -1;
	}
	h->ctx = c;
	return 0;
}

int
ts_sha256_update(struct ts_sha256 *h, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	if (EVP_DigestUpdate(h->ctx, p, n) != 1) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int
ts_sha256_final(struct ts_sha256 *h, unsigned char *out)
{
	unsigned int n = 0;
	int rc;

	rc = EVP_DigestFinal_ex(h->ctx, out, &n);
	ts_sha256_free(h);
	if (rc != 1 || n != TS_SHA256_LEN) {
		errno = EIO;
		return -1;
	}
	return 0;
}

void
ts_sha256_free(struct ts_sha256 *h)
{
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
}

void
ts_sha256_hex(const unsigned char *d, char *hex)
{
	static const char digit[] = "0123456789abcdef";
	int i;

	for (i = 0; i < TS_SHA256_LEN; i++) {
		hex[2 * i] = digit[d[i] >> 4];
		hex[2 * i + 1] = digit[d[i] & 15];
	}
	hex[2 * TS_SHA256_LEN] = '\0';
}

static int
nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
ts_sha256_unhex(const char *s, unsigned char *d)
{
	int i, hi, lo;

	for (i = 0; i < TS_SHA256_LEN; i++) {
		if ((hi = nibble(s[2 * i])) < 0 ||
		    (lo = nibble(s[2 * i + 1])) < 0)
			return -1;
		d[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}
