/*
 * expand.c - a block tensor's non-zero blocks become their elements
 * (SPEC K3): every element of every block, in element coordinates, so
 * that values can be given to them.  The blocks are few (a block holds
 * many elements), so the stage holds them until the input ends and then
 * hands on elements batch by batch, never all at once.
 *
 * A sorted block tensor gives a sorted element tensor in the same mode
 * priority, without a sort: elements compare first by the section of
 * the most significant mode, then by their offset in it, then by the
 * next mode's section, and so on; blocks sorted by their sections are
 * therefore walked as a tree, one level per mode in priority order,
 * where level l runs through the blocks that agree on the sections of
 * the modes above it, grouped by their section of mode l, and for each
 * group through the offsets of that section.  Blocks repeated (when
 * duplicates are allowed) give their elements once each, side by side.
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "stage/stage.h"
#include "values/genvalues.h"
#include "util/xalloc.h"

struct expst {
	int		 order;
	int		 prio[TS_MAXORDER];
	bool		 sorted;
	uint64_t	*start[TS_MAXORDER];	/* section starts per mode */
	const uint64_t	*ext[TS_MAXORDER];	/* section extents (the
						 * header's, borrowed) */
	uint64_t	*blk;		/* the blocks, order each */
	size_t		 n, cap;
	uint64_t	 count, expect, *nnz;
	char		*file;
	struct ts_diags	*d;
	/* the walk: level l (mode prio[l]) is at offset x[l] of the
	 * section of blocks [lo[l], hi[l]) */
	size_t		 lo[TS_MAXORDER], hi[TS_MAXORDER];
	uint64_t	 x[TS_MAXORDER];
	size_t		 dup;		/* sorted: next repeat of the leaf */
	bool		 started, over;
};

static inline const uint64_t *
block(const struct expst *st, size_t i)
{
	return st->blk + i * (size_t)st->order;
}

/* Block a before block b in the key's priority: <0, 0, >0. */
static int
cmp_blocks(const struct expst *st, const uint64_t *a, const uint64_t *b)
{
	int l;

	for (l = 0; l < st->order; l++) {
		int k = st->prio[l];

		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	}
	return 0;
}

static int
exp_put(void *self, struct ts_batch *b)
{
	struct expst *st = self;
	const size_t order = (size_t)st->order;
	uint64_t vol;
	size_t i;
	int k;

	if (st->n + b->n > st->cap) {
		while (st->n + b->n > st->cap)
			st->cap = st->cap ? 2 * st->cap : 4096;
		st->blk = ts_xreallocarray(st->blk, st->cap, order *
		    sizeof(uint64_t));
	}
	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * order;
		bool ovf = false;

		if (st->sorted && st->n > 0 &&
		    cmp_blocks(st, block(st, st->n - 1), c) > 0) {
			ts_batch_diag(st->d, b, i, 0, TS_SEV_ERROR, TS_RULE_S2,
			    "block out of order: the metadata says the blocks "
			    "are sorted");
			return -1;
		}
		vol = 1;
		for (k = 0; k < st->order; k++)
			ovf |= !ts_mul_u64(vol, st->ext[k][c[k]], &vol);
		if (ovf || !ts_add_u64(st->count, vol, &st->count)) {
			ts_batch_diag(st->d, b, i, 0, TS_SEV_ERROR, TS_RULE_K3,
			    "the blocks hold more than 18446744073709551615 "
			    "(2^64 - 1) elements");
			return -1;
		}
		memcpy(st->blk + st->n * order, c, order * sizeof(uint64_t));
		st->n++;
	}
	return 0;
}

static int
exp_finish(void *self)
{
	struct expst *st = self;

	if (st->count != st->expect) {
		ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0, TS_RULE_K3,
		    "the blocks hold %llu elements; nnz says %llu", (unsigned
		    long long)st->count, (unsigned long long)st->expect);
		return -1;
	}
	if (st->nnz != NULL)
		*st->nnz = st->count;
	return 0;
}

/* The blocks from a on, below e, whose section of the mode of level l
 * is a's: where they end. */
static size_t
run_end(const struct expst *st, int l, size_t a, size_t e)
{
	const int k = st->prio[l];
	const uint64_t s = block(st, a)[k];

	while (a < e && block(st, a)[k] == s)
		a++;
	return a;
}

/* Start levels l.. at the first element of blocks [a, e). */
static void
descend(struct expst *st, int l, size_t a, size_t e)
{
	for (; l < st->order; l++) {
		st->lo[l] = a;
		st->hi[l] = e = run_end(st, l, a, e);
		st->x[l] = 0;
	}
	st->dup = st->lo[st->order - 1];
}

/* To the next element (sorted walk); false after the last. */
static bool
advance(struct expst *st)
{
	int l, k;

	if (++st->dup < st->hi[st->order - 1])
		return true;
	for (l = st->order - 1; l >= 0; l--) {
		size_t pe = l > 0 ? st->hi[l - 1] : st->n;

		k = st->prio[l];
		if (++st->x[l] < st->ext[k][block(st, st->lo[l])[k]]) {
			if (l + 1 < st->order)
				descend(st, l + 1, st->lo[l], st->hi[l]);
			else
				st->dup = st->lo[l];
			return true;
		}
		if (st->hi[l] < pe) {
			descend(st, l, st->hi[l], pe);
			return true;
		}
	}
	return false;
}

/* To the next element (block by block, first mode fastest). */
static bool
advance_blockwise(struct expst *st)
{
	const uint64_t *c = block(st, st->dup);
	int k;

	for (k = 0; k < st->order; k++) {
		if (++st->x[k] < st->ext[k][c[k]])
			return true;
		st->x[k] = 0;
	}
	return ++st->dup < st->n;
}

static long
exp_next(void *self, struct ts_batch *b)
{
	struct expst *st = self;
	const int order = st->order;
	size_t i = 0;
	int k;

	b->has_values = false;
	b->texts = false;
	b->file = NULL;
	b->loc_offset = false;
	if (!st->started) {
		st->started = true;
		st->over = st->n == 0;
		if (!st->over && st->sorted)
			descend(st, 0, 0, st->n);
		else if (!st->over) {
			memset(st->x, 0, sizeof(st->x));
			st->dup = 0;
		}
	}
	while (!st->over && i < b->cap) {
		uint64_t *out = b->coords + i * (size_t)order;

		if (st->sorted) {
			const uint64_t *c = block(st, st->dup);

			for (k = 0; k < order; k++)
				out[k] = st->start[k][c[k]];
			for (k = 0; k < order; k++)
				out[st->prio[k]] += st->x[k];
			st->over = !advance(st);
		} else {
			const uint64_t *c = block(st, st->dup);

			for (k = 0; k < order; k++)
				out[k] = st->start[k][c[k]] + st->x[k];
			st->over = !advance_blockwise(st);
		}
		i++;
	}
	b->n = i;
	return (long)i;
}

static uint64_t
exp_count(void *self)
{
	return ((struct expst *)self)->count;
}

static void
exp_free(void *self)
{
	struct expst *st = self;
	int k;

	for (k = 0; k < st->order; k++)
		free(st->start[k]);
	free(st->blk);
	free(st->file);
	free(st);
}

static const struct ts_stage_ops exp_ops = {
	"expand", 0, exp_put, exp_finish, exp_next, exp_count, exp_free
};

struct ts_stage *
fe_stage_expand(const struct ts_header *h, const int *prio, bool sorted,
    uint64_t expect, uint64_t *nnz, const char *file, struct ts_diags *d)
{
	struct expst *st = ts_xcalloc(1, sizeof(*st));
	uint64_t s, i;
	int k;

	st->order = h->order;
	st->sorted = sorted && h->order > 0;
	for (k = 0; k < h->order; k++) {
		st->prio[k] = sorted ? prio[k] : k;
		st->ext[k] = h->extents[k];
		st->start[k] = ts_xreallocarray(NULL, h->parts[k] ?
		    h->parts[k] : 1, sizeof(uint64_t));
		for (s = 0, i = 0; i < h->parts[k]; i++) {
			st->start[k][i] = s;
			s += h->extents[k][i];
		}
	}
	st->expect = expect;
	st->nnz = nnz;
	st->file = ts_xstrdup(file);
	st->d = d;
	return ts_stage_new(&exp_ops, st);
}
