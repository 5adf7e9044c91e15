/*
 * xalloc.h - allocation that never returns NULL, and overflow-checked
 * arithmetic on sizes.  Internal to libtensorsuite (not installed).
 *
 * Out of memory, the wrappers print "PROGRAM: out of memory allocating N
 * bytes" on standard error and exit with status 3 (STYLE 9: one place
 * dies, no caller checks).  PROGRAM is ts_progname, which a front end
 * sets; a library user who cannot accept this must not be out of memory.
 */
#ifndef TS_XALLOC_H
#define TS_XALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The program name in the out-of-memory message; "tensorsuite" unless a
 * front end sets it. */
extern const char *ts_progname;

void	*ts_xmalloc(size_t);
void	*ts_xcalloc(size_t, size_t);
void	*ts_xrealloc(void *, size_t);
void	*ts_xreallocarray(void *, size_t, size_t);
char	*ts_xstrdup(const char *);
char	*ts_xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
/* Die as the wrappers do, for an allocation made elsewhere (mmap). */
void	 ts_xoom(size_t) __attribute__((noreturn));

#endif
