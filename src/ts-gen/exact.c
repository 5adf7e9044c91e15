/*
 * exact.c - exact nnz (gen.h): the first nnz distinct coordinates in
 * draw order, whatever the model repeats.
 *
 * The decoder gives draws 0 .. fed-1, a few more than nnz (as many as
 * the model's estimate says give nnz distinct ones); they go into the
 * external sorter, which keeps one entry a coordinate (summing the draws'
 * 1s under --duplicates sum), in the memory of -S, runs spilled to -T.
 * Which of them are among the first nnz distinct is then settled by the
 * draws past nnz alone, the late ones, which are few:
 *
 *   - the late draws are drawn first, before the decoder's draws come,
 *     into a hash table of their distinct coordinates, each with its
 *     first late draw;
 *   - the draws before nnz are looked up there as they come (a filter
 *     of a bit a late coordinate says no to most): a late coordinate
 *     found is no first occurrence; late draws made past the fed ones
 *     (below) are looked up by drawing those before nnz again, on
 *     threads;
 *   - the sorter's count U' is the distinct coordinates of all fed
 *     draws, so the first nnz draws hold U = U' - L of them (L the late
 *     first occurrences), and the first K = nnz - U late first
 *     occurrences complete the nnz: the draws that count are those
 *     before T, one past the K-th of them;
 *   - late first occurrences from T on are dropped from the sorted
 *     stream as it is handed on; under sum, each kept coordinate's
 *     count loses its draws from T on.  When the fed draws hold fewer
 *     than K late first occurrences, more are drawn past them, looked up
 *     the same way, and merged into the sorted stream.
 *
 * Nothing depends on how many draws were fed: the entries are the same
 * bytes whatever the estimate was, and whatever -j.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/xalloc.h"

#define CHUNK		8192
#define MAXTHREADS	64

/* A distinct coordinate tuple among the late draws. */
struct late {
	uint64_t	 first;		/* its first draw (late) */
	uint64_t	 drop_n;	/* under sum: its draws from T on,
					 * that the sorter counted */
	uint64_t	 add_n;		/* ... its draws before T that the
					 * sorter did not see */
	unsigned char	 early;		/* drawn before nnz too */
	unsigned char	 checked;	/* looked up among those */
};

struct exact {
	struct gen	*g;
	struct ts_sort_opts so;
	uint64_t	 nnz, fed, drawn, T;
	struct ts_sorter *s;
	int		 threads;
	const char	*name;
	struct ts_diags	*d;
	int		 order;
	/* the late draws' distinct tuples, in order of their first draw */
	uint64_t	*lc;		/* nl * order */
	struct late	*lv;
	size_t		 nl, capl;
	uint64_t	*tab;		/* slot + 1, 0 empty */
	size_t		 tmask;
	uint64_t	*filter;	/* a bit a quick hash of them */
	size_t		 fmask;
	/* the tuples that change the sorted stream, in its order */
	size_t		*adj;
	size_t		 nadj, iadj;
	/* the sorter's entries, being merged */
	struct ts_batch	 in;
	size_t		 inpos;
	bool		 in_end;
	uint64_t	 handed;
};

static uint64_t
hash_tuple(const uint64_t *c, int order)
{
	uint64_t h = 0x243f6a8885a308d3ULL;
	int k;

	for (k = 0; k < order; k++)
		h = fe_rng_mum(h ^ c[k], FE_RNG_WYP0);
	return fe_rng_mix(h);
}

static inline bool
same_tuple(const uint64_t *a, const uint64_t *b, int order)
{
	int k;

	for (k = 0; k < order; k++)
		if (a[k] != b[k])
			return false;
	return true;
}

/*
 * The table: open addressing, linear probing; an entry holds a slot + 1
 * in its low 32 bits and the high 32 bits of the tuple's hash above
 * them, so that most probes that miss compare no tuple.
 */
#define FP(h)	((h) & 0xffffffff00000000ULL)

/* The slot of tuple c among the late ones, or (size_t)-1. */
static size_t
lookup(const struct exact *x, const uint64_t *c)
{
	uint64_t h = hash_tuple(c, x->order), v;
	size_t i = (size_t)h & x->tmask;

	if (x->tab == NULL)
		return (size_t)-1;
	for (;; i = (i + 1) & x->tmask) {
		if ((v = x->tab[i]) == 0)
			return (size_t)-1;
		if (FP(v) == FP(h) && same_tuple(x->lc + ((v & 0xffffffff) -
		    1) * (size_t)x->order, c, x->order))
			return (size_t)((v & 0xffffffff) - 1);
	}
}

static void
table_put(struct exact *x, size_t slot)
{
	uint64_t h = hash_tuple(x->lc + slot * (size_t)x->order, x->order);
	size_t i = (size_t)h & x->tmask;

	while (x->tab[i] != 0)
		i = (i + 1) & x->tmask;
	x->tab[i] = FP(h) | (slot + 1);
}

/* Draw index i of tuple c, late: counted, or a new slot. */
static void
late_add(struct exact *x, const uint64_t *c, uint64_t i)
{
	size_t slot = lookup(x, c), j;

	if (slot != (size_t)-1)
		return;
	if (x->nl == x->capl) {
		x->capl = x->capl ? 2 * x->capl : 1024;
		x->lc = ts_xreallocarray(x->lc, x->capl, (size_t)x->order *
		    sizeof(*x->lc));
		x->lv = ts_xreallocarray(x->lv, x->capl, sizeof(*x->lv));
	}
	if (2 * (x->nl + 1) > x->tmask + 1) {
		free(x->tab);
		x->tmask = x->tmask ? 2 * x->tmask + 1 : 4095;
		while (2 * (x->nl + 1) > x->tmask + 1)
			x->tmask = 2 * x->tmask + 1;
		x->tab = ts_xcalloc(x->tmask + 1, sizeof(*x->tab));
		for (j = 0; j < x->nl; j++)
			table_put(x, j);
	}
	memcpy(x->lc + x->nl * (size_t)x->order, c, (size_t)x->order *
	    sizeof(*c));
	memset(&x->lv[x->nl], 0, sizeof(x->lv[x->nl]));
	x->lv[x->nl].first = i;
	table_put(x, x->nl++);
}

/* Draws [from, to) into the late table. */
static void
late_draws(struct exact *x, uint64_t from, uint64_t to)
{
	uint64_t *c = ts_xreallocarray(NULL, CHUNK, (size_t)x->order *
	    sizeof(*c));
	uint64_t i;
	size_t n, e;

	for (i = from; i < to; i += n) {
		n = to - i < CHUNK ? (size_t)(to - i) : CHUNK;
		gen_fill(x->g, i, n, c);
		for (e = 0; e < n; e++)
			late_add(x, c + e * (size_t)x->order, i + e);
	}
	free(c);
	x->drawn = to;
}

/* ---- the draws before nnz, looked up on threads ---- */

struct scan {
	struct exact	*x;
	uint64_t	 from, to;
	pthread_t	 tid;
};

/* A quick hash of a tuple for the filter: a multiply a coordinate,
 * side by side. */
static inline uint64_t
quick(const uint64_t *c, int order)
{
	uint64_t h = 0;
	int k;

	for (k = 0; k < order; k++)
		h ^= (c[k] + (uint64_t)k) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

static void *
scan_main(void *arg)
{
	struct scan *sc = arg;
	struct exact *x = sc->x;
	uint64_t *c = ts_xreallocarray(NULL, CHUNK, (size_t)x->order *
	    sizeof(*c));
	uint64_t i, h;
	size_t n, e, slot;

	for (i = sc->from; i < sc->to; i += n) {
		n = sc->to - i < CHUNK ? (size_t)(sc->to - i) : CHUNK;
		gen_fill(x->g, i, n, c);
		for (e = 0; e < n; e++) {
			const uint64_t *t = c + e * (size_t)x->order;

			/* Most tuples are no late one: the filter says. */
			h = quick(t, x->order) & x->fmask;
			if (!(x->filter[h >> 6] >> (h & 63) & 1))
				continue;
			if ((slot = lookup(x, t)) != (size_t)-1)
				__atomic_store_n(&x->lv[slot].early, 1,
				    __ATOMIC_RELAXED);
		}
	}
	free(c);
	return NULL;
}

/* The filter of the late tuples: a bit each, of 32 a tuple or more (a
 * draw not late passes it once in 32 at most). */
static void
filter_build(struct exact *x)
{
	size_t j, bits = 1 << 16;
	uint64_t h;

	while (bits < 32 * x->nl && bits < ((size_t)1 << 31))
		bits *= 2;
	free(x->filter);
	x->filter = ts_xcalloc(bits / 64, sizeof(*x->filter));
	x->fmask = bits - 1;
	for (j = 0; j < x->nl; j++) {
		h = quick(x->lc + j * (size_t)x->order, x->order) & x->fmask;
		x->filter[h >> 6] |= (uint64_t)1 << (h & 63);
	}
}

/* Which late tuples not looked up yet are drawn before nnz. */
static void
scan_early(struct exact *x)
{
	struct scan sc[MAXTHREADS];
	int t, nt = x->threads < MAXTHREADS ? x->threads : MAXTHREADS;
	size_t j;

	for (j = 0; j < x->nl && x->lv[j].checked; j++)
		continue;
	if (j == x->nl)
		return;
	filter_build(x);
	for (t = 0; t < nt; t++) {
		sc[t].x = x;
		sc[t].from = x->nnz * (uint64_t)t / (uint64_t)nt;
		sc[t].to = x->nnz * (uint64_t)(t + 1) / (uint64_t)nt;
	}
	for (t = 1; t < nt; t++)
		if (pthread_create(&sc[t].tid, NULL, scan_main, &sc[t]) != 0)
			break;
	/* The caller's part, and those no thread could take. */
	scan_main(&sc[0]);
	for (j = (size_t)t; j < (size_t)nt; j++)
		scan_main(&sc[j]);
	while (--t > 0)
		pthread_join(sc[t].tid, NULL);
	for (j = 0; j < x->nl; j++)
		x->lv[j].checked = 1;
}

/* ---- settling T ---- */

/* The late first occurrences (not drawn before nnz). */
static uint64_t
late_firsts(const struct exact *x)
{
	uint64_t n = 0;
	size_t j;

	for (j = 0; j < x->nl; j++)
		n += !x->lv[j].early;
	return n;
}

/* Tuples a and b in the priority prio: -1, 0, 1. */
static int
tuple_cmp(const int *prio, int order, const uint64_t *a, const uint64_t *b)
{
	int k;

	for (k = 0; k < order; k++) {
		uint64_t u = a[prio[k]], v = b[prio[k]];

		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}

/* qsort's comparison of late slots, by their tuples (one sort at a
 * time: settle() sets what it compares). */
static const struct exact *sorting;

static int
adj_cmp(const void *a, const void *b)
{
	const struct exact *x = sorting;

	return tuple_cmp(x->so.prio, x->order, x->lc + *(const size_t *)a *
	    (size_t)x->order, x->lc + *(const size_t *)b * (size_t)x->order);
}

/* Under sum: each late tuple's draws from T on (within the fed ones)
 * and before T (past them). */
static void
count_late(struct exact *x)
{
	uint64_t *c = ts_xreallocarray(NULL, CHUNK, (size_t)x->order *
	    sizeof(*c));
	uint64_t i, lo = x->T < x->fed ? x->T : x->fed;
	uint64_t hi = x->T < x->fed ? x->fed : x->T;
	size_t n, e, slot;

	for (i = lo; i < hi; i += n) {
		n = hi - i < CHUNK ? (size_t)(hi - i) : CHUNK;
		gen_fill(x->g, i, n, c);
		for (e = 0; e < n; e++) {
			slot = lookup(x, c + e * (size_t)x->order);
			if (i + e >= x->fed)
				x->lv[slot].add_n++;
			else
				x->lv[slot].drop_n++;
		}
	}
	free(c);
}

static int
settle(struct exact *x, uint64_t distinct)
{
	uint64_t need, have, cap = GEN_MAX_DRAWS(x->nnz), i = 0, more;
	size_t j;

	x->T = x->nnz;
	/* The fed late draws, made first: the draws before nnz were looked
	 * up among them as they came. */
	if (x->drawn < x->fed)
		late_draws(x, x->drawn > x->nnz ? x->drawn : x->nnz, x->fed);
	else
		for (j = 0; j < x->nl; j++)
			x->lv[j].checked = x->fed >= x->nnz;
	if (distinct == x->fed) {
		/* No repeat among the fed draws: the first nnz are it. */
		for (j = 0; j < x->nl; j++)
			x->lv[j].checked = 1;
	} else {
		for (;;) {
			if (x->nl * ((size_t)x->order * 8 + sizeof(struct late) +
			    16) > x->so.mem_limit / 2 + ((size_t)64 << 20)) {
				ts_diag(x->d, TS_SEV_ERROR, x->name, 0, 0,
				    TS_RULE_NONE, "%llu distinct coordinates "
				    "take %llu draws or more, whose %llu "
				    "coordinates past the first %llu are more "
				    "than the top-up's memory (half of -S) "
				    "holds: give more -S", (unsigned long
				    long)x->nnz, (unsigned long long)x->drawn,
				    (unsigned long long)x->nl, (unsigned long
				    long)x->nnz);
				return -1;
			}
			scan_early(x);
			have = late_firsts(x);
			/* distinct counts the fed late firsts alone. */
			for (need = 0, j = 0; j < x->nl; j++)
				need += !x->lv[j].early &&
				    x->lv[j].first < x->fed;
			need = x->nnz - (distinct - need);
			if (need <= have)
				break;
			if (x->drawn >= cap) {
				ts_diag(x->d, TS_SEV_ERROR, x->name, 0, 0,
				    TS_RULE_NONE, "%llu draws give %llu "
				    "distinct coordinates, not %llu: the "
				    "model has too few positions for that nnz",
				    (unsigned long long)x->drawn, (unsigned long
				    long)(x->nnz - need + have), (unsigned long
				    long)x->nnz);
				return -1;
			}
			/* As many again as the late draws took for each
			 * late first so far, and some. */
			more = (need - have) * ((x->drawn - x->nnz + 1) /
			    (have + 1) + 1) + 1024;
			more = more < cap - x->drawn ? more : cap - x->drawn;
			x->g->shortfall += more;
			late_draws(x, x->drawn, x->drawn + more);
		}
		/* T: one past the need-th late first. */
		for (j = 0, i = 0; need > 0 && j < x->nl; j++)
			if (!x->lv[j].early && ++i == need) {
				x->T = x->lv[j].first + 1;
				break;
			}
	}
	x->g->made = x->T;
	x->g->repeats = x->T - x->nnz;
	if (x->so.dups == TS_DUP_SUM)
		count_late(x);
	/* What changes the sorted stream: late firsts from T on that the
	 * sorter holds (dropped), those before T that it does not
	 * (added), and under sum the counts to mend. */
	x->adj = ts_xreallocarray(NULL, x->nl + 1, sizeof(*x->adj));
	for (j = 0; j < x->nl; j++) {
		const struct late *l = &x->lv[j];
		bool first = !l->early;

		if ((first && l->first >= x->T && l->first < x->fed) ||
		    (first && l->first < x->T && l->first >= x->fed) ||
		    l->drop_n != 0 || l->add_n != 0)
			x->adj[x->nadj++] = j;
	}
	sorting = x;
	qsort(x->adj, x->nadj, sizeof(*x->adj), adj_cmp);
	sorting = NULL;
	return 0;
}

/* ---- the stage ---- */

/* The draws of b (draw b->first on) before nnz looked up among the late
 * ones, made first: on a drawing thread (local_put) or on the caller's. */
static void
early_lookups(struct exact *x, const struct ts_batch *b)
{
	const int order = x->order;
	size_t e, n, slot;
	uint64_t h;

	if (x->nl == 0 || b->first >= x->nnz)
		return;
	n = x->nnz - b->first < b->n ? (size_t)(x->nnz - b->first) : b->n;
	for (e = 0; e < n; e++) {
		const uint64_t *t = b->coords + e * (size_t)order;

		h = quick(t, order) & x->fmask;
		if ((x->filter[h >> 6] >> (h & 63) & 1) &&
		    (slot = lookup(x, t)) != (size_t)-1)
			__atomic_store_n(&x->lv[slot].early, 1,
			    __ATOMIC_RELAXED);
	}
}

/* The drawing threads' part (struct ts_stage_local_ops): the lookups,
 * the late table shared and read only. */
static void *
local_start(void *self)
{
	return self;
}

static void
local_put(void *state, struct ts_batch *b)
{
	early_lookups(state, b);
}

static const struct ts_stage_local_ops exact_local = {
	local_start, local_put, NULL
};

static int
exact_put(void *self, struct ts_batch *b)
{
	struct exact *x = self;

	if (!b->local)
		early_lookups(x, b);
	x->fed += b->n;
	if (ts_sorter_add(x->s, b) != 0) {
		ts_diag_io(x->d, NULL, "sorting (temporary directory '%s'): "
		    "%s", x->so.tmpdir ? x->so.tmpdir : "$TMPDIR or /tmp",
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
exact_finish(void *self)
{
	struct exact *x = self;

	if (ts_sorter_finish(x->s) != 0) {
		ts_diag_io(x->d, NULL, "sorting (temporary directory '%s'): "
		    "%s", x->so.tmpdir ? x->so.tmpdir : "$TMPDIR or /tmp",
		    strerror(errno));
		return -1;
	}
	return settle(x, ts_sorter_count(x->s));
}

/* Is the late tuple j one the stream drops, or one it adds? */
static bool
dropped(const struct exact *x, size_t j)
{
	const struct late *l = &x->lv[j];

	return !l->early && l->first >= x->T;
}

static bool
added(const struct exact *x, size_t j)
{
	const struct late *l = &x->lv[j];

	return !l->early && l->first < x->T && l->first >= x->fed;
}

/* Entry i of b set to tuple c, counting n under sum. */
static void
put_entry(const struct exact *x, struct ts_batch *b, const uint64_t *c,
    int64_t n, const struct ts_batch *from, size_t fi)
{
	size_t i = b->n++;

	memcpy(b->coords + i * (size_t)x->order, c, (size_t)x->order *
	    sizeof(*c));
	if (x->so.dups != TS_DUP_SUM)
		return;
	if (ts_vtype_info(x->so.vtype)->is_int)
		b->ival[i] = (from != NULL ? from->ival[fi] : 0) + n;
	else
		b->fval[i] = (from != NULL ? from->fval[fi] : 0) + (double)n;
}

/*
 * The sorter's entries from x->inpos on into b, as many as it has room
 * for, when none of them meets a late tuple (the last of x->in comes
 * before the next one): as put_entry puts them, in one copy.  (Under
 * sum, each count plus 0 is itself: a count is at least 1.)
 */
static void
put_span(struct exact *x, struct ts_batch *b)
{
	const size_t order = (size_t)x->order;
	size_t m = x->in.n - x->inpos;

	m = m < b->cap - b->n ? m : b->cap - b->n;
	memcpy(b->coords + b->n * order, x->in.coords + x->inpos * order, m *
	    order * sizeof(*b->coords));
	if (x->so.dups == TS_DUP_SUM) {
		if (ts_vtype_info(x->so.vtype)->is_int)
			memcpy(b->ival + b->n, x->in.ival + x->inpos, m *
			    sizeof(*b->ival));
		else
			memcpy(b->fval + b->n, x->in.fval + x->inpos, m *
			    sizeof(*b->fval));
	}
	b->n += m;
	x->inpos += m;
}

static long
exact_next(void *self, struct ts_batch *b)
{
	struct exact *x = self;
	const int order = x->order;
	long r;

	b->n = 0;
	b->has_values = x->so.dups == TS_DUP_SUM;
	b->is_int = ts_vtype_info(x->so.vtype)->is_int;
	b->texts = b->texts_only = false;
	while (b->n < b->cap) {
		const uint64_t *sc = NULL, *ac = NULL;
		size_t j = 0;
		int c;

		if (x->inpos == x->in.n && !x->in_end) {
			if ((r = ts_sorter_next(x->s, &x->in)) < 0) {
				ts_diag_io(x->d, NULL, "sorting: %s",
				    strerror(errno));
				return -1;
			}
			x->inpos = 0;
			x->in_end = r == 0;
		}
		if (x->inpos < x->in.n)
			sc = x->in.coords + x->inpos * (size_t)order;
		if (x->iadj < x->nadj) {
			j = x->adj[x->iadj];
			ac = x->lc + j * (size_t)order;
		}
		if (sc == NULL && ac == NULL)
			break;
		if (sc != NULL && (ac == NULL || tuple_cmp(x->so.prio, order,
		    x->in.coords + (x->in.n - 1) * (size_t)order, ac) < 0)) {
			put_span(x, b);
			continue;
		}
		c = sc == NULL ? 1 : ac == NULL ? -1 : tuple_cmp(x->so.prio,
		    order, sc, ac);
		if (c < 0) {
			put_entry(x, b, sc, 0, &x->in, x->inpos);
			x->inpos++;
		} else if (c > 0) {
			/* Not in the sorter: drawn past the fed ones. */
			if (added(x, j))
				put_entry(x, b, ac, (int64_t)x->lv[j].add_n,
				    NULL, 0);
			x->iadj++;
		} else {
			if (!dropped(x, j))
				put_entry(x, b, sc, (int64_t)x->lv[j].add_n -
				    (int64_t)x->lv[j].drop_n, &x->in,
				    x->inpos);
			x->inpos++;
			x->iadj++;
		}
	}
	x->handed += b->n;
	return (long)b->n;
}

static uint64_t
exact_count(void *self)
{
	return ((struct exact *)self)->nnz;
}

static void
exact_free(void *self)
{
	struct exact *x = self;

	ts_sorter_free(x->s);
	ts_batch_free(&x->in);
	free(x->lc);
	free(x->lv);
	free(x->tab);
	free(x->filter);
	free(x->adj);
	free(x);
}

static const struct ts_stage_ops exact_ops = {
	"exact nnz", 0, exact_put, exact_finish, exact_next, exact_count,
	exact_free
};

struct ts_stage *
gen_exact_stage(struct gen *g, const struct ts_sort_opts *so, uint64_t nnz,
    int threads, const char *name, struct ts_diags *d)
{
	struct exact *x = ts_xcalloc(1, sizeof(*x));
	struct ts_stage *st;

	x->g = g;
	x->so = *so;
	x->nnz = nnz;
	x->order = so->order;
	x->threads = threads < 1 ? 1 : threads;
	x->name = name;
	x->d = d;
	if ((x->s = ts_sorter_new(so)) == NULL) {
		free(x);
		ts_diag_io(d, NULL, "sorting: %s", strerror(errno));
		return NULL;
	}
	ts_batch_init(&x->in, so->order, CHUNK);
	/* The late draws of those the decoder will give, first, so that
	 * the draws before nnz are looked up as they are drawn. */
	if (g->draws > nnz)
		late_draws(x, nnz, g->draws);
	if (x->nl > 0)
		filter_build(x);
	st = ts_stage_new(&exact_ops, x);
	ts_stage_set_local(st, &exact_local);
	return st;
}
