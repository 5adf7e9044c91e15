/*
 * sbm.c - the sbm model: a stochastic block tensor.  Each mode is cut
 * into communities of nearly equal size (contiguous, the first ones one
 * longer when they do not divide it); a cell of the communities' grid is
 * inside when its communities are the same in every mode, and has
 * density p_in, else p_out.  An entry draws a cell with the probability
 * of its density times its volume (an alias table over the cells), then
 * a coordinate uniform within each of its communities: every position of
 * a cell is as likely, and the cells' shares are their expected counts'.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/xalloc.h"

/* The most cells the communities' grid may have: a weight each. */
#define SBM_CELLS_MAX	((uint64_t)1 << 22)

struct sbm {
	int		 order;
	uint64_t	 nc[TS_MAXORDER];	/* communities a mode */
	uint64_t	 cells;
	double		*w, wsum;
	struct alias	 a;
	double		 expected;	/* entries the densities give */
};

/* The first coordinate of community c of mode k, and its size. */
static inline uint64_t
comm_start(const struct gen *g, const struct sbm *sb, int k, uint64_t c)
{
	uint64_t d = g->o.dims[k], n = sb->nc[k];

	return c * (d / n) + (c < d % n ? c : d % n);
}

static inline uint64_t
comm_size(const struct gen *g, const struct sbm *sb, int k, uint64_t c)
{
	uint64_t d = g->o.dims[k], n = sb->nc[k];

	return d / n + (c < d % n);
}

static int
sbm_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	struct sbm *sb = ts_xcalloc(1, sizeof(*sb));
	uint64_t c, s, cc[TS_MAXORDER];
	int k;

	g->st = sb;
	sb->order = o->order;
	if (o->communities.n == 0) {
		o->communities.n = 1;
		o->communities.v[0] = 4;
	}
	if (o->communities.n > 1 && o->communities.n != o->order) {
		ts_diag_usage(d, "--communities gives %d counts; the tensor has "
		    "order %d", o->communities.n, o->order);
		return -1;
	}
	sb->cells = 1;
	for (k = 0; k < o->order; k++) {
		double v = gen_list_at(&o->communities, k);

		if (!(v >= 1 && v == floor(v)) || v > (double)o->dims[k]) {
			ts_diag_usage(d, "--communities: mode %d has %llu "
			    "coordinates: from 1 to that many communities",
			    k + 1, (unsigned long long)o->dims[k]);
			return -1;
		}
		sb->nc[k] = (uint64_t)v;
		if (!ts_mul_u64(sb->cells, sb->nc[k], &sb->cells) ||
		    sb->cells > SBM_CELLS_MAX) {
			ts_diag_usage(d, "--communities: their grid may have "
			    "%llu cells at most",
			    (unsigned long long)SBM_CELLS_MAX);
			return -1;
		}
	}
	if (!(o->p_in >= 0 && o->p_in <= 1 && o->p_out >= 0 && o->p_out <= 1) ||
	    !(o->p_in + o->p_out > 0)) {
		ts_diag_usage(d, "--p-in and --p-out are densities from 0 to 1, "
		    "not both 0");
		return -1;
	}
	sb->w = ts_xreallocarray(NULL, sb->cells, sizeof(*sb->w));
	for (c = 0; c < sb->cells; c++) {
		double vol = 1;
		bool inside = true;

		for (s = c, k = o->order - 1; k >= 0; k--) {
			cc[k] = s % sb->nc[k];
			s /= sb->nc[k];
		}
		for (k = 0; k < o->order; k++) {
			vol *= (double)comm_size(g, sb, k, cc[k]);
			inside &= cc[k] == cc[0];
		}
		sb->w[c] = (inside ? o->p_in : o->p_out) * vol;
		sb->wsum += sb->w[c];
	}
	if (!(sb->wsum > 0)) {
		ts_diag_usage(d, "--p-in and --p-out: no cell has a density "
		    "above 0");
		return -1;
	}
	sb->expected = sb->wsum;
	if (!o->has_nnz) {
		if (!(sb->expected >= 0.5 && sb->expected < 0x1p62)) {
			ts_diag_usage(d, "--model sbm: give --nnz (the densities "
			    "give %g entries)", sb->expected);
			return -1;
		}
		o->nnz = (uint64_t)(sb->expected + 0.5);
		o->has_nnz = true;
	}
	alias_build(&sb->a, sb->w, sb->cells);
	return 0;
}

static void
sbm_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	const struct sbm *sb = g->st;
	const int order = sb->order;
	uint64_t cc[TS_MAXORDER], x;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		uint64_t s = gen_state(g, first + i);

		x = alias_draw(&sb->a, fe_rng_next(&s));
		for (k = order - 1; k >= 0; k--) {
			cc[k] = x % sb->nc[k];
			x /= sb->nc[k];
		}
		for (k = 0; k < order; k++)
			*c++ = comm_start(g, sb, k, cc[k]) + fe_rng_below(&s,
			    comm_size(g, sb, k, cc[k]));
	}
}

/* The community of coordinate v of mode k. */
static uint64_t
comm_of(const struct gen *g, const struct sbm *sb, int k, uint64_t v)
{
	uint64_t d = g->o.dims[k], n = sb->nc[k], big = d / n + 1;
	uint64_t nbig = d % n;

	return v < nbig * big ? v / big : nbig + (v - nbig * big) / (d / n);
}

static double
sbm_prob(const struct gen *g, const uint64_t *c)
{
	const struct sbm *sb = g->st;
	uint64_t cell = 0, cc;
	double vol = 1;
	int k;

	for (k = 0; k < sb->order; k++) {
		cc = comm_of(g, sb, k, c[k]);
		cell = cell * sb->nc[k] + cc;
		vol *= (double)comm_size(g, sb, k, cc);
	}
	return sb->w[cell] / sb->wsum / vol;
}

static void
sbm_describe(const struct gen *g, struct ts_strbuf *sb, bool key)
{
	const struct sbm *s = g->st;
	char a[32], b[32];
	int k;

	ts_sbprintf(sb, "; communities ");
	for (k = 0; k < s->order; k++)
		ts_sbprintf(sb, "%s%llu", k ? "," : "",
		    (unsigned long long)s->nc[k]);
	ts_fmt_double(a, g->o.p_in);
	ts_fmt_double(b, g->o.p_out);
	ts_sbprintf(sb, "; p in %s; p out %s", a, b);
}

static char *
sbm_notes(const struct gen *g)
{
	const struct sbm *s = g->st;

	return ts_xasprintf("- Communities: contiguous, of nearly equal "
	    "size; a cell of their grid is inside when its communities are "
	    "the same in every mode; its share of the draws is its density "
	    "times its volume; the densities give %.6g entries\n",
	    s->expected);
}

static void
sbm_free(struct gen *g)
{
	struct sbm *sb = g->st;

	if (sb == NULL)
		return;
	free(sb->w);
	alias_free(&sb->a);
	free(sb);
	g->st = NULL;
}

const struct gen_model gen_sbm = {
	"sbm", NEED_DIMS, sbm_setup, NULL, sbm_fill, sbm_prob, sbm_describe,
	sbm_notes, sbm_free
};
