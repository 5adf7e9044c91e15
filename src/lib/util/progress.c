/*
 * progress.c - one progress line on standard error, for work that takes
 * long: shown only when standard error is a terminal (TS_PROGRESS=always
 * shows it whatever standard error is, =never hides it), never with -q,
 * and only once the work has taken PROGRESS_AFTER seconds; redrawn in
 * place ("\r") at most every PROGRESS_EVERY seconds, and cleared before
 * any other message and at the end, so that nothing else is garbled.
 *
 * There is one line per process, so the state is this file's; a tool
 * turns it on with ts_progress_init() and the library's loops report to
 * it with ts_progress(), which costs a clock reading when nothing is due
 * (and formats what the work is only when it draws).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tensorsuite.h"

#define PROGRESS_AFTER	1.0
#define PROGRESS_EVERY	0.2

static struct {
	bool	 on, always, shown;
	int	 width;
	double	 t0, next;
} P;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void
ts_progress_init(bool quiet)
{
	const char *e = getenv("TS_PROGRESS");

	P.always = e != NULL && strcmp(e, "always") == 0;
	P.on = !quiet && (P.always || (isatty(STDERR_FILENO) &&
	    (e == NULL || strcmp(e, "never") != 0)));
	P.t0 = now();
	P.next = P.t0 + (P.always ? 0 : PROGRESS_AFTER);
	P.shown = false;
}

/* Bytes as people read them: 12 kB, 641 MB, 1.2 GB. */
static void
human(char *buf, size_t n, uint64_t v)
{
	if (v >= (uint64_t)10000000000)
		snprintf(buf, n, "%.0f GB", (double)v / 1e9);
	else if (v >= 1000000000)
		snprintf(buf, n, "%.1f GB", (double)v / 1e9);
	else if (v >= 1000000)
		snprintf(buf, n, "%.0f MB", (double)v / 1e6);
	else
		snprintf(buf, n, "%.0f kB", (double)v / 1e3);
}

void
ts_progress(uint64_t done, uint64_t total, bool bytes, const char *fmt, ...)
{
	char line[256], what[160], a[32], b[32];
	va_list ap;
	double t;
	int w;

	/* A new phase (nothing done yet) shows at once, once the line is
	 * there. */
	if (!P.on || ((t = now()) < P.next && !(P.shown && done == 0)))
		return;
	P.next = t + PROGRESS_EVERY;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (bytes) {
		human(a, sizeof(a), done);
		human(b, sizeof(b), total);
	} else {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)done);
		snprintf(b, sizeof(b), "%llu entries",
		    (unsigned long long)total);
	}
	if (total == 0 && done == 0 && !bytes)
		w = snprintf(line, sizeof(line), "%s: %s", ts_progname, what);
	else if (total > 0 && done <= total)
		w = snprintf(line, sizeof(line), "%s: %s: %3d%% (%s of %s)",
		    ts_progname, what, (int)(100.0 * (double)done /
		    (double)total), a, b);
	else
		w = snprintf(line, sizeof(line), "%s: %s: %s", ts_progname,
		    what, a);
	if (w < 0)
		return;
	if (w >= (int)sizeof(line))
		w = (int)sizeof(line) - 1;
	/* Pad over what a longer line left. */
	fprintf(stderr, "\r%s%*s", line, P.width > w ? P.width - w : 0, "");
	fflush(stderr);
	P.width = w;
	P.shown = true;
}

void
ts_progress_clear(void)
{
	if (!P.shown)
		return;
	fprintf(stderr, "\r%*s\r", P.width, "");
	fflush(stderr);
	P.shown = false;
	P.width = 0;
}
