/*
 * ordered.c - the checks of validation that need the entries in some
 * order: repeats in unsorted input (S3), symmetry (S7, S8), dense and
 * semi-sparse completeness (S9).  Each question is one sort by the
 * external sorter (stage/sort/), fed as the entries stream by and read
 * back in groups, so that memory is bounded (-S) whatever the tensor's
 * size: past the bound, runs spill to the temporary directory (-T).
 *
 *  - Repeats: sort by the coordinates; equal neighbours repeat, and both
 *    places are named (the sort is stable: the first is the earlier).
 *  - Full symmetry: sort by the sorted coordinates, then the coordinates:
 *    the entries of one group are the permutations of one multiset, and
 *    each must have its mirror under every swap of adjacent modes (which
 *    generate all permutations), with the same value for S8.
 *  - A swap of modes p and q (partial symmetry): sort by min(x_p, x_q),
 *    max(x_p, x_q), the other coordinates: an entry off the p = q
 *    diagonal needs a partner in its group.
 *  - Semi-sparse completeness: sort by the sparse modes, then the dense
 *    ones: each group holds every combination of the dense modes once.
 *
 * Where an entry came from (a line, or a byte offset) travels in the
 * sorter's value word, or as a last coordinate when the value must
 * travel too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "validate/sorted_checks.h"
#include "stage/stage.h"
#include "util/path.h"
#include "util/xalloc.h"

#define BATCH		4096
#define GROUP_MAX	((size_t)1 << 20)	/* entries of one group */

enum question { Q_DUPS, Q_CANON, Q_PAIR, Q_SEMI };

struct osort {
	enum question	 q;
	int		 p, q2;		/* Q_PAIR: the modes swapped */
	int		 k;		/* coordinates of a record */
	int		 g;		/* of them, the group's key */
	bool		 vals;		/* the value travels (loc a coord) */
	struct ts_sorter *s;
	struct ts_batch	 in;		/* derived entries, being added */
	/* what the groups said */
	bool		 pattern_ok, values_ok;
};

struct ts_ordered {
	const struct ts_meta *m;
	struct ts_diags	*d;
	const char	*file;
	bool		 loc_offset;
	int		 order;
	bool		 report_dups;	/* S3 */
	bool		 is_int, has_values;
	struct osort	*v;
	int		 n;
	int		 dups_from;	/* the sort whose groups show repeats */
	uint64_t	 count;
	bool		 dups;
	uint64_t	 repeats;	/* entries equal to the one before */
	bool		 counted;	/* the sort of repeats was read */
	int		 dense[TS_MAXORDER];
	uint64_t	 want;		/* S9: entries per group */
	bool		 failed;
	const char	*tmpdir;
};

/* The temporary directory failed us (most likely). */
static void
sort_fail(struct ts_ordered *o)
{
	ts_diag_io(o->d, NULL, "sorting (temporary directory '%s'): %s",
	    ts_tmpdir(o->tmpdir), strerror(errno));
}

static void
add_sort(struct ts_ordered *o, enum question q, int p, int q2, bool vals)
{
	struct osort *s;
	int n = o->order, i;

	o->v = ts_xreallocarray(o->v, (size_t)o->n + 1, sizeof(*o->v));
	s = &o->v[o->n++];
	memset(s, 0, sizeof(*s));
	s->q = q;
	s->p = p;
	s->q2 = q2;
	s->vals = vals;
	switch (q) {
	case Q_DUPS:
		s->k = n;
		s->g = n;
		break;
	case Q_SEMI:
		s->k = n;
		for (s->g = 0, i = 0; i < n; i++)
			s->g += !o->dense[i];
		break;
	case Q_CANON:
		s->k = 2 * n;
		s->g = n;
		break;
	case Q_PAIR:
		s->k = n + 1;
		s->g = n;
		break;
	}
	if (vals)
		s->k++;		/* the place, after the key */
	s->pattern_ok = s->values_ok = true;
}

static bool
all_dims_equal(const struct ts_meta *m)
{
	int k;

	for (k = 1; k < m->order; k++)
		if (m->dims[k] != m->dims[0])
			return false;
	return true;
}

struct ts_ordered *
ts_ordered_new(const struct ts_meta *m, const struct ts_ordered_opts *op,
    struct ts_diags *d)
{
	struct ts_ordered *o = ts_xcalloc(1, sizeof(*o));
	const bool psym = (m->have & TS_HAVE_PSYM) && m->psym != TS_SYM_NO;
	const bool nsym = (m->have & TS_HAVE_NSYM) && m->nsym != TS_SYM_NO &&
	    m->values_provided && m->sparsity != TS_SPARSITY_BLOCK;
	const bool partial = (psym && m->psym == TS_SYM_PARTIAL) ||
	    (nsym && m->nsym == TS_SYM_PARTIAL);
	const bool semi = (m->have & TS_HAVE_SPARSITY) &&
	    (m->have & TS_HAVE_DENSE) && m->sparsity == TS_SPARSITY_SEMI;
	const bool dense = (m->have & TS_HAVE_SPARSITY) &&
	    (m->have & TS_HAVE_DENSE) && m->sparsity == TS_SPARSITY_NO;
	struct ts_sort_opts so;
	size_t mem;
	int i, p, q;

	o->m = m;
	o->d = d;
	o->tmpdir = op->tmpdir;
	o->file = op->file;
	o->loc_offset = op->loc_offset;
	o->order = m->order;
	o->report_dups = op->s3;
	o->dups_from = -1;
	o->has_values = m->values_provided && m->sparsity != TS_SPARSITY_BLOCK;
	o->is_int = ts_vtype_info(m->value_type)->is_int;
	/* Symmetry needs the coordinates twice in a record. */
	if ((psym || nsym) && 2 * m->order + 1 > TS_MAXORDER) {
		ts_diag(d, TS_SEV_NOTE, o->file, 0, 0, psym ? TS_RULE_S7 :
		    TS_RULE_S8, "order %d: symmetry is checked up to order %d",
		    m->order, (TS_MAXORDER - 1) / 2);
	} else if ((psym || nsym) && m->order >= 2 && (all_dims_equal(m) ||
	    !partial))
		add_sort(o, Q_CANON, 0, 0, nsym);
	if ((psym || nsym) && partial && m->order >= 2 &&
	    m->order + 2 <= TS_MAXORDER)
		for (p = 0; p < m->order; p++)
			for (q = p + 1; q < m->order; q++)
				if (m->dims[p] == m->dims[q])
					add_sort(o, Q_PAIR, p, q, nsym);
	if (semi) {
		uint64_t want = 1;

		for (i = 0; i < m->ndense; i++)
			o->dense[m->dense_modes[i]] = 1;
		for (i = 0; i < m->order; i++)
			if (o->dense[i] && !ts_mul_u64(want, m->dims[i], &want))
				want = UINT64_MAX;
		o->want = want;
		add_sort(o, Q_SEMI, 0, 0, false);
	}
	/* Repeats show in any sort that orders every coordinate. */
	for (i = 0; i < o->n; i++)
		if (o->v[i].q == Q_SEMI || o->v[i].q == Q_CANON)
			o->dups_from = i;
	if ((op->s3 || dense) && o->dups_from < 0) {
		add_sort(o, Q_DUPS, 0, 0, false);
		o->dups_from = o->n - 1;
	}
	/* The memory is shared by the sorts. */
	mem = op->mem_limit != 0 ? op->mem_limit : (size_t)256 << 20;
	for (i = 0; i < o->n; i++) {
		struct osort *s = &o->v[i];

		memset(&so, 0, sizeof(so));
		so.order = s->k;
		for (p = 0; p < s->k; p++)
			so.prio[p] = p;
		so.has_values = true;
		/* No values: the records' value word holds integers. */
		so.vtype = s->vals ? m->value_type : TS_VTYPE_INT64;
		so.mem_limit = o->n > 0 ? mem / (size_t)o->n : mem;
		so.tmpdir = op->tmpdir;
		so.threads = op->threads > 0 ? op->threads : 1;
		so.expect = op->expect;
		so.dups = TS_DUP_KEEP;
		if ((s->s = ts_sorter_new(&so)) == NULL) {
			ts_diag_io(d, NULL, "sorting: %s", strerror(errno));
			o->failed = true;
		}
		ts_batch_init(&s->in, s->k, BATCH);
	}
	return o;
}

/* The record of entry i of b for sort s: derived coordinates, value. */
static void
derive(const struct ts_ordered *o, const struct osort *s,
    const struct ts_batch *b, size_t i, uint64_t *c, double *fv,
    int64_t *iv)
{
	const uint64_t *x = b->coords + i * (size_t)o->order;
	const int n = o->order;
	int a, j, t;
	uint64_t loc = b->loc != NULL ? b->loc[i] : 0;

	switch (s->q) {
	case Q_DUPS:
		memcpy(c, x, (size_t)n * sizeof(*c));
		break;
	case Q_CANON:
		/* The sorted coordinates (insertion sort: orders are small),
		 * then the coordinates. */
		for (a = 0; a < n; a++) {
			uint64_t v = x[a];

			for (j = a; j > 0 && c[j - 1] > v; j--)
				c[j] = c[j - 1];
			c[j] = v;
		}
		memcpy(c + n, x, (size_t)n * sizeof(*c));
		break;
	case Q_PAIR:
		c[0] = x[s->p] < x[s->q2] ? x[s->p] : x[s->q2];
		c[1] = x[s->p] < x[s->q2] ? x[s->q2] : x[s->p];
		for (a = 0, t = 2; a < n; a++)
			if (a != s->p && a != s->q2)
				c[t++] = x[a];
		c[n] = x[s->p];
		break;
	case Q_SEMI:
		for (t = 0, j = 0; j < 2; j++)
			for (a = 0; a < n; a++)
				if ((o->dense[a] != 0) == (j == 1))
					c[t++] = x[a];
		break;
	}
	if (s->vals) {
		c[s->k - 1] = loc;
		if (o->is_int)
			*iv = b->ival[i];
		else
			*fv = b->fval[i];
	} else
		*iv = (int64_t)loc;
}

int
ts_ordered_add(struct ts_ordered *o, const struct ts_batch *b,
    const bool *keep)
{
	size_t i;
	int j;

	if (o->failed)
		return -1;
	for (j = 0; j < o->n; j++) {
		struct osort *s = &o->v[j];

		if (s->in.cap < b->n) {
			ts_batch_free(&s->in);
			ts_batch_init(&s->in, s->k, b->n);
		}
		s->in.n = 0;
		s->in.has_values = true;
		s->in.is_int = !s->vals || o->is_int;
		s->in.texts = false;
		for (i = 0; i < b->n; i++) {
			size_t t = s->in.n;

			if (keep != NULL && !keep[i])
				continue;
			derive(o, s, b, i, s->in.coords + t * (size_t)s->k,
			    &s->in.fval[t], &s->in.ival[t]);
			s->in.n++;
		}
		if (ts_sorter_add(s->s, &s->in) != 0) {
			sort_fail(o);
			o->failed = true;
			return -1;
		}
	}
	for (i = 0; i < b->n; i++)
		o->count += keep == NULL || keep[i];
	return 0;
}

/* ---- reading a sort back in groups ---- */

struct group {
	uint64_t	*c;		/* n * k coordinates */
	double		*fv;
	int64_t		*iv;
	size_t		 n, cap;
	bool		 cut;		/* more than GROUP_MAX */
};

static void
group_put(struct group *g, const struct osort *s, const struct ts_batch *b,
    size_t i)
{
	if (g->n == g->cap) {
		if (g->cap == GROUP_MAX) {
			g->cut = true;
			return;
		}
		g->cap = g->cap ? 2 * g->cap : 64;
		g->c = ts_xreallocarray(g->c, g->cap, (size_t)s->k * 8);
		g->fv = ts_xreallocarray(g->fv, g->cap, sizeof(double));
		g->iv = ts_xreallocarray(g->iv, g->cap, sizeof(int64_t));
	}
	memcpy(g->c + g->n * (size_t)s->k, b->coords + i * (size_t)s->k,
	    (size_t)s->k * 8);
	g->fv[g->n] = b->fval[i];
	g->iv[g->n] = b->ival[i];
	g->n++;
}

/* Where member e of a group came from. */
static uint64_t
where(const struct osort *s, const struct group *g, size_t e)
{
	return s->vals ? g->c[e * (size_t)s->k + (size_t)s->k - 1] :
	    (uint64_t)g->iv[e];
}

static void
odiag(struct ts_ordered *o, uint64_t loc, enum ts_rule rule, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
odiag(struct ts_ordered *o, uint64_t loc, enum ts_rule rule, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (o->loc_offset)
		ts_vdiag(o->d, TS_SEV_ERROR, o->file, 0, 0, (int64_t)loc, rule,
		    fmt, ap);
	else
		ts_vdiag(o->d, TS_SEV_ERROR, o->file, loc, loc ? 1 : 0, -1,
		    rule, fmt, ap);
	va_end(ap);
}

static bool
sameval(const struct ts_ordered *o, const struct group *g, size_t a,
    size_t b)
{
	if (o->is_int)
		return g->iv[a] == g->iv[b];
	return g->fv[a] == g->fv[b] || (g->fv[a] != g->fv[a] &&
	    g->fv[b] != g->fv[b]);
}

/* The original coordinates of member e, in mode order. */
static void
original(const struct ts_ordered *o, const struct osort *s,
    const struct group *g, size_t e, uint64_t *x)
{
	const uint64_t *c = g->c + e * (size_t)s->k;
	const int n = o->order;
	int a, j, t;

	switch (s->q) {
	case Q_DUPS:
		memcpy(x, c, (size_t)n * 8);
		break;
	case Q_CANON:
		memcpy(x, c + n, (size_t)n * 8);
		break;
	case Q_PAIR:
		for (a = 0, t = 2; a < n; a++)
			if (a != s->p && a != s->q2)
				x[a] = c[t++];
		x[s->p] = c[n];
		x[s->q2] = c[0] == c[n] ? c[1] : c[0];
		break;
	case Q_SEMI:
		for (t = 0, j = 0; j < 2; j++)
			for (a = 0; a < n; a++)
				if ((o->dense[a] != 0) == (j == 1))
					x[a] = c[t++];
		break;
	}
}

static const char *
tstr(const struct ts_ordered *o, const uint64_t *x, char *buf, size_t n)
{
	return ts_tuple_str(buf, n, x, o->order, o->m->index_base);
}

/* Members a and b have the same coordinates: a repeat. */
static bool
repeat(const struct ts_ordered *o, const struct osort *s,
    const struct group *g, size_t a, size_t b)
{
	const int key = s->vals ? s->k - 1 : s->k;

	return memcmp(g->c + a * (size_t)s->k, g->c + b * (size_t)s->k,
	    (size_t)key * 8) == 0;
}

static void
dups_in(struct ts_ordered *o, const struct osort *s, const struct group *g)
{
	uint64_t x[TS_MAXORDER];
	char tb[256];
	size_t e;

	for (e = 1; e < g->n; e++)
		if (repeat(o, s, g, e - 1, e)) {
			o->dups = true;
			if (!o->report_dups)
				return;
			original(o, s, g, e, x);
			odiag(o, where(s, g, e), TS_RULE_S3, "entry %s "
			    "repeats the one at %s %llu", tstr(o, x, tb,
			    sizeof(tb)), o->loc_offset ? "offset" : "line",
			    (unsigned long long)where(s, g, e - 1));
		}
}

/* Full symmetry: every member has its mirror under each adjacent swap. */
static void
canon_group(struct ts_ordered *o, struct osort *s, const struct group *g)
{
	const int n = o->order;
	const bool claim_p = (o->m->have & TS_HAVE_PSYM) &&
	    o->m->psym == TS_SYM_FULL;
	const bool claim_v = s->vals && (o->m->have & TS_HAVE_NSYM) &&
	    o->m->nsym == TS_SYM_FULL;
	uint64_t x[TS_MAXORDER], y[TS_MAXORDER], z[TS_MAXORDER];
	char tb[256], tb2[256];
	size_t e, f;
	int p;

	for (e = 0; e < g->n; e++) {
		original(o, s, g, e, x);
		for (p = 0; p + 1 < n; p++) {
			if (x[p] == x[p + 1])
				continue;
			memcpy(y, x, (size_t)n * 8);
			y[p] = x[p + 1];
			y[p + 1] = x[p];
			for (f = 0; f < g->n; f++) {
				original(o, s, g, f, z);
				if (memcmp(z, y, (size_t)n * 8) == 0)
					break;
			}
			if (f == g->n) {
				s->pattern_ok = s->values_ok = false;
				if (claim_p)
					odiag(o, where(s, g, e), TS_RULE_S7,
					    "entry %s has no mirror %s (modes "
					    "%d and %d swapped)", tstr(o, x, tb,
					    sizeof(tb)), tstr(o, y, tb2,
					    sizeof(tb2)), p + 1, p + 2);
			} else if (s->vals && !sameval(o, g, e, f)) {
				s->values_ok = false;
				if (claim_v)
					odiag(o, where(s, g, e), TS_RULE_S8,
					    "entry %s and its mirror %s hold "
					    "different values", tstr(o, x, tb,
					    sizeof(tb)), tstr(o, y, tb2,
					    sizeof(tb2)));
			}
		}
	}
}

/* A swap of two modes: a group off their diagonal holds both
 * orientations (x_p the smaller, and the larger), with one value. */
static void
pair_group(struct ts_ordered *o, struct osort *s, const struct group *g)
{
	const int n = o->order;
	size_t e, a = g->n, b = g->n;

	if (g->n == 0 || g->c[0] == g->c[1])
		return;		/* on the diagonal: its own mirror */
	for (e = 0; e < g->n; e++) {
		const uint64_t *c = g->c + e * (size_t)s->k;

		if (c[n] == c[0] && a == g->n)
			a = e;
		else if (c[n] == c[1] && b == g->n)
			b = e;
	}
	if (a == g->n || b == g->n)
		s->pattern_ok = s->values_ok = false;
	else if (s->vals && !sameval(o, g, a, b))
		s->values_ok = false;
}

static void
semi_group(struct ts_ordered *o, const struct osort *s, const struct group *g)
{
	uint64_t x[TS_MAXORDER];
	char tb[256];
	size_t e;

	if (g->cut)
		return;
	for (e = 1; e < g->n; e++)
		if (repeat(o, s, g, e - 1, e))
			return;	/* said once, at the end */
	if ((uint64_t)g->n != o->want) {
		original(o, s, g, 0, x);
		odiag(o, where(s, g, 0), TS_RULE_S9, "the sparse part of "
		    "entry %s has %llu of its %llu dense entries", tstr(o, x,
		    tb, sizeof(tb)), (unsigned long long)g->n, (unsigned long
		    long)o->want);
	}
}

static void
end_group(struct ts_ordered *o, int j, const struct group *g)
{
	struct osort *s = &o->v[j];

	if (j == o->dups_from)
		dups_in(o, s, g);
	if (s->q == Q_CANON)
		canon_group(o, s, g);
	else if (s->q == Q_PAIR)
		pair_group(o, s, g);
	else if (s->q == Q_SEMI)
		semi_group(o, s, g);
}

/*
 * Read the sort of repeats back (Q_DUPS, the only one of an unsorted
 * tensor's usual checks): its groups are runs of equal records, and
 * each member after the first repeats the one before it.  As dups_in
 * would say of the groups read_groups makes, member by member as they
 * stream by, without keeping them: an equal neighbour is found by
 * comparing the coordinates in place, and only the record before the
 * first of a batch is copied.
 */
static int
read_repeats(struct ts_ordered *o, int j)
{
	struct osort *s = &o->v[j];
	const int k = s->k;
	uint64_t x[TS_MAXORDER], prevloc = 0;
	const uint64_t *prev = NULL;
	struct ts_batch b;
	char tb[256];
	size_t i, e = 0;	/* e: the member of its group */
	long r;
	int a;

	ts_batch_init(&b, k, BATCH);
	while ((r = ts_sorter_next(s->s, &b)) > 0) {
		for (i = 0; i < b.n; i++) {
			const uint64_t *c = b.coords + i * (size_t)k;

			for (a = 0; prev != NULL && a < k; a++)
				if (prev[a] != c[a])
					break;
			if (prev == NULL || a < k)
				e = 0;
			else {
				o->repeats++;
				o->dups = true;
				/* A group keeps GROUP_MAX members. */
				if (o->report_dups && ++e < GROUP_MAX)
					odiag(o, (uint64_t)b.ival[i],
					    TS_RULE_S3, "entry %s repeats the "
					    "one at %s %llu", tstr(o, c, tb,
					    sizeof(tb)), o->loc_offset ?
					    "offset" : "line", (unsigned long
					    long)prevloc);
			}
			prev = c;
			prevloc = (uint64_t)b.ival[i];
		}
		/* The batch is read over next: the last record stays. */
		if (b.n > 0) {
			memcpy(x, prev, (size_t)k * sizeof(*x));
			prev = x;
		}
	}
	ts_batch_free(&b);
	if (r < 0) {
		sort_fail(o);
		return -1;
	}
	return 0;
}

/* Read sort s back, group by group. */
static int
read_groups(struct ts_ordered *o, int j)
{
	struct osort *s = &o->v[j];
	struct group g;
	struct ts_batch b;
	uint64_t prev[2 * TS_MAXORDER + 2];
	const size_t key = (size_t)(s->vals ? s->k - 1 : s->k) * 8;
	bool have = false;
	long r;
	size_t i;

	memset(&g, 0, sizeof(g));
	ts_batch_init(&b, s->k, BATCH);
	while ((r = ts_sorter_next(s->s, &b)) > 0)
		for (i = 0; i < b.n; i++) {
			const uint64_t *c = b.coords + i * (size_t)s->k;

			/* Repeats counted here, past a group's cut too. */
			if (have && j == o->dups_from &&
			    memcmp(prev, c, key) == 0)
				o->repeats++;
			if (have && memcmp(prev, c, (size_t)s->g * 8) != 0) {
				end_group(o, j, &g);
				g.n = 0;
				g.cut = false;
			}
			memcpy(prev, c, (size_t)s->k * 8);
			have = true;
			group_put(&g, s, &b, i);
		}
	if (have)
		end_group(o, j, &g);
	ts_batch_free(&b);
	free(g.c);
	free(g.fv);
	free(g.iv);
	if (r < 0) {
		sort_fail(o);
		return -1;
	}
	return 0;
}

/* What the partial claims need: full symmetry must fail, a swap hold. */
static void
partial(struct ts_ordered *o, bool values)
{
	enum ts_rule rule = values ? TS_RULE_S8 : TS_RULE_S7;
	const char *what = values ? "tensor" : "pattern";
	const char *key = values ? "numerical_symmetry" : "pattern_symmetry";
	bool full = false, some = false;
	int i;

	for (i = 0; i < o->n; i++) {
		const struct osort *s = &o->v[i];
		bool ok = s->pattern_ok && (!values || s->values_ok);

		if (s->q == Q_CANON)
			full = ok;
		else if (s->q == Q_PAIR)
			some |= ok;
	}
	if (full)
		ts_diag(o->d, TS_SEV_ERROR, o->file, 0, 0, rule, "the %s is "
		    "fully symmetric; '%s' says 'partial', which means not "
		    "full", what, key);
	else if (!some)
		ts_diag(o->d, TS_SEV_ERROR, o->file, 0, 0, rule, "no pair of "
		    "equal-sized modes can be swapped without changing the %s; "
		    "'%s' says 'partial'", what, key);
}

int
ts_ordered_finish(struct ts_ordered *o, bool bad_bounds)
{
	const struct ts_meta *m = o->m;
	int j, rv;

	if (o->failed)
		return -1;
	for (j = 0; j < o->n; j++) {
		rv = ts_sorter_finish(o->v[j].s);
		if (rv != 0) {
			sort_fail(o);
			return -1;
		}
		if ((o->v[j].q == Q_DUPS && j == o->dups_from ?
		    read_repeats(o, j) : read_groups(o, j)) != 0)
			return -1;
	}
	o->counted = o->dups_from >= 0;
	/* An empty pattern is as symmetric as any claim says (S7): it is
	 * both full and partial. */
	if ((m->have & TS_HAVE_PSYM) && m->psym == TS_SYM_PARTIAL &&
	    m->order >= 2 && o->count > 0)
		partial(o, false);
	if ((m->have & TS_HAVE_NSYM) && m->nsym == TS_SYM_PARTIAL && m->order >=
	    2 && m->values_provided && m->sparsity != TS_SPARSITY_BLOCK &&
	    o->count > 0)
		partial(o, true);
	if ((m->have & TS_HAVE_SPARSITY) && (m->have & TS_HAVE_DENSE) &&
	    (m->sparsity == TS_SPARSITY_NO || m->sparsity == TS_SPARSITY_SEMI)
	    && !bad_bounds) {
		if (o->dups)
			ts_diag(o->d, TS_SEV_ERROR, o->file, 0, 0, TS_RULE_S9,
			    "a tensor with repeated entries cannot store %s "
			    "once", m->sparsity == TS_SPARSITY_NO ?
			    "every position" : "every combination of its "
			    "dense modes");
		else if (m->sparsity == TS_SPARSITY_NO) {
			uint64_t prod = 1;
			int k;

			for (k = 0; k < m->order; k++)
				if (!ts_mul_u64(prod, m->dims[k], &prod))
					prod = UINT64_MAX;
			if (o->count != prod)
				ts_diag(o->d, TS_SEV_ERROR, o->file, 0, 0,
				    TS_RULE_S9, "%llu entries are stored; a "
				    "dense tensor stores all %llu positions",
				    (unsigned long long)o->count, (unsigned long
				    long)prod);
		}
	}
	return 0;
}

uint64_t
ts_ordered_repeats(const struct ts_ordered *o)
{
	return o != NULL && o->counted ? o->repeats : UINT64_MAX;
}

void
ts_ordered_free(struct ts_ordered *o)
{
	int j;

	if (o == NULL)
		return;
	for (j = 0; j < o->n; j++) {
		ts_sorter_free(o->v[j].s);
		ts_batch_free(&o->v[j].in);
	}
	free(o->v);
	free(o);
}
