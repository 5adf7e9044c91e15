/*
 * pcp.c - the poisson-cp model: a planted rank-R Poisson CP tensor, as
 * CP-APR is benchmarked on (Chi and Kolda 2012).  Its factors are
 * drawn once: each column of each mode's factor matrix holds entries
 * uniform on [0, 1), a fifth of them (each with probability 1/5) ten
 * times larger, the column then scaled to sum to 1; the components'
 * weights are uniform on [1, 2).  An entry is an event of the Poisson
 * process: a component drawn by its weight, then each coordinate by its
 * factor's column (alias tables), so that the counts of the events at a
 * position (--duplicates sum, the default) are the tensor
 * sum_r lambda_r a_r o b_r o ..., lambda scaled to the events made.
 * The factors and weights go into the bundle as NAME_factors.txt, in
 * the Tensor Toolbox's export format of a ktensor.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/xalloc.h"

/* The most entries the factor matrices may hold in all. */
#define PCP_MAX		((uint64_t)1 << 26)
#define RANK		3	/* the default */

struct pcp {
	int		 order, rank;
	double		*w;		/* rank weights */
	double		*f[TS_MAXORDER];	/* dims[k] x rank, row-major */
	struct alias	 wa;
	struct alias	*fa[TS_MAXORDER];	/* rank tables a mode */
};

static int
pcp_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	struct pcp *p = ts_xcalloc(1, sizeof(*p));
	uint64_t i, total = 0, s;
	double *col;
	int k, r;

	g->st = p;
	p->order = o->order;
	p->rank = o->cp_rank > 0 ? o->cp_rank : RANK;
	for (k = 0; k < o->order; k++)
		if (!ts_add_u64(total, o->dims[k] * (uint64_t)p->rank, &total) ||
		    o->dims[k] > PCP_MAX || total > PCP_MAX) {
			ts_diag_usage(d, "--model poisson-cp: its factors are "
			    "held in memory, %llu entries at most",
			    (unsigned long long)PCP_MAX);
			return -1;
		}
	s = fe_rng_mix(o->seed ^ 0x706370ULL);		/* "pcp" */
	p->w = ts_xreallocarray(NULL, (size_t)p->rank, sizeof(double));
	for (r = 0; r < p->rank; r++)
		p->w[r] = 1 + fe_rng_unit(&s);
	alias_build(&p->wa, p->w, (uint64_t)p->rank);
	col = ts_xreallocarray(NULL, 1, sizeof(double));
	for (k = 0; k < o->order; k++) {
		p->f[k] = ts_xreallocarray(NULL, o->dims[k], (size_t)p->rank *
		    sizeof(double));
		p->fa[k] = ts_xcalloc((size_t)p->rank, sizeof(struct alias));
		col = ts_xreallocarray(col, o->dims[k], sizeof(double));
		for (r = 0; r < p->rank; r++) {
			double sum = 0;

			for (i = 0; i < o->dims[k]; i++) {
				col[i] = fe_rng_unit(&s);
				if (fe_rng_unit(&s) < 0.2)
					col[i] *= 10;
				sum += col[i];
			}
			if (!(sum > 0))
				col[0] = sum = 1;
			for (i = 0; i < o->dims[k]; i++)
				p->f[k][i * (uint64_t)p->rank + (uint64_t)r] =
				    col[i] /= sum;
			alias_build(&p->fa[k][r], col, o->dims[k]);
		}
	}
	free(col);
	return 0;
}

/*
 * Entries [first, first + n), a mode at a time over a run of entries
 * (each with its stream and its component), so that the cells of the
 * large factor tables for the entries ahead are fetched while one is
 * drawn: the same draws as entry by entry.
 */
#define RUN	512
#define AHEAD	8

static void
pcp_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	const struct pcp *p = g->st;
	const size_t order = (size_t)p->order;
	uint64_t s[RUN], r[RUN], x[RUN], lo;
	size_t i, e, m, k;

	for (i = 0; i < n; i += m) {
		m = n - i < RUN ? n - i : RUN;
		for (e = 0; e < m; e++) {
			s[e] = gen_state(g, first + i + e);
			r[e] = alias_draw(&p->wa, fe_rng_next(&s[e]));
		}
		for (k = 0; k < order; k++) {
			for (e = 0; e < m; e++)
				x[e] = fe_rng_next(&s[e]);
			for (e = 0; e < m; e++) {
				if (e + AHEAD < m) {
					const struct alias *a =
					    &p->fa[k][r[e + AHEAD]];

					__builtin_prefetch(&a->c[fe_rng_mulhi(
					    x[e + AHEAD], a->n, &lo)]);
				}
				c[(i + e) * order + k] =
				    alias_draw(&p->fa[k][r[e]], x[e]);
			}
		}
	}
}

static double
pcp_prob(const struct gen *g, const uint64_t *c)
{
	const struct pcp *p = g->st;
	double sw = 0, sum = 0, v;
	int r, k;

	for (r = 0; r < p->rank; r++)
		sw += p->w[r];
	for (r = 0; r < p->rank; r++) {
		v = p->w[r] / sw;
		for (k = 0; k < p->order; k++)
			v *= p->f[k][c[k] * (uint64_t)p->rank + (uint64_t)r];
		sum += v;
	}
	return sum;
}

static void
pcp_describe(const struct gen *g, struct ts_strbuf *sb, bool key)
{
	const struct pcp *p = g->st;

	ts_sbprintf(sb, "; rank %d", p->rank);
}

static char *
pcp_notes(const struct gen *g)
{
	const struct pcp *p = g->st;

	return ts_xasprintf("- Planted factors: %d components, each column "
	    "of each factor uniform on [0, 1) with a fifth of its entries ten "
	    "times larger, summing to 1; weights uniform on [1, 2), scaled to "
	    "sum to the events drawn.  The tensor's expected counts are sum_r "
	    "lambda_r a_r o b_r o ...; the weights and factors are in `%s` "
	    "(a ktensor as the Tensor Toolbox's export_data writes one: "
	    "`ktensor`, the order, the dimensions, the rank, the weights, "
	    "then each factor as `matrix`, 2, its size and its rows)\n",
	    p->rank, g->name != NULL ? g->name : "NAME_factors.txt");
}

char *
gen_pcp_factors(const struct gen *g, uint64_t events)
{
	const struct pcp *p = g->st;
	struct ts_strbuf sb = { NULL, 0, 0 };
	char buf[32];
	double sw = 0;
	uint64_t i;
	int k, r;

	for (r = 0; r < p->rank; r++)
		sw += p->w[r];
	ts_sbprintf(&sb, "ktensor\n%d\n", p->order);
	for (k = 0; k < p->order; k++)
		ts_sbprintf(&sb, "%s%llu", k ? " " : "",
		    (unsigned long long)g->o.dims[k]);
	ts_sbprintf(&sb, "\n%d\n", p->rank);
	for (r = 0; r < p->rank; r++) {
		ts_fmt_double(buf, p->w[r] / sw * (double)events);
		ts_sbprintf(&sb, "%s%s", r ? " " : "", buf);
	}
	ts_sbprintf(&sb, "\n");
	for (k = 0; k < p->order; k++) {
		ts_sbprintf(&sb, "matrix\n2\n%llu %d\n",
		    (unsigned long long)g->o.dims[k], p->rank);
		for (i = 0; i < g->o.dims[k]; i++) {
			for (r = 0; r < p->rank; r++) {
				ts_fmt_double(buf, p->f[k][i * (uint64_t)p->rank +
				    (uint64_t)r]);
				ts_sbprintf(&sb, "%s%s", r ? " " : "", buf);
			}
			ts_sbprintf(&sb, "\n");
		}
	}
	return sb.s;
}

static void
pcp_free(struct gen *g)
{
	struct pcp *p = g->st;
	int k, r;

	if (p == NULL)
		return;
	for (k = 0; k < p->order; k++) {
		for (r = 0; p->fa[k] != NULL && r < p->rank; r++)
			alias_free(&p->fa[k][r]);
		free(p->fa[k]);
		free(p->f[k]);
	}
	alias_free(&p->wa);
	free(p->w);
	free(p);
	g->st = NULL;
}

const struct gen_model gen_poisson_cp = {
	"poisson-cp", NEED_DIMS | NEED_NNZ, pcp_setup, NULL, pcp_fill,
	pcp_prob, pcp_describe, pcp_notes, pcp_free
};
