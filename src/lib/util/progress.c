/*
 * progress.c - when and what to report of long work (see progress.h).
 * There is one line per process, so the state is this file's.  Drawing
 * is the front end's: this file only decides when a line is due and
 * formats it, and only when it is due.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/progress.h"

static struct {
	ts_progress_fn	*draw;
	void		*arg;
	bool		 shown;		/* a line is on screen */
	bool		 started;	/* a line was ever drawn */
	double		 next, every;
	char		 what[160];	/* the last drawn */
} P;

/* The line is the process's, but one thread's to draw. */
static _Thread_local bool muted;

void
ts_progress_mute_thread(void)
{
	muted = true;
}

double
ts_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void
ts_progress_hook(ts_progress_fn *fn, void *arg, double after, double every)
{
	P.draw = fn;
	P.arg = arg;
	P.next = ts_seconds() + after;
	P.every = every;
	P.shown = false;
	P.started = false;
	P.what[0] = '\0';
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
	char status[96], what[sizeof(P.what)], a[32], b[32];
	bool due;
	va_list ap;
	double t;

	if (P.draw == NULL || muted)
		return;
	/* A new phase (another description) shows at once, once a line
	 * has been drawn, wherever it starts (a reader's first report is
	 * past the header) and also after a message cleared the line, so
	 * that a log says where each phase began. */
	t = ts_seconds();
	due = t >= P.next;
	if (!due && !P.started)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!due && strcmp(what, P.what) == 0)
		return;
	P.next = t + P.every;
	if (bytes) {
		human(a, sizeof(a), done);
		human(b, sizeof(b), total);
	} else {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)done);
		snprintf(b, sizeof(b), "%llu entries",
		    (unsigned long long)total);
	}
	if (total == 0 && done == 0 && !bytes)
		status[0] = '\0';
	else if (total > 0 && done <= total)
		snprintf(status, sizeof(status), "%3d%% (%s of %s)",
		    (int)(100.0 * (double)done / (double)total), a, b);
	else
		snprintf(status, sizeof(status), "%s", a);
	memcpy(P.what, what, sizeof(P.what));
	P.draw(what, status[0] != '\0' ? status : NULL, P.arg);
	P.shown = P.started = true;
}

void
ts_progress_clear(void)
{
	if (!P.shown || P.draw == NULL)
		return;
	P.draw(NULL, NULL, P.arg);
	P.shown = false;
}
