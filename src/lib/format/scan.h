/*
 * scan.h - what the two text readers (reader.c for TensorSuite and
 * FROSTT text, mtx.c for Matrix Market) share: a buffer over a source
 * that holds whole lines, and the small scanners of their fields.
 *
 * Internal to libtensorsuite (not installed).
 */
#ifndef TS_SCAN_H
#define TS_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorsuite.h"

/*
 * Read more of src after buf[len], keeping the unread [*pos, *len) and
 * moving it to the front.  The buffer doubles, up to maxcap bytes, only
 * when it is full of one unfinished line; one byte is always left free
 * after what was read, for a sentinel.  Returns the bytes read, 0 at
 * the end of the input, or -1 with errno set (EFBIG: a line would not
 * fit in maxcap bytes; otherwise the read error).
 */
long	 ts_fill(struct ts_source *src, char **buf, size_t *cap, size_t *pos,
	    size_t *len, size_t maxcap);

static inline bool
isdelim(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline const char *
skipws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Parse an unsigned decimal at *pp, before end: 0 ok (*pp moves past
 * it), 1 not a number, 2 overflow. */
static inline int
parse_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp, *s = p;
	uint64_t v = 0;

	while (p < end && (unsigned)(*p - '0') < 10) {
		unsigned dg = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - dg) / 10)
			return 2;
		v = v * 10 + dg;
		p++;
	}
	if (p == s)
		return 1;
	*out = v;
	*pp = p;
	return 0;
}

/* Did a finite literal at p round to infinity (v what it parsed to)? */
static inline bool
overflowed(double v, const char *p)
{
	if (v - v == 0 || v != v)	/* finite, or NaN */
		return false;
	p += *p == '+' || *p == '-';
	return *p != 'i' && *p != 'I';
}

/* The last '\n' of s[0..n), or NULL. */
static inline char *
lastnl(char *s, size_t n)
{
	while (n > 0)
		if (s[--n] == '\n')
			return s + n;
	return NULL;
}

#endif
