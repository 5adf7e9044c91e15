/*
 * digits.h - decimal digits of the small integers that coordinates
 * usually are, written inline by the text writers (writer.c, mtx.c).
 *
 * Internal to libtensorsuite (not installed).
 */
#ifndef TS_DIGITS_H
#define TS_DIGITS_H

#include <stdint.h>
#include <string.h>

#include "tsnum.h"

/* "00" "01" ... "99" (num_fmt.c). */
extern const char ts_digit_pairs[201];

/*
 * The decimal digits of v at p, no NUL; returns how many.  p must have
 * room for TS_NUMBUF bytes: below 10000 four bytes are stored whatever
 * the length (those past it are left for the caller to overwrite), which
 * with no call makes this several times faster than ts_fmt_u64.
 */
static inline int
ts_put_uint(char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (v < 10000) {
		/* Four digits in a register, the first in the low byte;
		 * shifting right drops the leading zeros.  (Through memory,
		 * the variable offset would stall the store forwarding.) */
		const uint32_t u = (uint32_t)v;
		const int n = 1 + (u >= 10) + (u >= 100) + (u >= 1000);
		uint16_t hi, lo;
		uint32_t x;

		memcpy(&hi, ts_digit_pairs + 2 * (u / 100), 2);
		memcpy(&lo, ts_digit_pairs + 2 * (u % 100), 2);
		x = ((uint32_t)hi | (uint32_t)lo << 16) >> (8 * (4 - n));
		memcpy(p, &x, 4);
		return n;
	}
#endif
	return ts_fmt_u64(p, v);
}

#endif
