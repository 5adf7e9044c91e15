/*
 * hiparti.c - HiParTI's text (.tns, as its ptiLoadSparseTensor reads and
 * ptiDumpSparseTensor writes it): a line with the order, a line with
 * the dimensions, then one row per entry, the 1-based coordinates and a
 * value, as FROSTT's rows (tns_text.c).  Its reader has no room for
 * comments or a row without a value: a tensor without values is written
 * with the value 1 (SPEC E5).
 */
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"

#define BUFSZ		(256u << 10)
#define LINE_MAX_HDR	(1u << 30)

/* Line line of the header, its numbers into v: how many, or -1 (also
 * at the end of the file). */
static int
header_line(struct ts_decoder *dec, uint64_t *v)
{
	struct ts_tns_state *t = dec->state;
	size_t len;
	bool crlf;
	char *s;

	if ((s = ts_lines_get(&t->L, &len, &crlf, LINE_MAX_HDR)) == NULL)
		return -1;
	if (crlf)
		ts_tns_crlf_warn(dec, TS_RULE_H3);
	return ts_text_numbers(s, len, v);
}

static int
hiparti_open(struct ts_decoder *dec)
{
	struct ts_tns_state *t = ts_tns_state_new(dec, BUFSZ);
	struct ts_header *h = &dec->h;
	uint64_t v[TS_MAXORDER + 2];
	int k;

	h->kind = TS_KIND_HIPARTI;
	if (header_line(dec, v) != 1 || v[0] < 1 || v[0] > TS_MAXORDER) {
		if (!t->L.failed)
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 1, 1,
			    TS_RULE_H3, "HiParTI header: expected the order "
			    "(1 to 64) alone on line 1");
		return -1;
	}
	h->order = (int)v[0];
	if (header_line(dec, v) != h->order) {
		if (!t->L.failed)
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 2, 1,
			    TS_RULE_H3, "HiParTI header: expected the %d "
			    "dimensions on line 2", h->order);
		return -1;
	}
	for (k = 0; k < h->order; k++) {
		if (v[k] == 0 || v[k] > TS_DIM_MAX) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 2, 1,
			    TS_RULE_H3, "HiParTI header: dimension %llu of mode "
			    "%d is not in 1 to 2^63-1", (unsigned long long)v[k],
			    k + 1);
			return -1;
		}
		h->dims[k] = v[k];
	}
	h->dims_known = true;
	h->base = 1;
	dec->lay.base = 1;
	if (dec->lay.values < 0)
		dec->lay.values = 1;
	h->bytes = t->L.off;
	h->lines = t->L.line;
	t->L.line++;	/* from now on: the line number of the next row */
	dec->off = t->L.off;
	return 0;
}

const struct ts_decoder_ops ts_hiparti_decoder = {
	"HiParTI text", hiparti_open, ts_text_next, ts_tns_close
};

static int
hiparti_enc_open(struct ts_encoder *enc)
{
	int k;

	enc->lay.base = 1;
	ts_outbuf_putu(enc->out, (uint64_t)enc->h.order, '\n');
	for (k = 0; k < enc->h.order; k++)
		ts_outbuf_putu(enc->out, enc->h.dims[k], k + 1 < enc->h.order ?
		    ' ' : '\n');
	return 0;
}

static int
hiparti_enc_close(struct ts_encoder *enc)
{
	(void)enc;
	return 0;
}

const struct ts_encoder_ops ts_hiparti_encoder = {
	"HiParTI text", hiparti_enc_open, ts_text_put, hiparti_enc_close,
	ts_text_rows
};
