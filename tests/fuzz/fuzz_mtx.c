/*
 * fuzz_mtx.c - Matrix Market files (with or without a banner, any
 * field and symmetry) imported as ts-convert imports them; see
 * fuzz_import() in fuzz.h for the passes and the properties.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ts_layout lay;

	memset(&lay, 0, sizeof(lay));
	lay.kind = TS_KIND_MTX;
	lay.values = -1;
	lay.vtype = TS_VTYPE_FLOAT64;
	lay.itype = TS_ITYPE_UINT64;
	lay.base = 1;
	fuzz_import(data, size, &lay);
	return 0;
}
