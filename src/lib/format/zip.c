/*
 * zip.c - the zip container of .npz files, through libarchive: read by
 * its seekable zip reader, which trusts the central directory (what
 * numpy's zipfile reads too), one reader a member so that the arrays
 * of an .npz stream side by side from one file; written by its zip
 * writer, each member stored or deflated, with its size given first
 * so that the local header says it (and zip64 when it must).  Into a
 * file, stored, the CRC-32 of each member is made here, not by libarchive
 * (told not to by its zip writer's option "fakecrc32", it writes 0),
 * and put where libarchive wrote it (the member's descriptor, its entry
 * in the central directory) once the zip is finished: the bytes
 * libarchive would have written.  So the sum of an array placed in the
 * file is made as it is written, beside the work, and its bytes are not
 * read back at the end to be summed.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tensorsuite.h"
#include "format/npy.h"
#include "io/io.h"
#include "util/lalib.h"
#include "util/xalloc.h"

#define INBUF	(256u << 10)

struct ts_zip {
	struct archive	*a;
	struct ts_source *src;
	uint64_t	 pos;		/* of the next read of src */
	uint64_t	 nread;		/* of the member's data */
	unsigned char	*buf;
};

static la_ssize_t
zread(struct archive *a, void *arg, const void **out)
{
	struct ts_zip *z = arg;
	long r = ts_source_pread(z->src, z->buf, INBUF, z->pos);

	if (r < 0) {
		archive_set_error(a, errno, "cannot read");
		return -1;
	}
	z->pos += (uint64_t)r;
	*out = z->buf;
	return r;
}

static la_int64_t
zseek(struct archive *a, void *arg, la_int64_t off, int whence)
{
	struct ts_zip *z = arg;
	int64_t size = ts_source_size(z->src), to;

	(void)a;
	to = whence == SEEK_SET ? off : whence == SEEK_CUR ? (int64_t)z->pos +
	    off : size + off;
	if (to < 0 || (whence == SEEK_END && size < 0))
		return ARCHIVE_FATAL;
	z->pos = (uint64_t)to;
	return to;
}

static la_int64_t
zskip(struct archive *a, void *arg, la_int64_t n)
{
	struct ts_zip *z = arg;

	(void)a;
	z->pos += (uint64_t)n;
	return n;
}

static void
err_of(struct ts_npy_err *e, struct archive *a, uint64_t off,
    const char *what)
{
	const char *s = archive_error_string(a);

	e->off = off;
	snprintf(e->msg, sizeof(e->msg), "%s%s%s", what, s != NULL ? ": " :
	    "", s != NULL ? s : "");
}

/* A reader at src's first entry header, which checks the CRC-32 of
 * what it reads to a member's end when check; NULL with *e. */
static struct ts_zip *
zopen(struct ts_source *src, bool check, struct ts_npy_err *e)
{
	struct ts_zip *z;

	/* errno ELIBACC: the caller's to report as the system's error. */
	if (ts_la_load() != 0) {
		e->off = 0;
		snprintf(e->msg, sizeof(e->msg), "reading a zip archive: %s",
		    strerror(errno));
		errno = ELIBACC;
		return NULL;
	}
	z = ts_xcalloc(1, sizeof(*z));
	z->src = src;
	z->buf = ts_xmalloc(INBUF);
	z->a = archive_read_new();
	archive_read_support_format_zip_seekable(z->a);
	if (!check)	/* a libarchive without the option checks it */
		(void)archive_read_set_format_option(z->a, "zip",
		    "ignorecrc32", "1");
	archive_read_set_read_callback(z->a, zread);
	archive_read_set_seek_callback(z->a, zseek);
	archive_read_set_skip_callback(z->a, zskip);
	archive_read_set_callback_data(z->a, z);
	if (ts_source_size(src) < 0 || archive_read_open1(z->a) !=
	    ARCHIVE_OK) {
		if (ts_source_size(src) < 0)
			snprintf(e->msg, sizeof(e->msg), "a zip archive is "
			    "read from a file, not a stream");
		else
			err_of(e, z->a, 0, "not a zip archive");
		e->off = 0;
		ts_zip_close(z);
		errno = EILSEQ;
		return NULL;
	}
	return z;
}

long
ts_zip_list(struct ts_source *src, char ***names, int64_t **sizes,
    struct ts_npy_err *e)
{
	struct ts_zip *z = zopen(src, true, e);
	struct archive_entry *ent;
	size_t n = 0, cap = 0;
	int r;

	*names = NULL;
	*sizes = NULL;
	if (z == NULL)
		return -1;
	while ((r = archive_read_next_header(z->a, &ent)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		if (archive_entry_filetype(ent) != AE_IFREG)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*names = ts_xreallocarray(*names, cap, sizeof(**names));
			*sizes = ts_xreallocarray(*sizes, cap, sizeof(**sizes));
		}
		(*names)[n] = ts_xstrdup(archive_entry_pathname(ent) ?
		    archive_entry_pathname(ent) : "");
		(*sizes)[n++] = archive_entry_size_is_set(ent) ?
		    archive_entry_size(ent) : -1;
	}
	if (r != ARCHIVE_EOF) {
		err_of(e, z->a, 0, "a zip archive libarchive cannot read");
		while (n > 0)
			free((*names)[--n]);
		free(*names);
		free(*sizes);
		*names = NULL;
		*sizes = NULL;
		ts_zip_close(z);
		errno = EILSEQ;
		return -1;
	}
	ts_zip_close(z);
	return (long)n;
}

struct ts_zip *
ts_zip_open(struct ts_source *src, const char *name, bool check,
    struct ts_npy_err *e)
{
	struct ts_zip *z = zopen(src, check, e);
	struct archive_entry *ent;
	const char *p;
	int r;

	if (z == NULL)
		return NULL;
	while ((r = archive_read_next_header(z->a, &ent)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN)
		if (archive_entry_filetype(ent) == AE_IFREG && (p =
		    archive_entry_pathname(ent)) != NULL && strcmp(p, name) ==
		    0)
			return z;
	if (r != ARCHIVE_EOF)
		err_of(e, z->a, 0, "a zip archive libarchive cannot read");
	else {
		e->off = 0;
		snprintf(e->msg, sizeof(e->msg), "no member '%s'", name);
	}
	ts_zip_close(z);
	return NULL;
}

long
ts_zip_read(struct ts_zip *z, void *buf, size_t n, struct ts_npy_err *e)
{
	la_ssize_t r = archive_read_data(z->a, buf, n);

	if (r < 0) {
		err_of(e, z->a, z->nread, "a corrupt member");
		return -1;
	}
	z->nread += (uint64_t)r;
	return (long)r;
}

void
ts_zip_close(struct ts_zip *z)
{
	if (z == NULL)
		return;
	archive_read_free(z->a);
	free(z->buf);
	free(z);
}

/* A member's sum, to be put in place. */
struct crcfix {
	char		*name;
	uint32_t	 crc;
	uint64_t	 desc;		/* its data descriptor's offset */
};

struct ts_zip_out {
	struct archive	*a;
	struct ts_sink	*k;
	bool		 open;		/* archive_write_open2 done */
	uint64_t	 pos;		/* bytes given to the sink */
	uint64_t	 skip;		/* of the next, already in the file */
	bool		 sums;		/* made here, put in place at the end */
	bool		 in;		/* a member begun */
	uLong		 crc;		/* its sum so far */
	struct crcfix	*fix;		/* the members', in order */
	size_t		 nfix;
};

static la_ssize_t
zwrite(struct archive *a, void *arg, const void *p, size_t n)
{
	struct ts_zip_out *zo = arg;
	const char *c = p;
	size_t m = n;

	if (zo->skip > 0) {
		m = zo->skip < n ? (size_t)zo->skip : n;
		if (ts_sink_skip(zo->k, m) != 0) {
			archive_set_error(a, errno, "cannot write");
			return -1;
		}
		zo->skip -= m;
		zo->pos += m;
		c += m;
		m = n - m;
	}
	if (m > 0 && ts_sink_write(zo->k, c, m) != 0) {
		archive_set_error(a, errno, "cannot write");
		return -1;
	}
	zo->pos += m;
	return (la_ssize_t)n;
}

/* A member's entry as every zip here has it. */
static struct archive_entry *
entry_of(const char *name, uint64_t size)
{
	struct archive_entry *e = archive_entry_new();

	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	/* A fixed time: the same tensor gives the same bytes. */
	archive_entry_set_mtime(e, 315619200, 0);
	archive_entry_set_size(e, (la_int64_t)size);
	return e;
}

/* A stored zip's archive, unblocked, writing through fn, its sums not
 * made when nosum: NULL with errno (ELIBACC: libarchive cannot be
 * loaded; EIO: an error of libarchive's). */
static struct archive *
writer_of(bool deflate, bool nosum, void *arg, archive_write_callback *fn)
{
	struct archive *a;

	if (ts_la_load() != 0)
		return NULL;
	if ((a = archive_write_new()) == NULL ||
	    archive_write_set_format_zip(a) != ARCHIVE_OK ||
	    archive_write_set_options(a, deflate ?
	    "zip:compression=deflate" : "zip:compression=store") !=
	    ARCHIVE_OK || (nosum && archive_write_set_format_option(a, "zip",
	    "fakecrc32", "1") != ARCHIVE_OK))
		goto fail;
	/* Unblocked: each piece goes to the sink as it comes, not copied
	 * into a block first (the members' data comes in pieces of a
	 * megabyte: io.h's TS_KEEP_CHUNK). */
	archive_write_set_bytes_per_block(a, 0);
	if (archive_write_open2(a, arg, NULL, fn, NULL, NULL) != ARCHIVE_OK)
		goto fail;
	return a;
fail:
	archive_write_free(a);
	errno = EIO;
	return NULL;
}

static la_ssize_t
zcount(struct archive *a, void *arg, const void *p, size_t n)
{
	(void)a;
	(void)p;
	*(uint64_t *)arg += n;
	return (la_ssize_t)n;
}

int
ts_zip_gap(const char *prev, uint64_t prev_size, const char *name,
    uint64_t size, uint64_t *gap)
{
	struct archive_entry *e;
	struct archive *a;
	uint64_t pos = 0, end;
	int r;

	/* A zip of the two, made to count its bytes: the first's data
	 * one byte (the headers and the descriptor are the same whatever
	 * the data, for the sizes they were given). */
	if ((a = writer_of(false, false, &pos, zcount)) == NULL) {
		errno = EIO;
		return -1;
	}
	e = entry_of(prev, prev_size);
	r = archive_write_header(a, e);
	archive_entry_free(e);
	if (r != ARCHIVE_OK || archive_write_data(a, "", 1) != 1) {
		archive_write_free(a);
		errno = EIO;
		return -1;
	}
	end = pos;
	e = entry_of(name, size);
	r = archive_write_header(a, e);
	archive_entry_free(e);
	*gap = pos - end;
	archive_write_free(a);
	if (r != ARCHIVE_OK) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static int
zerr(struct ts_zip_out *zo)
{
	errno = archive_errno(zo->a) > 0 ? archive_errno(zo->a) : EIO;
	return -1;
}

struct ts_zip_out *
ts_zip_out_new(struct ts_sink *k, bool deflate)
{
	struct ts_zip_out *zo = ts_xcalloc(1, sizeof(*zo));

	zo->k = k;
	/* Stored members only: a deflated one's descriptor follows the
	 * data libarchive still holds when the next begins.  A libarchive
	 * without the option makes the sums itself. */
	zo->sums = ts_sink_fd(k) >= 0 && !deflate;
	if (zo->sums && (zo->a = writer_of(deflate, true, zo, zwrite)) ==
	    NULL)
		zo->sums = false;
	if (!zo->sums && (zo->a = writer_of(deflate, false, zo, zwrite)) ==
	    NULL) {
		free(zo);
		return NULL;
	}
	zo->open = true;
	return zo;
}

/* The member begun has ended: its sum is kept, to be put at its
 * descriptor, which libarchive writes next (and in the directory). */
static void
end_member(struct ts_zip_out *zo)
{
	if (!zo->in)
		return;
	zo->fix[zo->nfix - 1].crc = (uint32_t)zo->crc;
	zo->fix[zo->nfix - 1].desc = zo->pos;
	zo->in = false;
}

int
ts_zip_add_begin(struct ts_zip_out *zo, const char *name, uint64_t size)
{
	struct archive_entry *e = entry_of(name, size);
	int r;

	end_member(zo);
	r = archive_write_header(zo->a, e);
	archive_entry_free(e);
	if (r != ARCHIVE_OK)
		return zerr(zo);
	if (zo->sums) {
		zo->fix = ts_xreallocarray(zo->fix, zo->nfix + 1,
		    sizeof(*zo->fix));
		zo->fix[zo->nfix++].name = ts_xstrdup(name);
		zo->crc = crc32_z(0, NULL, 0);
		zo->in = true;
	}
	return 0;
}

/* n bytes at p into libarchive. */
static int
give(struct ts_zip_out *zo, const void *p, size_t n)
{
	const char *c = p;
	la_ssize_t r;

	while (n > 0) {
		if ((r = archive_write_data(zo->a, c, n)) <= 0)
			return zerr(zo);
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

int
ts_zip_add_data(struct ts_zip_out *zo, const void *p, size_t n)
{
	if (zo->in)
		zo->crc = crc32_z(zo->crc, p, n);
	return give(zo, p, n);
}

bool
ts_zip_out_sums(const struct ts_zip_out *zo)
{
	return zo->sums;
}

int
ts_zip_add_placed(struct ts_zip_out *zo, uint32_t crc, uint64_t n)
{
	static const unsigned char zero[64 << 10];
	size_t m;

	if (!zo->in) {
		errno = EINVAL;
		return -1;
	}
	zo->crc = crc32_combine(zo->crc, crc, (z_off_t)n);
	/* libarchive counts them: it is given any bytes, never written. */
	ts_zip_out_skip(zo, n);
	for (; n > 0; n -= m) {
		m = n < sizeof(zero) ? (size_t)n : sizeof(zero);
		if (give(zo, zero, m) != 0)
			return -1;
	}
	return 0;
}

uint64_t
ts_zip_out_pos(const struct ts_zip_out *zo)
{
	return zo->pos;
}

void
ts_zip_out_skip(struct ts_zip_out *zo, uint64_t n)
{
	zo->skip = n;
}

const char *
ts_zip_out_error(struct ts_zip_out *zo)
{
	return archive_error_string(zo->a);
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
le64(const unsigned char *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* n bytes at off of fd, all of them: 0, or -1 (EIO when short). */
static int
pread_all(int fd, void *p, size_t n, uint64_t off)
{
	ssize_t r = ts_pread_full(fd, p, n, off);

	if (r >= 0 && (size_t)r != n)
		errno = EIO;
	return r >= 0 && (size_t)r == n ? 0 : -1;
}

/* The central directory of the zip of size bytes in fd, as its end
 * records say (zip64's when the classic one has no room): its offset
 * and bytes.  0, or -1 with errno (EIO: not what libarchive writes). */
static int
find_cd(int fd, uint64_t size, uint64_t *off, uint64_t *len)
{
	unsigned char e[22], l[20], z[56];

	/* libarchive writes no comment: the record ends the file. */
	if (size < 22 || pread_all(fd, e, 22, size - 22) != 0)
		return -1;
	if (le32(e) != 0x06054b50)
		goto bad;
	*len = le32(e + 12);
	*off = le32(e + 16);
	if (*off == 0xffffffff || *len == 0xffffffff) {
		if (size < 42 || pread_all(fd, l, 20, size - 42) != 0)
			return -1;
		if (le32(l) != 0x07064b50 || le64(l + 8) > size - 56 ||
		    pread_all(fd, z, 56, le64(l + 8)) != 0)
			goto bad;
		if (le32(z) != 0x06064b50)
			goto bad;
		*len = le64(z + 40);
		*off = le64(z + 48);
	}
	if (*off > size || *len > size - *off)
		goto bad;
	return 0;
bad:
	errno = EIO;
	return -1;
}

/*
 * The sums of zo's members put in place in its file, over the zeros
 * libarchive wrote (each checked to be one): in each member's data
 * descriptor (its signature, then the sum) and in its entry of the
 * central directory (the sum at 16, the name at 46), the members and
 * the entries in the same order.  0, or -1 with errno (EIO: a zip not
 * as libarchive writes it).
 */
static int
put_sums(struct ts_zip_out *zo)
{
	const int fd = ts_sink_fd(zo->k);
	unsigned char d[8], *cd = NULL;
	uint64_t off, len, i = 0;
	size_t j, nl;
	int rv = -1, e = 0;

	if (!zo->sums)
		return 0;
	if (find_cd(fd, zo->pos, &off, &len) != 0)
		return -1;
	if (len > ((uint64_t)64 << 20)) {
		errno = EIO;
		return -1;
	}
	cd = ts_xmalloc(len > 0 ? (size_t)len : 1);
	if (pread_all(fd, cd, (size_t)len, off) != 0)
		goto out;
	for (j = 0; j < zo->nfix; j++) {
		struct crcfix *f = &zo->fix[j];

		nl = strlen(f->name);
		if (i + 46 + nl > len || le32(cd + i) != 0x02014b50 ||
		    (size_t)(cd[i + 28] | cd[i + 29] << 8) != nl ||
		    memcmp(cd + i + 46, f->name, nl) != 0 ||
		    le32(cd + i + 16) != 0)
			goto bad;
		put32(cd + i + 16, f->crc);
		i += 46 + nl + (uint64_t)(cd[i + 30] | cd[i + 31] << 8) +
		    (uint64_t)(cd[i + 32] | cd[i + 33] << 8);
		if (pread_all(fd, d, 8, f->desc) != 0)
			goto out;
		if (le32(d) != 0x08074b50 || le32(d + 4) != 0)
			goto bad;
		put32(d + 4, f->crc);
		if ((e = ts_pwrite_all(fd, d + 4, 4, f->desc + 4)) != 0)
			goto out;
	}
	if (i != len)
		goto bad;
	if ((e = ts_pwrite_all(fd, cd, (size_t)len, off)) == 0)
		rv = 0;
	goto out;
bad:
	e = EIO;
out:
	if (e != 0)
		errno = e;
	free(cd);
	return rv;
}

static void
fixes_free(struct ts_zip_out *zo)
{
	while (zo->nfix > 0)
		free(zo->fix[--zo->nfix].name);
	free(zo->fix);
}

int
ts_zip_out_finish(struct ts_zip_out *zo, uint64_t *size)
{
	int r, s;

	end_member(zo);
	r = archive_write_close(zo->a) == ARCHIVE_OK ? 0 : zerr(zo);
	if (r == 0)
		r = put_sums(zo);
	s = errno;
	if (size != NULL)
		*size = zo->pos;
	archive_write_free(zo->a);
	fixes_free(zo);
	free(zo);
	errno = s;
	return r;
}

void
ts_zip_out_free(struct ts_zip_out *zo)
{
	if (zo == NULL)
		return;
	archive_write_free(zo->a);
	fixes_free(zo);
	free(zo);
}
