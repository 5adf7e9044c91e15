/*
 * strbuf.h - a string that grows as it is printed to.
 */
#ifndef TS_UTIL_STRBUF_H
#define TS_UTIL_STRBUF_H

#include <stddef.h>

struct ts_strbuf {
	char	*s;		/* NUL-terminated once printed to; malloc'd */
	size_t	 n, cap;
};

/* Append, as printf would print; s grows as needed (it starts NULL, or
 * malloc'd with cap bytes). */
void	 ts_sbprintf(struct ts_strbuf *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
