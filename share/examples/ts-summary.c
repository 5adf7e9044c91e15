/*
 * ts-summary - a short program on libtensorsuite: open a bundle (or a
 * .tns, .tnsb or .mtx file, compressed or not), stream its entries, and
 * print its order, dimensions, nnz and the range of its values.
 *
 *	cc ts-summary.c $(pkg-config --cflags --libs tensorsuite) -o ts-summary
 *	./ts-summary share/example-element
 *
 * A .tnsb file needs its metadata: give the bundle instead.
 */
#include <stdio.h>
#include <sys/stat.h>

#include <tensorsuite.h>

/* How to read a bundle's data file, from its metadata. */
static struct ts_source *
open_bundle(const char *path, struct ts_diags *d, struct ts_bundle **bdp,
    struct ts_layout *lay)
{
	struct ts_bundle *bd = ts_bundle_open(path, d);
	const struct ts_meta *m;
	const char *f;

	*bdp = bd;
	if (bd == NULL || (m = ts_bundle_meta(bd)) == NULL)
		return NULL;
	ts_layout_of(m, TS_KIND_TEXT, lay);
	if ((f = ts_bundle_data_file(bd, TS_KIND_TEXT)) == NULL) {
		lay->kind = TS_KIND_BINARY;
		f = ts_bundle_data_file(bd, TS_KIND_BINARY);
	}
	return f != NULL ? ts_bundle_open_file(bd, f) : NULL;
}

int
main(int argc, char *argv[])
{
	struct ts_diags *d = ts_diags_new(10, false);
	struct ts_layout lay = { TS_KIND_TEXT, false, -1, TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_LITTLE, 1 };
	struct ts_bundle *bd = NULL;
	struct ts_source *src;
	struct ts_decoder *dec = NULL;
	const struct ts_header *h;
	struct ts_batch b;
	double lo = 0, hi = 0;
	uint64_t n = 0;
	struct stat st;
	size_t i;
	int k, rv = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: ts-summary BUNDLE|FILE\n");
		return 2;
	}
	if (stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode))
		src = open_bundle(argv[1], d, &bd, &lay);
	else {
		/* A data file: its first bytes say which kind. */
		src = ts_source_open(argv[1], TS_SOURCE_DECOMPRESS, NULL);
		if (src != NULL)
			lay.kind = ts_sniff(src);
	}
	if (src == NULL || (dec = ts_decoder_open(src, &lay, d)) == NULL)
		goto out;
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
	if (ts_diags_errors(d) > 0)
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
	if (src == NULL && ts_diags_len(d) == 0)
		perror(argv[1]);
	ts_decoder_close(dec);
	ts_source_close(src);
	ts_bundle_free(bd);
	ts_diags_free(d);
	return rv;
}
