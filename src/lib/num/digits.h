/*
 * digits.h - decimal digits, inline: scanned (the number parser and the
 * sorter's value texts) and written (the small integers that coordinates
 * usually are, by the text writers).
 *
 * Internal to libtensorsuite (not installed).
 */
#ifndef TS_DIGITS_H
#define TS_DIGITS_H

#include <stdint.h>
#include <string.h>

#include "tsnum.h"

static inline int
ts_isdigit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/*
 * Eight digits at a time.  The byte order test keeps big-endian machines
 * (and unknown compilers) on the plain loop.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TS_SWAR 1

static inline uint64_t
ts_load8(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * Eight bytes as digits 0..9: d = word - "00000000".  A byte below '0'
 * borrows from the next one, but only the bytes after a bad one change
 * and the first bad byte is always seen: it is >= 0x80, or 0x0A..0x7F so
 * that adding 0x76 sets its high bit.  The high bits of the bytes that
 * are not digits (the first one exact; after it, any).
 */
static inline uint64_t
ts_nondigits8(uint64_t d)
{
	return (d | (d + 0x7676767676767676u)) & 0x8080808080808080u;
}

/*
 * The value of eight digits as bytes 0..9, the first in the low byte
 * (leading zero bytes are leading zeros): each pair in its even byte,
 * then two multiplies gather the four pairs.
 */
static inline uint64_t
ts_val8d(uint64_t d)
{
	const uint64_t mask = 0x000000FF000000FFu;
	const uint64_t mul1 = 100 + ((uint64_t)1000000 << 32);
	const uint64_t mul2 = 1 + ((uint64_t)10000 << 32);

	d = d * 10 + (d >> 8);
	return ((d & mask) * mul1 + ((d >> 16) & mask) * mul2) >> 32;
}

/* All eight bytes in '0'..'9'? */
static inline int
ts_all8dig(uint64_t v)
{
	return ts_nondigits8(v - 0x3030303030303030u) == 0;
}

/* The value of eight digits; the first character is the low byte. */
static inline uint64_t
ts_val8(uint64_t v)
{
	return ts_val8d(v - 0x3030303030303030u);
}

/* 10^n, n <= 8 (num_parse.c). */
extern const uint32_t ts_pow10_8[9];
#else
#define TS_SWAR 0
#endif

/*
 * Accumulate the digits from p into *wp (mod 2^64); returns the first
 * non-digit (or end).  Eight at a time while they last, then one by one:
 * adding the last few of a word at once (by its lowest bad byte, with
 * no branch on how many) was measured slower on the 16-17 digit values
 * of real tensors, whose tails are one or two digits.
 */
static inline __attribute__((always_inline)) const char *
ts_scan_digits(const char *p, const char *end, uint64_t *wp)
{
	uint64_t w = *wp;

#if TS_SWAR
	while (end - p >= 8) {
		uint64_t v = ts_load8(p);

		if (!ts_all8dig(v))
			break;
		w = w * 100000000u + ts_val8(v);
		p += 8;
	}
#endif
	while (p != end && ts_isdigit(*p)) {
		w = w * 10 + (unsigned char)(*p - '0');
		p++;
	}
	*wp = w;
	return p;
}

/*
 * ts_parse_double by comparisons of big integers alone, neither Clinger's
 * nor Eisel-Lemire's fast path trusted: for the tests of those
 * (num_parse.c).
 */
const char *ts_parse_double_exact(const char *s, const char *end,
    double *out);

/* "00" "01" ... "99" (num_fmt.c). */
extern const char ts_digit_pairs[201];

/* The digits of 0..9999 as byte values, the first in the low byte
 * (num_fmt.c). */
extern const uint32_t ts_digit_quads[10000];

/*
 * The decimal digits of v at p, no NUL; returns how many.  p must have
 * room for TS_NUMBUF bytes: below 10^8 eight bytes are stored whatever
 * the length (those past it are left for the caller to overwrite), from
 * two lookups of four digits: with no call and no branch on the length,
 * several times faster than ts_fmt_u64.
 */
static inline int
ts_put_uint(char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (v < 100000000) {
		/* The leading zeros are the low zero bytes: shifting them
		 * out leaves the digits at the start (at least one: bit 56
		 * stands for the last digit of 0). */
		const uint32_t u = (uint32_t)v;
		uint64_t x = (uint64_t)ts_digit_quads[u / 10000] |
		    (uint64_t)ts_digit_quads[u % 10000] << 32;
		int z = __builtin_ctzll(x | (uint64_t)1 << 56) & 56;

		x = (x + 0x3030303030303030u) >> z;
		memcpy(p, &x, 8);
		return 8 - z / 8;
	}
#endif
	return ts_fmt_u64(p, v);
}

#endif
