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

/* All eight bytes in '0'..'9'?  Adding 6 moves ':'..'?' out of 0x3X. */
static inline int
ts_all8dig(uint64_t v)
{
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0u, three = 0x3030303030303030u;

	return (v & hi) == three &&
	    ((v + 0x0606060606060606u) & hi) == three;
}

/* The value of eight digits; the first character is the low byte. */
static inline uint64_t
ts_val8(uint64_t v)
{
	v -= 0x3030303030303030u;
	/* Pairs of digits in 16-bit lanes, then quads in 32-bit lanes. */
	v = (v & 0x000F000F000F000Fu) * 10 + ((v >> 8) & 0x000F000F000F000Fu);
	v = (v & 0x0000007F0000007Fu) * 100 +
	    ((v >> 16) & 0x0000007F0000007Fu);
	return (v & 0x3FFF) * 10000 + ((v >> 32) & 0x3FFF);
}
#else
#define TS_SWAR 0
#endif

/* Accumulate the digits from p into *wp (mod 2^64); returns the first
 * non-digit (or end). */
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
