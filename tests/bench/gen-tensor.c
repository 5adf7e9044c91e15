/*
 * gen-tensor - write the benchmark's synthetic bundle: an order-3
 * tensor of N distinct entries, sorted lexicographically, values in
 * (0, 1), through the library's own encoder; with "novalues", the same
 * coordinates without values (what ts-gen-values fills in).
 * Usage: gen-tensor DIR NAME N [novalues]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "util/xalloc.h"	/* ts_xasprintf: internal, not installed */

static uint64_t state = 0x2545f4914f6cdd1dull;

static uint64_t
rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int
main(int argc, char *argv[])
{
	const uint64_t dim = 2000;
	struct ts_header h;
	struct ts_layout l;
	struct ts_batch b;
	struct ts_encode_opts eo;
	struct ts_encoder *w;
	struct ts_sink *k;
	uint64_t n, i, pos = 0, gap;
	char *path;
	FILE *fp;
	bool values;

	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4],
	    "novalues") != 0)) {
		fprintf(stderr, "usage: gen-tensor DIR NAME N [novalues]\n");
		return 2;
	}
	n = strtoull(argv[3], NULL, 10);
	values = argc == 4;
	memset(&h, 0, sizeof(h));
	memset(&l, 0, sizeof(l));
	h.order = 3;
	h.dims[0] = h.dims[1] = h.dims[2] = dim;
	h.nnz = n;
	l.kind = TS_TEXT;
	l.values = values;
	l.vtype = TS_FLOAT64;
	l.base = 1;
	path = ts_xasprintf("%s/%s.tns", argv[1], argv[2]);
	memset(&eo, 0, sizeof(eo));
	eo.name = argv[2];
	if ((k = ts_sink_open(path, TS_SINK_FORCE)) == NULL ||
	    (w = ts_encoder_open(k, &h, &l, &eo, NULL)) == NULL) {
		perror(path);
		return 1;
	}
	ts_batch_init(&b, 3, 65536);
	/* Walk the linearized index space with random gaps, so the
	 * entries come out sorted and distinct. */
	gap = dim * dim * dim / n;	/* uses about half the space */
	for (i = 0; i < n; i++) {
		pos += 1 + rnd() % gap;
		b.coords[b.n * 3] = pos / (dim * dim);
		b.coords[b.n * 3 + 1] = pos / dim % dim;
		b.coords[b.n * 3 + 2] = pos % dim;
		b.fval[b.n] = (double)((rnd() >> 11) | 1) * 0x1p-53;
		if (++b.n == b.cap) {
			b.has_values = values;
			ts_encoder_put(w, &b);
			b.n = 0;
		}
	}
	b.has_values = values;
	if (ts_encoder_put(w, &b) != 0 || ts_encoder_close(w) != 0 ||
	    ts_sink_commit(k) != 0) {
		perror(path);
		return 1;
	}
	free(path);
	path = ts_xasprintf("%s/%s_metadata.json", argv[1], argv[2]);
	fp = fopen(path, "w");
	fprintf(fp, "{\n  \"version\": \"0.1\",\n  \"name\": \"%s\",\n"
	    "  \"group\": \"bench\",\n  \"id\": \"0000\",\n"
	    "  \"time\": \"2026-12-01\",\n  \"source_type\": \"synthetic\",\n"
	    "  \"source\": \"tests/bench/gen-tensor\",\n  \"source_url\": \"\",\n"
	    "  \"value_type\": \"float64\",\n  \"value_domain\": \"%s\",\n"
	    "  \"values_provided\": %s,\n  \"index_type\": \"uint32\",\n"
	    "  \"index_base\": 1,\n  \"sorted\": \"lexicographic\",\n"
	    "  \"sort_order\": [1, 2, 3],\n  \"duplicates\": \"disallowed\",\n"
	    "  \"explicit_zeros\": \"disallowed\",\n"
	    "  \"pattern_symmetry\": \"no\",\n  \"numerical_symmetry\": \"no\",\n"
	    "  \"sparsity_type\": \"element\",\n  \"dense_modes\": [],\n"
	    "  \"endianness\": \"none\",\n  \"order\": 3,\n"
	    "  \"dimensions\": [%llu, %llu, %llu],\n  \"nnz\": %llu,\n"
	    "  \"block_partitions\": null,\n  \"nnz_block\": null,\n"
	    "  \"files\": {\n    \"text\": \"%s.tns\"\n  }\n}\n", argv[2],
	    values ? "nonnegative" : "general", values ? "true" : "false",
	    (unsigned long long)dim, (unsigned long long)dim,
	    (unsigned long long)dim, (unsigned long long)n, argv[2]);
	if (fclose(fp) != 0) {
		perror(path);
		return 1;
	}
	free(path);
	path = ts_xasprintf("%s/README.md", argv[1]);
	fp = fopen(path, "w");
	fprintf(fp, "# %s\n\nSynthetic benchmark tensor written by "
	    "tests/bench/gen-tensor.\n", argv[2]);
	if (fclose(fp) != 0) {
		perror(path);
		return 1;
	}
	free(path);
	ts_batch_free(&b);
	return 0;
}
