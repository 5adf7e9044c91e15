/*
 * ratio.c - a count over the product of the dimensions, exactly: the
 * product of up to 64 dimensions of 64 bits has up to 4096 bits, so it
 * is held as an unsigned big integer (32-bit limbs, least significant
 * first) and the quotient found digit by digit by long division, each
 * digit by at most nine subtractions.  Seventeen significant digits,
 * rounded half to even on the exact remainder, tell every double apart;
 * trailing zeros are dropped, so a quotient that is short is printed
 * whole ("0.25").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "util/xalloc.h"

#define LIMBS	(TS_MAXORDER * 2 + 2)	/* 4096 bits and a margin */
#define DIGITS	17

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

static void
product(struct big *p, const uint64_t *dims, int order)
{
	int k;

	big_set(p, 1);
	for (k = 0; k < order; k++)
		big_mul64(p, dims[k]);
}

char *
ts_stats_product(const uint64_t *dims, int order)
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

char *
ts_stats_ratio(uint64_t n, const uint64_t *dims, int order)
{
	struct big p, r, t;
	char dig[DIGITS + 2], out[64];
	int e = 0, i, nd, c;

	product(&p, dims, order);
	if (n == 0 || p.n == 0)
		return ts_xstrdup("0");
	big_set(&r, n);
	/* Scale so that p <= r < 10 p: the quotient is d.ddd... x 10^e. */
	while (big_cmp(&r, &p) < 0) {
		big_mul32(&r, 10);
		e--;
	}
	t = p;
	big_mul32(&t, 10);
	while (big_cmp(&r, &t) >= 0) {
		big_mul32(&p, 10);
		big_mul32(&t, 10);
		e++;
	}
	for (i = 0; i < DIGITS; i++) {
		int d = 0;

		while (big_cmp(&r, &p) >= 0) {
			big_sub(&r, &p);
			d++;
		}
		dig[i] = (char)('0' + d);
		big_mul32(&r, 10);
	}
	/* r is 10 x the remainder: against 5 p, half a unit of the last
	 * digit. */
	t = p;
	big_mul32(&t, 5);
	c = big_cmp(&r, &t);
	if (c > 0 || (c == 0 && (dig[DIGITS - 1] - '0') % 2 == 1)) {
		for (i = DIGITS - 1; i >= 0 && dig[i] == '9'; i--)
			dig[i] = '0';
		if (i >= 0)
			dig[i]++;
		else {
			/* 9.99... rounded up to 10: one digit more. */
			dig[0] = '1';
			e++;
		}
	}
	for (nd = DIGITS; nd > 1 && dig[nd - 1] == '0'; nd--)
		;
	dig[nd] = '\0';
	if (e < -4 || e >= DIGITS) {
		snprintf(out, sizeof(out), "%c%s%s" "e%c%02d", dig[0],
		    nd > 1 ? "." : "", dig + 1, e < 0 ? '-' : '+',
		    e < 0 ? -e : e);
		return ts_xstrdup(out);
	}
	/* Plain: the digits, the point after digit e (or zeros before). */
	c = 0;
	if (e < 0) {
		out[c++] = '0';
		out[c++] = '.';
		for (i = 0; i < -e - 1; i++)
			out[c++] = '0';
	}
	for (i = 0; i < nd || i <= e; i++) {
		if (i == e + 1 && e >= 0)
			out[c++] = '.';
		out[c++] = i < nd ? dig[i] : '0';
	}
	out[c] = '\0';
	return ts_xstrdup(out);
}
