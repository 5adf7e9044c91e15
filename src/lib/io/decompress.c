/*
 * decompress.c - a source whose bytes are another source's, undone from
 * gzip, zstd, xz or bzip2 by libarchive's read filters (its "raw" format:
 * one member, the stream itself), so every tool reads `x.tns.zst` or
 * `zcat`-able standard input as it reads the plain file.
 *
 * gzip is undone by zlib itself: libarchive's filter reads the trailer of
 * a gzip member but does not check it, and a stream whose CRC32 or length
 * is not the one stored must not pass (libzstd and liblzma, under
 * libarchive, check zstd's and xz's).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/lalib.h"
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

	if (u->a != NULL)
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

	if (ts_la_load() != 0)
		return -1;
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

/* ---- gzip, through zlib: each member's CRC32 and length checked ---- */

struct gz {
	struct ts_source	*in;
	struct ts_source	*self;	/* told why a read failed */
	z_stream		 z;
	bool			 eof;	/* in is read to its end */
	bool			 end;	/* a member has ended */
	const char		*err;	/* what is wrong, said at the next
					 * read when data came before it */
	unsigned char		 buf[INBUF];
};

static const char *
gz_why(const z_stream *z, int r)
{
	if (r == Z_MEM_ERROR)
		return NULL;
	if (z->msg != NULL && strcmp(z->msg, "incorrect data check") == 0)
		return "the gzip data's CRC32 differs from the one stored";
	if (z->msg != NULL && strcmp(z->msg, "incorrect length check") == 0)
		return "the gzip data's length differs from the one stored";
	return "the gzip data is damaged";
}

static long
gz_read(void *ctx, void *buf, size_t n)
{
	struct gz *g = ctx;
	size_t want;
	long m;
	int r;

	if (g->err != NULL) {
		ts_source_set_error(g->self, g->err);
		errno = EILSEQ;
		return -1;
	}
	if (n == 0)
		return 0;
	want = n > UINT_MAX ? UINT_MAX : n;
	g->z.next_out = buf;
	g->z.avail_out = (uInt)want;
	while (g->z.avail_out == want) {
		if (g->z.avail_in == 0 && !g->eof) {
			if ((m = ts_source_read(g->in, g->buf,
			    sizeof(g->buf))) < 0) {
				if (ts_source_error(g->in) != NULL)
					ts_source_set_error(g->self,
					    ts_source_error(g->in));
				return -1;
			}
			g->eof = m == 0;
			g->z.next_in = g->buf;
			g->z.avail_in = (uInt)m;
		}
		if (g->end) {
			/* Another member may follow, as `cat a.gz b.gz`
			 * makes; what else follows is ignored, as gzip -d
			 * ignores it. */
			if (g->z.avail_in == 0 && g->eof)
				break;
			if (g->z.avail_in == 0)
				continue;
			if (g->z.next_in[0] != 0x1f) {
				g->z.avail_in = 0;
				g->eof = true;
				break;
			}
			inflateReset(&g->z);
			g->end = false;
		}
		r = inflate(&g->z, Z_NO_FLUSH);
		if (r == Z_STREAM_END)
			g->end = true;
		else if (r == Z_BUF_ERROR && g->z.avail_in == 0 && g->eof) {
			g->err = "truncated gzip input: it ends before its "
			    "trailer";
			break;
		} else if (r != Z_OK && r != Z_BUF_ERROR) {
			if ((g->err = gz_why(&g->z, r)) == NULL) {
				errno = ENOMEM;
				return -1;
			}
			break;
		}
	}
	if (g->z.avail_out < want)
		return (long)(want - g->z.avail_out);
	if (g->err != NULL) {
		ts_source_set_error(g->self, g->err);
		errno = EILSEQ;
		return -1;
	}
	return 0;
}

static int
gz_rewind(void *ctx)
{
	struct gz *g = ctx;

	if (!ts_source_can_rewind(g->in)) {
		errno = ESPIPE;
		return -1;
	}
	if (ts_source_rewind(g->in) != 0)
		return -1;
	inflateReset(&g->z);
	g->z.avail_in = 0;
	g->eof = g->end = false;
	g->err = NULL;
	return 0;
}

static int
gz_close(void *ctx)
{
	struct gz *g = ctx;
	int rv;

	inflateEnd(&g->z);
	rv = ts_source_close(g->in);
	free(g);
	return rv;
}

static const struct ts_source_ops gz_ops = { gz_read, gz_rewind, gz_close,
    NULL };

static struct ts_source *
gunzip(struct ts_source *in)
{
	struct gz *g = ts_xcalloc(1, sizeof(*g));

	g->in = in;
	/* 15 + 16: a gzip header and trailer around the deflate data. */
	if (inflateInit2(&g->z, 15 + 16) != Z_OK) {
		free(g);
		errno = ENOMEM;
		return NULL;
	}
	g->self = ts_source_new(&gz_ops, g, ts_source_name(in), -1);
	if (ts_source_can_rewind(in))
		ts_source_rewinds(g->self);
	return g->self;
}

struct ts_source *
ts_source_decompress(struct ts_source *in)
{
	struct unz *u;
	struct ts_source *s;
	int e;

	if (ts_source_compression(in) != NULL &&
	    strcmp(ts_source_compression(in), "gzip") == 0)
		return gunzip(in);
	u = ts_xcalloc(1, sizeof(*u));

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
