/*
 * test_lib.c - unit tests of libtensorsuite's decoders, encoders,
 * metadata and diagnostics.  Prints TAP; exit status 1 when a test fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "tap.h"


static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static char tmpdir[] = "/tmp/ts-unit-XXXXXX";

/* Fill a batch with n random entries of the given layout. */
static void
random_batch(struct ts_batch *b, const struct ts_header *h,
    const struct ts_layout *l, size_t n)
{
	size_t i;
	int k;

	b->n = n;
	b->has_values = l->values > 0;
	b->is_int = l->vtype == TS_VTYPE_INT32 || l->vtype == TS_VTYPE_INT64;
	for (i = 0; i < n; i++) {
		for (k = 0; k < h->order; k++)
			b->coords[i * (size_t)h->order + k] = next64() %
			    h->dims[k];
		switch (l->vtype) {
		case TS_VTYPE_FLOAT64: {
			uint64_t u = next64();
			double d;

			memcpy(&d, &u, 8);
			if (isnan(d))
				d = 0.5;
			b->fval[i] = d;
			break;
		}
		case TS_VTYPE_FLOAT32: {
			uint32_t u = (uint32_t)next64();
			float f;

			memcpy(&f, &u, 4);
			if (isnan(f))
				f = 0.25f;
			b->fval[i] = f;
			break;
		}
		case TS_VTYPE_INT32:
			b->ival[i] = (int32_t)(uint32_t)next64();
			break;
		case TS_VTYPE_INT64:
			b->ival[i] = (int64_t)next64();
			break;
		case TS_VTYPE_COUNT:
			break;
		}
	}
}

/*
 * Write n random entries with layout l, read them back, and compare
 * coordinates and value bits.
 */
static int
roundtrip(const struct ts_layout *l, int order, size_t n, const char *what)
{
	struct ts_header h;
	struct ts_batch in, out;
	struct ts_encode_opts eo = { .valfmt = TS_VALFMT_SHORTEST, .name = "rt" };
	struct ts_encoder *w;
	struct ts_decoder *r;
	struct ts_source *src;
	struct ts_sink *snk;
	struct ts_diags *d;
	char path[256];
	size_t got = 0, i;
	int fd, k, same = 1;
	long m;

	memset(&h, 0, sizeof(h));
	h.order = order;
	for (k = 0; k < order; k++)
		h.dims[k] = l->itype == TS_ITYPE_UINT32 ? UINT32_MAX - 1 :
		    (uint64_t)1 << 62;
	h.nnz = n;
	ts_batch_init(&in, order, n);
	ts_batch_init(&out, order, 1000);
	random_batch(&in, &h, l, n);
	snprintf(path, sizeof(path), "%s/rt.%s", tmpdir,
	    l->kind == TS_KIND_TEXT ? "tns" : "tnsb");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	snk = ts_sink_open_fd(fd, path, true);
	d = ts_diags_new(5, false);
	w = ts_encoder_open(snk, &h, l, &eo, d);
	if (w == NULL || ts_encoder_put(w, &in) != 0 ||
	    ts_encoder_close(w) != 0 || ts_sink_commit(snk) != 0)
		same = 0;
	src = ts_source_open_file(path);
	r = ts_decoder_open(src, l, d);
	if (r == NULL) {
		ts_diags_print(d, stdout, NULL);
		same = 0;
		goto done;
	}
	while (same && (m = ts_decoder_next(r, &out)) > 0) {
		for (i = 0; i < out.n && got + i < n; i++) {
			size_t j = got + i;

			if (memcmp(out.coords + i * (size_t)order, in.coords +
			    j * (size_t)order, (size_t)order * 8) != 0)
				same = 0;
			if (l->values && (out.is_int ? out.ival[i] !=
			    in.ival[j] : memcmp(&out.fval[i], &in.fval[j], 8) !=
			    0)) {
				printf("# entry %zu: value differs\n", j);
				same = 0;
			}
		}
		got += out.n;
	}
	if (got != n || ts_diags_errors(d) != 0) {
		ts_diags_print(d, stdout, NULL);
		same = 0;
	}
	ts_decoder_close(r);
done:
	ts_source_close(src);
	ts_diags_free(d);
	ts_batch_free(&in);
	ts_batch_free(&out);
	ok(same, "%s: %zu random entries round-trip", what, n);
	return same;
}

/* The round trip of the layout of kind, endianness e (1 little, 2
 * big), index type it and base, with values of type vt or none (vt
 * TS_VTYPE_COUNT), at order. */
static void
roundtrip_of(int kind, int e, int it, int base, enum ts_vtype vt, int order)
{
	struct ts_layout l;
	char what[128];

	memset(&l, 0, sizeof(l));
	l.kind = (enum ts_kind)kind;
	l.values = vt != TS_VTYPE_COUNT;
	l.vtype = vt != TS_VTYPE_COUNT ? vt : TS_VTYPE_FLOAT64;
	l.itype = (enum ts_itype)it;
	l.endian = kind == TS_KIND_TEXT ? TS_ENDIAN_NONE : (enum ts_endian)e;
	l.base = base;
	snprintf(what, sizeof(what), "%s %s %s %s base %d",
	    kind ? "binary" : "text", kind ? (e == 1 ? "little" : "big") : "",
	    vt != TS_VTYPE_COUNT ? ts_vtype_name(vt) : "no values",
	    ts_itype_name((enum ts_itype)it), base);
	roundtrip(&l, order, 20000, what);
}

static void
test_roundtrips(void)
{
	static const enum ts_vtype vt[] = { TS_VTYPE_FLOAT32, TS_VTYPE_FLOAT64,
	    TS_VTYPE_INT32, TS_VTYPE_INT64 };
	int kind, e, v, it, base;

	for (kind = 0; kind < 2; kind++)
		for (e = 1; e <= 2; e++)
			for (it = 0; it < 2; it++) {
				if (kind == TS_KIND_TEXT && e == 2)
					continue;
				for (v = 0; v < 4; v++)
					roundtrip_of(kind, e, it, (v + it) % 2,
					    vt[v], 1 + (v + it) % 4);
				/* Records of coordinates alone. */
				for (base = 0; base < 2; base++)
					roundtrip_of(kind, e, it, base,
					    TS_VTYPE_COUNT, 2 + base + it);
			}
}

/* Big-endian records are really big-endian on disk. */
static void
test_byte_order(void)
{
	struct ts_header h;
	struct ts_layout l;
	struct ts_batch b;
	struct ts_encode_opts eo = { .valfmt = TS_VALFMT_SHORTEST, .name = "be" };
	struct ts_encoder *w;
	struct ts_sink *k;
	unsigned char buf[256];
	char path[256];
	ssize_t n;
	int fd;
	static const unsigned char want[] = {
		0, 0, 0, 2, 0, 0, 0, 3,			/* uint32 coords 2, 3 */
		0x40, 0x04, 0, 0, 0, 0, 0, 0		/* 2.5 as float64 */
	};

	memset(&h, 0, sizeof(h));
	memset(&l, 0, sizeof(l));
	h.order = 2;
	h.dims[0] = h.dims[1] = 9;
	h.nnz = 1;
	l.kind = TS_KIND_BINARY;
	l.values = 1;
	l.vtype = TS_VTYPE_FLOAT64;
	l.itype = TS_ITYPE_UINT32;
	l.endian = TS_ENDIAN_BIG;
	l.base = 1;
	ts_batch_init(&b, 2, 1);
	b.n = 1;
	b.has_values = true;
	b.coords[0] = 1;
	b.coords[1] = 2;
	b.fval[0] = 2.5;
	snprintf(path, sizeof(path), "%s/be.tnsb", tmpdir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	k = ts_sink_open_fd(fd, path, false);
	w = ts_encoder_open(k, &h, &l, &eo, NULL);
	ts_encoder_put(w, &b);
	ts_encoder_close(w);
	ts_sink_commit(k);
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	ts_batch_free(&b);
	ok(n > 16 && memcmp(buf + n - 16, want, 16) == 0 &&
	    memcmp(buf, "%%TensorSuite-TNSB\n% version: 0.1\n% name: be\n"
	    "2 9 9 1\n", (size_t)n - 16) == 0,
	    "binary big-endian record bytes are as SPEC E3 says");
}

static const char meta_text[] =
    "{\"nnz\": 3, \"version\": \"0.1\", \"name\": \"m\", \"group\": \"g\\u00e9\","
    " \"id\": \"0042\", \"time\": \"2024-02-29\", \"source_type\": \"real\","
    " \"source\": \"a \\\"quoted\\\" source\", \"source_url\": "
    "\"https://example.org/x\", \"value_type\": \"float32\","
    " \"value_domain\": \"nonnegative\", \"values_provided\": true,"
    " \"index_type\": \"uint32\", \"index_base\": 1, \"sorted\": "
    "\"lexicographic\", \"sort_order\": [2, 1], \"duplicates\": "
    "\"disallowed\", \"explicit_zeros\": \"allowed\", \"pattern_symmetry\":"
    " \"full\", \"numerical_symmetry\": \"partial\", \"sparsity_type\": "
    "\"element\", \"dense_modes\": [], \"endianness\": \"big\", \"order\": 2,"
    " \"dimensions\": [7, 7], \"block_partitions\": null, \"nnz_block\": "
    "null, \"files\": {\"config\": \"c.yaml\", \"binary\": \"m.tnsb\", "
    "\"readme\": \"README.md\"}, \"zz_extra\": {\"a\": [1, 2], \"b\": null}}";

static void
test_canonical(void)
{
	struct ts_meta m1, m2;
	struct ts_diags *d = ts_diags_new(0, false);
	char *c1, *c2;

	ts_meta_init(&m1);
	ts_meta_init(&m2);
	ts_meta_parse(&m1, meta_text, sizeof(meta_text) - 1, "m", d);
	ok(ts_diags_errors(d) == 0 && ts_diags_count(d, TS_SEV_WARNING) == 1,
	    "metadata with an unknown key parses with one warning");
	c1 = ts_meta_canonical(&m1);
	ts_meta_parse(&m2, c1, strlen(c1), "m", d);
	c2 = ts_meta_canonical(&m2);
	ok(strcmp(c1, c2) == 0, "canonical metadata: write, read, write gives "
	    "the same bytes");
	ok(strncmp(c1, "{\n  \"version\": \"0.1\",\n  \"name\": \"m\",\n", 37)
	    == 0 && strstr(c1, "\"sort_order\": [2, 1],\n") != NULL &&
	    strstr(c1, "\"files\": {\n    \"binary\": \"m.tnsb\",\n    "
	    "\"readme\": \"README.md\",\n    \"config\": \"c.yaml\"\n  },\n")
	    != NULL && strstr(c1, "\"zz_extra\"") != NULL &&
	    c1[strlen(c1) - 1] == '\n' && c1[strlen(c1) - 2] == '}',
	    "canonical metadata: table order, one-line arrays, files nested, "
	    "unknown keys kept");
	free(c1);
	free(c2);
	ts_meta_free(&m1);
	ts_meta_free(&m2);
	ts_diags_free(d);
}

static void
test_meta_errors(void)
{
	struct ts_meta m;
	struct ts_diags *d;
	static const char dup[] = "{\"a\": 1,\n \"a\": 2}";
	static const char bad[] = "{\n  \"a\": [1, 2,\n}";

	d = ts_diags_new(0, false);
	ts_meta_init(&m);
	ok(ts_meta_parse(&m, dup, sizeof(dup) - 1, "f", d) == -1 &&
	    ts_diags_len(d) == 1 && ts_diags_at(d, 0)->rule == TS_RULE_M1 &&
	    ts_diags_at(d, 0)->line == 2,
	    "duplicate keys are rejected with their line [M1]");
	ts_meta_free(&m);
	ts_diags_free(d);
	d = ts_diags_new(0, false);
	ts_meta_init(&m);
	ok(ts_meta_parse(&m, bad, sizeof(bad) - 1, "f", d) == -1 &&
	    ts_diags_len(d) == 1 && ts_diags_at(d, 0)->line == 3,
	    "a JSON syntax error is located by line [M1]");
	ts_meta_free(&m);
	ts_diags_free(d);
}

static void
test_diag_cap(void)
{
	struct ts_diags *d = ts_diags_new(3, true);
	int i;

	for (i = 0; i < 10; i++)
		ts_diag(d, TS_SEV_WARNING, "f", (uint64_t)i + 1, 1, TS_RULE_S1,
		    "w%d", i);
	ts_diag(d, TS_SEV_NOTE, "f", 1, 1, TS_RULE_S2, "n");
	ok(ts_diags_len(d) == 4 && ts_diags_count(d, TS_SEV_ERROR) == 10 &&
	    ts_diags_suppressed(d) == 7 && ts_diags_at(d, 0)->sev ==
	    TS_SEV_ERROR, "diagnostics: cap per rule, counts kept, strict "
	    "promotes warnings");
	ts_diags_free(d);
}

/* Is the last message of d a K4 error that says what? */
static bool
last_msg(const struct ts_diags *d, const char *what)
{
	const struct ts_diag *g;

	if (ts_diags_len(d) == 0)
		return false;
	g = ts_diags_at(d, ts_diags_len(d) - 1);
	return g->sev == TS_SEV_ERROR && g->rule == TS_RULE_K4 &&
	    strstr(g->msg, what) != NULL;
}

static void
test_cutensor(void)
{
	struct ts_cutensor ct;
	struct ts_header h;
	uint64_t e0[] = { 2, 2, 2 }, e1[] = { 3, 1 };
	uint64_t coords[] = { 0, 0, 1, 1, 2, 0 }, big[] = { 0, 1u << 31 };
	struct ts_diags *d = ts_diags_new(0, false);
	int rv;

	memset(&h, 0, sizeof(h));
	h.order = 2;
	h.block = true;
	h.dims[0] = 6;
	h.dims[1] = 4;
	h.parts[0] = 3;
	h.parts[1] = 2;
	h.extents[0] = e0;
	h.extents[1] = e1;
	rv = ts_cutensor_fill(&ct, &h, coords, 3, d);
	ok(rv == 0 && ct.num_modes == 2 && ct.sections[0] == 3 &&
	    ct.sections[1] == 2 && ct.extent[2] == 2 && ct.extent[3] == 3 &&
	    ct.extent[4] == 1 && ct.num_blocks == 3 && ct.coords[4] == 2 &&
	    ct.coords[5] == 0, "cuTENSOR arrays: sections, extents mode by "
	    "mode, int32 coordinates in file order (K4)");
	ts_cutensor_free(&ct);
	rv = ts_cutensor_fill(&ct, &h, big, 1, d);
	ok(rv == -1 && last_msg(d, "int32"),
	    "cuTENSOR arrays: a coordinate beyond int32 is refused");
	h.order = 9;
	rv = ts_cutensor_fill(&ct, &h, coords, 0, d);
	ok(rv == -1 && last_msg(d, "at most 8"),
	    "cuTENSOR arrays: order 9 is refused");
	h.order = 2;
	h.block = false;
	ok(ts_cutensor_fill(&ct, &h, coords, 0, d) == -1 &&
	    last_msg(d, "block-sparse"),
	    "cuTENSOR arrays: an element-wise tensor is refused");
	ts_diags_free(d);
}

/* Decode path whole into flat arrays, with threads and batches of the
 * caps given in turn; returns the entries. */
static size_t
decode_all(const char *path, int threads, const size_t *caps, int ncaps,
    uint64_t *c, double *v, uint64_t *loc, size_t max)
{
	struct ts_layout l = { TS_KIND_TEXT, false, -1, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_NONE, 1 };
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_source *src = ts_source_open_file(path);
	struct ts_decoder *dec = ts_decoder_open(src, &l, d);
	struct ts_batch b[4];
	size_t n = 0, i;
	int k = 0, j;

	ts_decoder_set_threads(dec, threads);
	for (j = 0; j < ncaps; j++)
		ts_batch_init(&b[j], 2, caps[j]);
	for (;;) {
		struct ts_batch *x = &b[k++ % ncaps];

		if (ts_decoder_next(dec, x) <= 0)
			break;
		for (i = 0; i < x->n && n < max; i++, n++) {
			c[2 * n] = x->coords[2 * i];
			c[2 * n + 1] = x->coords[2 * i + 1];
			v[n] = x->fval[i];
			loc[n] = x->loc[i];
		}
	}
	for (j = 0; j < ncaps; j++)
		ts_batch_free(&b[j]);
	ts_decoder_close(dec);
	ts_source_close(src);
	ts_diags_free(d);
	return n;
}

/* Text parsed by threads, in chunks, into batches of any cap: the same
 * entries, values and lines as one thread gives. */
static void
test_parallel(void)
{
	static const size_t one[] = { 8192 }, mixed[] = { 8192, 1000, 37 };
	const size_t n = 50000;
	char path[256];
	uint64_t *c1, *c2, *l1, *l2;
	double *v1, *v2;
	size_t a, b2, i;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/par.tns", tmpdir);
	fp = fopen(path, "w");
	fprintf(fp, "%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: par\n"
	    "2 1000 1000 %zu\n", n + 1);
	for (i = 0; i < n; i++) {
		fprintf(fp, "%llu %llu %.17g\n",
		    (unsigned long long)(next64() % 1000 + 1),
		    (unsigned long long)(next64() % 1000 + 1),
		    (double)next64() / 3.0);
		if (i % 9973 == 0)
			fputs("\n", fp);	/* a blank line now and then */
	}
	fclose(fp);
	c1 = calloc(2 * n, 8);
	c2 = calloc(2 * n, 8);
	l1 = calloc(n, 8);
	l2 = calloc(n, 8);
	v1 = calloc(n, 8);
	v2 = calloc(n, 8);
	setenv("TS_CHUNK", "4096", 1);
	a = decode_all(path, 1, one, 1, c1, v1, l1, n);
	b2 = decode_all(path, 3, mixed, 3, c2, v2, l2, n);
	unsetenv("TS_CHUNK");
	ok(a == n && b2 == n && memcmp(c1, c2, 2 * n * 8) == 0 &&
	    memcmp(v1, v2, n * 8) == 0 && memcmp(l1, l2, n * 8) == 0,
	    "text parsed by 3 threads into batches of 8192, 1000 and 37: the "
	    "same %zu entries, values and lines as one thread", n);
	free(c1);
	free(c2);
	free(l1);
	free(l2);
	free(v1);
	free(v2);
}

/* The threads of this process, from /proc (Linux); -1 without it. */
static int
nthreads(void)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	int n = -1;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	fclose(fp);
	return n;
}

/* The decoder's threads and chunks go once the end is handed on, not
 * when it is closed: what comes after the input (a sort's output) has
 * their memory.  The end is handed on again as often as asked. */
static void
test_parallel_end(void)
{
	struct ts_layout l = { TS_KIND_TEXT, false, -1, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_NONE, 1 };
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_source *src;
	struct ts_decoder *dec;
	struct ts_batch b;
	char path[256];
	int before, during = 0, after;
	long r, first = 0, again;
	size_t i, n = 20000;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/end.tns", tmpdir);
	fp = fopen(path, "w");
	fprintf(fp, "%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: end\n"
	    "2 100 100 %zu\n", n);
	for (i = 0; i < n; i++)
		fprintf(fp, "%zu %zu %zu.5\n", i % 100 + 1, i / 200 + 1, i);
	fclose(fp);
	before = nthreads();
	setenv("TS_CHUNK", "4096", 1);
	src = ts_source_open_file(path);
	dec = ts_decoder_open(src, &l, d);
	ts_decoder_set_threads(dec, 2);
	ts_batch_init(&b, 2, 1000);
	while ((r = ts_decoder_next(dec, &b)) > 0)
		if (++first == 3)
			during = nthreads();
	after = nthreads();
	again = ts_decoder_next(dec, &b);
	unsetenv("TS_CHUNK");
	if (before < 0)
		ok(1, "# skip no /proc/self/status: the threads not counted");
	else
		ok(r == 0 && during > before && after == before && again == 0,
		    "the parsing threads are gone once the end is handed on "
		    "(threads: %d before, %d parsing, %d at the end), and the "
		    "end is handed on again", before, during, after);
	ts_batch_free(&b);
	ts_decoder_close(dec);
	ts_source_close(src);
	ts_diags_free(d);
}

/* ---- a stage's work on the parsing threads ---- */

/* A stage that sums the coordinates it is given: on the parsing threads
 * (local_put) for the batches they parsed, on the caller's for the
 * rest; and a stage that may change entries, before which none is
 * local. */
struct lsum {
	pthread_t	 caller;
	uint64_t	 sum, n;		/* all: local ones folded in */
	uint64_t	 nlocal;		/* entries local_put took */
	int		 states;		/* local_end calls */
	bool		 off_caller;		/* local_put on another thread */
};

struct lstate {
	struct lsum	*s;
	uint64_t	 sum, n;
	bool		 off_caller;
};

static void *
lsum_new(void *self)
{
	struct lstate *t = calloc(1, sizeof(*t));

	t->s = self;
	return t;
}

static void
lsum_local(void *state, struct ts_batch *b)
{
	struct lstate *t = state;
	size_t i;

	for (i = 0; i < b->n * (size_t)b->order; i++)
		t->sum += b->coords[i];
	t->n += b->n;
	t->off_caller |= !pthread_equal(pthread_self(), t->s->caller);
}

static void
lsum_end(void *self, void *state)
{
	struct lsum *s = self;
	struct lstate *t = state;

	s->sum += t->sum;
	s->nlocal += t->n;
	s->off_caller |= t->off_caller;
	s->states++;
	free(t);
}

static int
lsum_put(void *self, struct ts_batch *b)
{
	struct lsum *s = self;
	size_t i;

	s->n += b->n;
	/* A slow caller: the threads count the chunks it does not
	 * reach in time. */
	if (b->n > 0)
		usleep(1000);
	if (b->local)
		return 0;
	for (i = 0; i < b->n * (size_t)b->order; i++)
		s->sum += b->coords[i];
	return 0;
}

static int
nop_put(void *self, struct ts_batch *b)
{
	(void)self;
	(void)b;
	return 0;
}

static const struct ts_stage_ops lsum_ops = {
	"lsum", TS_STAGE_READS, lsum_put, NULL, NULL, NULL, NULL
};
static const struct ts_stage_local_ops lsum_local_ops = {
	lsum_new, lsum_local, lsum_end
};
static const struct ts_stage_ops reads_ops = {
	"reads", TS_STAGE_READS, nop_put, NULL, NULL, NULL, NULL
};
static const struct ts_stage_ops writes_ops = {
	"writes", 0, nop_put, NULL, NULL, NULL, NULL
};

/* Run path through (before, when not NULL) and an lsum with threads. */
static void
lsum_run(const char *path, int threads, const struct ts_stage_ops *before,
    struct lsum *s)
{
	struct ts_layout l = { TS_KIND_TEXT, false, -1, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_NONE, 1 };
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_source *src = ts_source_open_file(path);
	struct ts_decoder *dec = ts_decoder_open(src, &l, d);
	struct ts_stage *st;
	struct ts_flow *f;

	memset(s, 0, sizeof(*s));
	s->caller = pthread_self();
	ts_decoder_set_threads(dec, threads);
	f = ts_flow_new(dec, d, "lsum");
	if (before != NULL)
		ts_flow_add(f, ts_stage_new(before, NULL));
	st = ts_stage_new(&lsum_ops, s);
	ts_stage_set_local(st, &lsum_local_ops);
	ts_flow_add(f, st);
	if (ts_flow_run(f, NULL, NULL) != 0)
		ok(0, "flow of %s", path);
	ts_flow_free(f);
	ts_decoder_close(dec);
	ts_source_close(src);
	ts_diags_free(d);
}

/* A stage's local functions run on the threads that parse, when every
 * stage before it only reads, on the chunks of a caller that does not
 * keep up; their states are folded in before the end; the rest of the
 * entries reach put unmarked. */
static void
test_local(void)
{
	const size_t n = 50000;
	struct lsum one, par, after_reads, after_writes;
	char path[256];
	uint64_t want = 0, x;
	size_t i;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/local.tns", tmpdir);
	fp = fopen(path, "w");
	fprintf(fp, "%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: local\n"
	    "2 1000 1000 %zu\n", n);
	for (i = 0; i < 2 * n; i++) {
		x = next64() % 1000 + 1;
		want += x - 1;		/* the decoder gives them 0-based */
		fprintf(fp, "%llu%s", (unsigned long long)x, i % 2 ?
		    " 1.5\n" : " ");
	}
	fclose(fp);
	setenv("TS_CHUNK", "4096", 1);
	lsum_run(path, 1, NULL, &one);
	lsum_run(path, 2, NULL, &par);
	lsum_run(path, 2, &reads_ops, &after_reads);
	lsum_run(path, 2, &writes_ops, &after_writes);
	unsetenv("TS_CHUNK");
	ok(one.n == n && one.sum == want && one.nlocal == 0 &&
	    one.states == 0, "one thread: every entry on the caller's "
	    "(%llu local)", (unsigned long long)one.nlocal);
	ok(par.n == n && par.sum == want && par.nlocal > 0 &&
	    par.nlocal < n && par.off_caller && par.states >= 1 &&
	    par.states <= 2, "two threads: %llu of %zu entries taken on "
	    "them in %d states, the sum the same",
	    (unsigned long long)par.nlocal, n, par.states);
	ok(after_reads.sum == want && after_reads.nlocal > 0,
	    "after a stage that only reads: local still");
	ok(after_writes.sum == want && after_writes.nlocal == 0 &&
	    after_writes.states == 0, "after a stage that may change "
	    "entries: none local");
}

/* ---- the rows of text found by vectors, words or bytes ---- */

/* A random field of a row: mostly what large files hold, now and then
 * anything the byte-at-a-time parser must be asked about. */
static void
put_coord(struct ts_strbuf *sb, int odd)
{
	static const char *const bad[] = { "0", "-3", "+3", "3a", "007",
	    "12345678901234567", "1234567890123456789",
	    "99999999999999999999", "18446744073709551616", "a", "", "3.5",
	    "1e3", ("\xff" "7"), "9\r1" };

	if (odd)
		ts_sbprintf(sb, "%s", bad[next64() % (sizeof(bad) /
		    sizeof(bad[0]))]);
	else
		ts_sbprintf(sb, "%llu", (unsigned long long)(next64() >>
		    (next64() % 64)) % 100000000000000000ull + 1);
}

static void
put_value(struct ts_strbuf *sb, int odd)
{
	static const char *const bad[] = { "inf", "-inf", "nan", "1e400",
	    "-1e400", "1e-400", "0x1p3", "1.5.2", ".5", "5.", ".", "-", "+.5e3",
	    "1e", "1e+", "2147483648", "-2147483649", "9223372036854775808",
	    "-9223372036854775809", "12345678901234567890123", "0.1\r",
	    "00000000000000000000000000000000000001.5", "1_0", "infinity",
	    "NaN(1)", "4e-320" };
	double v;
	uint64_t u = next64();

	if (odd) {
		ts_sbprintf(sb, "%s", bad[next64() % (sizeof(bad) /
		    sizeof(bad[0]))]);
		return;
	}
	switch (u % 6) {
	case 0:
		memcpy(&v, &u, 8);
		ts_sbprintf(sb, "%.17g", isnan(v) ? 0.5 : v);
		break;
	case 1:
		ts_sbprintf(sb, "%lld", (long long)(int32_t)(u >> 32));
		break;
	case 2:
		ts_sbprintf(sb, "%lld", (long long)u);
		break;
	default: {
		char t[TS_NUMBUF];

		ts_fmt_double(t, (double)(u >> 11) * 0x1p-53);
		ts_sbprintf(sb, "%s", t);
		break;
	}
	}
}

/* Rows of order ord, mostly in the common form. */
static char *
scan_text(int ord, int values, size_t rows, size_t *len)
{
	static const char *const seps[] = { "\t", "  ", " \t", "\r" };
	struct ts_strbuf sb = { NULL, 0, 0 };
	size_t i, k;

	ts_sbprintf(&sb, "%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: s\n"
	    "%d", ord);
	for (k = 0; k < (size_t)ord; k++)
		ts_sbprintf(&sb, " 1000000000000000000");
	ts_sbprintf(&sb, " %zu\n", rows);
	for (i = 0; i < rows; i++) {
		uint64_t r = next64() % 1000;
		int odd = r < 40, nf = ord + values;

		if (r == 999) {
			/* Longer than a bitmap: 5000 zeros. */
			ts_sbprintf(&sb, "1 2");
			for (k = 2; k < (size_t)ord; k++)
				ts_sbprintf(&sb, " 3");
			if (values) {
				ts_sbprintf(&sb, " 0.");
				for (k = 0; k < 5000; k++)
					ts_sbprintf(&sb, "0");
				ts_sbprintf(&sb, "1");
			}
			ts_sbprintf(&sb, "\n");
			continue;
		}
		if (r == 998) {
			ts_sbprintf(&sb, "%s\n", next64() % 2 ? "" : "# note");
			continue;
		}
		if (r == 997) {
			ts_sbprintf(&sb, "%% a header line\n");
			continue;
		}
		if (odd && next64() % 4 == 0)
			nf += next64() % 2 ? 1 : -1;	/* a field more or less */
		if (odd && next64() % 8 == 0)
			ts_sbprintf(&sb, " ");
		for (k = 0; k < (size_t)nf; k++) {
			if (k > 0)
				ts_sbprintf(&sb, "%s", odd && next64() % 3 == 0 ?
				    seps[next64() % 4] : " ");
			if (k < (size_t)ord)
				put_coord(&sb, odd && next64() % 3 == 0);
			else
				put_value(&sb, odd && next64() % 2 == 0);
		}
		if (odd && next64() % 6 == 0)
			ts_sbprintf(&sb, "%s", next64() % 2 ? " " : "\r");
		ts_sbprintf(&sb, "\n");
	}
	/* A last row without its line end, now and then. */
	if (next64() % 2)
		ts_sbprintf(&sb, "1 2 3 4 5 6");
	*len = sb.n;
	return sb.s;
}

/*
 * Everything a decoder gives from text, TS_SCAN as way, with threads
 * (in chunks of TS_CHUNK 700) or not: the entries (coordinates, value
 * bits, lines, value texts) and the messages (line, column, rule, text),
 * as one string.
 */
static char *
scan_all(const char *text, size_t len, const struct ts_layout *lay,
    const char *way, int threads)
{
	static const size_t caps[] = { 8192, 37, 1000 };
	struct ts_strbuf sb = { NULL, 0, 0 };
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_source *src;
	struct ts_decoder *dec;
	struct ts_batch b[3];
	size_t i, j;
	int k, ord = 0;
	long r;

	setenv("TS_SCAN", way, 1);
	if (threads > 1)
		setenv("TS_CHUNK", "700", 1);
	src = ts_source_open_mem(text, len, "s.tns");
	dec = ts_decoder_open(src, lay, d);
	unsetenv("TS_SCAN");
	if (dec != NULL) {
		ord = ts_decoder_header(dec)->order;
		/* Every row as it was parsed, in range or not. */
		ts_decoder_check_bounds(dec, false);
		ts_decoder_set_threads(dec, threads);
		for (k = 0; k < 3; k++)
			ts_batch_init(&b[k], ord, caps[k]);
		for (j = 0; (r = ts_decoder_next(dec, &b[j % 3])) > 0; j++) {
			const struct ts_batch *x = &b[j % 3];

			for (i = 0; i < x->n; i++) {
				for (k = 0; k < ord; k++)
					ts_sbprintf(&sb, "%llu ", (unsigned long
					    long)x->coords[i * (size_t)ord + k]);
				if (ts_decoder_layout(dec)->values > 0) {
					uint64_t u;

					memcpy(&u, &x->fval[i], 8);
					ts_sbprintf(&sb, "%016llx %lld '%.*s' ",
					    (unsigned long long)(x->is_int ? 0 :
					    u), (long long)(x->is_int ?
					    x->ival[i] : 0), (int)x->vlen[i],
					    x->vtext[i]);
				}
				ts_sbprintf(&sb, "@%llu\n",
				    (unsigned long long)x->loc[i]);
			}
		}
		ts_sbprintf(&sb, "end %ld, %llu rows\n", r,
		    (unsigned long long)ts_decoder_rows(dec));
		for (k = 0; k < 3; k++)
			ts_batch_free(&b[k]);
		ts_decoder_close(dec);
	}
	unsetenv("TS_CHUNK");
	for (i = 0; i < ts_diags_len(d); i++) {
		const struct ts_diag *g = ts_diags_at(d, i);

		ts_sbprintf(&sb, "%d %llu:%llu [%s] %s\n", (int)g->sev,
		    (unsigned long long)g->line, (unsigned long long)g->col,
		    ts_rule_id(g->rule), g->msg);
	}
	ts_source_close(src);
	ts_diags_free(d);
	return sb.s;
}

/*
 * The rows found by AVX2, SSE2 and words are those found a byte at a
 * time (TS_SCAN=scalar): the same entries, lines, value texts and the
 * same messages at the same line and column, for every order, value
 * type, with or without values, alone or by threads, on text mostly in
 * the common form with every kind of odd row among it.
 */
static void
test_scan_ways(void)
{
	static const char *const ways[] = { "swar", "sse2", "avx2" };
	static const enum ts_vtype vt[] = { TS_VTYPE_FLOAT64, TS_VTYPE_FLOAT32, TS_VTYPE_INT32,
	    TS_VTYPE_INT64 };
	struct ts_layout lay;
	char *text, *one, *other;
	size_t len;
	int ord, v, w, th, cases = 0, same = 0, entries = 0;

	for (ord = 1; ord <= 6; ord++)
		for (v = -1; v < 4; v++) {
		memset(&lay, 0, sizeof(lay));
		lay.kind = TS_KIND_TEXT;
		lay.values = v >= 0 ? 1 : 0;
		lay.vtype = v >= 0 ? vt[v] : TS_VTYPE_FLOAT64;
		lay.itype = TS_ITYPE_UINT64;
		lay.base = (ord + v) % 2;
		text = scan_text(ord, v >= 0, 6000, &len);
		for (th = 1; th <= 3; th += 2) {
			one = scan_all(text, len, &lay, "scalar", th);
			entries += strstr(one, "@") != NULL;
			for (w = 0; w < 3; w++) {
				other = scan_all(text, len, &lay, ways[w], th);
				cases++;
				if (strcmp(one, other) == 0)
					same++;
				else
					printf("# order %d value type %d, %s, %d "
					    "threads: not as byte by byte\n",
					    ord, v, ways[w], th);
				free(other);
			}
			free(one);
		}
		free(text);
	}
	ok(same == cases && entries == 60, "rows found by words, SSE2 and "
	    "AVX2: the entries, lines, texts and located messages found byte "
	    "by byte (%d of %d, orders 1-6, every value type)", same, cases);
}

/* ---- the rows of the text encoders formatted by threads ---- */

/* A sink into memory that fails with ENOSPC past fail bytes (0: never). */
struct msink {
	char	*buf;
	size_t	 n, cap, fail;
};

static int
msink_write(void *ctx, const void *p, size_t n)
{
	struct msink *m = ctx;

	if (m->fail > 0 && m->n + n > m->fail) {
		errno = ENOSPC;
		return -1;
	}
	if (m->n + n > m->cap) {
		m->cap = (m->n + n) * 2;
		m->buf = ts_xrealloc(m->buf, m->cap);
	}
	memcpy(m->buf + m->n, p, n);
	m->n += n;
	return 0;
}

static int
msink_commit(void *ctx)
{
	(void)ctx;
	return 0;
}

static void
msink_abort(void *ctx)
{
	(void)ctx;
}

static const struct ts_sink_ops msink_ops = { msink_write, msink_commit,
    msink_abort };

#define PN	20011		/* entries of a printing test */

/*
 * Encode the PN entries of in (batch after batch of the sizes in sz, in
 * turn; texts every third batch when texts is set) with lay and style,
 * by threads formatting chunks of chunk entries; the bytes written in
 * out, 0 or the errno of the failure.  abort_at > 0: abort the encoder
 * after that many batches.
 */
static int
print_with(const struct ts_layout *lay, int valfmt, const struct ts_batch *in,
    const char *const *texts, const size_t *sz, int threads, size_t chunk,
    struct msink *out, int abort_at)
{
	struct ts_header h;
	struct ts_encode_opts eo = { .valfmt = TS_VALFMT_SHORTEST, .name = "p" };
	struct ts_encoder *e;
	struct ts_batch b;
	struct ts_sink *k;
	char env[32];
	size_t at = 0, n, i;
	int err = 0, nb = 0, ord = in->order;

	memset(&h, 0, sizeof(h));
	h.order = ord;
	for (i = 0; i < (size_t)ord; i++)
		h.dims[i] = 100000000000u;
	h.nnz = PN;
	eo.valfmt = valfmt;
	snprintf(env, sizeof(env), "%zu", chunk);
	setenv("TS_PRINT_CHUNK", env, 1);
	k = ts_sink_new(&msink_ops, out, "mem");
	e = ts_encoder_open(k, &h, lay, &eo, NULL);
	unsetenv("TS_PRINT_CHUNK");
	if (e == NULL)
		return errno;
	ts_encoder_set_threads(e, threads);
	ts_batch_init(&b, ord, 4096);
	while (at < PN) {
		n = sz[nb % 4] < PN - at ? sz[nb % 4] : PN - at;
		b.n = n;
		b.has_values = in->has_values;
		b.is_int = in->is_int;
		memcpy(b.coords, in->coords + at * (size_t)ord,
		    n * (size_t)ord * 8);
		memcpy(b.fval, in->fval + at, n * 8);
		memcpy(b.ival, in->ival + at, n * 8);
		b.texts = texts != NULL && nb % 3 == 0;
		for (i = 0; b.texts && i < n; i++) {
			b.vtext[i] = texts[at + i];
			b.vlen[i] = (uint32_t)strlen(texts[at + i]);
		}
		if (ts_encoder_put(e, &b) != 0) {
			err = errno;
			break;
		}
		at += n;
		if (++nb == abort_at)
			break;
	}
	ts_batch_free(&b);
	if (abort_at > 0 || err != 0) {
		ts_encoder_abort(e);
		ts_sink_abort(k);
		return err;
	}
	if (ts_encoder_close(e) != 0)
		err = errno;
	if (err == 0)
		ts_sink_commit(k);
	else
		ts_sink_abort(k);
	return err;
}

/*
 * Each text encoder (TensorSuite text, FROSTT, Matrix Market), for each
 * value type, with texts to copy now and then and in either style,
 * writes with threads the bytes it writes alone, cut into chunks of 1
 * entry, a few, many or all at once, from batches of every size; a
 * write error is the same errno; an abort in the middle of the threads'
 * work writes what was put, as one thread does, and leaves nothing
 * behind (ASan, valgrind).
 */
static void
test_print_par(void)
{
	static const enum ts_kind kinds[] = { TS_KIND_TEXT, TS_KIND_FROSTT, TS_KIND_MTX };
	static const enum ts_vtype vt[] = { TS_VTYPE_FLOAT64, TS_VTYPE_FLOAT32, TS_VTYPE_INT32,
	    TS_VTYPE_INT64 };
	static const size_t sizes[] = { 4096, 1, 333, 2500 };
	static const size_t chunks[] = { 1, 7, 1000, 20000, 1u << 24 };
	struct ts_batch in;
	struct ts_header h;
	struct ts_layout lay;
	struct msink one, par;
	char **texts;
	size_t i, c;
	int kk, v, style, ord, cases = 0, same = 0, errs = 0, errsame = 0;
	int aborts = 0, abortsame = 0;

	texts = ts_xreallocarray(NULL, PN, sizeof(*texts));
	for (kk = 0; kk < 3; kk++)
		for (v = -1; v < 4; v++)
			for (style = 0; style < 2; style++) {
		ord = kinds[kk] == TS_KIND_MTX ? 2 : 3;
		if (kinds[kk] == TS_KIND_MTX && style == 1)
			continue;	/* Matrix Market: shortest only */
		memset(&lay, 0, sizeof(lay));
		lay.kind = kinds[kk];
		lay.values = v >= 0;
		lay.vtype = v >= 0 ? vt[v] : TS_VTYPE_FLOAT64;
		lay.base = kinds[kk] == TS_KIND_FROSTT ? 0 : 1;
		memset(&h, 0, sizeof(h));
		h.order = ord;
		for (i = 0; i < (size_t)ord; i++)
			h.dims[i] = (uint64_t)1 << (i == 0 ? 36 : 12 + 4 * i);
		ts_batch_init(&in, ord, PN);
		random_batch(&in, &h, &lay, PN);
		in.has_values = lay.values > 0;
		for (i = 0; i < PN; i++) {
			char t[48];

			snprintf(t, sizeof(t), "%s%zu", i % 5 ? "" : "+",
			    (size_t)(next64() >> (next64() % 64)));
			texts[i] = ts_xstrdup(t);
		}
		memset(&one, 0, sizeof(one));
		print_with(&lay, style, &in, (const char *const *)texts,
		    sizes, 1, 1u << 24, &one, 0);
		for (c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			memset(&par, 0, sizeof(par));
			cases++;
			if (print_with(&lay, style, &in,
			    (const char *const *)texts, sizes, 3, chunks[c],
			    &par, 0) == 0 && par.n == one.n && one.n > 0 &&
			    memcmp(par.buf, one.buf, one.n) == 0)
				same++;
			else
				printf("# kind %d value %d style %d chunk %zu: "
				    "%zu bytes, %zu alone\n", kk, v, style,
				    chunks[c], par.n, one.n);
			free(par.buf);
		}
		/* Full half way: the same error, alone or not. */
		memset(&par, 0, sizeof(par));
		par.fail = one.n / 2;
		errs++;
		if (print_with(&lay, style, &in, (const char *const *)texts,
		    sizes, 3, 7, &par, 0) == ENOSPC && par.n <= one.n / 2 &&
		    memcmp(par.buf, one.buf, par.n) == 0)
			errsame++;
		free(par.buf);
		/* An abort after 5 batches: what was put is written, alone
		 * or not. */
		free(one.buf);
		memset(&one, 0, sizeof(one));
		memset(&par, 0, sizeof(par));
		print_with(&lay, style, &in, (const char *const *)texts,
		    sizes, 1, 1u << 24, &one, 5);
		print_with(&lay, style, &in, (const char *const *)texts,
		    sizes, 3, 7, &par, 5);
		aborts++;
		if (par.n == one.n && one.n > 0 && memcmp(par.buf, one.buf,
		    one.n) == 0)
			abortsame++;
		free(par.buf);
		free(one.buf);
		for (i = 0; i < PN; i++)
			free(texts[i]);
		ts_batch_free(&in);
	}
	free(texts);
	ok(same == cases, "text, FROSTT and Matrix Market rows formatted by 3 "
	    "threads in chunks of 1 to all entries: the bytes one thread "
	    "writes (%d of %d)", same, cases);
	ok(errsame == errs, "a write error half way: ENOSPC, what was written "
	    "is the start of the file (%d of %d)", errsame, errs);
	ok(abortsame == aborts, "an abort in the middle: what was put is "
	    "written, the bytes one thread writes (%d of %d)", abortsame,
	    aborts);
}

/* An encoder never writes a header its decoders refuse: a dimension
 * beyond 2^63-1 (found by fuzz_frostt) is refused at open, ERANGE. */
static void
test_encoder_range(void)
{
	struct ts_header h;
	struct ts_layout l;
	struct ts_sink *k;
	struct ts_encoder *e;
	int kind, err;
	bool good = true;

	for (kind = 0; kind < 2; kind++) {
		memset(&h, 0, sizeof(h));
		memset(&l, 0, sizeof(l));
		h.order = 2;
		h.dims[0] = (uint64_t)INT64_MAX + 1;
		h.dims[1] = 3;
		h.nnz = 1;
		l.kind = kind == 0 ? TS_KIND_TEXT : TS_KIND_BINARY;
		l.vtype = TS_VTYPE_FLOAT64;
		l.itype = TS_ITYPE_UINT64;
		l.endian = kind == 0 ? TS_ENDIAN_NONE : TS_ENDIAN_LITTLE;
		l.values = 1;
		l.base = 1;
		k = ts_sink_open("/dev/null", 0);
		errno = 0;
		e = ts_encoder_open(k, &h, &l, NULL, NULL);
		err = errno;
		good &= e == NULL && err == ERANGE;
		if (e != NULL)
			ts_encoder_close(e);
		h.dims[0] = (uint64_t)INT64_MAX;
		e = ts_encoder_open(k, &h, &l, NULL, NULL);
		good &= e != NULL;
		if (e != NULL)
			ts_encoder_close(e);
		ts_sink_abort(k);
	}
	ok(good, "encoders refuse a dimension of 2^63 (ERANGE), take 2^63-1");
}

/* ---- the escaping of names and messages (util/escape.c) ---- */

/* The bytes the word w of the text form stands for, into out (cap
 * bytes); false when w is not such a word. */
static bool
unquote(const char *w, char *out, size_t cap)
{
	static const char letter[] = "abtnvfr", ctl[] = "\a\b\t\n\v\f\r";
	size_t n = 0;
	const char *k;

	if (*w != '\'') {
		snprintf(out, cap, "%s", w);
		return true;
	}
	while (*w != '\0' && n + 1 < cap) {
		if (*w == '\'') {
			for (w++; *w != '\0' && *w != '\'' && n + 1 < cap; w++)
				out[n++] = *w;
			if (*w++ != '\'')
				return false;
		} else if (w[0] == '$' && w[1] == '\'') {
			for (w += 2; *w != '\'' && n + 1 < cap; ) {
				if (*w++ != '\\')
					return false;
				if (*w >= '0' && *w <= '7') {
					out[n++] = (char)((w[0] - '0') * 64 +
					    (w[1] - '0') * 8 + (w[2] - '0'));
					w += 3;
				} else if (*w != '\0' &&
				    (k = strchr(letter, *w)) != NULL) {
					out[n++] = ctl[k - letter];
					w++;
				} else
					return false;
			}
			w++;
		} else if (w[0] == '\\' && w[1] == '\'') {
			out[n++] = '\'';
			w += 2;
		} else
			return false;
	}
	out[n] = '\0';
	return *w == '\0';
}

/* What a function of escape.h writes, as a string (malloc'd). */
#define CAPTURE(buf, call) do {						\
	size_t len_;							\
	FILE *fp = open_memstream(&(buf), &len_);			\
	call;								\
	fclose(fp);							\
} while (0)

/* Safe on a line of text: UTF-8 without controls, line separators or
 * what XML cannot hold (U+FFFE, U+FFFF), no "##[". */
static bool
line_safe(const char *s)
{
	static const char *const bad[] = { "##[", "\xe2\x80\xa8",
	    "\xe2\x80\xa9", "\xef\xbf\xbe", "\xef\xbf\xbf", NULL };
	const unsigned char *p;
	int i;

	if (!ts_utf8_valid(s))
		return false;
	for (i = 0; bad[i] != NULL; i++)
		if (strstr(s, bad[i]) != NULL)
			return false;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 &&
		    p[1] < 0xa0))
			return false;
	return true;
}

/* s with XML's five entities and character references decoded. */
static void
xml_decode(const char *s, char *out)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;",
	    NULL };
	static const char chr[] = "&<>\"";
	unsigned v;
	int i, len;

	while (*s != '\0') {
		for (i = 0; ent[i] != NULL; i++)
			if (strncmp(s, ent[i], strlen(ent[i])) == 0)
				break;
		if (ent[i] != NULL) {
			*out++ = chr[i];
			s += strlen(ent[i]);
		} else if (sscanf(s, "&#%u;%n", &v, &len) == 1) {
			*out++ = (char)v;
			s += len;
		} else
			*out++ = *s++;
	}
	*out = '\0';
}

static void
gh_decode(const char *s, char *out)
{
	static const char *const esc[] = { "%0D", "%0A", "%3A", "%2C", "%25",
	    NULL };
	static const char chr[] = "\r\n:,%";
	int i;

	while (*s != '\0') {
		for (i = 0; esc[i] != NULL; i++)
			if (strncmp(s, esc[i], 3) == 0)
				break;
		if (esc[i] != NULL) {
			*out++ = chr[i];
			s += 3;
		} else
			*out++ = *s++;
	}
	*out = '\0';
}

static bool
b64_decode(const char *s, char *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned v = 0;
	int bits = 0;
	const char *k;

	for (; *s != '\0' && *s != '='; s++) {
		if ((k = strchr(abc, *s)) == NULL)
			return false;
		v = v << 6 | (unsigned)(k - abc);
		if ((bits += 6) >= 8) {
			bits -= 8;
			*out++ = (char)(v >> bits & 0xff);
		}
	}
	*out = '\0';
	return true;
}

/* Is c a CSV cell safe on a line, starting as no formula, that gives
 * the name s back: unquoted as RFC 4180 says, then a plain name, one
 * with the mark of a formula, or a text form? */
static bool
csv_back(const char *c, const char *s)
{
	char cell[1024], out[1024];
	const char *v = cell;
	size_t n = 0;

	if (!line_safe(c))
		return false;
	if (*c == '"') {
		for (c++; *c != '\0' && n + 1 < sizeof(cell); c++) {
			if (*c == '"' && c[1] != '"')
				break;
			cell[n++] = *c;
			c += *c == '"';
		}
		if (*c != '"' || c[1] != '\0')
			return false;
	} else {
		if (strpbrk(c, ",\"") != NULL)
			return false;
		for (; *c != '\0' && n + 1 < sizeof(cell); c++)
			cell[n++] = *c;
	}
	cell[n] = '\0';
	if (strchr("=+-@", *v) != NULL && *v != '\0')
		return false;
	/* The mark: a quote before a formula that holds no quote (a text
	 * form has two at least). */
	if (*v == '\'' && v[1] != '\0' && strchr("=+-@", v[1]) != NULL &&
	    strchr(v + 1, '\'') == NULL)
		return strcmp(v + 1, s) == 0 && ts_name_plain(s);
	if (*s == '\0')
		return *v == '\0';
	return (strcmp(v, s) == 0 && ts_name_plain(s)) || (unquote(v, out,
	    sizeof(out)) && strcmp(out, s) == 0);
}

/* A random name: bytes a report must survive, UTF-8 of every width,
 * and plain letters. */
static void
random_name(char *s)
{
	static const char *const piece[] = { "\n", "\r", "%", ":", ",", "&",
	    "<", ">", "\"", "'", "\033", "\001", "\177", "\377", "\200", "#",
	    "##[", "[", " ", "\t", "\\", "$", "a", "b", "/", ".tns",
	    "\xc3\xa9", "\xc2\x85", "\xc2\xa0", "\xe2\x80\xa8", "\xef\xbf\xbf",
	    "\xf0\x9f\x98\x80", "\xed\xa0\x80", "\xc0\xaf", "::", "x" };
	size_t np = sizeof(piece) / sizeof(piece[0]);
	int i, n = (int)(next64() % 9);

	*s = '\0';
	for (i = 0; i < n; i++)
		strcat(s, piece[next64() % np]);
}

static void
test_escape(void)
{
	static const char *const fixed[][2] = {
		/* As GNU ls --quoting-style=shell-escape shows them. */
		{ "a\nb", "'a'$'\\n''b'" }, { "\nb", "''$'\\n''b'" },
		{ "x\377", "'x'$'\\377'" }, { "\001", "''$'\\001'" },
		{ "a\033[31mb", "'a'$'\\033''[31mb'" },
		{ "\xc2\x85x", "''$'\\302\\205''x'" },
		{ "plain", "plain" }, { "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9" },
		{ "a b", "a b" },
		/* Our own: a quote, and what starts a workflow command. */
		{ "it's", "'it'\\''s'" }, { "", "''" }, { ":x", "':x'" },
		{ " ::x", "' ::x'" }, { "\xc2\xa0::x", "'\xc2\xa0::x'" },
		{ "h##[x", "'h##''[x'" }, { "a:b", "a:b" },
	};
	static const char *const csv[][2] = {
		{ "", "" }, { NULL, "" }, { "plain", "plain" },
		{ "=1+2", "\"'=1+2\"" }, { "+x", "\"'+x\"" },
		{ "-y", "\"'-y\"" }, { "@z", "\"'@z\"" },
		{ "\tt", "''$'\\t''t'" }, { "\rr", "''$'\\r''r'" },
		{ "a,b", "\"a,b\"" }, { "a\"b", "\"a\"\"b\"" },
		{ "=HYPERLINK(\"x\",\"y\")",
		    "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"" },
		{ "b\377", "'b'$'\\377'" }, { "it's", "'it'\\''s'" },
		{ "'=x", "''\\''=x'" }, { "a\nb", "'a'$'\\n''b'" },
	};
	char s[256], *q, *j, *x, *g, *m, *c, out[1024], dec[1024];
	bool quoted = true, always = true, safe = true, json = true,
	    xml = true, gh = true, sane = true, fx = true, cells = true;
	json_error_t err;
	json_t *o;
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		q = ts_quote(fixed[i][0], false);
		if (strcmp(q, fixed[i][1]) != 0) {
			fx = false;
			fprintf(stderr, "# quote: got %s, want %s\n", q,
			    fixed[i][1]);
		}
		free(q);
	}
	ok(fx, "the text form quotes as ls's shell-escape style, and more");
	for (i = 0; i < sizeof(csv) / sizeof(csv[0]); i++) {
		q = ts_csv_cell(csv[i][0]);
		if (strcmp(q, csv[i][1]) != 0) {
			fx = false;
			fprintf(stderr, "# csv: got %s, want %s\n", q,
			    csv[i][1]);
		}
		free(q);
	}
	ok(fx, "CSV: a formula marked and quoted, the text form, RFC 4180");
	for (i = 0; i < 20000; i++) {
		random_name(s);
		/* The text form: safe, and it gives the name back. */
		q = ts_quote(s, false);
		quoted &= unquote(q, out, sizeof(out)) && strcmp(out, s) == 0;
		safe &= line_safe(q) && *q != ':' && *q != ' ' &&
		    (ts_name_plain(s) ? strcmp(q, s) == 0 : *q == '\'');
		free(q);
		q = ts_quote(s, true);
		always &= *q == '\'' && unquote(q, out, sizeof(out)) &&
		    strcmp(out, s) == 0;
		free(q);
		/* JSON: exact, or the text form and base64. */
		CAPTURE(j, (fputc('{', fp), ts_fput_json_name(fp, "k", s),
		    fputc('}', fp)));
		o = json_loads(j, 0, &err);
		if (o == NULL || strstr(j, "##[") != NULL ||
		    strpbrk(j, "\n\r\033\001\177") != NULL)
			json = false;
		else if (json_object_get(o, "k_base64") == NULL)
			json &= ts_utf8_valid(s) && strcmp(json_string_value(
			    json_object_get(o, "k")), s) == 0;
		else
			json &= !ts_utf8_valid(s) && b64_decode(
			    json_string_value(json_object_get(o, "k_base64")),
			    dec) && strcmp(dec, s) == 0 && unquote(
			    json_string_value(json_object_get(o, "k")), out,
			    sizeof(out)) && strcmp(out, s) == 0;
		json_decref(o);
		free(j);
		/* XML: only what an attribute may hold; the text form back. */
		CAPTURE(x, ts_fput_xml_name(fp, s));
		xml_decode(x, dec);
		xml &= line_safe(x) && strpbrk(x, "<>\"") == NULL &&
		    unquote(dec, out, sizeof(out)) && strcmp(out, s) == 0;
		free(x);
		/* GitHub: no line break, ':' or ','; the name back. */
		CAPTURE(g, ts_fput_gh_name(fp, s));
		gh_decode(g, dec);
		gh &= strpbrk(g, "\r\n:,") == NULL && (strcmp(dec, s) == 0 ||
		    (unquote(dec, out, sizeof(out)) && strcmp(out, s) == 0));
		free(g);
		/* CSV: one line, no formula, the name back from the cell;
		 * half the names made to start as a formula does. */
		if (next64() % 2) {
			memmove(s + 1, s, strlen(s) + 1);
			s[0] = "=+-@"[next64() % 4];
		}
		c = ts_csv_cell(s);
		if (!csv_back(c, s)) {
			cells = false;
			fprintf(stderr, "# csv: %s\n", c);
		}
		free(c);
		/* A message: safe, never longer. */
		m = ts_xstrdup(s);
		ts_text_sanitize(m);
		sane &= line_safe(m) && strlen(m) <= strlen(s);
		free(m);
	}
	ok(quoted, "the text form of 20000 random names gives each back");
	ok(safe, "the text form is printable UTF-8, starts no command");
	ok(always, "a name in a message is always quoted, and given back");
	ok(json, "JSON: the name exactly, or quoted with its bytes in base64");
	ok(xml, "XML: an attribute value that gives the text form back");
	ok(gh, "GitHub: a file= value that the runner unescapes to the name");
	ok(sane, "a message is made printable UTF-8 in place");
	ok(cells, "CSV: a cell of one line, no formula, the name back");
}

/* n bytes of p as one gzip member into out (of cap bytes): its size. */
static size_t
gzip_mem(const char *p, size_t n, unsigned char *out, size_t cap)
{
	z_stream z;
	size_t len;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	len = deflate(&z, Z_FINISH) == Z_STREAM_END ? cap - z.avail_out : 0;
	deflateEnd(&z);
	return len;
}

/* All of src read into buf (of cap bytes): the count, or -1. */
static long
read_all(struct ts_source *src, char *buf, size_t cap)
{
	size_t got = 0;
	long n;

	while (got < cap && (n = ts_source_read(src, buf + got, cap - got)) >
	    0)
		got += (size_t)n;
	return got < cap && ts_source_read(src, buf + got, cap - got) < 0 ?
	    -1 : (long)got;
}

/*
 * gzip undone through zlib (io/decompress.c): each member's CRC32 and
 * length checked, concatenated members read as one stream, a read of
 * nothing answered at once.
 */
static void
test_gunzip(void)
{
	static const char text[] = "1 1 1 2.5\n1 3 2 -1.25\n2 2 1 1e-300\n";
	unsigned char gz[512];
	char buf[512];
	struct ts_source *s;
	size_t n = gzip_mem(text, strlen(text), gz, sizeof(gz) / 2), m;
	long r;

	ok(n > 18, "a gzip member made (%zu bytes)", n);
	/* Two members, as `cat a.gz b.gz` makes. */
	memcpy(gz + n, gz, n);
	s = ts_source_decompress(ts_source_open_mem(gz, 2 * n, "t.gz"));
	ok(s != NULL && ts_source_read(s, buf, 0) == 0,
	    "a read of 0 bytes gives 0");
	r = s != NULL ? read_all(s, buf, sizeof(buf)) : -1;
	ok(r == (long)(2 * strlen(text)) && memcmp(buf, text,
	    strlen(text)) == 0 && memcmp(buf + strlen(text), text,
	    strlen(text)) == 0, "two members read as one stream");
	ts_source_close(s);
	/* The CRC32 (8 bytes from the end), then the length (4). */
	for (m = 8; m >= 4; m -= 4) {
		gz[n - m] ^= 1;
		s = ts_source_decompress(ts_source_open_mem(gz, n, "t.gz"));
		r = read_all(s, buf, sizeof(buf));
		ok(r == -1 && ts_source_error(s) != NULL && strstr(
		    ts_source_error(s), m == 8 ? "CRC32" : "length") != NULL,
		    "a flipped %s is an error: %s", m == 8 ? "CRC32" :
		    "length", ts_source_error(s) ? ts_source_error(s) : "none");
		ts_source_close(s);
		gz[n - m] ^= 1;
	}
	s = ts_source_decompress(ts_source_open_mem(gz, n - 3, "t.gz"));
	r = read_all(s, buf, sizeof(buf));
	ok(r == -1 && ts_source_error(s) != NULL && strstr(ts_source_error(s),
	    "truncated") != NULL, "a member cut in its trailer is truncated");
	ts_source_close(s);
}

/*
 * S1 in the reading loop of libtensorsuite(3) (issue 30, point 9): the
 * entries of every kind of file with a coordinate out of the range its
 * header states end the read, located, and none is handed out; a reader
 * that turns the check off is given them.
 */
static void
test_input_bounds(void)
{
	static const unsigned char tnsb[] = "%%TensorSuite-TNSB\n"
	    "% version: 0.1\n% name: b\n2 3 3 2\n"
	    /* (1,1) and (9,2), uint32 little-endian, no values */
	    "\1\0\0\0\1\0\0\0\11\0\0\0\2\0\0\0";
	/* Matrix Market's decoder refuses an entry beyond its size line
	 * itself, check or none. */
	static const struct {
		const char	*name, *text, *where;
		size_t		 len;
		uint64_t	 big;	/* the largest 0-based coordinate */
	} f[] = {
		{ "t.tns", "%%TensorSuite-TNS\n% version: 0.1\n% name: t\n"
		    "2 3 3 2\n1 1 2.5\n9 2 1.5\n", "t.tns:6:1:", 0, 8 },
		{ "m.mtx", "%%MatrixMarket matrix coordinate real general\n"
		    "3 3 2\n1 1 2.5\n2 9 1.5\n", "m.mtx:4:3:", 0, 0 },
		{ "s.frostt", "sptensor\n2\n3 3\n2\n"
		    "1 1 2.5\n9 2 1.5\n", "s.frostt:6:1:", 0, 8 },
		{ "k.tns", "%%TensorSuite-TNS\n% version: 0.1\n% name: k\n"
		    "2 6 4 2\n3 2 2\n2 2 2\n2 2\n0 0\n3 1\n",
		    "k.tns:9:1:", 0, 3 },
		{ "b.tnsb", (const char *)tnsb, "b.tnsb:+", sizeof(tnsb) - 1,
		    8 },
	};
	struct ts_layout blk = { TS_KIND_TEXT, true, 0, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_LITTLE, 0 };
	struct ts_layout bin = { TS_KIND_BINARY, false, 0, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT32, TS_ENDIAN_LITTLE, 1 };
	struct ts_batch b;
	size_t i;
	int on;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (on = 1; on >= 0; on--) {
			size_t len = f[i].len ? f[i].len : strlen(f[i].text);
			struct ts_diags *d = ts_diags_new(10, false);
			struct ts_source *src = ts_source_open_mem(f[i].text,
			    len, f[i].name);
			struct ts_layout lay = { TS_KIND_TEXT, false, -1,
			    TS_VTYPE_FLOAT64, TS_ITYPE_UINT64,
			    TS_ENDIAN_LITTLE, 1 };
			struct ts_decoder *dec;
			uint64_t got = 0, big = 0;
			long r = 0;
			char *msg = NULL;
			size_t e;
			bool mtx;

			if (f[i].name[0] == 'k')
				lay = blk;
			else if (f[i].name[0] == 'b')
				lay = bin;
			else
				lay.kind = ts_sniff(src);
			dec = ts_decoder_open(src, &lay, d);
			if (dec == NULL) {
				ok(0, "%s opens", f[i].name);
				ts_source_close(src);
				ts_diags_free(d);
				continue;
			}
			if (!on)
				ts_decoder_check_bounds(dec, false);
			ts_batch_init(&b, ts_decoder_header(dec)->order, 16);
			while ((r = ts_decoder_next(dec, &b)) > 0) {
				got += b.n;
				for (e = 0; e < b.n * (size_t)b.order; e++)
					if (b.coords[e] > big)
						big = b.coords[e];
			}
			for (e = 0; e < ts_diags_len(d) && msg == NULL; e++) {
				const struct ts_diag *g = ts_diags_at(d, e);

				if (g->sev != TS_SEV_ERROR)
					continue;
				if (g->offset >= 0)
					msg = ts_xasprintf("%s:+%lld: [%s] %s",
					    g->file, (long long)g->offset,
					    ts_rule_id(g->rule), g->msg);
				else
					msg = ts_xasprintf("%s:%llu:%llu: [%s] "
					    "%s", g->file, (unsigned long long)
					    g->line, (unsigned long long)
					    g->col, ts_rule_id(g->rule),
					    g->msg);
			}
			mtx = f[i].name[0] == 'm';
			if (on || mtx)
				ok(r == -1 && got == 0 && msg && strncmp(msg,
				    f[i].where, strlen(f[i].where)) == 0 &&
				    strstr(msg, mtx ? "out of range" :
				    "[S1]") != NULL, "%s: the read ends at the "
				    "coordinate out of range, located, none "
				    "handed out%s: %s", f[i].name, on ? "" :
				    " (Matrix Market's own check)",
				    msg ? msg : "no message");
			else
				ok(r == 0 && got == 2 && big == f[i].big &&
				    ts_diags_errors(d) == 0, "%s: with the "
				    "check off, the reader is given it (%llu "
				    "entries, largest 0-based coordinate %llu)",
				    f[i].name, (unsigned long long)got,
				    (unsigned long long)big);
			free(msg);
			ts_batch_free(&b);
			ts_decoder_close(dec);
			ts_source_close(src);
			ts_diags_free(d);
		}
}

/*
 * The value-type table (util/vtype.c): every row reads back what it
 * prints and loads what it stores, byte-swapped or not, and names its
 * limits: a type is one row, and this checks each one there is.
 */
static void
test_vtypes(void)
{
	static const char *const over[TS_VTYPE_COUNT] = {
		[TS_VTYPE_FLOAT32] = "1e39", [TS_VTYPE_FLOAT64] = "1e309",
		[TS_VTYPE_INT32] = "2147483648",
		[TS_VTYPE_INT64] = "9223372036854775808",
	};
	unsigned char rec[4 * 8];
	char buf[TS_NUMBUF];
	int t, k, why, bad;

	for (t = 0; t < TS_VTYPE_COUNT; t++) {
		const struct ts_vtype_info *vt = ts_vtype_info(t);
		double f[4], g[4];
		int64_t i[4], j[4];
		const char *q;

		bad = vt == NULL || ts_vtype_of_name(vt->name) != t ||
		    ts_vtype_size(t) != vt->size;
		for (k = 0; k < 2000 && !bad; k++) {
			uint64_t u = next64();
			double x;
			int64_t y = vt->is_int ? (int64_t)u >> (64 - 8 *
			    (int)vt->size) : 0;

			memcpy(&x, &u, 8);
			if (!vt->is_int && (isnan(x) || fabs(x) > vt->max))
				x = (double)(int64_t)u / 1e9;
			if (vt->narrow != NULL)
				x = vt->narrow(x);
			vt->print(buf, x, y);
			q = vt->parse(buf, buf + strlen(buf), &g[0], &j[0],
			    &why);
			bad |= q != buf + strlen(buf) || why != TS_VTYPE_OK ||
			    (vt->is_int ? j[0] != y : memcmp(&g[0], &x, 8) !=
			    0);
			f[k % 4] = x;
			i[k % 4] = y;
			if (k % 4 == 3) {
				vt->store(rec, 8, 4, k % 8 == 3, f, i);
				vt->load(rec, 8, 4, k % 8 == 3, g, j);
				bad |= vt->is_int ? memcmp(i, j, sizeof(i)) :
				    memcmp(f, g, sizeof(f));
			}
		}
		q = vt->parse(over[t], over[t] + strlen(over[t]), &g[0],
		    &j[0], &why);
		bad |= why != TS_VTYPE_RANGE;
		q = vt->parse("x", &"x"[1], &g[0], &j[0], &why);
		bad |= q != NULL || why != TS_VTYPE_NOT;
		ok(!bad, "value type %s: its row parses what it prints, loads "
		    "what it stores, swapped or not, and knows its range",
		    vt ? vt->name : "?");
	}
	ok(ts_vtype_info(TS_VTYPE_COUNT) == NULL &&
	    ts_vtype_of_name("float16") == -1, "no row past the table");
}


/* The first entry not strictly after the one before it, tuple by tuple
 * in the order perm: what ts_coords_unordered answers. */
static size_t
unordered_brute(const uint64_t *c, size_t n, const uint64_t *last,
    const int *perm, int order)
{
	const uint64_t *p;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		p = i > 0 ? c + (i - 1) * (size_t)order : last;
		if (p == NULL)
			continue;
		for (k = 0; k < order && c[i * (size_t)order + (size_t)perm[k]] ==
		    p[perm[k]]; k++)
			continue;
		if (k == order || c[i * (size_t)order + (size_t)perm[k]] <
		    p[perm[k]])
			return i;
	}
	return n;
}

/*
 * S2's check (format/inorder.c) against the brute force: sorted runs with
 * one fault or none, repeats, every order 1-5, permuted modes, small and
 * large coordinates.
 */
static void
test_inorder(void)
{
	uint64_t c[64 * 5], last[5], dims[5], *l;
	int perm[5], order, t, k, bad = 0, inorder = 0;
	size_t n, i, want, got;

	for (t = 0; t < 20000; t++) {
		order = 1 + (int)(next64() % 5);
		n = (size_t)(next64() % 64);
		for (k = 0; k < order; k++) {
			perm[k] = k;
			dims[k] = 1 + next64() % (t % 7 == 0 ? 3 : 40);
		}
		if (t % 11 == 0)
			dims[next64() % (uint64_t)order] = UINT64_MAX;
		for (k = order - 1; k > 0; k--) {
			int j = (int)(next64() % (uint64_t)(k + 1)), x = perm[k];

			perm[k] = perm[j];
			perm[j] = x;
		}
		/* Random tuples, sorted by perm, then maybe one disturbed. */
		for (i = 0; i < n; i++)
			for (k = 0; k < order; k++)
				c[i * (size_t)order + (size_t)k] = next64() %
				    dims[k];
		for (i = 1; i < n; i++) {
			size_t j = i;

			while (j > 0 && unordered_brute(c + (j - 1) *
			    (size_t)order, 2, NULL, perm, order) == 1 &&
			    memcmp(c + (j - 1) * (size_t)order, c + j *
			    (size_t)order, sizeof(uint64_t) * (size_t)order)) {
				uint64_t x[5];

				memcpy(x, c + j * (size_t)order, sizeof(x[0]) *
				    (size_t)order);
				memcpy(c + j * (size_t)order, c + (j - 1) *
				    (size_t)order, sizeof(x[0]) * (size_t)order);
				memcpy(c + (j - 1) * (size_t)order, x,
				    sizeof(x[0]) * (size_t)order);
				j--;
			}
		}
		if (n > 0 && t % 3 == 0)
			c[(next64() % n) * (size_t)order + next64() %
			    (uint64_t)order] = next64() % dims[0];
		l = NULL;
		if (t % 2 == 0) {
			for (k = 0; k < order; k++)
				last[k] = next64() % dims[k];
			l = last;
		}
		want = unordered_brute(c, n, l, perm, order);
		got = ts_coords_unordered(c, n, l, perm, order);
		inorder += got == n;
		if (got != want && bad++ < 5)
			fprintf(stderr, "inorder: case %d (order %d, n %zu): "
			    "%zu, brute force %zu\n", t, order, n, got, want);
	}
	ok(bad == 0, "S2's order check agrees with the brute force on 20000 "
	    "batches (%d of them in order)", inorder);
}

/*
 * S1's bounds check (format/inrange.c) against a test of each coordinate:
 * limits of every kind (1, small, 2^63 and past it, 0), coordinates at
 * and around them and from the top of the range, every order up to 9
 * and lengths with and without a tail past the vectors' words.
 */
static void
test_coords_out(void)
{
	static const uint64_t edge[] = { 1, 2, 3, 1000, (uint64_t)1 << 32,
	    ((uint64_t)1 << 63) - 1, (uint64_t)1 << 63,
	    ((uint64_t)1 << 63) + 1, UINT64_MAX, 0 };
	uint64_t c[9 * 40], lim[9];
	int t, k, bad = 0, outs = 0;
	size_t n, i;

	for (t = 0; t < 40000; t++) {
		int order = 1 + t % 9;
		bool want = false, got;

		n = (size_t)(next64() % 40);
		for (k = 0; k < order; k++)
			lim[k] = next64() % 4 == 0 ? edge[next64() % 10] :
			    1 + next64() % 100000;
		/* Limits of 0 only now and then: every entry is out. */
		for (k = 0; k < order; k++)
			if (lim[k] == 0 && t % 7 != 0)
				lim[k] = 5;
		for (i = 0; i < n; i++)
			for (k = 0; k < order; k++) {
				uint64_t *x = &c[i * (size_t)order + (size_t)k];

				*x = lim[k] == 0 ? 0 : next64() % lim[k];
				if (next64() % 1000 == 0)
					*x = next64() % 3 == 0 ? next64() :
					    lim[k] + next64() % 2;
				if (next64() % 500 == 0 && lim[k] > 0)
					*x = lim[k] - 1;
				want |= *x >= lim[k];
			}
		got = ts_coords_out(c, n, lim, order);
		outs += want;
		if (got != want && bad++ < 5)
			fprintf(stderr, "coords_out: case %d (order %d, n %zu): "
			    "%d, a test of each %d\n", t, order, n, got, want);
	}
	ok(bad == 0, "S1's bounds check agrees with a test of each coordinate "
	    "on 40000 batches (%d of them with one out)", outs);
}

int
main(void)
{
	char cmd[128];

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_roundtrips();
	test_byte_order();
	test_canonical();
	test_meta_errors();
	test_diag_cap();
	test_cutensor();
	test_parallel();
	test_parallel_end();
	test_local();
	test_print_par();
	test_scan_ways();
	test_encoder_range();
	test_escape();
	test_gunzip();
	test_input_bounds();
	test_vtypes();
	test_inorder();
	test_coords_out();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		ok(0, "remove %s", tmpdir);
	return tap_done();
}
