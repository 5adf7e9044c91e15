/*
 * compress.c - a sink whose bytes go, compressed, into another sink, so
 * that every tool writes `x.tns.zst` as it reads it (decompress.c is the
 * other way).  zstd is libzstd's own streaming compressor, driven here
 * so that every frame carries its content checksum (XXH64), which
 * libarchive's filter writes only from 3.8 on; gzip, xz and bzip2 are
 * libarchive's write filters (its "raw" format: one member, the stream
 * itself), whose formats always carry a CRC.  Either sink keeps its
 * promise: the compressed file appears whole at commit or not at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/lalib.h"
#include "util/xalloc.h"

static const struct {
	const char	*suffix, *filter;
} filters[] = {
	{ ".gz", "gzip" }, { ".zst", "zstd" }, { ".xz", "xz" },
	{ ".bz2", "bzip2" }, { NULL, NULL }
};

const char *
ts_sink_compression(const char *path)
{
	int i;

	for (i = 0; filters[i].suffix != NULL; i++)
		if (ts_has_suffix(path, filters[i].suffix))
			return filters[i].filter;
	return NULL;
}

struct zsink {
	struct ts_sink	*out;
	struct archive	*a;
	bool		 dropping;	/* aborting: what is flushed goes */
};

static la_ssize_t
z_put(struct archive *a, void *ud, const void *buf, size_t n)
{
	struct zsink *z = ud;

	if (z->dropping)
		return (la_ssize_t)n;
	if (ts_sink_write(z->out, buf, n) != 0) {
		archive_set_error(a, errno, "write error");
		return -1;
	}
	return (la_ssize_t)n;
}

/*
 * A write that fails (a full disk) leaves the compressor holding a
 * pointer into buf, which is the caller's and is freed before the sink
 * is aborted: the stream is ended here, its last bytes dropped, while
 * buf is still there.  The abort that follows finds it closed.
 */
static int
z_write(void *ctx, const void *buf, size_t n)
{
	struct zsink *z = ctx;
	const char *p = buf;
	la_ssize_t r;
	int e;

	while (n > 0) {
		if ((r = archive_write_data(z->a, p, n)) <= 0) {
			e = archive_errno(z->a) > 0 ? archive_errno(z->a) :
			    EIO;
			z->dropping = true;
			archive_write_close(z->a);
			errno = e;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int
z_commit(void *ctx)
{
	struct zsink *z = ctx;
	int e = 0;

	/* The filter's last bytes go out at close. */
	if (archive_write_close(z->a) != ARCHIVE_OK)
		e = archive_errno(z->a) > 0 ? archive_errno(z->a) : EIO;
	archive_write_free(z->a);
	if (e != 0)
		ts_sink_abort(z->out);
	else if (ts_sink_commit(z->out) != 0)
		e = errno;
	free(z);
	errno = e;
	return e != 0 ? -1 : 0;
}

static void
z_abort(void *ctx)
{
	struct zsink *z = ctx;

	z->dropping = true;
	archive_write_free(z->a);
	ts_sink_abort(z->out);
	free(z);
}

static const struct ts_sink_ops z_ops = { z_write, z_commit, z_abort };

/* ---- zstd, through libzstd ---- */

/*
 * The input is cut into jobs of this many bytes whatever the level and
 * the number of workers, so that the bytes written depend on neither
 * the machine nor -j (zstd's default job size follows the level's
 * window; 8 MiB is its default at level 3).
 */
#define ZSTD_JOB	(8 << 20)

struct zstdsink {
	struct ts_sink	*out;
	ZSTD_CCtx	*cc;
	char		*obuf;
	size_t		 ocap;
};

static void
zs_free(struct zstdsink *z)
{
	/* With workers, this waits for them to stop. */
	ZSTD_freeCCtx(z->cc);
	free(z->obuf);
	free(z);
}

/* Feed in to the compressor with directive op, writing what comes out,
 * until it has taken all of in (ZSTD_e_end: until the frame is ended):
 * 0, or -1 with errno. */
static int
zs_run(struct zstdsink *z, ZSTD_inBuffer *in, ZSTD_EndDirective op)
{
	ZSTD_outBuffer o;
	size_t r;

	do {
		o.dst = z->obuf;
		o.size = z->ocap;
		o.pos = 0;
		r = ZSTD_compressStream2(z->cc, &o, in, op);
		if (ZSTD_isError(r)) {
			errno = ZSTD_getErrorCode(r) ==
			    ZSTD_error_memory_allocation ? ENOMEM : EIO;
			return -1;
		}
		if (o.pos > 0 && ts_sink_write(z->out, z->obuf, o.pos) != 0)
			return -1;
	} while (op == ZSTD_e_end ? r != 0 : in->pos < in->size);
	return 0;
}

/* The workers copy what they are given: nothing points into buf once
 * this returns, even when it fails. */
static int
zs_write(void *ctx, const void *buf, size_t n)
{
	struct zstdsink *z = ctx;
	ZSTD_inBuffer in = { buf, n, 0 };

	return zs_run(z, &in, ZSTD_e_continue);
}

static int
zs_commit(void *ctx)
{
	struct zstdsink *z = ctx;
	ZSTD_inBuffer in = { NULL, 0, 0 };
	int e = 0;

	/* The frame's last blocks and its checksum. */
	if (zs_run(z, &in, ZSTD_e_end) != 0) {
		e = errno;
		ts_sink_abort(z->out);
	} else if (ts_sink_commit(z->out) != 0)
		e = errno;
	zs_free(z);
	errno = e;
	return e != 0 ? -1 : 0;
}

static void
zs_abort(void *ctx)
{
	struct zstdsink *z = ctx;

	ts_sink_abort(z->out);
	zs_free(z);
}

static const struct ts_sink_ops zs_ops = { zs_write, zs_commit, zs_abort };

/* Set a compressor's parameter: 0, or an errno value. */
static int
zs_param(ZSTD_CCtx *cc, ZSTD_cParameter p, int v, int e)
{
	return ZSTD_isError(ZSTD_CCtx_setParameter(cc, p, v)) ? e : 0;
}

/*
 * Always with at least one worker: zstd's output without workers is
 * not the bytes of its output with any number of them, and with them
 * it is the same for every number.  A libzstd built without threads is
 * refused (EOPNOTSUPP) rather than written to differently.
 */
static struct ts_sink *
zstd_sink(struct ts_sink *out, const struct ts_zopts *zo)
{
	struct zstdsink *z = ts_xcalloc(1, sizeof(*z));
	int e;

	z->out = out;
	if ((z->cc = ZSTD_createCCtx()) == NULL) {
		e = ENOMEM;
		goto fail;
	}
	if ((e = zs_param(z->cc, ZSTD_c_compressionLevel, zo != NULL &&
	    zo->level >= 0 ? zo->level : ZSTD_CLEVEL_DEFAULT, EINVAL)) != 0 ||
	    (e = zs_param(z->cc, ZSTD_c_checksumFlag, 1, EINVAL)) != 0 ||
	    (e = zs_param(z->cc, ZSTD_c_nbWorkers, zo != NULL &&
	    zo->threads > 1 ? zo->threads : 1, EOPNOTSUPP)) != 0 ||
	    (e = zs_param(z->cc, ZSTD_c_jobSize, ZSTD_JOB, EINVAL)) != 0)
		goto fail;
	z->ocap = ZSTD_CStreamOutSize();
	z->obuf = ts_xmalloc(z->ocap);
	return ts_sink_new(&zs_ops, z, ts_sink_name(out));
fail:
	ts_sink_abort(out);
	zs_free(z);
	errno = e;
	return NULL;
}

struct ts_sink *
ts_sink_compress(struct ts_sink *out, const char *filter)
{
	return ts_sink_compress_opts(out, filter, NULL);
}

/* The compressor's options: 0, or an errno value. */
static int
z_options(struct archive *a, const char *filter, const struct ts_zopts *zo)
{
	char num[32];

	/* No time in a gzip header: the same bytes every time. */
	if (strcmp(filter, "gzip") == 0 && archive_write_set_filter_option(a,
	    filter, "timestamp", NULL) != ARCHIVE_OK)
		return EINVAL;
	if (zo != NULL && zo->level >= 0) {
		snprintf(num, sizeof(num), "%d", zo->level);
		if (archive_write_set_filter_option(a, filter,
		    "compression-level", num) != ARCHIVE_OK)
			return EINVAL;
	}
	return 0;
}

struct ts_sink *
ts_sink_compress_opts(struct ts_sink *out, const char *filter,
    const struct ts_zopts *zo)
{
	struct zsink *z;
	struct archive_entry *ent;
	struct ts_sink *k;
	int e, r;

	if (strcmp(filter, "zstd") == 0)
		return zstd_sink(out, zo);
	if (ts_la_load() != 0) {
		ts_sink_abort(out);
		return NULL;
	}
	z = ts_xcalloc(1, sizeof(*z));
	z->out = out;
	if ((z->a = archive_write_new()) == NULL) {
		free(z);
		ts_sink_abort(out);
		errno = ENOMEM;
		return NULL;
	}
	/* Only a library filter: no fallback to an external program. */
	r = archive_write_add_filter_by_name(z->a, filter);
	if (r != ARCHIVE_OK) {
		e = EOPNOTSUPP;
		goto fail;
	}
	if ((e = z_options(z->a, filter, zo)) != 0)
		goto fail;
	archive_write_set_format_raw(z->a);
	/* A compressed stream ends where the filter ends it: no padding
	 * of the last block. */
	archive_write_set_bytes_in_last_block(z->a, 1);
	if (archive_write_open(z->a, z, NULL, z_put, NULL) != ARCHIVE_OK) {
		e = archive_errno(z->a) > 0 ? archive_errno(z->a) : EIO;
		goto fail;
	}
	ent = archive_entry_new();
	archive_entry_set_pathname(ent, ts_sink_name(out));
	archive_entry_set_filetype(ent, AE_IFREG);
	archive_entry_set_perm(ent, 0644);
	r = archive_write_header(z->a, ent);
	archive_entry_free(ent);
	if (r != ARCHIVE_OK) {
		e = archive_errno(z->a) > 0 ? archive_errno(z->a) : EIO;
		goto fail;
	}
	k = ts_sink_new(&z_ops, z, ts_sink_name(out));
	return k;
fail:
	z->dropping = true;
	archive_write_free(z->a);
	ts_sink_abort(out);
	free(z);
	errno = e;
	return NULL;
}
