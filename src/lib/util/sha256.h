/*
 * sha256.h - SHA-256 digests of the bytes an archive holds (the
 * SHA256SUMS manifest, the index's digests), through OpenSSL's libcrypto:
 * a packaged, maintained implementation that uses the CPU's SHA
 * extensions where it has them.  Internal to libtensorsuite (not
 * installed); no OpenSSL type leaks into its callers.
 */
#ifndef TS_UTIL_SHA256_H
#define TS_UTIL_SHA256_H

#include <stddef.h>

#define TS_SHA256_LEN	32		/* bytes of a digest */
#define TS_SHA256_HEX	65		/* its hex spelling and a NUL */

struct ts_sha256 {
	void	*ctx;			/* libcrypto's EVP_MD_CTX */
};

/*
 * Starts a digest in h, libcrypto loaded first (by its SONAME,
 * ts_crypto_soname) when it is the process's first.  Returns 0, or -1
 * with errno ENOMEM when libcrypto could not allocate its context, or
 * ELIBACC when it cannot be loaded (util/dlib.h); h is then left empty
 * and ts_sha256_free() on it is harmless.
 */
int	 ts_sha256_init(struct ts_sha256 *h);
extern const char ts_crypto_soname[];

/* Adds n bytes at p to the digest h.  Returns 0, or -1 (errno EIO). */
int	 ts_sha256_update(struct ts_sha256 *h, const void *p, size_t n);

/*
 * Ends the digest h, writing its TS_SHA256_LEN bytes to out, and frees
 * it.  Returns 0, or -1 (errno EIO).
 */
int	 ts_sha256_final(struct ts_sha256 *h, unsigned char *out);

/* Frees a digest that will not be ended; h may be empty. */
void	 ts_sha256_free(struct ts_sha256 *h);

/* Spells a digest d in lower-case hex, as sha256sum prints it, in hex. */
void	 ts_sha256_hex(const unsigned char *d, char *hex);

/*
 * Reads a digest spelled in hex (64 characters, either case) at s into
 * d.  Returns 0, or -1 when s does not start with 64 hex digits.
 */
int	 ts_sha256_unhex(const char *s, unsigned char *d);

#endif
