/*
 * test_gen.c - unit tests of libtensorsuite's generated values: random
 * options against random metadata (every constraint holds, whatever the
 * order of the entries or how they are cut into batches), symmetric
 * modes, and random block tensors expanded into their elements and into
 * dense blocks.  Prints TAP; exit status 1 when a test fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "values/genvalues.h"
#include "values/divide.h"
#include "values/rng.h"
#include "tap.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t
next64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t
below(uint64_t n)
{
	return next64() % n;
}

/* ---- values against the metadata ---- */

struct tally {
	int	 configs, refused;
	int	 range, f32, domain, zeros, constant, order, batches, alone;
};

static void
random_opts(struct fe_genvalues_opts *o, struct ts_meta *m)
{
	static const double edges[] = { 0, 1e-300, 1e-44, 1e-30, 0.5, 1, 3,
	    1e6, 3e38, 1e300 };
	int k;

	fe_genvalues_opts_init(o);
	ts_meta_init(m);
	m->order = 1 + (int)below(4);
	for (k = 0; k < m->order; k++)
		m->dims[k] = 1 + below(below(2) ? 5 : 100000);
	m->value_type = (enum ts_vtype)below(4);
	m->value_domain = (enum ts_domain)below(3);
	m->zeros_allowed = below(2);
	o->seed = next64();
	o->dist = (enum fe_gen_dist)below(5);
	if (m->value_domain == TS_DOMAIN_BINARY) {
		o->dist = FE_GEN_DIST_DEFAULT;
		if (m->zeros_allowed && below(2))
			o->binary_zeros = (double)below(101) / 100;
		return;
	}
	if (o->dist != FE_GEN_DIST_CONSTANT && below(2)) {
		o->has_range = true;
		if (below(2)) {
			o->ilo = (int64_t)below(2001) - 1000;
			o->ihi = o->ilo + (int64_t)below(50);
			if (below(8) == 0) {
				o->ilo = below(2) ? INT64_MIN : INT32_MIN;
				o->ihi = below(2) ? INT64_MAX : INT32_MAX;
			}
			o->range_int = true;
			o->lo = (double)o->ilo;
			o->hi = (double)o->ihi;
		} else {
			o->lo = edges[below(10)] * (below(2) ? -1 : 1);
			o->hi = o->lo + edges[below(10)];
		}
	}
	if (o->dist == FE_GEN_DIST_NORMAL) {
		o->has_mean = below(2);
		o->mean = (double)below(200) - 100;
		o->has_std = below(2);
		o->std = edges[1 + below(9)];
	}
	if (o->dist == FE_GEN_DIST_CONSTANT && below(2)) {
		o->has_value = true;
		o->ivalue = (int64_t)below(7) - 3;
		o->value_int = below(2);
		o->value = o->value_int ? (double)o->ivalue :
		    edges[below(10)] * (below(2) ? -1 : 1);
	}
}

static bool
check_value(const struct ts_meta *m, const struct fe_genvalues_opts *o,
    const struct ts_batch *b, size_t i, struct tally *t)
{
	const bool isint = m->value_type == TS_VTYPE_INT32 ||
	    m->value_type == TS_VTYPE_INT64;
	double v = isint ? (double)b->ival[i] : b->fval[i];
	bool good = true;

	if (m->value_type == TS_VTYPE_INT32 && (b->ival[i] < INT32_MIN ||
	    b->ival[i] > INT32_MAX))
		good = false, t->range++;
	/* Bounds written as 1e3 or 7.0 hold integers too. */
	if (isint && o->has_range && (o->range_int ? b->ival[i] < o->ilo ||
	    b->ival[i] > o->ihi : v < o->lo || v > o->hi))
		good = false, t->range++;
	if (m->value_type == TS_VTYPE_FLOAT32 && (double)(float)v != v)
		good = false, t->f32++;
	if (!isint && !isfinite(v))
		good = false, t->range++;
	if ((m->value_domain == TS_DOMAIN_NONNEGATIVE && !(v >= 0)) ||
	    (m->value_domain == TS_DOMAIN_BINARY && v != 0 && v != 1))
		good = false, t->domain++;
	if (!m->zeros_allowed && v == 0)
		good = false, t->zeros++;
	return good;
}

static void
test_constraints(void)
{
	struct tally t;
	struct ts_batch b, r, h;
	int c;

	memset(&t, 0, sizeof(t));
	for (c = 0; c < 3000; c++) {
		struct fe_genvalues_opts o;
		struct ts_meta m;
		struct ts_diags *d = ts_diags_new(0, false);
		struct ts_genvalues *g;
		size_t i, n = 1 + below(400), half;
		double f;
		int64_t iv;
		int k;

		random_opts(&o, &m);
		g = fe_genvalues_new(&o, &m, d);
		if (g == NULL) {
			/* Refused: for a reason, told as a usage error. */
			if (ts_diags_status(d) != TS_STATUS_USAGE)
				t.configs = -100000;
			t.refused++;
			ts_diags_free(d);
			ts_meta_free(&m);
			continue;
		}
		t.configs++;
		ts_batch_init(&b, m.order, n);
		ts_batch_init(&r, m.order, n);
		ts_batch_init(&h, m.order, n);
		b.n = r.n = n;
		for (i = 0; i < n; i++)
			for (k = 0; k < m.order; k++) {
				uint64_t x = below(m.dims[k]);

				b.coords[i * (size_t)m.order + (size_t)k] = x;
				r.coords[(n - 1 - i) * (size_t)m.order +
				    (size_t)k] = x;
			}
		fe_genvalues_fill(g, &b);
		fe_genvalues_fill(g, &r);
		for (i = 0; i < n; i++) {
			bool isint = b.is_int;

			check_value(&m, &o, &b, i, &t);
			if (o.dist == FE_GEN_DIST_CONSTANT && (isint ?
			    b.ival[i] != b.ival[0] : b.fval[i] != b.fval[0]))
				t.constant++;
			/* The same entries backwards: the same values. */
			if (isint ? b.ival[i] != r.ival[n - 1 - i] :
			    memcmp(&b.fval[i], &r.fval[n - 1 - i], 8) != 0)
				t.order++;
			/* A batch's fast paths: the value of the entry
			 * alone, the long way. */
			fe_gen_value(g, b.coords + i * (size_t)m.order, &f,
			    &iv);
			if (isint ? b.ival[i] != iv : memcmp(&b.fval[i], &f,
			    8) != 0)
				t.alone++;
		}
		/* The second half alone, as another batch would hold it. */
		half = n / 2;
		h.n = n - half;
		memcpy(h.coords, b.coords + half * (size_t)m.order, h.n *
		    (size_t)m.order * sizeof(uint64_t));
		fe_genvalues_fill(g, &h);
		for (i = 0; i < h.n; i++)
			if (b.is_int ? h.ival[i] != b.ival[half + i] :
			    memcmp(&h.fval[i], &b.fval[half + i], 8) != 0)
				t.batches++;
		ts_batch_free(&b);
		ts_batch_free(&r);
		ts_batch_free(&h);
		fe_genvalues_free(g);
		ts_diags_free(d);
		ts_meta_free(&m);
	}
	ok(t.configs > 1000, "most random configurations are accepted (%d "
	    "of %d; refusals are usage errors)", t.configs, t.configs +
	    t.refused);
	ok(t.range == 0, "integer values in the type and the range, floats "
	    "finite (%d bad)", t.range);
	ok(t.f32 == 0, "float32 values are float32 numbers (%d bad)", t.f32);
	ok(t.domain == 0, "values in the domain (%d bad)", t.domain);
	ok(t.zeros == 0, "no 0 when zeros are disallowed (%d bad)", t.zeros);
	ok(t.constant == 0, "a constant is constant (%d bad)", t.constant);
	ok(t.order == 0, "the order of the entries changes no value (%d bad)",
	    t.order);
	ok(t.alone == 0, "a batch gets the values its entries get alone (%d "
	    "bad)", t.alone);
	ok(t.batches == 0, "how entries are cut into batches changes no "
	    "value (%d bad)", t.batches);
}

/* ---- symmetric modes ---- */

static void
test_symmetry(void)
{
	int c, bad = 0, differs = 0, trials = 0;

	for (c = 0; c < 300; c++) {
		struct fe_genvalues_opts o;
		struct ts_meta m;
		struct ts_diags *d = ts_diags_new(0, false);
		struct ts_genvalues *g;
		struct ts_batch b;
		int k, a, z, sa[TS_MAXORDER], n = 0;
		size_t i;

		fe_genvalues_opts_init(&o);
		ts_meta_init(&m);
		m.order = 2 + (int)below(5);
		/* Floats, so that different values seldom coincide. */
		m.value_type = below(2) ? TS_VTYPE_FLOAT32 : TS_VTYPE_FLOAT64;
		m.nsym = below(4) == 0 ? TS_SYM_FULL : TS_SYM_NO;
		o.dist = below(2) ? FE_GEN_DIST_NORMAL : FE_GEN_DIST_DEFAULT;
		o.seed = next64();
		for (k = 0; k < m.order; k++)
			m.dims[k] = 50;
		if (m.nsym != TS_SYM_FULL) {
			/* One random group of two modes or more. */
			o.ngroups = 1;
			for (k = 0; k < m.order; k++)
				if (below(2))
					o.group[sa[n++] = k] = 1;
			if (n < 2) {
				o.group[sa[0] = 0] = o.group[sa[1] = 1] = 1;
				for (k = 2; k < m.order; k++)
					o.group[k] = 0;
				n = 2;
			}
		} else
			for (k = 0; k < m.order; k++)
				sa[n++] = k;
		g = fe_genvalues_new(&o, &m, d);
		if (g == NULL) {
			bad++;
			ts_diags_free(d);
			ts_meta_free(&m);
			continue;
		}
		ts_batch_init(&b, m.order, 64);
		b.n = 64;
		for (i = 0; i < 32; i++) {
			uint64_t *x = b.coords + 2 * i * (size_t)m.order;
			uint64_t *y = x + m.order;

			for (k = 0; k < m.order; k++)
				x[k] = y[k] = below(50);
			/* y: x with two modes of the group swapped, or two
			 * modes of which one is outside. */
			a = sa[below((uint64_t)n)];
			z = sa[below((uint64_t)n)];
			if (i % 2 == 1 && n < m.order)
				for (z = 0; o.group[z] != 0; z++)
					continue;
			y[a] = x[z];
			y[z] = x[a];
		}
		fe_genvalues_fill(g, &b);
		for (i = 0; i < 32; i++) {
			bool same = b.is_int ? b.ival[2 * i] == b.ival[2 * i + 1] :
			    b.fval[2 * i] == b.fval[2 * i + 1];
			bool outside = i % 2 == 1 && n < m.order;
			const uint64_t *x = b.coords + 2 * i * (size_t)m.order;

			if (!outside && !same)
				bad++;
			if (outside && memcmp(x, x + m.order, (size_t)m.order *
			    8) != 0) {
				trials++;
				differs += !same;
			}
		}
		ts_batch_free(&b);
		fe_genvalues_free(g);
		ts_diags_free(d);
		ts_meta_free(&m);
	}
	ok(bad == 0, "mirrors within a group of symmetric modes get the same "
	    "value (%d bad)", bad);
	ok(trials > 100 && differs == trials, "mirrors across groups do not "
	    "(%d of %d differ)", differs, trials);
}

/* ---- block tensors ---- */

/* A sink collecting what is written. */
struct memsink {
	char	*buf;
	size_t	 n, cap;
};

static int
sink_write(void *ctx, const void *p, size_t n)
{
	struct memsink *k = ctx;

	if (k->n + n > k->cap) {
		k->cap = (k->n + n) * 2;
		k->buf = realloc(k->buf, k->cap);
	}
	memcpy(k->buf + k->n, p, n);
	k->n += n;
	return 0;
}

static int
sink_commit(void *ctx)
{
	(void)ctx;
	return 0;
}

static void
sink_abort(void *ctx)
{
	(void)ctx;
}

static const struct ts_sink_ops memsink_ops = { sink_write, sink_commit,
    sink_abort };

struct blocks {
	int		 order;
	uint64_t	 parts[8], ext[8][6], start[8][6], dims[8];
	uint64_t	 blk[64][8];
	int		 nb, prio[8];
	uint64_t	 nnz;
};

/* The elements of the blocks, flattened, in priority order. */
static int
cmp_prio(const uint64_t *a, const uint64_t *b, const int *prio, int order)
{
	int l;

	for (l = 0; l < order; l++)
		if (a[prio[l]] != b[prio[l]])
			return a[prio[l]] < b[prio[l]] ? -1 : 1;
	return 0;
}

static void
random_blocks(struct blocks *B, bool sorted)
{
	int k, i, j;

	B->order = 1 + (int)below(4);
	for (k = 0; k < B->order; k++) {
		B->parts[k] = 1 + below(5);
		B->dims[k] = 0;
		for (i = 0; i < (int)B->parts[k]; i++) {
			B->start[k][i] = B->dims[k];
			B->ext[k][i] = 1 + below(4);
			B->dims[k] += B->ext[k][i];
		}
		B->prio[k] = k;
	}
	for (k = B->order - 1; k > 0; k--) {
		int r = (int)below((uint64_t)k + 1), t = B->prio[k];

		B->prio[k] = B->prio[r];
		B->prio[r] = t;
	}
	B->nb = 1 + (int)below(40);
	B->nnz = 0;
	for (i = 0; i < B->nb; i++) {
		uint64_t v = 1;

		for (k = 0; k < B->order; k++) {
			B->blk[i][k] = below(B->parts[k]);
			v *= B->ext[k][B->blk[i][k]];
		}
		B->nnz += v;
	}
	if (sorted)	/* insertion sort, stable: repeats stay */
		for (i = 1; i < B->nb; i++)
			for (j = i; j > 0 && cmp_prio(B->blk[j - 1],
			    B->blk[j], B->prio, B->order) > 0; j--) {
				uint64_t t[8];

				memcpy(t, B->blk[j], sizeof(t));
				memcpy(B->blk[j], B->blk[j - 1], sizeof(t));
				memcpy(B->blk[j - 1], t, sizeof(t));
			}
}

static char *
block_text(const struct blocks *B)
{
	char *s = malloc(1 << 16), *p = s;
	int k, i;

	p += sprintf(p, "%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: b\n%d",
	    B->order);
	for (k = 0; k < B->order; k++)
		p += sprintf(p, " %llu", (unsigned long long)B->dims[k]);
	p += sprintf(p, " %llu\n", (unsigned long long)B->nnz);
	for (k = 0; k < B->order; k++)
		p += sprintf(p, "%llu ", (unsigned long long)B->parts[k]);
	p += sprintf(p, "%d\n", B->nb);
	for (k = 0; k < B->order; k++)
		for (i = 0; i < (int)B->parts[k]; i++)
			p += sprintf(p, "%llu%c", (unsigned long long)
			    B->ext[k][i], i + 1 < (int)B->parts[k] ? ' ' :
			    '\n');
	for (i = 0; i < B->nb; i++)
		for (k = 0; k < B->order; k++)
			p += sprintf(p, "%llu%c", (unsigned long long)
			    B->blk[i][k], k + 1 < B->order ? ' ' : '\n');
	return s;
}

struct ready_arg {
	struct ts_flow		*f;
	struct ts_encoder	*enc;
};

static int
ready(void *arg)
{
	struct ready_arg *a = arg;

	ts_flow_output(a->f, a->enc);
	return 0;
}

/*
 * Expand B (and write its dense blocks) through a flow: the elements as
 * 0-based rows with values into *rows (n each order + 1 doubles), the
 * dense values into *dense.  Returns the count of elements, or -1.
 */
static long
run_blocks(const struct blocks *B, bool sorted, double **rows,
    double **dense)
{
	char *text = block_text(B), *p;
	struct memsink ks = { NULL, 0, 0 }, kd = { NULL, 0, 0 };
	struct ts_source *src = ts_source_open_mem(text, strlen(text), "b");
	struct ts_sink *k = ts_sink_new(&memsink_ops, &ks, "text");
	struct ts_sink *kb = ts_sink_new(&memsink_ops, &kd, "dense");
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_layout in = { TS_KIND_TEXT, true, 0, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_NONE, 0 };
	struct ts_layout out = { TS_KIND_TEXT, false, 1, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_NONE, 0 };
	struct ts_encode_opts eo = { .valfmt = TS_VALFMT_E16, .name = "e" };
	struct fe_genvalues_opts o;
	struct ts_meta m;
	struct ts_decoder *dec;
	struct ts_header oh;
	struct ts_genvalues *g;
	struct ready_arg ra;
	long n = -1, i;
	int c;

	fe_genvalues_opts_init(&o);
	o.seed = next64();
	ts_meta_init(&m);
	m.order = B->order;
	m.value_type = TS_VTYPE_FLOAT64;
	memcpy(m.dims, B->dims, sizeof(B->dims));
	g = fe_genvalues_new(&o, &m, d);
	ts_meta_free(&m);
	dec = ts_decoder_open(src, &in, d);
	if (dec == NULL || g == NULL)
		goto out;
	memset(&oh, 0, sizeof(oh));
	oh.order = B->order;
	memcpy(oh.dims, B->dims, sizeof(B->dims));
	oh.nnz = B->nnz;
	ra.f = ts_flow_new(dec, d, "b");
	ra.enc = ts_encoder_open(k, &oh, &out, &eo, d);
	ts_flow_add(ra.f, fe_stage_blocks_out(g, ts_decoder_header(dec), kb,
	    d));
	ts_flow_add(ra.f, fe_stage_expand(ts_decoder_header(dec), B->prio,
	    sorted, B->nnz, NULL, "b", d));
	ts_flow_add(ra.f, fe_stage_genvalues(g, 1, "b", d));
	if (ts_flow_run(ra.f, ready, &ra) == 0 &&
	    ts_encoder_close(ra.enc) == 0 && ts_diags_errors(d) == 0) {
		n = (long)B->nnz;
		*rows = malloc((size_t)n * (size_t)(B->order + 1) *
		    sizeof(double));
		p = ks.buf;
		ks.buf = realloc(ks.buf, ks.n + 1);
		ks.buf[ks.n] = '\0';
		p = ks.buf;
		for (c = 0; c < 4; c++)
			p = strchr(p, '\n') + 1;
		for (i = 0; i < n * (B->order + 1); i++)
			(*rows)[i] = strtod(p, &p);
		*dense = (double *)kd.buf;
		kd.buf = NULL;
		if (kd.n != (size_t)n * 8)
			n = -1;
	} else
		ts_encoder_close(ra.enc);
	ts_flow_free(ra.f);
out:
	ts_decoder_close(dec);
	ts_source_close(src);
	ts_sink_commit(k);
	ts_sink_commit(kb);
	free(ks.buf);
	free(kd.buf);
	free(text);
	fe_genvalues_free(g);
	ts_diags_free(d);
	return n;
}

static int row_order;

static int
cmp_rows(const void *a, const void *b)
{
	const double *x = a, *y = b;
	int k;

	for (k = 0; k < row_order; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return 0;
}

static void
test_blocks(void)
{
	int c, failed = 0, misordered = 0, missing = 0, dense_bad = 0;

	for (c = 0; c < 400; c++) {
		struct blocks B;
		bool sorted = below(2);
		double *rows = NULL, *dense = NULL;
		long n, i, e = 0;
		int k, bi;

		random_blocks(&B, sorted);
		n = run_blocks(&B, sorted, &rows, &dense);
		if (n < 0) {
			failed++;
			continue;
		}
		/* In order of the key, when sorted. */
		for (i = 1; sorted && i < n; i++) {
			uint64_t a[8], b[8];

			for (k = 0; k < B.order; k++) {
				a[k] = (uint64_t)rows[(i - 1) * (B.order + 1) + k];
				b[k] = (uint64_t)rows[i * (B.order + 1) + k];
			}
			if (cmp_prio(a, b, B.prio, B.order) > 0)
				misordered++;
		}
		/* Each block's elements, first mode fastest, are in the
		 * dense file in file order, with the values of the rows. */
		row_order = B.order;
		qsort(rows, (size_t)n, (size_t)(B.order + 1) * sizeof(double),
		    cmp_rows);
		for (bi = 0; bi < B.nb; bi++) {
			uint64_t x[8] = { 0 };

			for (;;) {
				double want[9];
				const double *row;

				for (k = 0; k < B.order; k++)
					want[k] = (double)(B.start[k]
					    [B.blk[bi][k]] + x[k]);
				row = bsearch(want, rows, (size_t)n,
				    (size_t)(B.order + 1) * sizeof(double),
				    cmp_rows);
				if (row == NULL)
					missing++;
				else if (row[B.order] != dense[e])
					dense_bad++;
				e++;
				for (k = 0; k < B.order; k++) {
					if (++x[k] < B.ext[k][B.blk[bi][k]])
						break;
					x[k] = 0;
				}
				if (k == B.order)
					break;
			}
		}
		free(rows);
		free(dense);
	}
	ok(failed == 0, "random block tensors expand and write dense blocks "
	    "(%d failed)", failed);
	ok(misordered == 0, "sorted blocks give sorted elements in the key's "
	    "priority (%d out of order)", misordered);
	ok(missing == 0, "every element of every block is there (%d "
	    "missing)", missing);
	ok(dense_bad == 0, "the dense blocks hold the values of the "
	    "elements, first mode fastest (%d differ)", dense_bad);
}

/* ---- the generators' logarithm and exponential ---- */

/* How many units in the last place a is from b. */
static double
ulps(double a, double b)
{
	if (a == b)
		return 0;
	return fabs(a - b) / (nextafter(fabs(b), INFINITY) - fabs(b));
}

/*
 * rng.c's ln, exp and pow against the C library's, on random arguments
 * across their ranges: within 2 units in the last place (and pow
 * within what its exponent magnifies).  Their bits are the same on
 * every machine; libm's need not be.
 */
static void
test_math(void)
{
	double worst_ln = 0, worst_exp = 0, worst_pow = 0, x, y, u;
	int i, special = 0;

	for (i = 0; i < 200000; i++) {
		x = ldexp(1 + (double)(next64() >> 11) * 0x1p-53,
		    (int)below(2000) - 1000);
		u = ulps(fe_rng_ln(x), log(x));
		/* Near 1, ln x is near 0: measured against x - 1. */
		if (fabs(x - 1) < 0.25)
			u = fabs(fe_rng_ln(x) - log(x)) / (0x1p-52 *
			    fabs(x - 1) + 0x1p-1074);
		worst_ln = u > worst_ln ? u : worst_ln;
		x = ((double)(next64() >> 11) * 0x1p-53 - 0.5) * 1400;
		u = ulps(fe_rng_exp(x), exp(x));
		if (exp(x) > 0x1p-1022)
			worst_exp = u > worst_exp ? u : worst_exp;
		x = 1 + (double)below(1000000);
		y = -((double)(next64() >> 11) * 0x1p-53) * 4;
		u = ulps(fe_rng_pow(x, y), pow(x, y)) / (1 + fabs(y *
		    log(x)));
		worst_pow = u > worst_pow ? u : worst_pow;
	}
	special += fe_rng_ln(1) != 0 || fe_rng_exp(0) != 1 ||
	    fe_rng_ln(0) != -HUGE_VAL || fe_rng_exp(710) != HUGE_VAL ||
	    fe_rng_exp(-746) != 0 || fe_rng_pow(7, 0) != 1;
	ok(worst_ln <= 2, "fe_rng_ln within 2 ulp of log (worst %.2f)",
	    worst_ln);
	ok(worst_exp <= 2, "fe_rng_exp within 2 ulp of exp (worst %.2f)",
	    worst_exp);
	ok(worst_pow <= 4, "fe_rng_pow within 4 ulp of pow per unit of "
	    "|y ln x| (worst %.2f)", worst_pow);
	ok(special == 0, "ln 1, exp 0, ln 0, overflow, underflow, x^0");
}

/* Division by an invariant divisor (values/divide.h) against '/': every
 * divisor's edges (1, powers of two and their neighbours, 2^63 and
 * above, the largest) and random ones of every size, each with dividends
 * at 0, near the divisor's multiples, near 2^64 and random. */
static void
test_divide(void)
{
	uint64_t ds[4096], ns[64], s = 0x5eed, d, n;
	struct fe_divisor v;
	size_t nd = 0, i, j, bad = 0, tried = 0;
	int b;

	ds[nd++] = 1;
	ds[nd++] = UINT64_MAX;
	for (b = 1; b < 64; b++) {
		ds[nd++] = (uint64_t)1 << b;
		ds[nd++] = ((uint64_t)1 << b) - 1;
		ds[nd++] = ((uint64_t)1 << b) + 1;
	}
	ds[nd++] = 3;
	ds[nd++] = 7;
	ds[nd++] = 1000;
	ds[nd++] = 2000;
	while (nd < sizeof(ds) / sizeof(ds[0])) {
		d = fe_rng_next(&s) >> (fe_rng_next(&s) % 64);
		ds[nd++] = d == 0 ? 1 : d;
	}
	for (i = 0; i < nd; i++) {
		d = ds[i];
		fe_divisor_init(&v, d);
		ns[0] = 0;
		ns[1] = UINT64_MAX;
		ns[2] = UINT64_MAX - 1;
		ns[3] = d - 1;
		ns[4] = d;
		ns[5] = d + 1;
		ns[6] = (UINT64_MAX / d) * d;
		ns[7] = (UINT64_MAX / d) * d - 1;
		for (j = 8; j < 64; j++)
			ns[j] = j % 2 ? fe_rng_next(&s) : (fe_rng_next(&s) %
			    (UINT64_MAX / d)) * d - (j % 4 == 0);
		for (j = 0; j < 64; j++) {
			n = ns[j];
			tried++;
			if (fe_divide(&v, n) != n / d && bad++ < 5)
				fprintf(stderr, "divide: %llu / %llu gave %llu\n",
				    (unsigned long long)n, (unsigned long long)d,
				    (unsigned long long)fe_divide(&v, n));
		}
	}
	ok(bad == 0, "division by an invariant divisor is exact (%zu "
	    "quotients, %zu divisors)", tried, nd);
}

int
main(void)
{
	test_math();
	test_constraints();
	test_symmetry();
	test_blocks();
	test_divide();
	return tap_done();
}
