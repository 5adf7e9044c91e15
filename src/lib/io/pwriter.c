/*
 * pwriter.c - buffers written by a second thread while the next ones are
 * filled (io.h): for the writers that lay arrays down at their places in
 * their output's file (the arrays of an .npz, SPLATT's and FROSTT's
 * binaries), whose writes would otherwise stop the work that fills the
 * next, and that hand pieces to a writer of their own too (the member of
 * an .npz that goes into its zip as it comes).  A job's bytes may be
 * summed (zlib's CRC-32) by the thread before they are written: the
 * sum of the arrays an .npz's zip needs, made beside the work instead
 * of after it.  The buffers are few and
 * reused, so that their pages are the process's after the first turn.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <zlib.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

struct job {
	unsigned char	*buf;
	size_t		 len;
	uint64_t	 off;
	uint32_t	*crc;		/* the bytes folded into, or NULL */
};

struct ts_pwriter {
	int		 fd;
	size_t		 size;		/* of a buffer */
	int		 (*fn)(void *, unsigned char *, size_t);
	void		*arg;
	int		 max, made;	/* buffers at most, made */
	unsigned char	**free;
	int		 nfree;
	struct job	*q;		/* a ring of max */
	int		 head, nq;
	int		 err;		/* the first error */
	bool		 busy, quit, threaded;
	pthread_t	 tid;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
};

/* A job done: 0, or an errno. */
static int
do_job(struct ts_pwriter *w, const struct job *j)
{
	if (j->len == 0)
		return 0;
	if (j->crc != NULL)
		*j->crc = (uint32_t)crc32_z(*j->crc, j->buf, j->len);
	if (j->off != TS_PWRITER_FN)
		return ts_pwrite_all(w->fd, j->buf, j->len, j->off);
	if (w->fn(w->arg, j->buf, j->len) == 0)
		return 0;
	return errno != 0 ? errno : EIO;
}

/* Job j done, the lock let go meanwhile (none after an error), its
 * buffer given back; with the lock held. */
static void
run_job(struct ts_pwriter *w, const struct job *j)
{
	int e = w->err;

	pthread_mutex_unlock(&w->mu);
	if (e == 0)
		e = do_job(w, j);
	pthread_mutex_lock(&w->mu);
	if (e != 0 && w->err == 0)
		w->err = e;
	w->free[w->nfree++] = j->buf;
}

static void *
writer(void *arg)
{
	struct ts_pwriter *w = arg;
	struct job j;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->nq == 0 && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->nq == 0)
			break;
		j = w->q[w->head];
		w->head = (w->head + 1) % w->max;
		w->nq--;
		w->busy = true;
		run_job(w, &j);
		w->busy = false;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* The lock let go: 0, or -1 with the first error in errno. */
static int
unlock_err(struct ts_pwriter *w)
{
	int e = w->err;

	pthread_mutex_unlock(&w->mu);
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

struct ts_pwriter *
ts_pwriter_new(int fd, size_t size, int n,
    int (*fn)(void *, unsigned char *, size_t), void *arg)
{
	struct ts_pwriter *w = ts_xcalloc(1, sizeof(*w));

	w->fd = fd;
	w->size = size;
	w->fn = fn;
	w->arg = arg;
	w->max = n < 1 ? 1 : n;
	w->free = ts_xreallocarray(NULL, (size_t)w->max, sizeof(*w->free));
	w->q = ts_xreallocarray(NULL, (size_t)w->max, sizeof(*w->q));
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->threaded = pthread_create(&w->tid, NULL, writer, w) == 0;
	return w;
}

int
ts_pwriter_fd(const struct ts_pwriter *w)
{
	return w->fd;
}

unsigned char *
ts_pwriter_buf(struct ts_pwriter *w)
{
	unsigned char *b;

	pthread_mutex_lock(&w->mu);
	if (w->nfree == 0 && w->made < w->max) {
		w->made++;
		pthread_mutex_unlock(&w->mu);
		return ts_xmalloc(w->size);
	}
	while (w->nfree == 0)
		pthread_cond_wait(&w->cv, &w->mu);
	b = w->free[--w->nfree];
	pthread_mutex_unlock(&w->mu);
	return b;
}

int
ts_pwriter_put(struct ts_pwriter *w, unsigned char *buf, size_t len,
    uint64_t off, uint32_t *crc)
{
	struct job j = { buf, len, off, crc };

	pthread_mutex_lock(&w->mu);
	if (!w->threaded)
		run_job(w, &j);
	else {
		w->q[(w->head + w->nq) % w->max] = j;
		w->nq++;
		pthread_cond_broadcast(&w->cv);
	}
	return unlock_err(w);
}

int
ts_pwriter_pass(struct ts_pwriter *w, unsigned char **buf, size_t *len,
    uint64_t off, uint32_t *crc)
{
	unsigned char *b = *buf;
	size_t n = *len;

	if (b != NULL && n == 0)
		return 0;
	*buf = ts_pwriter_buf(w);
	*len = 0;
	return b == NULL ? 0 : ts_pwriter_put(w, b, n, off, crc);
}

int
ts_pwriter_sync(struct ts_pwriter *w)
{
	pthread_mutex_lock(&w->mu);
	while (w->nq > 0 || w->busy)
		pthread_cond_wait(&w->cv, &w->mu);
	return unlock_err(w);
}

void
ts_pwriter_free(struct ts_pwriter *w)
{
	int i;

	if (w == NULL)
		return;
	if (w->threaded) {
		pthread_mutex_lock(&w->mu);
		w->quit = true;
		/* What is still queued is dropped. */
		w->err = w->err != 0 ? w->err : ECANCELED;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->tid, NULL);
	}
	for (i = 0; i < w->nfree; i++)
		free(w->free[i]);
	free(w->free);
	free(w->q);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}
