/*
 * stats.c - the statistics stage: every entry the checks read is
 * counted as it passes, in arrays indexed by coordinate (no allocation
 * per entry), and what needs another order (fibers; --exact) is sorted
 * by the external sorter, in bounded memory, and read back at the end.
 *
 * Coordinates are taken as the decoder gives them: less the index base
 * it was told (a bundle's), or raw for a lone file whose base is not
 * known, in which case the base is found at the end as ts-convert finds
 * it (0 when some coordinate is 0, else 1) and the arrays, one slot
 * longer, are read from it.  Dimensions a file does not state (FROSTT)
 * come from the coordinates, the arrays growing as they are met.
 *
 * What the entries tell in any order (the slices' counts, the values'
 * counts, extremes and distinct ones, the pairs of neighbours, the
 * pictures' cells) is a part (struct part), counted by the caller and,
 * for the batches of a large text file, by the threads that parse it,
 * each into its own part (the stage's local functions), added up
 * exactly at the end: counts are sums, extremes are extremes, sets and
 * the order's tables are unions, HyperLogLog registers are maxima.
 * What depends on the order of the entries is counted on the caller's
 * thread, in file order: the sum of the values (in long double, as it
 * always was), the first zero (whose sign a minimum or maximum of zero
 * has), the pairs across the batches' borders, the sorts.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "stats/stats_int.h"
#include "util/path.h"
#include "util/xalloc.h"

#define BATCH		4096
#define VSET		8192		/* slots of the exact value set */
#define VSET_MAX	(VSET / 2)	/* distinct values it holds */
#define GROW_MIN	1024
#define NANKEY		0x7ff8000000000000ULL	/* every NaN's */
/* The most a thread's part may count in arrays of its own: slices
 * (4 bytes each) and pictures' cells (8 bytes); past it the caller
 * counts them alone. */
#define LOCAL_SLOTS	((uint64_t)1 << 22)
#define LOCAL_CELLS	((uint64_t)1 << 21)
#define FAR_SLOTS	((uint64_t)1 << 14)	/* 64 KB of counts */
#define PREFETCH	16	/* entries ahead */

/* A mode's slices being counted: bin x >> shift of count[]. */
struct slices {
	uint32_t	*c;
	uint64_t	 nb;		/* bins allocated */
	int		 shift;		/* 0: a bin is a slice */
	uint64_t	 lim;		/* coordinates below it count */
	bool		 grow;		/* lim not known: grow as met */
	uint64_t	 lo, hi;	/* coordinates met */
	struct hll	*hll;		/* binned: the distinct slices */
	uint64_t	*wrap;		/* (bin, times) of counts past 2^32 */
	size_t		 nwrap;
};

/* A picture's axis: a coordinate to its row or column. */
struct axis {
	bool		 fixed;		/* ((x >> t) * r) >> 32; else x >> t */
	int		 t;
	uint64_t	 r;
	uint32_t	 n;		/* bins (fixed), or bins used */
	uint32_t	 cap;		/* bins at most */
	uint64_t	 lim;
	bool		 extra;		/* one coordinate more than the
					 * dimension: the base not known */
};

/* A sort and what its groups tell. */
enum sq_kind { SQ_FIBERS, SQ_SLICES, SQ_REPEATS };

struct sortq {
	enum sq_kind	 kind;
	int		 k;		/* the mode */
	struct ts_sorter *so;
	int		 prio[TS_MAXORDER];
};

/* What the entries tell in any order (see above). */
struct part {
	const struct pass *p;
	struct slices	 sl[TS_MAXORDER];	/* when it counts them */
	uint64_t	**cell;		/* the pictures' (when it counts them) */
	uint64_t	 out_of_range;	/* entries left out of them */
	uint64_t	 counted;	/* in them by slices_arrays */
	struct order_acc *ord;
	uint64_t	 adjacent;	/* entries equal to the one before */
	uint64_t	 decs;		/* the modes some pair decreased in:
					 * all of them, and no order holds
					 * (order.c's F1 is empty), so the
					 * pairs need no more looking at */
	bool		 sorted;	/* its last batch's pairs mostly
					 * did not decrease */
	/* values */
	uint64_t	 n, nans, zeros, negatives, infs;
	double		 min, max;	/* of those not NaN */
	int64_t		 imin, imax;
	bool		 vexact;	/* vset holds every value seen */
	uint64_t	*vset;
	uint8_t		*vused;
	size_t		 vn;
	struct hll	 vhll;		/* once not vexact: of every value */
};

struct pass {
	struct fe_stats	*s;
	const struct ts_header *h;
	int		 order;
	bool		 block, has_values, is_int;
	/* A text file without metadata: its rows tell whether it has
	 * values, so they are counted when a batch has them. */
	bool		 values_inferred, saw_values;
	int		 dec_base;	/* what the decoder took off */
	int		 fbase;		/* the file's base; -1 not known */
	int		 claim[TS_MAXORDER];	/* the metadata's sort_order */
	bool		 claimed;
	struct part	 main;		/* the caller's */
	bool		 lslices;	/* threads' parts count slices */
	bool		 lgrids;	/* ... and the pictures' cells */
	/* in file order: the neighbours across batches, the values' sum,
	 * the first zero */
	uint64_t	 prev[TS_MAXORDER];
	bool		 have_prev;
	long double	 vsum;
	bool		 zero_seen, zero_neg;
	/* sorts */
	struct sortq	*sq;
	int		 nsq;
	bool		 sort_failed;
	/* blocks */
	uint64_t	*start[TS_MAXORDER];	/* of each section */
	struct dist_acc	 bsize;
	/* pictures */
	struct axis	 ax[TS_MAXORDER];
	int64_t		**diff;		/* blocks: per grid, corners */
};

/* ---- set-up ---- */

static void
slices_init(struct slices *c, uint64_t lim, bool grow)
{
	memset(c, 0, sizeof(*c));
	c->lo = UINT64_MAX;
	c->grow = grow;
	c->lim = grow ? UINT64_MAX : lim;
	if (grow)
		return;
	while (((lim - 1) >> c->shift) >= FE_STATS_SLICES_MAX)
		c->shift++;
	c->nb = lim == 0 ? 0 : ((lim - 1) >> c->shift) + 1;
	/* Fresh pages are zero and present only once touched. */
	c->c = ts_xcalloc(c->nb ? c->nb : 1, sizeof(*c->c));
	if (c->shift > 0)
		c->hll = ts_xcalloc(1, sizeof(*c->hll));
}

/* Make room for bin b of a mode whose dimension is not known. */
static void
slices_grow(struct slices *c, uint64_t b)
{
	uint64_t nb = c->nb ? c->nb : GROW_MIN, i;

	while (nb <= b && nb < FE_STATS_SLICES_MAX)
		nb *= 2;
	while (nb <= b) {
		/* Past the bound: bins twice as wide, counts merged (the
		 * counts past 2^32 are forgotten for want of a place: the
		 * binned counts only estimate). */
		for (i = 0; i < c->nb; i += 2)
			c->c[i / 2] = c->c[i] + (i + 1 < c->nb ? c->c[i + 1] :
			    0);
		memset(c->c + (c->nb + 1) / 2, 0, (c->nb - (c->nb + 1) / 2) *
		    sizeof(*c->c));
		c->nwrap = 0;
		c->shift++;
		b >>= 1;
		if (c->hll == NULL)
			c->hll = ts_xcalloc(1, sizeof(*c->hll));
	}
	if (nb > c->nb) {
		c->c = ts_xreallocarray(c->c, nb, sizeof(*c->c));
		memset(c->c + c->nb, 0, (nb - c->nb) * sizeof(*c->c));
		c->nb = nb;
	}
}

/* A count that went past 2^32 n times more. */
static void
slices_wrap_n(struct slices *c, uint64_t b, uint64_t n)
{
	size_t i;

	for (i = 0; i < c->nwrap; i++)
		if (c->wrap[2 * i] == b) {
			c->wrap[2 * i + 1] += n;
			return;
		}
	c->wrap = ts_xreallocarray(c->wrap, 2 * (c->nwrap + 1),
	    sizeof(*c->wrap));
	c->wrap[2 * c->nwrap] = b;
	c->wrap[2 * c->nwrap++ + 1] = n;
}

static void
slices_wrap(struct slices *c, uint64_t b)
{
	slices_wrap_n(c, b, 1);
}

static uint64_t
slices_count(const struct slices *c, uint64_t b)
{
	uint64_t n = c->c[b];
	size_t i;

	for (i = 0; i < c->nwrap; i++)
		if (c->wrap[2 * i] == b)
			n += c->wrap[2 * i + 1] << 32;
	return n;
}

/* lo and hi widened to the first and last slice an array counts. */
static void
slices_range(struct slices *c)
{
	uint64_t b;

	if (c->grow || c->shift > 0 || c->c == NULL)
		return;
	for (b = 0; b < c->nb && b < c->lo; b++)
		if (slices_count(c, b) != 0) {
			c->lo = b;
			break;
		}
	for (b = c->nb; b > 0 && (c->lo > c->hi || b - 1 > c->hi); b--)
		if (slices_count(c, b - 1) != 0) {
			c->hi = b - 1;
			break;
		}
}

static void
axis_init(struct axis *a, uint64_t lim, bool known, int size)
{
	memset(a, 0, sizeof(*a));
	a->cap = (uint32_t)size;
	a->lim = lim;
	if (!known)
		return;		/* x >> t, t growing */
	a->fixed = true;
	a->n = lim < (uint64_t)size ? (uint32_t)lim : (uint32_t)size;
	while (((lim - 1) >> a->t) >= ((uint64_t)1 << 32))
		a->t++;
	a->r = ((uint64_t)a->n << 32) / (((lim - 1) >> a->t) + 1);
}

static inline uint32_t
axis_bin(const struct axis *a, uint64_t x)
{
	return a->fixed ? (uint32_t)(((x >> a->t) * a->r) >> 32) :
	    (uint32_t)(x >> a->t);
}

/* The pairs of modes drawn: every pair up to FE_STATS_PAIRS_ORDER,
 * else each mode with the next. */
static void
grids_init(struct pass *p)
{
	struct fe_stats *s = p->s;
	int a, b, n = 0, order = p->order;

	if (s->o.plot <= 0 || order < 2)
		return;
	s->grid = ts_xcalloc((size_t)order * (size_t)(order - 1) / 2,
	    sizeof(*s->grid));
	for (a = 0; a < order; a++)
		for (b = a + 1; b < order; b++) {
			if (order > FE_STATS_PAIRS_ORDER && b != a + 1)
				continue;
			s->grid[n].a = a;
			s->grid[n].b = b;
			n++;
		}
	s->ngrid = n;
	if (p->block)
		p->diff = ts_xcalloc((size_t)n, sizeof(*p->diff));
	for (a = 0; a < n; a++) {
		struct fe_stats_grid *g = &s->grid[a];
		size_t r = p->ax[g->a].cap, c = p->ax[g->b].cap;

		if (p->block)
			p->diff[a] = ts_xcalloc((r + 1) * (c + 1),
			    sizeof(**p->diff));
		else
			g->cell = ts_xcalloc(r * c, sizeof(*g->cell));
	}
}

/* Axis k doubles its bins' width: the grids that use it merge. */
static void
axis_widen(struct pass *p, int k)
{
	struct fe_stats *s = p->s;
	struct axis *a = &p->ax[k];
	uint32_t i, j;
	int gi;

	for (gi = 0; gi < s->ngrid; gi++) {
		struct fe_stats_grid *g = &s->grid[gi];
		uint32_t rc = p->ax[g->a].cap, cc = p->ax[g->b].cap;

		if (g->a == k)
			for (i = 0; i < rc; i++)
				for (j = 0; j < cc; j++) {
					uint64_t v = g->cell[i * cc + j];

					g->cell[i * cc + j] = 0;
					g->cell[(i / 2) * cc + j] += v;
				}
		if (g->b == k)
			for (i = 0; i < rc; i++)
				for (j = 0; j < cc; j++) {
					uint64_t v = g->cell[i * cc + j];

					g->cell[i * cc + j] = 0;
					g->cell[i * cc + j / 2] += v;
				}
	}
	a->t++;
	a->n = (a->n + 1) / 2;
}

/* A sort failed (its temporary directory, most likely). */
static void
fail(struct pass *p)
{
	p->sort_failed = true;
	p->s->sort_errno = errno ? errno : EIO;
}

static void
sorts_init(struct pass *p)
{
	struct fe_stats *s = p->s;
	struct ts_sort_opts so;
	int k, j, n;
	size_t mem;

	p->sq = ts_xcalloc((size_t)p->order + 1, sizeof(*p->sq));
	if (s->o.fibers && p->order > 1)
		for (k = 0; k < p->order; k++) {
			struct sortq *q = &p->sq[p->nsq++];

			q->kind = SQ_FIBERS;
			q->k = k;
			for (j = 0, n = 0; j < p->order; j++)
				if (j != k)
					q->prio[n++] = j;
			q->prio[n] = k;
		}
	if (s->o.exact)
		for (k = 0; k < p->order; k++) {
			if (p->main.sl[k].shift == 0 && !p->main.sl[k].grow)
				continue;
			/* Fibers of another mode sorted this one first? */
			for (j = 0; j < p->nsq; j++)
				if (p->sq[j].prio[0] == k)
					break;
			if (j < p->nsq)
				continue;
			p->sq[p->nsq].kind = SQ_SLICES;
			p->sq[p->nsq].k = k;
			p->sq[p->nsq].prio[0] = k;
			for (j = 0, n = 1; j < p->order; j++)
				if (j != k)
					p->sq[p->nsq].prio[n++] = j;
			p->nsq++;
		}
	if (s->o.exact && p->nsq == 0) {
		p->sq[0].kind = SQ_REPEATS;
		for (j = 0; j < p->order; j++)
			p->sq[0].prio[j] = j;
		p->nsq = 1;
	}
	mem = s->o.mem_limit ? s->o.mem_limit : (size_t)256 << 20;
	for (j = 0; j < p->nsq; j++) {
		memset(&so, 0, sizeof(so));
		so.order = p->order;
		memcpy(so.prio, p->sq[j].prio, sizeof(so.prio));
		so.mem_limit = mem / (size_t)p->nsq;
		so.tmpdir = s->o.tmpdir;
		so.threads = s->o.threads > 0 ? s->o.threads : 2;
		so.dups = TS_DUP_KEEP;
		if ((p->sq[j].so = ts_sorter_new(&so)) == NULL)
			fail(p);
	}
}

static void
part_init(struct part *q, const struct pass *p, bool slices, bool grids)
{
	const struct fe_stats *s = p->s;
	int k;

	memset(q, 0, sizeof(*q));
	q->p = p;
	q->ord = fe_order_new(p->order);
	q->vexact = true;
	if (p->has_values) {
		q->vset = ts_xcalloc(VSET, sizeof(*q->vset));
		q->vused = ts_xcalloc(VSET, 1);
	}
	if (slices)
		for (k = 0; k < p->order; k++) {
			const struct slices *m = &p->main.sl[k];
			struct slices *c = &q->sl[k];

			c->nb = m->nb;
			c->lim = m->lim;
			c->lo = UINT64_MAX;
			c->c = ts_xcalloc(c->nb ? c->nb : 1, sizeof(*c->c));
		}
	if (grids && s->ngrid > 0) {
		q->cell = ts_xcalloc((size_t)s->ngrid, sizeof(*q->cell));
		for (k = 0; k < s->ngrid; k++)
			q->cell[k] = ts_xcalloc((size_t)p->ax[s->grid[k].a].cap *
			    p->ax[s->grid[k].b].cap, sizeof(**q->cell));
	}
}

/* Free what q holds; cells too when they are its own. */
static void
part_free(struct part *q, bool cells)
{
	int k;

	for (k = 0; k < q->p->order; k++) {
		free(q->sl[k].c);
		free(q->sl[k].hll);
		free(q->sl[k].wrap);
	}
	if (cells && q->cell != NULL)
		for (k = 0; k < q->p->s->ngrid; k++)
			free(q->cell[k]);
	free(q->cell);
	fe_order_free(q->ord);
	free(q->vset);
	free(q->vused);
}

static void
pass_free(void *self)
{
	struct pass *p = self;
	int k;

	if (p == NULL)
		return;
	p->s->st = NULL;
	part_free(&p->main, false);
	for (k = 0; k < p->order; k++)
		free(p->start[k]);
	for (k = 0; k < p->nsq; k++)
		ts_sorter_free(p->sq[k].so);
	free(p->sq);
	fe_dist_free(&p->bsize);
	if (p->diff != NULL)
		for (k = 0; k < p->s->ngrid; k++)
			free(p->diff[k]);
	free(p->diff);
	free(p);
}

/* ---- each entry ---- */

/* The values seen are the set's no more: the sketch has them all. */
static void
vset_overflow(struct part *q)
{
	size_t j;

	q->vexact = false;
	for (j = 0; j < VSET; j++)
		if (q->vused[j])
			hll_add(&q->vhll, ts_mix64(q->vset[j]));
}

/* Value key seen: into the set while it holds every one, else into the
 * sketch (a sketch of a set is that of its members, whatever their
 * order or repeats). */
static inline void
vkey(struct part *q, uint64_t key)
{
	uint64_t h = ts_mix64(key);
	size_t j;

	if (!q->vexact) {
		hll_add(&q->vhll, h);
		return;
	}
	for (j = (size_t)h & (VSET - 1); q->vused[j]; j = (j + 1) &
	    (VSET - 1))
		if (q->vset[j] == key)
			return;
	if (q->vn == VSET_MAX) {
		vset_overflow(q);
		hll_add(&q->vhll, h);
		return;
	}
	q->vused[j] = 1;
	q->vset[j] = key;
	q->vn++;
}

/*
 * The extremes of the n values at v into *lo and *hi (a NaN never
 * taken, a tie keeping either: -0 and 0 are the same to a part), and
 * how many are NaN, infinite, zero and negative, in c[0..3]: without a
 * branch, two at a time with SSE2 (minpd and maxpd keep their second
 * operand when the first is NaN, as x < lo ? x : lo does).
 */
static void
float_counts(const double *v, size_t n, double *lo, double *hi,
    uint64_t c[4])
{
	double l = *lo, h = *hi;
	uint64_t nan = 0, inf = 0, zero = 0, neg = 0;
	size_t i = 0;

#ifdef __SSE2__
	if (n >= 2) {
		const __m128d z = _mm_setzero_pd(), pinf = _mm_set1_pd(INFINITY);
		const __m128d absm = _mm_castsi128_pd(_mm_set1_epi64x(
		    INT64_MAX));
		__m128d vl = _mm_set1_pd(l), vh = _mm_set1_pd(h);
		__m128i cn = _mm_setzero_si128(), ci = cn, cz = cn, cg = cn;
		uint64_t t[2];

		for (; i + 2 <= n; i += 2) {
			__m128d x = _mm_loadu_pd(v + i);

			vl = _mm_min_pd(x, vl);
			vh = _mm_max_pd(x, vh);
			/* A true lane is all ones: -1 added. */
			cn = _mm_add_epi64(cn, _mm_castpd_si128(_mm_cmpunord_pd(
			    x, x)));
			ci = _mm_add_epi64(ci, _mm_castpd_si128(_mm_cmpeq_pd(
			    _mm_and_pd(x, absm), pinf)));
			cz = _mm_add_epi64(cz, _mm_castpd_si128(_mm_cmpeq_pd(
			    x, z)));
			cg = _mm_add_epi64(cg, _mm_castpd_si128(_mm_cmplt_pd(
			    x, z)));
		}
		_mm_storeu_pd((double *)t, vl);
		memcpy(&l, &t[0], 8);
		{
			double l1;

			memcpy(&l1, &t[1], 8);
			l = l1 < l ? l1 : l;
		}
		_mm_storeu_pd((double *)t, vh);
		memcpy(&h, &t[0], 8);
		{
			double h1;

			memcpy(&h1, &t[1], 8);
			h = h1 > h ? h1 : h;
		}
#define SUM2(acc, var) do {						\
		_mm_storeu_si128((__m128i *)(void *)t, (acc));		\
		(var) = 0 - t[0] - t[1];				\
	} while (0)
		SUM2(cn, nan);
		SUM2(ci, inf);
		SUM2(cz, zero);
		SUM2(cg, neg);
#undef SUM2
	}
#endif
	for (; i < n; i++) {
		double x = v[i];

		l = x < l ? x : l;
		h = x > h ? x : h;
		nan += isnan(x) != 0;
		inf += isinf(x) != 0;
		zero += x == 0;
		neg += x < 0;
	}
	*lo = l;
	*hi = h;
	c[0] = nan;
	c[1] = inf;
	c[2] = zero;
	c[3] = neg;
}

/* The key of a value: its bits, -0 taken as 0, every NaN as one. */
static inline uint64_t
value_key(double x)
{
	uint64_t key;

	x = x == 0 ? 0 : x;
	memcpy(&key, &x, sizeof(key));
	return isnan(x) ? NANKEY : key;
}

/* Value key into q: its set while it holds every one (vkey), else its
 * sketch. */
#define KEY(q, h, key) do {						\
		if (__builtin_expect(!(q)->vexact, 1))			\
			hll_add((h), ts_mix64(key));			\
		else							\
			vkey((q), (key));				\
	} while (0)

/* The values of b into q: their counts, extremes and keys.  Within a
 * part the extremes are the first of their class met (-0 and 0 tie:
 * which a part keeps does not matter, a minimum or maximum of zero
 * being the first zero's, found in file order). */
static void
count_values(struct part *q, const struct ts_batch *b)
{
	uint64_t zeros = 0, negatives = 0, nans = 0, infs = 0;
	struct hll *h = &q->vhll;
	size_t i;

	if (q->p->is_int) {
		int64_t lo = q->imin, hi = q->imax;

		for (i = 0; i < b->n; i++) {
			int64_t x = b->ival[i];

			if ((q->n == 0 && i == 0) || x < lo)
				lo = x;
			if ((q->n == 0 && i == 0) || x > hi)
				hi = x;
			zeros += x == 0;
			negatives += x < 0;
			KEY(q, h, (uint64_t)x);
		}
		q->imin = lo;
		q->imax = hi;
	} else {
		/* Before the first value not NaN, extremes that it
		 * replaces, whatever it is (an infinity: the same); a NaN
		 * compares false. */
		bool none = q->n == q->nans;
		double lo = none ? INFINITY : q->min;
		double hi = none ? -INFINITY : q->max;
		uint64_t c[4];

		float_counts(b->fval, b->n, &lo, &hi, c);
		nans = c[0];
		infs = c[1];
		zeros = c[2];
		negatives = c[3];
		/* The keys: -0 is 0, every NaN one key. */
		for (i = 0; i < b->n && q->vexact; i++)
			vkey(q, value_key(b->fval[i]));
		for (; i < b->n; i++)
			hll_add(h, ts_mix64(value_key(b->fval[i])));
		q->min = lo;
		q->max = hi;
	}
	q->n += b->n;
	q->zeros += zeros;
	q->negatives += negatives;
	q->nans += nans;
	q->infs += infs;
}
#undef KEY

/* What needs the values in file order: their sum, and the sign of the
 * first zero. */
static void
serial_values(struct pass *p, const struct ts_batch *b)
{
	long double sum = p->vsum;
	size_t i;

	if (p->is_int) {
		for (i = 0; i < b->n; i++)
			sum += b->ival[i];
		p->vsum = sum;
		return;
	}
	for (i = 0; i < b->n; i++) {
		double x = b->fval[i];

		if (isnan(x))
			continue;
		sum += x;
		if (x == 0 && !p->zero_seen) {
			p->zero_seen = true;
			p->zero_neg = signbit(x) != 0;
		}
	}
	p->vsum = sum;
}

/* A block's rectangle on each picture, and its size. */
static void
block(struct pass *p, const uint64_t *c)
{
	const struct ts_header *h = p->h;
	struct fe_stats *s = p->s;
	const uint64_t off = (uint64_t)(p->fbase - p->dec_base);
	const uint64_t *t;
	uint64_t vol = 1, x[TS_MAXORDER];
	bool ovf = false;
	int k, gi;

	for (k = 0; k < p->order; k++) {
		if (c[k] < off)
			return;		/* below the base: out of range */
		x[k] = c[k] - off;
	}
	t = x;
	for (k = 0; k < p->order; k++)
		ovf |= !ts_mul_u64(vol, h->extents[k][t[k]], &vol);
	if (ovf || !ts_add_u64(s->blocks.elements, vol, &s->blocks.elements))
		s->blocks.elements_ovf = true;
	if (!ovf)
		fe_dist_add(&p->bsize, vol);
	for (gi = 0; gi < s->ngrid; gi++) {
		struct fe_stats_grid *g = &s->grid[gi];
		const struct axis *ra = &p->ax[g->a], *ca = &p->ax[g->b];
		uint64_t ra0 = p->start[g->a][t[g->a]], ca0 =
		    p->start[g->b][t[g->b]];
		uint32_t r0 = axis_bin(ra, ra0), c0 = axis_bin(ca, ca0);
		uint32_t r1 = axis_bin(ra, ra0 + h->extents[g->a][t[g->a]] -
		    1) + 1;
		uint32_t c1 = axis_bin(ca, ca0 + h->extents[g->b][t[g->b]] -
		    1) + 1;
		int64_t *d = p->diff[gi];
		size_t w = (size_t)ca->n + 1;

		d[r0 * w + c0]++;
		d[r0 * w + c1]--;
		d[r1 * w + c0]--;
		d[r1 * w + c1]++;
	}
}

/* Can q count b's slices in arrays of the dimensions, unchecked: every
 * mode known and unbinned, and no count near 2^32 (none is before the
 * part has counted as many entries)? */
static bool
arrays_ok(const struct pass *p, const struct part *q, size_t n)
{
	int k;

	if (p->block)
		return false;
	for (k = 0; k < p->order; k++)
		if (q->sl[k].grow || q->sl[k].shift > 0 || q->sl[k].c == NULL)
			return false;
	return q->counted + n < ((uint64_t)1 << 32);
}

/*
 * One loop over b's entries: the pairs of neighbours (when pairs; the
 * first with prev, if not NULL) and the slices (when slices, as
 * arrays_ok allows; their lo and hi are read from the arrays at the
 * end).  order is known when it is inlined, the loops over the modes
 * unrolled.  The pairs as fe_order_pairs() takes them, those of unsorted
 * entries (agreeing in no mode) gathered in a register.
 */
static inline __attribute__((always_inline)) void
entries_loop(struct part *q, const struct ts_batch *b, const uint64_t *prev,
    const bool pairs, const bool sorted, const bool slices, const bool far,
    const int order)
{
	const uint64_t all = order == 64 ? ~(uint64_t)0 :
	    ((uint64_t)1 << order) - 1;
	const uint64_t *t = b->coords, *a = prev != NULL ? prev : t;
	uint64_t lim[TS_MAXORDER], same = 0, dec0 = 0, out = 0, ndec = 0;
	uint64_t udec = 0;
	uint32_t *cnt[TS_MAXORDER];
	size_t i;
	int k;

	for (k = 0; k < order; k++) {
		lim[k] = q->sl[k].lim;
		cnt[k] = q->sl[k].c;
	}
	for (i = 0; i < b->n; i++, a = t, t += order) {
		uint64_t eq = 0, dec = 0, bad = 0;
		bool anydec = false, alleq = true;

#pragma GCC unroll 4
		for (k = 0; k < order; k++) {
			anydec |= t[k] < a[k];
			alleq &= t[k] == a[k];
			bad |= t[k] >= lim[k];
		}
		/* Mostly sorted: the modes' bits only for a pair that
		 * decreases, the others told by two flags; else the bits
		 * of every pair, without a branch.  The first entry with
		 * itself, when prev is NULL: equal, taken off below. */
		if (pairs && sorted && !anydec)
			same += alleq;
		else if (pairs) {
#pragma GCC unroll 4
			for (k = 0; k < order; k++) {
				eq |= (uint64_t)(t[k] == a[k]) << k;
				dec |= (uint64_t)(t[k] < a[k]) << k;
			}
			ndec += dec != 0;
			udec |= dec;
			if (dec == 0)
				same += eq == all;
			else if (eq == 0)
				dec0 |= dec;
			else
				fe_order_pair(q->ord, eq, dec);
		}
		if (!slices)
			continue;
		if (__builtin_expect(bad != 0, 0)) {
			out++;
			continue;
		}
		if (far) {
			/* The slices of an entry further on, to be in the
			 * cache when it comes (the address reckoned as an
			 * integer: out of range, it is harmless, a prefetch
			 * does not fault). */
			const uint64_t *f = b->coords + (i + PREFETCH < b->n ?
			    i + PREFETCH : b->n - 1) * (size_t)order;

#pragma GCC unroll 4
			for (k = 0; k < order; k++)
				__builtin_prefetch((const void *)((uintptr_t)
				    cnt[k] + (uintptr_t)f[k] * sizeof(**cnt)),
				    1);
		}
#pragma GCC unroll 4
		for (k = 0; k < order; k++)
			cnt[k][t[k]]++;
	}
	if (pairs) {
		if (dec0 != 0)
			fe_order_pair(q->ord, 0, dec0);
		q->adjacent += same - (prev == NULL && b->n > 0);
		q->sorted = ndec < b->n / 2;	/* the next batch's loop */
		q->decs |= udec;
	}
	if (slices) {
		q->out_of_range += out;
		q->counted += b->n;
	}
}

static void
count_entries(struct part *q, const struct ts_batch *b, const uint64_t *prev,
    bool pairs, bool slices)
{
	bool far = false, sorted = q->sorted;
	int k;

	/* Every mode decreased in some pair: no order holds, and the
	 * entries' repeats are not told by their neighbours. */
	if (q->decs == (q->p->order == 64 ? ~(uint64_t)0 :
	    ((uint64_t)1 << q->p->order) - 1))
		pairs = false;
	if ((!pairs && !slices) || b->n == 0)
		return;
	/* Arrays past what a core's caches hold near it: prefetched. */
	for (k = 0; k < q->p->order && slices; k++)
		far |= q->sl[k].nb > FAR_SLOTS;
	/* Each kind of loop its own, the flags constants in it. */
#define LOOP(p, so, sl, f, order)					\
	entries_loop(q, b, prev, (p), (so), (sl), (f), (order))
#define LOOPS(order) do {						\
		if (!pairs)						\
			LOOP(false, false, true, far, (order));		\
		else if (!slices)					\
			LOOP(true, sorted, false, false, (order));	\
		else if (sorted && far)					\
			LOOP(true, true, true, true, (order));		\
		else if (sorted)					\
			LOOP(true, true, true, false, (order));		\
		else if (far)						\
			LOOP(true, false, true, true, (order));		\
		else							\
			LOOP(true, false, true, false, (order));	\
	} while (0)
	switch (q->p->order) {
	case 2:
		LOOPS(2);
		break;
	case 3:
		LOOPS(3);
		break;
	case 4:
		LOOPS(4);
		break;
	default:
		LOOPS(q->p->order);
		break;
	}
#undef LOOPS
#undef LOOP
}

/* The slices of b's entries into q (when slices), and their cells in
 * the pictures (when grids; the caller's part counts a block's there).
 * A part of a thread has arrays of the dimensions' size: every mode
 * known, none binned. */
static void
count_slices(struct pass *p, struct part *q, const struct ts_batch *b,
    bool slices, bool grids)
{
	const struct fe_stats *s = p->s;
	const int order = p->order;
	uint32_t px[TS_MAXORDER];
	size_t i;
	int k, gi;

	if (b->n == 0)
		return;
	if (!slices && (!grids || (s->ngrid == 0 && !p->block)))
		return;
	for (i = 0; i < b->n; i++) {
		const uint64_t *t = b->coords + i * (size_t)order;
		bool in = true;

		for (k = 0; k < order; k++)
			in &= t[k] < q->sl[k].lim;
		if (!in) {
			q->out_of_range += slices;
			continue;
		}
		for (k = 0; k < order && slices; k++) {
			struct slices *c = &q->sl[k];
			uint64_t x = t[k], bin = x >> c->shift;

			if (bin >= c->nb) {
				slices_grow(c, bin);
				bin = x >> c->shift;
			}
			if (++c->c[bin] == 0)
				slices_wrap(c, bin);
			if (c->hll != NULL)
				hll_add(c->hll, ts_mix64(x));
			if (x < c->lo)
				c->lo = x;
			if (x > c->hi)
				c->hi = x;
		}
		q->counted += slices;
		if (p->block) {
			if (grids)
				block(p, t);
			continue;
		}
		if (!grids || s->ngrid == 0)
			continue;
		for (k = 0; k < order; k++) {
			struct axis *a = &p->ax[k];

			while (!a->fixed && (t[k] >> a->t) >= a->cap)
				axis_widen(p, k);
			px[k] = axis_bin(a, t[k]);
			if (!a->fixed && px[k] >= a->n)
				a->n = px[k] + 1;
		}
		for (gi = 0; gi < s->ngrid; gi++) {
			const struct fe_stats_grid *g = &s->grid[gi];

			q->cell[gi][(size_t)px[g->a] * p->ax[g->b].cap +
			    px[g->b]]++;
		}
	}
}

static int
stats_put(void *self, struct ts_batch *b)
{
	struct pass *p = self;
	struct fe_stats *s = p->s;
	struct part *m = &p->main;
	const size_t order = (size_t)p->order;
	int k;

	bool slices = !b->local || !p->lslices;
	bool fast = slices && arrays_ok(p, m, b->n);

	/* The pairs of neighbours (a thread took those inside b), and
	 * the slices when they are the caller's to count. */
	count_entries(m, b, p->have_prev ? p->prev : NULL, !b->local, fast);
	if (b->local && !b->local_cont && p->have_prev && b->n > 0)
		m->adjacent += fe_order_pairs(m->ord, b->coords, 1, p->prev);
	if (b->n > 0) {
		memcpy(p->prev, b->coords + (b->n - 1) * order, order *
		    sizeof(*p->prev));
		p->have_prev = true;
	}
	if (p->has_values && b->has_values) {
		p->saw_values = true;
		serial_values(p, b);
		if (!b->local)
			count_values(m, b);
	}
	count_slices(p, m, b, slices && !fast, !b->local || !p->lgrids);
	s->nnz += b->n;
	for (k = 0; k < p->nsq && !p->sort_failed; k++)
		if (ts_sorter_add(p->sq[k].so, b) != 0)
			fail(p);
	return 0;
}

/* ---- the parts of the threads ---- */

static void *
local_start(void *self)
{
	const struct pass *p = self;
	struct part *q = ts_xmalloc(sizeof(*q));

	part_init(q, p, p->lslices, p->lgrids);
	return q;
}

static void
local_put(void *state, struct ts_batch *b)
{
	struct part *q = state;
	struct pass *p = (struct pass *)q->p;

	bool fast = p->lslices && arrays_ok(p, q, b->n);

	count_entries(q, b, NULL, true, fast);
	if (p->has_values && b->has_values)
		count_values(q, b);
	count_slices(p, q, b, p->lslices && !fast, p->lgrids);
}

/* q added to the caller's part: exactly. */
static void
local_end(void *self, void *state)
{
	struct pass *p = self;
	struct part *m = &p->main, *q = state;
	uint64_t j;
	size_t i;
	int k;

	for (k = 0; k < p->order && p->lslices; k++) {
		struct slices *c = &m->sl[k], *x = &q->sl[k];

		for (j = 0; j < c->nb; j++) {
			uint32_t v = c->c[j];

			c->c[j] += x->c[j];
			if (c->c[j] < v)
				slices_wrap(c, j);
		}
		for (i = 0; i < x->nwrap; i++)
			slices_wrap_n(c, x->wrap[2 * i], x->wrap[2 * i + 1]);
		if (x->lo < c->lo)
			c->lo = x->lo;
		if (x->lo <= x->hi && x->hi > c->hi)
			c->hi = x->hi;
	}
	for (k = 0; k < p->s->ngrid && p->lgrids; k++) {
		const struct fe_stats_grid *g = &p->s->grid[k];
		size_t n = (size_t)p->ax[g->a].cap * p->ax[g->b].cap;

		for (i = 0; i < n; i++)
			m->cell[k][i] += q->cell[k][i];
	}
	m->out_of_range += q->out_of_range;
	m->counted += q->counted;
	fe_order_merge(m->ord, q->ord);
	m->adjacent += q->adjacent;
	if (p->has_values && q->n > 0) {
		uint64_t mn = m->n - m->nans, qn = q->n - q->nans;

		if (p->is_int) {
			if (m->n == 0 || q->imin < m->imin)
				m->imin = q->imin;
			if (m->n == 0 || q->imax > m->imax)
				m->imax = q->imax;
		} else if (qn > 0) {
			if (mn == 0 || q->min < m->min)
				m->min = q->min;
			if (mn == 0 || q->max > m->max)
				m->max = q->max;
		}
		m->n += q->n;
		m->nans += q->nans;
		m->zeros += q->zeros;
		m->negatives += q->negatives;
		m->infs += q->infs;
		if (!q->vexact) {
			if (m->vexact)
				vset_overflow(m);
			for (i = 0; i < (size_t)1 << HLL_P; i++)
				if (q->vhll.reg[i] > m->vhll.reg[i])
					m->vhll.reg[i] = q->vhll.reg[i];
		} else
			for (i = 0; i < VSET; i++)
				if (q->vused[i])
					vkey(m, q->vset[i]);
	}
	part_free(q, true);
	free(q);
}

static const struct ts_stage_local_ops stats_local_ops = {
	local_start, local_put, local_end
};

/* ---- the end ---- */

static bool
in_range(const struct pass *p, const uint64_t *t, const uint64_t *lo)
{
	int k;

	for (k = 0; k < p->order; k++)
		if (t[k] < lo[k] || t[k] - lo[k] >= p->s->dims[k])
			return false;
	return true;
}

/* Read a sort back: its groups' counts, and the repeats. */
static int
read_sort(struct pass *p, struct sortq *q, const uint64_t *lo)
{
	struct fe_stats *s = p->s;
	struct dist_acc acc, facc;
	struct ts_batch b;
	uint64_t prev[TS_MAXORDER], run = 0, reps = 0, fib = 0;
	const int order = p->order;
	/* Fibers: the group is every mode but the last of prio. */
	const int g = q->kind == SQ_FIBERS ? order - 1 : 1;
	bool have = false;
	size_t i;
	long r;
	int j;

	memset(&acc, 0, sizeof(acc));
	memset(&facc, 0, sizeof(facc));
	if (ts_sorter_finish(q->so) != 0)
		return -1;
	ts_batch_init(&b, order, BATCH);
	while ((r = ts_sorter_next(q->so, &b)) > 0)
		for (i = 0; i < b.n; i++) {
			const uint64_t *t = b.coords + i * (size_t)order;
			bool same = have, all = have;

			for (j = 0; j < order && all; j++) {
				bool e = t[q->prio[j]] == prev[q->prio[j]];

				if (j < g)
					same &= e;
				all &= e;
			}
			reps += all;
			if (!in_range(p, t, lo))
				continue;
			if (!same && run > 0) {
				fe_dist_add(&acc, run);
				run = 0;
				/* Fibers: a slice of prio[0] ends. */
				if (t[q->prio[0]] != prev[q->prio[0]]) {
					fe_dist_add(&facc, fib);
					fib = 0;
				}
			}
			fib += run == 0;
			run++;
			memcpy(prev, t, (size_t)order * sizeof(*t));
			have = true;
		}
	if (run > 0) {
		fe_dist_add(&acc, run);
		fe_dist_add(&facc, fib);
	}
	ts_batch_free(&b);
	if (r < 0) {
		fe_dist_free(&acc);
		fe_dist_free(&facc);
		return -1;
	}
	if (q->kind == SQ_FIBERS) {
		fe_dist_end(&acc, &s->mode[q->k].fibers);
		fe_dist_end(&facc, &s->mode[q->k].fps);
		s->mode[q->k].fps_mode = q->prio[0];
	} else if (q->kind == SQ_SLICES) {
		struct ts_mode_stats *ms = &s->mode[q->k];

		if (s->o.fit)
			fe_stats_fit(&acc, &ms->fit);
		fe_dist_end(&acc, &ms->slices);
		ms->nonempty = ms->slices.n;
		ms->estimated = false;
		ms->exact_sorted = true;
	} else
		fe_dist_free(&acc);
	fe_dist_free(&facc);
	s->repeats_known = true;
	s->repeats = reps;
	return 0;
}

static int
stats_finish(void *self)
{
	struct pass *p = self;
	struct fe_stats *s = p->s;
	const struct ts_header *h = p->h;
	uint64_t lo[TS_MAXORDER];
	bool zero = false;
	int k, gi;

	/* The coordinates used, from the arrays too (entries_loop does
	 * not keep them); then the base, where nothing said it: 0 when a
	 * coordinate is 0. */
	for (k = 0; k < p->order; k++) {
		slices_range(&p->main.sl[k]);
		zero |= p->main.sl[k].lo == 0;
	}
	if (p->fbase >= 0)
		s->base = p->fbase;
	if (p->fbase < 0) {
		s->base = zero ? 0 : 1;
		s->base_inferred = true;
	}
	for (k = 0; k < p->order; k++) {
		struct slices *c = &p->main.sl[k];
		struct ts_mode_stats *ms = &s->mode[k];
		uint64_t first = (uint64_t)(s->base - p->dec_base), bi;
		struct dist_acc acc;

		lo[k] = first;
		if (p->block)
			s->dims[k] = h->dims[k];
		else if (h->dims_known)
			s->dims[k] = h->dims[k];
		else {
			s->dims[k] = c->lo <= c->hi && c->hi >= first ?
			    c->hi - first + 1 : 1;
			s->dims_inferred = true;
		}
		ms->dim = p->block ? h->parts[k] : s->dims[k];
		if (c->lo <= c->hi) {
			ms->used = true;
			ms->lo = c->lo + (uint64_t)p->dec_base;
			ms->hi = c->hi + (uint64_t)p->dec_base;
		}
		if (c->shift > 0) {
			/* Binned: how many slices, estimated. */
			uint64_t est = fe_hll_count(c->hll), n = 0, bins = 0;

			for (bi = 0; bi < c->nb; bi++) {
				n += c->c[bi];
				bins += c->c[bi] != 0;
			}
			/* Within what is certain: a slice at least in each
			 * bin that counted an entry, no more slices than
			 * the dimension or the entries. */
			if (est < bins)
				est = bins;
			if (est > ms->dim)
				est = ms->dim;
			if (est > n)
				est = n;
			ms->nonempty = est;
			ms->estimated = true;
			memset(&ms->slices, 0, sizeof(ms->slices));
			ms->slices.n = est;
			ms->slices.sum = n;
			ms->slices.mean = fe_stats_ratio_double(n, &est, 1);
			continue;
		}
		memset(&acc, 0, sizeof(acc));
		for (bi = first; bi < c->nb && bi - first < ms->dim; bi++)
			if (c->c[bi] != 0 || c->nwrap > 0)
				fe_dist_add(&acc, slices_count(c, bi));
		if (s->o.fit)
			fe_stats_fit(&acc, &ms->fit);
		fe_dist_end(&acc, &ms->slices);
		ms->nonempty = ms->slices.n;
	}
	if (p->block) {
		fe_dist_end(&p->bsize, &s->blocks.sizes);
		s->elements = s->blocks.elements;
	} else
		s->elements = s->nnz;
	/* The pictures: blocks' corners summed into cells. */
	for (gi = 0; gi < s->ngrid; gi++) {
		struct fe_stats_grid *g = &s->grid[gi];
		const struct axis *ra = &p->ax[g->a], *ca = &p->ax[g->b];
		uint32_t i, j;

		g->rows = ra->n;
		g->cols = ca->n;
		g->per_row = ra->fixed ? (ra->lim + ra->n - 1) / ra->n :
		    (uint64_t)1 << ra->t;
		g->per_col = ca->fixed ? (ca->lim + ca->n - 1) / ca->n :
		    (uint64_t)1 << ca->t;
		if (p->block) {
			const int64_t *d = p->diff[gi];
			size_t w = (size_t)ca->n + 1;

			g->cell = ts_xcalloc((size_t)g->rows * g->cols,
			    sizeof(*g->cell));
			for (i = 0; i < g->rows; i++)
				for (j = 0; j < g->cols; j++) {
					int64_t v = d[i * w + j];

					if (i > 0)
						v += (int64_t)g->cell[(i - 1) *
						    g->cols + j];
					if (j > 0)
						v += (int64_t)g->cell[i *
						    g->cols + j - 1];
					if (i > 0 && j > 0)
						v -= (int64_t)g->cell[(i - 1) *
						    g->cols + j - 1];
					g->cell[i * g->cols + j] = (uint64_t)v;
				}
		} else {
			/* Rows were ca->cap wide: pack them; and a slot kept
			 * for a base not known, unbinned, goes: coordinate 0
			 * of a 1-based file, the one past the end of a 0-based
			 * one. */
			uint32_t r0 = 0, c0 = 0;

			if (ra->extra && ra->fixed && ra->n == ra->lim) {
				g->rows--;
				r0 = s->base == 1;
			}
			if (ca->extra && ca->fixed && ca->n == ca->lim) {
				g->cols--;
				c0 = s->base == 1;
			}
			for (i = 0; i < g->rows; i++)
				memmove(g->cell + (size_t)i * g->cols,
				    g->cell + (size_t)(i + r0) * ca->cap + c0,
				    g->cols * sizeof(*g->cell));
		}
	}
	for (k = 0; k < p->nsq; k++)
		if (!p->sort_failed && read_sort(p, &p->sq[k], lo) != 0)
			fail(p);
	s->fibers = s->o.fibers && !p->sort_failed;
	if (s->fibers && p->order == 1) {
		struct dist_acc acc;

		memset(&acc, 0, sizeof(acc));
		fe_dist_add(&acc, s->mode[0].slices.sum);
		fe_dist_end(&acc, &s->mode[0].fibers);
	}
	if (p->values_inferred && !p->saw_values)
		p->has_values = false;
	s->has_values = s->values.present = p->has_values;
	if (p->has_values) {
		struct ts_value_stats *v = &s->values;
		const struct part *m = &p->main;
		uint64_t nv = p->is_int ? m->n : m->n - m->nans;

		v->n = m->n;
		v->nans = m->nans;
		v->zeros = m->zeros;
		v->negatives = m->negatives;
		v->infs = m->infs;
		v->imin = m->imin;
		v->imax = m->imax;
		/* A minimum or maximum of zero is the first zero met. */
		v->min = m->min == 0 ? (p->zero_neg ? -0.0 : 0.0) : m->min;
		v->max = m->max == 0 ? (p->zero_neg ? -0.0 : 0.0) : m->max;
		v->mean = nv ? (double)(p->vsum / nv) : NAN;
		v->distinct_exact = m->vexact;
		v->distinct = m->vexact ? m->vn : fe_hll_count(&m->vhll);
		if (!m->vexact) {
			/* An estimate stays within what is certain: more
			 * than the set held, no more than the values (and
			 * is certain when the two meet). */
			if (v->distinct < VSET_MAX + 1)
				v->distinct = VSET_MAX + 1;
			if (v->distinct > v->n)
				v->distinct = v->n;
			v->distinct_exact = v->n == VSET_MAX + 1;
		}
		if (!p->is_int && nv == 0)
			v->min = v->max = NAN;
		if (p->is_int) {
			v->min = (double)v->imin;
			v->max = (double)v->imax;
		}
	}
	s->out_of_range = p->main.out_of_range;
	s->sorted = fe_order_end(p->main.ord, s->sort);
	/* Of the orders that hold, the one the metadata names. */
	if (s->sorted == 1 && p->claimed && fe_order_holds(p->main.ord,
	    p->claim))
		memcpy(s->sort, p->claim, sizeof(s->sort));
	s->complete = true;
	if (s->sorted == 1 && !s->repeats_known) {
		/* Sorted: repeats are neighbours. */
		s->repeats_known = true;
		s->repeats = p->main.adjacent;
	}
	return 0;
}

static const struct ts_stage_ops stats_ops = {
	"statistics", 0, stats_put, stats_finish, NULL, NULL, pass_free
};

struct ts_stage *
fe_stats_stage(struct fe_stats *s, const struct ts_meta *m,
    struct ts_decoder *dec)
{
	const struct ts_header *h = ts_decoder_header(dec);
	const struct ts_layout *l = ts_decoder_layout(dec);
	struct ts_stage *st;
	struct pass *p;
	uint64_t i, slots = 0, cells = 0;
	int k;

	if (s->seen)
		return NULL;
	s->seen = true;
	s->file = ts_source_name(ts_decoder_source(dec));
	p = ts_xcalloc(1, sizeof(*p));
	s->st = p;
	p->s = s;
	p->h = h;
	p->order = h->order;
	p->block = h->block;
	p->values_inferred = l->values < 0 && !h->block;
	p->has_values = (l->values > 0 || p->values_inferred) && !h->block;
	p->is_int = ts_vtype_info(l->vtype)->is_int;
	p->dec_base = l->base;
	p->fbase = m != NULL ? m->index_base : h->base >= 0 ? h->base : -1;
	/* A block file without metadata: 1-based, as SPEC 8 assumes (its
	 * blocks index the partition lines). */
	if (p->fbase < 0 && p->block) {
		p->fbase = 1;
		s->base_inferred = true;
	}
	if (m != NULL && m->sorted && m->nsort == p->order) {
		uint64_t seen = 0;

		for (k = 0; k < p->order; k++)
			if (m->sort_order[k] >= 0 && m->sort_order[k] < p->order)
				seen |= (uint64_t)1 << m->sort_order[k];
		p->claimed = seen == (p->order == 64 ? ~(uint64_t)0 :
		    ((uint64_t)1 << p->order) - 1);
		memcpy(p->claim, m->sort_order, sizeof(p->claim));
	}
	part_init(&p->main, p, false, false);
	s->order = p->order;
	s->block = p->block;
	s->has_values = p->has_values;
	s->values.present = p->has_values;
	s->values.is_int = p->is_int;
	s->sorted = -1;
	for (k = 0; k < p->order; k++) {
		/* What the batches' coordinates may reach: from the file's
		 * base, or one more when the base is not known. */
		uint64_t lim = p->block ? h->parts[k] : h->dims[k];
		bool known = p->block || h->dims_known;

		if (known && (p->fbase < 0 || p->fbase > p->dec_base))
			lim++;
		slices_init(&p->main.sl[k], lim, !known);
		if (s->o.plot > 0) {
			axis_init(&p->ax[k], p->block ? h->dims[k] : lim, known,
			    s->o.plot);
			p->ax[k].extra = !p->block && known && lim > h->dims[k];
		}
		if (p->block) {
			p->start[k] = ts_xcalloc(h->parts[k] + 1,
			    sizeof(*p->start[k]));
			for (i = 0; i < h->parts[k]; i++)
				p->start[k][i + 1] = p->start[k][i] +
				    h->extents[k][i];
		}
	}
	grids_init(p);
	sorts_init(p);
	if (s->ngrid > 0) {
		p->main.cell = ts_xcalloc((size_t)s->ngrid,
		    sizeof(*p->main.cell));
		for (k = 0; k < s->ngrid; k++)
			p->main.cell[k] = s->grid[k].cell;
	}
	st = ts_stage_new(&stats_ops, p);
	/* The threads that parse may count what needs no order: the
	 * slices too when every mode's are an array of the dimension's
	 * size, and not too large to be had once more a thread, the
	 * pictures' cells likewise. */
	if (p->block)
		return st;
	p->lslices = true;
	for (k = 0; k < p->order; k++) {
		slots += p->main.sl[k].nb;
		if (p->main.sl[k].grow || p->main.sl[k].shift > 0)
			p->lslices = false;
	}
	if (slots > LOCAL_SLOTS)
		p->lslices = false;
	for (k = 0; k < s->ngrid; k++)
		cells += (uint64_t)p->ax[s->grid[k].a].cap *
		    p->ax[s->grid[k].b].cap;
	p->lgrids = p->lslices && cells <= LOCAL_CELLS;
	ts_stage_set_local(st, &stats_local_ops);
	return st;
}

static struct ts_stage *
watch_stage(void *arg, const struct ts_meta *m, struct ts_decoder *dec)
{
	return fe_stats_stage(arg, m, dec);
}

static void
watch_repeats(void *arg, uint64_t n)
{
	struct fe_stats *s = arg;

	if (!s->repeats_known) {
		s->repeats_known = true;
		s->repeats = n;
	}
}

void
fe_stats_watch(struct fe_stats *s, struct ts_check_watch *w)
{
	memset(w, 0, sizeof(*w));
	w->stage = watch_stage;
	w->repeats = watch_repeats;
	w->arg = s;
}

void
fe_stats_init(struct fe_stats *s, const struct fe_stats_opts *o)
{
	memset(s, 0, sizeof(*s));
	if (o != NULL)
		s->o = *o;
	if (s->o.plot > FE_STATS_PLOT_MAX)
		s->o.plot = FE_STATS_PLOT_MAX;
	s->sorted = -1;
}

void
fe_stats_end(struct fe_stats *s, struct ts_diags *d)
{
	uint64_t parts[TS_MAXORDER];
	int k;

	if (!s->seen)
		return;
	if (s->sort_errno != 0)
		ts_diag_io(d, NULL, "sorting (temporary directory '%s'): %s",
		    ts_tmpdir(s->o.tmpdir), strerror(s->sort_errno));
	free(s->positions);
	free(s->density);
	s->positions = fe_stats_product(s->dims, s->order);
	s->density = fe_stats_ratio(s->elements, s->dims, s->order);
	if (s->block) {
		for (k = 0; k < s->order; k++)
			parts[k] = s->mode[k].dim;
		free(s->blocks.fill);
		free(s->blocks.grid_positions);
		s->blocks.fill = fe_stats_ratio(s->nnz, parts, s->order);
		s->blocks.grid_positions = fe_stats_product(parts, s->order);
	}
}

void
fe_stats_free(struct fe_stats *s)
{
	int i;

	for (i = 0; i < s->ngrid; i++)
		free(s->grid[i].cell);
	free(s->grid);
	free(s->positions);
	free(s->density);
	free(s->blocks.fill);
	free(s->blocks.grid_positions);
	memset(s, 0, sizeof(*s));
}

void
fe_stats_bundle(struct ts_bundle *bd, const struct ts_check_opts *co,
    struct fe_stats *s, struct ts_diags *d)
{
	struct ts_check_opts o = *co;
	struct ts_check_watch w;

	fe_stats_watch(s, &w);
	o.watch = &w;
	ts_check_bundle(bd, &o, d);
	fe_stats_end(s, d);
}
