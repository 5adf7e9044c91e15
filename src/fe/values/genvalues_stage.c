/*
 * genvalues_stage.c - the generator (genvalues.c) as a stage of a flow.
 * Usually it streams: each batch gets its values in place.  When the
 * values must be partially symmetric and no --symmetric-modes says in
 * which modes, the pattern tells: the stage then holds the coordinates
 * until the input ends, finds which pairs of equal-sized modes can be
 * swapped without changing the set of entries (S7), groups the modes
 * those pairs join, and hands the entries on in their order with
 * values symmetric within each group.  That costs the coordinates in
 * memory, a hash set of them (16 to 24 bytes an entry), and a look-up
 * of each entry's mirror for each pair of equal-sized modes.
 *
 * Streaming, the threads that parse a large text file draw the values
 * of the batches they parsed when the caller falls behind (the stage's
 * local functions).  Else, with threads, each batch is split between
 * the caller and helper threads, when its values are dear enough
 * (normal numbers, symmetric modes) for that to pay.  A value depends
 * on nothing but its entry, so the output is the same whoever draws it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "values/genvalues.h"
#include "util/pool.h"
#include "util/xalloc.h"

#define MAXTHREADS	16
#define MINPART		1024	/* entries worth a thread's while */

struct genst {
	struct ts_genvalues	*g;
	/* the helpers: helper i fills part i + 1 of b in each round, then
	 * says so (the pool's `done`); its mutex guards what follows */
	struct ts_pool		 pool;
	bool			 started;
	int			 nt;		/* threads, the caller's too */
	struct ts_batch		*b;
	unsigned		 round;		/* of work handed out */
	unsigned		 seen[MAXTHREADS];	/* by each helper */
	int			 pending;
	struct ts_diags		*d;
	char			*file;
	char			*groups;	/* as --symmetric-modes */
	/* holding: the coordinates in input order, and a set of them */
	uint64_t		*tup, *set;
	size_t			 n, cap, done, mask;
};

/* Part i of nt of b's entries. */
static void
part(const struct genst *st, int i, int nt, size_t *from, size_t *to)
{
	*from = st->b->n * (size_t)i / (size_t)nt;
	*to = st->b->n * (size_t)(i + 1) / (size_t)nt;
}

/* A helper's turn (pool.h): its part of a round not yet done. */
static bool
take(struct ts_pool *pool, int id)
{
	struct genst *st = pool->ctx;
	size_t from, to;

	if (st->seen[id] == st->round)
		return false;
	st->seen[id] = st->round;
	part(st, id + 1, st->nt, &from, &to);
	pthread_mutex_unlock(&pool->mu);
	fe_gen_fill_range(st->g, st->b, from, to);
	pthread_mutex_lock(&pool->mu);
	if (--st->pending == 0)
		pthread_cond_signal(&pool->done);
	return true;
}

/* The values of b, split between the threads when it is worth it. */
static void
fill(struct genst *st, struct ts_batch *b)
{
	size_t from, to;

	if (st->nt < 2 || b->n < 2 * MINPART || fe_gen_cheap(st->g)) {
		fe_genvalues_fill(st->g, b);
		return;
	}
	if (!st->started) {
		/* Threads we could not have: fewer parts. */
		st->nt = ts_pool_start(&st->pool, st->nt - 1) + 1;
		st->started = true;
	}
	/* What fe_genvalues_fill says of b; the values follow. */
	b->has_values = true;
	b->is_int = st->g->isint;
	b->texts = b->texts_only = false;
	pthread_mutex_lock(&st->pool.mu);
	st->b = b;
	st->pending = st->nt - 1;
	st->round++;
	ts_pool_wake(&st->pool, true);
	pthread_mutex_unlock(&st->pool.mu);
	part(st, 0, st->nt, &from, &to);
	fe_gen_fill_range(st->g, b, from, to);
	pthread_mutex_lock(&st->pool.mu);
	while (st->pending > 0)
		pthread_cond_wait(&st->pool.done, &st->pool.mu);
	pthread_mutex_unlock(&st->pool.mu);
}

static int
gen_put(void *self, struct ts_batch *b)
{
	struct genst *st = self;

	if (b->has_values && !st->g->o.replace) {
		ts_diag_usage(st->d, "'%s' holds values already (--replace "
		    "replaces them)", st->file);
		return -1;
	}
	if (b->local) {
		/* The thread that parsed it drew them (local_put). */
		b->has_values = true;
		b->is_int = st->g->isint;
		b->texts = b->texts_only = false;
		return 0;
	}
	fill(st, b);
	return 0;
}

/*
 * On a thread that parses, the values of the batches it parsed, when
 * the caller falls behind: the caller then only writes them.  A batch
 * that holds values already is left for gen_put to refuse (has_values
 * is not changed here, so that it still can).
 */
static void *
local_start(void *self)
{
	return self;
}

static void
local_put(void *state, struct ts_batch *b)
{
	const struct genst *st = state;

	if (!b->has_values || st->g->o.replace)
		fe_gen_fill_range(st->g, b, 0, b->n);
}

static const struct ts_stage_local_ops local_ops = {
	local_start, local_put, NULL
};

/* ---- holding, to find the symmetric modes ---- */

static int
hold_put(void *self, struct ts_batch *b)
{
	struct genst *st = self;
	const size_t order = (size_t)st->g->order;

	if (b->has_values && !st->g->o.replace) {
		ts_diag_usage(st->d, "'%s' holds values already (--replace "
		    "replaces them)", st->file);
		return -1;
	}
	if (st->n + b->n > st->cap) {
		while (st->n + b->n > st->cap)
			st->cap = st->cap ? 2 * st->cap : 65536;
		st->tup = ts_xreallocarray(st->tup, st->cap, order *
		    sizeof(uint64_t));
	}
	memcpy(st->tup + st->n * order, b->coords, b->n * order *
	    sizeof(uint64_t));
	st->n += b->n;
	return 0;
}

/* A hash of a tuple, for the set of them. */
static uint64_t
tuple_hash(const uint64_t *c, int order)
{
	uint64_t h = 0x243f6a8885a308d3ULL;
	int k;

	for (k = 0; k < order; k++) {
		h = (h ^ c[k]) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	return h;
}

/*
 * The slot of tuple t in the set (open addressing, linear probing):
 * where it is, or the empty slot where it would go.
 */
static uint64_t *
slot_of(const struct genst *st, const uint64_t *t, uint64_t h)
{
	const int order = st->g->order;
	size_t i = (size_t)h & st->mask;
	const uint64_t tag = h >> 48;
	int k;

	/* A slot holds the index + 1 of a tuple, and in its top 16 bits
	 * 16 bits of the tuple's hash, so that most tuples that differ are
	 * told apart without being read. */
	for (;; i = (i + 1) & st->mask) {
		const uint64_t v = st->set[i];
		const uint64_t *x;

		if (v == 0)
			break;
		if (v >> 48 != tag)
			continue;
		x = st->tup + ((v & 0xffffffffffffULL) - 1) * (size_t)order;
		for (k = 0; k < order && x[k] == t[k]; k++)
			continue;
		if (k == order)
			break;
	}
	return &st->set[i];
}

/*
 * The tuple of entry i, with modes p and q swapped (p == q: as it is),
 * into t, and its hash.  Look-ups go to random places of a large table:
 * the slot of the entry AHEAD further on is fetched meanwhile.
 */
#define AHEAD	16

static uint64_t
mirror(const struct genst *st, size_t i, int p, int q, uint64_t *t)
{
	const size_t order = (size_t)st->g->order;
	const uint64_t *x;
	uint64_t u[TS_MAXORDER];

	if (i + AHEAD < st->n) {
		x = st->tup + (i + AHEAD) * order;
		memcpy(u, x, order * sizeof(*u));
		u[p] = x[q];
		u[q] = x[p];
		__builtin_prefetch(&st->set[tuple_hash(u, st->g->order) &
		    st->mask]);
	}
	x = st->tup + i * order;
	memcpy(t, x, order * sizeof(*t));
	t[p] = x[q];
	t[q] = x[p];
	return tuple_hash(t, st->g->order);
}

/* The set of the tuples, to look mirrors up in one probe or two. */
static void
build_set(struct genst *st)
{
	uint64_t t[TS_MAXORDER], h, *sl;
	size_t cap = 16, i;

	while (cap < st->n + st->n / 2)
		cap *= 2;
	st->set = ts_xcalloc(cap, sizeof(*st->set));
	st->mask = cap - 1;
	for (i = 0; i < st->n; i++) {
		h = mirror(st, i, 0, 0, t);
		if (*(sl = slot_of(st, t, h)) == 0)
			*sl = (h >> 48 << 48) | (i + 1);
	}
}

/* Is the pattern the same with modes p and q swapped? */
static bool
swappable(const struct genst *st, int p, int q)
{
	uint64_t t[TS_MAXORDER], h;
	size_t i;

	for (i = 0; i < st->n; i++) {
		h = mirror(st, i, p, q, t);
		if (t[p] != t[q] && *slot_of(st, t, h) == 0)
			return false;
	}
	return true;
}

/* Some entry's value changes when two adjacent modes swap: the values
 * are not fully symmetric (S8's test for 'full'). */
static bool
some_value_changes(const struct genst *st)
{
	const struct ts_genvalues *g = st->g;
	const size_t order = (size_t)g->order;
	uint64_t t[TS_MAXORDER];
	double f1, f2;
	int64_t i1, i2;
	size_t i;
	int p;

	for (i = 0; i < st->n; i++) {
		const uint64_t *x = st->tup + i * order;

		fe_gen_value(g, x, &f1, &i1);
		for (p = 0; p + 1 < g->order; p++) {
			if (x[p] == x[p + 1])
				continue;
			memcpy(t, x, order * sizeof(*t));
			t[p] = x[p + 1];
			t[p + 1] = x[p];
			fe_gen_value(g, t, &f2, &i2);
			if (g->isint ? i1 != i2 : f1 != f2)
				return true;
		}
	}
	return false;
}

static int
find_root(int *up, int k)
{
	while (up[k] != k)
		k = up[k] = up[up[k]];
	return k;
}

/* Does the pattern stay the same under every permutation of the
 * modes (every swap of two adjacent ones)? */
static bool
full_pattern(const struct genst *st)
{
	const struct ts_genvalues *g = st->g;
	int p;

	for (p = 0; p + 1 < g->order; p++)
		if (g->dims[p] != g->dims[p + 1] || !swappable(st, p, p + 1))
			return false;
	return true;
}

/*
 * The groups of --symmetric-modes against a 'partial' claim (S8): the
 * values are symmetric under swaps within a group, so one such swap must
 * leave the pattern as it is; and on a fully symmetric pattern some value
 * must change under a swap, or the tensor is 'full'.
 */
static int
check_given(struct genst *st)
{
	const struct ts_genvalues *g = st->g;
	bool some = false;
	int n, i, j;

	for (n = 0; n < g->ngroups && !some; n++)
		for (i = 0; i < g->gsize[n] && !some; i++)
			for (j = i + 1; j < g->gsize[n] && !some; j++)
				some = swappable(st, g->gmode[n][i],
				    g->gmode[n][j]);
	if (!some) {
		ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0, TS_RULE_S8,
		    "numerical_symmetry is 'partial', but no two modes of a "
		    "group of --symmetric-modes %s can be swapped without "
		    "changing the pattern, so no mirrored entries would hold "
		    "equal values", st->groups);
		return -1;
	}
	if (full_pattern(st) && !some_value_changes(st)) {
		ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0, TS_RULE_S8,
		    "numerical_symmetry is 'partial', but these values would "
		    "be fully symmetric: every value equals its mirrors' "
		    "under every swap of modes (--symmetric-modes %s)",
		    st->groups);
		return -1;
	}
	return 0;
}

/*
 * Given groups where no symmetry was claimed (S8): the values are
 * symmetric under swaps within a group, so they hold 'partial' when one
 * such swap leaves the pattern as it is, and 'full' when the pattern is
 * fully symmetric and no value changes under any swap; never more than
 * the pattern's claim (M5).
 */
static void
measure(struct genst *st)
{
	struct ts_genvalues *g = st->g;
	bool some = false;
	int n, i, j;

	for (n = 0; n < g->ngroups && !some; n++)
		for (i = 0; i < g->gsize[n] && !some; i++)
			for (j = i + 1; j < g->gsize[n] && !some; j++)
				some = swappable(st, g->gmode[n][i],
				    g->gmode[n][j]);
	g->result = !some ? TS_SYM_NO : full_pattern(st) &&
	    !some_value_changes(st) ? TS_SYM_FULL : TS_SYM_PARTIAL;
	if (g->result > g->psym)
		g->result = g->psym;
}

static int
hold_finish(void *self)
{
	struct genst *st = self;
	struct ts_genvalues *g = st->g;
	int up[TS_MAXORDER], group[TS_MAXORDER] = { 0 }, p, q, n = 0;
	int pairs = 0, first_p = -1, first_q = -1, rv;

	/* An empty pattern holds every claim (S7): no value to give. */
	if (st->n == 0) {
		if (g->measure)
			g->result = g->psym;
		return 0;
	}
	build_set(st);
	if (g->measure) {
		measure(st);
		free(st->set);
		st->set = NULL;
		return 0;
	}
	if (g->check) {
		rv = check_given(st);
		free(st->set);
		st->set = NULL;
		return rv;
	}
	for (p = 0; p < g->order; p++)
		up[p] = p;
	for (p = 0; p < g->order; p++)
		for (q = p + 1; q < g->order; q++)
			if (g->dims[p] == g->dims[q] &&
			    find_root(up, p) != find_root(up, q) &&
			    swappable(st, p, q)) {
				up[find_root(up, q)] = find_root(up, p);
				if (pairs++ == 0) {
					first_p = p;
					first_q = q;
				}
			}
	free(st->set);
	st->set = NULL;
	if (pairs == 0) {
		ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0, TS_RULE_S7,
		    "numerical_symmetry is 'partial', but no two equal-sized "
		    "modes can be swapped without changing the pattern");
		return -1;
	}
	if (pairs == g->order - 1) {
		/* Every mode joins one group: the pattern is fully
		 * symmetric, and values symmetric in all of it would be
		 * 'full'.  One pair keeps them partial. */
		group[first_p] = group[first_q] = 1;
		g->reduced = true;
	} else
		for (p = 0; p < g->order; p++) {
			int r = find_root(up, p), k;

			if (group[r] == 0)
				for (k = p + 1; k < g->order; k++)
					if (find_root(up, k) == r) {
						group[r] = ++n;
						break;
					}
			group[p] = group[r];
		}
	fe_gen_set_groups(g, group);
	g->found = true;
	if (g->reduced && !some_value_changes(st)) {
		ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0, TS_RULE_S8,
		    "numerical_symmetry is 'partial', but these values would "
		    "be fully symmetric: every value equals its mirrors' "
		    "under every swap of modes");
		return -1;
	}
	return 0;
}

static long
hold_next(void *self, struct ts_batch *b)
{
	struct genst *st = self;
	const size_t order = (size_t)st->g->order;
	size_t n = st->n - st->done;

	if (n > b->cap)
		n = b->cap;
	if (n == 0)
		return 0;	/* all handed on, or none held (no entry) */
	memcpy(b->coords, st->tup + st->done * order, n * order *
	    sizeof(uint64_t));
	b->n = n;
	b->first = st->done;
	/* No longer where they came from: messages name no place. */
	b->file = NULL;
	b->loc_offset = false;
	st->done += n;
	fill(st, b);
	return (long)n;
}

static uint64_t
hold_count(void *self)
{
	return ((struct genst *)self)->n;
}

static void
gen_free(void *self)
{
	struct genst *st = self;

	ts_pool_destroy(&st->pool);

	free(st->tup);
	free(st->set);
	free(st->file);
	free(st->groups);
	free(st);
}

static const struct ts_stage_ops stream_ops = {
	"generate values", TS_STAGE_VALUES, gen_put, NULL, NULL, NULL,
	gen_free
};

static const struct ts_stage_ops hold_ops = {
	"generate values", TS_STAGE_VALUES, hold_put, hold_finish, hold_next,
	hold_count, gen_free
};

struct ts_stage *
fe_stage_genvalues(struct ts_genvalues *g, int threads, const char *file,
    struct ts_diags *d)
{
	struct genst *st = ts_xcalloc(1, sizeof(*st));
	struct ts_stage *s;

	st->g = g;
	st->nt = threads < 1 ? 1 : threads > MAXTHREADS ? MAXTHREADS : threads;
	ts_pool_init(&st->pool, st, take);
	st->d = d;
	st->file = ts_xstrdup(file);
	if (g->check) {
		char *t;
		int n, i;

		st->groups = ts_xstrdup("");
		for (n = 0; n < g->ngroups; n++)
			for (i = 0; i < g->gsize[n]; i++) {
				t = ts_xasprintf("%s%s%d", st->groups, i > 0 ?
				    "," : n > 0 ? "/" : "", g->gmode[n][i] + 1);
				free(st->groups);
				st->groups = t;
			}
	}
	if (g->pattern || g->check || g->measure)
		return ts_stage_new(&hold_ops, st);
	s = ts_stage_new(&stream_ops, st);
	ts_stage_set_local(s, &local_ops);
	return s;
}
