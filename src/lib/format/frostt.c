/*
 * frostt.c - FROSTT .tns files: rows of coordinates and a value, no
 * header, '#' comments anywhere.  The rows are TensorSuite text's
 * (tns_text.c); what is FROSTT's own is that the order comes from the
 * first row, and that an entry without a value is written with the
 * value 1 (SPEC E5).
 */
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"

#define BUFSZ		(256u << 10)
#define LINE_MAX_HDR	(1u << 30)

/*
 * Skip leading comment and blank lines and take the order from the
 * first row, leaving that row unread.
 */
static int
frostt_open(struct ts_decoder *dec)
{
	struct ts_tns_state *t = ts_tns_state_new(dec, BUFSZ);
	struct ts_lines *L = &t->L;
	struct ts_header *h = &dec->h;
	uint64_t off, line;
	size_t len;
	bool crlf;
	char *s;
	int n;

	h->kind = TS_FROSTT;
	for (;;) {
		off = L->off;
		line = L->line;
		if ((s = ts_lines_get(L, &len, &crlf, LINE_MAX_HDR)) == NULL) {
			if (L->failed)
				return -1;
			ts_diag(dec->d, TS_ERROR, dec->file, 0, 0, "", "no "
			    "entries: the order of a FROSTT file comes from "
			    "its first row");
			return -1;
		}
		if (crlf)
			ts_tns_crlf_warn(dec, "H1");
		n = ts_text_countfields(s);
		if (n > 0 && s[strspn(s, " \t")] != '#')
			break;
	}
	/* Unread the row (the buffer may have moved: s is current). */
	L->pos = (size_t)(s - L->buf);
	L->off = off;
	L->line = line;
	if (dec->lay.values < 0)
		dec->lay.values = 1;
	h->order = n - dec->lay.values;
	if (h->order < 1 || h->order > TS_MAXORDER) {
		ts_diag(dec->d, TS_ERROR, dec->file, line + 1, 1, "", "the "
		    "first row has %d fields: not a tensor of order 1..%d%s",
		    n, TS_MAXORDER, dec->lay.values ? " with values" : "");
		return -1;
	}
	h->bytes = off;
	h->lines = line;
	L->line++;	/* from now on: the line number of the next row */
	dec->off = off;
	return 0;
}

const struct ts_decoder_ops ts_frostt_decoder = {
	"FROSTT", frostt_open, ts_text_next, ts_tns_close
};

static int
frostt_enc_open(struct ts_encoder *enc)
{
	(void)enc;
	return 0;	/* FROSTT: no header */
}

static int
frostt_enc_close(struct ts_encoder *enc)
{
	(void)enc;
	return 0;
}

const struct ts_encoder_ops ts_frostt_encoder = {
	"FROSTT", frostt_enc_open, ts_text_put, frostt_enc_close
};
