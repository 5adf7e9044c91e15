/*
 * read-values - read a tensor's entries through the library's reader and
 * nothing else: the part of ts-validate and ts-stat that both pay.
 *
 * Usage: read-values PATH [classes]
 *
 * With "classes", the values of a text file are read as ts-validate
 * reads them (ts_decoder_value_classes: zero or not, no conversion);
 * without it, each is converted to its double, as any statistic of the
 * values (ts-stat's extremes, sum, distinct count, histogram) needs
 * them.  The difference of the two times is what converting the values
 * costs; make bench prints it beside ts-stat's ratio to ts-validate
 * (scripts/bench.sh, statrows).  Prints the entries and the sum of the
 * values (so that no conversion can be left out).
 */
#include <stdio.h>
#include <string.h>

#include "tensorsuite.h"

int
main(int argc, char **argv)
{
	struct ts_diags *d;
	struct ts_input *in;
	struct ts_decoder *dec;
	struct ts_batch b;
	uint64_t n = 0;
	double sum = 0;
	long got;
	size_t i;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2],
	    "classes") != 0)) {
		fprintf(stderr, "usage: read-values PATH [classes]\n");
		return 2;
	}
	d = ts_diags_new(20, false);
	if ((in = ts_input_open(argv[1], NULL, d)) == NULL) {
		ts_diags_print(d, stderr, "read-values");
		return 1;
	}
	dec = ts_input_decoder(in);
	if (argc == 3)
		ts_decoder_value_classes(dec);
	ts_batch_init(&b, ts_decoder_header(dec)->order, 8192);
	while ((got = ts_decoder_next(dec, &b)) > 0) {
		n += b.n;
		for (i = 0; b.has_values && i < b.n; i++)
			sum += b.is_int ? (double)b.ival[i] : b.fval[i];
	}
	ts_batch_free(&b);
	ts_input_close(in);
	if (got < 0) {
		ts_diags_print(d, stderr, "read-values");
		return 1;
	}
	ts_diags_free(d);
	printf("%llu entries, values summing to %.17g\n",
	    (unsigned long long)n, sum);
	return 0;
}
