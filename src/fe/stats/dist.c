/*
 * dist.c - distributions of counts (entries per slice, per fiber,
 * elements per block) gathered one count at a time, and the
 * HyperLogLog estimate of a number of distinct values.
 *
 * The median is found as a counting sort finds it: counts below
 * DIST_SMALL are tallied in an array indexed by the count, and the few
 * larger ones (each stands for at least DIST_SMALL entries, so there
 * are at most nnz / DIST_SMALL of them) are kept and sorted.  The mean
 * and the standard deviation are computed from the same tallies, the
 * deviation in a second pass over them (no cancellation).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats_int.h"
#include "util/xalloc.h"

static int
log2u(uint64_t c)
{
	return 63 - __builtin_clzll(c);
}

void
fe_dist_add_n(struct dist_acc *a, uint64_t c, uint64_t n)
{
	if (n == 0 || c == 0)
		return;
	if (a->n == 0 || c < a->min)
		a->min = c;
	if (c > a->max)
		a->max = c;
	a->n += n;
	a->sum += c * n;
	a->hist[log2u(c)] += n;
	if (c < DIST_SMALL) {
		if (a->small == NULL)
			a->small = ts_xcalloc(DIST_SMALL, sizeof(*a->small));
		a->small[c] += n;
		return;
	}
	while (n-- > 0) {
		if (a->nbig == a->capbig) {
			a->capbig = a->capbig ? 2 * a->capbig : 64;
			a->big = ts_xreallocarray(a->big, a->capbig,
			    sizeof(*a->big));
		}
		a->big[a->nbig++] = c;
	}
}

void
fe_dist_add(struct dist_acc *a, uint64_t c)
{
	fe_dist_add_n(a, c, 1);
}

static int
cmpu64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The member of rank r (0-based) in count order. */
static uint64_t
rank(const struct dist_acc *a, uint64_t r)
{
	uint64_t c, seen = 0;

	if (a->small != NULL)
		for (c = 1; c < DIST_SMALL; c++) {
			seen += a->small[c];
			if (r < seen)
				return c;
		}
	return a->big[r - seen];
}

void
fe_dist_end(struct dist_acc *a, struct ts_dist *d)
{
	long double dev = 0;
	uint64_t c;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->known = true;
	d->n = a->n;
	d->sum = a->sum;
	memcpy(d->hist, a->hist, sizeof(d->hist));
	if (a->n > 0) {
		if (a->nbig > 1)
			qsort(a->big, a->nbig, sizeof(*a->big), cmpu64);
		d->min = a->min;
		d->max = a->max;
		d->median = ((double)rank(a, (a->n - 1) / 2) +
		    (double)rank(a, a->n / 2)) / 2;
		d->mean = fe_stats_ratio_double(a->sum, &a->n, 1);
		if (a->small != NULL)
			for (c = 1; c < DIST_SMALL; c++)
				if (a->small[c] != 0)
					dev += a->small[c] * (((long double)c -
					    d->mean) * ((long double)c -
					    d->mean));
		for (i = 0; i < a->nbig; i++)
			dev += ((long double)a->big[i] - d->mean) *
			    ((long double)a->big[i] - d->mean);
		d->std = (double)sqrtl(dev / a->n);
	}
	fe_dist_free(a);
	memset(a, 0, sizeof(*a));
}

void
fe_dist_free(struct dist_acc *a)
{
	free(a->small);
	free(a->big);
	a->small = a->big = NULL;
}

/*
 * HyperLogLog (Flajolet, Fusy, Gandouet, Meunier 2007) with its small
 * range correction, linear counting while registers are still zero; no
 * large range correction is needed with 64-bit hashes.
 */
uint64_t
fe_hll_count(const struct hll *h)
{
	const double m = 1 << HLL_P;
	const double alpha = 0.7213 / (1 + 1.079 / m);
	double sum = 0, e;
	size_t i, zeros = 0;

	for (i = 0; i < (size_t)1 << HLL_P; i++) {
		sum += ldexp(1, -h->reg[i]);
		zeros += h->reg[i] == 0;
	}
	e = alpha * m * m / sum;
	if (e <= 2.5 * m && zeros > 0)
		e = m * log(m / (double)zeros);
	return (uint64_t)llround(e);
}
