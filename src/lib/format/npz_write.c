/*
 * npz_write.c - the arrays of an .npz being written (npz.h): placed in
 * the output's file or kept until the zip is made, then each into its
 * member; and the check of the entries a writer takes sorted and unique.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/npz.h"
#include "util/xalloc.h"

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
