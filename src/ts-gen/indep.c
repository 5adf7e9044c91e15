/*
 * indep.c - the models whose modes are drawn independently, each from a
 * law of its own: uniform (every coordinate as likely) and zipf (the
 * truncated Zipf law of the reference's KronWeave baseline, P(k) in
 * proportion to (k + 1)^-alpha, so that slice 0 is the heaviest).
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <stdlib.h>

#include "gen.h"
#include "util/xalloc.h"

/* ---- uniform ---- */

static void
uniform_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	const int order = g->o.order;
	const uint64_t *dims = g->o.dims;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		uint64_t s = gen_state(g, first + i);

		for (k = 0; k < order; k++)
			*c++ = fe_rng_below(&s, dims[k]);
	}
}

static double
uniform_prob(const struct gen *g, const uint64_t *c)
{
	double p = 1;
	int k;

	for (k = 0; k < g->o.order; k++)
		p /= (double)g->o.dims[k];
	return p;
}

const struct gen_model gen_uniform = {
	"uniform", NEED_DIMS | NEED_NNZ, NULL, NULL, uniform_fill, uniform_prob,
	NULL, NULL, NULL
};

/* ---- zipf ---- */

#define ALPHA	1.2		/* the reference's default */

static int
zipf_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	struct zipf *z;
	int k;

	if (o->alpha.n == 0) {
		o->alpha.n = 1;
		o->alpha.v[0] = ALPHA;
	}
	if (o->alpha.n > 1 && o->alpha.n != o->order) {
		ts_diag_usage(d, "--alpha gives %d exponents; the tensor has "
		    "order %d", o->alpha.n, o->order);
		return -1;
	}
	for (k = 0; k < o->alpha.n; k++)
		if (!(o->alpha.v[k] > 0 && o->alpha.v[k] <= 64)) {
			ts_diag_usage(d, "--alpha: an exponent is above 0 and "
			    "at most 64");
			return -1;
		}
	z = ts_xcalloc((size_t)o->order, sizeof(*z));
	for (k = 0; k < o->order; k++)
		zipf_init(&z[k], o->dims[k], gen_list_at(&o->alpha, k));
	g->st = z;
	return 0;
}

/*
 * Entries [first, first + n), a mode at a time over a run of entries
 * (each entry's stream kept), so that the alias table's cells for the
 * entries ahead are fetched while one is drawn: the same draws as
 * entry by entry.
 */
#define RUN	512
#define AHEAD	8

static void
zipf_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	const struct zipf *z = g->st;
	const size_t order = (size_t)g->o.order;
	uint64_t s[RUN], x[RUN], lo;
	size_t i, e, m, k;

	for (i = 0; i < n; i += m) {
		m = n - i < RUN ? n - i : RUN;
		for (e = 0; e < m; e++)
			s[e] = gen_state(g, first + i + e);
		for (k = 0; k < order; k++) {
			const struct alias *a = &z[k].a;

			for (e = 0; e < m; e++)
				x[e] = fe_rng_next(&s[e]);
			for (e = 0; e < m; e++) {
				if (e + AHEAD < m)
					__builtin_prefetch(&a->c[fe_rng_mulhi(
					    x[e + AHEAD], a->n, &lo)]);
				c[(i + e) * order + k] = zipf_pick(&z[k],
				    x[e], &s[e]);
			}
		}
	}
}

static double
zipf_p(const struct gen *g, const uint64_t *c)
{
	const struct zipf *z = g->st;
	double p = 1;
	int k;

	for (k = 0; k < g->o.order; k++)
		p *= zipf_prob(&z[k], c[k]);
	return p;
}

static void
zipf_describe(const struct gen *g, struct ts_strbuf *sb, bool key)
{
	gen_describe_list(sb, "alpha", &g->o.alpha, g->o.order);
}

static void
zipf_free_st(struct gen *g)
{
	struct zipf *z = g->st;
	int k;

	for (k = 0; z != NULL && k < g->o.order; k++)
		zipf_free(&z[k]);
	free(z);
	g->st = NULL;
}

const struct gen_model gen_zipf = {
	"zipf", NEED_DIMS | NEED_NNZ, zipf_setup, NULL, zipf_fill, zipf_p,
	zipf_describe, NULL, zipf_free_st
};
