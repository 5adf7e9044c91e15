/*
 * fuzz_meta.c - metadata JSON (SPEC section 2): ts_meta_parse on any
 * bytes must report, never crash; and metadata it accepts must come back
 * from ts_meta_canonical as text that parses again without an error,
 * that the readers' 16 MiB cap admits, and whose canonical form is
 * itself (SPEC M2: two writes are byte-identical).
 */
#include "fuzz.h"

#define META_MAX	(16u << 20)	/* what ts_meta_read takes */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_meta m, m2;
	char *c, *c2;

	ts_meta_init(&m);
	if (ts_meta_parse(&m, (const char *)data, size, "m.json", d) == 0 &&
	    ts_diags_errors(d) == 0) {
		c = ts_meta_canonical(&m);
		FUZZ_ASSERT(strlen(c) < META_MAX);
		ts_diags_clear(d);
		ts_meta_init(&m2);
		FUZZ_ASSERT(ts_meta_parse(&m2, c, strlen(c), "c.json", d) ==
		    0);
		FUZZ_ASSERT(ts_diags_errors(d) == 0);
		c2 = ts_meta_canonical(&m2);
		FUZZ_ASSERT(strcmp(c, c2) == 0);
		free(c2);
		free(c);
		ts_meta_free(&m2);
	}
	ts_meta_free(&m);
	ts_diags_free(d);
	return 0;
}
