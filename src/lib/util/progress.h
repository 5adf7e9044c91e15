/*
 * progress.h - how long work reports how far it is.  Internal to
 * libtensorsuite (not installed); a front end draws it.
 *
 * The library's long loops call ts_progress(), which costs a clock
 * reading when nothing is due and does nothing at all until a front end
 * sets a drawing hook.  Once the work has taken `after` seconds, and then
 * at most once every `every` seconds, the hook gets what the work is
 * ("reading x.tns", a verb, then what it works on) and how far it is
 * ("50% (327 MB of 641 MB)", or NULL when that is not known); a new
 * phase of the work shows at once.  It gets NULL, NULL when the line
 * must go (ts_progress_clear()).
 */
#ifndef TS_PROGRESS_H
#define TS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef void ts_progress_fn(const char *what, const char *status,
	    void *arg);

/* Set (or, with NULL, remove) the hook. */
void	 ts_progress_hook(ts_progress_fn *, void *arg, double after,
	    double every);
/* done of total (bytes, or entries when !bytes; total 0: unknown) of the
 * work that fmt describes ("reading %s"). */
void	 ts_progress(uint64_t done, uint64_t total, bool bytes,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Seconds on a monotonic clock, from some fixed point. */
double	 ts_seconds(void);
/* Take the line away, if it is there; the next report draws it again. */
void	 ts_progress_clear(void);
/* The reports of the calling thread are not drawn: one that works
 * beside the one whose work the line tells (a check riding on a pack). */
void	 ts_progress_mute_thread(void);

#endif
