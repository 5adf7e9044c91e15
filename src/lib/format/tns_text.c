/*
 * tns_text.c - TensorSuite text (.tns): the decoder and the encoder of
 * its rows, which FROSTT files share (frostt.c).
 *
 * Decoding: bytes come in large reads into one reused buffer; only
 * complete lines are handed to the row parser, so it can rely on a '\n'
 * sentinel instead of checking the buffer end at every byte.  Rows are
 * parsed by hand (no stdio, no strtoull) straight into the caller's
 * batch, with 0-based coordinates, each value's text kept beside it.
 *
 * Encoding: rows assembled in the output buffer, small coordinates'
 * digits from a register (digits.h), values as the text they were read
 * from when the batch has it, else the shortest text that reads back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "num/digits.h"
#include "util/xalloc.h"

#define BUFSZ		(256u << 10)	/* fits in L2: the parser reads it hot */
#define LINE_MAX_ROW	((size_t)1 << 34)

/* Count the fields of a row (for inferring whether values are there). */
int
ts_text_countfields(const char *p)
{
	int n = 0;

	for (;;) {
		p = skipws(p);
		if (*p == '\n' || (*p == '\r' && p[1] == '\n'))
			return n;
		n++;
		/* A bare '\r' is a field's byte here, not an end: the
		 * scan must move past it. */
		do
			p++;
		while (!isdelim(*p));
	}
}

static void
rowerr(struct ts_rowctx *x, const char *row, const char *p, enum ts_rule rule,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
rowerr(struct ts_rowctx *x, const char *row, const char *p, enum ts_rule rule,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ts_vdiag(x->d, TS_SEV_ERROR, x->file, x->line, (uint64_t)(p - row) + 1,
	    -1, rule, fmt, ap);
	va_end(ap);
}

/* Describe a token for a message, cut short and made printable. */
static const char *
tokstr(const char *p, char *buf, size_t n)
{
	size_t i = 0;

	while (i + 4 < n && !isdelim(p[i])) {
		buf[i] = (p[i] >= ' ' && p[i] < 0x7f) ? p[i] : '?';
		i++;
	}
	if (!isdelim(p[i]))
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

/*
 * Parse one value at p.  Returns the end of the token, or NULL after
 * reporting a problem.
 */
static const char *
parse_value(struct ts_rowctx *x, const char *row, const char *p,
    const char *end, double *fv, int64_t *iv)
{
	const struct ts_vtype_info *vt = ts_vtype_info(x->lay->vtype);
	char tb[48];
	const char *q;
	int why;

	q = vt->parse(p, end, fv, iv, &why);
	/* Digits past an integer's range are that, whatever follows. */
	if (why == TS_VTYPE_RANGE && (vt->is_int || isdelim(*q))) {
		rowerr(x, row, p, TS_RULE_S5, vt->is_int ? "value '%s' is out "
		    "of the range of %s" : "value '%s' overflows %s",
		    tokstr(p, tb, sizeof(tb)), vt->name);
		return NULL;
	}
	if (why == TS_VTYPE_OK && isdelim(*q))
		return q;
	rowerr(x, row, p, vt->is_int ? TS_RULE_S5 : TS_RULE_E2, "value '%s' is "
	    "not %s", tokstr(p, tb, sizeof(tb)), vt->is_int ? "an integer" :
	    "a number");
	return NULL;
}

/*
 * Parse one row starting at p (a complete line, '\n' at its end).  Adds
 * an entry to b when the row is good.  Returns the start of the next
 * line.
 */
const char *
ts_text_row(struct ts_rowctx *x, struct ts_batch *b, const char *p,
    const char *end)
{
	struct ts_layout *lay = x->lay;
	const char *row = p, *s;
	uint64_t *c = b->coords + b->n * (size_t)b->order;
	const uint64_t base = (uint64_t)lay->base;
	int k, order = b->order;
	char tb[48];

	p = skipws(p);
	if (*p == '\n' || *p == '#' || (*p == '\r' && p[1] == '\n')) {
		bool blank = *p != '#';

		if (lay->kind == TS_KIND_FROSTT)
			;	/* FROSTT allows comments anywhere */
		else if (x->w->defer) {
			uint64_t *first = blank ? &x->w->blank_line :
			    &x->w->comment_line;

			if (*first == 0)
				*first = x->line;
		} else if (blank ? !x->w->blank : !x->w->comment) {
			ts_diag(x->d, TS_SEV_WARNING, x->file, x->line, 1,
			    TS_RULE_E1, blank ? "blank line between entries" :
			    "comment line between entries");
			if (blank)
				x->w->blank = true;
			else
				x->w->comment = true;
		}
		goto next;
	}
	if (*p == '%' && lay->kind != TS_KIND_FROSTT) {
		rowerr(x, row, p, TS_RULE_H5, "a header line after the size "
		    "line%s", lay->block ? " and the partition lines" : "");
		goto next;
	}
	x->rows++;
	if (lay->values < 0)
		lay->values = ts_text_countfields(p) == order + 1;
	for (k = 0; k < order; k++) {
		uint64_t v;

		s = p;
		v = (uint64_t)(*p - '0');
		if (v > 9) {
			if (*p == '\n' || *p == '\r')
				rowerr(x, row, p, TS_RULE_E1, "row has %d "
				    "coordinates; the tensor has order %d", k,
				    order);
			else
				rowerr(x, row, p, *p == '-' ? TS_RULE_S1 :
				    TS_RULE_E1, "coordinate '%s' is not an "
				    "unsigned integer", tokstr(p, tb,
				    sizeof(tb)));
			goto next;
		}
		p++;
		while ((unsigned)(*p - '0') < 10)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (p - s > 19) {
			const char *q = s;
			uint64_t chk;

			if (parse_u64(&q, p, &chk) != 0) {
				rowerr(x, row, s, TS_RULE_S1, "coordinate "
				    "'%s' is too large", tokstr(s, tb,
				    sizeof(tb)));
				goto next;
			}
		}
		if (!isdelim(*p)) {
			rowerr(x, row, s, TS_RULE_E1, "coordinate '%s' is not "
			    "an unsigned integer", tokstr(s, tb, sizeof(tb)));
			goto next;
		}
		c[k] = v - base;
		p = skipws(p);
	}
	if (lay->values) {
		if (*p == '\n' || *p == '\r') {
			rowerr(x, row, p, TS_RULE_S6, "row has no value; "
			    "'values_provided' is true");
			goto next;
		}
		s = parse_value(x, row, p, end, &b->fval[b->n],
		    &b->ival[b->n]);
		if (s == NULL)
			goto next;
		b->vtext[b->n] = p;
		b->vlen[b->n] = (uint32_t)(s - p);
		p = skipws(s);
	}
	if (*p == '\r' && p[1] == '\n') {
		ts_warn_crlf(x->d, x->file, x->line, x->w, TS_RULE_E1);
		p++;
	}
	if (*p != '\n') {
		if (!lay->values && ts_text_countfields(row) == order + 1)
			rowerr(x, row, p, TS_RULE_S6, "row has a value; "
			    "'values_provided' is false");
		else
			rowerr(x, row, p, TS_RULE_E1, "row has %d fields; "
			    "expected %d", ts_text_countfields(row), order +
			    (lay->values ? 1 : 0));
		goto next;
	}
	b->loc[b->n] = x->line;
	b->row[b->n] = row;
	b->n++;
next:
	x->line++;
	p = memchr(p, '\n', (size_t)(end - p));
	return p + 1;
}

long
ts_text_next(struct ts_decoder *dec, struct ts_batch *b)
{
	struct ts_tns_state *t = dec->state;
	struct ts_lines *L = &t->L;
	struct ts_rowctx x;
	const char *p, *lim;
	char *nl;

	if (t->par != NULL)
		return ts_par_next(t->par, dec, b);
	/*
	 * Once the first rows have said whether they hold values, the rest
	 * of a large regular file is parsed by threads, in chunks.
	 */
	if (!t->par_tried && dec->rows > 0 && dec->lay.values >= 0) {
		int64_t size = ts_source_size(dec->src);

		t->par_tried = true;
		if (dec->threads > 1 && size >= 0 && (uint64_t)size >
		    L->off + 8 * ts_par_chunk() && ts_source_pread(dec->src,
		    NULL, 0, 0) == 0)
			t->par = ts_par_start(dec, L->off, L->line,
			    dec->threads, b->cap);
		if (t->par != NULL)
			return ts_par_next(t->par, dec, b);
	}
	x.d = dec->d;
	x.file = dec->file;
	x.lay = &dec->lay;
	x.w = &t->w;
	x.scan = t->scan;
	x.classes = dec->classes;
	/*
	 * A read may hold nothing but skipped lines (blank, comments) or
	 * bad rows: read on until the batch has an entry, as 0 says the
	 * end.
	 */
	while (b->n == 0) {
		/* The last complete line in the buffer bounds the parse. */
		if ((nl = ts_lines_lastnl(L)) == NULL) {
			if (L->failed)
				return -1;
			if (L->eof) {
				if (L->pos == L->len)
					return 0;
				/* A last row without a final newline. */
				L->buf[L->len++] = '\n';
			} else if (ts_lines_fill(L, LINE_MAX_ROW) < 0)
				return -1;
			continue;
		}
		p = L->buf + L->pos;
		lim = nl + 1;
		x.line = L->line;
		x.rows = dec->rows;
		p = ts_text_scan(&x, b, p, lim);
		L->line = x.line;
		dec->rows = x.rows;
		L->off += (uint64_t)(p - (L->buf + L->pos));
		L->pos = (size_t)(p - L->buf);
		dec->off = L->off;
	}
	b->texts = dec->lay.values > 0;
	return (long)b->n;
}

static int
tns_open(struct ts_decoder *dec)
{
	ts_tns_state_new(dec, BUFSZ);
	if (ts_tns_read_header(dec) != 0)
		return -1;
	/* From now on: the line number of the next row. */
	((struct ts_tns_state *)dec->state)->L.line++;
	dec->off = dec->h.bytes;
	return 0;
}

const struct ts_decoder_ops ts_tns_decoder = {
	"TensorSuite text", tns_open, ts_text_next, ts_tns_close
};

/* ---- encoding ---- */

/* The rows of b at the end of o (the encoder's output, or a chunk's
 * buffer of the parallel printer). */
void
ts_text_rows(const struct ts_encoder *enc, const struct ts_batch *b,
    struct ts_outbuf *o)
{
	const uint64_t base = (uint64_t)enc->lay.base;
	const int order = enc->h.order;
	const bool values = enc->lay.values > 0;
	/* Text in, text out: the value as it was written, unless the
	 * caller asked for another style. */
	const bool copy = values && b->texts &&
	    enc->o.valfmt == TS_VALFMT_SHORTEST;
	const struct ts_vtype_info *vt = ts_vtype_info(enc->lay.vtype);
	/* The reference writer's %.16e, for floats. */
	const bool e16 = enc->o.valfmt == TS_VALFMT_E16 && !vt->is_int;
	size_t i;
	int k;

	/*
	 * The common rows, shortest float64 values: room for 256 of them at
	 * once, and no test of the layout per row.
	 */
	if (values && !copy && enc->lay.vtype == TS_VTYPE_FLOAT64 &&
	    enc->o.valfmt == TS_VALFMT_SHORTEST) {
		const size_t room = (size_t)(order + 1) * (TS_NUMBUF + 1);
		size_t j, m;

		for (i = 0; i < b->n; i += m) {
			char *p, *p0;

			m = b->n - i < 256 ? b->n - i : 256;
			ts_outbuf_need(o, m * room);
			p = p0 = ts_outbuf_ptr(o);
			for (j = i; j < i + m; j++) {
				const uint64_t *c = b->coords + j *
				    (size_t)order;

				for (k = 0; k < order; k++) {
					p += ts_put_uint(p, c[k] + base);
					*p++ = ' ';
				}
				p += ts_fmt_double(p, b->fval[j]);
				*p++ = '\n';
			}
			ts_outbuf_done(o, (size_t)(p - p0));
		}
		return;
	}
	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;
		char *p, *p0;

		ts_outbuf_need(o, (size_t)(order + 1) * (TS_NUMBUF + 1) +
		    (copy ? b->vlen[i] : 0));
		p = p0 = ts_outbuf_ptr(o);
		for (k = 0; k < order; k++) {
			p += ts_put_uint(p, c[k] + base);
			*p++ = ' ';
		}
		if (copy) {
			memcpy(p, b->vtext[i], b->vlen[i]);
			p += b->vlen[i];
			*p++ = '\n';
		} else if (values) {
			p += e16 ? ts_fmt_double_e16(p, b->fval[i]) :
			    vt->print(p, b->fval[i], b->ival[i]);
			*p++ = '\n';
		} else if (enc->lay.kind == TS_KIND_FROSTT ||
		    enc->lay.kind == TS_KIND_HIPARTI) {
			*p++ = '1';	/* SPEC E5 */
			*p++ = '\n';
		} else
			p[-1] = '\n';
		ts_outbuf_done(o, (size_t)(p - p0));
	}
}

int
ts_text_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	return ts_print(enc, b);
}

static int
tns_enc_open(struct ts_encoder *enc)
{
	ts_tns_write_header(enc);
	return 0;
}

static int
tns_enc_close(struct ts_encoder *enc)
{
	(void)enc;
	return 0;
}

const struct ts_encoder_ops ts_tns_encoder = {
	"TensorSuite text", tns_enc_open, ts_text_put, tns_enc_close,
	ts_text_rows
};
