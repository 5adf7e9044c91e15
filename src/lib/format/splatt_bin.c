/*
 * splatt_bin.c - SPLATT's binary coordinate file (its src/io.c, the
 * .bin that SPLATT and HiParTI read): an int32 magic, 0; the width of an
 * index and of a value, each a uint64, 4 or 8; then, in indices of that
 * width, the order, the dimensions and nnz; then one array of nnz
 * 0-based indices per mode, and the nnz values, float or double.  The
 * bytes are the writer's host's: little-endian, as every machine SPLATT
 * runs on.  Written as SPLATT writes it: 4-byte indices unless nnz or a
 * dimension needs more, 4-byte values when every value is a float's.
 * The arrays are columns.c's.
 */
#include <stdlib.h>

#include "tensorsuite.h"
#include "format/format.h"

#define HDR	20	/* magic, index width, value width */

static int
bad(struct ts_decoder *dec, uint64_t off, enum ts_rule rule,
    const char *what, uint64_t v)
{
	ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, (int64_t)off, rule,
	    what, (unsigned long long)v);
	return -1;
}

/* A uint64 stored big-endian at p. */
static uint64_t
be64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static int
splatt_open(struct ts_decoder *dec)
{
	struct ts_header *h = &dec->h;
	struct ts_colfile f = { HDR, 0, 0, false };
	unsigned char p[8 * (TS_MAXORDER + 2)];
	uint64_t magic, order;
	int m;

	h->kind = TS_KIND_SPLATT_BIN;
	if (ts_cols_reader(dec) != 0 || ts_cols_read(dec, p, HDR, 0) != 0)
		return -1;
	magic = ts_cols_le(p, 4);
	if (magic == 1)
		return bad(dec, 0, TS_RULE_X1, "magic %llu: a SPLATT CSF file "
		    "(not read), or FROSTT's binary format (--from "
		    "frostt-bin), not SPLATT's coordinate file (0)", magic);
	if (magic != 0)
		return bad(dec, 0, TS_RULE_X1, "magic %llu: not a SPLATT "
		    "binary coordinate file, which starts with 0", magic);
	/* SPLATT writes its host's bytes: a big-endian host's widths read
	 * as 4 or 8 the other way round. */
	if (ts_cols_le(p + 4, 8) != 4 && ts_cols_le(p + 4, 8) != 8 &&
	    (be64(p + 4) == 4 || be64(p + 4) == 8) &&
	    (be64(p + 12) == 4 || be64(p + 12) == 8))
		return bad(dec, 4, TS_RULE_H3, "index width %llu, big-endian: "
		    "a SPLATT file written on a big-endian machine, which is "
		    "not read (little-endian ones are)", be64(p + 4));
	f.iw = (unsigned)ts_cols_le(p + 4, 8);
	if (ts_cols_le(p + 4, 8) != 4 && ts_cols_le(p + 4, 8) != 8)
		return bad(dec, 4, TS_RULE_H3, "index width %llu: SPLATT's "
		    "indices have 4 or 8 bytes", ts_cols_le(p + 4, 8));
	f.vw = (unsigned)ts_cols_le(p + 12, 8);
	if (ts_cols_le(p + 12, 8) != 4 && ts_cols_le(p + 12, 8) != 8)
		return bad(dec, 12, TS_RULE_H3, "value width %llu: SPLATT's "
		    "values have 4 or 8 bytes", ts_cols_le(p + 12, 8));
	if (ts_cols_read(dec, p, f.iw, HDR) != 0)
		return -1;
	order = ts_cols_le(p, f.iw);
	if (order < 1 || order > TS_MAXORDER)
		return bad(dec, HDR, TS_RULE_H3, "order %llu: 1 to 64 modes "
		    "are read", order);
	h->order = (int)order;
	f.hdr = HDR + (order + 2) * f.iw;
	if (ts_cols_read(dec, p, (order + 1) * f.iw, HDR + f.iw) != 0)
		return -1;
	for (m = 0; m < h->order; m++) {
		h->dims[m] = ts_cols_le(p + (size_t)m * f.iw, f.iw);
		if (h->dims[m] == 0 || h->dims[m] > TS_DIM_MAX)
			return bad(dec, HDR + (uint64_t)(m + 1) * f.iw,
			    TS_RULE_H3, h->dims[m] == 0 ? "dimension %llu: "
			    "a mode has at least one index" : "dimension %llu "
			    "is beyond 2^63-1, the largest metadata can state",
			    h->dims[m]);
	}
	h->nnz = ts_cols_le(p + order * f.iw, f.iw);
	h->base = 0;
	return ts_cols_start(dec, &f);
}

const struct ts_decoder_ops ts_splatt_decoder = {
	"SPLATT binary", splatt_open, ts_cols_next, ts_cols_close
};

/* As SPLATT chooses: 8 bytes when nnz or a dimension needs them. */
static unsigned
splatt_iwidth(const struct ts_header *h)
{
	int m;

	if (h->nnz >= UINT32_MAX)
		return 8;
	for (m = 0; m < h->order; m++)
		if (h->dims[m] > UINT32_MAX)
			return 8;
	return 4;
}

static void
splatt_header(struct ts_encoder *enc, unsigned iw, unsigned vw)
{
	struct ts_outbuf *o = enc->out;
	int m;

	ts_cols_put_le(o, 0, 4);
	ts_cols_put_le(o, iw, 8);
	ts_cols_put_le(o, vw, 8);
	ts_cols_put_le(o, (uint64_t)enc->h.order, iw);
	for (m = 0; m < enc->h.order; m++)
		ts_cols_put_le(o, enc->h.dims[m], iw);
	ts_cols_put_le(o, enc->n, iw);
}

static const struct ts_cols_fmt splatt_fmt = {
	false, splatt_iwidth, splatt_header
};

static int
splatt_enc_open(struct ts_encoder *enc)
{
	return ts_cols_enc_open(enc, &splatt_fmt);
}

const struct ts_encoder_ops ts_splatt_encoder = {
	"SPLATT binary", splatt_enc_open, ts_cols_put, ts_cols_enc_close,
	NULL
};
