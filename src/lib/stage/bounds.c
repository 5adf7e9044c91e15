/*
 * bounds.c - S1 as a stage: every coordinate inside the tensor (or, for
 * a block tensor, inside the block grid), by the scan and the message of
 * format/inrange.c.  The conversions run it as a stage that stops at the
 * first coordinate out of range, and the checks call ts_bounds_report
 * for each.  For a block tensor the stage also counts the elements of
 * the blocks (K3), so that no conversion writes from blocks that do not
 * hold nnz of them.
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "stage/stage.h"
#include "util/xalloc.h"

struct bounds {
	uint64_t	 lim[TS_MAXORDER];
	int		 order, base;
	bool		 block;
	struct ts_diags	*d;
	/* K3, for a block tensor: the section extents of each mode, the
	 * elements the blocks so far hold, and how many they must */
	uint64_t *const	*ext;
	uint64_t	 count, nnz;
	const char	*file;
};

static int
bounds_put(void *self, struct ts_batch *b)
{
	const struct bounds *s = self;
	const int order = s->order;
	size_t i;
	int k;

	/* Seldom any: then the first of them, to say where. */
	if (!ts_coords_out(b->coords, b->n, s->lim, order))
		return 0;
	for (i = 0; i < b->n; i++)
		for (k = 0; k < order; k++)
			if (b->coords[i * (size_t)order + (size_t)k] >=
			    s->lim[k]) {
				ts_bounds_report(s->d, b, i, k, s->lim,
				    s->base, s->block);
				return -1;
			}
	return 0;
}

static const struct ts_stage_ops bounds_ops = {
	"bounds", TS_STAGE_READS, bounds_put, NULL, NULL, NULL, free
};

static int
blocks_put(void *self, struct ts_batch *b)
{
	struct bounds *s = self;
	const int order = s->order;
	uint64_t vol;
	size_t i;
	int k;

	if (bounds_put(self, b) != 0)
		return -1;
	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;
		bool ovf = false;

		/* The checks inlined (not ts_mul_u64's calls): this loop
		 * is over every block. */
		vol = 1;
		for (k = 0; k < order; k++)
			ovf |= __builtin_mul_overflow(vol, s->ext[k][c[k]],
			    &vol);
		if (ovf || __builtin_add_overflow(s->count, vol, &s->count)) {
			ts_batch_diag(s->d, b, i, 0, TS_SEV_ERROR, TS_RULE_K3,
			    "the non-zero blocks up to this one hold more "
			    "than 18446744073709551615 (2^64 - 1) elements; "
			    "'nnz' is %llu", (unsigned long long)s->nnz);
			return -1;
		}
		if (s->count > s->nnz) {
			ts_batch_diag(s->d, b, i, 0, TS_SEV_ERROR, TS_RULE_K3,
			    "the non-zero blocks up to this one hold %llu "
			    "elements, more than 'nnz' (%llu)", (unsigned long
			    long)s->count, (unsigned long long)s->nnz);
			return -1;
		}
	}
	return 0;
}

static int
blocks_finish(void *self)
{
	const struct bounds *s = self;

	if (s->count == s->nnz)
		return 0;
	ts_diag(s->d, TS_SEV_ERROR, s->file, 0, 0, TS_RULE_K3, "the non-zero "
	    "blocks hold %llu elements; 'nnz' is %llu", (unsigned long
	    long)s->count, (unsigned long long)s->nnz);
	return -1;
}

static const struct ts_stage_ops blocks_ops = {
	"bounds", 0, blocks_put, blocks_finish, NULL, NULL, free
};

struct ts_stage *
ts_stage_bounds(const uint64_t *lim, int order, int base, bool block,
    struct ts_diags *d)
{
	struct bounds *s = ts_xcalloc(1, sizeof(*s));

	memcpy(s->lim, lim, (size_t)order * sizeof(*lim));
	s->order = order;
	s->base = base;
	s->block = block;
	s->d = d;
	return ts_stage_new(&bounds_ops, s);
}

struct ts_stage *
ts_stage_block_bounds(const struct ts_header *h, int base, uint64_t nnz,
    const char *file, struct ts_diags *d)
{
	struct bounds *s = ts_xcalloc(1, sizeof(*s));

	memcpy(s->lim, h->parts, (size_t)h->order * sizeof(*s->lim));
	s->order = h->order;
	s->base = base;
	s->block = true;
	s->d = d;
	s->ext = h->extents;
	s->nnz = nnz;
	s->file = file;
	return ts_stage_new(&blocks_ops, s);
}
