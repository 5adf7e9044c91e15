/*
 * hash.h - a 64-bit mixer: every input bit reaches every output bit
 * (the finaliser of MurmurHash3), for hash tables and fingerprints that
 * must not cluster on coordinates, which differ in their low bits.
 * Internal: not installed.
 */
#ifndef TS_UTIL_HASH_H
#define TS_UTIL_HASH_H

#include <stdint.h>

static inline uint64_t
ts_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
