/*
 * strbuf.c - a string that grows as it is printed to.
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

void
ts_sbprintf(struct ts_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = b->s == NULL ? -1 : vsnprintf(b->s + b->n, b->cap - b->n,
		    fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->n)
			break;
		if (n < 0 && b->s != NULL)
			return;	/* an encoding error: nothing added */
		b->cap = 2 * b->cap + (n > 0 ? (size_t)n : 64);
		b->s = ts_xrealloc(b->s, b->cap);
	}
	b->n += (size_t)n;
}
