/*
 * npz.c - scipy's and numpy's .npz: a matrix as scipy.sparse.save_npz
 * writes a COO matrix (members row, col, data, shape, and format
 * "coo"), a tensor of any other order as pydata/sparse's save_npz
 * writes a COO array (coords, an (N, nnz) array; data; shape;
 * fill_value).  Both are read, whatever the order; the arrays stream
 * from their members side by side (npz_array.c).  Indices are 0-based.
 * A tensor without values has boolean data, all True.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/npz.h"
#include "util/xalloc.h"

#define COORD_AHEAD	4	/* coordinate members read ahead, at most */

/* Is name among the n names? */
static bool
has(char **names, long n, const char *name)
{
	long i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* A 1-D integer array of at most max items, into v: its count, or -1. */
static long
small_ints(struct ts_decoder *dec, const char *member, uint64_t *v,
    size_t max)
{
	struct ts_npz_in in;
	long n = -1;

	if (ts_npz_in_open(&in, dec->src, member, 0, dec->file, dec->d) != 0)
		goto out;
	if (!ts_npz_is_int(in.a.type) || in.a.ndim != 1 || in.a.count < 1 ||
	    in.a.count > max) {
		ts_npz_in_diag(&in, 0, "a shape: 1 to %zu integers expected, "
		    "not %llu of type %s", max, (unsigned long long)in.a.count,
		    ts_npy_type_name(in.a.type));
		goto out;
	}
	if (ts_npz_in_index(&in, v, 1, (size_t)in.a.count) == 0)
		n = (long)in.a.count;
out:
	ts_npz_in_close(&in);
	return n;
}

int
ts_npz_open_values(struct ts_decoder *dec, struct ts_npz_rd *r,
    const char *member, uint64_t nnz)
{
	struct ts_npz_in *in = &r->data;
	int vt;

	if (ts_npz_in_open(in, dec->src, member, 0, dec->file, dec->d) != 0)
		return -1;
	vt = ts_npz_vtype(in->a.type);
	if (vt == -1) {
		ts_npz_in_diag(in, 0, "values of type %s are not read",
		    ts_npy_type_name(in->a.type));
		return -1;
	}
	if (in->a.ndim != 1 || in->a.count != nnz) {
		ts_npz_in_diag(in, 0, "%llu values for %llu entries",
		    (unsigned long long)in->a.count, (unsigned long long)nnz);
		return -1;
	}
	dec->lay.values = vt != -2;
	dec->lay.vtype = vt >= 0 ? (enum ts_vtype)vt : TS_VTYPE_FLOAT64;
	/* The largest member read ahead, beside the reading of the
	 * others. */
	ts_npz_in_ahead(in);
	return 0;
}

int
ts_npz_check_coord(struct ts_npz_in *in, int ndim, uint64_t rows, uint64_t nnz)
{
	if (!ts_npz_is_int(in->a.type)) {
		ts_npz_in_diag(in, 0, "indices of type %s",
		    ts_npy_type_name(in->a.type));
		return -1;
	}
	if (in->a.ndim != ndim || (ndim == 2 && in->a.shape[0] != rows) ||
	    in->a.shape[ndim - 1] != nnz) {
		ts_npz_in_diag(in, 0, "indices of %d dimensions, %llu by "
		    "%llu, where %s expected", in->a.ndim, (unsigned long long)
		    in->a.shape[0], (unsigned long long)(in->a.ndim > 1 ?
		    in->a.shape[1] : 0), ndim == 1 ? "one dimension of nnz "
		    "is" : "N by nnz are");
		return -1;
	}
	return 0;
}

static int
scipy_open(struct ts_decoder *dec, struct ts_npz_rd *r)
{
	static const char *const names[2] = { "row.npy", "col.npy" };
	struct ts_npy a;
	unsigned char *f;
	char fmt[8] = "";
	uint64_t nnz;
	size_t k;

	f = ts_npz_slurp(dec->src, "format.npy", &a, 64, dec->file, dec->d);
	if (f == NULL)
		return -1;
	if ((a.type == TS_NPY_BYTES || a.type == TS_NPY_UNICODE) && a.count ==
	    1)
		for (k = 0; k < sizeof(fmt) - 1 && k * (a.type ==
		    TS_NPY_UNICODE ? 4 : 1) < a.itemsize; k++)
			fmt[k] = (char)f[k * (a.type == TS_NPY_UNICODE ? 4 :
			    1)];
	free(f);
	if (strcmp(fmt, "coo") != 0) {
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, 0, TS_RULE_NONE,
		    "member 'format.npy': scipy's format '%s' is not read "
		    "(coo is)", fmt);
		return -1;
	}
	if (small_ints(dec, "shape.npy", dec->h.dims, 2) != 2) {
		if (ts_diags_errors(dec->d) == 0)
			ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, 0,
			    TS_RULE_NONE, "member 'shape.npy': a matrix's "
			    "shape has two dimensions");
		return -1;
	}
	dec->h.order = 2;
	r->ncoord = 2;
	for (k = 0; k < 2; k++) {
		if (ts_npz_in_open(&r->coord[k], dec->src, names[k], 0,
		    dec->file, dec->d) != 0 || ts_npz_check_coord(&r->coord[k], 1, 0,
		    r->coord[0].a.count) != 0)
			return -1;
	}
	r->nnz = nnz = r->coord[0].a.count;
	return ts_npz_open_values(dec, r, "data.npy", nnz);
}

static int
pydata_open(struct ts_decoder *dec, struct ts_npz_rd *r, bool fill)
{
	struct ts_npy a;
	unsigned char *f;
	long order;
	uint64_t nnz;
	int k;

	if ((order = small_ints(dec, "shape.npy", dec->h.dims,
	    TS_MAXORDER)) < 0)
		return -1;
	dec->h.order = (int)order;
	if (ts_npz_in_open(&r->coord[0], dec->src, "coords.npy", 0, dec->file,
	    dec->d) != 0)
		return -1;
	nnz = r->coord[0].a.ndim == 2 ? r->coord[0].a.shape[1] : 0;
	if (ts_npz_check_coord(&r->coord[0], 2, (uint64_t)order, nnz) != 0)
		return -1;
	/* C order: mode k is row k, read by a reader of its own; Fortran
	 * order: the tuples one after the other, as a batch holds them. */
	r->ncoord = r->coord[0].a.fortran ? 1 : (int)order;
	for (k = 1; k < r->ncoord; k++)
		if (ts_npz_in_open(&r->coord[k], dec->src, "coords.npy",
		    (uint64_t)k * nnz, dec->file, dec->d) != 0)
			return -1;
	r->nnz = nnz;
	if (ts_npz_open_values(dec, r, "data.npy", nnz) != 0)
		return -1;
	if (!fill)
		return 0;
	f = ts_npz_slurp(dec->src, "fill_value.npy", &a, 64, dec->file,
	    dec->d);
	if (f == NULL)
		return -1;
	for (k = 0; k < (int)a.bytes && f[k] == 0; k++)
		continue;
	free(f);
	if (a.count != 1 || k < (int)a.bytes) {
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, 0, TS_RULE_NONE,
		    "member 'fill_value.npy': a fill value other than 0 is "
		    "not read (the entries not stored are 0)");
		return -1;
	}
	return 0;
}

static int
npz_open(struct ts_decoder *dec)
{
	struct ts_npz_rd *r = ts_xcalloc(1, sizeof(*r));
	struct ts_npy_err e;
	int64_t *sizes;
	char **names;
	long n, i;
	int rv;

	dec->state = r;
	if ((n = ts_zip_list(dec->src, &names, &sizes, &e)) < 0) {
		if (errno == ELIBACC)	/* libarchive cannot be loaded */
			ts_diag_io(dec->d, dec->file, "%s", e.msg);
		else
			ts_diag_off(dec->d, TS_SEV_ERROR, dec->file,
			    (int64_t)e.off, TS_RULE_NONE, "%s", e.msg);
		return -1;
	}
	for (i = 0; i < TS_MAXORDER; i++)
		r->perm[i] = (int)i;
	if (has(names, n, "binsparse.npy"))
		rv = ts_bsp_npz_open(dec, r);
	else if (has(names, n, "format.npy"))
		rv = scipy_open(dec, r);
	else if (has(names, n, "coords.npy"))
		rv = pydata_open(dec, r, has(names, n, "fill_value.npy"));
	else {
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, 0, TS_RULE_NONE,
		    "neither scipy's arrays (row, col, data, shape, format) "
		    "nor pydata/sparse's (coords, data, shape)");
		rv = -1;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(sizes);
	if (rv != 0)
		return -1;
	/* The coordinates' members read ahead too (their reads and CRC-32
	 * beside the work, as the values'), the first few: each is a
	 * thread and its pieces. */
	for (i = 0; i < r->ncoord && i < COORD_AHEAD; i++)
		ts_npz_in_ahead(&r->coord[i]);
	dec->h.kind = dec->lay.kind;
	r->left = r->nnz;
	if (!dec->h.block)	/* a block tensor's: its elements */
		dec->h.nnz = r->nnz;
	dec->h.nnz_known = dec->h.dims_known = true;
	dec->h.base = 0;
	dec->lay.base = 0;
	return 0;
}

static long
npz_next(struct ts_decoder *dec, struct ts_batch *b)
{
	struct ts_npz_rd *r = dec->state;
	const int order = dec->h.order;
	size_t n = r->left < b->cap ? (size_t)r->left : b->cap;
	int k;

	const struct ts_npz_in *c0 = &r->coord[0];
	const uint64_t sz = c0->a.itemsize, at = c0->off;
	size_t i;

	if (n == 0)
		return 0;
	/* Where each entry is: its first coordinate's byte offset in its
	 * member, the others loc_step bytes apart (rows of one array), or
	 * at the same offset of their own members (arrays alike). */
	b->loc_offset = true;
	b->loc_step = r->ncoord == 1 ? (unsigned)sz : order > 1 &&
	    r->coord[1].z != NULL && r->ncoord > 1 && strcmp(c0->member,
	    r->coord[1].member) == 0 && r->nnz * sz <= UINT32_MAX ?
	    (unsigned)(r->nnz * sz) : 0;
	for (i = 0; i < n; i++)
		b->loc[i] = at + i * sz * (r->ncoord == 1 ? (uint64_t)order :
		    1);
	if (r->ncoord == 1) {
		if (ts_npz_in_index(&r->coord[0], b->coords, 1, n *
		    (size_t)order) != 0)
			return -1;
	} else
		for (k = 0; k < order; k++)
			if (ts_npz_in_index(&r->coord[k], b->coords +
			    r->perm[k], (size_t)order, n) != 0)
				return -1;
	if (r->iso)
		ts_npz_iso_fill(r, b, n);
	else if (ts_npz_in_values(&r->data, b->fval, b->ival, b->is_int,
	    n) != 0)
		return -1;
	r->left -= n;
	b->n = n;
	dec->rows += n;
	return (long)n;
}

static void
npz_close(struct ts_decoder *dec)
{
	struct ts_npz_rd *r = dec->state;
	int k;

	if (r == NULL)
		return;
	for (k = 0; k < TS_MAXORDER; k++)
		ts_npz_in_close(&r->coord[k]);
	ts_npz_in_close(&r->data);
	free(r);
}

const struct ts_decoder_ops ts_npz_decoder = {
	"npz", npz_open, npz_next, npz_close
};

/* ---- writing ---- */

struct npz_wr {
	struct ts_npz_place pl;
	struct ts_npz_spool coord[TS_MAXORDER], data;
	enum ts_npy_type itype;
	struct ts_npz_order ord;
	int		 perm[TS_MAXORDER];
};

static void
npz_wfree(struct npz_wr *w)
{
	int k;

	for (k = 0; k < TS_MAXORDER; k++)
		ts_npz_spool_close(&w->coord[k]);
	ts_npz_spool_close(&w->data);
	ts_npz_place_free(&w->pl);
	free(w);
}

static int
npz_wopen(struct ts_encoder *enc)
{
	struct npz_wr *w = ts_xcalloc(1, sizeof(*w));
	uint64_t nnz = enc->lay.block ? enc->h.nnz_block : enc->h.nnz;
	const uint64_t two[2] = { (uint64_t)enc->h.order, nnz };
	int k;

	enc->state = w;
	for (k = 0; k < TS_MAXORDER; k++)
		w->perm[k] = k;
	/* scipy's indices are int32 or int64, pydata's intp: uint32
	 * indices are uint32, which both take; uint64 ones int64 (no
	 * dimension is beyond 2^63-1). */
	w->itype = enc->lay.itype == TS_ITYPE_UINT32 ? TS_NPY_UINT32 :
	    TS_NPY_INT64;
	/* The arrays in the order of the members: data (live into the
	 * zip as it comes: npz.h), then row and col, or the rows of
	 * coords (the small members after them). */
	ts_npz_place_init(&w->pl, enc, enc->h.order + 1);
	if (ts_npz_spool_live(&w->data, enc->lay.values > 0 ?
	    ts_npy_of_vtype(enc->lay.vtype) : TS_NPY_BOOL, &w->pl,
	    "data.npy", 1, &nnz) != 0) {
		enc->state = NULL;
		npz_wfree(w);
		return -1;
	}
	for (k = 0; k < enc->h.order; k++)
		ts_npz_spool_open(&w->coord[k], w->itype, &w->pl,
		    enc->h.order == 2 ? (k == 0 ? "row.npy" : "col.npy") :
		    k == 0 ? "coords.npy" : NULL, enc->h.order == 2 ? 1 : 2,
		    enc->h.order == 2 ? &nnz : two);
	return 0;
}

static int
npz_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	struct npz_wr *w = enc->state;
	int k;

	/* pydata/sparse's load_npz takes the entries as sorted and unique
	 * without looking; scipy's COO matrix takes any. */
	if (enc->h.order != 2 && ts_npz_in_order(&w->ord, enc, b, w->perm) !=
	    0)
		return -1;
	for (k = 0; k < enc->h.order; k++)
		if (ts_npz_spool_index(&w->coord[k], b->coords + k,
		    (size_t)enc->h.order, b->n) != 0)
			return -1;
	return ts_npz_spool_values(&w->data, b->fval, b->ival, b->n);
}

static int
npz_finish(struct ts_encoder *enc, struct npz_wr *w)
{
	const int order = enc->h.order;
	const uint64_t nnz = enc->n;
	struct ts_zip_out *zo;
	uint64_t two[2] = { (uint64_t)order, nnz };
	int64_t shape[TS_MAXORDER];
	unsigned char zero[8] = { 0 };
	int k, rv;

	for (k = 0; k < order; k++)
		shape[k] = (int64_t)enc->h.dims[k];
	if ((zo = ts_npz_zip(&w->pl)) == NULL)
		return -1;
	/* In the order npz_wopen opened them. */
	rv = ts_npz_put(zo, "data.npy", w->data.type, 0, 1, &nnz, &w->data, 1,
	    NULL);
	if (rv == 0 && order == 2)
		rv = ts_npz_put(zo, "row.npy", w->itype, 0, 1, &nnz,
		    &w->coord[0], 1, NULL) != 0 || ts_npz_put(zo, "col.npy",
		    w->itype, 0, 1, &nnz, &w->coord[1], 1, NULL) != 0 ||
		    ts_npz_put(zo, "format.npy", TS_NPY_BYTES, 3, 0, NULL,
		    NULL, 0, "coo") != 0 || ts_npz_put(zo, "shape.npy",
		    TS_NPY_INT64, 0, 1, two, NULL, 0, shape) != 0 ? -1 : 0;
	else if (rv == 0)
		rv = ts_npz_put(zo, "coords.npy", w->itype, 0, 2, two,
		    w->coord, order, NULL) != 0 || ts_npz_put(zo, "shape.npy",
		    TS_NPY_INT64, 0, 1, two, NULL, 0, shape) != 0 ||
		    ts_npz_put(zo, "fill_value.npy", w->data.type, 0, 0, NULL,
		    NULL, 0, zero) != 0 ? -1 : 0;
	return rv == 0 ? ts_npz_zip_finish(&w->pl) : -1;
}

static int
npz_wclose(struct ts_encoder *enc)
{
	struct npz_wr *w = enc->state;
	int rv = 0, e;

	if (w == NULL)
		return 0;
	if (!enc->aborted)
		rv = npz_finish(enc, w);
	e = errno;
	npz_wfree(w);
	enc->state = NULL;
	errno = e;
	return rv;
}

const struct ts_encoder_ops ts_npz_encoder = {
	"npz", npz_wopen, npz_put, npz_wclose, NULL
};
