/*
 * divide.h - division by a divisor fixed once and used many times (the
 * partitions of a block grid a generated block's number is split by):
 * Granlund and Montgomery's unsigned division by invariant integers
 * ("Division by Invariant Integers using Multiplication", PLDI 1994,
 * figure 4.1), a multiply and two shifts instead of a div, whose 64-bit
 * form costs tens of cycles.  Exact for every 64-bit dividend and every
 * divisor from 1; tests/unit/test_gen.c checks it against '/'.
 * Internal to the tools (not installed).
 */
#ifndef TS_VALUES_DIVIDE_H
#define TS_VALUES_DIVIDE_H

#include <stdint.h>

#include "values/rng.h"

struct fe_divisor {
	uint64_t	 d;
	uint64_t	 m;		/* the multiplier, m' */
	int		 s1, s2;	/* the shifts */
};

/* v divides by d >= 1. */
static inline void
fe_divisor_init(struct fe_divisor *v, uint64_t d)
{
	int l = 0;

	/* l = ceil(log2 d); m' = floor(2^64 (2^l - d) / d) + 1, which
	 * fits in 64 bits: (2^l - d) < d. */
	while (l < 64 && ((uint64_t)1 << l) < d)
		l++;
	v->d = d;
#ifdef __SIZEOF_INT128__
	{
		__extension__ typedef unsigned __int128 u128;
		u128 two_l = (u128)1 << l;

		v->m = (uint64_t)((((two_l - d) << 64) / d) + 1);
	}
#else
	v->m = 0;
#endif
	v->s1 = l < 1 ? l : 1;
	v->s2 = l > 1 ? l - 1 : 0;
}

/* n / v's d. */
static inline uint64_t
fe_divide(const struct fe_divisor *v, uint64_t n)
{
#ifdef __SIZEOF_INT128__
	uint64_t lo, t = fe_rng_mulhi(v->m, n, &lo);

	return (t + ((n - t) >> v->s1)) >> v->s2;
#else
	return n / v->d;
#endif
}

#endif
