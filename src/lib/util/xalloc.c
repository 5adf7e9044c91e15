/*
 * xalloc.c - allocation that dies instead of returning NULL, and
 * overflow-checked arithmetic.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "util/xalloc.h"

const char *ts_progname = "tensorsuite";

void
ts_xoom(size_t n)
{
	fprintf(stderr, "%s: out of memory allocating %zu bytes\n",
	    ts_progname, n);
	exit(TS_STATUS_IO);
}

void *
ts_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		ts_xoom(n);
	return p;
}

void *
ts_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		ts_xoom(n * size);
	return p;
}

void *
ts_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		ts_xoom(n);
	return q;
}

void *
ts_xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		ts_xoom(SIZE_MAX);
	return ts_xrealloc(p, n * size);
}

char *
ts_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(ts_xmalloc(n), s, n);
}

char *
ts_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		ts_xoom(0);
	s = ts_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

bool
ts_mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

bool
ts_add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}
