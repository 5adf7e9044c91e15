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

#define PLACESZ	((size_t)1 << 18)	/* a placed array's buffer */

/* A live array's piece into the zip begun (the writer's thread). */
static int
to_zip_of(void *arg, unsigned char *p, size_t n)
{
	struct ts_npz_place *pl = arg;

	return ts_zip_add_data(pl->zo, p, n);
}


void
ts_npz_place_init(struct ts_npz_place *pl, struct ts_encoder *enc, int n)
{
	memset(pl, 0, sizeof(*pl));
	pl->fd = ts_sink_fd(enc->sink);
	/* A block tensor's entries are its blocks. */
	pl->nnz = enc->lay.block ? enc->h.nnz_block : enc->h.nnz;
	pl->keep = &enc->keep;
	pl->sink = enc->sink;
	/* A buffer an array, three on their way. */
	if (pl->fd >= 0)
		pl->wk = ts_pwriter_new(pl->fd, PLACESZ, n + 3, to_zip_of, pl);
}

void
ts_npz_place_free(struct ts_npz_place *pl)
{
	ts_pwriter_free(pl->wk);
	ts_zip_out_free(pl->zo);
	pl->wk = NULL;
	pl->zo = NULL;
}

/* The bytes of member name's .npy (its header, ndim and shape's items of
 * type t), and its header's in *h. */
static uint64_t
member_size(enum ts_npy_type t, int ndim, const uint64_t *shape, size_t *h)
{
	char hdr[TS_NPY_HDRMAX];
	uint64_t count = 1;
	int k;

	*h = ts_npy_header(hdr, sizeof(hdr), t, 0, ndim, shape);
	for (k = 0; k < ndim; k++)
		count *= shape[k];
	return *h + count * ts_npy_type_size(t);
}

void
ts_npz_spool_open(struct ts_npz_spool *s, enum ts_npy_type t,
    struct ts_npz_place *pl, const char *member, int ndim,
    const uint64_t *shape)
{
	uint64_t size, gap;
	size_t h;

	memset(s, 0, sizeof(*s));
	s->type = t;
	if (pl->fd < 0) {
		s->k = ts_keep_new(pl->keep);
		return;
	}
	s->wk = pl->wk;
	s->cap = pl->nnz;
	if (member == NULL) {
		/* The member's next rows, right after the last. */
		s->off0 = pl->at;
		s->exact = pl->exact;
	} else {
		size = member_size(t, ndim, shape, &h);
		if (pl->exact && ts_zip_gap(pl->prev, pl->prev_size, member,
		    size, &gap) == 0) {
			s->off0 = pl->at + gap + h;
			s->exact = true;
		} else {
			pl->exact = false;
			s->off0 = pl->at + TS_NPZ_GAP;
		}
		snprintf(pl->prev, sizeof(pl->prev), "%s", member);
		pl->prev_size = size;
	}
	pl->at = s->off0 + pl->nnz * ts_npy_type_size(t);
}

int
ts_npz_spool_live(struct ts_npz_spool *s, enum ts_npy_type t,
    struct ts_npz_place *pl, const char *name, int ndim,
    const uint64_t *shape)
{
	char hdr[TS_NPY_HDRMAX];
	uint64_t size;
	size_t h;

	if (pl->fd < 0 || pl->zo != NULL) {
		ts_npz_spool_open(s, t, pl, name, ndim, shape);
		return 0;
	}
	memset(s, 0, sizeof(*s));
	s->type = t;
	s->wk = pl->wk;
	s->cap = pl->nnz;
	/* Its member begun, the rest of the zip after it: its place is
	 * the zip's own. */
	size = member_size(t, ndim, shape, &h);
	(void)ts_npy_header(hdr, sizeof(hdr), t, 0, ndim, shape);
	if ((pl->zo = ts_zip_out_new(pl->sink, false)) == NULL ||
	    ts_zip_add_begin(pl->zo, name, size) != 0 ||
	    ts_zip_add_data(pl->zo, hdr, h) != 0)
		return -1;
	s->live = true;
	/* The members after it from the end of its data on, to the byte. */
	pl->at = ts_zip_out_pos(pl->zo) + (size - h);
	pl->exact = true;
	snprintf(pl->prev, sizeof(pl->prev), "%s", name);
	pl->prev_size = size;
	return 0;
}

/* A placed or live array's bytes on their way, to their place or into
 * the zip; a buffer for the next. */
static int
place_flush(struct ts_npz_spool *s)
{
	uint64_t off = s->off0 + s->done;

	s->done += s->len;
	return ts_pwriter_pass(s->wk, &s->buf, &s->len, s->live ?
	    TS_PWRITER_FN : off, s->exact && !s->live ? &s->crc : NULL);
}

/* Room for at least one more item of sz bytes: where, and *m bytes. */
static unsigned char *
room(struct ts_npz_spool *s, size_t sz, size_t *m)
{
	if (s->k != NULL)
		return ts_keep_room(s->k, sz, m);
	if ((s->buf == NULL || s->len + sz > PLACESZ) && place_flush(s) != 0)
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
		/* A loop a type: the 8-byte ones copied whole. */
		switch (s->type) {
		case TS_NPY_FLOAT32:
			for (i = 0; i < m; i++) {
				float g = (float)f[i];

				memcpy(to + i * 4, &g, 4);
			}
			break;
		case TS_NPY_FLOAT64:
			memcpy(to, f, m * 8);
			break;
		case TS_NPY_INT32:
			for (i = 0; i < m; i++) {
				int32_t g = (int32_t)iv[i];

				memcpy(to + i * 4, &g, 4);
			}
			break;
		case TS_NPY_BOOL:
			memset(to, 1, m);
			break;
		default:
			memcpy(to, iv, m * 8);
			break;
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
	if (s->buf != NULL)
		(void)ts_pwriter_put(s->wk, s->buf, 0, 0, NULL);
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
 * array is written over (EOVERFLOW).  (Read here and written by the
 * thread, the pieces cost more than read and written here.)  Where
 * the zip has it and makes its sums itself, nothing is read back: the
 * array was summed as it was written (ts_zip_add_placed).
 */
static int
placed_to_zip(struct ts_zip_out *zo, struct ts_npz_spool *s)
{
	const uint64_t bytes = s->n * ts_npy_type_size(s->type);
	uint64_t at;
	ssize_t r;
	size_t want;

	if (place_flush(s) != 0 || ts_pwriter_sync(s->wk) != 0)
		return -1;
	if (ts_zip_out_pos(zo) > s->off0) {
		errno = EOVERFLOW;
		return -1;
	}
	/* Where the zip has it: libarchive reads it, and writes it not. */
	if (s->exact && ts_zip_out_pos(zo) == s->off0) {
		if (ts_zip_out_sums(zo))
			return ts_zip_add_placed(zo, s->crc, bytes);
		ts_zip_out_skip(zo, bytes);
	}
	for (at = 0; at < bytes; at += want) {
		want = bytes - at < PLACESZ ? (size_t)(bytes - at) : PLACESZ;
		if ((r = ts_pread_full(ts_pwriter_fd(s->wk), s->buf, want,
		    s->off0 + at)) < 0)
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

/* A live array's last bytes into the zip, and every one in it: its
 * member had room for cap items, so all must have come. */
static int
live_end(struct ts_npz_spool *s)
{
	if (place_flush(s) != 0 || ts_pwriter_sync(s->wk) != 0)
		return -1;
	if (s->n != s->cap) {
		errno = EINVAL;
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
	if (nv > 0 && v[0].live) {
		if (live_end(&v[0]) != 0)
			return -1;
	} else if (ts_zip_add_begin(zo, name, h + bytes) != 0 ||
	    ts_zip_add_data(zo, hdr, h) != 0)
		return -1;
	if (nv == 0)
		return ts_zip_add_data(zo, p, (size_t)bytes);
	for (k = v[0].live ? 1 : 0; k < nv; k++)
		if ((v[k].k != NULL ? ts_keep_drain(v[k].k, to_zip, zo) :
		    placed_to_zip(zo, &v[k])) != 0)
			return -1;
	return 0;
}

struct ts_zip_out *
ts_npz_zip(struct ts_npz_place *pl)
{
	if (pl->zo == NULL)
		pl->zo = ts_zip_out_new(pl->sink, false);
	return pl->zo;
}

int
ts_npz_zip_finish(struct ts_npz_place *pl)
{
	struct ts_zip_out *zo = pl->zo;
	uint64_t size;

	pl->zo = NULL;
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
