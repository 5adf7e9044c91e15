/*
 * bsp_npz.c - binsparse 0.1 in NPZ, as binsparse's Python reference
 * writes it (numpy.savez): one .npy member an array (indices_0 ...
 * indices_{N-1}, values) and the descriptor as the 0-d string array
 * binsparse.npy (binsparse.c says what it holds).  The entries are
 * written unique and in lexicographic order of the levels, as the
 * specification asks: the tools sort what is not (ts_kind_traits,
 * TS_KIND_SORTED), and the encoder refuses an entry out of that order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/binsparse.h"
#include "format/npz.h"
#include "util/xalloc.h"

/* The largest descriptor read, as the metadata's. */
#define DESC_MAX	(16u << 20)

/* The descriptor's text, UTF-8, malloc'd; NULL reported. */
static char *
descriptor(struct ts_decoder *dec)
{
	struct ts_npy a;
	struct ts_npy_err e;
	unsigned char *p;
	char *s;

	p = ts_npz_slurp(dec->src, "binsparse.npy", &a, DESC_MAX, dec->file,
	    dec->d);
	if (p == NULL)
		return NULL;
	if ((a.type != TS_NPY_UNICODE && a.type != TS_NPY_BYTES) ||
	    a.count != 1) {
		free(p);
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, 0, TS_RULE_NONE,
		    "member 'binsparse.npy': the descriptor is one string, "
		    "not %llu items of type %s", (unsigned long long)a.count,
		    ts_npy_type_name(a.type));
		return NULL;
	}
	if (a.type == TS_NPY_BYTES) {
		s = ts_xmalloc(a.itemsize + 1);
		memcpy(s, p, a.itemsize);
		s[a.itemsize] = '\0';
	} else if ((s = ts_npy_utf32_to_utf8(p, a.itemsize / 4, a.big,
	    &e)) == NULL)
		ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, (int64_t)(e.off +
		    a.data_off), TS_RULE_NONE, "member 'binsparse.npy': %s",
		    e.msg);
	free(p);
	return s;
}

/* The one value of iso values; a tensor without values when it is 1
 * and the attributes do not say otherwise. */
static int
iso_value(struct ts_decoder *dec, struct ts_npz_rd *r,
    const struct ts_bsp *b)
{
	struct ts_npz_in *in = &r->data;
	double f = 0;
	int64_t i = 0;
	int vt = ts_npz_vtype(b->vtype);

	if (ts_npz_in_open(in, dec->src, "values.npy", 0, dec->file,
	    dec->d) != 0)
		return -1;
	if (in->a.type != b->vtype || in->a.count != 1) {
		ts_npz_in_diag(in, 0, "iso values: one %s expected, not %llu "
		    "of type %s", ts_npy_type_name(b->vtype),
		    (unsigned long long)in->a.count,
		    ts_npy_type_name(in->a.type));
		return -1;
	}
	if (vt == -2) {
		unsigned char *p;

		if (ts_npz_in_raw(in, 1) != 0)
			return -1;
		p = in->buf;
		i = *p != 0;
		vt = TS_VTYPE_INT32;
	} else if (ts_npz_in_values(in, &f, &i, vt == TS_VTYPE_INT32 || vt ==
	    TS_VTYPE_INT64, 1) != 0)
		return -1;
	r->iso = true;
	r->isoi = i;
	r->isof = f;
	dec->lay.vtype = (enum ts_vtype)vt;
	dec->lay.values = ts_vtype_info(dec->lay.vtype)->is_int ? i != 1 :
	    f != 1;
	return 0;
}

int
ts_bsp_npz_open(struct ts_decoder *dec, struct ts_npz_rd *r)
{
	struct ts_bsp b;
	char *text, name[32];
	int k, rv = -1;

	if ((text = descriptor(dec)) == NULL)
		return -1;
	if (ts_bsp_parse(&b, text, strlen(text), dec->file, dec->d) != 0) {
		free(text);
		return -1;
	}
	free(text);
	r->nnz = b.nnz;
	r->ncoord = b.order;
	for (k = 0; k < b.order; k++) {
		r->perm[k] = b.perm[k];
		snprintf(name, sizeof(name), "indices_%d.npy", k);
		if (ts_npz_in_open(&r->coord[k], dec->src, name, 0, dec->file,
		    dec->d) != 0 || ts_npz_check_coord(&r->coord[k], 1, 0,
		    b.nnz) != 0)
			goto out;
		if (r->coord[k].a.type != b.itype[k]) {
			ts_npz_in_diag(&r->coord[k], 0, "indices of type %s; "
			    "the descriptor says %s",
			    ts_npy_type_name(r->coord[k].a.type),
			    ts_npy_type_name(b.itype[k]));
			goto out;
		}
	}
	if (b.iso)
		rv = iso_value(dec, r, &b);
	else if ((rv = ts_npz_open_values(dec, r, "values.npy", b.nnz)) == 0 &&
	    r->data.a.type != b.vtype) {
		ts_npz_in_diag(&r->data, 0, "values of type %s; the "
		    "descriptor says %s", ts_npy_type_name(r->data.a.type),
		    ts_npy_type_name(b.vtype));
		rv = -1;
	}
	if (rv == 0)
		rv = ts_bsp_decoder_header(dec, &b);
	if (rv == 0)
		ts_bsp_decoder_meta(dec, &b);
out:
	ts_bsp_free(&b);
	return rv;
}

/* ---- writing ---- */

struct bsp_wr {
	struct ts_npz_place pl;
	struct ts_npz_spool idx[TS_MAXORDER], val;
	int		 perm[TS_MAXORDER];	/* level k is mode perm[k] */
	struct ts_npz_order ord;
	enum ts_npy_type itype;
};

static void
bsp_wfree(struct bsp_wr *w)
{
	int k;

	for (k = 0; k < TS_MAXORDER; k++)
		ts_npz_spool_close(&w->idx[k]);
	ts_npz_spool_close(&w->val);
	ts_npz_place_free(&w->pl);
	free(w);
}

static int
bsp_wopen(struct ts_encoder *enc)
{
	const struct ts_meta *m = enc->o.meta;
	struct bsp_wr *w;
	uint64_t shape[TS_MAXORDER], e[2], nnz;
	char name[32];
	int k, rv = 0;

	/* Blocks of one shape only. */
	if (enc->lay.block && ts_header_uniform(&enc->h, shape, e) >= 0) {
		errno = EINVAL;
		return -1;
	}
	w = ts_xcalloc(1, sizeof(*w));
	enc->state = w;
	for (k = 0; k < enc->h.order; k++)
		w->perm[k] = k;
	/* Entries sorted by another order of the modes are written as
	 * they come, that order the levels' ("transpose"). */
	if (m != NULL && m->sorted && m->nsort == enc->h.order)
		memcpy(w->perm, m->sort_order, sizeof(int) * (size_t)m->nsort);
	w->itype = ts_npy_of_itype(enc->lay.itype);
	/* The members: the values first (the largest array, live into
	 * the zip as it comes: npz.h), then the indices; without values,
	 * the indices first, then the one value. */
	ts_npz_place_init(&w->pl, enc, enc->h.order + 1);
	nnz = enc->lay.block ? enc->h.nnz_block : enc->h.nnz;
	if (enc->lay.values > 0)
		rv = ts_npz_spool_live(&w->val, ts_npy_of_vtype(
		    enc->lay.vtype), &w->pl, "values.npy", 1, &nnz);
	for (k = 0; k < enc->h.order && rv == 0; k++)
		if (k == 0 && enc->lay.values <= 0)
			rv = ts_npz_spool_live(&w->idx[k], w->itype, &w->pl,
			    "indices_0.npy", 1, &nnz);
		else {
			snprintf(name, sizeof(name), "indices_%d.npy", k);
			ts_npz_spool_open(&w->idx[k], w->itype, &w->pl, name,
			    1, &nnz);
		}
	if (rv != 0) {
		enc->state = NULL;
		bsp_wfree(w);
	}
	return rv;
}

static int
bsp_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	struct bsp_wr *w = enc->state;
	const int order = enc->h.order;
	int k;

	if (ts_npz_in_order(&w->ord, enc, b, w->perm) != 0)
		return -1;
	for (k = 0; k < order; k++)
		if (ts_npz_spool_index(&w->idx[k], b->coords + w->perm[k],
		    (size_t)order, b->n) != 0)
			return -1;
	return enc->lay.values > 0 ? ts_npz_spool_values(&w->val, b->fval,
	    b->ival, b->n) : 0;
}

static int
bsp_finish(struct ts_encoder *enc, struct bsp_wr *w)
{
	const int order = enc->h.order;
	const uint64_t nnz = enc->n;
	struct ts_zip_out *zo;
	struct ts_meta m;
	struct ts_bsp b;
	unsigned char one[8];
	uint64_t n32, count = 1;
	unsigned char *u;
	char name[32], *text;
	int k, rv = 0;

	ts_meta_init(&m);
	m.order = order;
	memcpy(m.dims, enc->h.dims, sizeof(m.dims));
	m.value_type = enc->lay.vtype;
	m.index_type = enc->lay.itype;
	m.values_provided = enc->lay.values > 0;
	ts_bsp_of_meta(&b, &m, nnz, w->perm);
	(void)ts_bsp_of_blocks(&b, &enc->h);	/* uniform: bsp_wopen */
	text = ts_bsp_write(&b, enc->o.meta);
	ts_meta_free(&m);
	u = ts_npy_utf8_to_utf32(text, &n32);
	free(text);
	if (u == NULL || (zo = ts_npz_zip(&w->pl)) == NULL) {
		free(u);
		errno = u == NULL ? EILSEQ : errno;
		return -1;
	}
	/* In the order bsp_wopen opened them. */
	if (enc->lay.values > 0)
		rv = ts_npz_put(zo, "values.npy", w->val.type, 0, 1, &nnz,
		    &w->val, 1, NULL);
	for (k = 0; k < order && rv == 0; k++) {
		snprintf(name, sizeof(name), "indices_%d.npy", k);
		rv = ts_npz_put(zo, name, w->itype, 0, 1, &nnz, &w->idx[k], 1,
		    NULL);
	}
	if (rv == 0 && enc->lay.values <= 0) {
		/* iso: one value 1 of the value type. */
		double f = 1;
		int64_t i = 1;
		int32_t i32 = 1;
		float f32 = 1;

		switch (enc->lay.vtype) {
		case TS_VTYPE_FLOAT32:
			memcpy(one, &f32, 4);
			break;
		case TS_VTYPE_INT32:
			memcpy(one, &i32, 4);
			break;
		case TS_VTYPE_INT64:
			memcpy(one, &i, 8);
			break;
		default:
			memcpy(one, &f, 8);
			break;
		}
		rv = ts_npz_put(zo, "values.npy",
		    ts_npy_of_vtype(enc->lay.vtype), 0, 1, &count, NULL, 0,
		    one);
	}
	if (rv == 0)
		rv = ts_npz_put(zo, "binsparse.npy", TS_NPY_UNICODE, n32 * 4,
		    0, NULL, NULL, 0, u);
	free(u);
	return rv == 0 ? ts_npz_zip_finish(&w->pl) : -1;
}

static int
bsp_wclose(struct ts_encoder *enc)
{
	struct bsp_wr *w = enc->state;
	int rv = 0, e;

	if (w == NULL)
		return 0;
	if (!enc->aborted)
		rv = bsp_finish(enc, w);
	e = errno;
	bsp_wfree(w);
	enc->state = NULL;
	errno = e;
	return rv;
}

const struct ts_encoder_ops ts_bsp_npz_encoder = {
	"binsparse-npz", bsp_wopen, bsp_put, bsp_wclose, NULL
};
