/*
 * fuzz_tns.c - TensorSuite text (.tns), element and block, through its
 * decoder and through the checks of ts-validate over a bundle in memory,
 * with a binary copy beside it when the third byte says so (X6); see
 * fuzz_bundle() in fuzz.h for how the first bytes describe the bundle.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_bundle(data, size, TS_KIND_TEXT);
	return 0;
}
