/*
 * frostt_bin.c - FROSTT's binary format, version 1 (frostt.io, "Binary
 * Format"): a uint32 version, 1; the width of an index and of a value,
 * each a uint32, 4 or 8; the order and nnz, each a uint64; the
 * dimensions in indices of that width; the nnz values, float or double;
 * then one array of nnz indices per mode; little-endian.  The page does
 * not say the base of the indices: they are read and written 0-based,
 * as the arrays of SPLATT (its author's) are.  Written as the page
 * says: 8-byte indices only when a dimension is beyond 2^32 - 1, 8-byte
 * values only when some value is no float's.  The arrays are
 * columns.c's.
 */
#include <stdlib.h>

#include "tensorsuite.h"
#include "format/format.h"

#define HDR	28	/* version, widths, order, nnz */

static int
bad(struct ts_decoder *dec, uint64_t off, enum ts_rule rule,
    const char *what, uint64_t v)
{
	ts_diag_off(dec->d, TS_SEV_ERROR, dec->file, (int64_t)off, rule,
	    what, (unsigned long long)v);
	return -1;
}

static int
frostt_bin_open(struct ts_decoder *dec)
{
	struct ts_header *h = &dec->h;
	struct ts_colfile f = { HDR, 0, 0, true };
	unsigned char p[8 * TS_MAXORDER];
	uint64_t v, order;
	int m;

	h->kind = TS_KIND_FROSTT_BIN;
	if (ts_cols_reader(dec) != 0 || ts_cols_read(dec, p, HDR, 0) != 0)
		return -1;
	if ((v = ts_cols_le(p, 4)) == 0)
		return bad(dec, 0, TS_RULE_X1, "version %llu: SPLATT's binary "
		    "starts so (--from splatt-bin); FROSTT's binary format "
		    "is read in version 1", v);
	if (v != 1)
		return bad(dec, 0, TS_RULE_X1, "version %llu: FROSTT's binary "
		    "format is read in version 1", v);
	if ((v = ts_cols_le(p + 4, 4)) != 4 && v != 8)
		return bad(dec, 4, TS_RULE_H3, "index width %llu: FROSTT's "
		    "indices have 4 or 8 bytes", v);
	f.iw = (unsigned)v;
	if ((v = ts_cols_le(p + 8, 4)) != 4 && v != 8)
		return bad(dec, 8, TS_RULE_H3, "value width %llu: FROSTT's "
		    "values have 4 or 8 bytes", v);
	f.vw = (unsigned)v;
	order = ts_cols_le(p + 12, 8);
	if (order < 1 || order > TS_MAXORDER)
		return bad(dec, 12, TS_RULE_H3, "order %llu: 1 to 64 modes "
		    "are read", order);
	h->order = (int)order;
	h->nnz = ts_cols_le(p + 20, 8);
	f.hdr = HDR + order * f.iw;
	if (ts_cols_read(dec, p, order * f.iw, HDR) != 0)
		return -1;
	for (m = 0; m < h->order; m++) {
		h->dims[m] = ts_cols_le(p + (size_t)m * f.iw, f.iw);
		if (h->dims[m] == 0 || h->dims[m] > TS_DIM_MAX)
			return bad(dec, HDR + (uint64_t)m * f.iw, TS_RULE_H3,
			    h->dims[m] == 0 ? "dimension %llu: a mode has at "
			    "least one index" : "dimension %llu is beyond "
			    "2^63-1, the largest metadata can state",
			    h->dims[m]);
	}
	h->base = 0;
	return ts_cols_start(dec, &f);
}

const struct ts_decoder_ops ts_frostt_bin_decoder = {
	"FROSTT binary", frostt_bin_open, ts_cols_next, ts_cols_close
};

/* As the page says: 8 bytes when a dimension needs them. */
static unsigned
frostt_bin_iwidth(const struct ts_header *h)
{
	int m;

	for (m = 0; m < h->order; m++)
		if (h->dims[m] > UINT32_MAX)
			return 8;
	return 4;
}

static void
frostt_bin_header(struct ts_encoder *enc, unsigned iw, unsigned vw)
{
	struct ts_outbuf *o = enc->out;
	int m;

	ts_cols_put_le(o, 1, 4);
	ts_cols_put_le(o, iw, 4);
	ts_cols_put_le(o, vw, 4);
	ts_cols_put_le(o, (uint64_t)enc->h.order, 8);
	ts_cols_put_le(o, enc->n, 8);
	for (m = 0; m < enc->h.order; m++)
		ts_cols_put_le(o, enc->h.dims[m], iw);
}

static const struct ts_cols_fmt frostt_bin_fmt = {
	true, frostt_bin_iwidth, frostt_bin_header
};

static int
frostt_bin_enc_open(struct ts_encoder *enc)
{
	return ts_cols_enc_open(enc, &frostt_bin_fmt);
}

const struct ts_encoder_ops ts_frostt_bin_encoder = {
	"FROSTT binary", frostt_bin_enc_open, ts_cols_put, ts_cols_enc_close,
	NULL
};
