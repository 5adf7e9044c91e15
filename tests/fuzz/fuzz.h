/*
 * fuzz.h - what the libFuzzer harnesses share: a source over the fuzzer's
 * bytes, a sink into memory, a bundle namespace held in memory, and the
 * passes that ts-convert makes over an import (inference, then encoding),
 * all through the public interface, tensorsuite.h, as a C program using
 * the library would.  Each harness is one fuzz_*.c file; see
 * tests/fuzz/README.md.
 */
#ifndef TS_FUZZ_H
#define TS_FUZZ_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A property of the library failed: stop with the fuzzer's crash. */
#define FUZZ_ASSERT(c)	do {						\
	if (!(c)) {							\
		fprintf(stderr, "%s:%d: property failed: %s\n",	\
		    __FILE__, __LINE__, #c);				\
		abort();						\
	}								\
} while (0)

/* ---- a source over bytes in memory ---- */

struct memsrc {
	const uint8_t	*p;
	size_t		 n, off;
};

static long
mem_read(void *ctx, void *buf, size_t n)
{
	struct memsrc *m = ctx;

	/* Small reads, so that a line or a record straddles them. */
	if (n > 1000)
		n = 1000;
	if (n > m->n - m->off)
		n = m->n - m->off;
	memcpy(buf, m->p + m->off, n);
	m->off += n;
	return (long)n;
}

static int
mem_rewind(void *ctx)
{
	((struct memsrc *)ctx)->off = 0;
	return 0;
}

static int
mem_close(void *ctx)
{
	free(ctx);
	return 0;
}

/* No pread: the decoders read this one in small pieces, on one thread;
 * the threaded parse gets the library's ts_source_open_mem. */
static const struct ts_source_ops memsrc_ops = { mem_read, mem_rewind,
    mem_close, NULL };

static struct ts_source *
fuzz_source(const uint8_t *p, size_t n, const char *name)
{
	struct memsrc *m = calloc(1, sizeof(*m));

	if (m == NULL)
		abort();
	m->p = p;
	m->n = n;
	return ts_source_new(&memsrc_ops, m, name, (int64_t)n);
}

/* ---- a sink into memory ---- */

struct memsink {
	char	*buf;
	size_t	 n, cap;
};

static int
msink_write(void *ctx, const void *buf, size_t n)
{
	struct memsink *k = ctx;

	if (k->n + n > k->cap) {
		while (k->n + n > k->cap)
			k->cap = k->cap ? 2 * k->cap : 4096;
		if ((k->buf = realloc(k->buf, k->cap)) == NULL)
			abort();
	}
	memcpy(k->buf + k->n, buf, n);
	k->n += n;
	return 0;
}

static int
msink_commit(void *ctx)
{
	(void)ctx;	/* the harness owns the buffer */
	return 0;
}

static void
msink_abort(void *ctx)
{
	(void)ctx;
}

static const struct ts_sink_ops memsink_ops = { msink_write, msink_commit,
    msink_abort };

/* ---- a bundle held in memory ---- */

#define NSFILES	4

struct memns {
	const char	*name[NSFILES];
	const uint8_t	*data[NSFILES];
	size_t		 len[NSFILES];
	int		 n;
};

static int
ns_find(struct memns *ns, const char *name)
{
	int i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->name[i], name) == 0)
			return i;
	return -1;
}

static int
ns_stat(void *ctx, const char *name, struct ts_file_stat *fs)
{
	int i = ns_find(ctx, name);

	if (i < 0) {
		errno = ENOENT;
		return -1;
	}
	fs->regular = true;
	fs->size = (int64_t)((struct memns *)ctx)->len[i];
	return 0;
}

static char *
ns_path(void *ctx, const char *name)
{
	char *p = malloc(strlen(name) + 5);

	(void)ctx;
	if (p == NULL)
		abort();
	sprintf(p, "mem/%s", name);
	return p;
}

static struct ts_source *
ns_open(void *ctx, const char *name)
{
	struct memns *ns = ctx;
	int i = ns_find(ns, name);
	struct ts_source *s;
	char *p;

	if (i < 0) {
		errno = ENOENT;
		return NULL;
	}
	p = ns_path(ctx, name);
	s = fuzz_source(ns->data[i], ns->len[i], p);
	free(p);
	return s;
}

static int
ns_list(void *ctx, int (*fn)(const char *, void *), void *arg)
{
	struct memns *ns = ctx;
	int i, rv = 0;

	for (i = 0; i < ns->n && rv == 0; i++)
		rv = fn(ns->name[i], arg);
	return rv;
}

static void
ns_free(void *ctx)
{
	(void)ctx;	/* on the harness's stack */
}

static const struct ts_bundle_ns_ops memns_ops = { ns_stat, ns_open,
    ns_path, ns_list, ns_free, NULL };

static void
ns_add(struct memns *ns, const char *name, const void *p, size_t n)
{
	ns->name[ns->n] = name;
	ns->data[ns->n] = p;
	ns->len[ns->n++] = n;
}

/* ---- reading everything, as the tools do ---- */

/* Decode every batch; the count of entries, or -1. */
static long
fuzz_drain(struct ts_decoder *dec, int order)
{
	struct ts_batch b;
	long n, total = 0;

	ts_batch_init(&b, order, 64);
	while ((n = ts_decoder_next(dec, &b)) > 0)
		total += n;
	ts_batch_free(&b);
	return n < 0 ? -1 : total;
}

/*
 * Everything a decoder of text gives, its rows found the way TS_SCAN
 * says (NULL: the best the CPU has): each entry (coordinates, value
 * bits, line, value text) and each message (line, column, rule, text),
 * printed into one string (malloc'd).
 */
static inline char *
fuzz_scan(const uint8_t *p, size_t n, const struct ts_layout *lay,
    const char *way)
{
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_source *src = fuzz_source(p, n, "f");
	struct ts_decoder *dec;
	struct ts_batch b;
	char *out = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&out, &len);
	long r;
	int k, ord;

	FUZZ_ASSERT(fp != NULL);
	if (way != NULL)
		setenv("TS_SCAN", way, 1);
	dec = ts_decoder_open(src, lay, d);
	unsetenv("TS_SCAN");
	if (dec != NULL) {
		ord = ts_decoder_header(dec)->order;
		ts_batch_init(&b, ord, 64);
		while ((r = ts_decoder_next(dec, &b)) > 0)
			for (i = 0; i < b.n; i++) {
				uint64_t u;

				for (k = 0; k < ord; k++)
					fprintf(fp, "%llu ", (unsigned long long)
					    b.coords[i * (size_t)ord + k]);
				memcpy(&u, &b.fval[i], 8);
				if (ts_decoder_layout(dec)->values > 0)
					fprintf(fp, "%llx %lld '%.*s' ",
					    (unsigned long long)(b.is_int ? 0 :
					    u), (long long)(b.is_int ? b.ival[i] :
					    0), (int)b.vlen[i], b.vtext[i]);
				fprintf(fp, "@%llu\n",
				    (unsigned long long)b.loc[i]);
			}
		fprintf(fp, "end %ld, %llu rows\n", r,
		    (unsigned long long)ts_decoder_rows(dec));
		ts_batch_free(&b);
		ts_decoder_close(dec);
	}
	for (i = 0; i < ts_diags_len(d); i++) {
		const struct ts_diag *g = ts_diags_at(d, i);

		fprintf(fp, "%d %llu:%llu [%s] %s\n", (int)g->sev,
		    (unsigned long long)g->line, (unsigned long long)g->col,
		    ts_rule_id(g->rule), g->msg);
	}
	FUZZ_ASSERT(fclose(fp) == 0);
	ts_source_close(src);
	ts_diags_free(d);
	return out;
}

/*
 * An import the way ts-convert makes it (FROSTT, Matrix Market): a first
 * pass infers what the entries are; a second one bounds them by the
 * dimensions found and encodes them as TensorSuite text and binary into
 * memory; then the text written must read back, as text, to as many
 * entries with no error.
 */
static inline void
fuzz_import(const uint8_t *p, size_t n, struct ts_layout *lay)
{
	struct ts_diags *d = ts_diags_new(4, false);
	struct ts_source *src = fuzz_source(p, n, "in");
	struct ts_inferred inf;
	struct ts_decoder *dec;
	const struct ts_header *h;
	struct ts_flow *f;
	struct memsink out[2];
	struct ts_sink *k[2];
	struct ts_encoder *enc[2];
	struct ts_layout ol[2];
	struct ts_header oh;
	struct ts_encode_opts eo;
	uint64_t lim[TS_MAXORDER];
	int order, base, i, kk;
	bool ok;

	/* FROSTT's rows found a vector at a time are those found a byte at
	 * a time. */
	if (lay->kind == TS_KIND_FROSTT) {
		char *fast = fuzz_scan(p, n, lay, NULL);
		char *slow = fuzz_scan(p, n, lay, "scalar");

		FUZZ_ASSERT(strcmp(fast, slow) == 0);
		free(fast);
		free(slow);
	}
	memset(&inf, 0, sizeof(inf));
	if ((dec = ts_decoder_open(src, lay, d)) == NULL)
		goto out;
	h = ts_decoder_header(dec);
	order = h->order;
	FUZZ_ASSERT(order >= 1 && order <= TS_MAXORDER);
	f = ts_flow_new(dec, d, "in");
	ts_flow_keep_going(f, true);
	ts_flow_add(f, ts_stage_infer(order, false, &inf));
	ts_flow_run(f, NULL, NULL);
	ts_flow_free(f);
	*lay = *ts_decoder_layout(dec);
	base = lay->kind == TS_KIND_FROSTT ? 1 : lay->base;
	for (kk = 0; kk < order; kk++)
		if (inf.n > 0 && inf.min[kk] == 0 && lay->kind ==
		    TS_KIND_FROSTT)
			base = 0;
	memset(&oh, 0, sizeof(oh));
	oh.order = order;
	for (kk = 0; kk < order; kk++)
		oh.dims[kk] = h->dims_known ? h->dims[kk] : inf.n == 0 ? 1 :
		    inf.max[kk] + 1 - (uint64_t)(lay->kind == TS_KIND_FROSTT ?
		    base : 0);
	oh.nnz = inf.n;
	/* ts-convert refuses a dimension metadata cannot state (S1). */
	for (kk = 0; kk < order; kk++)
		if (oh.dims[kk] > (uint64_t)INT64_MAX)
			goto out;
	ts_infer_whole(&inf, lay->kind == TS_KIND_FROSTT ? (uint64_t)base : 0,
	    oh.dims);
	ts_decoder_close(dec);
	dec = NULL;
	ok = ts_diags_errors(d) == 0;
	if (!ok)
		goto out;

	/* The second pass, through bounds, to text and binary. */
	if (lay->kind == TS_KIND_FROSTT)
		lay->base = base;
	if (ts_source_rewind(src) != 0 ||
	    (dec = ts_decoder_open(src, lay, d)) == NULL)
		goto out;
	memset(out, 0, sizeof(out));
	memset(&eo, 0, sizeof(eo));
	eo.name = "t";
	for (i = 0; i < 2; i++) {
		ol[i] = *ts_decoder_layout(dec);
		ol[i].kind = i == 0 ? TS_KIND_TEXT : TS_KIND_BINARY;
		ol[i].base = 1;
		ol[i].itype = TS_ITYPE_UINT64;
		ol[i].endian = TS_ENDIAN_LITTLE;
		k[i] = ts_sink_new(&memsink_ops, &out[i], i ? "t.tnsb" :
		    "t.tns");
		enc[i] = ts_encoder_open(k[i], &oh, &ol[i], &eo, d);
		FUZZ_ASSERT(enc[i] != NULL);
	}
	for (kk = 0; kk < order; kk++)
		lim[kk] = oh.dims[kk];
	f = ts_flow_new(dec, d, "in");
	ts_flow_add(f, ts_stage_bounds(lim, order, lay->base, false, d));
	for (i = 0; i < 2; i++)
		ts_flow_output(f, enc[i]);
	ok = ts_flow_run(f, NULL, NULL) == 0 && ts_diags_errors(d) == 0;
	FUZZ_ASSERT(!ok || ts_flow_delivered(f) == oh.nnz);
	ts_flow_free(f);
	for (i = 0; i < 2; i++) {
		ok &= ts_encoder_close(enc[i]) == 0;
		ok &= ts_sink_commit(k[i]) == 0;
	}
	if (ok) {
		/* What we wrote must read back: as many entries, no error. */
		struct ts_diags *d2 = ts_diags_new(4, false);
		struct ts_source *s2;
		struct ts_decoder *dec2;

		for (i = 0; i < 2; i++) {
			s2 = fuzz_source((const uint8_t *)out[i].buf,
			    out[i].n, i ? "t.tnsb" : "t.tns");
			dec2 = ts_decoder_open(s2, &ol[i], d2);
			FUZZ_ASSERT(dec2 != NULL);
			FUZZ_ASSERT(fuzz_drain(dec2, order) == (long)oh.nnz);
			FUZZ_ASSERT(ts_diags_errors(d2) == 0);
			ts_decoder_close(dec2);
			ts_source_close(s2);
		}
		ts_diags_free(d2);
	}
	free(out[0].buf);
	free(out[1].buf);
out:
	ts_inferred_free(&inf);
	ts_decoder_close(dec);
	ts_source_close(src);
	ts_diags_free(d);
}

/*
 * A bundle read and checked as ts-validate checks it: the first three
 * bytes are the attributes its metadata states (value and index types,
 * base, values, block, sortedness, duplicates, zeros, domain, symmetry,
 * endianness, and whether a binary copy written by our encoder sits
 * beside a text file); the rest is the data file of the kind given.  The
 * metadata takes its order, dimensions and counts from the file's header,
 * so that the checks reach the entries.
 */
static inline void
fuzz_bundle(const uint8_t *data, size_t size, enum ts_kind kind)
{
	static const enum ts_vtype vt[] = { TS_VTYPE_FLOAT64, TS_VTYPE_FLOAT32,
	    TS_VTYPE_INT32, TS_VTYPE_INT64 };
	struct ts_diags *d;
	struct ts_check_opts co;
	struct ts_layout lay, bl;
	struct ts_decoder *dec;
	struct ts_source *src;
	struct ts_bundle *bd;
	const struct ts_header *h;
	struct ts_meta m;
	struct memns ns;
	struct memsink bin;
	char *mtext, *mname, *dname, *bname;
	const uint8_t *p;
	uint8_t a, b, c;
	size_t n;
	long one;
	int k;

	if (size < 3)
		return;
	a = data[0], b = data[1], c = data[2];
	p = data + 3;
	n = size - 3;
	memset(&lay, 0, sizeof(lay));
	lay.kind = kind;
	lay.block = (a & 0x10) != 0;
	lay.values = lay.block ? 0 : (a >> 3) & 1;
	lay.vtype = vt[a & 3];
	lay.base = (a >> 2) & 1;
	lay.itype = (b & 1) ? TS_ITYPE_UINT32 : TS_ITYPE_UINT64;
	lay.endian = kind == TS_KIND_BINARY ? ((b & 2) ? TS_ENDIAN_BIG :
	    TS_ENDIAN_LITTLE) : TS_ENDIAN_NONE;

	/* The decoder alone. */
	d = ts_diags_new(4, false);
	src = fuzz_source(p, n, "f");
	if ((dec = ts_decoder_open(src, &lay, d)) == NULL) {
		ts_source_close(src);
		ts_diags_free(d);
		return;
	}
	h = ts_decoder_header(dec);
	one = fuzz_drain(dec, h->order);
	/* Text parsed by three threads, in chunks of 64 bytes (TS_CHUNK):
	 * as many entries and as many messages as one thread gives. */
	if (kind == TS_KIND_TEXT && (c & 0x40)) {
		struct ts_diags *d3 = ts_diags_new(4, false);
		struct ts_source *s3 = ts_source_open_mem(p, n, "f");
		struct ts_decoder *dec3;

		setenv("TS_CHUNK", "64", 1);
		/* The one-thread open succeeded. */
		FUZZ_ASSERT((dec3 = ts_decoder_open(s3, &lay, d3)) != NULL);
		ts_decoder_set_threads(dec3, 3);
		FUZZ_ASSERT(fuzz_drain(dec3, h->order) == one);
		FUZZ_ASSERT(ts_diags_len(d3) == ts_diags_len(d));
		ts_decoder_close(dec3);
		ts_source_close(s3);
		ts_diags_free(d3);
	}

	/* Rows found a vector or a word at a time are those found a byte
	 * at a time: the same entries, the same messages. */
	if (kind == TS_KIND_TEXT) {
		char *fast = fuzz_scan(p, n, &lay, NULL);
		char *slow = fuzz_scan(p, n, &lay, "scalar");
		char *word = fuzz_scan(p, n, &lay, "swar");

		FUZZ_ASSERT(strcmp(fast, slow) == 0);
		FUZZ_ASSERT(strcmp(word, slow) == 0);
		free(fast);
		free(slow);
		free(word);
	}

	/* Metadata that agrees with the header. */
	ts_meta_init(&m);
	m.name = strdup(h->name != NULL && ts_valid_name(h->name) ? h->name :
	    "f");
	m.version = strdup("0.1");
	m.group = strdup("");
	m.id = strdup("0000");
	m.time = strdup("2026-01-01");
	m.source_type = strdup("real");
	m.source = strdup("");
	m.source_url = strdup("");
	m.value_type = lay.vtype;
	m.value_domain = (enum ts_domain)(((b >> 2) & 3) % 3);
	m.values_provided = lay.values > 0;
	m.index_type = lay.itype;
	m.index_base = lay.base;
	m.order = h->order;
	m.sorted = (b & 0x10) != 0;
	m.nsort = m.sorted ? h->order : 0;
	for (k = 0; k < m.nsort; k++)
		m.sort_order[k] = (b & 0x20) ? h->order - 1 - k : k;
	m.dups_allowed = (a & 0x20) != 0;
	m.zeros_allowed = (a & 0x40) != 0;
	m.psym = (enum ts_sym)(((b >> 6) & 3) % 3);
	m.nsym = (a & 0x80) ? m.psym : TS_SYM_NO;
	m.sparsity = lay.block ? TS_SPARSITY_BLOCK : TS_SPARSITY_ELEMENT;
	m.endianness = lay.endian;
	memcpy(m.dims, h->dims, sizeof(m.dims));
	m.nnz = h->nnz;
	memcpy(m.parts, h->parts, sizeof(m.parts));
	m.nnz_block = h->nnz_block;
	dname = malloc(strlen(m.name) + 16);
	bname = malloc(strlen(m.name) + 16);
	mname = malloc(strlen(m.name) + 16);
	if (dname == NULL || bname == NULL || mname == NULL)
		abort();
	sprintf(dname, "%s.%s", m.name, kind == TS_KIND_TEXT ? "tns" : "tnsb");
	sprintf(bname, "%s.tnsb", m.name);
	sprintf(mname, "%s_metadata.json", m.name);
	if (kind == TS_KIND_TEXT)
		m.f_text = strdup(dname);
	else
		m.f_binary = strdup(dname);
	m.f_readme = strdup("README.md");
	memset(&ns, 0, sizeof(ns));
	ns_add(&ns, dname, p, n);
	ns_add(&ns, "README.md", "", 0);

	/* Beside a text file, its binary copy as our encoder writes it. */
	memset(&bin, 0, sizeof(bin));
	if (kind == TS_KIND_TEXT && (c & 1) && ts_source_rewind(src) == 0) {
		struct ts_decoder *d2 = ts_decoder_open(src, &lay, d);
		struct ts_sink *k2 = ts_sink_new(&memsink_ops, &bin, bname);
		struct ts_encoder *e2;
		struct ts_batch bt;
		bool ok = d2 != NULL;
		long r = 0;

		bl = lay;
		bl.kind = TS_KIND_BINARY;
		bl.endian = (c & 2) ? TS_ENDIAN_BIG : TS_ENDIAN_LITTLE;
		if (ok)
			bl.values = ts_decoder_layout(d2)->values;
		e2 = ok ? ts_encoder_open(k2, ts_decoder_header(d2), &bl,
		    NULL, d) : NULL;
		ok = e2 != NULL;
		ts_batch_init(&bt, h->order, 64);
		while (ok && (r = ts_decoder_next(d2, &bt)) > 0)
			ok = ts_encoder_put(e2, &bt) == 0;
		ts_batch_free(&bt);
		if (e2 != NULL && ts_encoder_close(e2) != 0)
			ok = false;
		if (ok && r == 0)
			ok = ts_sink_commit(k2) == 0;
		else {
			ts_sink_abort(k2);
			ok = false;
		}
		ts_decoder_close(d2);
		if (ok) {
			m.f_binary = strdup(bname);
			m.endianness = bl.endian;
			ns_add(&ns, bname, bin.buf, bin.n);
		}
	}
	ts_decoder_close(dec);
	ts_source_close(src);
	mtext = ts_meta_canonical(&m);
	ns_add(&ns, mname, mtext, strlen(mtext));

	/* The checks of ts-validate. */
	ts_diags_clear(d);
	bd = ts_bundle_open_ns(&memns_ops, &ns, m.name, "mem", d);
	memset(&co, 0, sizeof(co));
	ts_check_bundle(bd, &co, d);
	ts_bundle_free(bd);

	free(mtext);
	free(bin.buf);
	free(mname);
	free(bname);
	free(dname);
	ts_meta_free(&m);
	ts_diags_free(d);
}

#endif
