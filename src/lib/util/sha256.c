/*
 * sha256.c - SHA-256 through libcrypto's EVP interface (see sha256.h),
 * libcrypto loaded when a digest is first made (util/dlib.h) rather than
 * linked: its dynamic linking cost every run of every tool 2 ms, and
 * most never make a digest.
 */
#include <errno.h>

#include <openssl/evp.h>

#include "util/dlib.h"
#include "util/sha256.h"

#ifndef TS_LIBCRYPTO_SONAME
#define TS_LIBCRYPTO_SONAME	"libcrypto.so"
#endif

/* The functions of libcrypto called, through a table. */
#define FUNCS(X) \
	X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) X(EVP_sha256) \
	X(EVP_DigestInit_ex) X(EVP_DigestUpdate) X(EVP_DigestFinal_ex)

static struct {
#define FN(name)	__typeof__(name) *p_##name;
	FUNCS(FN)
#undef FN
} cr;

const char ts_crypto_soname[] = TS_LIBCRYPTO_SONAME;

#define NAME(name)	#name,
#define SLOT(name)	&cr.p_##name,
static const char *const names[] = { FUNCS(NAME) };
static void *const slots[] = { FUNCS(SLOT) };
#undef NAME
#undef SLOT

static struct ts_dl_lib lib = { ts_crypto_soname, names, slots,
    sizeof(names) / sizeof(names[0]), NULL, false, NULL, "" };

#define EVP_MD_CTX_new		(*cr.p_EVP_MD_CTX_new)
#define EVP_MD_CTX_free		(*cr.p_EVP_MD_CTX_free)
#define EVP_sha256		(*cr.p_EVP_sha256)
#define EVP_DigestInit_ex	(*cr.p_EVP_DigestInit_ex)
#define EVP_DigestUpdate	(*cr.p_EVP_DigestUpdate)
#define EVP_DigestFinal_ex	(*cr.p_EVP_DigestFinal_ex)

int
ts_sha256_init(struct ts_sha256 *h)
{
	EVP_MD_CTX *c;

	h->ctx = NULL;
	if (ts_dl_load(&lib) != 0)
		return -1;
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
	if (h->ctx == NULL) {
		errno = EINVAL;		/* not started */
		return -1;
	}
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

	if (h->ctx == NULL) {
		errno = EINVAL;		/* not started */
		return -1;
	}
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
	if (h->ctx != NULL)
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
