/*
 * whole.c - what only the whole tensor can tell: the entries are kept
 * (coordinates, values, where they came from), sorted by an index, and
 * checked for repeats (S3), symmetry (S7, S8) and dense completeness
 * (S9); the inference of imports asks the same questions.  Memory grows
 * with the entries kept, never from a size read in a file.
 */
#define _GNU_SOURCE		/* qsort_r */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "stage/stage.h"
#include "stage/whole.h"
#include "util/xalloc.h"

void
ts_whole_init(struct ts_whole *w, int order, bool keep_loc)
{
	memset(w, 0, sizeof(*w));
	w->order = order;
	w->keep_loc = keep_loc;
}

void
ts_whole_add(struct ts_whole *w, const struct ts_batch *b, size_t i)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 65536;
		w->tup = ts_xreallocarray(w->tup, w->cap, (size_t)w->order *
		    sizeof(uint64_t));
		if (w->keep_loc)
			w->loc = ts_xreallocarray(w->loc, w->cap,
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
	if (w->keep_loc)
		w->loc[w->n] = b->loc[i];
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
	free(w->loc);
	memset(w, 0, sizeof(*w));
}

/* ---- order ---- */

struct sortctx {
	const struct ts_whole	*w;
	const int		*dense;	/* semi: sparse modes first */
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
cmp_semi(const void *pa, const void *pb, void *arg)
{
	const struct sortctx *c = arg;
	const struct ts_whole *w = c->w;
	const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const uint64_t *x = w->tup + a * (size_t)w->order;
	const uint64_t *y = w->tup + b * (size_t)w->order;
	int k, pass;

	/* Sparse modes first, then dense ones. */
	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < w->order; k++)
			if ((c->dense[k] != 0) == (pass == 1) && x[k] != y[k])
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
	struct sortctx c = { w, NULL };
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

/* ---- messages ---- */

static char *
tuplestr(const struct ts_whole *w, const uint64_t *t, char *buf, size_t n)
{
	return ts_tuple_str(buf, n, t, w->order, w->base);
}

/* A problem with entry e, at the line (or offset) it came from. */
static void
gdiag(const struct ts_whole *w, struct ts_diags *d, size_t e,
    const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
gdiag(const struct ts_whole *w, struct ts_diags *d, size_t e,
    const char *rule, const char *fmt, ...)
{
	uint64_t loc = w->loc != NULL ? w->loc[e] : 0;
	va_list ap;

	va_start(ap, fmt);
	if (w->loc_offset)
		ts_vdiag(d, TS_ERROR, w->file, 0, 0, (int64_t)loc, rule, fmt,
		    ap);
	else
		ts_vdiag(d, TS_ERROR, w->file, loc, loc ? 1 : 0, -1, rule,
		    fmt, ap);
	va_end(ap);
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

/*
 * Is the tensor invariant under swapping modes p and q?  With d, name
 * the entries whose mirror is missing (or differs, for values).
 */
static bool
invariant(const struct ts_whole *w, const size_t *idx, int p, int q,
    bool values, struct ts_diags *d, const char *rule)
{
	uint64_t t[TS_MAXORDER];
	char tb[256], tb2[256];
	bool ok = true;
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
		if (j >= 0 && (!values || sameval(w, idx[i], idx[j])))
			continue;
		ok = false;
		if (d == NULL)
			return false;
		if (j < 0)
			gdiag(w, d, idx[i], rule, "entry %s has no mirror %s "
			    "(modes %d and %d swapped)",
			    tuplestr(w, x, tb, sizeof(tb)),
			    tuplestr(w, t, tb2, sizeof(tb2)), p + 1, q + 1);
		else
			gdiag(w, d, idx[i], rule, "entry %s and its mirror %s "
			    "hold different values",
			    tuplestr(w, x, tb, sizeof(tb)),
			    tuplestr(w, t, tb2, sizeof(tb2)));
	}
	return ok;
}

static void
check_symmetry(const struct ts_whole *w, const size_t *idx,
    const struct ts_meta *m, enum ts_sym claim, bool values,
    const char *rule, struct ts_diags *d)
{
	bool full = true;
	int p, q;

	if (claim == TS_SYM_NO)
		return;
	for (p = 0; p + 1 < w->order; p++)
		if (m->dims[p] != m->dims[p + 1])
			full = false;
	/* Adjacent transpositions generate every permutation. */
	for (p = 0; full && p + 1 < w->order; p++)
		full = invariant(w, idx, p, p + 1, values,
		    claim == TS_SYM_FULL ? d : NULL, rule);
	if (claim == TS_SYM_FULL || w->order < 2)
		return;
	if (full) {
		ts_diag(d, TS_ERROR, w->file, 0, 0, rule, "the %s is fully "
		    "symmetric; '%s' says 'partial', which means not full",
		    values ? "tensor" : "pattern", values ?
		    "numerical_symmetry" : "pattern_symmetry");
		return;
	}
	for (p = 0; p < w->order; p++)
		for (q = p + 1; q < w->order; q++)
			if (m->dims[p] == m->dims[q] &&
			    invariant(w, idx, p, q, values, NULL, rule))
				return;
	ts_diag(d, TS_ERROR, w->file, 0, 0, rule, "no pair of equal-sized "
	    "modes can be swapped without changing the %s; '%s' says "
	    "'partial'", values ? "tensor" : "pattern", values ?
	    "numerical_symmetry" : "pattern_symmetry");
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
		    invariant(w, idx, p, p + 1, values, NULL, "");
	if (full)
		return TS_SYM_FULL;
	for (p = 0; p < w->order; p++)
		for (q = p + 1; q < w->order; q++)
			if (dims[p] == dims[q] &&
			    invariant(w, idx, p, q, values, NULL, ""))
				return TS_SYM_PARTIAL;
	return TS_SYM_NO;
}

/* ---- completeness ---- */

/* S9 for 'no' and 'semi': every dense combination is stored. */
static void
check_dense(const struct ts_whole *w, const size_t *idx,
    const struct ts_meta *m, const int *dense, bool dups,
    struct ts_diags *d)
{
	uint64_t want = 1, prod = 1, run;
	size_t i, start;
	char tb[256];
	int k;

	if (dups) {
		ts_diag(d, TS_ERROR, w->file, 0, 0, "S9", "a tensor with "
		    "repeated entries cannot store %s once",
		    m->sparsity == TS_SP_NO ? "every position" :
		    "every combination of its dense modes");
		return;
	}
	for (k = 0; k < w->order; k++) {
		if (dense[k] && !ts_mul_u64(want, m->dims[k], &want))
			want = UINT64_MAX;
		if (!ts_mul_u64(prod, m->dims[k], &prod))
			prod = UINT64_MAX;
	}
	if (m->sparsity == TS_SP_NO) {
		if ((uint64_t)w->n != prod)
			ts_diag(d, TS_ERROR, w->file, 0, 0, "S9", "%zu "
			    "entries are stored; a dense tensor stores all "
			    "%llu positions", w->n, (unsigned long long)prod);
		return;
	}
	/* Grouped by the sparse modes (the index is sorted so). */
	start = 0;
	for (i = 1; i <= w->n; i++) {
		const uint64_t *a, *b;
		bool same = i < w->n;

		a = w->tup + idx[start] * (size_t)w->order;
		b = i < w->n ? w->tup + idx[i] * (size_t)w->order : NULL;
		for (k = 0; same && k < w->order; k++)
			if (!dense[k] && a[k] != b[k])
				same = false;
		if (same)
			continue;
		run = (uint64_t)(i - start);
		if (run != want)
			gdiag(w, d, idx[start], "S9", "the sparse part of "
			    "entry %s has %llu of its %llu dense entries",
			    tuplestr(w, a, tb, sizeof(tb)),
			    (unsigned long long)run, (unsigned long long)want);
		start = i;
	}
}

void
ts_whole_check(struct ts_whole *w, const struct ts_meta *m, bool s3,
    bool bad_bounds, struct ts_diags *d)
{
	bool dups = false;
	size_t *idx, i;
	char tb[256];

	if (w->n == 0)
		return;
	idx = sorted_index(w);
	for (i = 1; i < w->n; i++)
		if (cmp_tuple(w, w->tup + idx[i - 1] * (size_t)w->order,
		    w->tup + idx[i] * (size_t)w->order) == 0) {
			dups = true;
			if (s3)
				gdiag(w, d, idx[i], "S3", "entry %s repeats an "
				    "earlier one", tuplestr(w, w->tup +
				    idx[i] * (size_t)w->order, tb,
				    sizeof(tb)));
		}
	if (m->have & TS_HAVE_PSYM)
		check_symmetry(w, idx, m, m->psym, false, "S7", d);
	if ((m->have & TS_HAVE_NSYM) && (w->fv != NULL || w->iv != NULL))
		check_symmetry(w, idx, m, m->nsym, true, "S8", d);
	if ((m->have & TS_HAVE_SPARSITY) && (m->sparsity == TS_SP_NO ||
	    m->sparsity == TS_SP_SEMI) && (m->have & TS_HAVE_DENSE) &&
	    !bad_bounds) {
		int dense[TS_MAXORDER] = { 0 };
		struct sortctx c = { w, dense };

		for (i = 0; i < (size_t)m->ndense; i++)
			dense[m->dense_modes[i]] = 1;
		if (m->sparsity == TS_SP_SEMI)
			qsort_r(idx, w->n, sizeof(*idx), cmp_semi, &c);
		check_dense(w, idx, m, dense, dups, d);
	}
	free(idx);
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
