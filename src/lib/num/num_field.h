/*
 * num_field.h - a float64 field of text whose end is known, parsed with
 * SSE2 vectors where it is a plain decimal of at most 19 digits (the
 * shortest round-trip doubles of real tensors, "0.22817904559846147",
 * and the short ones, "-3.5", "12"); anything else (an exponent, more
 * digits, inf or nan, a bad byte) goes to ts_parse_double, and so does
 * every field where SSE2 is missing.  Inline, for the row scanner
 * (format/scan.c): its fields end at the separators of its bitmap, and
 * the call would cost a good part of what a field's parse gains.
 *
 * The 32 bytes before the field's end are loaded at once, so that the
 * literal lies in the top lanes whatever its length: no search for its
 * end, no loop over its digits.  Lane masks say which bytes are digits
 * and which a point; the integer digits move one lane up over the point
 * (a shift and a blend), and pmaddwd folds the 19 lanes below the end
 * into three values of 8 digits.  The significand w < 10^19 and the
 * count F of fraction digits give w * 10^-F, rounded by Eisel-Lemire:
 * for these exponents the product is never subnormal nor infinite, and
 * the one case that the truncated power of five leaves undecided goes
 * to ts_parse_double too.  The results are ts_parse_double's, bit for
 * bit (tests/unit/test_num.c compares both with the exact parser).
 *
 * Internal to libtensorsuite (not installed).
 */
#ifndef TS_NUM_FIELD_H
#define TS_NUM_FIELD_H

#include <stdint.h>
#include <string.h>

#include "tsnum.h"
#include "num/num_bits.h"

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define TS_FIELD_SSE2	1
#else
#define TS_FIELD_SSE2	0
#endif

/* floor(5^q * 2^s) in [2^127, 2^128), q = TS_POW5_QMIN.., {high, low};
 * truncated, never rounded up (num_parse.c). */
#define TS_POW5_QMIN	(-342)
extern const uint64_t ts_pow5_tab[651][2];

/* 32 zero bytes, then 32 bytes 0xFF (num_parse.c). */
extern const unsigned char ts_lane_tab[64];

/*
 * [p, e) as a whole float64 literal, as ts_parse_double reads it: 1 and
 * its value in *out, or 0 when it is not one.  The bytes from lo (at or
 * before p) to e are readable.  For the tests (num_parse.c).
 */
int	ts_parse_double_field(const char *lo, const char *p, const char *e,
	    double *out);

#if TS_FIELD_SSE2
/* The lanes i of 16 with n + i >= 32, as a mask; 0 <= n <= 48. */
static inline __m128i
ts_lanes_from(int n)
{
	return _mm_loadu_si128((const __m128i *)(const void *)(ts_lane_tab +
	    n));
}

/*
 * Eisel-Lemire for w * 10^-F, 1 <= w < 10^19, 1 <= F <= 19: the bits of
 * the double nearest, or 0 when undecided.  As eisel_lemire
 * (num_parse.c) for these exponents: the normal range, the power of five
 * truncated (so the exact product is in [P, P + 2^64) in units of P's
 * last bit, and strictly above P), rounding up exactly when the rounding
 * bit is set.  From the first of the two 64-bit products, P's top word
 * is at most one short, and one more can only reach the rounding bit
 * when every bit below it is set: only then is the second needed.
 */
static inline __attribute__((always_inline)) uint64_t
ts_field_el(uint64_t w, int F)
{
	const uint64_t *t = ts_pow5_tab[-F - TS_POW5_QMIN];
	uint64_t hi, mid, lo, b1, below, half;
	int lz, upper, ex, drop;

	lz = clz64(w);
	w <<= lz;
	mul64(w, t[0], &hi, &mid);
	upper = (int)(hi >> 63);
	drop = 10 + upper;	/* hi's top bit is 62 + upper; keep 53 */
	half = (uint64_t)1 << (drop - 1);
	below = hi & (2 * half - 1);
	if (__builtin_expect((below & (half - 1)) == half - 1, 0)) {
		mul64(w, t[1], &b1, &lo);
		mid += b1;
		hi += mid < b1;
		upper = (int)(hi >> 63);
		drop = 10 + upper;
		half = (uint64_t)1 << (drop - 1);
		below = hi & (2 * half - 1);
		if (below == half - 1 && mid == UINT64_MAX)
			return 0;
	}
	/* floor(log2(w * 10^-F)), by floor(-F log2 10) = -ceil(F * 217706 /
	 * 2^16); the exponent's field is ex + 1023, and a carry out of the
	 * significand rounded up bumps it. */
	ex = 63 + upper - lz - (int)(((uint32_t)F * 217706u + 65535u) >> 16);
	return ((uint64_t)(ex + 1023) << 52) + (hi >> drop) +
	    (below >> (drop - 1)) - ((uint64_t)1 << 52);
}

/*
 * [p, e) as a plain decimal, 1 <= e - p <= 21 and the 32 bytes before e
 * readable: 1 and its value in *out, or 0 when it is something else
 * (then ts_parse_double decides).
 */
static inline __attribute__((always_inline)) int
ts_field_sse2(const char *p, const char *e, double *out)
{
	const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
	const __m128i dotc = _mm_set1_epi8('.'), z = _mm_setzero_si128();
	const __m128i m1 = _mm_set1_epi32(10 | 1 << 16);
	const __m128i m2 = _mm_set1_epi32(100 | 1 << 16);
	const __m128i m3 = _mm_set1_epi32(10000 | 1 << 16);
	__m128i a, b, ta, tb, ma, mb;
	uint32_t dig, dot, in;
	uint64_t u, v, w, bits;
	int neg, L, nd, k, F;
	double x;

	neg = *p == '-';
	L = (int)(e - p) - (neg | (*p == '+'));
	a = _mm_loadu_si128((const __m128i *)(const void *)(e - 32));
	b = _mm_loadu_si128((const __m128i *)(const void *)(e - 16));
	ta = _mm_sub_epi8(a, zero);
	tb = _mm_sub_epi8(b, zero);
	/* Bit i for the byte e - 32 + i: digits, points, the literal's. */
	dig = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(ta,
	    nine), ta)) | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
	    _mm_min_epu8(tb, nine), tb)) << 16;
	dot = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, dotc)) |
	    (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, dotc)) << 16;
	in = (uint32_t)(~(uint64_t)0 << (32 - L));
	dot &= in;
	nd = L - (dot != 0);
	if (((in & ~(dig | dot)) | (dot & (dot - 1))) != 0 ||
	    (unsigned)(nd - 1) >= 19)
		return 0;
	/* The point in lane k, F digits after it.  Most values have one
	 * digit before it: that case is known from L, without waiting for
	 * the bit's index. */
	if (dot == (uint64_t)1 << (33 - L)) {
		k = 33 - L;
		F = L - 2;
	} else if (dot != 0) {
		k = __builtin_ctz(dot);
		F = 31 - k;
	} else {
		k = -1;
		F = 0;
	}
	/* The lanes up to the point take the lane below (the point's is
	 * overwritten, lane 0 gets a zero); then all but the top nd out. */
	ma = ts_lanes_from(31 - k);
	mb = ts_lanes_from(47 - k);
	tb = _mm_or_si128(_mm_and_si128(mb, tb), _mm_andnot_si128(mb,
	    _mm_or_si128(_mm_slli_si128(tb, 1), _mm_srli_si128(ta, 15))));
	ta = _mm_or_si128(_mm_and_si128(ma, ta), _mm_andnot_si128(ma,
	    _mm_slli_si128(ta, 1)));
	ta = _mm_and_si128(ta, ts_lanes_from(nd));
	tb = _mm_and_si128(tb, ts_lanes_from(nd + 16));
	/* Pairs, fours, eights: lanes 8-15 of ta, then the 16 of tb. */
	a = _mm_madd_epi16(_mm_unpackhi_epi8(ta, z), m1);
	ta = _mm_madd_epi16(_mm_unpacklo_epi8(tb, z), m1);
	tb = _mm_madd_epi16(_mm_unpackhi_epi8(tb, z), m1);
	ta = _mm_madd_epi16(_mm_packs_epi32(ta, tb), m2);
	a = _mm_madd_epi16(_mm_packs_epi32(a, a), m2);
	ta = _mm_madd_epi16(_mm_packs_epi32(ta, a), m3);
	u = (uint64_t)_mm_cvtsi128_si64(ta);
	v = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(ta, ta));
	w = (uint32_t)v * (uint64_t)10000000000000000 + (uint32_t)u *
	    (uint64_t)100000000 + (u >> 32);
	if (F == 0 || w == 0) {
		/* An integer: IEEE conversion rounds it correctly. */
		x = (double)w;
		memcpy(&bits, &x, sizeof bits);
	} else if ((bits = ts_field_el(w, F)) == 0)
		return 0;
	bits |= (uint64_t)neg << 63;
	memcpy(out, &bits, sizeof *out);
	return 1;
}
#endif

/* [p, e) as ts_parse_double reads it, when it is a whole literal: 1 and
 * its value in *out, else 0.  The bytes from lo (<= p) to e readable. */
static inline __attribute__((always_inline)) int
ts_field_double(const char *lo, const char *p, const char *e, double *out)
{
#if TS_FIELD_SSE2
	if (e - lo >= 32 && (size_t)(e - p) - 1 < 21 &&
	    ts_field_sse2(p, e, out))
		return 1;
#else
	(void)lo;
#endif
	return ts_parse_double(p, e, out) == e;
}

#endif
