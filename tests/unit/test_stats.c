/*
 * test_stats.c - unit tests of the statistics engine (src/lib/stats):
 * the ratio on cases Python's fractions module rounded, and on random
 * fractions and ties against exact integer arithmetic, the
 * distributions' median and deviation against a sort, the HyperLogLog
 * estimate's error, and the mode order found in one pass against every
 * permutation tried on random sequences, and the same found from parts
 * of a sequence merged.  Prints TAP.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats_int.h"
#include "tap.h"

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t
next64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int
cmpu(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The correctly rounded double of n/p, for p below 2^61 and n/p at
 * least 2^-10: r = m 2^x is it when |n - p r| <= p ulp / 2, ties to an
 * even m, told in 128-bit integers (n 2^-x has at most 103 bits). */
__extension__ typedef unsigned __int128 u128;

static int
nearest(uint64_t n, uint64_t p, double r)
{
	int x;
	double f = frexp(r, &x);
	uint64_t m = (uint64_t)ldexp(f, 53);
	u128 a, b, diff;

	x -= 53;
	if (x > 0 || x < -64)
		return 0;
	a = (u128)n << -x << 1;	/* 2 n 2^-x */
	b = (u128)p * m << 1;	/* 2 p m */
	diff = a > b ? a - b : b - a;
	return diff < p || (diff == p && (m & 1) == 0);
}

static void
ratios(void)
{
	static const struct {
		uint64_t n, d[3];
		int order;
		const char *want;
	} cases[] = {
		/* As Python's float(Fraction(n, p)) gives them. */
		{ 1, { 4 }, 1, "0.25" },
		{ 1, { 3 }, 1, "0.3333333333333333" },
		{ 2, { 3 }, 1, "0.6666666666666666" },
		{ 6, { 4, 3, 2 }, 3, "0.25" },
		{ 0, { 7 }, 1, "0" },
		{ 7, { 1 }, 1, "7" },
		{ 1, { 100000 }, 1, "1e-5" },
		{ 1, { 10000 }, 1, "0.0001" },
		/* 2 / 2^64 / 3: past 64 bits */
		{ 2, { 4294967296ull, 4294967296ull, 3 }, 3,
		    "3.614007241618348e-20" },
		{ 1, { (uint64_t)1 << 57 }, 1, "6.938893903907228e-18" },
		{ 100000, { 2425, 10816, 29567 }, 3, "1.2894791288529062e-7" },
		/* abb313: 17 digits, 0.028263868719140285, read back to
		 * the neighbour ...287 */
		{ 1557, { 313, 176 }, 2, "0.028263868719140283" },
		{ UINT64_MAX, { 1 }, 1, "1.8446744073709552e+19" },
		{ UINT64_MAX, { 3 }, 1, "6.148914691236517e+18" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *r = fe_stats_ratio(cases[i].n, cases[i].d,
		    cases[i].order);

		ok(strcmp(r, cases[i].want) == 0, "ratio %llu: %s (want %s)",
		    (unsigned long long)cases[i].n, r, cases[i].want);
		free(r);
	}
	{
		uint64_t d[64];
		char *p;
		int k;

		for (k = 0; k < 64; k++)
			d[k] = UINT64_MAX;
		p = fe_stats_product(d, 2);
		ok(strcmp(p, "340282366920938463426481119284349108225") == 0,
		    "product of two 2^64-1: %s", p);
		free(p);
		p = fe_stats_ratio(1, d, 64);
		ok(strcmp(p, "0") == 0, "1 / (2^64-1)^64 is below every "
		    "double: %s", p);
		free(p);
		/* Subnormals: 2^1074 = (2^63)^17 x 8. */
		for (k = 0; k < 17; k++)
			d[k] = (uint64_t)1 << 63;
		d[17] = 8;
		ok(fe_stats_ratio_double(1, d, 18) == 0x1p-1074,
		    "1 / 2^1074 is the smallest subnormal");
		ok(fe_stats_ratio_double(UINT64_MAX, d, 18) ==
		    ldexp((double)(UINT64_MAX >> 11) + 1, -1074 + 11),
		    "(2^64-1) / 2^1074 rounds up to a subnormal");
		d[17] = 16;
		ok(fe_stats_ratio_double(1, d, 18) == 0, "1 / 2^1075, a tie, "
		    "goes to the even 0");
		ok(fe_stats_ratio_double(3, d, 18) == 0x1p-1073, "3 / 2^1075, "
		    "a tie, goes to the even 2^-1073");
		d[17] = 32;
		ok(fe_stats_ratio_double(5, d, 18) == 0x1p-1074, "5 / 2^1076 "
		    "rounds to 2^-1074");
	}
	/* Random fractions: the nearest double, ties to even; and the
	 * text reads back to it. */
	for (i = 0; i < 20000; i++) {
		uint64_t p = (next64() >> (3 + next64() % 50)) + 1;
		uint64_t n = (p >> 10) + next64() % (p << 2 | 1);
		double r = fe_stats_ratio_double(n, &p, 1);
		char *t = fe_stats_ratio(n, &p, 1);

		if (!nearest(n, p, r) || strtod(t, NULL) != r) {
			ok(0, "ratio %llu / %llu: %s", (unsigned long long)n,
			    (unsigned long long)p, t);
			free(t);
			return;
		}
		free(t);
	}
	ok(1, "20000 random ratios are the nearest double, ties to even");
	/* Ties: 54 bits over a power of two, the last one set. */
	for (i = 0; i < 2000; i++) {
		uint64_t p = (uint64_t)1 << 60;
		uint64_t n = (((next64() >> 11) | (uint64_t)1 << 52) << 1) | 1;
		double r = fe_stats_ratio_double(n, &p, 1);

		if (!nearest(n, p, r)) {
			ok(0, "tie %llu / 2^60", (unsigned long long)n);
			return;
		}
	}
	ok(1, "2000 ties go to the even neighbour");
}

static void
dists(void)
{
	static uint64_t v[10001];
	struct dist_acc a;
	struct ts_dist d;
	double mean = 0, dev = 0, med;
	size_t n, i, t;

	for (t = 0; t < 20; t++) {
		n = 1 + next64() % 10000;
		memset(&a, 0, sizeof(a));
		mean = dev = 0;
		for (i = 0; i < n; i++) {
			/* Mostly small counts, a few past DIST_SMALL. */
			v[i] = 1 + (next64() % 8 == 0 ? next64() % 1000000 :
			    next64() % 50);
			fe_dist_add(&a, v[i]);
			mean += (double)v[i];
		}
		mean /= (double)n;
		for (i = 0; i < n; i++)
			dev += ((double)v[i] - mean) * ((double)v[i] - mean);
		qsort(v, n, sizeof(v[0]), cmpu);
		med = ((double)v[(n - 1) / 2] + (double)v[n / 2]) / 2;
		fe_dist_end(&a, &d);
		if (d.n != n || d.min != v[0] || d.max != v[n - 1] ||
		    d.median != med || fabs(d.mean - mean) > 1e-9 * mean ||
		    fabs(d.std - sqrt(dev / (double)n)) > 1e-6 *
		    (1 + d.std)) {
			ok(0, "distribution of %zu counts: median %g (want %g)",
			    n, d.median, med);
			return;
		}
	}
	ok(1, "20 distributions: min, median, mean, max, std as a sort "
	    "finds them");
}

static void
sketches(void)
{
	static struct hll h;
	uint64_t i, n = 200000, e;

	memset(&h, 0, sizeof(h));
	for (i = 0; i < n; i++) {
		hll_add(&h, ts_mix64(i * 7919));
		hll_add(&h, ts_mix64(i * 7919));	/* twice: no matter */
	}
	e = fe_hll_count(&h);
	ok(fabs((double)e - (double)n) < 0.05 * (double)n,
	    "HyperLogLog: %llu for %llu distinct", (unsigned long long)e,
	    (unsigned long long)n);
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 100; i++)
		hll_add(&h, ts_mix64(i));
	e = fe_hll_count(&h);
	ok(e >= 97 && e <= 103, "HyperLogLog, few: %llu for 100",
	    (unsigned long long)e);
}

/* Is seq (n tuples of order) non-decreasing in priority prio? */
static int
holds(const uint64_t *seq, size_t n, int order, const int *prio)
{
	size_t i;
	int j;

	for (i = 1; i < n; i++)
		for (j = 0; j < order; j++) {
			uint64_t a = seq[(i - 1) * order + prio[j]];
			uint64_t b = seq[i * order + prio[j]];

			if (a < b)
				break;
			if (a > b)
				return 0;
		}
	return 1;
}

static int
next_perm(int *p, int n)
{
	int i = n - 2, j, t;

	while (i >= 0 && p[i] >= p[i + 1])
		i--;
	if (i < 0)
		return 0;
	for (j = n - 1; p[j] <= p[i]; j--)
		;
	t = p[i], p[i] = p[j], p[j] = t;
	for (i++, j = n - 1; i < j; i++, j--)
		t = p[i], p[i] = p[j], p[j] = t;
	return 1;
}

static void
orders(void)
{
	static uint64_t seq[64 * 4];
	int t, order, k, prio[4], found[TS_MAXORDER], r, any;
	size_t n, i;

	for (t = 0; t < 3000; t++) {
		struct order_acc *o;

		order = 1 + (int)(next64() % 4);
		n = 1 + next64() % 40;
		for (i = 0; i < n * (size_t)order; i++)
			seq[i] = next64() % 3;
		/* Often sorted in some order: sort by a random priority. */
		if (next64() % 2) {
			for (k = 0; k < order; k++)
				prio[k] = k;
			for (k = order - 1; k > 0; k--) {
				int j = (int)(next64() % (uint64_t)(k + 1)), x;

				x = prio[k], prio[k] = prio[j], prio[j] = x;
			}
			/* insertion sort of tuples by prio */
			for (i = 1; i < n; i++) {
				size_t j = i;

				while (j > 0) {
					int c = 0, m;

					for (m = 0; m < order && !c; m++) {
						uint64_t a = seq[(j - 1) * order +
						    prio[m]], b = seq[j * order +
						    prio[m]];

						c = a > b ? 1 : a < b ? -1 : 0;
					}
					if (c <= 0)
						break;
					for (m = 0; m < order; m++) {
						uint64_t x = seq[j * order + m];

						seq[j * order + m] = seq[(j - 1) *
						    order + m];
						seq[(j - 1) * order + m] = x;
					}
					j--;
				}
			}
		}
		o = fe_order_new(order);
		for (i = 1; i < n; i++) {
			uint64_t eq = 0, dec = 0;

			for (k = 0; k < order; k++) {
				eq |= (uint64_t)(seq[i * order + k] ==
				    seq[(i - 1) * order + k]) << k;
				dec |= (uint64_t)(seq[i * order + k] <
				    seq[(i - 1) * order + k]) << k;
			}
			if (dec)
				fe_order_pair(o, eq, dec);
		}
		r = fe_order_end(o, found);
		for (k = 0; k < order; k++)
			prio[k] = k;
		any = 0;
		do {
			int h = holds(seq, n, order, prio);

			any |= h;
			/* Each permutation told from the pairs as by
			 * brute force. */
			if (fe_order_holds(o, prio) != h) {
				ok(0, "fe_order_holds of %zu tuples of order "
				    "%d: %d, brute force %d", n, order, !h, h);
				fe_order_free(o);
				return;
			}
		} while (next_perm(prio, order));
		fe_order_free(o);
		if (r != any || (r == 1 && !holds(seq, n, order, found))) {
			ok(0, "mode order of %zu tuples of order %d: %d, "
			    "brute force %d", n, order, r, any);
			return;
		}
	}
	ok(1, "3000 random sequences: the order found holds, and one is "
	    "found whenever some permutation holds; fe_order_holds tells each "
	    "permutation as brute force does");
}

/* The pairs of a sequence cut in parts, each counted alone (the
 * pairs at their borders by the whole), merged in any order: the same
 * order found and repeats as the sequence counted whole; for orders of
 * a direct table and of a hashed one (past 12), too many kinds of pair
 * included. */
static void
order_parts(void)
{
	static uint64_t seq[400 * 16];
	int t, order, r1, r2, p1[TS_MAXORDER], p2[TS_MAXORDER], bad = 0;
	int rev[TS_MAXORDER];
	size_t n, i, cut[4];
	uint64_t same1, same2;

	for (t = 0; t < 2000 && !bad; t++) {
		struct order_acc *whole, *parts[3], *m;
		int k, j;

		order = t % 2 ? 1 + (int)(next64() % 4) : 13 + (int)(next64() %
		    3);
		n = 2 + next64() % 399;
		/* Mostly non-decreasing in mode 0 and 1, with repeats; now
		 * and then random. */
		for (i = 0; i < n; i++)
			for (k = 0; k < order; k++)
				seq[i * order + k] = t % 5 == 0 ? next64() % 2 :
				    k == 0 ? i / 50 : k == 1 ? (i % 50) / 5 :
				    next64() % (t % 3 + 1);
		whole = fe_order_new(order);
		same1 = fe_order_pairs(whole, seq, n, NULL);
		r1 = fe_order_end(whole, p1);
		cut[0] = 0;
		cut[1] = next64() % n;
		cut[2] = cut[1] + next64() % (n - cut[1]);
		if (cut[1] > cut[2])
			cut[2] = cut[1];
		cut[3] = n;
		m = fe_order_new(order);
		same2 = 0;
		for (j = 0; j < 3; j++) {
			parts[j] = fe_order_new(order);
			same2 += fe_order_pairs(parts[j], seq + cut[j] * order,
			    cut[j + 1] - cut[j], NULL);
			if (j > 0 && cut[j] > cut[j - 1] && cut[j] < n)
				same2 += fe_order_pairs(m, seq + cut[j] * order, 1,
				    seq + (cut[j] - 1) * order);
		}
		for (j = 2; j >= 0; j--) {
			fe_order_merge(m, parts[j]);
			fe_order_free(parts[j]);
		}
		r2 = fe_order_end(m, p2);
		/* From the merged tables: the order found holds, and its
		 * reverse exactly when brute force says it does. */
		for (k = 0; k < order; k++)
			rev[k] = p2[order - 1 - k];
		if (r2 == 1 && (!fe_order_holds(m, p2) || fe_order_holds(m, rev) !=
		    (bool)holds(seq, n, order, rev)))
			r2 = -2;
		if (r1 != r2 || same1 != same2 || (r1 == 1 &&
		    memcmp(p1, p2, (size_t)order * sizeof(*p1)) != 0)) {
			ok(0, "order %d, %zu tuples cut at %zu and %zu: %d, "
			    "whole %d; repeats %llu, whole %llu", order, n,
			    cut[1], cut[2], r2, r1, (unsigned long long)same2,
			    (unsigned long long)same1);
			bad = 1;
		}
		fe_order_free(whole);
		fe_order_free(m);
	}
	if (!bad)
		ok(1, "2000 sequences cut in three parts, merged: the same "
		    "order found and the same repeats as whole; fe_order_holds "
		    "tells the order and its reverse");
}

int
main(void)
{
	ratios();
	dists();
	sketches();
	orders();
	order_parts();
	return tap_done();
}
