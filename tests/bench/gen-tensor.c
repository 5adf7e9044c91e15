/*
 * gen-tensor - write a benchmark bundle: an order-3 tensor of N distinct
 * entries with values in (0, 1), through the library's own encoder.
 *
 * Usage: gen-tensor DIR NAME N [D1,D2,D3 [unsorted] [novalues]]
 *
 * By default the dimensions are 2000 x 2000 x 2000 and the entries are
 * sorted lexicographically (1-4 digit coordinates: a friendly file).
 * With D1,D2,D3 and "unsorted", the entries are spread over those
 * dimensions and written in a random order, as real collections are
 * (FROSTT and SuiteSparse files are mostly unsorted, with 5-9 digit
 * coordinates).  The same arguments give the same bytes: the generator
 * is seeded.  With "novalues", the same coordinates without values
 * (what ts-gen-values fills in).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"

static uint64_t state = 0x2545f4914f6cdd1dull;

static uint64_t
rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

int
main(int argc, char *argv[])
{
	uint64_t dim[3] = { 2000, 2000, 2000 }, n, i, pos = 0, gap, space;
	uint64_t *c;
	double *v;
	struct ts_encode_opts eo = { .valfmt = TS_VALFMT_SHORTEST, .name = NULL };
	struct ts_header h;
	struct ts_layout l;
	struct ts_batch b;
	struct ts_encoder *e;
	struct ts_sink *k;
	bool unsorted = false, values = true;
	int a;
	char *path;
	FILE *fp;

	if (argc < 4 || argc > 7) {
		fprintf(stderr, "usage: gen-tensor DIR NAME N [D1,D2,D3 "
		    "[unsorted] [novalues]]\n");
		return 2;
	}
	n = strtoull(argv[3], NULL, 10);
	if (argc >= 5 && sscanf(argv[4], "%lu,%lu,%lu", &dim[0], &dim[1],
	    &dim[2]) != 3) {
		fprintf(stderr, "gen-tensor: '%s' is not D1,D2,D3\n", argv[4]);
		return 2;
	}
	for (a = 5; a < argc; a++) {
		if (strcmp(argv[a], "unsorted") == 0)
			unsorted = true;
		else if (strcmp(argv[a], "novalues") == 0)
			values = false;
		else {
			fprintf(stderr, "gen-tensor: '%s'?\n", argv[a]);
			return 2;
		}
	}
	space = dim[0] * dim[1] * dim[2];
	if (n == 0 || space / n < 2) {
		fprintf(stderr, "gen-tensor: %lu entries do not fit\n", n);
		return 2;
	}
	/* Walk the linearized index space with random gaps, so the entries
	 * are distinct; use about half the space. */
	c = malloc(n * 3 * sizeof(*c));
	v = malloc(n * sizeof(*v));
	if (c == NULL || v == NULL)
		die("malloc");
	gap = space / n;
	for (i = 0; i < n; i++) {
		pos += 1 + rnd() % gap;
		c[3 * i] = pos / (dim[1] * dim[2]);
		c[3 * i + 1] = pos / dim[2] % dim[1];
		c[3 * i + 2] = pos % dim[2];
		v[i] = (double)((rnd() >> 11) | 1) * 0x1p-53;
	}
	/* Fisher-Yates: a random order of the same entries. */
	for (i = n - 1; unsorted && i > 0; i--) {
		uint64_t j = rnd() % (i + 1), t[3];
		double tv = v[i];

		memcpy(t, c + 3 * i, sizeof(t));
		memcpy(c + 3 * i, c + 3 * j, sizeof(t));
		memcpy(c + 3 * j, t, sizeof(t));
		v[i] = v[j];
		v[j] = tv;
	}
	memset(&h, 0, sizeof(h));
	memset(&l, 0, sizeof(l));
	h.order = 3;
	memcpy(h.dims, dim, sizeof(dim));
	h.nnz = n;
	l.kind = TS_KIND_TEXT;
	l.values = values;
	l.vtype = TS_VTYPE_FLOAT64;
	l.base = 1;
	eo.name = argv[2];
	path = malloc(strlen(argv[1]) + strlen(argv[2]) + 64);
	if (path == NULL)
		die("malloc");
	sprintf(path, "%s/%s.tns", argv[1], argv[2]);
	if ((k = ts_sink_open(path, TS_SINK_FORCE)) == NULL)
		die(path);
	if ((e = ts_encoder_open(k, &h, &l, &eo, NULL)) == NULL)
		die(path);
	ts_batch_init(&b, 3, 65536);
	b.has_values = values;
	for (i = 0; i < n; i += b.n) {
		b.n = n - i < b.cap ? n - i : b.cap;
		memcpy(b.coords, c + 3 * i, b.n * 3 * sizeof(*c));
		memcpy(b.fval, v + i, b.n * sizeof(*v));
		if (ts_encoder_put(e, &b) != 0)
			die(path);
	}
	if (ts_encoder_close(e) != 0 || ts_sink_commit(k) != 0)
		die(path);
	sprintf(path, "%s/%s_metadata.json", argv[1], argv[2]);
	if ((fp = fopen(path, "w")) == NULL)
		die(path);
	fprintf(fp, "{\n  \"version\": \"0.1\",\n  \"name\": \"%s\",\n"
	    "  \"group\": \"bench\",\n  \"id\": \"0000\",\n"
	    "  \"time\": \"2026-12-01\",\n  \"source_type\": \"synthetic\",\n"
	    "  \"source\": \"tests/bench/gen-tensor\",\n  \"source_url\": \"\",\n"
	    "  \"value_type\": \"float64\",\n  \"value_domain\": \"%s\",\n"
	    "  \"values_provided\": %s,\n  \"index_type\": \"uint32\",\n"
	    "  \"index_base\": 1,\n  \"sorted\": \"%s\",\n"
	    "  \"sort_order\": %s,\n  \"duplicates\": \"disallowed\",\n"
	    "  \"explicit_zeros\": \"disallowed\",\n"
	    "  \"pattern_symmetry\": \"no\",\n  \"numerical_symmetry\": \"no\",\n"
	    "  \"sparsity_type\": \"element\",\n  \"dense_modes\": [],\n"
	    "  \"endianness\": \"none\",\n  \"order\": 3,\n"
	    "  \"dimensions\": [%lu, %lu, %lu],\n  \"nnz\": %lu,\n"
	    "  \"block_partitions\": null,\n  \"nnz_block\": null,\n"
	    "  \"files\": {\n    \"text\": \"%s.tns\"\n  }\n}\n", argv[2],
	    values ? "nonnegative" : "general", values ? "true" : "false",
	    unsorted ? "none" : "lexicographic", unsorted ? "[]" :
	    "[1, 2, 3]", dim[0], dim[1], dim[2], n, argv[2]);
	if (fclose(fp) != 0)
		die(path);
	sprintf(path, "%s/README.md", argv[1]);
	if ((fp = fopen(path, "w")) == NULL)
		die(path);
	fprintf(fp, "# %s\n\nSynthetic benchmark tensor written by "
	    "tests/bench/gen-tensor.\n", argv[2]);
	if (fclose(fp) != 0)
		die(path);
	free(path);
	free(c);
	free(v);
	ts_batch_free(&b);
	return 0;
}
