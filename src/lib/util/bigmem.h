/*
 * bigmem.h - big arrays in mappings of their own: mmap'd rather than
 * malloc'd, 2 MiB aligned and advised onto transparent huge pages, grown
 * by moving their pages rather than copying their bytes.  For arrays of
 * many MiB written all over, as a radix sort writes them: a huge page
 * takes one TLB entry per 2 MiB where small pages take 512.
 *
 * Sizes come from ts_big_round(), and a mapping is unmapped with the
 * size it was made or grown to.  The caller owns each mapping; nothing
 * else is kept, so the functions may be called from any thread, as long
 * as no other thread uses a mapping while it is grown or unmapped.  Out
 * of memory they print a message and exit(TS_STATUS_IO), as ts_xmalloc()
 * does: they never return NULL.
 *
 * Internal to libtensorsuite (not installed).
 */
#ifndef TS_BIGMEM_H
#define TS_BIGMEM_H

#include <stddef.h>

/*
 * The size of a mapping that holds n bytes: n rounded up to whole pages,
 * or from 2 MiB on to whole huge pages.  ts_big_round(0) is 0, which is
 * not a size to map.
 */
size_t	 ts_big_round(size_t n);

/*
 * Map n bytes (n > 0, from ts_big_round), zero-filled; from 2 MiB on
 * the mapping starts on a 2 MiB boundary and is advised to use huge
 * pages.  Free it with ts_big_unmap(p, n).
 */
void	*ts_big_map(size_t n);

/* Unmap p, n bytes from ts_big_map or ts_big_grow; p may be NULL. */
void	 ts_big_unmap(void *p, size_t n);

/*
 * Grow the mapping p of old bytes to n bytes (both from ts_big_round,
 * n >= old), keeping its contents; the new bytes are zero.  p may be
 * NULL with old 0, to make a first mapping.  Returns the new mapping,
 * and p is gone: where mremap(2) exists the pages are moved, not copied.
 */
void	*ts_big_grow(void *p, size_t old, size_t n);

#endif
