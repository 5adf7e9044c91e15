/*
 * mtx_write.c - the Matrix Market encoder: "%%MatrixMarket matrix
 * coordinate FIELD SYMMETRY", FIELD real for float values, integer for
 * integer ones, pattern without values; values as the text they were
 * read from when the batch has it, else the shortest text that reads
 * back.  The encoder's comment, if any, follows the banner as '%' lines.
 * SYMMETRY is general, or, when the caller knows the matrix is so
 * (ts_encode_opts' mtx_sym), symmetric or skew-symmetric: then only the
 * lower triangle (row >= column) is written, as the SuiteSparse Matrix
 * Collection ships its matrices, and the entries above the diagonal the
 * encoder is given are dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "format/mtx.h"
#include "num/digits.h"
#include "util/xalloc.h"

struct mtxw {
	enum ts_mtx_field	 field;
	uint64_t		 n;	/* entries written */
};

static int
mtx_enc_open(struct ts_encoder *enc)
{
	static const char *const names[] = { "real", "integer", "pattern" };
	static const char *const syms[] = { " general\n", " symmetric\n",
	    " skew-symmetric\n" };
	struct ts_outbuf *o = enc->out;
	const char *comment = enc->o.comment;
	struct mtxw *w;

	if (enc->h.order != 2 || enc->lay.block || enc->o.mtx_sym < 0 ||
	    enc->o.mtx_sym > TS_MTX_SKEW || (enc->o.mtx_sym != 0 &&
	    enc->h.dims[0] != enc->h.dims[1])) {
		errno = EINVAL;
		return -1;
	}
	w = ts_xcalloc(1, sizeof(*w));
	enc->state = w;
	w->field = enc->lay.values <= 0 ? TS_MTX_PATTERN :
	    ts_vtype_info(enc->lay.vtype)->is_int ? TS_MTX_INTEGER :
	    TS_MTX_REAL;
	ts_outbuf_puts(o, "%%MatrixMarket matrix coordinate ");
	ts_outbuf_puts(o, names[w->field]);
	if (w->field == TS_MTX_PATTERN && enc->o.mtx_sym == TS_MTX_SKEW) {
		free(w);
		enc->state = NULL;
		errno = EINVAL;
		return -1;
	}
	ts_outbuf_puts(o, syms[enc->o.mtx_sym]);
	/* Each line of the comment becomes '%' and the line, so a reader
	 * that drops the '%' (as fmm does) gets the comment back. */
	while (comment != NULL && *comment != '\0') {
		size_t n = strcspn(comment, "\n");

		ts_outbuf_write(o, "%", 1);
		ts_outbuf_write(o, comment, n);
		ts_outbuf_write(o, "\n", 1);
		comment += n + (comment[n] == '\n');
	}
	ts_outbuf_putu(o, enc->h.dims[0], ' ');
	ts_outbuf_putu(o, enc->h.dims[1], ' ');
	ts_outbuf_putu(o, enc->h.nnz, '\n');
	return 0;
}

/*
 * Append the entries of b.  A batch that does not fit the file (a
 * coordinate outside the size, missing or float values for an integer
 * file, more entries than announced) is refused whole with EINVAL; a
 * failed write gives its errno.
 */
static int
mtx_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	struct mtxw *w = enc->state;
	size_t i, n = b->n;

	if (enc->o.mtx_sym != 0 && b->order == 2)
		for (i = n = 0; i < b->n; i++)
			n += b->coords[2 * i] >= b->coords[2 * i + 1];
	if (b->order != 2 || n > enc->h.nnz - w->n ||
	    (w->field != TS_MTX_PATTERN && !b->has_values) ||
	    (w->field == TS_MTX_INTEGER && !b->is_int)) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < b->n; i++)
		if (b->coords[2 * i] >= enc->h.dims[0] ||
		    b->coords[2 * i + 1] >= enc->h.dims[1]) {
			errno = EINVAL;
			return -1;
		}
	w->n += n;
	return ts_print(enc, b);
}

/* The rows of b at the end of o (the encoder's output, or a chunk's
 * buffer of the parallel printer). */
static void
mtx_rows(const struct ts_encoder *enc, const struct ts_batch *b,
    struct ts_outbuf *o)
{
	const struct mtxw *w = enc->state;
	const bool copy = b->texts && enc->o.valfmt == TS_VALFMT_SHORTEST;
	size_t i;

	for (i = 0; i < b->n; i++) {
		char *p, *p0;

		if (enc->o.mtx_sym != 0 && b->coords[2 * i] <
		    b->coords[2 * i + 1])
			continue;
		ts_outbuf_need(o, 3 * (TS_NUMBUF + 1));
		p = p0 = ts_outbuf_ptr(o);
		p += ts_put_uint(p, b->coords[2 * i] + 1);
		*p++ = ' ';
		p += ts_put_uint(p, b->coords[2 * i + 1] + 1);
		if (w->field != TS_MTX_PATTERN) {
			*p++ = ' ';
			/* Text in, text out: a value keeps its bytes (a
			 * short token fits the room made above). */
			if (copy && b->vlen[i] <= TS_NUMBUF) {
				memcpy(p, b->vtext[i], b->vlen[i]);
				p += b->vlen[i];
			} else
				p += b->is_int ? ts_fmt_i64(p, b->ival[i]) :
				    ts_fmt_double(p, b->fval[i]);
		}
		*p++ = '\n';
		ts_outbuf_done(o, (size_t)(p - p0));
	}
}

/* Fewer entries than the size line announces would not read back:
 * EINVAL (the count is the size line's, which text and binary files
 * also check in encoder.c). */
static int
mtx_enc_close(struct ts_encoder *enc)
{
	struct mtxw *w = enc->state;
	int rv = 0;

	if (w != NULL && w->n != enc->h.nnz) {
		errno = EINVAL;
		rv = -1;
	}
	free(w);
	enc->state = NULL;
	return rv;
}

const struct ts_encoder_ops ts_mtx_encoder = {
	"Matrix Market", mtx_enc_open, mtx_put, mtx_enc_close, mtx_rows
};
