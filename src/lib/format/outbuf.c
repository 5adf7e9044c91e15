/*
 * outbuf.c - the encoders' output: large buffers written to a sink by a
 * second thread while the next one is filled (see format.h).  Writing
 * is the sink's (ts_sink_write), so an encoder writes to a file, a pipe
 * or an archive member alike; the first write error is kept and ends
 * the work.  A buffer in memory alone (ts_outbuf_mem_init, no sink)
 * grows instead: the parallel printer formats each chunk into one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "num/digits.h"
#include "util/xalloc.h"

#define WBUFSZ	(1u << 20)

struct ts_outbuf_thread {
	struct ts_sink		*sink;
	int			 err;	/* first errno seen */
	/* the buffer being written by the thread, and its state */
	char			*spare;
	size_t			 sparecap;
	char			*pend;
	size_t			 pendlen;
	bool			 busy, quit, threaded;
	int			 aerr;
	pthread_t		 tid;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
};

static int
sinkwrite(struct ts_sink *k, const char *p, size_t n)
{
	return ts_sink_write(k, p, n) == 0 ? 0 : errno != 0 ? errno : EIO;
}

static void *
writer_main(void *arg)
{
	struct ts_outbuf_thread *w = arg;
	int e;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->busy && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->busy)
			break;
		pthread_mutex_unlock(&w->mu);
		e = w->aerr ? 0 : sinkwrite(w->sink, w->pend, w->pendlen);
		pthread_mutex_lock(&w->mu);
		if (e != 0 && w->aerr == 0)
			w->aerr = e;
		w->busy = false;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Wait for the thread to finish its buffer; pick up its error. */
static void
wait_idle(struct ts_outbuf_thread *w)
{
	pthread_mutex_lock(&w->mu);
	while (w->busy)
		pthread_cond_wait(&w->cv, &w->mu);
	if (w->aerr != 0 && w->err == 0)
		w->err = w->aerr;
	pthread_mutex_unlock(&w->mu);
}

struct ts_outbuf *
ts_outbuf_new(struct ts_sink *k)
{
	struct ts_outbuf *o = ts_xcalloc(1, sizeof(*o));

	o->th = ts_xcalloc(1, sizeof(*o->th));
	o->th->sink = k;
	o->cap = WBUFSZ;
	o->buf = ts_xmalloc(o->cap);
	return o;
}

/* Hand the full buffer to the thread and carry on in the other one. */
static int
handover(struct ts_outbuf *o)
{
	struct ts_outbuf_thread *w = o->th;
	char *p;
	size_t c;

	if (o->len == 0)
		return w->err ? -1 : 0;
	if (!w->threaded) {
		if (pthread_mutex_init(&w->mu, NULL) == 0 &&
		    pthread_cond_init(&w->cv, NULL) == 0 &&
		    pthread_create(&w->tid, NULL, writer_main, w) == 0)
			w->threaded = true;
		else {
			int e = sinkwrite(w->sink, o->buf, o->len);

			if (e != 0 && w->err == 0)
				w->err = e;
			o->len = 0;
			return w->err ? -1 : 0;
		}
	}
	wait_idle(w);
	pthread_mutex_lock(&w->mu);
	w->pend = o->buf;
	w->pendlen = o->len;
	w->busy = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	p = o->buf;
	c = o->cap;
	if (w->spare == NULL) {
		w->sparecap = o->cap;
		w->spare = ts_xmalloc(w->sparecap);
	}
	o->buf = w->spare;
	o->cap = w->sparecap;
	w->spare = p;
	w->sparecap = c;
	o->len = 0;
	return w->err ? -1 : 0;
}

int
ts_outbuf_flush(struct ts_outbuf *o, size_t n)
{
	int rv;

	if (o->th == NULL) {
		/* In memory: keep what is there, make room for n more. */
		if (o->cap - o->len < n) {
			o->cap = o->cap * 2 > o->len + n ? o->cap * 2 :
			    o->len + n;
			o->buf = ts_xrealloc(o->buf, o->cap);
		}
		return 0;
	}
	rv = handover(o);

	if (n > o->cap) {
		o->cap = n;
		o->buf = ts_xrealloc(o->buf, o->cap);
	}
	return rv;
}

void
ts_outbuf_write(struct ts_outbuf *o, const void *s, size_t n)
{
	const char *p = s;

	while (n > 0) {
		size_t k = n < o->cap - o->len ? n : o->cap - o->len;

		memcpy(o->buf + o->len, p, k);
		o->len += k;
		p += k;
		n -= k;
		if (o->len == o->cap)
			ts_outbuf_flush(o, n > 0 ? 1 : 0);
	}
}

void
ts_outbuf_puts(struct ts_outbuf *o, const char *s)
{
	ts_outbuf_write(o, s, strlen(s));
}

void
ts_outbuf_putu(struct ts_outbuf *o, uint64_t v, char sep)
{
	ts_outbuf_need(o, TS_NUMBUF + 1);
	o->len += (size_t)ts_fmt_u64(o->buf + o->len, v);
	o->buf[o->len++] = sep;
}

int
ts_outbuf_error(const struct ts_outbuf *o)
{
	return o->th != NULL ? o->th->err : 0;
}

int
ts_outbuf_sync(struct ts_outbuf *o)
{
	struct ts_outbuf_thread *w = o->th;

	handover(o);
	if (w->threaded)
		wait_idle(w);
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

void
ts_outbuf_mem_init(struct ts_outbuf *o, size_t cap)
{
	memset(o, 0, sizeof(*o));
	o->cap = cap > 0 ? cap : 1;
	o->buf = ts_xmalloc(o->cap);
}

void
ts_outbuf_mem_free(struct ts_outbuf *o)
{
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

int
ts_outbuf_close(struct ts_outbuf *o)
{
	struct ts_outbuf_thread *w = o->th;
	int err;

	handover(o);
	if (w->threaded) {
		wait_idle(w);
		pthread_mutex_lock(&w->mu);
		w->quit = true;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->tid, NULL);
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->cv);
	}
	err = w->err;
	free(o->buf);
	free(w->spare);
	free(w);
	free(o);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
