/*
 * whole.c - what only the whole tensor can tell an import: the entries
 * are kept (coordinates, values), sorted by an index, and asked whether
 * some repeat and which symmetries hold (the strongest, to state them in
 * the metadata).  Memory grows with the entries kept, never from a size
 * read in a file; validation answers its own such questions by external
 * sorts in bounded memory (ordered.c), since it knows them beforehand.
 */
#define _GNU_SOURCE		/* qsort_r */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "stage/infer_whole.h"
#include "util/xalloc.h"

void
ts_whole_init(struct ts_whole *w, int order)
{
	memset(w, 0, sizeof(*w));
	w->order = order;
}

void
ts_whole_add(struct ts_whole *w, const struct ts_batch *b, size_t i)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 65536;
		w->tup = ts_xreallocarray(w->tup, w->cap, (size_t)w->order *
		    sizeof(uint64_t));
		if (b->has_values) {
			if (b->is_int)
				w->iv = ts_xreallocarray(w->iv, w->cap,
				    sizeof(int64_t));
			else
				w->fv = ts_xreallocarray(w->fv, w->cap,
				    sizeof(double));
		}
	}
	memcpy(w->tup + w->n * (size_t)w->order, b->coords + i *
	    (size_t)w->order, (size_t)w->order * sizeof(uint64_t));
	if (w->iv != NULL)
		w->iv[w->n] = b->ival[i];
	else if (w->fv != NULL)
		w->fv[w->n] = b->fval[i];
	w->n++;
}

void
ts_whole_free(struct ts_whole *w)
{
	free(w->tup);
	free(w->fv);
	free(w->iv);
	memset(w, 0, sizeof(*w));
}

/* ---- order ---- */

struct sortctx {
	const struct ts_whole	*w;
};

static int
cmp_idx(const void *pa, const void *pb, void *arg)
{
	const struct ts_whole *w = ((const struct sortctx *)arg)->w;
	const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const uint64_t *x = w->tup + a * (size_t)w->order;
	const uint64_t *y = w->tup + b * (size_t)w->order;
	int k;

	for (k = 0; k < w->order; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int
cmp_tuple(const struct ts_whole *w, const uint64_t *x, const uint64_t *y)
{
	int k;

	for (k = 0; k < w->order; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return 0;
}

/* The entries' indices in tuple order (ties in input order). */
static size_t *
sorted_index(const struct ts_whole *w)
{
	struct sortctx c = { w };
	size_t *idx = ts_xreallocarray(NULL, w->n, sizeof(*idx)), i;

	for (i = 0; i < w->n; i++)
		idx[i] = i;
	qsort_r(idx, w->n, sizeof(*idx), cmp_idx, &c);
	return idx;
}

/* Index of the first entry equal to t in the sorted index, or -1. */
static long
find(const struct ts_whole *w, const size_t *idx, const uint64_t *t)
{
	size_t lo = 0, hi = w->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_tuple(w, w->tup + idx[mid] * (size_t)w->order, t) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < w->n && cmp_tuple(w, w->tup + idx[lo] * (size_t)w->order,
	    t) == 0)
		return (long)lo;
	return -1;
}

/* ---- symmetry ---- */

static bool
sameval(const struct ts_whole *w, size_t a, size_t b)
{
	if (w->iv != NULL)
		return w->iv[a] == w->iv[b];
	if (w->fv != NULL)
		return w->fv[a] == w->fv[b] || (isnan(w->fv[a]) &&
		    isnan(w->fv[b]));
	return true;
}

/* Is the tensor invariant under swapping modes p and q? */
static bool
invariant(const struct ts_whole *w, const size_t *idx, int p, int q,
    bool values)
{
	uint64_t t[TS_MAXORDER];
	size_t i;

	for (i = 0; i < w->n; i++) {
		const uint64_t *x = w->tup + idx[i] * (size_t)w->order;
		long j;

		if (x[p] == x[q])
			continue;
		memcpy(t, x, (size_t)w->order * sizeof(*t));
		t[p] = x[q];
		t[q] = x[p];
		j = find(w, idx, t);
		if (j < 0 || (values && !sameval(w, idx[i], idx[j])))
			return false;
	}
	return true;
}

/* The strongest symmetry the entries have (S7, S8). */
static enum ts_sym
strongest(const struct ts_whole *w, const size_t *idx, const uint64_t *dims,
    bool values)
{
	bool full = w->order >= 2;
	int p, q;

	for (p = 0; full && p + 1 < w->order; p++)
		full = dims[p] == dims[p + 1] &&
		    invariant(w, idx, p, p + 1, values);
	if (full)
		return TS_SYM_FULL;
	for (p = 0; p < w->order; p++)
		for (q = p + 1; q < w->order; q++)
			if (dims[p] == dims[q] &&
			    invariant(w, idx, p, q, values))
				return TS_SYM_PARTIAL;
	return TS_SYM_NO;
}

bool
ts_whole_skew(struct ts_whole *w)
{
	uint64_t t[2];
	size_t *idx, i;
	long j;
	bool skew = w->order == 2 && (w->fv != NULL || w->iv != NULL);

	if (!skew || w->n == 0)
		return false;
	idx = sorted_index(w);
	for (i = 0; i < w->n && skew; i++) {
		const uint64_t *x = w->tup + idx[i] * 2;

		t[0] = x[1];
		t[1] = x[0];
		if ((j = find(w, idx, t)) < 0)
			skew = false;
		else if (w->iv != NULL)
			/* -INT64_MIN is not an int64: never a mirror. */
			skew = w->iv[idx[i]] != INT64_MIN &&
			    w->iv[idx[j]] == -w->iv[idx[i]];
		else
			skew = w->fv[idx[j]] == -w->fv[idx[i]];
	}
	free(idx);
	return skew;
}

void
ts_whole_infer(struct ts_whole *w, const uint64_t *dims, bool *dups,
    enum ts_sym *psym, enum ts_sym *nsym)
{
	size_t *idx, i;

	*dups = false;
	*psym = *nsym = TS_SYM_NO;
	if (w->n == 0)
		return;
	idx = sorted_index(w);
	for (i = 1; i < w->n && !*dups; i++)
		*dups = cmp_tuple(w, w->tup + idx[i - 1] * (size_t)w->order,
		    w->tup + idx[i] * (size_t)w->order) == 0;
	*psym = strongest(w, idx, dims, false);
	*nsym = (w->fv != NULL || w->iv != NULL) && *psym != TS_SYM_NO &&
	    !*dups ? strongest(w, idx, dims, true) : TS_SYM_NO;
	free(idx);
}
