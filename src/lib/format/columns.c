/*
 * columns.c - files laid out one array per mode and one of values, each
 * nnz fields long, after a header (SPLATT's binary coordinate file;
 * format.h: struct ts_cols_fmt), little-endian.  Entries flow as rows, so
 * both ways need the file whole: a reader reads the arrays side by side
 * at their offsets (a stream that cannot be read at an offset is first
 * copied to a temporary file, unlinked at once), and a writer keeps
 * each array until the end (io.h, struct ts_keep: in memory up to the
 * encoder's budget, the rest in a temporary file), where the header,
 * which says the widths of all the values, is known.  Memory stays
 * bounded either way: a batch, a buffer per array, and the budget.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "io/io.h"
#include "util/path.h"
#include "util/xalloc.h"

#define COPYSZ	((size_t)1 << 20)	/* a stream copied */

/* ---- decoding ---- */

struct cols_in {
	int		 fd;		/* the copy of a stream, or -1 */
	uint64_t	 size;
	struct ts_colfile f;
	uint64_t	 done;		/* entries given */
	uint64_t	 off[TS_MAXORDER + 1];	/* the modes', the values' */
	unsigned char	*buf;
	size_t		 bufsz;
};

/* A stream that cannot be read at an offset, copied whole. */
static int
spool(struct ts_decoder *dec, struct cols_in *c)
{
	char *path = ts_xasprintf("%s/tensorsuite.XXXXXX", ts_tmpdir(NULL));
	char *buf;
	long n;
	int e;

	if ((c->fd = mkstemp(path)) == -1) {
		ts_diag_io(dec->d, dec->file, "a temporary file in '%s': %s",
		    ts_tmpdir(NULL), strerror(errno));
		free(path);
		return -1;
	}
	unlink(path);
	free(path);
	buf = ts_xmalloc(COPYSZ);
	c->size = 0;
	while ((n = ts_source_read(dec->src, buf, COPYSZ)) > 0) {
		if ((e = ts_write_all(c->fd, buf, (size_t)n)) != 0) {
			free(buf);
			ts_diag_io(dec->d, dec->file, "copying to a temporary "
			    "file: %s", strerror(e));
			return -1;
		}
		c->size += (uint64_t)n;
	}
	free(buf);
	if (n < 0) {
		ts_diag_io(dec->d, dec->file, "%s", ts_source_error(dec->src) ?
		    ts_source_error(dec->src) : strerror(errno));
		return -1;
	}
	return 0;
}

int
ts_cols_reader(struct ts_decoder *dec)
{
	struct cols_in *c = ts_xcalloc(1, sizeof(*c));
	int64_t size = ts_source_size(dec->src);

	c->fd = -1;
	dec->state = c;
	if (size >= 0) {
		c->size = (uint64_t)size;
		return 0;
	}
	return spool(dec, c);
}

uint64_t
ts_cols_size(const struct ts_decoder *dec)
{
	return ((const struct cols_in *)dec->state)->size;
}

int
ts_cols_read(struct ts_decoder *dec, void *buf, size_t n, uint64_t off)
{
	struct cols_in *c = dec->state;
	size_t got = 0;
	long r;

	if (off > c->size || n > c->size - off) {
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, (int64_t)c->size,
		    TS_RULE_X8, "the file ends at byte %llu, inside the %s "
		    "header", (unsigned long long)c->size, dec->ops->name);
		return -1;
	}
	while (got < n) {
		if (c->fd >= 0)
			r = (long)pread(c->fd, (char *)buf + got, n - got,
			    (off_t)(off + got));
		else
			r = ts_source_pread(dec->src, (char *)buf + got,
			    n - got, off + got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				ts_diag_off(dec->d, TS_SEV_ERROR, dec->file,
				    (int64_t)(off + got), TS_RULE_X8, "the "
				    "file ends before its size said");
			else
				ts_diag_io(dec->d, dec->file, "%s",
				    strerror(errno));
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

uint64_t
ts_cols_le(const unsigned char *p, unsigned w)
{
	uint64_t v = 0;
	unsigned i;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (w == 4) {
		uint32_t x;

		memcpy(&x, p, 4);
		return x;
	}
	if (w == 8) {
		memcpy(&v, p, 8);
		return v;
	}
#endif
	for (i = w; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

int
ts_cols_start(struct ts_decoder *dec, const struct ts_colfile *f)
{
	struct cols_in *c = dec->state;
	struct ts_header *h = &dec->h;
	uint64_t rec, data, want, have, a = f->hdr;
	int m;

	/* Each field: order indices and a value; overflow is a file no
	 * disk holds, as wrong as a short one. */
	rec = (uint64_t)h->order * f->iw + f->vw;
	have = c->size - (c->size < f->hdr ? c->size : f->hdr);
	if (!ts_mul_u64(h->nnz, rec, &data) || !ts_add_u64(data, f->hdr,
	    &want)) {
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, (int64_t)f->hdr,
		    TS_RULE_X8, "the header says %llu entries of order %d: "
		    "more bytes than a file holds; the file has %llu after "
		    "its header", (unsigned long long)h->nnz, h->order,
		    (unsigned long long)have);
		return -1;
	}
	if (want != c->size) {
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, (int64_t)(want <
		    c->size ? want : c->size), TS_RULE_X8, "the header says "
		    "%llu entries of order %d, %u-byte indices and %u-byte "
		    "values: %llu bytes after its %llu-byte header; the file "
		    "has %llu", (unsigned long long)h->nnz, h->order, f->iw,
		    f->vw, (unsigned long long)data, (unsigned long long)
		    f->hdr, (unsigned long long)have);
		return -1;
	}
	c->f = *f;
	if (f->values_first) {
		c->off[h->order] = a;
		a += h->nnz * f->vw;
	}
	for (m = 0; m < h->order; m++, a += h->nnz * f->iw)
		c->off[m] = a;
	if (!f->values_first)
		c->off[h->order] = a;
	h->nnz_known = h->dims_known = true;
	h->bytes = f->hdr;
	dec->lay.block = false;
	dec->lay.values = 1;
	dec->lay.vtype = f->vw == 4 ? TS_VTYPE_FLOAT32 : TS_VTYPE_FLOAT64;
	dec->lay.itype = f->iw == 4 ? TS_ITYPE_UINT32 : TS_ITYPE_UINT64;
	dec->lay.endian = TS_ENDIAN_LITTLE;
	dec->lay.base = h->base;
	dec->off = f->hdr;
	return 0;
}

long
ts_cols_next(struct ts_decoder *dec, struct ts_batch *b)
{
	struct cols_in *c = dec->state;
	const int order = dec->h.order;
	const unsigned iw = c->f.iw, vw = c->f.vw;
	const uint64_t base = (uint64_t)dec->lay.base;
	const bool swap = !ts_host_little();
	size_t n = b->cap - b->n, i;
	uint64_t *q;
	int m;

	if (n > dec->h.nnz - c->done)
		n = (size_t)(dec->h.nnz - c->done);
	if (n == 0)
		return (long)b->n;
	if (c->bufsz < n * 8) {
		free(c->buf);
		c->buf = ts_xmalloc(c->bufsz = n * 8);
	}
	for (m = 0; m < order; m++) {
		if (ts_cols_read(dec, c->buf, n * iw, c->off[m] + c->done *
		    iw) != 0)
			return -1;
		q = b->coords + b->n * (size_t)order + (size_t)m;
		if (iw == 4 && !swap)
			for (i = 0; i < n; i++, q += order) {
				uint32_t v;

				memcpy(&v, c->buf + 4 * i, 4);
				*q = v - base;
			}
		else
			for (i = 0; i < n; i++, q += order)
				*q = ts_cols_le(c->buf + iw * i, iw) - base;
	}
	if (ts_cols_read(dec, c->buf, n * vw, c->off[order] + c->done * vw) !=
	    0)
		return -1;
	ts_vtype_info(dec->lay.vtype)->load(c->buf, vw, n, swap, b->fval +
	    b->n, b->ival + b->n);
	/* An entry is where its first index is; the next mode's index
	 * is an array further. */
	b->loc_offset = true;
	b->loc_step = dec->h.nnz * iw;
	for (i = 0; i < n; i++) {
		b->loc[b->n + i] = c->off[0] + (c->done + i) * iw;
		b->row[b->n + i] = NULL;
	}
	b->n += n;
	c->done += n;
	dec->rows += n;
	/* Progress: the share of the arrays read. */
	dec->off = c->f.hdr + (c->size - c->f.hdr) / dec->h.nnz * c->done;
	return (long)b->n;
}

void
ts_cols_close(struct ts_decoder *dec)
{
	struct cols_in *c = dec->state;

	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	free(c);
	dec->state = NULL;
}

/* ---- encoding ---- */

/*
 * Into a plain file (the sink's temporary) the arrays go straight to
 * their places, each through a buffer of its own: the header's size
 * does not depend on the widths it states, the indices' width is known
 * from the start, and the values are laid down as doubles, narrowed in
 * place at the end when every one is a float's (then FROSTT's indices,
 * which follow its values, move up).  Into anything else (a pipe, a
 * compressed file) the arrays are kept (io.h, struct ts_keep) and
 * written after the header at the end.
 */
#define DIRECTSZ	((size_t)1 << 18)	/* an array's buffer */

struct direct {
	unsigned char	*buf;
	size_t		 len;
	uint64_t	 off;		/* in the file, of buf[0] */
};

struct cols_out {
	const struct ts_cols_fmt *fmt;
	unsigned	 iw;
	bool		 f32;		/* every value is a float's */
	int		 fd;		/* direct: the file; else -1 */
	struct ts_pwriter *pw;		/* direct: the writes (io.h) */
	uint64_t	 hdr;		/* direct: the header's bytes */
	struct direct	 d[TS_MAXORDER + 1];	/* direct: the arrays */
	struct ts_keep	*a[TS_MAXORDER + 1];	/* the modes', the values' */
};

/* v in w bytes, little-endian: on a little-endian host a 4- or 8-byte
 * one is a single store (the byte loop is not made one by the compiler:
 * it was half of writing a SPLATT file). */
static inline void
st_le(unsigned char *p, uint64_t v, unsigned w)
{
	unsigned i;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (w == 4) {
		uint32_t x = (uint32_t)v;

		memcpy(p, &x, 4);
		return;
	}
	if (w == 8) {
		memcpy(p, &v, 8);
		return;
	}
#endif
	for (i = 0; i < w; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

void
ts_cols_put_le(struct ts_outbuf *o, uint64_t v, unsigned w)
{
	unsigned char b[8];

	st_le(b, v, w);
	ts_outbuf_write(o, b, w);
}

/* The header fmt writes for widths iw and vw, into a buffer of
 * memory (*len bytes, malloc'd). */
static char *
header_bytes(struct ts_encoder *enc, const struct ts_cols_fmt *fmt,
    unsigned iw, unsigned vw, size_t *len)
{
	struct ts_outbuf *o = enc->out, mem;

	ts_outbuf_mem_init(&mem, 256);
	enc->out = &mem;
	fmt->header(enc, iw, vw);
	enc->out = o;
	*len = mem.len;
	return mem.buf;
}

int
ts_cols_enc_open(struct ts_encoder *enc, const struct ts_cols_fmt *fmt)
{
	struct cols_out *w = ts_xcalloc(1, sizeof(*w));
	const int order = enc->h.order;
	const uint64_t nnz = enc->h.nnz;
	size_t len;
	int m;

	w->fmt = fmt;
	w->iw = fmt->iwidth(&enc->h);
	w->f32 = true;
	w->fd = ts_sink_fd(enc->sink);
	enc->state = w;
	if (w->fd >= 0) {
		free(header_bytes(enc, fmt, w->iw, 8, &len));
		w->hdr = len;
		for (m = 0; m <= order; m++) {
			/* SPLATT: the modes', then the values'; FROSTT:
			 * the values' (as doubles), then the modes'. */
			if (m == order)
				w->d[m].off = w->hdr + (fmt->values_first ? 0 :
				    (uint64_t)order * nnz * w->iw);
			else
				w->d[m].off = w->hdr + (fmt->values_first ?
				    nnz * 8 : 0) + (uint64_t)m * nnz * w->iw;
		}
		/* A buffer an array, two on their way. */
		w->pw = ts_pwriter_new(w->fd, DIRECTSZ, order + 3, NULL,
		    NULL);
		return 0;
	}
	for (m = 0; m <= order; m++)
		w->a[m] = ts_keep_new(&enc->keep);
	return 0;
}

/* A direct array's buffer on its way to its place (the writer's
 * thread writes it); a buffer for the next bytes. */
static int
direct_flush(struct cols_out *w, int m)
{
	struct direct *d = &w->d[m];
	uint64_t off = d->off;

	d->off += d->len;
	return ts_pwriter_pass(w->pw, &d->buf, &d->len, off, NULL);
}

/* Room for at least n more bytes of array m: where, and how many fit. */
static unsigned char *
room(struct cols_out *w, int m, size_t n, size_t *avail)
{
	struct direct *d = &w->d[m];

	if (w->fd < 0)
		return ts_keep_room(w->a[m], n, avail);
	if ((d->buf == NULL || d->len + n > DIRECTSZ) && direct_flush(w, m) !=
	    0)
		return NULL;
	*avail = DIRECTSZ - d->len;
	return d->buf + d->len;
}

static void
commit(struct cols_out *w, int m, size_t n)
{
	if (w->fd < 0)
		ts_keep_commit(w->a[m], n);
	else
		w->d[m].len += n;
}

/* Does a float hold v, bit for bit (a NaN's payload too)? */
static bool
fits_float(double v)
{
	double back;
	float f;

	if (isfinite(v) && fabs(v) > FLT_MAX)
		return false;	/* (no conversion: it would be undefined) */
	f = (float)v;
	back = (double)f;
	return memcmp(&back, &v, 8) == 0;
}

/* A value as a double, exactly, or -1 (reported). */
static int
as_double(struct ts_encoder *enc, const struct ts_batch *b, size_t i,
    double *v)
{
	int64_t x;

	if (!b->has_values) {
		*v = 1;		/* E5 */
		return 0;
	}
	if (!b->is_int) {
		*v = b->fval[i];
		return 0;
	}
	x = b->ival[i];
	*v = (double)x;
	if (*v < 9223372036854775808.0 && (int64_t)*v == x)
		return 0;
	ts_batch_diag(enc->d, b, i, b->order, TS_SEV_ERROR, TS_RULE_NONE,
	    "value %lld has no exact float or double, the values %s holds",
	    (long long)x, enc->ops->name);
	errno = EINVAL;
	return -1;
}

int
ts_cols_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	struct cols_out *w = enc->state;
	const int order = enc->h.order;
	const unsigned iw = w->iw;
	unsigned char *q;
	size_t i, at, n, avail;
	int m;

	if (b->order != order) {
		errno = EINVAL;
		return -1;
	}
	for (m = 0; m < order; m++) {
		const uint64_t *c = b->coords + (size_t)m;

		for (at = 0; at < b->n; at += n) {
			if ((q = room(w, m, iw, &avail)) == NULL)
				return -1;
			n = b->n - at < avail / iw ? b->n - at : avail / iw;
			/* The width a constant in each loop. */
			if (iw == 4)
				for (i = 0; i < n; i++, c += order)
					st_le(q + i * 4, *c, 4);
			else
				for (i = 0; i < n; i++, c += order)
					st_le(q + i * 8, *c, 8);
			commit(w, m, n * iw);
		}
	}
	for (at = 0; at < b->n; at += n) {
		if ((q = room(w, order, 8, &avail)) == NULL)
			return -1;
		n = b->n - at < avail / 8 ? b->n - at : avail / 8;
		for (i = 0; i < n; i++) {
			double v;
			uint64_t bits;

			/* Doubles as they are; the others through
			 * as_double, which may refuse one. */
			if (b->has_values && !b->is_int)
				v = b->fval[at + i];
			else if (as_double(enc, b, at + i, &v) != 0)
				return -1;
			if (w->f32)
				w->f32 = fits_float(v);
			memcpy(&bits, &v, 8);
			st_le(q + 8 * i, bits, 8);
		}
		commit(w, order, n * 8);
	}
	return 0;
}

/* A piece of an array to the output. */
static int
copy_piece(void *arg, unsigned char *p, size_t n)
{
	struct ts_encoder *enc = arg;

	ts_outbuf_write(enc->out, p, n);
	return 0;
}

/* n bytes of doubles at p narrowed to floats in place: four bytes from
 * each eight, at the start. */
static void
narrow_piece_mem(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n / 8; i++) {
		uint64_t bits = ts_cols_le(p + 8 * i, 8);
		double v;
		float f;
		uint32_t fb;

		memcpy(&v, &bits, 8);
		f = (float)v;
		memcpy(&fb, &f, 4);
		st_le(p + 4 * i, fb, 4);
	}
}

/* A piece of the values to the output, narrowed to floats. */
static int
narrow_piece(void *arg, unsigned char *p, size_t n)
{
	struct ts_encoder *enc = arg;

	narrow_piece_mem(p, n);
	ts_outbuf_write(enc->out, p, n / 2);
	return 0;
}

/*
 * Direct: every array at its place; the values narrowed in place when
 * vw is 4 (FROSTT's indices moved up after them), the file cut to its
 * size, the header first.  0, or -1 with errno.
 */
static int
direct_close(struct ts_encoder *enc, struct cols_out *w, unsigned vw)
{
	const int order = enc->h.order;
	const uint64_t nnz = enc->n;
	const uint64_t idx = (uint64_t)order * nnz * w->iw;
	const uint64_t voff = w->hdr + (w->fmt->values_first ? 0 : idx);
	uint64_t at, end, to;
	size_t want;
	unsigned char *buf;
	char *hdr;
	size_t len;
	ssize_t r;
	int m;

	for (m = 0; m <= order; m++)
		if (direct_flush(w, m) != 0)
			return -1;
	if (ts_pwriter_sync(w->pw) != 0)
		return -1;
	buf = w->d[0].buf;
	end = w->hdr + idx + nnz * 8;
	if (vw == 4) {
		/* Read ahead of the write: each piece of doubles becomes
		 * half as many bytes of floats before it. */
		for (at = 0; at < nnz * 8; at += (uint64_t)r) {
			want = nnz * 8 - at < DIRECTSZ ? (size_t)(nnz * 8 -
			    at) : DIRECTSZ;
			r = ts_pread_full(w->fd, buf, want, voff + at);
			if (r <= 0) {
				errno = r == 0 ? EIO : errno;
				return -1;
			}
			narrow_piece_mem(buf, (size_t)r);
			if ((errno = ts_pwrite_all(w->fd, buf, (size_t)r / 2,
			    voff + at / 2)) != 0)
				return -1;
		}
		if (w->fmt->values_first) {
			/* The indices up by the bytes the values lost. */
			for (at = 0, to = w->hdr + nnz * 4; at < idx;
			    at += (uint64_t)r) {
				want = idx - at < DIRECTSZ ? (size_t)(idx -
				    at) : DIRECTSZ;
				r = ts_pread_full(w->fd, buf, want, w->hdr +
				    nnz * 8 + at);
				if (r <= 0) {
					errno = r == 0 ? EIO : errno;
					return -1;
				}
				if ((errno = ts_pwrite_all(w->fd, buf,
				    (size_t)r, to + at)) != 0)
					return -1;
			}
		}
		end -= nnz * 4;
	}
	if (ftruncate(w->fd, (off_t)end) != 0)
		return -1;
	hdr = header_bytes(enc, w->fmt, w->iw, vw, &len);
	errno = ts_pwrite_all(w->fd, hdr, len, 0);
	free(hdr);
	return errno != 0 ? -1 : 0;
}

int
ts_cols_enc_close(struct ts_encoder *enc)
{
	struct cols_out *w = enc->state;
	const int order = enc->h.order;
	int m, k, rv = 0, e;

	if (w == NULL)
		return 0;
	if (!enc->aborted) {
		const unsigned vw = w->f32 ? 4 : 8;

		/* The index width was chosen for the count the header
		 * gave; another count would not read back. */
		if (enc->n != enc->h.nnz) {
			errno = EINVAL;
			rv = -1;
		} else if (w->fd >= 0)
			rv = direct_close(enc, w, vw);
		else {
			w->fmt->header(enc, w->iw, vw);
			for (k = 0; k <= order && rv == 0; k++) {
				m = w->fmt->values_first ? (k == 0 ? order :
				    k - 1) : k;
				rv = ts_keep_drain(w->a[m], m == order &&
				    vw == 4 ? narrow_piece : copy_piece, enc);
			}
			if (rv == 0 && ts_outbuf_error(enc->out) != 0) {
				errno = ts_outbuf_error(enc->out);
				rv = -1;
			}
		}
	}
	e = errno;
	for (m = 0; m <= order; m++) {
		ts_keep_free(w->a[m]);
		if (w->d[m].buf != NULL)
			(void)ts_pwriter_put(w->pw, w->d[m].buf, 0, 0,
			    NULL);
	}
	ts_pwriter_free(w->pw);
	free(w);
	errno = e;
	enc->state = NULL;
	return rv;
}
