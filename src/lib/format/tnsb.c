/*
 * tnsb.c - TensorSuite binary (.tnsb): the text header (tns_header.c),
 * then fixed-size records of N coordinates of index_type and, when
 * values are provided, one value of value_type, packed, in the file's
 * endianness (SPEC E3).  Records are decoded straight from the read
 * buffer, which need not be aligned.
 */
#include <errno.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"

#define BUFSZ	(256u << 10)

static inline uint64_t
ld_u32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t
ld_u64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static int
tnsb_open(struct ts_decoder *dec)
{
	struct ts_tns_state *t = ts_tns_state_new(dec, BUFSZ);

	if (ts_tns_read_header(dec) != 0)
		return -1;
	if (dec->lay.values < 0) {
		ts_diag(dec->d, TS_SEV_ERROR, dec->file, 0, 0, TS_RULE_E3,
		    "a binary file cannot say whether it holds values");
		return -1;
	}
	t->recsz = (size_t)dec->h.order * ts_itype_size(dec->lay.itype) +
	    (dec->lay.values ? ts_vtype_size(dec->lay.vtype) : 0);
	t->swap = (dec->lay.endian == TS_ENDIAN_BIG) == ts_host_little();
	dec->off = dec->h.bytes;
	return 0;
}

static long
tnsb_next(struct ts_decoder *dec, struct ts_batch *b)
{
	struct ts_tns_state *t = dec->state;
	struct ts_lines *L = &t->L;
	const size_t isz = ts_itype_size(dec->lay.itype), rs = t->recsz;
	const uint64_t base = (uint64_t)dec->lay.base;
	const int order = b->order;
	const bool swap = t->swap;
	const unsigned char *rec;
	uint64_t *c;
	size_t avail, i, n;
	int k;

	while (L->len - L->pos < rs && !L->eof && !L->failed)
		if (ts_lines_fill(L, BUFSZ) < 0)
			return -1;
	if (L->failed)
		return -1;
	avail = (L->len - L->pos) / rs;
	if (avail == 0) {
		if (L->len > L->pos) {
			ts_diag_off(dec->d, TS_SEV_ERROR, dec->file,
			    (int64_t)L->off, TS_RULE_X8, "file ends inside a "
			    "record (%zu of %zu bytes)", L->len - L->pos, rs);
			L->off += L->len - L->pos;
			L->pos = L->len;
		}
		dec->off = L->off;
		return 0;
	}
	n = avail < b->cap - b->n ? avail : b->cap - b->n;
	rec = (const unsigned char *)L->buf + L->pos;
	c = b->coords + b->n * (size_t)order;
	/* Coordinates, then values, then locations, each in a loop of its
	 * own: the layout's tests stay out of the loops, and the common
	 * records (host order, 32-bit indices) take the first. */
	if (!swap && isz == 4 && order == 3)	/* most tensors: unrolled */
		for (i = 0; i < n; i++, c += 3) {
			c[0] = ld_u32(rec + i * rs, false) - base;
			c[1] = ld_u32(rec + i * rs + 4, false) - base;
			c[2] = ld_u32(rec + i * rs + 8, false) - base;
		}
	else if (!swap && isz == 4)
		for (i = 0; i < n; i++, c += order)
			for (k = 0; k < order; k++)
				c[k] = ld_u32(rec + i * rs + 4 * (size_t)k,
				    false) - base;
	else if (isz == 4)
		for (i = 0; i < n; i++, c += order)
			for (k = 0; k < order; k++)
				c[k] = ld_u32(rec + i * rs + 4 * (size_t)k,
				    true) - base;
	else
		for (i = 0; i < n; i++, c += order)
			for (k = 0; k < order; k++)
				c[k] = ld_u64(rec + i * rs + 8 * (size_t)k,
				    swap) - base;
	if (dec->lay.values)
		ts_vtype_info(dec->lay.vtype)->load(rec + (size_t)order * isz,
		    rs, n, swap, b->fval + b->n, b->ival + b->n);
	for (i = 0; i < n; i++) {
		b->loc[b->n + i] = L->off + i * rs;
		b->row[b->n + i] = NULL;
	}
	b->n += n;
	L->pos += n * rs;
	L->off += n * rs;
	dec->off = L->off;
	dec->rows += n;
	return (long)b->n;
}

const struct ts_decoder_ops ts_tnsb_decoder = {
	"TensorSuite binary", tnsb_open, tnsb_next, ts_tns_close
};

/* ---- encoding ---- */

static inline void
st32(char *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static inline void
st64(char *p, uint64_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static int
tnsb_enc_open(struct ts_encoder *enc)
{
	ts_tns_write_header(enc);
	return 0;
}

/*
 * The records of b: as many at a time as the output buffer holds, each
 * field in a loop of its own (the layout's tests out of the loops), so
 * that the common records, host order and 32-bit indices, go at the
 * speed of the stores.
 */
static int
tnsb_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	const uint64_t base = (uint64_t)enc->lay.base;
	const size_t isz = ts_itype_size(enc->lay.itype);
	const int order = enc->h.order;
	const bool values = enc->lay.values > 0;
	const bool swap = (enc->lay.endian == TS_ENDIAN_BIG) == ts_host_little();
	const size_t rs = (size_t)order * isz + (values ?
	    ts_vtype_size(enc->lay.vtype) : 0);
	struct ts_outbuf *o = enc->out;
	size_t at = 0, i, n;
	int k;

	while (at < b->n) {
		const uint64_t *c = b->coords + at * (size_t)order;
		char *p, *v;

		ts_outbuf_need(o, rs);
		n = (o->cap - o->len) / rs;
		if (n > b->n - at)
			n = b->n - at;
		p = ts_outbuf_ptr(o);
		if (!swap && isz == 8 && !values)
			/* Records that are the coordinates, as the batch
			 * holds them: one run of words. */
			for (i = 0; i < n * (size_t)order; i++)
				st64(p + 8 * i, c[i] + base, false);
		else if (!swap && isz == 8)
			for (i = 0; i < n; i++, c += order)
				for (k = 0; k < order; k++)
					st64(p + i * rs + 8 * (size_t)k,
					    c[k] + base, false);
		else if (!swap && isz == 4)
			for (i = 0; i < n; i++, c += order)
				for (k = 0; k < order; k++)
					st32(p + i * rs + 4 * (size_t)k,
					    (uint32_t)(c[k] + base), false);
		else
			for (i = 0; i < n; i++, c += order)
				for (k = 0; k < order; k++) {
					if (isz == 8)
						st64(p + i * rs + 8 * (size_t)k,
						    c[k] + base, swap);
					else
						st32(p + i * rs + 4 * (size_t)k,
						    (uint32_t)(c[k] + base),
						    swap);
				}
		v = p + (size_t)order * isz;
		if (values)
			ts_vtype_info(enc->lay.vtype)->store((unsigned char *)v,
			    rs, n, swap, b->fval + at, b->ival + at);
		ts_outbuf_done(o, n * rs);
		at += n;
	}
	if (ts_outbuf_error(o) != 0) {
		errno = ts_outbuf_error(o);
		return -1;
	}
	return 0;
}

static int
tnsb_enc_close(struct ts_encoder *enc)
{
	(void)enc;
	return 0;
}

const struct ts_encoder_ops ts_tnsb_encoder = {
	"TensorSuite binary", tnsb_enc_open, tnsb_put, tnsb_enc_close, NULL
};
