/*
 * print_par.c - the rows of a text encoder (TensorSuite text, FROSTT,
 * Matrix Market) formatted by several threads.
 *
 * Formatting is most of the work of writing text: the shortest digits
 * of each value (num_fmt.c), the digits of each coordinate.  The entries
 * put are copied, a chunk at a time, into the jobs of a small ring,
 * with the value texts a batch carries (they are good only until the
 * next batch).  Worker threads take the jobs in order and format each
 * with the encoder's own ops->rows, the function the caller runs when
 * it is alone, into the job's buffer: the bytes are the same whatever
 * the threads.  The buffers go to the sink in order, written by the
 * worker that holds the turn: whoever finishes the oldest job not yet
 * written writes it, and the ones after it that are done, while the
 * others format; a job's slot is free again once it is written.
 *
 * The threads start once more than a chunk of entries has come: until
 * then, and for an output no larger, the caller formats into the
 * encoder's buffer, as it does alone.  When they start, what that
 * buffer holds (the header, the first rows) is written first, and the
 * sink is theirs until the end.  The first write error is kept: no more
 * is formatted or written, and the next put says it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/pool.h"
#include "util/xalloc.h"

#define CHUNK		((size_t)4096)	/* entries; TS_PRINT_CHUNK overrides */
#define MAXWORKERS	16

enum { J_FREE, J_FILL, J_QUEUED, J_BUSY, J_DONE };

struct pjob {
	uint64_t	 seq;
	int		 state;
	struct ts_batch	 b;		/* the entries, copied */
	char		*txt;		/* their value texts */
	size_t		 tlen, tcap;
	size_t		*toff;		/* where each one starts in txt */
	struct ts_outbuf out;		/* the rows formatted */
};

struct ts_printer {
	struct ts_encoder *enc;
	size_t		 chunk;
	int		 nslot;
	struct pjob	*slot;
	uint64_t	 fill;		/* the job being filled */
	uint64_t	 take;		/* the next one for a worker */
	uint64_t	 wseq;		/* the next one to write */
	bool		 writing;	/* a worker holds the turn */
	bool		 started;
	int		 err;		/* the first write error */
	/* The workers; its mutex guards the above, its `done` says a
	 * job is written. */
	struct ts_pool	 pool;
};

size_t
ts_print_chunk(void)
{
	const char *e = getenv("TS_PRINT_CHUNK");
	char *end;
	unsigned long long v;

	if (e != NULL && *e != '\0') {
		v = strtoull(e, &end, 10);
		if (*end == '\0' && v >= 1 && v <= ((size_t)1 << 24))
			return (size_t)v;
	}
	return CHUNK;
}

/* The slot of job seq, made ready to fill (first use: its arrays). */
static void
job_reset(struct ts_printer *p, struct pjob *j)
{
	if (j->b.coords == NULL) {
		ts_batch_init(&j->b, p->enc->h.order, p->chunk);
		j->toff = ts_xreallocarray(NULL, p->chunk, sizeof(*j->toff));
		ts_outbuf_mem_init(&j->out, p->chunk * 32);
	}
	j->b.n = 0;
	j->tlen = 0;
	j->out.len = 0;
}

/* Write the jobs done, in order, while no other worker does; with mu
 * held. */
static void
write_turn(struct ts_printer *p)
{
	struct pjob *j;

	bool skip;
	int e;

	while (!p->writing) {
		j = &p->slot[p->wseq % (uint64_t)p->nslot];
		if (j->seq != p->wseq || j->state != J_DONE)
			return;
		p->writing = true;
		skip = p->err != 0 || j->out.len == 0;
		pthread_mutex_unlock(&p->pool.mu);
		e = 0;
		if (!skip && ts_sink_write(p->enc->sink, j->out.buf,
		    j->out.len) != 0)
			e = errno != 0 ? errno : EIO;
		pthread_mutex_lock(&p->pool.mu);
		if (e != 0 && p->err == 0)
			p->err = e;
		j->state = J_FREE;
		j->seq += (uint64_t)p->nslot;
		p->wseq++;
		p->writing = false;
		pthread_cond_broadcast(&p->pool.done);
	}
}

/* A worker's turn (pool.h): format the next job queued, and write
 * what is done in order when the turn is free. */
static bool
take(struct ts_pool *pool, int id)
{
	struct ts_printer *p = pool->ctx;
	struct pjob *j = &p->slot[p->take % (uint64_t)p->nslot];
	bool skip;

	(void)id;
	if (j->seq != p->take || j->state != J_QUEUED)
		return false;
	j->state = J_BUSY;
	p->take++;
	/* After an error nothing is written: no need to format. */
	skip = p->err != 0;
	pthread_mutex_unlock(&pool->mu);
	if (!skip)
		p->enc->ops->rows(p->enc, &j->b, &j->out);
	pthread_mutex_lock(&pool->mu);
	j->state = J_DONE;
	write_turn(p);
	return true;
}

/*
 * Start the workers, once the encoder's buffer is written: NULL with
 * errno when that write fails.  With no threads to be had the caller
 * goes on alone (no printer).
 */
static struct ts_printer *
printer_start(struct ts_encoder *enc)
{
	struct ts_printer *p;
	int i, nw = enc->threads > MAXWORKERS ? MAXWORKERS : enc->threads;

	if (ts_outbuf_sync(enc->out) != 0)
		return NULL;
	p = ts_xcalloc(1, sizeof(*p));
	p->enc = enc;
	p->chunk = enc->pchunk;
	/* Each worker's job, as many done and waiting for their turn, the
	 * one being written, the one being filled. */
	p->nslot = 2 * nw + 2;
	p->slot = ts_xcalloc((size_t)p->nslot, sizeof(*p->slot));
	for (i = 0; i < p->nslot; i++)
		p->slot[i].seq = (uint64_t)i;
	p->slot[0].state = J_FILL;
	job_reset(p, &p->slot[0]);
	ts_pool_init(&p->pool, p, take);
	ts_pool_start(&p->pool, nw);
	return p;
}

/* Hand the job being filled to the workers. */
static void
queue(struct ts_printer *p)
{
	struct pjob *j = &p->slot[p->fill % (uint64_t)p->nslot];
	size_t i;

	/* The texts' places, now that the arena no longer moves. */
	if (j->b.texts)
		for (i = 0; i < j->b.n; i++)
			j->b.vtext[i] = j->txt + j->toff[i];
	pthread_mutex_lock(&p->pool.mu);
	j->state = J_QUEUED;
	p->fill++;
	ts_pool_wake(&p->pool, false);
	pthread_mutex_unlock(&p->pool.mu);
}

/* Queue the job being filled and make the next one ready; -1 with errno
 * after a write error. */
static int
submit(struct ts_printer *p)
{
	struct pjob *j;
	int e;

	queue(p);
	pthread_mutex_lock(&p->pool.mu);
	j = &p->slot[p->fill % (uint64_t)p->nslot];
	while (j->seq != p->fill || j->state != J_FREE)
		pthread_cond_wait(&p->pool.done, &p->pool.mu);
	j->state = J_FILL;
	e = p->err;
	pthread_mutex_unlock(&p->pool.mu);
	job_reset(p, j);
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

/* Do the entries of b go into job j with those already there?  A job's
 * entries share the batch's flags. */
static bool
fits(const struct pjob *j, const struct ts_batch *b)
{
	return j->b.n == 0 || (j->b.has_values == b->has_values &&
	    j->b.is_int == b->is_int && j->b.texts == b->texts &&
	    j->b.texts_only == b->texts_only);
}

/*
 * Copy entries [from, from + n) of b into job j: the values the rows
 * are written from (floating or integer: the layout's type, for Matrix
 * Market the batch's), none for a pattern.
 */
static void
copy_in(const struct ts_encoder *enc, struct pjob *j, const struct ts_batch *b,
    size_t from, size_t n)
{
	const size_t k = (size_t)b->order, at = j->b.n;
	const bool ints = enc->lay.kind == TS_KIND_MTX ? b->is_int :
	    ts_vtype_info(enc->lay.vtype)->is_int;
	size_t i, need;

	if (at == 0) {
		j->b.has_values = b->has_values;
		j->b.is_int = b->is_int;
		j->b.texts = b->texts;
		j->b.texts_only = b->texts_only;
	}
	memcpy(j->b.coords + at * k, b->coords + from * k, n * k * 8);
	if (enc->lay.values > 0 && !ints)
		memcpy(j->b.fval + at, b->fval + from, n * sizeof(double));
	if (enc->lay.values > 0 && ints)
		memcpy(j->b.ival + at, b->ival + from, n * sizeof(int64_t));
	if (b->texts) {
		for (i = 0, need = 0; i < n; i++)
			need += b->vlen[from + i];
		if (j->tlen + need > j->tcap) {
			j->tcap = j->tcap * 2 > j->tlen + need ? j->tcap * 2 :
			    j->tlen + need;
			j->txt = ts_xrealloc(j->txt, j->tcap);
		}
		/* Texts that lie end to end (a sort's are) go in one
		 * copy; a parser's, between their rows, one by one. */
		for (i = 0; i < n;) {
			const char *t0 = b->vtext[from + i];
			size_t run = 0;

			do {
				uint32_t len = b->vlen[from + i];

				j->toff[at + i] = j->tlen + run;
				j->b.vlen[at + i] = len;
				run += len;
				i++;
			} while (i < n && b->vtext[from + i] == t0 + run);
			memcpy(j->txt + j->tlen, t0, run);
			j->tlen += run;
		}
	}
	j->b.n += n;
}

int
ts_print(struct ts_encoder *enc, const struct ts_batch *b)
{
	struct ts_printer *p = enc->pr;
	struct pjob *j;
	size_t from = 0, n;
	int e;

	if (p == NULL && enc->threads > 1 && enc->n + b->n > enc->pchunk) {
		if ((p = printer_start(enc)) == NULL)
			return -1;
		enc->pr = p;
		if (p->pool.nt == 0) {	/* no threads to be had: alone */
			ts_print_finish(enc);
			enc->threads = 1;
			p = NULL;
		}
	}
	if (p == NULL) {
		enc->ops->rows(enc, b, enc->out);
		if ((e = ts_outbuf_error(enc->out)) != 0) {
			errno = e;
			return -1;
		}
		return 0;
	}
	if (p->err != 0) {
		errno = p->err;
		return -1;
	}
	while (from < b->n) {
		j = &p->slot[p->fill % (uint64_t)p->nslot];
		if (!fits(j, b) || j->b.n == p->chunk) {
			if (submit(p) != 0)
				return -1;
			continue;
		}
		n = b->n - from < p->chunk - j->b.n ? b->n - from :
		    p->chunk - j->b.n;
		copy_in(enc, j, b, from, n);
		from += n;
	}
	return 0;
}

int
ts_print_finish(struct ts_encoder *enc)
{
	struct ts_printer *p = enc->pr;
	int i, e;

	if (p == NULL)
		return 0;
	/* After an abort too: what was put is written, as the encoder's
	 * buffer is by the caller alone. */
	pthread_mutex_lock(&p->pool.mu);
	e = p->err;
	pthread_mutex_unlock(&p->pool.mu);
	if (e == 0 && p->slot[p->fill % (uint64_t)p->nslot].b.n > 0)
		queue(p);
	pthread_mutex_lock(&p->pool.mu);
	while (p->wseq < p->fill)
		pthread_cond_wait(&p->pool.done, &p->pool.mu);
	e = p->err;
	pthread_mutex_unlock(&p->pool.mu);
	ts_pool_destroy(&p->pool);
	for (i = 0; i < p->nslot; i++) {
		struct pjob *s = &p->slot[i];

		if (s->b.coords != NULL) {
			ts_batch_free(&s->b);
			ts_outbuf_mem_free(&s->out);
		}
		free(s->toff);
		free(s->txt);
	}
	free(p->slot);
	free(p);
	enc->pr = NULL;
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}
