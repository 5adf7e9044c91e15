/*
 * size.h - sizes as people write them on a command line (-S 256M,
 * --max-size 8G, -S 25%): the one parser every tool and option uses.
 * Internal to libtensorsuite (not installed).
 */
#ifndef TS_SIZE_H
#define TS_SIZE_H

#include <stdint.h>

/*
 * s is a size: a decimal number of bytes, a fraction allowed ("1.5G"),
 * with an optional suffix K, M, G or T (or k, m, g, t: powers of 1024),
 * or N% (0 < N <= 100, a fraction allowed) of whole, the memory the
 * caller means (ts_mem_available()).  The bytes, rounded down, go to
 * *out.  Returns 0, or -1 with errno EINVAL when s is not a size (no
 * digits, another suffix, a sign, a percentage beyond 100, spaces) and
 * ERANGE when it is one beyond 2^63 - 1 bytes.
 */
int	 ts_parse_size(const char *s, uint64_t whole, uint64_t *out);

#endif
