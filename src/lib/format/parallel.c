/*
 * parallel.c - the rows of a large text file parsed by several threads.
 *
 * The rest of the file is cut into chunks of CHUNK bytes; chunk i starts
 * at the first line start at or after its nominal offset, so that two
 * neighbours agree on their border without talking (a line longer than a
 * chunk leaves an empty one).  Workers take the next chunk whose slot in
 * a small ring is free, read it with pread(2) (the source's position is
 * left alone), and parse it whole into batches with the same row parser
 * as the single-threaded decoder, counting lines from 1.  The decoder
 * hands the batches on in file order; as a chunk's first batch goes, its
 * line numbers become the file's (the lines of the chunks before it are
 * known by then), in the batches and in the diagnostics the chunk kept
 * for itself, so that every message says the exact line.  Warnings said
 * once a file are noted by line in each chunk and said by the decoder
 * for the first chunk that has them.  A chunk's slot is freed when the
 * batch after its last one is asked for: the value texts of a batch
 * point into its chunk.
 *
 * The decoder's local function (ts_decoder_set_local), if any, is run
 * by the worker on each batch of a chunk once it is parsed: the flow's
 * stages do there what can be done in any order, on the core whose
 * cache holds the batch; but only when the caller has fallen behind,
 * some chunk before this one still to hand on.  Else (the caller waits
 * for this very chunk) the caller does the chunk's local work itself,
 * as it would without threads.  A caller that keeps up thus takes a
 * share; one that does not (ts-stat's duplicate checks, the writer of
 * a large output) leaves it all to the workers.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/diag_int.h"
#include "util/pool.h"
#include "util/xalloc.h"

#define CHUNK		((uint64_t)1 << 20)	/* TS_CHUNK overrides */
#define PROBE		((size_t)64 << 10)
#define MAXWORKERS	16

enum { FREE, BUSY, DONE };

struct chunk {
	uint64_t	 idx;		/* the chunk this slot holds */
	int		 state;
	char		*buf;
	size_t		 bufcap;
	uint64_t	 start, end;	/* its bytes in the file */
	struct ts_batch	*bat;		/* parsed, in order */
	size_t		 nbat, capbat, next;
	size_t		 pos;		/* of bat[next], entries handed on */
	bool		 said;		/* its messages are the file's */
	uint64_t	 lines, rows;
	struct ts_diags	*d;		/* what parsing it found */
	struct ts_warned w;
	struct ts_layout lay;
	int		 err;		/* a read error's errno */
};

struct ts_par {
	struct ts_decoder *dec;
	struct ts_source *src;
	const char	*file;
	struct ts_layout lay;
	int		 order;
	size_t		 bcap;
	int		 scan;		/* TS_SCAN_* */
	bool		 classes;	/* of the values, for the checks */
	uint64_t	 off0, size, nchunks, chunk;
	struct chunk	*slot;
	int		 nslot;
	uint64_t	 assign;	/* next chunk for a worker */
	uint64_t	 deliver;	/* the chunk being handed on */
	struct chunk	*release;	/* handed on whole; free next call */
	uint64_t	 line;		/* first line of chunk `deliver` */
	uint64_t	 given;		/* entries handed on */
	/* The workers, each with its buffer for finding a line's end;
	 * the pool's mutex guards the chunks' states and `assign`, its
	 * `done` says a chunk is parsed. */
	struct ts_pool	 pool;
	char		*probe[MAXWORKERS];
	bool		 stopped;	/* workers joined, chunks freed */
	/* The first '\n' at or after byte known_from is byte known_nl: the
	 * chunks inside one long line all find its end there, without
	 * reading it again. */
	uint64_t	 known_from, known_nl;
	bool		 known;
};

/* Where the line that holds or follows byte `nominal` starts: the byte
 * after the first '\n' at or after nominal - 1. */
/* Is the first '\n' at or after byte at known?  Its offset + 1 in *out. */
static bool
known_end(struct ts_par *p, uint64_t at, uint64_t *out)
{
	bool yes;

	pthread_mutex_lock(&p->pool.mu);
	yes = p->known && p->known_from <= at && at <= p->known_nl;
	if (yes)
		*out = p->known_nl + 1;
	pthread_mutex_unlock(&p->pool.mu);
	return yes;
}

static int
line_start(struct ts_par *p, uint64_t nominal, char *probe, uint64_t *out)
{
	uint64_t at = nominal - 1, from = at;
	long r;
	char *nl;

	if (nominal <= p->off0) {
		*out = p->off0;
		return 0;
	}
	for (;;) {
		if (at >= p->size) {
			*out = p->size;
			return 0;
		}
		if (known_end(p, at, out))
			return 0;
		r = ts_source_pread(p->src, probe, PROBE, at);
		if (r < 0)
			return -1;
		if (r == 0) {
			*out = p->size;
			return 0;
		}
		if ((nl = memchr(probe, '\n', (size_t)r)) != NULL) {
			*out = at + (uint64_t)(nl - probe) + 1;
			pthread_mutex_lock(&p->pool.mu);
			p->known = true;
			p->known_from = from;
			p->known_nl = *out - 1;
			pthread_mutex_unlock(&p->pool.mu);
			return 0;
		}
		at += (uint64_t)r;
	}
}

static int
read_chunk(struct ts_par *p, struct chunk *c, char *probe)
{
	uint64_t nom = p->off0 + c->idx * p->chunk, got = 0, len;
	long r;

	if (line_start(p, nom, probe, &c->start) != 0 ||
	    line_start(p, nom + p->chunk, probe, &c->end) != 0)
		return -1;
	if (c->end < c->start)
		c->end = c->start;
	len = c->end - c->start;
	if (len + 2 > c->bufcap) {
		free(c->buf);
		c->bufcap = (size_t)len + 2;
		c->buf = ts_xmalloc(c->bufcap);
	}
	while (got < len) {
		r = ts_source_pread(p->src, c->buf + got, (size_t)(len - got),
		    c->start + got);
		if (r < 0)
			return -1;
		if (r == 0)
			break;	/* the file shrank: parse what is there */
		got += (uint64_t)r;
	}
	/* A last row without a final newline gets one. */
	if (got > 0 && c->buf[got - 1] != '\n')
		c->buf[got++] = '\n';
	c->buf[got] = '\n';
	c->end = c->start + got;
	return 0;
}

static void
parse_chunk(struct ts_par *p, struct chunk *c)
{
	const char *q = c->buf, *end = c->buf + (c->end - c->start);
	struct ts_rowctx x;
	struct ts_batch *b = NULL;

	ts_diags_clear(c->d);
	memset(&c->w, 0, sizeof(c->w));
	c->w.defer = true;
	c->lay = p->lay;
	x.d = c->d;
	x.file = p->file;
	x.lay = &c->lay;
	x.line = 1;
	x.rows = 0;
	x.w = &c->w;
	x.scan = p->scan;
	x.classes = p->classes;
	c->nbat = 0;
	c->next = 0;
	c->pos = 0;
	c->said = false;
	while (q < end) {
		if (b == NULL || b->n == b->cap) {
			if (c->nbat == c->capbat) {
				c->capbat = c->capbat ? 2 * c->capbat : 16;
				c->bat = ts_xreallocarray(c->bat, c->capbat,
				    sizeof(*c->bat));
				memset(c->bat + c->nbat, 0, (c->capbat -
				    c->nbat) * sizeof(*c->bat));
			}
			b = &c->bat[c->nbat++];
			if (b->coords == NULL)
				ts_batch_init(b, p->order, p->bcap);
			b->n = 0;
		}
		q = ts_text_scan(&x, b, q, end);
	}
	c->lines = x.line - 1;
	c->rows = x.rows;
}

/* The chunk's batches through the decoder's local function, if any,
 * unless the caller waits for this chunk (it has none before it to hand
 * on): then it does that work itself. */
static void
local_chunk(struct ts_par *p, struct chunk *c, int id)
{
	struct ts_decoder *dec = p->dec;
	bool caller;
	size_t i;

	pthread_mutex_lock(&p->pool.mu);
	caller = c->idx <= p->deliver;
	pthread_mutex_unlock(&p->pool.mu);
	pthread_rwlock_rdlock(&dec->local_lock);
	for (i = 0; i < c->nbat; i++) {
		struct ts_batch *b = &c->bat[i];

		/* As the decoder says of the batches it hands on: the
		 * chunk's first row told whether rows hold values. */
		b->has_values = c->lay.values > 0;
		b->is_int = ts_vtype_info(c->lay.vtype)->is_int;
		b->local = dec->local != NULL && !caller;
		b->local_cont = false;
		if (b->local && b->n > 0)
			dec->local(dec->local_arg, id, b);
	}
	pthread_rwlock_unlock(&dec->local_lock);
}

/* A worker's turn (pool.h): read and parse the next chunk, when its
 * slot is free. */
static bool
take(struct ts_pool *pool, int id)
{
	struct ts_par *p = pool->ctx;
	struct chunk *c;

	if (p->assign >= p->nchunks ||
	    p->slot[p->assign % (uint64_t)p->nslot].state != FREE)
		return false;
	c = &p->slot[p->assign % (uint64_t)p->nslot];
	c->idx = p->assign++;
	c->state = BUSY;
	pthread_mutex_unlock(&pool->mu);
	c->err = 0;
	if (read_chunk(p, c, p->probe[id]) != 0)
		c->err = errno != 0 ? errno : EIO;
	else {
		parse_chunk(p, c);
		local_chunk(p, c, id);
	}
	pthread_mutex_lock(&pool->mu);
	c->state = DONE;
	pthread_cond_broadcast(&pool->done);
	return true;
}

/* The bytes of a chunk: TS_CHUNK (for tests that cut small files),
 * else CHUNK. */
uint64_t
ts_par_chunk(void)
{
	const char *e = getenv("TS_CHUNK");
	char *end;
	unsigned long long v;

	if (e != NULL && *e != '\0') {
		v = strtoull(e, &end, 10);
		if (*end == '\0' && v >= 64 && v <= ((uint64_t)1 << 30))
			return v;
	}
	return CHUNK;
}

struct ts_par *
ts_par_start(struct ts_decoder *dec, uint64_t off, uint64_t line,
    int workers, size_t batch_cap)
{
	struct ts_par *p = ts_xcalloc(1, sizeof(*p));
	int i;

	if (workers > MAXWORKERS)
		workers = MAXWORKERS;
	if (workers < 1)
		workers = 1;
	p->dec = dec;
	p->src = dec->src;
	p->file = dec->file;
	p->lay = dec->lay;
	p->order = dec->h.order;
	p->bcap = batch_cap;
	p->scan = ((struct ts_tns_state *)dec->state)->scan;
	p->classes = dec->classes;
	p->off0 = off;
	p->size = (uint64_t)ts_source_size(dec->src);
	p->chunk = ts_par_chunk();
	p->nchunks = (p->size - off + p->chunk - 1) / p->chunk;
	p->line = line;
	p->given = dec->rows;
	p->nslot = workers + 2;
	p->slot = ts_xcalloc((size_t)p->nslot, sizeof(*p->slot));
	for (i = 0; i < p->nslot; i++)
		p->slot[i].d = ts_diags_like(dec->d);
	for (i = 0; i < workers; i++)
		p->probe[i] = ts_xmalloc(PROBE);
	ts_pool_init(&p->pool, p, take);
	if (ts_pool_start(&p->pool, workers) == 0) {
		ts_par_free(p);
		return NULL;
	}
	return p;
}

/* Said once a file: the first chunk that has a warning says it. */
static void
warnings(struct ts_par *p, struct ts_decoder *dec, struct chunk *c,
    struct ts_warned *w, uint64_t base)
{
	if (c->w.crlf_line != 0)
		ts_warn_crlf(dec->d, dec->file, base + c->w.crlf_line, w,
		    TS_RULE_E1);
	if (c->w.blank_line != 0 && !w->blank && p->lay.kind != TS_KIND_FROSTT)
	    {
		w->blank = true;
		ts_diag(dec->d, TS_SEV_WARNING, dec->file, base +
		    c->w.blank_line, 1, TS_RULE_E1, "blank line between "
		    "entries");
	}
	if (c->w.comment_line != 0 && !w->comment &&
	    p->lay.kind != TS_KIND_FROSTT) {
		w->comment = true;
		ts_diag(dec->d, TS_SEV_WARNING, dec->file, base +
		    c->w.comment_line, 1, TS_RULE_E1, "comment line between "
		    "entries");
	}
}

/* A chunk handed on whole: its lines are behind; free it next call. */
static void
chunk_done(struct ts_par *p, struct ts_decoder *dec, struct chunk *c)
{
	struct ts_tns_state *t = dec->state;

	p->line += c->lines;
	dec->off = c->end;
	t->L.line = p->line;
	pthread_mutex_lock(&p->pool.mu);	/* the workers read it */
	p->deliver++;
	pthread_mutex_unlock(&p->pool.mu);
	p->release = c;
}

/* Copy what fits of b, from its entry c->pos on, to out. */
static void
copy_out(struct chunk *c, const struct ts_batch *b, struct ts_batch *out)
{
	size_t at = c->pos, n = b->n - at < out->cap ? b->n - at : out->cap;
	size_t k = (size_t)b->order;

	memcpy(out->coords, b->coords + at * k, n * k * 8);
	memcpy(out->fval, b->fval + at, n * sizeof(double));
	memcpy(out->ival, b->ival + at, n * sizeof(int64_t));
	memcpy(out->loc, b->loc + at, n * sizeof(uint64_t));
	memcpy(out->row, b->row + at, n * sizeof(char *));
	memcpy(out->vtext, b->vtext + at, n * sizeof(char *));
	memcpy(out->vlen, b->vlen + at, n * sizeof(uint32_t));
	out->local = b->local;
	out->local_cont = b->local && at > 0;
	out->n = n;
	c->pos += n;
}

static void par_stop(struct ts_par *);

long
ts_par_next(struct ts_par *p, struct ts_decoder *dec, struct ts_batch *out)
{
	struct ts_tns_state *t = dec->state;
	struct ts_batch *b, tmp;
	struct chunk *c;
	uint64_t base;
	size_t i;

	out->n = 0;
	for (;;) {
		if (p->release != NULL) {
			pthread_mutex_lock(&p->pool.mu);
			p->release->state = FREE;
			ts_pool_wake(&p->pool, true);
			pthread_mutex_unlock(&p->pool.mu);
			p->release = NULL;
		}
		if (p->deliver >= p->nchunks) {
			/* The end: what the workers held goes now, not
			 * when the decoder closes, so that the stages
			 * after (a sort's output) have it. */
			par_stop(p);
			return 0;
		}
		c = &p->slot[p->deliver % (uint64_t)p->nslot];
		pthread_mutex_lock(&p->pool.mu);
		while (c->state != DONE || c->idx != p->deliver)
			pthread_cond_wait(&p->pool.done, &p->pool.mu);
		pthread_mutex_unlock(&p->pool.mu);
		if (c->err != 0) {
			ts_diag_io(dec->d, dec->file, "read error: %s",
			    strerror(c->err));
			return -1;
		}
		base = p->line - 1;
		if (!c->said) {
			/* The chunk's lines become the file's. */
			c->said = true;
			ts_diags_absorb(dec->d, c->d, base);
			warnings(p, dec, c, &t->w, base);
			dec->rows += c->rows;
		}
		if (c->next < c->nbat && c->bat[c->next].n > c->pos)
			break;
		if (c->next >= c->nbat)
			chunk_done(p, dec, c);
		else {
			c->next++;	/* an empty batch, or all handed on */
			c->pos = 0;
		}
	}
	b = &c->bat[c->next];
	if (c->pos == 0)
		for (i = 0; i < b->n; i++)
			b->loc[i] += base;
	if (c->pos == 0 && out->cap == b->cap && out->order == b->order) {
		/* Hand the arrays over; the chunk keeps out's for later.
		 * What the decoder set in out stays. */
		tmp = *out;
		*out = *b;
		*b = tmp;
		b->n = 0;
		out->has_values = tmp.has_values;
		out->is_int = tmp.is_int;
		out->file = tmp.file;
		out->loc_offset = tmp.loc_offset;
		out->loc_step = tmp.loc_step;
		out->texts_only = tmp.texts_only;
		c->next++;
	} else {
		/* Not the size the chunks are cut in: copy what fits. */
		copy_out(c, b, out);
		if (c->pos == b->n) {
			c->next++;
			c->pos = 0;
		}
	}
	if (c->next >= c->nbat)
		chunk_done(p, dec, c);
	out->texts = p->lay.values > 0;
	out->first = p->given;
	p->given += out->n;
	return (long)out->n;
}

/* Stop the workers and free the chunks' buffers and batches (once). */
static void
par_stop(struct ts_par *p)
{
	int i;
	size_t k;

	if (p->stopped)
		return;
	p->stopped = true;
	ts_pool_stop(&p->pool);
	for (i = 0; i < p->nslot; i++) {
		struct chunk *c = &p->slot[i];

		for (k = 0; k < c->capbat; k++)
			if (c->bat[k].coords != NULL)
				ts_batch_free(&c->bat[k]);
		free(c->bat);
		free(c->buf);
		c->bat = NULL;
		c->buf = NULL;
		c->capbat = c->nbat = 0;
		c->bufcap = 0;
	}
}

void
ts_par_free(struct ts_par *p)
{
	int i;

	if (p == NULL)
		return;
	par_stop(p);
	ts_pool_destroy(&p->pool);
	for (i = 0; i < MAXWORKERS; i++)
		free(p->probe[i]);
	for (i = 0; i < p->nslot; i++)
		ts_diags_free(p->slot[i].d);
	free(p->slot);
	free(p);
}
