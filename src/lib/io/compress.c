/*
 * compress.c - a sink whose bytes go, compressed with gzip, zstd, xz or
 * bzip2 by libarchive's write filters, into another sink (its "raw"
 * format: one member, the stream itself), so that every tool writes
 * `x.tns.zst` as it reads it (decompress.c is the other way).  The sink
 * below keeps its promise: the compressed file appears whole at commit
 * or not at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "tensorsuite.h"
#include "io/io.h"
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

	if (zo == NULL)
		return 0;
	if (zo->level >= 0) {
		snprintf(num, sizeof(num), "%d", zo->level);
		if (archive_write_set_filter_option(a, filter,
		    "compression-level", num) != ARCHIVE_OK)
			return EINVAL;
	}
	if (zo->threads > 0 && strcmp(filter, "zstd") == 0) {
		snprintf(num, sizeof(num), "%d", zo->threads);
		if (archive_write_set_filter_option(a, filter, "threads",
		    num) != ARCHIVE_OK)
			return EINVAL;
	}
	if (zo->notime && strcmp(filter, "gzip") == 0 &&
	    archive_write_set_filter_option(a, filter, "timestamp", NULL) !=
	    ARCHIVE_OK)
		return EINVAL;
	return 0;
}

struct ts_sink *
ts_sink_compress_opts(struct ts_sink *out, const char *filter,
    const struct ts_zopts *zo)
{
	struct zsink *z = ts_xcalloc(1, sizeof(*z));
	struct archive_entry *ent;
	struct ts_sink *k;
	int e, r;

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
