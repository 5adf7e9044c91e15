/*
 * decompress.c - a source whose bytes are another source's, undone from
 * gzip, zstd, xz or bzip2 by libarchive's read filters (its "raw" format:
 * one member, the stream itself), so every tool reads `x.tns.zst` or
 * `zcat`-able standard input as it reads the plain file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

#define INBUF	(1 << 16)

struct unz {
	struct ts_source	*in;
	struct archive		*a;
	char			 buf[INBUF];
	bool			 failed;
};

const char *
ts_source_compression(struct ts_source *s)
{
	const unsigned char *p;
	long n = ts_source_peek(s, (const char **)&p, 8);

	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return "gzip";
	if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd)
		return "zstd";
	if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return "xz";
	if (n >= 3 && memcmp(p, "BZh", 3) == 0)
		return "bzip2";
	return NULL;
}

static la_ssize_t
unz_fill(struct archive *a, void *ud, const void **out)
{
	struct unz *u = ud;
	long n = ts_source_read(u->in, u->buf, sizeof(u->buf));

	if (n < 0) {
		archive_set_error(a, errno, "read error");
		return -1;
	}
	*out = u->buf;
	return n;
}

static long
unz_read(void *ctx, void *buf, size_t n)
{
	struct unz *u = ctx;
	la_ssize_t r;

	if (u->failed || u->a == NULL) {
		errno = EIO;
		return -1;
	}
	r = archive_read_data(u->a, buf, n);
	if (r < 0) {
		/* A corrupt stream is bad data, not a failing disk; the
		 * message names what libarchive saw. */
		u->failed = true;
		errno = archive_errno(u->a) > 0 ? archive_errno(u->a) : EILSEQ;
		return -1;
	}
	return (long)r;
}

static int
unz_close(void *ctx)
{
	struct unz *u = ctx;
	int rv;

	archive_read_free(u->a);
	rv = ts_source_close(u->in);
	free(u);
	return rv;
}

/* Start undoing the stream at the input's position: 0, or -1 with
 * errno (the reader freed). */
static int
unz_start(struct unz *u)
{
	struct archive_entry *e;
	int e2;

	u->a = archive_read_new();
	u->failed = false;
	archive_read_support_filter_all(u->a);
	archive_read_support_format_raw(u->a);
	if (archive_read_open(u->a, u, NULL, unz_fill, NULL) != ARCHIVE_OK ||
	    archive_read_next_header(u->a, &e) != ARCHIVE_OK) {
		e2 = archive_errno(u->a) > 0 ? archive_errno(u->a) : EILSEQ;
		archive_read_free(u->a);
		u->a = NULL;
		errno = e2;
		return -1;
	}
	return 0;
}

/*
 * A compressed file is read again by undoing it again from its start,
 * which costs a second decompression but no temporary copy as large as
 * what it expands to; a stream that cannot go back cannot.
 */
static int
unz_rewind(void *ctx)
{
	struct unz *u = ctx;

	if (!ts_source_can_rewind(u->in)) {
		errno = ESPIPE;
		return -1;
	}
	archive_read_free(u->a);
	u->a = NULL;
	if (ts_source_rewind(u->in) != 0)
		return -1;
	return unz_start(u);
}

static const struct ts_source_ops unz_ops = { unz_read, unz_rewind,
    unz_close, NULL };

struct ts_source *
ts_source_decompress(struct ts_source *in)
{
	struct unz *u = ts_xcalloc(1, sizeof(*u));
	struct ts_source *s;
	int e;

	u->in = in;
	if (unz_start(u) != 0) {
		e = errno;
		unz_close(u);
		errno = e;
		return NULL;
	}
	s = ts_source_new(&unz_ops, u, ts_source_name(in), -1);
	if (ts_source_can_rewind(in))
		ts_source_rewinds(s);
	return s;
}
