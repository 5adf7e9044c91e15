/*
 * progress.h - how long work reports how far it is.  Internal to
 * libtensorsuite (not installed); a front end draws it.
 *
 * The library's long loops call ts_progress(), which costs a clock
 * reading when nothing is due and does nothing at all until a front end
 * sets a drawing hook.  Once the work has taken `after` seconds, and then
 * at most five times a second, the hook gets one line saying what the
 * work is and how far it is ("reading x.tns:  50% (327 MB of 641 MB)");
 * it gets NULL when the line must go (ts_progress_clear()).
 */
#ifndef TS_PROGRESS_H
#define TS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef void ts_progress_fn(const char *line, void *arg);

/* Set (or, with NULL, remove) the hook. */
void	 ts_progress_hook(ts_progress_fn *, void *arg, double after);
/* done of total (bytes, or entries when !bytes; total 0: unknown) of the
 * work that fmt describes ("reading %s"). */
void	 ts_progress(uint64_t done, uint64_t total, bool bytes,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Seconds on a monotonic clock, from some fixed point. */
double	 ts_seconds(void);
/* Take the line away, if it is there; the next report draws it again. */
void	 ts_progress_clear(void);

#endif
