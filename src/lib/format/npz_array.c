/*
 * npz_array.c - the arrays of an .npz tensor (npz.h): a member's .npy
 * header read and checked before anything is allocated from it, its
 * items converted as they stream by, each bad item reported at its
 * byte offset in the member; and arrays written through unlinked
 * temporary files, copied into the zip once their length is known.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/npz.h"
#include "util/path.h"
#include "util/xalloc.h"

#define IN_BUF	(1u << 20)	/* a member read */

void
ts_npz_in_diag(const struct ts_npz_in *in, uint64_t off, const char *fmt,
    ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ts_diag_off(in->d, TS_SEV_ERROR, in->file, (int64_t)off, TS_RULE_NONE,
	    "member '%s': %s", in->member, msg);
}

/* Exactly n bytes of the member into p; 0, or -1 reported. */
static int
readn(struct ts_npz_in *in, void *p, size_t n, const char *what)
{
	struct ts_npy_err e;
	size_t got = 0;
	long r;

	while (got < n) {
		r = ts_zip_read(in->z, (char *)p + got, n - got, &e);
		if (r < 0) {
			ts_npz_in_diag(in, e.off, "%s", e.msg);
			return -1;
		}
		if (r == 0) {
			ts_npz_in_diag(in, in->off + got, "the member ends in "
			    "%s", what);
			return -1;
		}
		got += (size_t)r;
	}
	in->off += n;
	return 0;
}

int
ts_npz_in_open(struct ts_npz_in *in, struct ts_source *src,
    const char *member, uint64_t skip, const char *file, struct ts_diags *d)
{
	unsigned char pre[TS_NPY_PREFIX], *h;
	struct ts_npy_err e;
	uint64_t total, left;
	size_t n;

	memset(in, 0, sizeof(*in));
	in->member = ts_xstrdup(member);
	in->file = file;
	in->d = d;
	if ((in->z = ts_zip_open(src, member, &e)) == NULL) {
		ts_diag_off(d, TS_SEV_ERROR, file, (int64_t)e.off,
		    TS_RULE_NONE, "%s", e.msg);
		return -1;
	}
	/* The prefix: 10 bytes for 1.0, 12 for the others. */
	if (readn(in, pre, 10, "its .npy header") != 0)
		return -1;
	if (pre[6] >= 2 && pre[6] <= 3 && readn(in, pre + 10, 2,
	    "its .npy header") != 0)
		return -1;
	if (ts_npy_prefix(pre, in->off, &total, &e) != 0) {
		ts_npz_in_diag(in, e.off, "%s", e.msg);
		return -1;
	}
	h = ts_xmalloc((size_t)total);
	memcpy(h, pre, (size_t)in->off);
	if (readn(in, h + in->off, (size_t)(total - in->off),
	    "its .npy header") != 0) {
		free(h);
		return -1;
	}
	if (ts_npy_parse(h, (size_t)total, &in->a, &e) != 0) {
		free(h);
		ts_npz_in_diag(in, e.off, "%s", e.msg);
		return -1;
	}
	free(h);
	in->cap = IN_BUF;
	in->buf = ts_xmalloc(in->cap);
	for (left = skip * in->a.itemsize; left > 0; left -= n) {
		n = left < in->cap ? (size_t)left : in->cap;
		if (readn(in, in->buf, n, "its data") != 0)
			return -1;
	}
	return 0;
}

void
ts_npz_in_close(struct ts_npz_in *in)
{
	ts_zip_close(in->z);
	free(in->member);
	free(in->buf);
	memset(in, 0, sizeof(*in));
}

int
ts_npz_in_raw(struct ts_npz_in *in, size_t n)
{
	size_t bytes;

	if (n > SIZE_MAX / in->a.itemsize)
		return -1;
	bytes = n * in->a.itemsize;
	if (bytes > in->cap) {
		in->buf = ts_xrealloc(in->buf, bytes);
		in->cap = bytes;
	}
	return readn(in, in->buf, bytes, "its data (fewer items than its "
	    "shape says)");
}

bool
ts_npz_is_int(enum ts_npy_type t)
{
	return t >= TS_NPY_INT8 && t <= TS_NPY_UINT64;
}

int
ts_npz_vtype(enum ts_npy_type t)
{
	switch (t) {
	case TS_NPY_BOOL:
		return -2;
	case TS_NPY_INT8: case TS_NPY_INT16: case TS_NPY_INT32:
	case TS_NPY_UINT8: case TS_NPY_UINT16:
		return TS_VTYPE_INT32;
	case TS_NPY_INT64: case TS_NPY_UINT32: case TS_NPY_UINT64:
		return TS_VTYPE_INT64;
	case TS_NPY_FLOAT32:
		return TS_VTYPE_FLOAT32;
	case TS_NPY_FLOAT64:
		return TS_VTYPE_FLOAT64;
	default:
		return -1;
	}
}

/* Item p of an integer type: its bits, and whether it is negative. */
static uint64_t
ld_int(const unsigned char *p, enum ts_npy_type t, bool big, bool *neg)
{
	size_t sz = ts_npy_type_size(t), k;
	uint64_t v = 0;

	for (k = 0; k < sz; k++)
		v |= (uint64_t)p[big ? sz - 1 - k : k] << (8 * k);
	*neg = false;
	if (t >= TS_NPY_INT8 && t <= TS_NPY_INT64 && (v >> (8 * sz - 1) & 1)) {
		*neg = true;
		if (sz < 8)
			v |= ~UINT64_C(0) << (8 * sz);
	}
	return v;
}

static double
ld_float(const unsigned char *p, enum ts_npy_type t, bool big)
{
	unsigned char q[8];
	size_t sz = t == TS_NPY_FLOAT32 ? 4 : 8, k;
	float f;
	double g;

	for (k = 0; k < sz; k++)
		q[k] = p[big == ts_host_little() ? sz - 1 - k : k];
	if (sz == 4) {
		memcpy(&f, q, 4);
		return f;
	}
	memcpy(&g, q, 8);
	return g;
}

int
ts_npz_in_index(struct ts_npz_in *in, uint64_t *c, size_t stride,
    size_t n)
{
	const uint64_t off = in->off;
	const size_t sz = in->a.itemsize;
	const unsigned char *p;
	size_t i;
	bool neg;

	if (ts_npz_in_raw(in, n) != 0)
		return -1;
	p = in->buf;
	/* The common cases as plain loads. */
	if (!in->a.big && ts_host_little() && (in->a.type == TS_NPY_INT64 ||
	    in->a.type == TS_NPY_UINT64)) {
		for (i = 0; i < n; i++) {
			memcpy(&c[i * stride], p + i * 8, 8);
			if (in->a.type == TS_NPY_INT64 && (int64_t)c[i *
			    stride] < 0)
				goto negative;
		}
		return 0;
	}
	if (!in->a.big && ts_host_little() && (in->a.type == TS_NPY_INT32 ||
	    in->a.type == TS_NPY_UINT32)) {
		for (i = 0; i < n; i++) {
			uint32_t v;

			memcpy(&v, p + i * 4, 4);
			if (in->a.type == TS_NPY_INT32 && (int32_t)v < 0)
				goto negative;
			c[i * stride] = v;
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		c[i * stride] = ld_int(p + i * sz, in->a.type, in->a.big, &neg);
		if (neg)
			goto negative;
	}
	return 0;
negative:
	ts_npz_in_diag(in, off + i * sz, "index %lld is negative",
	    (long long)(int64_t)ld_int(p + i * sz, in->a.type, in->a.big,
	    &neg));
	return -1;
}

int
ts_npz_in_values(struct ts_npz_in *in, double *f, int64_t *iv, bool is_int,
    size_t n)
{
	const uint64_t off = in->off;
	const size_t sz = in->a.itemsize;
	const enum ts_npy_type t = in->a.type;
	const unsigned char *p;
	uint64_t v;
	size_t i;
	bool neg;

	if (ts_npz_in_raw(in, n) != 0)
		return -1;
	p = in->buf;
	if (t == TS_NPY_BOOL) {
		for (i = 0; i < n; i++)
			if (p[i] != 1) {
				ts_npz_in_diag(in, off + i, "a boolean array "
				    "of values (a tensor without values) "
				    "holds %s", p[i] == 0 ? "False" :
				    "a byte that is no boolean");
				return -1;
			}
		return 0;
	}
	if (t == TS_NPY_FLOAT32 || t == TS_NPY_FLOAT64) {
		if (!in->a.big && ts_host_little() && t == TS_NPY_FLOAT64 &&
		    !is_int) {
			memcpy(f, p, n * 8);
			return 0;
		}
		for (i = 0; i < n; i++)
			f[i] = ld_float(p + i * sz, t, in->a.big);
		return 0;
	}
	for (i = 0; i < n; i++) {
		v = ld_int(p + i * sz, t, in->a.big, &neg);
		if (t == TS_NPY_UINT64 && v > (uint64_t)INT64_MAX) {
			ts_npz_in_diag(in, off + i * sz, "value %llu is beyond "
			    "int64, the widest integer type",
			    (unsigned long long)v);
			return -1;
		}
		iv[i] = (int64_t)v;
	}
	return 0;
}

unsigned char *
ts_npz_slurp(struct ts_source *src, const char *member, struct ts_npy *a,
    size_t max, const char *file, struct ts_diags *d)
{
	struct ts_npz_in in;
	unsigned char *p;

	if (ts_npz_in_open(&in, src, member, 0, file, d) != 0) {
		ts_npz_in_close(&in);
		return NULL;
	}
	*a = in.a;
	if (in.a.bytes > max) {
		ts_npz_in_diag(&in, in.a.data_off, "an array of %llu bytes "
		    "where at most %zu are read", (unsigned long long)
		    in.a.bytes, max);
		ts_npz_in_close(&in);
		return NULL;
	}
	p = ts_xmalloc((size_t)in.a.bytes + 1);
	if (in.a.count > 0 && ts_npz_in_raw(&in, (size_t)in.a.count) != 0) {
		free(p);
		ts_npz_in_close(&in);
		return NULL;
	}
	memcpy(p, in.buf, (size_t)in.a.bytes);
	ts_npz_in_close(&in);
	return p;
}

/* ---- writing ---- */

#define PLACESZ	((size_t)1 << 20)	/* a placed array's buffer */

void
ts_npz_place_init(struct ts_npz_place *pl, struct ts_encoder *enc)
{
	pl->fd = ts_sink_fd(enc->sink);
	pl->at = 0;
	pl->nnz = enc->h.nnz;
	pl->keep = &enc->keep;
}

void
ts_npz_spool_open(struct ts_npz_spool *s, enum ts_npy_type t,
    struct ts_npz_place *pl, bool member)
{
	memset(s, 0, sizeof(*s));
	s->type = t;
	s->fd = pl->fd;
	if (pl->fd < 0) {
		s->k = ts_keep_new(pl->keep);
		return;
	}
	s->cap = pl->nnz;
	s->off0 = pl->at + (member ? TS_NPZ_GAP : 0);
	pl->at = s->off0 + pl->nnz * ts_npy_type_size(t);
	s->buf = ts_xmalloc(PLACESZ);
}

/* A placed array's bytes on their way, to their place. */
static int
place_flush(struct ts_npz_spool *s)
{
	if (s->len > 0 && (errno = ts_pwrite_all(s->fd, s->buf, s->len,
	    s->off0 + s->done)) != 0)
		return -1;
	s->done += s->len;
	s->len = 0;
	return 0;
}

/* Room for at least one more item of sz bytes: where, and *m bytes. */
static unsigned char *
room(struct ts_npz_spool *s, size_t sz, size_t *m)
{
	if (s->k != NULL)
		return ts_keep_room(s->k, sz, m);
	if (s->len + sz > PLACESZ && place_flush(s) != 0)
		return NULL;
	*m = PLACESZ - s->len;
	return s->buf + s->len;
}

static void
commit(struct ts_npz_spool *s, size_t bytes)
{
	if (s->k != NULL)
		ts_keep_commit(s->k, bytes);
	else
		s->len += bytes;
}

/* Would n more items overrun a placed array's room? */
static bool
overrun(const struct ts_npz_spool *s, size_t n)
{
	if (s->k == NULL && n > s->cap - s->n) {
		errno = EINVAL;
		return true;
	}
	return false;
}

int
ts_npz_spool_index(struct ts_npz_spool *s, const uint64_t *c, size_t stride,
    size_t n)
{
	const size_t sz = ts_npy_type_size(s->type);
	unsigned char *q;
	size_t i, m;

	if (overrun(s, n))
		return -1;
	while (n > 0) {
		if ((q = room(s, sz, &m)) == NULL)
			return -1;
		m /= sz;
		m = m < n ? m : n;
		if (sz == 8)
			for (i = 0; i < m; i++)
				memcpy(q + i * 8, &c[i * stride], 8);
		else
			for (i = 0; i < m; i++) {
				uint32_t v = (uint32_t)c[i * stride];

				memcpy(q + i * 4, &v, 4);
			}
		commit(s, m * sz);
		s->n += m;
		c += m * stride;
		n -= m;
	}
	return 0;
}

int
ts_npz_spool_values(struct ts_npz_spool *s, const double *f,
    const int64_t *iv, size_t n)
{
	const size_t sz = ts_npy_type_size(s->type);
	unsigned char *to;
	size_t i, m;

	if (overrun(s, n))
		return -1;
	while (n > 0) {
		if ((to = room(s, sz, &m)) == NULL)
			return -1;
		m /= sz;
		m = m < n ? m : n;
		for (i = 0; i < m; i++) {
			unsigned char *q = to + i * sz;

			switch (s->type) {
			case TS_NPY_FLOAT32: {
				float g = (float)f[i];

				memcpy(q, &g, 4);
				break;
			}
			case TS_NPY_FLOAT64:
				memcpy(q, &f[i], 8);
				break;
			case TS_NPY_INT32: {
				int32_t g = (int32_t)iv[i];

				memcpy(q, &g, 4);
				break;
			}
			case TS_NPY_BOOL:
				*q = 1;
				break;
			default:
				memcpy(q, &iv[i], 8);
				break;
			}
		}
		commit(s, m * sz);
		s->n += m;
		f = f != NULL ? f + m : NULL;
		iv = iv != NULL ? iv + m : NULL;
		n -= m;
	}
	return 0;
}

void
ts_npz_spool_close(struct ts_npz_spool *s)
{
	ts_keep_free(s->k);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* A piece of a spool into the member being written. */
static int
to_zip(void *arg, unsigned char *p, size_t n)
{
	return ts_zip_add_data(arg, p, n);
}

/*
 * A placed array into the member being written: read back from its
 * place piece by piece, each piece read before libarchive writes it,
 * where the array was or before (every gap is wider than what comes
 * between two arrays: a member's headers, its descriptor, the small
 * members).  A zip laid out otherwise is refused before a byte of the
 * array is written over (EOVERFLOW).
 */
static int
placed_to_zip(struct ts_zip_out *zo, struct ts_npz_spool *s)
{
	const uint64_t bytes = s->n * ts_npy_type_size(s->type);
	uint64_t at;
	ssize_t r;
	size_t want;

	if (place_flush(s) != 0)
		return -1;
	if (ts_zip_out_pos(zo) > s->off0) {
		errno = EOVERFLOW;
		return -1;
	}
	for (at = 0; at < bytes; at += want) {
		want = bytes - at < PLACESZ ? (size_t)(bytes - at) : PLACESZ;
		if ((r = ts_pread_full(s->fd, s->buf, want, s->off0 + at)) < 0)
			return -1;
		if ((size_t)r != want) {
			errno = EIO;
			return -1;
		}
		if (ts_zip_add_data(zo, s->buf, want) != 0)
			return -1;
	}
	return 0;
}

int
ts_npz_put(struct ts_zip_out *zo, const char *name, enum ts_npy_type t,
    size_t itemsize, int ndim, const uint64_t *shape,
    struct ts_npz_spool *v, int nv, const void *p)
{
	char hdr[TS_NPY_HDRMAX];
	uint64_t bytes = 0, count = 1;
	size_t h, sz;
	int k;

	h = ts_npy_header(hdr, sizeof(hdr), t, itemsize, ndim, shape);
	sz = t == TS_NPY_UNICODE || t == TS_NPY_BYTES ? itemsize :
	    ts_npy_type_size(t);
	for (k = 0; k < ndim; k++)
		count *= shape[k];
	bytes = count * sz;
	if (ts_zip_add_begin(zo, name, h + bytes) != 0 ||
	    ts_zip_add_data(zo, hdr, h) != 0)
		return -1;
	if (nv == 0)
		return ts_zip_add_data(zo, p, (size_t)bytes);
	for (k = 0; k < nv; k++)
		if ((v[k].k != NULL ? ts_keep_drain(v[k].k, to_zip, zo) :
		    placed_to_zip(zo, &v[k])) != 0)
			return -1;
	return 0;
}

int
ts_npz_zip_finish(struct ts_zip_out *zo, const struct ts_npz_place *pl)
{
	uint64_t size;

	if (ts_zip_out_finish(zo, &size) != 0)
		return -1;
	if (pl->fd >= 0 && ftruncate(pl->fd, (off_t)size) != 0)
		return -1;
	return 0;
}

void
ts_npz_iso_fill(const struct ts_npz_rd *r, struct ts_batch *b, size_t n)
{
	size_t i;

	if (!b->has_values)
		return;
	for (i = 0; i < n; i++)
		if (b->is_int)
			b->ival[i] = r->isoi;
		else
			b->fval[i] = r->isof;
}

int
ts_npz_in_order(struct ts_npz_order *o, const struct ts_encoder *enc,
    const struct ts_batch *b, const int *perm)
{
	const int order = enc->h.order;
	const uint64_t *e, *p;
	char t[256];
	size_t i;
	int k;

	i = ts_coords_unordered(b->coords, b->n, o->any ? o->last : NULL,
	    perm, order);
	if (i < b->n) {
		e = b->coords + i * (size_t)order;
		p = i > 0 ? e - order : o->last;
		for (k = 0; k < order && e[perm[k]] == p[perm[k]]; k++)
			continue;
		ts_diag(enc->d, TS_SEV_ERROR, ts_sink_name(enc->sink), 0, 0,
		    TS_RULE_NONE, "entry %llu at 0-based %s %s: %s holds "
		    "entries unique and sorted (ts-sort writes it, with "
		    "--duplicates for repeats)", (unsigned long long)(enc->n + i + 1),
		    ts_tuple_str(t, sizeof(t), e, order, 0), k == order ?
		    "repeats the one before" : "is out of order",
		    ts_kind_title(enc->lay.kind));
		errno = EINVAL;
		return -1;
	}
	if (b->n > 0) {
		memcpy(o->last, b->coords + (b->n - 1) * (size_t)order,
		    sizeof(uint64_t) * (size_t)order);
		o->any = true;
	}
	return 0;
}
