/*
 * gen-tensor - write the benchmark's synthetic bundle: an order-3
 * tensor of N distinct entries, sorted lexicographically, values in
 * (0, 1), through the library's own writer.
 * Usage: gen-tensor DIR NAME N
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

int
main(int argc, char *argv[])
{
	const uint64_t dim = 2000;
	struct ts_header h;
	struct ts_layout l;
	struct ts_batch b;
	struct ts_writer *w;
	uint64_t n, i, pos = 0, gap;
	char *path;
	FILE *fp;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: gen-tensor DIR NAME N\n");
		return 2;
	}
	n = strtoull(argv[3], NULL, 10);
	memset(&h, 0, sizeof(h));
	memset(&l, 0, sizeof(l));
	h.order = 3;
	h.dims[0] = h.dims[1] = h.dims[2] = dim;
	h.nnz = n;
	l.kind = TS_TEXT;
	l.values = 1;
	l.vtype = TS_FLOAT64;
	l.base = 1;
	path = ts_xasprintf("%s/%s.tns", argv[1], argv[2]);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1) {
		perror(path);
		return 1;
	}
	w = ts_writer_open(fd, argv[2], &h, &l, TS_FMT_SHORTEST);
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
			b.has_values = true;
			ts_writer_put(w, &b);
			b.n = 0;
		}
	}
	b.has_values = true;
	ts_writer_put(w, &b);
	if (ts_writer_close(w) != 0 || close(fd) != 0) {
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
	    "  \"value_type\": \"float64\",\n  \"value_domain\": \"nonnegative\",\n"
	    "  \"values_provided\": true,\n  \"index_type\": \"uint32\",\n"
	    "  \"index_base\": 1,\n  \"sorted\": \"lexicographic\",\n"
	    "  \"sort_order\": [1, 2, 3],\n  \"duplicates\": \"disallowed\",\n"
	    "  \"explicit_zeros\": \"disallowed\",\n"
	    "  \"pattern_symmetry\": \"no\",\n  \"numerical_symmetry\": \"no\",\n"
	    "  \"sparsity_type\": \"element\",\n  \"dense_modes\": [],\n"
	    "  \"endianness\": \"none\",\n  \"order\": 3,\n"
	    "  \"dimensions\": [%llu, %llu, %llu],\n  \"nnz\": %llu,\n"
	    "  \"block_partitions\": null,\n  \"nnz_block\": null,\n"
	    "  \"files\": {\n    \"text\": \"%s.tns\"\n  }\n}\n", argv[2],
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
