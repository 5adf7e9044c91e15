/*
 * ratio.c - a count over the product of the dimensions, exactly: the
 * product of up to 64 dimensions of 64 bits has up to 4096 bits, so it
 * is held as an unsigned big integer (32-bit limbs, least significant
 * first).  The quotient is the double nearest to the exact fraction
 * (ties to even), as a correctly rounded division would give it if the
 * product fitted in a double: the fraction is scaled by a power of two
 * so that its integer part has 55 or 56 bits, found by long division,
 * and rounded to the double's 53 bits (fewer below 2^-1022) on those
 * bits and whether the remainder is zero.  Printed, it is the shortest
 * decimal that reads back to that double (ts_fmt_double): rounding the
 * exact fraction to 17 digits and reading those back would round twice,
 * and give a neighbour of the nearest double now and then.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tsnum.h"
#include "stats/stats.h"
#include "util/xalloc.h"

/* The product's 4096 bits, and the count shifted past them by the 56
 * bits of a quotient and a margin. */
#define LIMBS	(TS_MAXORDER * 2 + 6)

struct big {
	uint32_t	 v[LIMBS];
	int		 n;		/* limbs in use; 0 is zero */
};

static void
big_set(struct big *a, uint64_t x)
{
	memset(a, 0, sizeof(*a));
	a->v[0] = (uint32_t)x;
	a->v[1] = (uint32_t)(x >> 32);
	a->n = a->v[1] ? 2 : a->v[0] ? 1 : 0;
}

/* a *= m, for m below 2^32. */
static void
big_mul32(struct big *a, uint32_t m)
{
	uint64_t carry = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		uint64_t t = (uint64_t)a->v[i] * m + carry;

		a->v[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry != 0)
		a->v[a->n++] = (uint32_t)carry;
	while (a->n > 0 && a->v[a->n - 1] == 0)
		a->n--;
}

static void
big_mul64(struct big *a, uint64_t m)
{
	struct big lo = *a;

	/* a * m = a * hi * 2^32 + a * lo */
	big_mul32(&lo, (uint32_t)m);
	big_mul32(a, (uint32_t)(m >> 32));
	if (a->n > 0) {
		memmove(a->v + 1, a->v, (size_t)a->n * sizeof(a->v[0]));
		a->v[0] = 0;
		a->n++;
	}
	{
		uint64_t carry = 0;
		int i, n = a->n > lo.n ? a->n : lo.n;

		for (i = 0; i < n; i++) {
			uint64_t t = (uint64_t)(i < a->n ? a->v[i] : 0) +
			    (i < lo.n ? lo.v[i] : 0) + carry;

			a->v[i] = (uint32_t)t;
			carry = t >> 32;
		}
		a->n = n;
		if (carry != 0)
			a->v[a->n++] = (uint32_t)carry;
	}
}

static int
big_cmp(const struct big *a, const struct big *b)
{
	int i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->v[i] != b->v[i])
			return a->v[i] < b->v[i] ? -1 : 1;
	return 0;
}

/* a -= b, for a >= b. */
static void
big_sub(struct big *a, const struct big *b)
{
	int64_t borrow = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		int64_t t = (int64_t)a->v[i] - (i < b->n ? b->v[i] : 0) -
		    borrow;

		borrow = t < 0;
		a->v[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
	}
	while (a->n > 0 && a->v[a->n - 1] == 0)
		a->n--;
}

/* a /= d, for d below 2^32; the remainder. */
static uint32_t
big_div32(struct big *a, uint32_t d)
{
	uint64_t r = 0;
	int i;

	for (i = a->n - 1; i >= 0; i--) {
		uint64_t t = (r << 32) | a->v[i];

		a->v[i] = (uint32_t)(t / d);
		r = t % d;
	}
	while (a->n > 0 && a->v[a->n - 1] == 0)
		a->n--;
	return (uint32_t)r;
}

/* The bits of a: 0 for zero. */
static int
big_bits(const struct big *a)
{
	return a->n == 0 ? 0 : 32 * (a->n - 1) + 32 -
	    __builtin_clz(a->v[a->n - 1]);
}

/* a <<= s, for a result that fits. */
static void
big_shl(struct big *a, int s)
{
	int w = s / 32, b = s % 32, i;

	if (a->n == 0 || s == 0)
		return;
	a->v[a->n] = 0;
	for (i = a->n; i >= 0; i--)
		a->v[i + w] = (a->v[i] << b) | (b > 0 && i > 0 ?
		    a->v[i - 1] >> (32 - b) : 0);
	for (i = 0; i < w; i++)
		a->v[i] = 0;
	a->n += w + 1;
	while (a->n > 0 && a->v[a->n - 1] == 0)
		a->n--;
}

/* a >>= 1. */
static void
big_shr1(struct big *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		a->v[i] = (a->v[i] >> 1) | (i + 1 < a->n ? a->v[i + 1] << 31 :
		    0);
	while (a->n > 0 && a->v[a->n - 1] == 0)
		a->n--;
}

static void
product(struct big *p, const uint64_t *dims, int order)
{
	int k;

	big_set(p, 1);
	for (k = 0; k < order; k++)
		big_mul64(p, dims[k]);
}

char *
fe_stats_product(const uint64_t *dims, int order)
{
	char buf[LIMBS * 10 + 2], *e = buf + sizeof(buf) - 1;
	struct big p;

	product(&p, dims, order);
	*e = '\0';
	if (p.n == 0)
		*--e = '0';
	while (p.n > 0) {
		uint32_t r = big_div32(&p, 1000000000u);
		int i;

		for (i = 0; i < 9 && (p.n > 0 || r != 0); i++) {
			*--e = (char)('0' + r % 10);
			r /= 10;
		}
	}
	return ts_xstrdup(e);
}


double
fe_stats_ratio_double(uint64_t n, const uint64_t *dims, int order)
{
	struct big num, den;
	uint64_t q = 0, keep, rest, half;
	int k, i, e, len, drop;
	bool sticky;

	product(&den, dims, order);
	if (n == 0 || den.n == 0)
		return 0;
	big_set(&num, n);
	/* n 2^k / den lies in [2^54, 2^56): its integer part q has 55 or
	 * 56 bits. */
	k = 55 - (big_bits(&num) - big_bits(&den));
	if (k >= 0)
		big_shl(&num, k);
	else
		big_shl(&den, -k);
	big_shl(&den, 55);
	for (i = 55; i >= 0; i--) {
		if (big_cmp(&num, &den) >= 0) {
			big_sub(&num, &den);
			q |= (uint64_t)1 << i;
		}
		big_shr1(&den);
	}
	sticky = num.n != 0;
	/* The quotient is q 2^-k, in [2^e, 2^(e+1)): a double keeps 53
	 * bits of it, fewer when e is below the normal range. */
	len = 64 - __builtin_clzll(q);
	e = len - 1 - k;
	drop = len - 53;
	if (e < -1022)
		drop += -1022 - e;
	if (drop > len)
		return 0;	/* below half the smallest subnormal */
	keep = drop < 64 ? q >> drop : 0;
	rest = q & (((uint64_t)1 << drop) - 1);
	half = (uint64_t)1 << (drop - 1);
	if (rest > half || (rest == half && (sticky || (keep & 1))))
		keep++;
	return ldexp((double)keep, drop - k);
}

char *
fe_stats_ratio(uint64_t n, const uint64_t *dims, int order)
{
	char buf[TS_NUMBUF];

	ts_fmt_double(buf, fe_stats_ratio_double(n, dims, order));
	return ts_xstrdup(buf);
}
