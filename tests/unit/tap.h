/*
 * tap.h - the Test Anything Protocol lines the C unit tests print, one
 * copy for all of them.  Each test program includes it once.
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdio.h>

static int ntest, nfail;

static void ok(int, const char *, ...) __attribute__((format(printf, 2, 3)));

/* One test: "ok N - what" or "not ok N - what". */
static void
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	ntest++;
	if (!cond)
		nfail++;
	printf("%sok %d - ", cond ? "" : "not ", ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* The plan line, last; the exit status of the program. */
static int
tap_done(void)
{
	printf("1..%d\n", ntest);
	return nfail != 0;
}

#endif
