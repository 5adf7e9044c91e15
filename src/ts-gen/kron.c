/*
 * kron.c - the kronecker model: stochastic Kronecker graphs made tensors
 * (Leskovec et al.'s R-MAT family), as the reference's KronWeave
 * fastSKG samples them.  A seed tensor of weights (a file of
 * probabilities, or the CP seed KronWeave builds) is a law over its
 * cells; an entry draws one cell a level, levels K of them, and its
 * coordinate in mode d is the digits of the cells drawn in base s_d, the
 * first level the most significant.
 *
 * A level is one draw from an alias table of the seed's cells, whatever
 * their number.  Dimensions need not be s_d^K: an entry with a
 * coordinate beyond its dimension is drawn again, from the same stream,
 * so that the law is the Kronecker law restricted to the tensor.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/path.h"
#include "util/xalloc.h"

/* The most cells a seed may have: it is held dense. */
#define CELLS_MAX	((uint64_t)1 << 24)
/* The most outcomes of a table of several levels. */
#define STEP_CELLS	4096
/* The fewest of the draws that must fall inside the dimensions. */
#define ACCEPT_MIN	1e-3

struct kron {
	int		 order, levels;
	uint64_t	 sdim[TS_MAXORDER];
	uint64_t	 cells;
	double		*w;		/* the seed's weights, cell-major */
	double		 wsum;		/* their sum, as given */
	/* Levels are drawn several at a time: a table of the Kronecker
	 * power of the seed to step levels (cells^step outcomes at most
	 * STEP_CELLS), its outcomes' coordinates in each mode, and the
	 * same for the rest, levels mod step. */
	uint32_t	*cdig;		/* each cell's coordinates */
	struct step {
		int		 levels;
		struct alias	 a;
		uint64_t	*digit;	/* outcomes x order */
		uint64_t	 radix[TS_MAXORDER];	/* sdim^levels */
	}		 st[2];
	int		 nstep;		/* draws of st[0] */
	uint64_t	 box[TS_MAXORDER];	/* sdim^levels */
	bool		 reject;	/* dims below the box */
	double		 accept;	/* share of draws inside dims */
};

/* The cell of seed coordinates c, the last mode fastest. */
static uint64_t
cell_of(const struct kron *kr, const uint64_t *c)
{
	uint64_t cell = 0;
	int k;

	for (k = 0; k < kr->order; k++)
		cell = cell * kr->sdim[k] + c[k];
	return cell;
}

/* ---- the seed ---- */

struct seedread {
	struct kron	*kr;
	const char	*path;
	struct ts_diags	*d;
	bool		 bad;
};

static int
seed_batch(void *arg, const struct ts_batch *b)
{
	struct seedread *r = arg;
	struct kron *kr = r->kr;
	size_t i;

	for (i = 0; i < b->n; i++) {
		double v = !b->has_values ? 1 : b->is_int ?
		    (double)b->ival[i] : b->fval[i];

		if (!(v >= 0) || v == HUGE_VAL) {
			ts_diag(r->d, TS_SEV_ERROR, r->path, 0, 0, TS_RULE_NONE,
			    "a seed's weights are finite and not negative: "
			    "entry %llu holds %g", (unsigned long long)(b->first
			    + i + 1), v);
			r->bad = true;
			return -1;
		}
		/* Repeated cells add up. */
		kr->w[cell_of(kr, b->coords + i * (size_t)b->order)] += v;
	}
	return 0;
}

static int
seed_header(void *arg, const struct ts_header *h)
{
	struct seedread *r = arg;
	struct kron *kr = r->kr;
	int k;

	if (!h->dims_known) {
		ts_diag(r->d, TS_SEV_ERROR, r->path, 0, 0, TS_RULE_NONE,
		    "the file states no dimensions (FROSTT): a seed is a "
		    "TensorSuite file or bundle");
		return -1;
	}
	kr->order = h->order;
	kr->cells = 1;
	for (k = 0; k < h->order; k++) {
		kr->sdim[k] = h->dims[k];
		if (!ts_mul_u64(kr->cells, h->dims[k], &kr->cells) ||
		    kr->cells > CELLS_MAX) {
			ts_diag(r->d, TS_SEV_ERROR, r->path, 0, 0, TS_RULE_NONE,
			    "a seed is held dense: it may have %llu cells at "
			    "most", (unsigned long long)CELLS_MAX);
			return -1;
		}
	}
	if (h->block) {
		ts_diag(r->d, TS_SEV_ERROR, r->path, 0, 0, TS_RULE_NONE,
		    "a seed is an element tensor, not a block one");
		return -1;
	}
	kr->w = ts_xcalloc(kr->cells, sizeof(*kr->w));
	return 0;
}

/*
 * The CP seed as KronWeave builds it: for each component r and mode d,
 * the power law (i + 1)^-alpha_d over the seed's s_d, normalized, in an
 * order of its own (a Fisher-Yates shuffle keyed on the seed, r and d);
 * the components weighted by softmax(-r) (or equally); each cell the
 * sum over the components of their weight times the product of their
 * factors, times 1 + noise (u - 1/2); then scaled so that the largest
 * is 1, and clamped into [1e-12, 1 - 1e-12].
 */
static void
cp_seed(struct kron *kr, const struct gen_opts *o)
{
	const int order = kr->order, rank = o->cp_rank;
	double *f[TS_MAXORDER], lam, lsum = 0, mx = 0, *t;
	uint64_t s, c, i, j, idx[TS_MAXORDER];
	int r, k;

	kr->w = ts_xcalloc(kr->cells, sizeof(*kr->w));
	for (r = 0; r < rank; r++)
		lsum += o->cp_equal ? 1 : fe_rng_exp(-(double)r);
	for (k = 0; k < order; k++)
		f[k] = ts_xreallocarray(NULL, kr->sdim[k], sizeof(double));
	t = ts_xreallocarray(NULL, kr->cells, sizeof(*t));
	for (r = 0; r < rank; r++) {
		lam = (o->cp_equal ? 1 : fe_rng_exp(-(double)r)) / lsum;
		for (k = 0; k < order; k++) {
			double sum = 0, a = gen_list_at(&o->cp_alpha, k);

			for (i = 0; i < kr->sdim[k]; i++)
				sum += f[k][i] = fe_rng_pow((double)(i + 1), -a);
			for (i = 0; i < kr->sdim[k]; i++)
				f[k][i] /= sum;
			s = fe_rng_mix(o->seed ^ fe_rng_mix(0x63700000ULL +
			    ((uint64_t)r << 8) + (uint64_t)k));
			for (i = kr->sdim[k]; i > 1; i--) {
				double v;

				j = fe_rng_below(&s, i);
				v = f[k][i - 1];
				f[k][i - 1] = f[k][j];
				f[k][j] = v;
			}
		}
		for (c = 0; c < kr->cells; c++) {
			double v = lam;

			for (s = c, k = order - 1; k >= 0; k--) {
				idx[k] = s % kr->sdim[k];
				s /= kr->sdim[k];
			}
			for (k = 0; k < order; k++)
				v *= f[k][idx[k]];
			kr->w[c] += v;
		}
	}
	for (c = 0; c < kr->cells; c++) {
		if (o->cp_noise > 0) {
			s = fe_rng_mix(o->seed ^ fe_rng_mix(0x6e6f697365ULL ^
			    (c << 16)));
			kr->w[c] *= 1 + o->cp_noise * (fe_rng_unit(&s) - 0.5);
		}
		mx = kr->w[c] > mx ? kr->w[c] : mx;
	}
	for (c = 0; c < kr->cells; c++) {
		double v = kr->w[c] / mx;

		kr->w[c] = v < 1e-12 ? 1e-12 : v > 1 - 1e-12 ? 1 - 1e-12 : v;
	}
	for (k = 0; k < order; k++)
		free(f[k]);
	free(t);
}

/* ---- the model ---- */

/* A step's digits into the coordinates so far, x = x * radix + digit,
 * order a constant where it is inlined. */
static inline __attribute__((always_inline)) void
step_in(const struct step *p, uint64_t *x, uint64_t *s, int order)
{
	const uint64_t *dg = p->digit + alias_draw(&p->a, fe_rng_next(s)) *
	    (uint64_t)order;
	int k;

	for (k = 0; k < order; k++)
		x[k] = x[k] * p->radix[k] + dg[k];
}

/* draw_box of order order, the coordinates held in a local array (in
 * registers, where they are few) until the last step. */
static inline __attribute__((always_inline)) void
box_of(const struct kron *kr, uint64_t *s, uint64_t *out, int order)
{
	uint64_t x[TS_MAXORDER];
	int t, k;

	for (k = 0; k < order; k++)
		x[k] = 0;
	for (t = 0; t < kr->nstep; t++)
		step_in(&kr->st[0], x, s, order);
	if (kr->st[1].levels > 0)
		step_in(&kr->st[1], x, s, order);
	for (k = 0; k < order; k++)
		out[k] = x[k];
}

/* One draw of the Kronecker law over the seed's powers into x. */
static void
draw_box(const struct kron *kr, uint64_t *s, uint64_t *x)
{
	switch (kr->order) {
	case 2:
		box_of(kr, s, x, 2);
		break;
	case 3:
		box_of(kr, s, x, 3);
		break;
	case 4:
		box_of(kr, s, x, 4);
		break;
	default:
		box_of(kr, s, x, kr->order);
		break;
	}
}

static void
kron_entry(const struct gen *g, uint64_t i, uint64_t *x)
{
	const struct kron *kr = g->st;
	uint64_t s = gen_state(g, i);
	int k;

	for (;;) {
		draw_box(kr, &s, x);
		if (!kr->reject)
			return;
		for (k = 0; k < kr->order && x[k] < g->o.dims[k]; k++)
			continue;
		if (k == kr->order)
			return;
	}
}

static void
kron_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		kron_entry(g, first + i, c + i * (size_t)g->o.order);
}

static double
kron_prob(const struct gen *g, const uint64_t *c)
{
	const struct kron *kr = g->st;
	uint64_t x[TS_MAXORDER], dg[TS_MAXORDER];
	double p = 1;
	int t, k;

	memcpy(x, c, (size_t)kr->order * sizeof(*x));
	for (t = 0; t < kr->levels; t++) {
		for (k = 0; k < kr->order; k++) {
			dg[k] = x[k] % kr->sdim[k];
			x[k] /= kr->sdim[k];
		}
		p *= kr->w[cell_of(kr, dg)] / kr->wsum;
	}
	return p / kr->accept;
}

/* The share of draws inside the dimensions, on a sample. */
static double
acceptance(const struct gen *g)
{
	struct kron *kr = g->st;
	uint64_t x[TS_MAXORDER], s = fe_rng_mix(g->o.seed ^ 0x616363ULL);
	int i, k, in = 0;

	for (i = 0; i < 65536; i++) {
		draw_box(kr, &s, x);
		for (k = 0; k < kr->order && x[k] < g->o.dims[k]; k++)
			continue;
		in += k == kr->order;
	}
	return (double)in / 65536;
}

/* The table of the seed's Kronecker power to levels: each outcome a
 * tuple of cells, the first the most significant. */
static void
step_build(struct kron *kr, struct step *p, int levels)
{
	uint64_t n = 1, o, c, rest;
	double *w;
	int t, k;

	p->levels = levels;
	for (t = 0; t < levels; t++)
		n *= kr->cells;
	for (k = 0; k < kr->order; k++)
		for (p->radix[k] = 1, t = 0; t < levels; t++)
			p->radix[k] *= kr->sdim[k];
	w = ts_xreallocarray(NULL, n, sizeof(*w));
	p->digit = ts_xcalloc(n, (size_t)kr->order * sizeof(*p->digit));
	for (o = 0; o < n; o++) {
		uint64_t *dg = p->digit + o * (uint64_t)kr->order;
		uint64_t cells[64];

		for (rest = o, t = levels - 1; t >= 0; t--) {
			cells[t] = rest % kr->cells;
			rest /= kr->cells;
		}
		w[o] = 1;
		for (t = 0; t < levels; t++) {
			c = cells[t];
			w[o] *= kr->w[c];
			for (k = kr->order - 1; k >= 0; k--) {
				dg[k] = dg[k] * kr->sdim[k] + kr->cdig[c *
				    (uint64_t)kr->order + (uint64_t)k];
			}
		}
	}
	alias_build(&p->a, w, n);
	free(w);
}

static int
kron_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	struct kron *kr = ts_xcalloc(1, sizeof(*kr));
	uint64_t c, s, box;
	bool cover;
	int k, t;

	g->st = kr;
	if (o->src != NULL) {
		struct seedread r = { kr, o->src, d, false };

		if (gen_read(o->src, o->src_base, d, seed_header, seed_batch,
		    &r) != 0)
			return -1;
	} else {
		kr->order = o->ncp_dims > 0 ? o->ncp_dims : o->order;
		if (kr->order == 0) {
			ts_diag_usage(d, "--model kronecker: give --cp-dims or "
			    "--dims (the CP seed's order)");
			return -1;
		}
		if (o->cp_alpha.n > 1 && o->cp_alpha.n != kr->order) {
			ts_diag_usage(d, "--cp-alpha gives %d exponents; the "
			    "seed has order %d", o->cp_alpha.n, kr->order);
			return -1;
		}
		if (o->cp_alpha.n == 0) {
			o->cp_alpha.n = 1;
			o->cp_alpha.v[0] = 1.2;
		}
		kr->cells = 1;
		for (k = 0; k < kr->order; k++) {
			kr->sdim[k] = o->ncp_dims > 0 ? o->cp_dims[k] : 2;
			if (!ts_mul_u64(kr->cells, kr->sdim[k], &kr->cells) ||
			    kr->cells > CELLS_MAX) {
				ts_diag_usage(d, "--cp-dims: a seed is held "
				    "dense: %llu cells at most",
				    (unsigned long long)CELLS_MAX);
				return -1;
			}
		}
		cp_seed(kr, o);
	}
	if (o->nexpect > 0 && (o->nexpect != kr->order ||
	    memcmp(o->expect, kr->sdim, (size_t)kr->order *
	    sizeof(*o->expect)) != 0)) {
		ts_diag(d, TS_SEV_ERROR, o->src, 0, 0, TS_RULE_NONE,
		    "the seed's dimensions are not those 'seed.sizes' says");
		return -1;
	}
	if (o->order != 0 && o->order != kr->order) {
		ts_diag_usage(d, "--dims gives %d dimensions; the seed has "
		    "order %d", o->order, kr->order);
		return -1;
	}
	for (c = 0; c < kr->cells; c++)
		kr->wsum += kr->w[c];
	if (!(kr->wsum > 0) || kr->wsum == HUGE_VAL) {
		ts_diag(d, TS_SEV_ERROR, o->src, 0, 0, TS_RULE_NONE,
		    "the seed's weights sum to %g: a law needs a positive, "
		    "finite sum", kr->wsum);
		return -1;
	}
	/* The levels: given, or the fewest whose box covers dims. */
	if (o->levels == 0 && o->order == 0) {
		ts_diag_usage(d, "--model kronecker: give --levels, --dims or "
		    "both");
		return -1;
	}
	for (t = 1; o->levels == 0; t++) {
		for (cover = true, k = 0; k < kr->order; k++) {
			for (box = 1, s = 0; s < (uint64_t)t; s++)
				if (!ts_mul_u64(box, kr->sdim[k], &box))
					box = UINT64_MAX;
			cover &= box >= o->dims[k] || kr->sdim[k] == 1;
		}
		if (cover || t == 64)
			o->levels = t;
	}
	kr->levels = o->levels;
	for (k = 0; k < kr->order; k++) {
		for (box = 1, t = 0; t < kr->levels; t++)
			if (!ts_mul_u64(box, kr->sdim[k], &box) ||
			    box > (uint64_t)INT64_MAX) {
				ts_diag_usage(d, "--levels %d: mode %d would "
				    "have more than 2^63-1 coordinates",
				    kr->levels, k + 1);
				return -1;
			}
		kr->box[k] = box;
	}
	if (o->order == 0) {
		o->order = kr->order;
		memcpy(o->dims, kr->box, sizeof(o->dims));
	}
	for (k = 0; k < kr->order; k++) {
		if (o->box_only && o->dims[k] != kr->box[k]) {
			ts_diag_usage(d, "'tensor.sizes': for fastSKG they are "
			    "the seed's dimensions to the power fastskg.iter: "
			    "mode %d is %llu, not %llu", k + 1,
			    (unsigned long long)kr->box[k],
			    (unsigned long long)o->dims[k]);
			return -1;
		}
		if (o->dims[k] > kr->box[k]) {
			ts_diag_usage(d, "--levels %d make mode %d %llu "
			    "coordinates, fewer than its dimension %llu",
			    kr->levels, k + 1, (unsigned long long)kr->box[k],
			    (unsigned long long)o->dims[k]);
			return -1;
		}
		kr->reject |= o->dims[k] < kr->box[k];
	}
	/* No nnz: the seed's sum to the levels, rounded, as fastSKG. */
	if (!o->has_nnz) {
		double e = fe_rng_pow(kr->wsum, (double)kr->levels);

		if (!(e >= 1 && e < 0x1p62)) {
			ts_diag_usage(d, "--model kronecker: give --nnz (the "
			    "seed's weights sum to %g, which to the %d levels "
			    "is no count)", kr->wsum, kr->levels);
			return -1;
		}
		o->nnz = (uint64_t)(e + 0.5);
		o->has_nnz = true;
	}
	kr->cdig = ts_xreallocarray(NULL, kr->cells, (size_t)kr->order *
	    sizeof(*kr->cdig));
	for (c = 0; c < kr->cells; c++)
		for (s = c, k = kr->order - 1; k >= 0; k--) {
			kr->cdig[c * (uint64_t)kr->order + (uint64_t)k] =
			    (uint32_t)(s % kr->sdim[k]);
			s /= kr->sdim[k];
		}
	/* As many levels a draw as a table of STEP_CELLS holds. */
	for (t = 1, box = kr->cells; t < kr->levels && box <= STEP_CELLS /
	    kr->cells; t++)
		box *= kr->cells;
	step_build(kr, &kr->st[0], t);
	kr->nstep = kr->levels / t;
	if (kr->levels % t != 0)
		step_build(kr, &kr->st[1], kr->levels % t);
	kr->accept = kr->reject ? acceptance(g) : 1;
	if (kr->accept < ACCEPT_MIN) {
		ts_diag_usage(d, "--dims: %.3g%% of the seed's draws fall "
		    "inside them: give fewer --levels, or dimensions closer "
		    "to the seed's powers", kr->accept * 100);
		return -1;
	}
	return 0;
}

static void
kron_describe(const struct gen *g, struct ts_strbuf *sb, bool key)
{
	const struct gen_opts *o = &g->o;
	const struct kron *kr = g->st;
	int k;

	ts_sbprintf(sb, "; levels %d; seed dims ", kr->levels);
	for (k = 0; k < kr->order; k++)
		ts_sbprintf(sb, "%s%llu", k ? "," : "",
		    (unsigned long long)kr->sdim[k]);
	if (o->src != NULL) {
		/* Its contents, not where it is, make the key. */
		uint64_t h = 0xcbf29ce484222325ULL, c, bits;

		for (c = 0; c < kr->cells; c++) {
			memcpy(&bits, &kr->w[c], sizeof(bits));
			h = (h ^ bits) * 0x100000001b3ULL;
		}
		if (!key)
			ts_sbprintf(sb, "; seed tensor %s,", ts_basename(o->src));
		ts_sbprintf(sb, "%s weights hashed %016llx", key ? ";" : "",
		    (unsigned long long)h);
	} else {
		ts_sbprintf(sb, "; cp rank %d", o->cp_rank);
		gen_describe_list(sb, "cp alpha", &o->cp_alpha, kr->order);
		if (o->cp_noise > 0)
			ts_sbprintf(sb, "; cp noise %.17g", o->cp_noise);
		ts_sbprintf(sb, "; cp lambda %s", o->cp_equal ? "none" :
		    "softmax");
	}
}

static char *
kron_notes(const struct gen *g)
{
	const struct kron *kr = g->st;
	struct ts_strbuf sb = { NULL, 0, 0 };
	char buf[32];
	uint64_t c;

	ts_sbprintf(&sb, "- Seed: %llu cells, weights summing to %.17g; %d "
	    "levels, drawn %d at a time from an alias table of the seed's "
	    "Kronecker power\n", (unsigned long long)kr->cells, kr->wsum,
	    kr->levels, kr->st[0].levels);
	if (kr->reject)
		ts_sbprintf(&sb, "- Dimensions below the seed's powers: an "
		    "entry with a coordinate beyond its dimension is drawn "
		    "again (%.3g%% of the draws fall inside)\n",
		    kr->accept * 100);
	if (kr->cells <= 64) {
		ts_sbprintf(&sb, "- Seed weights, cell by cell, the last mode "
		    "fastest:");
		for (c = 0; c < kr->cells; c++) {
			ts_fmt_double(buf, kr->w[c]);
			ts_sbprintf(&sb, " %s", buf);
		}
		ts_sbprintf(&sb, "\n");
	}
	return sb.s;
}

static void
kron_free(struct gen *g)
{
	struct kron *kr = g->st;
	int i;

	if (kr == NULL)
		return;
	free(kr->w);
	free(kr->cdig);
	for (i = 0; i < 2; i++) {
		free(kr->st[i].digit);
		alias_free(&kr->st[i].a);
	}
	free(kr);
	g->st = NULL;
}

const struct gen_model gen_kronecker = {
	"kronecker", HAS_SRC, kron_setup, NULL, kron_fill, kron_prob,
	kron_describe, kron_notes, kron_free
};
