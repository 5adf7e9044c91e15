/*
 * fuzz_tnsb.c - TensorSuite binary (.tnsb), element and block, through
 * its decoder and through the checks of ts-validate over a bundle in
 * memory; see fuzz_bundle() in fuzz.h for how the first bytes describe
 * the bundle.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_bundle(data, size, TS_KIND_BINARY);
	return 0;
}
