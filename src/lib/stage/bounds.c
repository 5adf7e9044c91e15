/*
 * bounds.c - S1: every coordinate inside the tensor (or, for a block
 * tensor, inside the block grid).  The one place that says so: the
 * conversions run it as a stage that stops at the first coordinate out
 * of range, and the checks call ts_bounds_report for each.  For a block
 * tensor the stage also counts the elements of the blocks (K3), so that
 * no conversion writes from blocks that do not hold nnz of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "stage/stage.h"
#include "util/xalloc.h"

void
ts_batch_diag(struct ts_diags *d, const struct ts_batch *b, size_t i, int k,
    enum ts_sev sev, const char *rule, const char *fmt, ...)
{
	uint64_t line = 0, col = 0;
	int64_t off = -1;
	va_list ap;

	if (!ts_diag_wanted(d, b->file, rule)) {
		/* Still counted; no need to locate it. */
		ts_diag(d, sev, b->file, 0, 0, rule, "-");
		return;
	}
	if (b->loc_offset)
		off = (int64_t)(b->loc[i] + (uint64_t)k * b->loc_step);
	else if (b->loc != NULL && b->file != NULL) {
		line = b->loc[i];
		col = ts_batch_col(b, i, k);
	}
	va_start(ap, fmt);
	ts_vdiag(d, sev, b->file, line, col, off, rule, fmt, ap);
	va_end(ap);
}

char *
ts_tuple_str(char *buf, size_t n, const uint64_t *t, int order, int base)
{
	size_t k = 0;
	int i;

	buf[k++] = '(';
	for (i = 0; i < order && k + 24 < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? ", " : "",
		    (unsigned long long)(t[i] + (uint64_t)base));
	if (i < order)
		k += (size_t)snprintf(buf + k, n - k, ", ...");
	snprintf(buf + k, n - k, ")");
	return buf;
}

void
ts_bounds_report(struct ts_diags *d, const struct ts_batch *b, size_t i,
    int k, const uint64_t *lim, int base, bool block)
{
	uint64_t raw = b->coords[i * (size_t)b->order + (size_t)k] +
	    (uint64_t)base;

	if (raw < (uint64_t)base)
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, "S1", "coordinate %llu "
		    "of mode %d is below the index base %d",
		    (unsigned long long)raw, k + 1, base);
	else if (block)
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, "S1", "block "
		    "coordinate %llu is outside the %llu sections of mode %d",
		    (unsigned long long)raw, (unsigned long long)lim[k], k + 1);
	else if (base == 1)
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, "S1", "coordinate %llu "
		    "exceeds dimension %llu of mode %d",
		    (unsigned long long)raw, (unsigned long long)lim[k],
		    k + 1);
	else
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, "S1", "coordinate %llu "
		    "exceeds %llu, the largest 0-based index of mode %d "
		    "(dimension %llu)", (unsigned long long)raw,
		    (unsigned long long)(lim[k] - 1), k + 1,
		    (unsigned long long)lim[k]);
}

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

/*
 * Is some coordinate of the n tuples of order ord at c outside lim?  No
 * branch on each (a third less time than a test of each on the wide
 * bench tensor), ord a constant where inlined.
 */
static inline __attribute__((always_inline)) bool
any_out(const uint64_t *c, size_t n, const uint64_t *lim, const int ord)
{
	uint64_t l[TS_MAXORDER], bad = 0;
	size_t i;
	int k;

	memcpy(l, lim, (size_t)ord * sizeof(*l));
	for (i = 0; i < n; i++)
		for (k = 0; k < ord; k++)
			bad |= c[i * (size_t)ord + (size_t)k] >= l[k];
	return bad != 0;
}

static bool
out_of_bounds(const uint64_t *c, size_t n, const uint64_t *lim, int order)
{
	switch (order) {
	case 2: return any_out(c, n, lim, 2);
	case 3: return any_out(c, n, lim, 3);
	case 4: return any_out(c, n, lim, 4);
	default: return any_out(c, n, lim, order);
	}
}

static int
bounds_put(void *self, struct ts_batch *b)
{
	const struct bounds *s = self;
	const int order = s->order;
	size_t i;
	int k;

	/* Seldom any: then the first of them, to say where. */
	if (!out_of_bounds(b->coords, b->n, s->lim, order))
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

		vol = 1;
		for (k = 0; k < order; k++)
			ovf |= !ts_mul_u64(vol, s->ext[k][c[k]], &vol);
		if (ovf || !ts_add_u64(s->count, vol, &s->count)) {
			ts_batch_diag(s->d, b, i, 0, TS_SEV_ERROR, "K3", "the "
			    "non-zero blocks up to this one hold more than "
			    "18446744073709551615 (2^64 - 1) elements; 'nnz' "
			    "is %llu", (unsigned long long)s->nnz);
			return -1;
		}
		if (s->count > s->nnz) {
			ts_batch_diag(s->d, b, i, 0, TS_SEV_ERROR, "K3", "the "
			    "non-zero blocks up to this one hold %llu "
			    "elements, more than 'nnz' (%llu)",
			    (unsigned long long)s->count,
			    (unsigned long long)s->nnz);
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
	ts_diag(s->d, TS_SEV_ERROR, s->file, 0, 0, "K3", "the non-zero blocks "
	    "hold %llu elements; 'nnz' is %llu", (unsigned long long)s->count,
	    (unsigned long long)s->nnz);
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
