/*
 * model.c - the table of ts-gen's models (one row a model, its file
 * beside this one) and what every model shares: the request checked,
 * the key of the draws, --permute and --symmetric applied to what a
 * model draws, and how many draws are likely to give nnz distinct
 * coordinates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* indep.c, degree.c, kron.c, ... */
extern const struct gen_model gen_uniform, gen_random, gen_zipf,
	    gen_kronecker, gen_block, gen_sbm, gen_poisson_cp, gen_like;

const struct gen_model *const gen_models[] = {
	&gen_uniform, &gen_random, &gen_zipf, &gen_kronecker, &gen_block,
	&gen_sbm, &gen_poisson_cp, &gen_like, NULL
};

const char *
gen_model_name(int i)
{
	int n;

	for (n = 0; gen_models[n] != NULL; n++)
		continue;
	return i >= 0 && i < n ? gen_models[i]->name : NULL;
}

/* "name v1,v2" of a list, or nothing when it was not given. */
void
gen_describe_list(struct ts_strbuf *sb, const char *name,
    const struct gen_list *l, int order)
{
	char buf[32];
	int k, n = l->n == 1 ? order : l->n;

	if (l->n == 0)
		return;
	ts_sbprintf(sb, "; %s ", name);
	for (k = 0; k < n; k++) {
		ts_fmt_double(buf, gen_list_at(l, k));
		ts_sbprintf(sb, "%s%s", k ? "," : "", buf);
	}
}

/* The parameters, for the key (without the names of files read) or
 * for people. */
static char *
describe(const struct gen *g, bool key)
{
	struct ts_strbuf sb = { NULL, 0, 0 };
	int k;

	ts_sbprintf(&sb, "model %s; dims ", g->m->name);
	for (k = 0; k < g->o.order; k++)
		ts_sbprintf(&sb, "%s%llu", k ? "," : "",
		    (unsigned long long)g->o.dims[k]);
	if (g->m->describe != NULL)
		g->m->describe(g, &sb, key);
	if (g->o.permute)
		ts_sbprintf(&sb, "; permuted");
	if (g->o.symmetric)
		ts_sbprintf(&sb, "; symmetric");
	ts_sbprintf(&sb, "; seed %llu", (unsigned long long)g->o.seed);
	return sb.s;
}

char *
gen_describe(const struct gen *g)
{
	return describe(g, false);
}

/* The key: the seed and every parameter of the model, through FNV-1a
 * and SplitMix64's finalizer. */
static uint64_t
make_key(const char *desc, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)desc; *p != '\0'; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return fe_rng_mix(fe_rng_mix(h) ^ seed);
}

/* The positions of the tensor (canonical tuples under --symmetric:
 * multisets of order coordinates of dims[0]). */
static double
positions(const struct gen *g)
{
	double n = 1;
	int k;

	for (k = 0; k < g->o.order; k++)
		n *= g->o.symmetric ? ((double)g->o.dims[0] + k) / (k + 1) :
		    (double)g->o.dims[k];
	return n;
}

int
gen_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	char *desc;
	int k;

	g->m = gen_models[o->model];
	if (g->m->setup != NULL && g->m->setup(g, d) != 0)
		return -1;
	if (o->symmetric)
		for (k = 1; k < o->order; k++)
			if (o->dims[k] != o->dims[0]) {
				ts_diag_usage(d, "--symmetric: every dimension "
				    "must be the same");
				return -1;
			}
	if (o->dups != GEN_ALLOW && !(g->m->needs & BLOCKS) &&
	    g->m->prob != NULL && positions(g) < (double)o->nnz) {
		ts_diag_usage(d, "--nnz %llu distinct coordinates: the tensor "
		    "has %.17g positions%s", (unsigned long long)o->nnz,
		    positions(g), o->symmetric ? " up to symmetry" : "");
		return -1;
	}
	desc = describe(g, true);
	g->key = make_key(desc, o->seed);
	free(desc);
	if (g->m->keyed != NULL && g->m->keyed(g, d) != 0)
		return -1;
	for (k = 0; k < o->order && o->permute; k++) {
		perm_init(&g->pm[k], o->dims[k]);
		g->pmkey[k] = fe_rng_mix(g->key ^ (0x70657200ULL + (uint64_t)k));
	}
	return 0;
}

void
gen_free(struct gen *g)
{
	int k;

	if (g->m != NULL && g->m->free != NULL)
		g->m->free(g);
	for (k = 0; k < TS_MAXORDER; k++) {
		free(g->extents[k]);
		g->extents[k] = NULL;
	}
}

/* Sort the n coordinates at c ascending (insertion: orders are small). */
static void
canonical(uint64_t *c, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		uint64_t v = c[i];

		for (j = i; j > 0 && c[j - 1] > v; j--)
			c[j] = c[j - 1];
		c[j] = v;
	}
}

void
gen_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	const int order = g->o.order;
	size_t i;
	int k;

	g->m->fill(g, first, n, c);
	if (g->o.permute)
		for (i = 0; i < n; i++)
			for (k = 0; k < order; k++)
				c[i * (size_t)order + (size_t)k] = gen_permuted(g,
				    k, c[i * (size_t)order + (size_t)k]);
	if (g->o.symmetric)
		for (i = 0; i < n; i++)
			canonical(c + i * (size_t)order, order);
}

/* ---- a tensor a model reads ---- */

/* Coordinate c (0-based) of mode k is not below dim. */
static void
beyond(struct ts_diags *d, const char *path, uint64_t line, uint64_t c,
    int k, uint64_t dim, bool lone)
{
	if (c == UINT64_MAX)
		ts_diag(d, TS_SEV_ERROR, path, line, 0, TS_RULE_S1,
		    "coordinate 0 of mode %d in a 1-based file (a file "
		    "without metadata is read 1-based: --input-base 0 reads "
		    "it 0-based)", k + 1);
	else
		ts_diag(d, TS_SEV_ERROR, path, line, 0, TS_RULE_S1,
		    "coordinate %llu of mode %d is beyond its dimension %llu",
		    (unsigned long long)c + (lone ? 0 : 1), k + 1, (unsigned
		    long long)dim);
}

int
gen_read(const char *path, int base, struct ts_diags *d,
    int (*header)(void *, const struct ts_header *),
    int (*batch)(void *, const struct ts_batch *), void *arg)
{
	struct ts_input *in = ts_input_open(path, NULL, d);
	const struct ts_header *h;
	struct ts_decoder *dec;
	struct ts_batch b;
	uint64_t *c;
	long r = -1;
	size_t i;
	int k;
	bool lone;

	if (in == NULL || (dec = ts_input_decoder(in)) == NULL ||
	    ts_diags_errors(d) > 0) {
		ts_input_close(in);
		return -1;
	}
	h = ts_decoder_header(dec);
	/* The coordinates are checked below, in the base asked for. */
	ts_decoder_check_bounds(dec, false);
	/* A lone data file is read 1-based, unless told. */
	lone = ts_input_kind(in) != TS_KIND_BUNDLE && base == 0;
	if (header(arg, h) == 0) {
		ts_batch_init(&b, h->order, 8192);
		while ((r = ts_decoder_next(dec, &b)) > 0) {
			for (i = 0, c = b.coords; i < b.n; i++)
				for (k = 0; k < h->order; k++, c++) {
					*c += lone;
					if (*c < h->dims[k] || !h->dims_known)
						continue;
					beyond(d, path, b.loc[i], *c, k,
					    h->dims[k], lone);
					r = -1;
					goto out;
				}
			if (ts_diags_errors(d) > 0 || batch(arg, &b) != 0) {
				r = -1;
				break;
			}
		}
out:
		ts_batch_free(&b);
	}
	if (r == 0 && (ts_diags_errors(d) > 0 || ts_input_finish(in) != 0))
		r = -1;
	ts_input_close(in);
	return r == 0 ? 0 : -1;
}

/* ---- how many draws give nnz distinct coordinates ---- */

#define PILOT	4096

/* The distinct permutations of the tuple c (its orbit's size). */
static double
orbit(const uint64_t *c, int order)
{
	double n = 1;
	int i, run = 1;

	for (i = 1; i <= order; i++)
		n *= i;
	for (i = 1; i <= order; i++) {
		if (i < order && c[i] == c[i - 1]) {
			run++;
			continue;
		}
		for (; run > 1; run--)
			n /= run;
	}
	return n;
}

/* The estimate of the distinct coordinates among n draws, of the
 * sample's probabilities p (lp: ln(1 - p)), and of its variance (at
 * most the sum over positions x of q_x (1 - q_x), q_x the chance that x
 * is drawn: the covariances are negative). */
static double
distinct(const double *p, const double *lp, uint64_t n, double *var)
{
	double f = 0, v = 0, q;
	int j;

	for (j = 0; j < PILOT; j++) {
		q = -expm1((double)n * lp[j]);
		f += q / p[j];
		v += q * (1 - q) / p[j];
	}
	*var = v / PILOT;
	return f / PILOT;
}

/* Does the estimate at n clear nnz by three standard deviations?  Or
 * are there hardly more to find past n (the model's positions nearly
 * all drawn), so that more draws would not help? */
static bool
enough(const double *p, const double *lp, uint64_t n, uint64_t nnz)
{
	double var, f = distinct(p, lp, n, &var);

	return f >= (double)nnz + 3 * sqrt(var) + 1 ||
	    distinct(p, lp, 2 * n, &var) - f < 0.5;
}

/*
 * The expected number of distinct coordinates among n draws is the sum
 * over positions x of 1 - (1 - p_x)^n, which is the mean over draws x of
 * (1 - (1 - p_x)^n) / p_x: estimated on a sample of the model's own
 * draws, with the model's probability of each; the fewest draws that
 * clear nnz, found by doubling, then halving the gap.  Only how fast
 * the tensor is made depends on it (libm is good enough here): the exact
 * stage draws more when these fall short.
 */
uint64_t
gen_draws_for(const struct gen *g, uint64_t nnz)
{
	const int order = g->o.order;
	uint64_t *c, lo, hi, mid, cap = GEN_MAX_DRAWS(nnz);
	double p[PILOT], lp[PILOT];
	struct gen pg;
	int j;

	if (g->m->prob == NULL || nnz == 0)
		return nnz;
	pg = *g;
	pg.key = fe_rng_mix(g->key ^ 0x70696c6f74ULL);	/* "pilot" */
	c = ts_xreallocarray(NULL, PILOT, (size_t)order * sizeof(*c));
	/* The model's draws, before --permute moves them (a bijection) and
	 * --symmetric takes their orbits. */
	g->m->fill(&pg, 0, PILOT, c);
	for (j = 0; j < PILOT; j++) {
		uint64_t *t = c + (size_t)j * (size_t)order;

		p[j] = g->m->prob(g, t);
		if (g->o.symmetric) {
			canonical(t, order);
			p[j] *= orbit(t, order);
		}
		p[j] = p[j] > 1e-300 ? p[j] < 1 ? p[j] : 1 - 1e-16 : 1e-300;
		lp[j] = log1p(-p[j]);
	}
	free(c);
	lo = hi = nnz;
	while (!enough(p, lp, hi, nnz) && hi < cap) {
		lo = hi;
		hi = hi < cap / 2 ? 2 * hi : cap;
	}
	/* Within a sixty-fourth of the draws past nnz. */
	while (hi - lo > 1 + (hi - nnz) / 64) {
		mid = lo + (hi - lo) / 2;
		if (enough(p, lp, mid, nnz))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
