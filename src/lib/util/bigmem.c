/*
 * bigmem.c - big arrays: mmap'd, 2 MiB aligned, huge pages (see
 * bigmem.h).
 */
#define _GNU_SOURCE		/* mremap(2) */

#include <sys/types.h>
#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "util/bigmem.h"
#include "util/xalloc.h"

#define HUGE_SZ		((size_t)2 << 20)	/* transparent huge page */

size_t
ts_big_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	if (n >= HUGE_SZ)
		return (n + HUGE_SZ - 1) & ~(HUGE_SZ - 1);
	return (n + pg - 1) / pg * pg;
}

/* Arrays of huge pages take a TLB entry per 2 MiB, which the scattered
 * writes of a radix sort need. */
void *
ts_big_map(size_t n)
{
	char *p, *a;
	size_t pad;

	if (n < HUGE_SZ) {
		p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			ts_xoom(n);
		return p;
	}
	/* Over-allocate, then trim to a 2 MiB boundary. */
	p = mmap(NULL, n + HUGE_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ts_xoom(n);
	a = (char *)(((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
	pad = (size_t)(a - p);
	if (pad != 0)
		munmap(p, pad);
	if (HUGE_SZ - pad != 0)
		munmap(a + n, HUGE_SZ - pad);
#ifdef MADV_HUGEPAGE
	madvise(a, n, MADV_HUGEPAGE);
#endif
	return a;
}

void
ts_big_unmap(void *p, size_t n)
{
	if (p != NULL)
		munmap(p, n);
}

/* The pages are moved, not copied, where mremap exists. */
void *
ts_big_grow(void *p, size_t old, size_t n)
{
	void *q = ts_big_map(n);

	if (p == NULL || old == 0)
		return q;
#ifdef MREMAP_FIXED
	if (mremap(p, old, old, MREMAP_MAYMOVE | MREMAP_FIXED, q) !=
	    MAP_FAILED) {
#ifdef MADV_HUGEPAGE
		if (n >= HUGE_SZ)
			madvise(q, n, MADV_HUGEPAGE);
#endif
		return q;
	}
#endif
	memcpy(q, p, old);
	munmap(p, old);
	return q;
}
