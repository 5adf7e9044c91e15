/*
 * scan.c - the rows of TensorSuite text and FROSTT found a vector (or a
 * word) at a time.
 *
 * Most rows of a large file are alike: N unsigned coordinates and a
 * value, one space between fields, '\n' at the end.  For those, in two
 * steps: first the separators (' ' and '\n') of the next 4 KiB are found
 * at once, as a bitmap of one bit a byte, with AVX2 where the CPU has it
 * (asked at run time), SSE2 (the x86-64 baseline) or eight bytes in a
 * word anywhere else; then each field is the bytes between two bits.  A
 * coordinate of up to 16 digits is read eight digits at a time, with no
 * branch per digit; the value goes to the same number parser as the
 * byte-at-a-time parser's (num_parse.c), and must end exactly at its
 * field.  (The second step is plain C whatever made the bitmap: calling
 * the number parser from AVX2 code would cost a vzeroupper a row.)
 *
 * Anything else in a row (a tab, two spaces, '\r', a sign, a comment, a
 * long coordinate, a bad number, a row longer than the bitmap or too
 * close to the end of the buffer) sends that row, from its start, to
 * ts_text_row, the byte-at-a-time parser (tns_text.c): it decides what
 * every other row means and says what is wrong with it, so the entries
 * and the messages are the same whichever way a row went.  Nothing is
 * stored for a row until it is known good.
 *
 * TS_SCAN picks the way, for tests: "scalar" (every row byte at a
 * time), "swar" (words), "sse2", "avx2"; a way the CPU lacks gives the
 * best below it.
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "num/digits.h"
#include "num/num_field.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_X86	1
#else
#define HAVE_X86	0
#endif

#define BLK	64	/* bytes of a word of the bitmap */
#define NBLK	64	/* words of a bitmap: 4 KiB of text */
#define MARGIN	16	/* read past a separator by a field's loads */

#define INLINE	static inline __attribute__((always_inline))

int
ts_scan_kind(void)
{
	const char *e = getenv("TS_SCAN");
	int best = TS_SCAN_SCALAR, want;

#if TS_SWAR
	best = TS_SCAN_SWAR;
#if HAVE_X86
	best = TS_SCAN_SSE2;
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		best = TS_SCAN_AVX2;
#endif
#endif
	if (e == NULL || *e == '\0')
		return best;
	if (strcmp(e, "scalar") == 0)
		want = TS_SCAN_SCALAR;
	else if (strcmp(e, "swar") == 0)
		want = TS_SCAN_SWAR;
	else if (strcmp(e, "sse2") == 0)
		want = TS_SCAN_SSE2;
	else
		want = TS_SCAN_AVX2;
	return want < best ? want : best;
}

#if TS_SWAR

/* Where the separators are: bit i of bm[j] for the byte base[64 j +
 * i], nw words; word wi is being read, m its bits not yet used.  (The
 * words themselves are apart, so that the cursor stays in registers.) */
struct scan {
	const char	*base;
	const uint64_t	*bm;
	size_t		 nw, wi;
	uint64_t	 m;
};

typedef void bitmapfn(const char *, size_t, uint64_t *);

/*
 * Eight bytes at a time, portably: a byte of v ^ c*0x01..01 is zero
 * where v's byte is c; (t & 0x7f..) + 0x7f.. sets the high bit of each
 * byte that is not zero, with no carry out of a byte, so the high bits
 * left clear in t | that are exactly the zero bytes.  The multiply
 * gathers the eight high bits into the top byte.
 */
INLINE uint64_t
eq8(uint64_t v, uint64_t c)
{
	const uint64_t low7 = 0x7F7F7F7F7F7F7F7Fu;
	uint64_t t = v ^ c;

	return ~(((t & low7) + low7) | t | low7);
}

INLINE uint64_t
mask_swar(const char *p)
{
	uint64_t m = 0, v, h;
	int i;

	for (i = 0; i < BLK; i += 8) {
		v = ts_load8(p + i);
		h = eq8(v, 0x2020202020202020u) | eq8(v, 0x0A0A0A0A0A0A0A0Au);
		m |= ((h >> 7) * 0x0102040810204080u >> 56) << i;
	}
	return m;
}

#if HAVE_X86
INLINE uint64_t
mask_sse2(const char *p)
{
	const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
	uint64_t m = 0;
	int i;

	for (i = 0; i < BLK; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    (p + i));

		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl))) << i;
	}
	return m;
}

__attribute__((target("avx2"))) INLINE uint64_t
mask_avx2(const char *p)
{
	const __m256i sp = _mm256_set1_epi8(' '), nl = _mm256_set1_epi8('\n');
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)
	    (p + 32));
	uint32_t lo = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
	    _mm256_cmpeq_epi8(a, sp), _mm256_cmpeq_epi8(a, nl)));
	uint32_t hi = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
	    _mm256_cmpeq_epi8(b, sp), _mm256_cmpeq_epi8(b, nl)));

	return (uint64_t)lo | (uint64_t)hi << 32;
}
#endif

/* The bitmaps of n blocks of 64 bytes from p. */
static void
bitmap_swar(const char *p, size_t n, uint64_t *bm)
{
	size_t i;

	for (i = 0; i < n; i++)
		bm[i] = mask_swar(p + BLK * i);
}

#if HAVE_X86
static void
bitmap_sse2(const char *p, size_t n, uint64_t *bm)
{
	size_t i;

	for (i = 0; i < n; i++)
		bm[i] = mask_sse2(p + BLK * i);
}

__attribute__((target("avx2"))) static void
bitmap_avx2(const char *p, size_t n, uint64_t *bm)
{
	size_t i;

	for (i = 0; i < n; i++)
		bm[i] = mask_avx2(p + BLK * i);
}
#endif

/* Does the bitmap hold the byte at p? */
INLINE int
covers(const struct scan *s, const char *p)
{
	return s->nw > 0 && p >= s->base && (size_t)(p - s->base) < BLK *
	    s->nw;
}

/* Read the bitmap from p on. */
INLINE void
seek(struct scan *s, const char *p)
{
	size_t off = (size_t)(p - s->base);

	s->wi = off / BLK;
	s->m = s->bm[s->wi] & (~(uint64_t)0 << (off % BLK));
}

/* The next separator, or NULL past the end of the bitmap. */
INLINE const char *
nextsep(struct scan *s)
{
	while (__builtin_expect(s->m == 0, 0)) {
		if (++s->wi >= s->nw)
			return NULL;
		s->m = s->bm[s->wi];
	}
	return s->base + BLK * s->wi + __builtin_ctzll(s->m);
}

/* The separator nextsep gave is used. */
INLINE void
used(struct scan *s)
{
	s->m &= s->m - 1;
}

/* The 1..8 bytes at p as digits in the top of a word, zero bytes below
 * (the bytes after them, and what they borrowed, shifted out). */
INLINE uint64_t
digits_at(const char *p, size_t len)
{
	return (ts_load8(p) - 0x3030303030303030u) << (64 - 8 * len);
}

/* The coordinate [p, e) of 1..16 digits; 0 when it is something else. */
INLINE int
coord(const char *p, const char *e, uint64_t *v)
{
	size_t len = (size_t)(e - p);
	uint64_t a, b;

	if (__builtin_expect(len - 1 < 8, 1)) {
		a = digits_at(p, len);
		if (ts_nondigits8(a) != 0)
			return 0;
		*v = ts_val8d(a);
		return 1;
	}
	if (len - 9 >= 8)
		return 0;
	a = ts_load8(p) - 0x3030303030303030u;
	b = digits_at(p + 8, len - 8);
	if ((ts_nondigits8(a) | ts_nondigits8(b)) != 0)
		return 0;
	*v = ts_val8d(a) * ts_pow10_8[len - 8] + ts_val8d(b);
	return 1;
}

/* Is v infinite?  (A literal that is, written or rounded so, goes to
 * ts_text_row, which tells which.)  On the bits: no wait for a floating
 * compare. */
INLINE int
infinite(double v)
{
	uint64_t u;

	memcpy(&u, &v, 8);
	return (u << 1) == (uint64_t)0x7FF << 53;
}

/* Longer plain decimals are converted: up to this length none rounds
 * to zero or to infinity, not even as a float32 (< 10^38, >= 10^-36). */
#define CLASS_MAX	38

/*
 * Is [p, e) a plain decimal: digits, at most one point, a digit at
 * least, no sign, at most CLASS_MAX bytes?  Then 1 when a digit is not
 * zero, 0 when none is; else -1 (ts_decoder_value_classes).  A word at
 * a time, the point turned into a '0' first; up to 7 bytes past e are
 * read, within the margin.
 */
INLINE int
vclass(const char *p, const char *e)
{
	const uint64_t dots = 0x2E2E2E2E2E2E2E2Eu;
	const uint64_t zeros = 0x3030303030303030u;
	size_t len = (size_t)(e - p), i, r;
	uint64_t bad = 0, nz = 0, v, dm, d;
	int ndots = 0;

	if (len - 1 >= CLASS_MAX)
		return -1;
	for (i = 0; i < len; i += 8) {
		v = ts_load8(p + i);
		dm = eq8(v, dots);
		d = (v ^ (dm >> 7) * ('.' ^ '0')) - zeros;
		if ((r = len - i) < 8) {
			/* The bytes past e, and what they borrowed, out. */
			d <<= 64 - 8 * r;
			dm <<= 64 - 8 * r;
		}
		bad |= ts_nondigits8(d);
		nz |= d;
		if (dm != 0)
			ndots += (dm & (dm - 1)) != 0 ? 2 : 1;
	}
	if (bad != 0 || ndots > 1 || len == (size_t)ndots)
		return -1;
	return nz != 0;
}

#if HAVE_X86
/*
 * The same sixteen bytes at a time, for the ways that made the bitmap
 * with vectors (TS_SCAN_SSE2 and up): a bit a byte for the points, the
 * digits and the zeros.  The second load is made only for a literal of
 * more than 16 bytes, so that nothing past the margin is read.
 */
INLINE int
vclass_sse2(const char *p, const char *e)
{
	const __m128i dot = _mm_set1_epi8('.'), zero = _mm_set1_epi8('0');
	const __m128i nine = _mm_set1_epi8(9);
	size_t len = (size_t)(e - p);
	uint32_t dots, dig, zer, in;
	__m128i v, t;

	if (len - 1 >= 32)
		return vclass(p, e);
	v = _mm_loadu_si128((const __m128i *)(const void *)p);
	t = _mm_sub_epi8(v, zero);
	dots = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, dot));
	dig = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(t,
	    nine), t));
	zer = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero));
	if (len > 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
		t = _mm_sub_epi8(v, zero);
		dots |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, dot)) <<
		    16;
		dig |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_min_epu8(t, nine), t)) << 16;
		zer |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) <<
		    16;
	}
	in = (uint32_t)(((uint64_t)1 << len) - 1);
	dots &= in;
	dig &= in;
	if ((~(dig | dots) & in) != 0 || (dots & (dots - 1)) != 0 || dig == 0)
		return -1;
	return (dig & ~zer) != 0;
}
#endif

/* The class of [p, e) as the way of finding rows reads it: -1 when the
 * value is to be converted. */
INLINE int
class_of(int classes, const char *p, const char *e)
{
#if HAVE_X86
	if (classes > 1)
		return vclass_sse2(p, e);
#endif
	return classes ? vclass(p, e) : -1;
}

/* The value in [p, e), as ts_text_row reads it; 0 when it is not one
 * (or overflows, or is out of range): that row says why.  With classes
 * (ts_decoder_value_classes: 1 by words, 2 by vectors), a plain
 * decimal's class stands for it. */
INLINE int
value(const struct ts_layout *lay, int classes, int vec, const char *lo,
    const char *p, const char *e, const char *lim, double *fv, int64_t *iv)
{
	const struct ts_vtype_info *vt;
	const char *q;
	int c, why;

	/* float64, the common type: its digits parsed in place. */
	if (lay->vtype == TS_VTYPE_FLOAT64) {
		if ((c = class_of(classes, p, e)) >= 0) {
			*fv = c;
			return 1;
		}
		if (vec)
			return ts_field_double(lo, p, e, fv) &&
			    !infinite(*fv);
		q = ts_parse_double(p, lim, fv);
		return q == e && !infinite(*fv);
	}
	vt = ts_vtype_info(lay->vtype);
	if (!vt->is_int && (c = class_of(classes, p, e)) >= 0) {
		*fv = c;
		return 1;
	}
	/* An infinity of a float: the row's own reader says what it is. */
	q = vt->parse(p, e, fv, iv, &why);
	return q == e && why == TS_VTYPE_OK && (vt->is_int || !infinite(*fv));
}

enum { ROW_OK, ROW_OTHER, ROW_PAST };

/*
 * One row at p in the common form, into b: ROW_OK; ROW_OTHER when it is
 * not one, ROW_PAST when its separators are past the bitmap.  ord is
 * the order when it is a constant (the loop over the coordinates
 * unrolled), else 0.
 */
INLINE int
fast_row(struct ts_rowctx *x, struct ts_batch *b, const char **pp,
    const char *lim, struct scan *s, int ord)
{
	const struct ts_layout *lay = x->lay;
	const int order = ord > 0 ? ord : b->order, values = lay->values > 0;
	const uint64_t base = (uint64_t)lay->base;
	const size_t n = b->n;
	uint64_t *c = b->coords + n * (size_t)order, v;
	const char *row = *pp, *p = *pp, *e;
	int k;

	for (k = 0; k < order; k++) {
		if ((e = nextsep(s)) == NULL)
			return ROW_PAST;
		used(s);
		if (*e != (k < order - 1 || values ? ' ' : '\n') ||
		    !coord(p, e, &v))
			return ROW_OTHER;
		c[k] = v - base;
		p = e + 1;
	}
	if (values) {
		if ((e = nextsep(s)) == NULL)
			return ROW_PAST;
		used(s);
		if (*e != '\n' || e == p || !value(lay, !x->classes ? 0 :
		    x->scan >= TS_SCAN_SSE2 ? 2 : 1, x->scan >= TS_SCAN_SSE2,
		    s->base, p, e, lim, &b->fval[n], &b->ival[n]))
			return ROW_OTHER;
		b->vtext[n] = p;
		b->vlen[n] = (uint32_t)(e - p);
		p = e + 1;
	}
	b->loc[n] = x->line;
	b->row[n] = row;
	b->n = n + 1;
	x->line++;
	x->rows++;
	*pp = p;
	return ROW_OK;
}

/*
 * Rows from p into b, until it is full or p reaches lim (ord as for
 * fast_row), the bitmaps made by mk: a new one from the row that runs
 * past the last, so that a row is cut only when it is longer than a
 * bitmap (or the end is near: then ts_text_row reads it).
 */
INLINE const char *
rows_of(struct ts_rowctx *x, struct ts_batch *b, const char *p,
    const char *lim, bitmapfn *mk, uint64_t *bm, int ord)
{
	struct scan sc = { NULL, bm, 0, 0, 0 }, *s = &sc;
	bool synced = false;
	size_t nb;
	int r;

	while (b->n < b->cap && p < lim) {
		if (x->lay->values < 0)
			goto other;
		if (!synced) {
			if (!covers(s, p)) {
				nb = lim - p < BLK + MARGIN ? 0 :
				    (size_t)(lim - p - MARGIN) / BLK;
				if (nb == 0)
					goto other;
				s->nw = nb < NBLK ? nb : NBLK;
				s->base = p;
				mk(p, s->nw, bm);
			}
			seek(s, p);
			synced = true;
		}
		r = fast_row(x, b, &p, lim, s, ord);
		if (r == ROW_OK)
			continue;
		synced = false;
		if (r == ROW_PAST && p != s->base) {
			s->nw = 0;	/* a bitmap from this row on */
			continue;
		}
other:
		/* Not the common form: that row as ts_text_row sees it. */
		p = ts_text_row(x, b, p, lim);
		synced = false;
	}
	return p;
}

/* The orders of most tensors get their own copy of the loop. */
static const char *
rows(struct ts_rowctx *x, struct ts_batch *b, const char *p,
    const char *lim, bitmapfn *mk)
{
	uint64_t bm[NBLK];

	switch (b->order) {
	case 2:
		return rows_of(x, b, p, lim, mk, bm, 2);
	case 3:
		return rows_of(x, b, p, lim, mk, bm, 3);
	case 4:
		return rows_of(x, b, p, lim, mk, bm, 4);
	default:
		return rows_of(x, b, p, lim, mk, bm, 0);
	}
}
#endif	/* TS_SWAR */

const char *
ts_text_scan(struct ts_rowctx *x, struct ts_batch *b, const char *p,
    const char *lim)
{
	switch (x->scan) {
#if TS_SWAR
#if HAVE_X86
	case TS_SCAN_AVX2:
		return rows(x, b, p, lim, bitmap_avx2);
	case TS_SCAN_SSE2:
		return rows(x, b, p, lim, bitmap_sse2);
#endif
	case TS_SCAN_SWAR:
		return rows(x, b, p, lim, bitmap_swar);
#endif
	default:
		while (b->n < b->cap && p < lim)
			p = ts_text_row(x, b, p, lim);
		return p;
	}
}
