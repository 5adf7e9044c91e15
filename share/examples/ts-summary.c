/*
 * ts-summary - a short program on libtensorsuite: open a tensor, whatever
 * it is (a bundle, one in an archive, or a .tns, .tnsb or .mtx file,
 * compressed or not, or standard input), stream its entries, and print
 * its order, dimensions, nnz and the range of its values.
 *
 *	cc ts-summary.c $(pkg-config --cflags --libs tensorsuite) -o ts-summary
 *	./ts-summary share/example-element
 *
 * A .tnsb file needs its metadata: give the bundle instead.
 */
#include <stdio.h>

#include <tensorsuite.h>

int
main(int argc, char *argv[])
{
	struct ts_diags *d = ts_diags_new(10, false);
	struct ts_input *in;
	struct ts_decoder *dec;
	const struct ts_header *h;
	struct ts_batch b;
	double lo = 0, hi = 0;
	uint64_t n = 0;
	size_t i;
	int k, rv = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: ts-summary BUNDLE|FILE\n");
		return 2;
	}
	/* What the path is, and how to read it, the library finds out. */
	if ((in = ts_input_open(argv[1], NULL, d)) == NULL)
		goto out;
	dec = ts_input_decoder(in);
	h = ts_decoder_header(dec);
	ts_batch_init(&b, h->order, 4096);
	while (ts_decoder_next(dec, &b) > 0)
		for (i = 0; i < b.n; i++, n++) {
			double v = !b.has_values ? 1 : b.is_int ?
			    (double)b.ival[i] : b.fval[i];

			if (n == 0 || v < lo)
				lo = v;
			if (n == 0 || v > hi)
				hi = v;
		}
	ts_batch_free(&b);
	/* From an archive: every member checked against its manifest. */
	if (ts_input_finish(in) != 0 || ts_diags_errors(d) > 0)
		goto out;
	printf("order %d\ndimensions", h->order);
	for (k = 0; k < h->order; k++)
		printf(" %llu", (unsigned long long)h->dims[k]);
	printf("\nnnz %llu\n", (unsigned long long)n);
	if (n > 0)
		printf("values %g .. %g\n", lo, hi);
	rv = 0;
out:
	ts_diags_print(d, stderr, "ts-summary");
	ts_input_close(in);
	ts_diags_free(d);
	return rv;
}
