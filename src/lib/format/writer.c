/*
 * writer.c - the streaming encoder: batches of entries to TensorSuite
 * text or binary, assembled in large buffers and written with write(2),
 * so a failed write is seen and reported.  A second thread does the
 * writing while the next buffer is filled: on these machines putting
 * pages into the page cache costs about as much as encoding them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "num/digits.h"

#define WBUFSZ	(1u << 20)

struct ts_writer {
	int			 fd;
	struct ts_layout	 lay;
	int			 order;
	int			 fmt;
	char			*buf;
	size_t			 len, cap;
	bool			 swap;
	int			 err;	/* first errno seen */
	/* the buffer being written by the thread, and its state */
	char			*spare;
	size_t			 sparecap;
	char			*pend;
	size_t			 pendlen;
	bool			 busy, quit, threaded;
	int			 aerr;
	pthread_t		 th;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
};

static int
writeall(int fd, const char *p, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = write(fd, p + off, len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		off += (size_t)n;
	}
	return 0;
}

static void *
writer_thread(void *arg)
{
	struct ts_writer *w = arg;
	int e;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->busy && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->busy)
			break;
		pthread_mutex_unlock(&w->mu);
		e = w->aerr ? 0 : writeall(w->fd, w->pend, w->pendlen);
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
wait_idle(struct ts_writer *w)
{
	pthread_mutex_lock(&w->mu);
	while (w->busy)
		pthread_cond_wait(&w->cv, &w->mu);
	if (w->aerr != 0 && w->err == 0)
		w->err = w->aerr;
	pthread_mutex_unlock(&w->mu);
}

/* Hand the full buffer to the thread and carry on in the other one. */
static int
wflush(struct ts_writer *w)
{
	char *p;
	size_t c;

	if (w->len == 0)
		return w->err ? -1 : 0;
	if (!w->threaded) {
		if (pthread_mutex_init(&w->mu, NULL) == 0 &&
		    pthread_cond_init(&w->cv, NULL) == 0 &&
		    pthread_create(&w->th, NULL, writer_thread, w) == 0)
			w->threaded = true;
		else {
			int e = writeall(w->fd, w->buf, w->len);

			if (e != 0 && w->err == 0)
				w->err = e;
			w->len = 0;
			return w->err ? -1 : 0;
		}
	}
	wait_idle(w);
	pthread_mutex_lock(&w->mu);
	w->pend = w->buf;
	w->pendlen = w->len;
	w->busy = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	p = w->buf;
	c = w->cap;
	if (w->spare == NULL) {
		w->sparecap = w->cap;
		w->spare = ts_xmalloc(w->sparecap);
	}
	w->buf = w->spare;
	w->cap = w->sparecap;
	w->spare = p;
	w->sparecap = c;
	w->len = 0;
	return w->err ? -1 : 0;
}

/* Everything handed over is written; stop the thread. */
static void
wdrain(struct ts_writer *w)
{
	wflush(w);
	if (!w->threaded)
		return;
	wait_idle(w);
	pthread_mutex_lock(&w->mu);
	w->quit = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	w->threaded = false;
}

/* Make room for n more bytes (a huge value token grows the buffer). */
static inline int
need(struct ts_writer *w, size_t n)
{
	int rv = 0;

	if (w->len + n > w->cap) {
		rv = wflush(w);
		if (n > w->cap) {
			w->cap = n;
			w->buf = ts_xrealloc(w->buf, w->cap);
		}
	}
	return rv;
}

static void
puts_w(struct ts_writer *w, const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		size_t k = n < w->cap - w->len ? n : w->cap - w->len;

		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
		if (w->len == w->cap)
			wflush(w);
	}
}

static void
putu_w(struct ts_writer *w, uint64_t v, char sep)
{
	need(w, TS_NUMBUF + 1);
	w->len += (size_t)ts_fmt_u64(w->buf + w->len, v);
	w->buf[w->len++] = sep;
}

static bool
host_little(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

struct ts_writer *
ts_writer_open(int fd, const char *name, const struct ts_header *h,
    const struct ts_layout *l, int fmt)
{
	struct ts_writer *w = ts_xcalloc(1, sizeof(*w));
	int i;
	uint64_t k;

	w->fd = fd;
	w->lay = *l;
	w->order = h->order;
	w->fmt = fmt;
	w->cap = WBUFSZ;
	w->buf = ts_xmalloc(w->cap);
	w->swap = (l->endian == TS_END_BIG) == host_little();
	if (l->block)
		w->lay.values = 0;
	if (l->kind == TS_FROSTT)
		return w;	/* FROSTT: no header, and '1' for no value */
	puts_w(w, l->kind == TS_TEXT ? "%%TensorSuite-TNS\n" :
	    "%%TensorSuite-TNSB\n");
	puts_w(w, "% version: " TS_FORMAT "\n% name: ");
	puts_w(w, name);
	puts_w(w, "\n");
	putu_w(w, (uint64_t)h->order, ' ');
	for (i = 0; i < h->order; i++)
		putu_w(w, h->dims[i], ' ');
	putu_w(w, h->nnz, '\n');
	if (l->block) {
		for (i = 0; i < h->order; i++)
			putu_w(w, h->parts[i], ' ');
		putu_w(w, h->nnz_block, '\n');
		for (i = 0; i < h->order; i++)
			for (k = 0; k < h->parts[i]; k++)
				putu_w(w, h->extents[i][k],
				    k + 1 == h->parts[i] ? '\n' : ' ');
	}
	return w;
}

static inline void
st32(char *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static inline void
st64(char *p, uint64_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static void
put_text(struct ts_writer *w, const struct ts_batch *b)
{
	const uint64_t base = (uint64_t)w->lay.base;
	const int order = w->order;
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;
		char *p;

		need(w, (size_t)(order + 1) * (TS_NUMBUF + 1) +
		    (b->keep_text && b->vtext != NULL ? b->vlen[i] : 0));
		p = w->buf + w->len;
		for (k = 0; k < order; k++) {
			p += ts_put_uint(p, c[k] + base);
			*p++ = ' ';
		}
		if (w->lay.values && b->keep_text && b->vtext != NULL) {
			/* Text in, text out: the value as it was written. */
			memcpy(p, b->vtext[i], b->vlen[i]);
			p += b->vlen[i];
			*p++ = '\n';
		} else if (w->lay.values) {
			switch (w->lay.vtype) {
			case TS_FLOAT64:
				p += w->fmt == TS_FMT_E16 ?
				    ts_fmt_double_e16(p, b->fval[i]) :
				    ts_fmt_double(p, b->fval[i]);
				break;
			case TS_FLOAT32:
				p += w->fmt == TS_FMT_E16 ?
				    ts_fmt_double_e16(p, b->fval[i]) :
				    ts_fmt_float(p, (float)b->fval[i]);
				break;
			case TS_INT32:
			case TS_INT64:
				p += ts_fmt_i64(p, b->ival[i]);
				break;
			}
			*p++ = '\n';
		} else if (w->lay.kind == TS_FROSTT) {
			*p++ = '1';	/* SPEC E5 */
			*p++ = '\n';
		} else
			p[-1] = '\n';
		w->len = (size_t)(p - w->buf);
	}
}

static void
put_binary(struct ts_writer *w, const struct ts_batch *b)
{
	const uint64_t base = (uint64_t)w->lay.base;
	const size_t isz = ts_itype_size(w->lay.itype);
	const int order = w->order;
	const size_t rs = (size_t)order * isz + (w->lay.values ?
	    ts_vtype_size(w->lay.vtype) : 0);
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;
		char *p;

		need(w, rs);
		p = w->buf + w->len;
		for (k = 0; k < order; k++, p += isz) {
			if (isz == 8)
				st64(p, c[k] + base, w->swap);
			else
				st32(p, (uint32_t)(c[k] + base), w->swap);
		}
		if (w->lay.values) {
			switch (w->lay.vtype) {
			case TS_FLOAT32: {
				float f = (float)b->fval[i];
				uint32_t u;

				memcpy(&u, &f, 4);
				st32(p, u, w->swap);
				break;
			}
			case TS_FLOAT64: {
				uint64_t u;

				memcpy(&u, &b->fval[i], 8);
				st64(p, u, w->swap);
				break;
			}
			case TS_INT32:
				st32(p, (uint32_t)b->ival[i], w->swap);
				break;
			case TS_INT64:
				st64(p, (uint64_t)b->ival[i], w->swap);
				break;
			}
		}
		w->len += rs;
	}
}

int
ts_writer_put(struct ts_writer *w, const struct ts_batch *b)
{
	if (w->lay.kind != TS_BINARY)
		put_text(w, b);
	else
		put_binary(w, b);
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

int
ts_writer_close(struct ts_writer *w)
{
	int err;

	wdrain(w);
	err = w->err;
	free(w->buf);
	free(w->spare);
	free(w);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
