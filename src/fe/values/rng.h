/*
 * rng.h - the counter-based random numbers of the generators (internal,
 * not installed): the value function of SPEC section 9 (genvalues.c) and
 * ts-gen's models draw from them.  A number is a pure function of a
 * 64-bit state that the caller derives from what it is for (a seed and
 * an entry's coordinates, or its index), so that any entry can be drawn
 * alone, on any thread, in any order, with the same result on any
 * machine.
 *
 * Every step is integer arithmetic or IEEE-754 double arithmetic that
 * rounds once (+ - * / sqrt, frexp, ldexp): the logarithm and the
 * exponential below are written out from those, because the C library's
 * (glibc picks them by CPU) may differ in their last bit from machine to
 * machine.  Expressions must not be contracted to fused multiply-adds:
 * GCC does not in ISO C mode (-std=c11), and rng.c tells clang so; a
 * file that computes with these must do the same.
 */
#ifndef TS_VALUES_RNG_H
#define TS_VALUES_RNG_H

#include <stdint.h>

#define FE_RNG_GAMMA	0x9e3779b97f4a7c15ULL	/* SplitMix64's increment */
#define FE_RNG_WYP0	0xa0761d6478bd642fULL	/* wyhash's first secret */

/* SplitMix64's finalizer (Steele, Lea and Flood 2014; Vigna's
 * constants), a bijection of 64-bit words. */
static inline uint64_t
fe_rng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * wyhash's folded multiply: the 128-bit product of a and b, its two
 * halves XORed.  One multiplication mixes a word in as well as the three
 * of fe_rng_mix would, and costs a third.
 */
static inline uint64_t
fe_rng_mum(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 u128;
	u128 p = (u128)a * b;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
	uint64_t al = a & 0xffffffff, ah = a >> 32;
	uint64_t bl = b & 0xffffffff, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
	uint64_t lo = (mid << 32) | (ll & 0xffffffff);
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);

	return lo ^ hi;
#endif
}

/* The high 64 bits of the 128-bit product of a and b. */
static inline uint64_t
fe_rng_mulhi(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 u128;
	u128 p = (u128)a * b;

	*lo = (uint64_t)p;
	return (uint64_t)(p >> 64);
#else
	uint64_t al = a & 0xffffffff, ah = a >> 32;
	uint64_t bl = b & 0xffffffff, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);

	*lo = (mid << 32) | (ll & 0xffffffff);
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* The next number of a SplitMix64 stream whose state is *s. */
static inline uint64_t
fe_rng_next(uint64_t *s)
{
	*s += FE_RNG_GAMMA;
	return fe_rng_mix(*s);
}

/* Its top 53 bits as a double in [0, 1). */
static inline double
fe_rng_unit(uint64_t *s)
{
	return (double)(fe_rng_next(s) >> 11) * 0x1p-53;
}

/*
 * An integer of [0, n), n > 0, each as likely: Lemire's multiply, the
 * few low products that would favour some values drawn again from the
 * stream.
 */
static inline uint64_t
fe_rng_below(uint64_t *s, uint64_t n)
{
	uint64_t lo, hi = fe_rng_mulhi(fe_rng_next(s), n, &lo);

	if (lo < n) {
		uint64_t t = (0 - n) % n;

		while (lo < t)
			hi = fe_rng_mulhi(fe_rng_next(s), n, &lo);
	}
	return hi;
}

/* ln x for x > 0 (and -inf for 0), exp x, and x^y for x > 0, within a
 * few units in the last place, the same bits everywhere. */
double	 fe_rng_ln(double x);
double	 fe_rng_exp(double x);
double	 fe_rng_pow(double x, double y);

#endif
