/*
 * draw.c - what ts-gen's models draw from (gen.h): alias tables, keyed
 * permutations, and the truncated Zipf law.  Tables are built with
 * IEEE-754 arithmetic that rounds once and rng.h's logarithm and
 * exponential, so that they are the same bits on every machine, and so
 * is every draw.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/xalloc.h"

/* ---- alias tables ---- */

/*
 * Vose's construction: each outcome's weight scaled to n times its
 * probability; a cell whose share is short of 1 is topped up by an
 * outcome with more than 1, which then has that much less.
 */
void
alias_build(struct alias *a, const double *w, uint64_t n)
{
	double sum = 0, *p = ts_xreallocarray(NULL, n, sizeof(*p));
	uint64_t *small = ts_xreallocarray(NULL, n, sizeof(*small));
	uint64_t *large = ts_xreallocarray(NULL, n, sizeof(*large));
	uint64_t i, ns = 0, nl = 0;

	a->n = n;
	a->c = ts_xreallocarray(NULL, n, sizeof(*a->c));
	for (i = 0; i < n; i++)
		sum += w[i];
	for (i = 0; i < n; i++) {
		p[i] = w[i] / sum * (double)n;
		if (p[i] < 1)
			small[ns++] = i;
		else
			large[nl++] = i;
	}
	while (ns > 0 && nl > 0) {
		uint64_t s = small[--ns], l = large[nl - 1];

		a->c[s].thr = (uint32_t)(p[s] * 0x1p32);
		a->c[s].alt = (uint32_t)l;
		p[l] = (p[l] + p[s]) - 1;
		if (p[l] < 1) {
			nl--;
			small[ns++] = l;
		}
	}
	/* What is left holds its own cell whole (rounding put it a hair
	 * off 1). */
	while (nl > 0) {
		i = large[--nl];
		a->c[i].thr = UINT32_MAX;
		a->c[i].alt = (uint32_t)i;
	}
	while (ns > 0) {
		i = small[--ns];
		a->c[i].thr = UINT32_MAX;
		a->c[i].alt = (uint32_t)i;
	}
	free(p);
	free(small);
	free(large);
}

void
alias_free(struct alias *a)
{
	free(a->c);
	a->c = NULL;
	a->n = 0;
}

/* ---- permutations ---- */

/*
 * A Feistel network on Z_a x Z_b, b = 2^h about the square root of n and
 * a the fewest rows of b that hold n: i is the pair (i >> h, i mod b),
 * each round adds to one half (modulo a, or modulo b) a keyed hash of
 * the other, which can be undone, so that the rounds permute
 * [0, a b).  Walking the cycle back below n is rare: a b - n < b.
 */
void
perm_init(struct perm *p, uint64_t n)
{
	int h = 0;

	while (h < 32 && ((uint64_t)1 << (2 * h)) < n)
		h++;
	p->n = n;
	p->half = h;
	p->mask = ((uint64_t)1 << h) - 1;
	p->rows = n == 0 ? 0 : ((n - 1) >> h) + 1;
}

uint64_t
perm_at(const struct perm *p, uint64_t key, uint64_t i)
{
	if (p->n <= 1)
		return 0;
	do
		i = perm_feistel(p, key, i);
	while (i >= p->n);
	return i;
}

/* ---- the truncated Zipf law ---- */

/* (e^y - 1) / y, and ln(1 + z) / z, near 0 by their series. */
static double
expm1_over(double y)
{
	if (y > -1e-4 && y < 1e-4)
		return 1 + y / 2 * (1 + y / 3 * (1 + y / 4));
	return (fe_rng_exp(y) - 1) / y;
}

static double
log1p_over(double z)
{
	if (z > -1e-4 && z < 1e-4)
		return 1 - z * (0.5 - z * (1.0 / 3 - z / 4));
	return fe_rng_ln(1 + z) / z;
}

/* The integral of t^-alpha from 1 to x, and its inverse. */
static double
hint(double alpha, double x)
{
	double l = fe_rng_ln(x);

	return l * expm1_over((1 - alpha) * l);
}

static double
hint_inv(double alpha, double u)
{
	return fe_rng_exp(u * log1p_over((1 - alpha) * u));
}

/*
 * The sum of r^-alpha over ranks r in [a, b], a large: by Euler and
 * Maclaurin, the integral and its two first corrections (the next is
 * below alpha^3 a^-(alpha+3) / 720).
 */
static double
tail_sum(double alpha, double a, double b)
{
	double fa = fe_rng_pow(a, -alpha), fb = fe_rng_pow(b, -alpha);

	return hint(alpha, b) - hint(alpha, a) + (fa + fb) / 2 +
	    alpha * (fa / a - fb / b) / 12;
}

void
zipf_init(struct zipf *z, uint64_t n, double alpha)
{
	uint64_t k;
	double *w;

	memset(z, 0, sizeof(*z));
	z->n = n;
	z->alpha = alpha;
	z->head = n < ZIPF_HEAD ? n : ZIPF_HEAD;
	w = ts_xreallocarray(NULL, z->head + 1, sizeof(*w));
	for (k = 0; k < z->head; k++) {
		w[k] = fe_rng_pow((double)(k + 1), -alpha);
		z->norm += w[k];
	}
	if (n > z->head) {
		w[k] = tail_sum(alpha, (double)z->head + 1, (double)n);
		z->norm += w[k];
		z->tail_lo = hint(alpha, (double)z->head + 0.5);
		z->tail_hi = hint(alpha, (double)n + 0.5);
	}
	for (k = 0; k < z->head; k++)
		z->sq += (w[k] / z->norm) * (w[k] / z->norm);
	alias_build(&z->a, w, z->head + (n > z->head));
	free(w);
}

/*
 * A rank of the tail [head + 1, n]: x from the continuous law t^-alpha
 * on [head + 1/2, n + 1/2] by inversion, r the nearest rank, kept with
 * probability r^-alpha over the integral of t^-alpha across r's unit
 * (at most 1, t^-alpha being convex), so that r comes with probability
 * proportional to r^-alpha exactly.
 */
static uint64_t
tail_draw(const struct zipf *z, uint64_t *s)
{
	double x, r, u, h;

	for (;;) {
		u = z->tail_lo + fe_rng_unit(s) * (z->tail_hi - z->tail_lo);
		x = hint_inv(z->alpha, u) + 0.5;
		r = x < (double)z->head + 1 ? (double)z->head + 1 :
		    x >= (double)z->n ? (double)z->n : (double)(uint64_t)x;
		h = hint(z->alpha, r + 0.5) - hint(z->alpha, r - 0.5);
		if (fe_rng_unit(s) * h <= fe_rng_pow(r, -z->alpha))
			return (uint64_t)r - 1;
	}
}

uint64_t
zipf_pick(const struct zipf *z, uint64_t x, uint64_t *s)
{
	uint64_t k = alias_draw(&z->a, x);

	return k < z->head ? k : tail_draw(z, s);
}

uint64_t
zipf_draw(const struct zipf *z, uint64_t *s)
{
	return zipf_pick(z, fe_rng_next(s), s);
}

double
zipf_prob(const struct zipf *z, uint64_t k)
{
	return fe_rng_pow((double)(k + 1), -z->alpha) / z->norm;
}

void
zipf_free(struct zipf *z)
{
	alias_free(&z->a);
}
