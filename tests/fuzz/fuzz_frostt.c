/*
 * fuzz_frostt.c - FROSTT .tns and its dialects (sptensor, extended
 * FROSTT, ...) imported as ts-convert imports them: the first byte picks
 * whether values are inferred or absent and their type; the rest is the
 * file.  See fuzz_import() in fuzz.h for the passes and the properties.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ts_vtype vt[] = { TS_VTYPE_FLOAT64, TS_VTYPE_FLOAT32,
	    TS_VTYPE_INT32, TS_VTYPE_INT64 };
	struct ts_layout lay;

	if (size < 1)
		return 0;
	memset(&lay, 0, sizeof(lay));
	lay.kind = TS_KIND_FROSTT;
	lay.values = (data[0] & 1) ? 0 : -1;
	lay.vtype = vt[(data[0] >> 1) & 3];
	lay.itype = TS_ITYPE_UINT64;
	lay.base = 0;		/* read raw; the base is found after */
	fuzz_import(data + 1, size - 1, &lay);
	return 0;
}
