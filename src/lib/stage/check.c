/*
 * check.c - the validation stages: headers against metadata (X1-X8),
 * then every entry (S1-S9, E2, K2, K3), streaming.  The checks that
 * need the whole tensor (duplicates in unsorted input, symmetry, dense
 * completeness) keep the coordinates in memory, growing as entries
 * arrive, never from a size read in a file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tensorsuite.h"

#define BATCH	8192

/* One data file being read. */
struct stream {
	struct ts_source	 src;
	struct ts_reader	*rd;
	struct ts_batch		 b;
	size_t			 i;	/* next entry of b to use */
	bool			 open, done;
};

struct checker {
	struct ts_meta		*m;
	struct ts_diags		*d;
	int			 order;
	bool			 block;
	uint64_t		 lim[TS_MAXORDER];
	const struct ts_header	*hdr;
	/* streaming state */
	bool			 have_prev;
	uint64_t		 prev[TS_MAXORDER];
	bool			 check_sort, check_zeros, check_domain;
	uint64_t		 volume;	/* K3 */
	bool			 vol_ovf;
	/* whole-tensor state */
	bool			 collect;
	uint64_t		*tup;
	double			*fv;
	int64_t			*iv;
	uint64_t		*loc;
	size_t			 n, cap;
	bool			 bad_bounds;
	const char		*file;	/* the file the entries come from */
	bool			 binary;
	size_t			 isz;
	uint64_t		 hdrlines;
};

static void
locate(struct checker *c, struct stream *s, size_t i, int field,
    uint64_t *line, uint64_t *col, int64_t *off)
{
	*line = *col = 0;
	*off = -1;
	if (c->binary)
		*off = (int64_t)(s->b.loc[i] + (uint64_t)field * c->isz);
	else {
		*line = s->b.loc[i];
		*col = ts_reader_col(s->rd, &s->b, i, field);
	}
}

static void
ediag(struct checker *c, struct stream *s, size_t i, int field,
    enum ts_sev sev, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void
ediag(struct checker *c, struct stream *s, size_t i, int field,
    enum ts_sev sev, const char *rule, const char *fmt, ...)
{
	uint64_t line, col;
	int64_t off;
	va_list ap;

	if (!ts_diag_wanted(c->d, c->file, rule)) {
		/* Still counted; no need to locate it. */
		ts_diag(c->d, sev, c->file, 0, 0, rule, "-");
		return;
	}
	locate(c, s, i, field, &line, &col, &off);
	va_start(ap, fmt);
	ts_vdiag(c->d, sev, c->file, line, col, off, rule, fmt, ap);
	va_end(ap);
}

/* A coordinate tuple as text "(3, 1, 4)", 1-based or 0-based as stored. */
static char *
tuplestr(struct checker *c, const uint64_t *t, char *buf, size_t n)
{
	size_t k = 0;
	int i;

	buf[k++] = '(';
	for (i = 0; i < c->order && k + 24 < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? ", " : "",
		    (unsigned long long)(t[i] + (uint64_t)c->m->index_base));
	if (i < c->order)
		k += (size_t)snprintf(buf + k, n - k, ", ...");
	snprintf(buf + k, n - k, ")");
	return buf;
}

/* Compare tuples in sort_order priority. */
static int
cmp_sorted(const struct ts_meta *m, const uint64_t *a, const uint64_t *b)
{
	int i;

	for (i = 0; i < m->nsort; i++) {
		int k = m->sort_order[i];

		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	}
	return 0;
}

static void
collect(struct checker *c, struct ts_batch *b, size_t i)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 65536;
		c->tup = ts_xreallocarray(c->tup, c->cap, (size_t)c->order *
		    sizeof(uint64_t));
		c->loc = ts_xreallocarray(c->loc, c->cap, sizeof(uint64_t));
		if (b->has_values) {
			if (b->is_int)
				c->iv = ts_xreallocarray(c->iv, c->cap,
				    sizeof(int64_t));
			else
				c->fv = ts_xreallocarray(c->fv, c->cap,
				    sizeof(double));
		}
	}
	memcpy(c->tup + c->n * (size_t)c->order, b->coords + i *
	    (size_t)c->order, (size_t)c->order * sizeof(uint64_t));
	c->loc[c->n] = b->loc[i];
	if (b->has_values) {
		if (b->is_int)
			c->iv[c->n] = b->ival[i];
		else
			c->fv[c->n] = b->fval[i];
	}
	c->n++;
}

/* The per-entry checks of one batch. */
static void
check_batch(struct checker *c, struct stream *s)
{
	struct ts_batch *b = &s->b;
	const struct ts_meta *m = c->m;
	const int order = c->order;
	char tb[256], tb2[256];
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *t = b->coords + i * (size_t)order;
		bool inb = true;

		for (k = 0; k < order; k++)
			if (t[k] >= c->lim[k]) {
				uint64_t raw = t[k] + (uint64_t)m->index_base;

				inb = false;
				if (raw < (uint64_t)m->index_base)
					ediag(c, s, i, k, TS_ERROR, "S1",
					    "coordinate %llu of mode %d is "
					    "below the index base %d",
					    (unsigned long long)raw, k + 1,
					    m->index_base);
				else if (c->block)
					ediag(c, s, i, k, TS_ERROR, "S1",
					    "block coordinate %llu is outside "
					    "the %llu sections of mode %d",
					    (unsigned long long)raw,
					    (unsigned long long)c->lim[k],
					    k + 1);
				else if (m->index_base == 1)
					ediag(c, s, i, k, TS_ERROR, "S1",
					    "coordinate %llu exceeds dimension "
					    "%llu of mode %d",
					    (unsigned long long)raw,
					    (unsigned long long)c->lim[k],
					    k + 1);
				else
					ediag(c, s, i, k, TS_ERROR, "S1",
					    "coordinate %llu exceeds %llu, the "
					    "largest 0-based index of mode %d "
					    "(dimension %llu)",
					    (unsigned long long)raw,
					    (unsigned long long)(c->lim[k] - 1),
					    k + 1,
					    (unsigned long long)c->lim[k]);
			}
		if (!inb)
			c->bad_bounds = true;
		if (c->block && inb) {
			uint64_t v = 1;

			for (k = 0; k < order; k++)
				c->vol_ovf |= !ts_mul_u64(v,
				    c->hdr->extents[k][t[k]], &v);
			c->vol_ovf |= !ts_add_u64(c->volume, v, &c->volume);
		}
		if (c->check_sort) {
			if (c->have_prev) {
				int r = cmp_sorted(m, c->prev, t);

				if (r > 0)
					ediag(c, s, i, 0, TS_ERROR, "S2",
					    "entry %s is out of order: it "
					    "follows %s",
					    tuplestr(c, t, tb, sizeof(tb)),
					    tuplestr(c, c->prev, tb2,
					    sizeof(tb2)));
				else if (r == 0 && !m->dups_allowed)
					ediag(c, s, i, 0, TS_ERROR, "S3",
					    "entry %s repeats the one before "
					    "it", tuplestr(c, t, tb,
					    sizeof(tb)));
			}
			memcpy(c->prev, t, (size_t)order * sizeof(*t));
			c->have_prev = true;
		}
		if (b->has_values) {
			bool zero, bad = false;

			if (b->is_int) {
				int64_t v = b->ival[i];

				zero = v == 0;
				if (m->value_domain == TS_DOM_NONNEGATIVE)
					bad = v < 0;
				else if (m->value_domain == TS_DOM_BINARY)
					bad = v != 0 && v != 1;
				if (bad)
					ediag(c, s, i, order, TS_ERROR, "S5",
					    "value %lld is not %s",
					    (long long)v, m->value_domain ==
					    TS_DOM_BINARY ? "0 or 1" :
					    "nonnegative");
			} else {
				double v = b->fval[i];
				char nb[TS_NUMBUF];

				zero = v == 0;
				if (isnan(v) || isinf(v))
					ediag(c, s, i, order, TS_WARNING, "E2",
					    "value %s is not finite (the "
					    "reference writer refuses it)",
					    isnan(v) ? "nan" : v > 0 ? "inf" :
					    "-inf");
				if (m->value_domain == TS_DOM_NONNEGATIVE)
					bad = !(v >= 0);
				else if (m->value_domain == TS_DOM_BINARY)
					bad = v != 0 && v != 1;
				if (bad) {
					ts_fmt_double(nb, v);
					ediag(c, s, i, order, TS_ERROR, "S5",
					    "value %s is not %s", nb,
					    m->value_domain == TS_DOM_BINARY ?
					    "0 or 1" : "nonnegative");
				}
			}
			if (zero && c->check_zeros)
				ediag(c, s, i, order, TS_ERROR, "S4",
				    "explicit zero at %s; 'explicit_zeros' is "
				    "'disallowed'", tuplestr(c, t, tb,
				    sizeof(tb)));
		}
		if (c->collect && inb)
			collect(c, b, i);
	}
}

/* ---- whole-tensor checks on the collected entries ---- */

static const struct checker *sortctx;

static int
cmp_idx(const void *pa, const void *pb)
{
	const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const uint64_t *x = sortctx->tup + a * (size_t)sortctx->order;
	const uint64_t *y = sortctx->tup + b * (size_t)sortctx->order;
	int k;

	for (k = 0; k < sortctx->order; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int
cmp_tuple(const struct checker *c, const uint64_t *x, const uint64_t *y)
{
	int k;

	for (k = 0; k < c->order; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return 0;
}

/* Index of the first entry equal to t in the sorted index, or -1. */
static long
find(const struct checker *c, const size_t *idx, size_t n, const uint64_t *t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_tuple(c, c->tup + idx[mid] * (size_t)c->order, t) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && cmp_tuple(c, c->tup + idx[lo] * (size_t)c->order,
	    t) == 0)
		return (long)lo;
	return -1;
}

static void
gdiag(struct checker *c, size_t e, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
gdiag(struct checker *c, size_t e, const char *rule, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (c->binary)
		ts_vdiag(c->d, TS_ERROR, c->file, 0, 0, (int64_t)c->loc[e],
		    rule, fmt, ap);
	else
		ts_vdiag(c->d, TS_ERROR, c->file, c->loc[e], 1, -1, rule, fmt,
		    ap);
	va_end(ap);
}

static bool
sameval(const struct checker *c, size_t a, size_t b)
{
	if (c->iv != NULL)
		return c->iv[a] == c->iv[b];
	if (c->fv != NULL)
		return c->fv[a] == c->fv[b] || (isnan(c->fv[a]) &&
		    isnan(c->fv[b]));
	return true;
}

/*
 * Is the tensor invariant under swapping modes p and q?  With report,
 * name the entries whose mirror is missing (or differs, for values).
 */
static bool
invariant(struct checker *c, const size_t *idx, int p, int q, bool values,
    bool report, const char *rule)
{
	uint64_t t[TS_MAXORDER];
	char tb[256], tb2[256];
	bool ok = true;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const uint64_t *x = c->tup + idx[i] * (size_t)c->order;
		long j;

		if (x[p] == x[q])
			continue;
		memcpy(t, x, (size_t)c->order * sizeof(*t));
		t[p] = x[q];
		t[q] = x[p];
		j = find(c, idx, c->n, t);
		if (j >= 0 && (!values || sameval(c, idx[i], idx[j])))
			continue;
		ok = false;
		if (!report)
			return false;
		if (j < 0)
			gdiag(c, idx[i], rule, "entry %s has no mirror %s "
			    "(modes %d and %d swapped)",
			    tuplestr(c, x, tb, sizeof(tb)),
			    tuplestr(c, t, tb2, sizeof(tb2)), p + 1, q + 1);
		else
			gdiag(c, idx[i], rule, "entry %s and its mirror %s "
			    "hold different values",
			    tuplestr(c, x, tb, sizeof(tb)),
			    tuplestr(c, t, tb2, sizeof(tb2)));
	}
	return ok;
}

static void
check_symmetry(struct checker *c, const size_t *idx, enum ts_sym claim,
    bool values, const char *rule)
{
	const struct ts_meta *m = c->m;
	bool full = true;
	int p, q;

	if (claim == TS_SYM_NO)
		return;
	for (p = 0; p + 1 < c->order; p++)
		if (m->dims[p] != m->dims[p + 1])
			full = false;
	/* Adjacent transpositions generate every permutation. */
	for (p = 0; full && p + 1 < c->order; p++)
		full = invariant(c, idx, p, p + 1, values,
		    claim == TS_SYM_FULL, rule);
	if (claim == TS_SYM_FULL || c->order < 2)
		return;
	if (full) {
		ts_diag(c->d, TS_ERROR, c->file, 0, 0, rule, "the %s is fully "
		    "symmetric; '%s' says 'partial', which means not full",
		    values ? "tensor" : "pattern", values ?
		    "numerical_symmetry" : "pattern_symmetry");
		return;
	}
	for (p = 0; p < c->order; p++)
		for (q = p + 1; q < c->order; q++)
			if (m->dims[p] == m->dims[q] &&
			    invariant(c, idx, p, q, values, false, rule))
				return;
	ts_diag(c->d, TS_ERROR, c->file, 0, 0, rule, "no pair of equal-sized "
	    "modes can be swapped without changing the %s; '%s' says "
	    "'partial'", values ? "tensor" : "pattern", values ?
	    "numerical_symmetry" : "pattern_symmetry");
}

/* S9 for 'no' and 'semi': every dense combination is stored. */
static void
check_dense(struct checker *c, const size_t *idx, bool dups)
{
	const struct ts_meta *m = c->m;
	bool dense[TS_MAXORDER] = { false };
	uint64_t want = 1, prod = 1, run;
	size_t i, start;
	char tb[256];
	int k;

	if (dups) {
		ts_diag(c->d, TS_ERROR, c->file, 0, 0, "S9", "a tensor with "
		    "repeated entries cannot store %s once",
		    m->sparsity == TS_SP_NO ? "every position" :
		    "every combination of its dense modes");
		return;
	}
	for (k = 0; k < m->ndense; k++)
		dense[m->dense_modes[k]] = true;
	for (k = 0; k < c->order; k++) {
		if (dense[k] && !ts_mul_u64(want, m->dims[k], &want))
			want = UINT64_MAX;
		if (!ts_mul_u64(prod, m->dims[k], &prod))
			prod = UINT64_MAX;
	}
	if (m->sparsity == TS_SP_NO) {
		if ((uint64_t)c->n != prod)
			ts_diag(c->d, TS_ERROR, c->file, 0, 0, "S9", "%zu "
			    "entries are stored; a dense tensor stores all "
			    "%llu positions", c->n, (unsigned long long)prod);
		return;
	}
	/* Group by the sparse modes; sortctx order puts mode 1 first, so
	 * sort again with the sparse modes leading. */
	start = 0;
	for (i = 1; i <= c->n; i++) {
		const uint64_t *a, *b;
		bool same = i < c->n;

		a = c->tup + idx[start] * (size_t)c->order;
		b = i < c->n ? c->tup + idx[i] * (size_t)c->order : NULL;
		for (k = 0; same && k < c->order; k++)
			if (!dense[k] && a[k] != b[k])
				same = false;
		if (same)
			continue;
		run = (uint64_t)(i - start);
		if (run != want) {
			gdiag(c, idx[start], "S9", "the sparse part of entry "
			    "%s has %llu of its %llu dense entries",
			    tuplestr(c, a, tb, sizeof(tb)),
			    (unsigned long long)run, (unsigned long long)want);
		}
		start = i;
	}
}

static const int *semi_dense;	/* comparator context for semi */

static int
cmp_semi(const void *pa, const void *pb)
{
	const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const uint64_t *x = sortctx->tup + a * (size_t)sortctx->order;
	const uint64_t *y = sortctx->tup + b * (size_t)sortctx->order;
	int k, pass;

	/* Sparse modes first, then dense ones. */
	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < sortctx->order; k++)
			if ((semi_dense[k] != 0) == (pass == 1) && x[k] != y[k])
				return x[k] < y[k] ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void
check_whole(struct checker *c)
{
	const struct ts_meta *m = c->m;
	bool dups = false;
	size_t *idx, i;
	char tb[256];

	if (c->n == 0)
		return;
	idx = ts_xreallocarray(NULL, c->n, sizeof(*idx));
	for (i = 0; i < c->n; i++)
		idx[i] = i;
	sortctx = c;
	qsort(idx, c->n, sizeof(*idx), cmp_idx);
	for (i = 1; i < c->n; i++)
		if (cmp_tuple(c, c->tup + idx[i - 1] * (size_t)c->order,
		    c->tup + idx[i] * (size_t)c->order) == 0) {
			dups = true;
			if ((m->have & TS_HAVE_DUPS) && !m->dups_allowed &&
			    !c->check_sort)
				gdiag(c, idx[i], "S3", "entry %s repeats an "
				    "earlier one", tuplestr(c, c->tup +
				    idx[i] * (size_t)c->order, tb,
				    sizeof(tb)));
		}
	if (m->have & TS_HAVE_PSYM)
		check_symmetry(c, idx, m->psym, false, "S7");
	if ((m->have & TS_HAVE_NSYM) && (c->fv != NULL || c->iv != NULL))
		check_symmetry(c, idx, m->nsym, true, "S8");
	if ((m->have & TS_HAVE_SPARSITY) && (m->sparsity == TS_SP_NO ||
	    m->sparsity == TS_SP_SEMI) && (m->have & TS_HAVE_DENSE) &&
	    !c->bad_bounds) {
		int dense[TS_MAXORDER] = { 0 };

		for (i = 0; i < (size_t)m->ndense; i++)
			dense[m->dense_modes[i]] = 1;
		semi_dense = dense;
		if (m->sparsity == TS_SP_SEMI)
			qsort(idx, c->n, sizeof(*idx), cmp_semi);
		check_dense(c, idx, dups);
	}
	sortctx = NULL;
	free(idx);
}

/* ---- headers and files ---- */

static int
open_stream(struct checker *c, struct stream *s, const char *path,
    enum ts_kind kind)
{
	const struct ts_meta *m = c->m;
	struct ts_layout lay;

	memset(s, 0, sizeof(*s));
	if (ts_source_open(&s->src, path) != 0) {
		ts_diag_io(c->d, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	memset(&lay, 0, sizeof(lay));
	lay.kind = kind;
	lay.block = c->block;
	lay.values = m->values_provided;
	lay.vtype = m->value_type;
	lay.itype = m->index_type;
	lay.endian = m->endianness;
	lay.base = m->index_base;
	s->rd = ts_reader_open(&s->src, &lay, c->d);
	if (s->rd == NULL) {
		ts_source_close(&s->src);
		return -1;
	}
	s->open = true;
	ts_batch_init(&s->b, ts_reader_header(s->rd)->order, BATCH);
	return 0;
}

static void
close_stream(struct stream *s)
{
	if (!s->open)
		return;
	ts_batch_free(&s->b);
	ts_reader_close(s->rd);
	ts_source_close(&s->src);
	s->open = false;
}

/* X2-X5 and X8: a header against the metadata. */
static bool
check_header(struct checker *c, struct stream *s, const char *path)
{
	const struct ts_header *h = ts_reader_header(s->rd);
	const struct ts_meta *m = c->m;
	bool ok = true;
	int i;

	if (m->version && strcmp(h->version, m->version) != 0)
		ts_diag(c->d, TS_ERROR, path, 2, 12, "X2", "'%% version' is "
		    "'%s'; the metadata says '%s'", h->version, m->version);
	if (m->name && strcmp(h->name, m->name) != 0)
		ts_diag(c->d, TS_ERROR, path, 3, 9, "X3", "'%% name' is '%s'; "
		    "the metadata says '%s'", h->name, m->name);
	if (h->order != m->order) {
		ts_diag(c->d, TS_ERROR, path, 0, 0, "X4", "the size line "
		    "gives order %d; the metadata says %d", h->order,
		    m->order);
		return false;
	}
	for (i = 0; i < h->order; i++)
		if (h->dims[i] != m->dims[i]) {
			ts_diag(c->d, TS_ERROR, path, 0, 0, "X4", "the size "
			    "line gives dimension %llu for mode %d; the "
			    "metadata says %llu",
			    (unsigned long long)h->dims[i], i + 1,
			    (unsigned long long)m->dims[i]);
			ok = false;
		}
	if (h->nnz != m->nnz)
		ts_diag(c->d, TS_ERROR, path, 0, 0, "X4", "the size line gives "
		    "nnz %llu; the metadata says %llu",
		    (unsigned long long)h->nnz, (unsigned long long)m->nnz);
	if (c->block) {
		for (i = 0; i < h->order; i++)
			if (h->parts[i] != m->parts[i]) {
				ts_diag(c->d, TS_ERROR, path, 0, 0, "X5",
				    "the block size line gives %llu sections "
				    "for mode %d; 'block_partitions' says %llu",
				    (unsigned long long)h->parts[i], i + 1,
				    (unsigned long long)m->parts[i]);
				ok = false;
			}
		if (h->nnz_block != m->nnz_block)
			ts_diag(c->d, TS_ERROR, path, 0, 0, "X5", "the block "
			    "size line gives nnz_block %llu; the metadata "
			    "says %llu", (unsigned long long)h->nnz_block,
			    (unsigned long long)m->nnz_block);
	}
	if (h->kind == TS_BINARY && s->src.is_regular) {
		const struct ts_layout *l = ts_reader_layout(s->rd);
		uint64_t recs = c->block ? h->nnz_block : h->nnz, want, rs;

		rs = (uint64_t)h->order * ts_itype_size(l->itype) +
		    (l->values ? ts_vtype_size(l->vtype) : 0);
		if (!ts_mul_u64(recs, rs, &want) ||
		    !ts_add_u64(want, h->bytes, &want) ||
		    want != s->src.size)
			ts_diag_off(c->d, TS_ERROR, path, (int64_t)h->bytes,
			    "X8", "the file has %llu bytes; a header of %llu "
			    "and %llu records of %llu make %s%llu",
			    (unsigned long long)s->src.size,
			    (unsigned long long)h->bytes,
			    (unsigned long long)recs, (unsigned long long)rs,
			    want < h->bytes ? "more than " : "",
			    (unsigned long long)want);
		if (!l->values && !c->block)
			ts_diag(c->d, TS_NOTE, path, 0, 0, "E3", "a binary "
			    "file without values is read by this toolkit "
			    "only; the reference reader expects a value "
			    "field");
	}
	return ok;
}

/* The entries every stage needs: in bounds, and the metadata usable. */
static bool
meta_usable(const struct ts_meta *m)
{
	const unsigned need = TS_HAVE_VTYPE | TS_HAVE_ITYPE | TS_HAVE_BASE |
	    TS_HAVE_VALUES | TS_HAVE_ORDER | TS_HAVE_DIMS | TS_HAVE_NNZ |
	    TS_HAVE_SPARSITY | TS_HAVE_ENDIAN;

	return (m->have & need) == need && (m->sparsity != TS_SP_BLOCK ||
	    (m->have & TS_HAVE_BLOCKS));
}

/* Advance s by one entry (refilling); false at the end. */
static bool
stream_next(struct stream *s)
{
	if (s->done)
		return false;
	if (++s->i < s->b.n)
		return true;
	s->i = 0;
	if (ts_reader_next(s->rd, &s->b) <= 0) {
		s->done = true;
		return false;
	}
	return true;
}

static bool
sameentry(const struct stream *a, size_t i, const struct stream *b,
    size_t j, int order)
{
	if (memcmp(a->b.coords + i * (size_t)order, b->b.coords + j *
	    (size_t)order, (size_t)order * sizeof(uint64_t)) != 0)
		return false;
	if (!a->b.has_values)
		return true;
	if (a->b.is_int)
		return a->b.ival[i] == b->b.ival[j];
	if (isnan(a->b.fval[i]) && isnan(b->b.fval[j]))
		return true;
	return memcmp(&a->b.fval[i], &b->b.fval[j], sizeof(double)) == 0;
}

/*
 * X6: walk the binary stream beside the batch just read from the text
 * one, entry by entry.
 */
static void
compare_streams(struct checker *c, struct stream *t, struct stream *bin,
    uint64_t *mismatches)
{
	char tb[256];
	size_t i;

	for (i = 0; i < t->b.n; i++) {
		if (bin->done || !stream_next(bin)) {
			if (*mismatches == 0)
				ts_diag(c->d, TS_ERROR, c->file, t->b.loc[i],
				    1, "X6", "the binary file ends before "
				    "this entry");
			(*mismatches)++;
			return;
		}
		if (!sameentry(t, i, bin, bin->i, c->order)) {
			(*mismatches)++;
			ts_diag(c->d, TS_ERROR, c->file, t->b.loc[i], 1, "X6",
			    "entry %s differs from record %llu of the binary "
			    "file (offset %llu)", tuplestr(c, t->b.coords +
			    i * (size_t)c->order, tb, sizeof(tb)),
			    (unsigned long long)(bin->b.first + bin->i + 1),
			    (unsigned long long)bin->b.loc[bin->i]);
		}
	}
}

void
ts_check_bundle(struct ts_bundle *bd, const struct ts_check_opts *o,
    struct ts_diags *d)
{
	struct ts_meta *m = &bd->meta;
	struct checker c;
	struct stream st[2];	/* text, binary */
	const char *paths[2] = { bd->text_path, bd->binary_path };
	struct stream *pri;
	uint64_t mism = 0, expect;
	bool ok[2] = { false, false };
	int k;

	if (!bd->meta_ok || !meta_usable(m))
		return;
	memset(&c, 0, sizeof(c));
	memset(st, 0, sizeof(st));
	c.m = m;
	c.d = d;
	c.order = m->order;
	c.block = m->sparsity == TS_SP_BLOCK;
	for (k = 0; k < c.order; k++)
		c.lim[k] = c.block ? m->parts[k] : m->dims[k];
	for (k = 0; k < 2; k++)
		if (paths[k] != NULL &&
		    open_stream(&c, &st[k], paths[k], (enum ts_kind)k) == 0)
			ok[k] = check_header(&c, &st[k], paths[k]);
	if (o->quick || (!ok[0] && !ok[1]))
		goto out;

	pri = ok[0] ? &st[0] : &st[1];
	c.hdr = ts_reader_header(pri->rd);
	c.binary = pri == &st[1];
	c.file = c.binary ? paths[1] : paths[0];
	c.isz = ts_itype_size(m->index_type);
	c.check_sort = (m->have & TS_HAVE_SORT) && m->sorted;
	c.check_zeros = (m->have & TS_HAVE_ZEROS) && !m->zeros_allowed;
	/* Only these need the whole tensor in memory. */
	c.collect = ((m->have & TS_HAVE_DUPS) && !m->dups_allowed &&
	    !c.check_sort) || ((m->have & TS_HAVE_PSYM) &&
	    m->psym != TS_SYM_NO) || ((m->have & TS_HAVE_NSYM) &&
	    m->nsym != TS_SYM_NO) || m->sparsity == TS_SP_NO ||
	    m->sparsity == TS_SP_SEMI;
	while (ts_progress(pri->src.nread, pri->src.size, true,
	    "checking %s", c.file),
	    ts_reader_next(pri->rd, &pri->b) > 0) {
		check_batch(&c, pri);
		if (pri == &st[0] && ok[1])
			compare_streams(&c, &st[0], &st[1], &mism);
	}
	if (pri == &st[0] && ok[1] && stream_next(&st[1]) && mism == 0)
		ts_diag(d, TS_ERROR, paths[1], 0, 0, "X6", "the binary file "
		    "holds more entries than the text file");
	if (!c.binary) {
		expect = c.block ? m->nnz_block : m->nnz;
		if (ts_reader_rows(pri->rd) != expect)
			ts_diag(d, TS_ERROR, c.file, 0, 0, "X7", "the file "
			    "holds %llu %s; the metadata says %llu",
			    (unsigned long long)ts_reader_rows(pri->rd),
			    c.block ? "blocks" : "entries",
			    (unsigned long long)expect);
	}
	if (c.block && !c.bad_bounds && (c.vol_ovf || c.volume != m->nnz))
		ts_diag(d, TS_ERROR, c.file, 0, 0, "K3", "the non-zero blocks "
		    "hold %s%llu elements; 'nnz' is %llu", c.vol_ovf ?
		    "more than " : "", (unsigned long long)c.volume,
		    (unsigned long long)m->nnz);
	if (c.collect) {
		ts_progress(0, 0, false, "checking %s as a whole", c.file);
		check_whole(&c);
	}
out:
	close_stream(&st[0]);
	close_stream(&st[1]);
	free(c.tup);
	free(c.fv);
	free(c.iv);
	free(c.loc);
}

/* The strongest symmetry the collected entries have (S7, S8). */
static enum ts_sym
strongest(struct checker *c, const size_t *idx, bool values)
{
	const struct ts_meta *m = c->m;
	bool full = c->order >= 2;
	int p, q;

	for (p = 0; full && p + 1 < c->order; p++)
		full = m->dims[p] == m->dims[p + 1] &&
		    invariant(c, idx, p, p + 1, values, false, "");
	if (full)
		return TS_SYM_FULL;
	for (p = 0; p < c->order; p++)
		for (q = p + 1; q < c->order; q++)
			if (m->dims[p] == m->dims[q] &&
			    invariant(c, idx, p, q, values, false, ""))
				return TS_SYM_PARTIAL;
	return TS_SYM_NO;
}

void
ts_infer_tuples(const struct ts_tuples *t, const uint64_t *dims,
    struct ts_inferred *out)
{
	struct ts_meta m;
	struct checker c;
	size_t *idx, i;

	memset(out, 0, sizeof(*out));
	if (t->n == 0)
		return;
	memset(&c, 0, sizeof(c));
	memset(&m, 0, sizeof(m));
	m.order = t->order;
	memcpy(m.dims, dims, (size_t)t->order * sizeof(*dims));
	c.m = &m;
	c.order = t->order;
	c.tup = t->tup;
	c.fv = t->fv;
	c.iv = t->iv;
	c.n = t->n;
	idx = ts_xreallocarray(NULL, c.n, sizeof(*idx));
	for (i = 0; i < c.n; i++)
		idx[i] = i;
	sortctx = &c;
	qsort(idx, c.n, sizeof(*idx), cmp_idx);
	sortctx = NULL;
	for (i = 1; i < c.n && !out->dups; i++)
		out->dups = cmp_tuple(&c, c.tup + idx[i - 1] * (size_t)c.order,
		    c.tup + idx[i] * (size_t)c.order) == 0;
	out->psym = strongest(&c, idx, false);
	out->nsym = (t->fv != NULL || t->iv != NULL) && out->psym !=
	    TS_SYM_NO && !out->dups ? strongest(&c, idx, true) : TS_SYM_NO;
	free(idx);
}
