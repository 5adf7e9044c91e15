/*
 * genvalues.c - values for value-less entries (SPEC section 9): each a
 * pure function of the seed, the entry's 0-based coordinates and the
 * options, never of the order of the file, its form or the machine.
 *
 * The function, named TS_GEN_NAME, is given exactly in ts-gen-values(1)
 * under GENERATOR; in short: the coordinates, sorted within each group
 * of symmetric modes, are absorbed one by one into a 64-bit state
 * (started from the seed by SplitMix64) with wyhash's folded multiply,
 * and the state seeds a SplitMix64 stream that the distribution draws
 * from.  A counter-based generator, so any entry
 * can be computed alone, in any order, on any thread.
 *
 * Every step is integer arithmetic or IEEE-754 double arithmetic that
 * rounds once (+ - * / sqrt, frexp, round): no libm function whose last
 * bit varies between C libraries or CPUs (glibc picks log and cos by
 * CPU), which is why the logarithm is rng.c's (values/rng.h).
 * Expressions must not be contracted to fused multiply-adds: GCC does
 * not in ISO C mode (-std=c11), and clang is told so here.
 *
 * The options are checked against the metadata here, once, so that
 * every value the stages make meets the value type, the domain and the
 * explicit_zeros policy by construction.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "model/model.h"
#include "values/genvalues.h"
#include "values/rng.h"
#include "util/xalloc.h"

#define TRIES	64	/* draws before a value 0 gives way */

void
fe_genvalues_opts_init(struct fe_genvalues_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dist = FE_GEN_DIST_DEFAULT;
	o->domain = o->zeros = -1;
}

/* ---- the function ---- */

/* The coordinates c absorbed one by one into h. */
static inline uint64_t
absorb(uint64_t h, const uint64_t *c, int order)
{
	int k;

	for (k = 0; k < order; k++)
		h = fe_rng_mum(h ^ c[k], FE_RNG_WYP0);
	return h;
}

/* The state of an entry: its coordinates, sorted within each group of
 * symmetric modes, absorbed one by one. */
static uint64_t
entry_state(const struct ts_genvalues *g, const uint64_t *c)
{
	uint64_t t[TS_MAXORDER];
	int n, i, j;

	if (g->ngroups == 0)
		return absorb(g->h0, c, g->order);
	memcpy(t, c, (size_t)g->order * sizeof(*t));
	for (n = 0; n < g->ngroups; n++) {
		const int *md = g->gmode[n];

		/* Insertion sort of the group's coordinates, left in its
		 * modes in ascending order. */
		for (i = 1; i < g->gsize[n]; i++) {
			uint64_t v = t[md[i]];

			for (j = i; j > 0 && t[md[j - 1]] > v; j--)
				t[md[j]] = t[md[j - 1]];
			t[md[j]] = v;
		}
	}
	return absorb(g->h0, t, g->order);
}

/* A standard normal number: Marsaglia's polar method. */
static double
normal(uint64_t *s)
{
	double a, b, q;
	int n;

	for (n = 0; n < TRIES; n++) {
		a = 2 * fe_rng_unit(s) - 1;
		b = 2 * fe_rng_unit(s) - 1;
		q = a * a + b * b;
		if (q > 0 && q < 1)
			return a * sqrt(-2 * fe_rng_ln(q) / q);
	}
	return 0;
}

/* An integer of [ilo, ihi] (without 0 when skip0), each as likely. */
static int64_t
integer(const struct ts_genvalues *g, uint64_t *s)
{
	uint64_t r = fe_rng_next(s), lim;
	int64_t v;
	int n;

	if (g->span != 0) {
		/* Reject the 2^64 mod span lowest words, so that each
		 * remainder is as likely. */
		lim = (0 - g->span) % g->span;
		for (n = 1; r < lim && n < TRIES; n++)
			r = fe_rng_next(s);
		r %= g->span;
	}
	v = (int64_t)((uint64_t)g->ilo + r);
	if (g->skip0 && v >= 0)
		v++;
	return v;
}

/* x rounded to an integer of [ilo, ihi], halves away from 0. */
static int64_t
to_int(const struct ts_genvalues *g, double x)
{
	int64_t v;

	if (!(x > (double)g->ilo))
		return g->ilo;
	if (x >= (double)g->ihi)
		return g->ihi;
	v = (int64_t)round(x);
	return v < g->ilo ? g->ilo : v > g->ihi ? g->ihi : v;
}

void
fe_gen_value(const struct ts_genvalues *g, const uint64_t *c, double *f,
    int64_t *i)
{
	uint64_t s = entry_state(g, c);
	double x = 0;
	int64_t v = 0;
	int n;

	if (g->binary) {
		v = !(g->o.binary_zeros > 0 &&
		    fe_rng_unit(&s) < g->o.binary_zeros);
		*f = (double)v;
		*i = v;
		return;
	}
	if (g->dist == FE_GEN_DIST_CONSTANT) {
		*f = g->fconst;
		*i = g->iconst;
		return;
	}
	for (n = 0; n < TRIES; n++) {
		switch (g->dist) {
		case FE_GEN_DIST_INTEGERS:
			v = integer(g, &s);
			x = (double)v;
			break;
		case FE_GEN_DIST_NORMAL:
			x = g->mean + g->std * normal(&s);
			x = x < g->lo ? g->lo : x > g->hi ? g->hi : x;
			break;
		default:
			x = g->lo + g->width * fe_rng_unit(&s);
			break;
		}
		if (g->isint) {
			if (g->dist != FE_GEN_DIST_INTEGERS)
				v = to_int(g, x);
			if (v != 0 || g->zeros) {
				*i = v;
				return;
			}
		} else {
			if (g->vt->narrow != NULL)
				x = g->vt->narrow(x);
			if (x != 0 || g->zeros) {
				*f = x;
				return;
			}
		}
	}
	*f = g->fnz;
	*i = g->inz;
}

void
fe_genvalues_fill(const struct ts_genvalues *g, struct ts_batch *b)
{
	b->has_values = true;
	b->is_int = g->isint;
	b->texts = false;
	b->texts_only = false;
	fe_gen_fill_range(g, b, 0, b->n);
}

/* The value of entry c the long way, for a first draw of 0 where 0 is
 * not allowed (rare): out of line, so that the loop below keeps its
 * value in a register. */
static __attribute__((noinline)) double
redraw(const struct ts_genvalues *g, const uint64_t *c)
{
	double x = 0;
	int64_t v = 0;

	fe_gen_value(g, c, &x, &v);
	return x;
}

/* The state of entry c: absorb(), spelt out where order is known. */
static inline __attribute__((always_inline)) uint64_t
absorb_k(uint64_t h0, const uint64_t *c, const int order)
{
	if (order == 2)
		return fe_rng_mum(fe_rng_mum(h0 ^ c[0], FE_RNG_WYP0) ^ c[1],
		    FE_RNG_WYP0);
	if (order == 3)
		return fe_rng_mum(fe_rng_mum(fe_rng_mum(h0 ^ c[0],
		    FE_RNG_WYP0) ^ c[1], FE_RNG_WYP0) ^ c[2], FE_RNG_WYP0);
	return absorb(h0, c, order);
}

/*
 * The first draw of a uniform float for entries [from, to), inlined
 * with a constant order, four entries at a time: each is a chain of
 * dependent multiplies, and four side by side keep the multiplier busy
 * (3.6 ns an entry; two: 4.3).
 */
static inline __attribute__((always_inline)) void
fill_uniform(const struct ts_genvalues *g, struct ts_batch *b, size_t from,
    size_t to, const int order)
{
	/* In locals: the stores to fval might alias g's doubles. */
	const double lo = g->lo, width = g->width;
	const uint64_t h0 = g->h0;
	const bool zeros = g->zeros;
	double (*const narrow)(double) = g->vt->narrow;
	const uint64_t *c = b->coords + from * (size_t)order;
	double *fv = b->fval;
	size_t e;

	for (e = from; e + 3 < to; e += 4, c += 4 * order) {
		uint64_t s0 = absorb_k(h0, c, order);
		uint64_t s1 = absorb_k(h0, c + order, order);
		uint64_t s2 = absorb_k(h0, c + 2 * order, order);
		uint64_t s3 = absorb_k(h0, c + 3 * order, order);
		double x0 = lo + width * fe_rng_unit(&s0);
		double x1 = lo + width * fe_rng_unit(&s1);
		double x2 = lo + width * fe_rng_unit(&s2);
		double x3 = lo + width * fe_rng_unit(&s3);

		if (narrow != NULL) {
			x0 = narrow(x0);
			x1 = narrow(x1);
			x2 = narrow(x2);
			x3 = narrow(x3);
		}
		if (!zeros && (x0 == 0 || x1 == 0 || x2 == 0 || x3 == 0)) {
			if (x0 == 0)
				x0 = redraw(g, c);
			if (x1 == 0)
				x1 = redraw(g, c + order);
			if (x2 == 0)
				x2 = redraw(g, c + 2 * order);
			if (x3 == 0)
				x3 = redraw(g, c + 3 * order);
		}
		fv[e] = x0;
		fv[e + 1] = x1;
		fv[e + 2] = x2;
		fv[e + 3] = x3;
	}
	for (; e < to; e++, c += order) {
		uint64_t s0 = absorb_k(h0, c, order);
		double x0 = lo + width * fe_rng_unit(&s0);

		if (narrow != NULL)
			x0 = narrow(x0);
		if (x0 == 0 && !zeros)
			x0 = redraw(g, c);
		fv[e] = x0;
	}
}

void
fe_gen_fill_range(const struct ts_genvalues *g, struct ts_batch *b,
    size_t from, size_t to)
{
	const int order = g->order;
	double f = 0;
	int64_t v = 0;
	size_t e;

	/*
	 * The common cases, inline: the first draw of a uniform float, or
	 * of the integers (never 0 unless allowed), without symmetric
	 * modes.  A uniform 0 that must be drawn again takes the long way,
	 * which makes the same first draw.
	 */
	if (!g->binary && g->ngroups == 0 && g->dist == FE_GEN_DIST_UNIFORM &&
	    !g->isint) {
		switch (order) {
		case 2: fill_uniform(g, b, from, to, 2); break;
		case 3: fill_uniform(g, b, from, to, 3); break;
		default: fill_uniform(g, b, from, to, order); break;
		}
		return;
	}
	if (!g->binary && g->ngroups == 0 && g->dist == FE_GEN_DIST_INTEGERS) {
		for (e = from; e < to; e++) {
			uint64_t s = absorb(g->h0, b->coords + e *
			    (size_t)order, order);

			v = integer(g, &s);
			if (g->isint)
				b->ival[e] = v;
			else
				b->fval[e] = (double)v;
		}
		return;
	}
	for (e = from; e < to; e++) {
		fe_gen_value(g, b->coords + e * (size_t)order, &f, &v);
		if (g->isint)
			b->ival[e] = v;
		else
			b->fval[e] = f;
	}
}

/* ---- the options against the metadata ---- */

static const char *const distnames[] = { "default", "uniform", "normal",
    "constant", "integers" };

const char *
fe_gen_dist_name(enum fe_gen_dist d)
{
	return (int)d >= 0 && (size_t)d < sizeof(distnames) /
	    sizeof(distnames[0]) ? distnames[d] : NULL;
}

/* The largest finite value of the type, and the least positive one. */
static double
type_max(enum ts_vtype t)
{
	return ts_vtype_info(t)->max;
}

static double
type_least(enum ts_vtype t)
{
	return ts_vtype_info(t)->least;
}

static void
int_limits(enum ts_vtype t, int64_t *lo, int64_t *hi)
{
	*lo = ts_vtype_info(t)->imin;
	*hi = ts_vtype_info(t)->imax;
}

/* An error of the request: the options do not fit the tensor. */
#define BAD(...)	do { ts_diag_usage(d, __VA_ARGS__); return -1; } \
			while (0)

/*
 * The integer an option gives a value of integer type t: its digits
 * (isint: iv), or a literal such as 1e3 whose value v is an integer,
 * held exactly; else say what is wrong, out of the range of t or not an
 * integer.
 */
static int
int_of(const char *opt, double v, bool isint, int64_t iv, enum ts_vtype t,
    int64_t *out, struct ts_diags *d)
{
	const char *tn = ts_vtype_name(t);
	int64_t lo, hi;
	char a[TS_NUMBUF];

	int_limits(t, &lo, &hi);
	if (isint)
		ts_fmt_i64(a, iv);
	else
		ts_fmt_double(a, v);
	/* -(double)lo is 2^31 or 2^63 exactly: the first beyond hi. */
	if (isint ? iv < lo || iv > hi : v == v && !(v >= (double)lo &&
	    v < -(double)lo))
		BAD("%s: %s is out of the range of %s (%lld to %lld)", opt, a,
		    tn, (long long)lo, (long long)hi);
	if (!isint && (v != v || v != floor(v)))
		BAD("%s: %s is not an integer, and %s values are integers", opt,
		    a, tn);
	if (!isint && fabs(v) > 9007199254740992.0)
		BAD("%s: %s: an integer beyond 2^53 is read exactly only when "
		    "written in digits", opt, a);
	*out = isint ? iv : (int64_t)v;
	return 0;
}

static int
check_groups(struct ts_genvalues *g, const struct fe_genvalues_opts *o,
    struct ts_diags *d)
{
	int k, n, first[TS_MAXORDER];

	for (n = 0; n < o->ngroups; n++)
		first[n] = -1;
	for (k = 0; k < TS_MAXORDER; k++) {
		if (o->group[k] == 0)
			continue;
		if (o->group[k] < 0 || o->group[k] > o->ngroups)
			BAD("--symmetric-modes: bad group of mode %d", k + 1);
		if (k >= g->order)
			BAD("--symmetric-modes: the tensor has no mode %d "
			    "(order %d)", k + 1, g->order);
		n = o->group[k] - 1;
		if (first[n] < 0)
			first[n] = k;
		else if (g->dims[k] != g->dims[first[n]])
			BAD("--symmetric-modes: modes %d and %d have different "
			    "dimensions (%llu and %llu)", first[n] + 1, k + 1,
			    (unsigned long long)g->dims[first[n]],
			    (unsigned long long)g->dims[k]);
	}
	fe_gen_set_groups(g, o->group);
	for (n = 0; n < g->ngroups; n++)
		if (g->gsize[n] < 2)
			BAD("--symmetric-modes: a group needs two modes or more");
	return 0;
}

void
fe_gen_set_groups(struct ts_genvalues *g, const int *group)
{
	int k, n, id[TS_MAXORDER + 1];

	/* Renumber the groups by their first mode. */
	memset(id, -1, sizeof(id));
	g->ngroups = 0;
	for (k = 0; k < g->order; k++) {
		if (group[k] <= 0 || group[k] > TS_MAXORDER)
			continue;
		if (id[group[k]] < 0) {
			id[group[k]] = g->ngroups;
			g->gsize[g->ngroups++] = 0;
		}
		n = id[group[k]];
		g->gmode[n][g->gsize[n]++] = k;
	}
}

static int
resolve_symmetry(struct ts_genvalues *g, const struct fe_genvalues_opts *o,
    struct ts_diags *d)
{
	int group[TS_MAXORDER] = { 0 }, k;

	if (g->nsym == TS_SYM_FULL && g->order > 1) {
		if (o->ngroups > 0)
			BAD("--symmetric-modes: numerical_symmetry is 'full': "
			    "every mode is symmetric to every other");
		for (k = 0; k < g->order; k++) {
			if (g->dims[k] != g->dims[0]) {
				ts_diag(d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_M5,
				    "numerical_symmetry 'full' needs equal "
				    "dimensions");
				return -1;
			}
			group[k] = 1;
		}
		fe_gen_set_groups(g, group);
		return 0;
	}
	/* 'partial' holds only if a pair of modes of the groups can be
	 * swapped in the pattern, and not if the values come out fully
	 * symmetric: the pattern is held to tell, as when it gives the
	 * groups. */
	if (o->ngroups > 0) {
		g->check = g->nsym == TS_SYM_PARTIAL;
		/* Symmetric values where none were claimed: what they
		 * hold is found on the pattern, which may allow it. */
		g->measure = g->nsym == TS_SYM_NO && g->psym != TS_SYM_NO;
		return check_groups(g, o, d);
	}
	g->pattern = g->nsym == TS_SYM_PARTIAL;
	return 0;
}

/* The value after TRIES zeros: the nonzero value of the type nearest
 * to 0 in [lo, hi) (closed: [lo, hi]). */
static int
fallback(struct ts_genvalues *g, bool closed, struct ts_diags *d)
{
	double least = type_least(g->vtype), lo = g->lo, hi = g->hi;
	char a[TS_NUMBUF], b[TS_NUMBUF];

	if (g->zeros)
		return 0;
	if (g->isint) {
		lo = (double)g->ilo;
		hi = (double)g->ihi;
		closed = true;
	}
	if (lo <= least && (least < hi || (closed && least == hi)))
		g->fnz = least;
	else if (lo <= -least && (-least < hi || (closed && -least == hi)))
		g->fnz = -least;
	else if (lo >= least || hi <= -least)
		g->fnz = lo;	/* 0 cannot come */
	else {
		ts_fmt_double(a, lo);
		ts_fmt_double(b, hi);
		BAD("[%s, %s] holds no %s value but 0, and explicit_zeros "
		    "is 'disallowed'", a, b, ts_vtype_name(g->vtype));
	}
	g->inz = (int64_t)g->fnz;
	return 0;
}

/* Is x an integer that the value type holds exactly? */
static bool
exact_int(const struct ts_genvalues *g, double x)
{
	double lim = ldexp(1, g->vt->bits);

	return x == floor(x) && fabs(x) <= lim;
}

static int
resolve_range(struct ts_genvalues *g, const struct fe_genvalues_opts *o,
    struct ts_diags *d)
{
	const bool nonneg = g->dom == TS_DOMAIN_NONNEGATIVE;
	const double max = type_max(g->vtype);
	int64_t tlo, thi;

	int_limits(g->vtype, &tlo, &thi);
	if (o->has_range) {
		/* Bounds of an integer type: integers it holds, first. */
		if (g->isint && (int_of("--range", o->lo, o->range_int,
		    o->ilo, g->vtype, &g->ilo, d) != 0 || int_of("--range",
		    o->hi, o->range_int, o->ihi, g->vtype, &g->ihi, d) != 0))
			return -1;
		if (!(isfinite(o->lo) && isfinite(o->hi)) || o->lo > o->hi ||
		    (o->lo == o->hi && g->dist != FE_GEN_DIST_INTEGERS))
			BAD("--range: LO:HI needs LO %s HI, both finite",
			    g->dist == FE_GEN_DIST_INTEGERS ? "<=" : "<");
		if (nonneg && o->lo < 0)
			BAD("--range: value_domain is 'nonnegative': LO must "
			    "not be below 0");
		if (!g->isint && g->dist == FE_GEN_DIST_INTEGERS) {
			if (!o->range_int)
				BAD("--range: integers need integer bounds");
			g->ilo = o->ilo;
			g->ihi = o->ihi;
			if (!exact_int(g, o->lo) || !exact_int(g, o->hi))
				BAD("--range: %s does not hold every integer "
				    "of it", ts_vtype_name(g->vtype));
		}
		if (!g->isint && (fabs(o->lo) > max || fabs(o->hi) > max))
			BAD("--range: beyond the finite values of %s",
			    ts_vtype_name(g->vtype));
		g->lo = o->lo + 0.0;	/* -0 is 0 */
		g->hi = o->hi + 0.0;
	} else if (g->dist == FE_GEN_DIST_NORMAL) {
		/* Clipped to the domain and the type. */
		g->lo = nonneg ? 0 : g->isint ? (double)tlo : -max;
		g->hi = g->isint ? (double)thi : max;
		g->ilo = nonneg ? 0 : tlo;
		g->ihi = thi;
	} else if (g->isint || g->dist == FE_GEN_DIST_INTEGERS) {
		g->ilo = nonneg ? 0 : -100;
		g->ihi = 100;
		g->lo = (double)g->ilo;
		g->hi = (double)g->ihi;
	} else {
		g->lo = nonneg ? 0 : -1;
		g->hi = 1;
	}
	g->width = g->hi - g->lo;
	if (!isfinite(g->width) && g->dist == FE_GEN_DIST_UNIFORM)
		BAD("--range: HI - LO overflows float64");
	if (g->dist == FE_GEN_DIST_INTEGERS) {
		g->skip0 = !g->zeros && g->ilo <= 0 && g->ihi >= 0;
		g->span = (uint64_t)g->ihi - (uint64_t)g->ilo + 1 -
		    (g->skip0 ? 1 : 0);
		if (g->skip0 && g->ilo == 0 && g->ihi == 0)
			BAD("--range: 0:0 holds no integer but 0, and "
			    "explicit_zeros is 'disallowed'");
		return 0;
	}
	return fallback(g, g->dist == FE_GEN_DIST_NORMAL, d);
}

static int
resolve_constant(struct ts_genvalues *g, const struct fe_genvalues_opts *o,
    struct ts_diags *d)
{
	double v = o->has_value ? o->value : 1;

	if (g->isint) {
		g->iconst = 1;
		if (o->has_value && int_of("--value", o->value, o->value_int,
		    o->ivalue, g->vtype, &g->iconst, d) != 0)
			return -1;
		v = (double)g->iconst;
	} else {
		if (!isfinite(v) || fabs(v) > type_max(g->vtype))
			BAD("--value: not a finite %s", ts_vtype_name(g->vtype));
		if (g->vt->narrow != NULL)
			v = g->vt->narrow(v);
		g->fconst = v + 0.0;
	}
	if (v == 0 && !g->zeros)
		BAD("--value: %s 0, and explicit_zeros is 'disallowed'",
		    g->vt->narrow != NULL && o->value != 0 ?
		    "rounds to" : "is");
	if (v < 0 && g->dom == TS_DOMAIN_NONNEGATIVE)
		BAD("--value: below 0, and value_domain is 'nonnegative'");
	return 0;
}

/* The options that only some distributions take. */
static int
check_applicable(const struct ts_genvalues *g,
    const struct fe_genvalues_opts *o, struct ts_diags *d)
{
	const char *dn = distnames[g->dist];

	if (g->binary) {
		if (o->dist != FE_GEN_DIST_DEFAULT || o->has_range ||
		    o->has_mean || o->has_std || o->has_value)
			BAD("value_domain is 'binary': its values are 1, or 0 "
			    "and 1 with --binary-zeros; no --dist, --range, "
			    "--mean, --std or --value");
		if (!(o->binary_zeros >= 0 && o->binary_zeros <= 1))
			BAD("--binary-zeros: P must be from 0 to 1");
		if (o->binary_zeros > 0 && !g->zeros)
			BAD("--binary-zeros: explicit_zeros is 'disallowed'");
		return 0;
	}
	if (o->binary_zeros != 0)
		BAD("--binary-zeros: value_domain is '%s', not 'binary'",
		    ts_domain_name(g->dom));
	if ((o->has_mean || o->has_std) && g->dist != FE_GEN_DIST_NORMAL)
		BAD("--%s: only --dist normal takes it (not %s)",
		    o->has_mean ? "mean" : "std", dn);
	if (o->has_value && g->dist != FE_GEN_DIST_CONSTANT)
		BAD("--value: only --dist constant takes it (not %s)", dn);
	if (o->has_range && g->dist == FE_GEN_DIST_CONSTANT)
		BAD("--range: --dist constant takes --value");
	if (g->dist == FE_GEN_DIST_NORMAL && (!isfinite(o->mean) ||
	    !isfinite(o->std) || (o->has_std && !(o->std > 0))))
		BAD("--mean, --std: finite numbers, the deviation above 0");
	return 0;
}

struct ts_genvalues *
fe_genvalues_new(const struct fe_genvalues_opts *o, const struct ts_meta *m,
    struct ts_diags *d)
{
	struct ts_genvalues *g = ts_xcalloc(1, sizeof(*g));

	g->o = *o;
	g->order = m->order;
	memcpy(g->dims, m->dims, sizeof(g->dims));
	g->vtype = m->value_type;
	g->dom = o->domain >= 0 ? (enum ts_domain)o->domain : m->value_domain;
	g->zeros = o->zeros >= 0 ? o->zeros == 1 : m->zeros_allowed;
	g->nsym = g->result = m->nsym;
	g->psym = m->psym;
	g->vt = ts_vtype_info(g->vtype);
	g->isint = g->vt->is_int;
	g->binary = g->dom == TS_DOMAIN_BINARY;
	g->dist = o->dist != FE_GEN_DIST_DEFAULT ? o->dist : g->isint ?
	    FE_GEN_DIST_INTEGERS : FE_GEN_DIST_UNIFORM;
	g->mean = o->has_mean ? o->mean : 0;
	g->std = o->has_std ? o->std : 1;
	g->h0 = fe_rng_mix(o->seed + FE_RNG_GAMMA);
	if (check_applicable(g, o, d) != 0 || resolve_symmetry(g, o, d) != 0 ||
	    (!g->binary && (g->dist == FE_GEN_DIST_CONSTANT ?
	    resolve_constant(g, o, d) : resolve_range(g, o, d)) != 0)) {
		free(g);
		return NULL;
	}
	return g;
}

void
fe_genvalues_free(struct ts_genvalues *g)
{
	free(g);
}

bool
fe_gen_cheap(const struct ts_genvalues *g)
{
	return g->ngroups == 0 && (g->binary || g->dist == FE_GEN_DIST_CONSTANT
	    || g->dist == FE_GEN_DIST_INTEGERS || (g->dist ==
	    FE_GEN_DIST_UNIFORM && !g->isint));
}

bool
fe_genvalues_from_pattern(const struct ts_genvalues *g)
{
	return g->pattern;
}

enum ts_sym
fe_genvalues_nsym(const struct ts_genvalues *g)
{
	return g->result;
}

/* ---- what the README says ---- */

static char *
num(char *buf, const struct ts_genvalues *g, double x)
{
	/* A value of the type in its own shortest text. */
	if (!g->isint && fabs(x) <= g->vt->max)
		g->vt->print(buf, x, 0);
	else
		ts_fmt_double(buf, x);
	return buf;
}

static char *
groups_text(const struct ts_genvalues *g)
{
	char *s = ts_xstrdup(""), *t;
	int n, i;

	for (n = 0; n < g->ngroups; n++)
		for (i = 0; i < g->gsize[n]; i++) {
			t = ts_xasprintf("%s%s%d", s, i > 0 ? "," : n > 0 ?
			    " and " : "", g->gmode[n][i] + 1);
			free(s);
			s = t;
		}
	return s;
}

/* The distribution, in words. */
static char *
dist_text(const struct ts_genvalues *g)
{
	char a[TS_NUMBUF], b[TS_NUMBUF], c[TS_NUMBUF], e[TS_NUMBUF];

	if (g->binary) {
		if (g->o.binary_zeros == 0)
			return ts_xstrdup("1 (value_domain binary)");
		ts_fmt_double(a, g->o.binary_zeros);
		return ts_xasprintf("1, or 0 with probability %s", a);
	}
	switch (g->dist) {
	case FE_GEN_DIST_CONSTANT:
		if (g->isint)
			ts_fmt_i64(a, g->iconst);
		return ts_xasprintf("constant %s", g->isint ? a :
		    num(a, g, g->fconst));
	case FE_GEN_DIST_INTEGERS:
		ts_fmt_i64(a, g->ilo);
		ts_fmt_i64(b, g->ihi);
		return ts_xasprintf("integers from %s to %s%s", a, b,
		    g->skip0 ? ", 0 excluded" : "");
	case FE_GEN_DIST_NORMAL:
		ts_fmt_double(a, g->mean);
		ts_fmt_double(b, g->std);
		return ts_xasprintf("normal, mean %s, standard deviation %s, "
		    "clipped to [%s, %s]%s", a, b, num(c, g, g->lo),
		    num(e, g, g->hi), g->isint ? ", rounded" : "");
	default:
		return ts_xasprintf("uniform on [%s, %s)%s", num(a, g, g->lo),
		    num(b, g, g->hi), g->isint ? ", rounded" : "");
	}
}

char *
fe_genvalues_describe(const struct ts_genvalues *g)
{
	char *dist = dist_text(g), *grp = groups_text(g), *sym, *s;
	/* The distributions that may draw a 0 draw again. */
	const bool redraw = !g->zeros && !g->binary &&
	    g->dist != FE_GEN_DIST_CONSTANT && g->dist != FE_GEN_DIST_INTEGERS;

	if (g->ngroups == 0)
		sym = ts_xstrdup(g->pattern ? "none found" : "none");
	else
		sym = ts_xasprintf("%s (%s)", grp, g->nsym == TS_SYM_FULL ?
		    "numerical_symmetry full" : !g->found ?
		    "--symmetric-modes" : g->reduced ? "the first pair of "
		    "a fully symmetric pattern" : "found from the pattern");
	s = ts_xasprintf("- generator: %s (ts-gen-values(1), GENERATOR)\n"
	    "- seed: %llu\n"
	    "- distribution: %s%s\n"
	    "- value_type %s, value_domain %s, explicit_zeros %s\n"
	    "- symmetric modes (coordinates sorted within each group): %s\n",
	    TS_GEN_NAME, (unsigned long long)g->o.seed, dist,
	    redraw ? "; a value 0 is drawn again" : "",
	    ts_vtype_name(g->vtype), ts_domain_name(g->dom),
	    g->zeros ? "allowed" : "disallowed", sym);
	free(dist);
	free(sym);
	free(grp);
	return s;
}
