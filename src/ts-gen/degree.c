/*
 * degree.c - the models that fix each mode's slice degrees, then shuffle
 * the modes' columns independently: random, the reference's
 * element-wise/random generator (each slice's degree uniform on
 * [low, high], rebalanced to sum to nnz), and like, a tensor's sibling
 * (its degrees).
 *
 * A mode's column is the multiset of its slices, each as many times as
 * its degree, in an order of its own: entry i takes position
 * perm(i mod nnz) of it, the permutation keyed by the mode and by
 * i / nnz, so that draws past nnz (to top up repeats) go round again
 * with the same degrees in another order.  The slice of a position is
 * found in the prefix sums of the degrees, through a guide table of the
 * first slice of each run of positions.
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

/* The most slices a mode of these models may have: their degrees are
 * held in memory, 8 bytes each (and a slice's number fits the guide's
 * 32 bits). */
#define DEG_MAX		((uint64_t)1 << 28)

struct degseq {
	uint64_t	 d, total;
	uint64_t	*prefix;	/* d + 1: degrees summed before */
	uint32_t	*guide;		/* ng + 1: the slice of position
					 * b << gshift */
	uint64_t	 ng;
	int		 gshift;
	struct perm	 pm;
	uint64_t	 key;		/* the mode's, with the run's */
};

/* The degrees cnt (d of them, summing to total > 0) as the sums and
 * the guide the draws look up; cnt is taken. */
static void
degseq_init(struct degseq *q, uint64_t *cnt, uint64_t d, uint64_t total,
    uint64_t key)
{
	uint64_t s, b, sum = 0;

	q->d = d;
	q->total = total;
	q->key = key;
	q->prefix = ts_xreallocarray(cnt, d + 1, sizeof(*q->prefix));
	for (s = 0; s < d; s++) {
		uint64_t c = q->prefix[s];

		q->prefix[s] = sum;
		sum += c;
	}
	q->prefix[d] = sum;
	/* About a run of positions a slice of the mean degree, four when
	 * the degrees are many (so that most runs fall in one slice), at
	 * most 2^22 runs: the guide stays near the sums' size. */
	q->gshift = 0;
	while (((total - 1) >> q->gshift) + 1 > (total / d >= 4 ? 4 * d : d) ||
	    ((total - 1) >> q->gshift) + 1 > ((uint64_t)1 << 22))
		q->gshift++;
	q->ng = ((total - 1) >> q->gshift) + 1;
	q->guide = ts_xreallocarray(NULL, q->ng + 1, sizeof(*q->guide));
	for (s = 0, b = 0; b < q->ng; b++) {
		uint64_t pos = b << q->gshift;

		while (q->prefix[s + 1] <= pos)
			s++;
		q->guide[b] = (uint32_t)s;
	}
	q->guide[q->ng] = (uint32_t)(d - 1);
	perm_init(&q->pm, total);
}

static void
degseq_free(struct degseq *q)
{
	free(q->prefix);
	free(q->guide);
}

/* The key of round r of the mode's column (entries r nnz to (r + 1)
 * nnz - 1), with the run's key. */
static inline uint64_t
degseq_key(const struct degseq *q, uint64_t key, uint64_t r)
{
	return key ^ q->key ^ fe_rng_mix(r + FE_RNG_GAMMA);
}

/* The slice at position p of the column. */
static inline uint64_t
degseq_slice(const struct degseq *q, uint64_t p)
{
	uint64_t b = p >> q->gshift, lo = q->guide[b], hi = q->guide[b + 1];

	/* The last slice whose first position is at most p: most runs of
	 * positions lie in one slice or two, told without a branch (which
	 * would be a coin toss). */
	if (hi - lo <= 1)
		return lo + ((hi != lo) & (q->prefix[hi] <= p));
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (q->prefix[mid] <= p)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static double
degseq_prob(const struct degseq *q, uint64_t s)
{
	return (double)(q->prefix[s + 1] - q->prefix[s]) / (double)q->total;
}

struct degst {
	int		 order;
	struct degseq	 q[TS_MAXORDER];
};

/* Positions pos to pos + 3 of the column into c, order apart: four
 * chains of multiplies side by side. */
static inline void
four(const struct degseq *q, uint64_t key, uint64_t pos, uint64_t *c,
    size_t order)
{
	uint64_t p[4];
	int j;

	for (j = 0; j < 4; j++)
		p[j] = perm_feistel(&q->pm, key, pos + (uint64_t)j);
	for (j = 0; j < 4; j++)
		c[(size_t)j * order] = p[j] < q->total ? p[j] :
		    perm_at(&q->pm, key, p[j]);
}

#define AHEAD	32	/* positions whose guide is fetched ahead */

/*
 * The slices of the m positions at c, order apart, in place.  A large
 * column's sums and guide are far from the cache, and the positions
 * random in them: their lines are fetched ahead, the guide's AHEAD
 * positions before, the sums' half as many, so that the misses overlap.
 */
static void
slices_of(const struct degseq *q, uint64_t *c, size_t m, size_t order)
{
	size_t e;

	for (e = 0; e < m; e++) {
		if (e + AHEAD < m)
			__builtin_prefetch(&q->guide[c[(e + AHEAD) * order] >>
			    q->gshift]);
		if (e + AHEAD / 2 < m)
			__builtin_prefetch(&q->prefix[q->guide[c[(e + AHEAD /
			    2) * order] >> q->gshift]]);
		c[e * order] = degseq_slice(q, c[e * order]);
	}
}

/* Entries [first, first + n): a mode at a time, a round at a time. */
static void
deg_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	const struct degst *st = g->st;
	const size_t order = (size_t)g->o.order;
	size_t i, k, m;

	for (k = 0; k < order; k++) {
		const struct degseq *q = &st->q[k];
		uint64_t r = first / q->total, pos = first - r * q->total;

		for (i = 0; i < n; i += m) {
			uint64_t key = degseq_key(q, g->key, r);
			size_t e;

			m = q->total - pos < n - i ? (size_t)(q->total - pos) :
			    n - i;
			/* The positions, then their slices. */
			for (e = 0; e + 3 < m; e += 4)
				four(q, key, pos + e, c + (i + e) * order + k,
				    order);
			for (; e < m; e++)
				c[(i + e) * order + k] = perm_at(&q->pm, key,
				    pos + e);
			slices_of(q, c + i * order + k, m, order);
			pos = 0;
			r++;
		}
	}
}

static double
deg_prob(const struct gen *g, const uint64_t *c)
{
	const struct degst *st = g->st;
	double p = 1;
	int k;

	for (k = 0; k < g->o.order; k++)
		p *= degseq_prob(&st->q[k], c[k]);
	return p;
}

static void
deg_free(struct gen *g)
{
	struct degst *st = g->st;
	int k;

	for (k = 0; st != NULL && k < st->order; k++)
		degseq_free(&st->q[k]);
	free(st);
	g->st = NULL;
}

/* ---- random ---- */

/*
 * Degrees that sum to total, as the reference rebalances them: short,
 * the difference goes to slices drawn uniformly (a multinomial); over,
 * slices that still have entries lose one each, drawn without
 * replacement, round after round.
 */
static void
rebalance(uint64_t *cnt, uint64_t d, uint64_t total, uint64_t *s)
{
	uint64_t sum = 0, i, *pos, np, take;

	for (i = 0; i < d; i++)
		sum += cnt[i];
	if (sum == 0) {
		for (i = 0; i < d; i++)
			cnt[i] = 1;
		sum = d;
	}
	for (; sum < total; sum++)
		cnt[fe_rng_below(s, d)]++;
	if (sum <= total)
		return;
	pos = ts_xreallocarray(NULL, d, sizeof(*pos));
	while (sum > total) {
		for (np = 0, i = 0; i < d; i++)
			if (cnt[i] > 0)
				pos[np++] = i;
		take = sum - total < np ? sum - total : np;
		/* The first take of a Fisher-Yates shuffle of pos. */
		for (i = 0; i < take; i++) {
			uint64_t j = i + fe_rng_below(s, np - i), t = pos[j];

			pos[j] = pos[i];
			pos[i] = t;
			cnt[t]--;
		}
		sum -= take;
	}
	free(pos);
}

static int
random_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	struct degst *st;
	uint64_t *cnt, lo, hi, i, s;
	int k;

	if ((o->low.n > 1 && o->low.n != o->order) || (o->high.n > 1 &&
	    o->high.n != o->order)) {
		ts_diag_usage(d, "--low and --high give one value, or one a "
		    "mode (the tensor has order %d)", o->order);
		return -1;
	}
	for (k = 0; k < o->order; k++) {
		double l = o->low.n ? gen_list_at(&o->low, k) : 0;
		double h = o->high.n ? gen_list_at(&o->high, k) :
		    2.0 * (double)o->nnz / (double)o->dims[k];

		if (o->dims[k] > DEG_MAX) {
			ts_diag_usage(d, "the random model holds a degree for "
			    "each slice: dimension %llu is more than %llu",
			    (unsigned long long)o->dims[k],
			    (unsigned long long)DEG_MAX);
			return -1;
		}
		if (!(l >= 0 && l <= 0x1p62) || !(h >= 0 && h <= 0x1p62) ||
		    ceil(h) < floor(l)) {
			ts_diag_usage(d, "--low and --high: degrees from 0 up, "
			    "low at most high (mode %d)", k + 1);
			return -1;
		}
	}
	if (o->nnz == 0) {
		ts_diag_usage(d, "the random model needs --nnz of 1 or more");
		return -1;
	}
	st = ts_xcalloc(1, sizeof(*st));
	st->order = o->order;
	g->st = st;
	for (k = 0; k < o->order; k++) {
		lo = (uint64_t)floor(o->low.n ? gen_list_at(&o->low, k) : 0);
		hi = (uint64_t)ceil(o->high.n ? gen_list_at(&o->high, k) :
		    2.0 * (double)o->nnz / (double)o->dims[k]);
		s = fe_rng_mix(o->seed ^ fe_rng_mix(0x646567ULL + (uint64_t)k));
		cnt = ts_xreallocarray(NULL, o->dims[k], sizeof(*cnt));
		for (i = 0; i < o->dims[k]; i++)
			cnt[i] = lo + fe_rng_below(&s, hi - lo + 1);
		rebalance(cnt, o->dims[k], o->nnz, &s);
		degseq_init(&st->q[k], cnt, o->dims[k], o->nnz,
		    fe_rng_mix(0x6d6f6465ULL + (uint64_t)k));
	}
	return 0;
}

static void
random_describe(const struct gen *g, struct ts_strbuf *sb, bool key)
{
	int k;

	ts_sbprintf(sb, "; low ");
	for (k = 0; k < g->o.order; k++)
		ts_sbprintf(sb, "%s%.17g", k ? "," : "", g->o.low.n ?
		    floor(gen_list_at(&g->o.low, k)) : 0.0);
	ts_sbprintf(sb, "; high ");
	for (k = 0; k < g->o.order; k++)
		ts_sbprintf(sb, "%s%.17g", k ? "," : "", ceil(g->o.high.n ?
		    gen_list_at(&g->o.high, k) : 2.0 * (double)g->o.nnz /
		    (double)g->o.dims[k]));
	ts_sbprintf(sb, "; degrees summing to %llu",
	    (unsigned long long)g->o.nnz);
}

const struct gen_model gen_random = {
	"random", NEED_DIMS | NEED_NNZ, random_setup, NULL, deg_fill, deg_prob,
	random_describe, NULL, deg_free
};

/* ---- like ---- */

/*
 * like: a synthetic sibling of a tensor SRC: the same order, and in each
 * mode the same slice degrees.  SRC's slices are counted as it is read
 * (a file without metadata may state no dimensions: they are then the
 * extent of its coordinates, and its index base 0 when a coordinate is
 * 0, as ts-convert reads FROSTT); with --scale 1 (the default) each
 * slice keeps its degree, so that the sibling's degrees are SRC's and
 * only the way the modes pair up changes; with --scale F, a mode of
 * dimension d becomes F d slices (rounded, at least 1), each with a
 * degree drawn from SRC's degrees of that mode (empty slices too), then
 * rebalanced to F nnz entries as the random model's are.
 */
struct likeread {
	int		 order;
	uint64_t	*cnt[TS_MAXORDER];	/* by coordinate + 1 */
	uint64_t	 cap[TS_MAXORDER], top[TS_MAXORDER];
	uint64_t	 dims[TS_MAXORDER];
	bool		 dims_known, raw0;
	uint64_t	 n;
	const char	*path;
	struct ts_diags	*d;
};

static int
like_header(void *arg, const struct ts_header *h)
{
	struct likeread *r = arg;

	if (h->block) {
		ts_diag(r->d, TS_SEV_ERROR, r->path, 0, 0, TS_RULE_NONE,
		    "a block tensor's entries are blocks: --model like takes "
		    "an element tensor");
		return -1;
	}
	r->order = h->order;
	r->dims_known = h->dims_known;
	memcpy(r->dims, h->dims, sizeof(r->dims));
	return 0;
}

static int
like_batch(void *arg, const struct ts_batch *b)
{
	struct likeread *r = arg;
	const uint64_t *c = b->coords;
	size_t i;
	int k;

	for (i = 0; i < b->n; i++)
		for (k = 0; k < r->order; k++, c++) {
			/* At coordinate + 1: a 0 of a file read 1-based
			 * wraps to 0 there. */
			uint64_t x = *c + 1;

			r->raw0 |= x == 0 && !r->dims_known;
			if (x >= r->cap[k]) {
				uint64_t cap = r->cap[k] ? r->cap[k] : 1024;

				if (x >= DEG_MAX + 2) {
					ts_diag(r->d, TS_SEV_ERROR, r->path, 0,
					    0, TS_RULE_NONE, "mode %d has a "
					    "coordinate beyond %llu: its "
					    "slices are counted in memory", k +
					    1, (unsigned long long)DEG_MAX);
					return -1;
				}
				while (cap <= x)
					cap *= 2;
				r->cnt[k] = ts_xreallocarray(r->cnt[k], cap,
				    sizeof(uint64_t));
				memset(r->cnt[k] + r->cap[k], 0, (cap -
				    r->cap[k]) * sizeof(uint64_t));
				r->cap[k] = cap;
			}
			r->cnt[k][x]++;
			r->top[k] = x + 1 > r->top[k] ? x + 1 : r->top[k];
		}
	r->n += b->n;
	return 0;
}

static int
like_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	struct likeread r;
	struct degst *st;
	uint64_t *cnt, dk, i, first, s, total;
	int k, rv = -1;

	memset(&r, 0, sizeof(r));
	r.path = o->src;
	r.d = d;
	if (gen_read(o->src, o->src_base, d, like_header, like_batch,
	    &r) != 0)
		goto out;
	if (r.n == 0) {
		ts_diag(d, TS_SEV_ERROR, o->src, 0, 0, TS_RULE_NONE,
		    "no entry: a tensor without entries has no degrees to "
		    "follow");
		goto out;
	}
	if (o->scale == 0)
		o->scale = 1;
	total = (uint64_t)((double)r.n * o->scale + 0.5);
	if (total < 1 || (double)r.n * o->scale > 0x1p62) {
		ts_diag_usage(d, "--scale %g: %g entries", o->scale,
		    (double)r.n * o->scale);
		goto out;
	}
	if (o->order != 0 && o->order != r.order) {
		ts_diag_usage(d, "--dims gives %d dimensions; '%s' has order "
		    "%d", o->order, o->src, r.order);
		goto out;
	}
	st = ts_xcalloc(1, sizeof(*st));
	g->st = st;
	st->order = o->order = r.order;
	o->nnz = o->has_nnz ? o->nnz : total;
	o->has_nnz = true;
	for (k = 0; k < r.order; k++) {
		/* SRC's degrees by 0-based coordinate, counted at it + 1:
		 * at it, when a file without dimensions or base is 0-based
		 * (a coordinate is 0), its coordinates read 1-based. */
		first = !r.dims_known && r.raw0 && o->src_base < 0 ? 0 : 1;
		dk = r.dims_known ? r.dims[k] : r.top[k] > first ?
		    r.top[k] - first : 1;
		cnt = ts_xcalloc(dk, sizeof(*cnt));
		for (i = 0; i < dk && r.cnt[k] != NULL; i++)
			cnt[i] = i + first < r.cap[k] ? r.cnt[k][i + first] : 0;
		if (o->scale == 1 && o->nnz == r.n) {
			o->dims[k] = dk;
			degseq_init(&st->q[k], cnt, dk, o->nnz,
			    fe_rng_mix(0x6c696b65ULL + (uint64_t)k));
			continue;
		}
		/* Scaled: degrees drawn from SRC's, then rebalanced. */
		o->dims[k] = (uint64_t)((double)dk * o->scale + 0.5);
		o->dims[k] = o->dims[k] < 1 ? 1 : o->dims[k];
		if (o->dims[k] > DEG_MAX) {
			free(cnt);
			ts_diag_usage(d, "--scale %g: mode %d would have more "
			    "than %llu slices", o->scale, k + 1,
			    (unsigned long long)DEG_MAX);
			goto out;
		}
		{
			uint64_t *nc = ts_xcalloc(o->dims[k], sizeof(*nc));

			s = fe_rng_mix(o->seed ^ fe_rng_mix(0x6c6b00ULL +
			    (uint64_t)k));
			for (i = 0; i < o->dims[k]; i++)
				nc[i] = cnt[fe_rng_below(&s, dk)];
			free(cnt);
			rebalance(nc, o->dims[k], o->nnz, &s);
			degseq_init(&st->q[k], nc, o->dims[k], o->nnz,
			    fe_rng_mix(0x6c696b65ULL + (uint64_t)k));
		}
	}
	rv = 0;
out:
	for (k = 0; k < TS_MAXORDER; k++)
		free(r.cnt[k]);
	return rv;
}

static void
like_describe(const struct gen *g, struct ts_strbuf *sb, bool key)
{
	const struct degst *st = g->st;
	uint64_t h = 0xcbf29ce484222325ULL, s;
	int k;
	char buf[32];

	/* SRC's degrees, not where it is, make the key. */
	for (k = 0; k < st->order; k++)
		for (s = 0; s <= st->q[k].d; s++)
			h = (h ^ st->q[k].prefix[s]) * 0x100000001b3ULL;
	if (!key)
		ts_sbprintf(sb, "; like %s,", ts_basename(g->o.src));
	ts_fmt_double(buf, g->o.scale);
	ts_sbprintf(sb, "%s degrees hashed %016llx; scale %s", key ? ";" : "",
	    (unsigned long long)h, buf);
}

static char *
like_notes(const struct gen *g)
{
	return ts_xasprintf("- Each mode's slice degrees those of `%s`%s; its "
	    "columns in orders of their own, so that only how the modes "
	    "pair up is new\n", g->o.src, g->o.scale == 1 ? "" : ", drawn "
	    "from them for the scaled dimensions and rebalanced to the "
	    "scaled nnz");
}

const struct gen_model gen_like = {
	"like", NEED_SRC, like_setup, NULL, deg_fill, deg_prob, like_describe,
	like_notes, deg_free
};
