/*
 * fit.c - what ts-stat --fit and --fibers add to a distribution of
 * counts: the power law that fits its tail, by the method of Clauset,
 * Shalizi and Newman (SIAM Review 51, 2009), and its spread over every
 * member, the empty ones too.
 *
 * The fit is of a discrete power law, P(x) = x^-alpha / zeta(alpha,
 * x_min) for x >= x_min: for each candidate x_min (the distinct counts,
 * those with 10 members or more at or above them; 500 of them at most,
 * spread evenly over the distinct counts), alpha maximizes the
 * likelihood of the members at or above it (a golden-section search on
 * (1, 20], the Hurwitz zeta function by Euler and Maclaurin), and the
 * Kolmogorov-Smirnov distance between their distribution and the fitted
 * one is measured at each distinct count; x_min is the candidate of the
 * least distance.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats_int.h"
#include "util/xalloc.h"

#define TAIL_MIN	10	/* members at or above a candidate */
#define CANDIDATES	500
#define ALPHA_HI	20.0

/*
 * The Hurwitz zeta function, the sum over k >= q of k^-s (s > 1, q >=
 * 1): the first M terms, then Euler and Maclaurin's integral, half term
 * and four corrections of the Bernoulli numbers, whose error is below
 * 1e-15 of the sum from q + M = 12 on.
 */
static double
hurwitz(double s, double q)
{
	static const double b2k[] = { 1.0 / 6, -1.0 / 30, 1.0 / 42,
	    -1.0 / 30 };
	double sum = 0, a, t, fact = 1, rise;
	int k, M = q < 12 ? 12 - (int)q : 0;

	for (k = 0; k < M; k++)
		sum += pow(q + k, -s);
	a = q + M;
	sum += pow(a, 1 - s) / (s - 1) + pow(a, -s) / 2;
	rise = s;
	t = pow(a, -s - 1);
	for (k = 1; k <= 4; k++) {
		fact *= (2 * k - 1) * (2 * k);
		sum += b2k[k - 1] / fact * rise * t;
		rise *= (s + 2 * k - 1) * (s + 2 * k);
		t /= a * a;
	}
	return sum;
}

/* The distinct counts and how many members have each, ascending. */
struct hist {
	uint64_t	*v, *c;
	size_t		 n;
};

static int
cmp64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static void
hist_of(const struct dist_acc *a, struct hist *h)
{
	uint64_t c, *big;
	size_t i;

	memset(h, 0, sizeof(*h));
	h->v = ts_xreallocarray(NULL, a->n + 1, sizeof(*h->v));
	h->c = ts_xreallocarray(NULL, a->n + 1, sizeof(*h->c));
	if (a->small != NULL)
		for (c = 1; c < DIST_SMALL; c++)
			if (a->small[c] != 0) {
				h->v[h->n] = c;
				h->c[h->n++] = a->small[c];
			}
	big = ts_xreallocarray(NULL, a->nbig + 1, sizeof(*big));
	if (a->nbig > 0)
		memcpy(big, a->big, a->nbig * sizeof(*big));
	qsort(big, a->nbig, sizeof(*big), cmp64);
	for (i = 0; i < a->nbig; i++) {
		if (h->n > 0 && h->v[h->n - 1] == big[i]) {
			h->c[h->n - 1]++;
			continue;
		}
		h->v[h->n] = big[i];
		h->c[h->n++] = 1;
	}
	free(big);
}

/* Minus the log-likelihood of alpha, for the n members of sum of logs
 * sl at or above xmin. */
static double
nll(double alpha, double xmin, double n, double sl)
{
	return alpha * sl + n * log(hurwitz(alpha, xmin));
}

static double
mle(double xmin, double n, double sl)
{
	const double g = 0.6180339887498949;
	double lo = 1.000001, hi = ALPHA_HI, a, b, fa, fb;
	int i;

	a = hi - g * (hi - lo);
	b = lo + g * (hi - lo);
	fa = nll(a, xmin, n, sl);
	fb = nll(b, xmin, n, sl);
	for (i = 0; i < 80 && hi - lo > 1e-9; i++) {
		if (fa < fb) {
			hi = b;
			b = a;
			fb = fa;
			a = hi - g * (hi - lo);
			fa = nll(a, xmin, n, sl);
		} else {
			lo = a;
			a = b;
			fa = fb;
			b = lo + g * (hi - lo);
			fb = nll(b, xmin, n, sl);
		}
	}
	return (lo + hi) / 2;
}

void
fe_stats_fit(const struct dist_acc *a, struct ts_fit *f)
{
	struct hist h;
	double *tail, *slog, best = HUGE_VAL;
	size_t i, j, step;

	memset(f, 0, sizeof(*f));
	hist_of(a, &h);
	if (h.n < 2) {
		free(h.v);
		free(h.c);
		return;
	}
	/* Members and their logs' sum at or above each distinct count. */
	tail = ts_xreallocarray(NULL, h.n + 1, sizeof(*tail));
	slog = ts_xreallocarray(NULL, h.n + 1, sizeof(*slog));
	tail[h.n] = slog[h.n] = 0;
	for (i = h.n; i-- > 0;) {
		tail[i] = tail[i + 1] + (double)h.c[i];
		slog[i] = slog[i + 1] + (double)h.c[i] * log((double)h.v[i]);
	}
	step = h.n > CANDIDATES ? (h.n + CANDIDATES - 1) / CANDIDATES : 1;
	for (i = 0; i + 1 < h.n; i += step) {
		double xmin = (double)h.v[i], n = tail[i], alpha, z, d = 0;
		double seen = 0, fit, rest, at;

		if (n < TAIL_MIN)
			break;
		alpha = mle(xmin, n, slog[i]);
		z = rest = hurwitz(alpha, xmin);
		/* rest: the sum from the count past the last one seen; a
		 * small gap subtracted term by term, a large one summed
		 * afresh. */
		for (j = i, at = xmin; j < h.n; j++) {
			double x = (double)h.v[j];

			if (x + 1 - at <= 16)
				for (; at < x + 1; at++)
					rest -= pow(at, -alpha);
			else
				rest = hurwitz(alpha, at = x + 1);
			seen += (double)h.c[j];
			fit = 1 - rest / z;
			if (fabs(seen / n - fit) > d)
				d = fabs(seen / n - fit);
		}
		if (d < best) {
			best = d;
			f->known = true;
			f->alpha = alpha;
			f->xmin = h.v[i];
			f->ks = d;
			f->n = (uint64_t)n;
		}
	}
	free(tail);
	free(slog);
	free(h.v);
	free(h.c);
}

void
fe_stats_spread(const struct ts_dist *d, double members,
    struct ts_spread *s)
{
	double sq;

	memset(s, 0, sizeof(*s));
	s->members = members;
	if (!d->known || d->n == 0 || !(members >= (double)d->n))
		return;
	s->known = true;
	s->cv = d->mean > 0 ? d->std / d->mean : 0;
	s->imbalance = d->mean > 0 ? (double)d->max / d->mean : 0;
	/* Over every member: the empty ones count 0. */
	s->all_min = members > (double)d->n ? 0 : (double)d->min;
	s->all_mean = (double)d->sum / members;
	sq = (double)d->n * (d->std * d->std + d->mean * d->mean) / members;
	s->all_std = sq > s->all_mean * s->all_mean ? sqrt(sq - s->all_mean *
	    s->all_mean) : 0;
	s->all_cv = s->all_mean > 0 ? s->all_std / s->all_mean : 0;
	s->all_imbalance = s->all_mean > 0 ? (double)d->max / s->all_mean : 0;
}

double
fe_stats_fibers_all(const struct fe_stats *s, int k)
{
	double n = 1;
	int j;

	/* A block tensor's modes are its grid's sections. */
	for (j = 0; j < s->order; j++)
		if (j != k)
			n *= (double)s->mode[j].dim;
	return n;
}
