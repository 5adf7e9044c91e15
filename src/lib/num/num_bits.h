/*
 * num_bits.h - 128-bit products and bit counts shared by num_parse.c and
 * num_fmt.c (private to the library).
 */
#ifndef NUM_BITS_H
#define NUM_BITS_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;
#define HAVE_U128 1
#endif

/* Full 64x64->128 product. */
static inline void
mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef HAVE_U128
	u128 p = (u128)a * b;

	*hi = (uint64_t)(p >> 64);
	*lo = (uint64_t)p;
#else
	uint64_t a0 = (uint32_t)a, a1 = a >> 32;
	uint64_t b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;

	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	*lo = (mid << 32) | (uint32_t)p00;
#endif
}

/* Number of leading zero bits; x != 0. */
static inline int
clz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_clzll(x);
#else
	int n = 0;

	while (!(x >> 63)) {
		x <<= 1;
		n++;
	}
	return n;
#endif
}

#endif
