/*
 * produce.c - the decoder that makes a model's entries (gen.h): the
 * engine reads it as it reads a file, so that a generated tensor goes
 * through the flow every tool has (stages, encoders, bundles, archives,
 * outputs that appear whole or not at all).
 *
 * Entries come in batches of BATCH, batch j holding entries [j BATCH,
 * (j + 1) BATCH).  With N threads (-j), N - 1 workers and the caller
 * each take the next batch not taken, draw it, run the flow's local
 * functions on it (the values, ts_decoder_set_local) and mark it done;
 * the caller hands the batches on in order, drawing one itself while
 * the next to hand on is not done.  (A caller that only waited would be
 * a thread more than the cores on a run of -j as many: on two cores its
 * wake-ups and the workers' cost a tenth of the time.)  An entry
 * depends on nothing but its index, so the entries are the same
 * however many threads draw them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "format/format.h"
#include "util/pool.h"
#include "util/xalloc.h"

#define BATCH		8192
#define MAXWORKERS	64

enum { FREE, BUSY, DONE };

struct slot {
	struct ts_batch	 b;
	uint64_t	 idx;		/* the batch it holds */
	int		 state;
};

struct prod {
	const struct gen *g;
	uint64_t	 n, made;	/* entries to make, handed on */
	bool		 ones, isint;
	/* the workers */
	struct ts_decoder *dec;
	struct slot	*slot;
	int		 nslot;
	uint64_t	 nbatch, assign, deliver;
	int		 caller;	/* the caller's thread number */
	/* Its mutex guards the slots' states, `assign` and `deliver`; its
	 * `done` says a batch is made. */
	struct ts_pool	 pool;
};

/* Entries [first, first + n) into b: coordinates, and values 1. */
static void
make(struct prod *p, uint64_t first, size_t n, struct ts_batch *b)
{
	size_t i;

	gen_fill(p->g, first, n, b->coords);
	b->n = n;
	b->first = first;	/* for the local functions: the draws' */
	b->has_values = p->ones;
	b->is_int = p->isint;
	for (i = 0; p->ones && i < n; i++) {
		b->fval[i] = 1;
		b->ival[i] = 1;
	}
}

/* A worker's turn (pool.h): make the next batch, when its slot is
 * free, and run the flow's local functions on it on this thread. */
static bool
take(struct ts_pool *pool, int id)
{
	struct prod *p = pool->ctx;
	struct ts_decoder *dec = p->dec;
	struct slot *s;
	uint64_t first;

	if (p->assign >= p->nbatch ||
	    p->slot[p->assign % (uint64_t)p->nslot].state != FREE)
		return false;
	s = &p->slot[p->assign % (uint64_t)p->nslot];
	s->idx = p->assign++;
	s->state = BUSY;
	pthread_mutex_unlock(&pool->mu);
	first = s->idx * BATCH;
	make(p, first, first + BATCH <= p->n ? BATCH :
	    (size_t)(p->n - first), &s->b);
	pthread_rwlock_rdlock(&dec->local_lock);
	s->b.local = dec->local != NULL;
	s->b.local_cont = false;
	if (s->b.local)
		dec->local(dec->local_arg, id, &s->b);
	pthread_rwlock_unlock(&dec->local_lock);
	pthread_mutex_lock(&pool->mu);
	s->state = DONE;
	if (id != p->caller)
		pthread_cond_broadcast(&pool->done);
	return true;
}

static void
start(struct prod *p, int workers)
{
	int i;

	p->nbatch = (p->n + BATCH - 1) / BATCH;
	p->nslot = 2 * workers + 2;
	p->slot = ts_xcalloc((size_t)p->nslot, sizeof(*p->slot));
	for (i = 0; i < p->nslot; i++)
		ts_batch_init(&p->slot[i].b, p->g->o.order, BATCH);
	ts_pool_init(&p->pool, p, take);
	/* The workers' numbers from 0, the caller's after them (set
	 * before they start, which read it): the flow has a state of its
	 * local functions for each of the N. */
	workers = workers < MAXWORKERS ? workers : MAXWORKERS;
	p->caller = workers - 1;
	ts_pool_start(&p->pool, workers - 1);
}

static int
prod_open(struct ts_decoder *dec)
{
	struct prod *p = dec->state;
	const struct gen *g = p->g;
	struct ts_header *h = &dec->h;
	int k;

	h->kind = TS_KIND_TEXT;
	h->order = g->o.order;
	memcpy(h->dims, g->o.dims, sizeof(h->dims));
	h->nnz = p->n;
	h->nnz_known = h->dims_known = true;
	h->base = -1;
	if (g->m->needs & BLOCKS) {
		h->block = true;
		h->nnz = g->nnz_elements;
		h->nnz_block = p->n;
		for (k = 0; k < g->o.order; k++) {
			h->parts[k] = g->nparts[k];
			h->extents[k] = ts_xreallocarray(NULL, g->nparts[k],
			    sizeof(uint64_t));
			memcpy(h->extents[k], g->extents[k], g->nparts[k] *
			    sizeof(uint64_t));
		}
	}
	return 0;
}

static void
swap(uint64_t **a, uint64_t **b)
{
	uint64_t *t = *a;

	*a = *b;
	*b = t;
}

static void
swapd(double **a, double **b)
{
	double *t = *a;

	*a = *b;
	*b = t;
}

static void
swapi(int64_t **a, int64_t **b)
{
	int64_t *t = *a;

	*a = *b;
	*b = t;
}

static long
prod_next(struct ts_decoder *dec, struct ts_batch *b)
{
	struct prod *p = dec->state;
	size_t n = p->n - p->made < b->cap ? (size_t)(p->n - p->made) :
	    b->cap, k = (size_t)p->g->o.order;
	struct slot *s;

	if (n == 0)
		return 0;
	if (dec->threads > 1 && p->slot == NULL)
		start(p, dec->threads);
	if (dec->threads < 2 || p->pool.nt == 0) {
		/* Alone: asked to be, or no thread to be had. */
		make(p, p->made, n, b);
	} else {
		pthread_mutex_lock(&p->pool.mu);
		s = &p->slot[p->deliver % (uint64_t)p->nslot];
		while (s->state != DONE || s->idx != p->deliver)
			if (!take(&p->pool, p->caller))
				pthread_cond_wait(&p->pool.done, &p->pool.mu);
		pthread_mutex_unlock(&p->pool.mu);
		/* The slot's arrays become the flow's batch's, and the
		 * batch's the slot's, when they are as large: no copy. */
		n = s->b.n;
		if (b->cap == s->b.cap) {
			swap(&b->coords, &s->b.coords);
			swapd(&b->fval, &s->b.fval);
			swapi(&b->ival, &s->b.ival);
		} else {
			memcpy(b->coords, s->b.coords, n * k * sizeof(uint64_t));
			memcpy(b->fval, s->b.fval, n * sizeof(double));
			memcpy(b->ival, s->b.ival, n * sizeof(int64_t));
		}
		b->n = n;
		b->has_values = s->b.has_values;
		b->is_int = s->b.is_int;
		b->local = s->b.local;
		b->local_cont = false;
		pthread_mutex_lock(&p->pool.mu);
		s->state = FREE;
		p->deliver++;
		ts_pool_wake(&p->pool, true);
		pthread_mutex_unlock(&p->pool.mu);
	}
	p->made += n;
	dec->rows += n;
	dec->off = dec->rows;
	return (long)n;
}

static void
prod_close(struct ts_decoder *dec)
{
	struct prod *p = dec->state;
	int i;

	if (p == NULL)
		return;
	if (p->slot != NULL) {
		ts_pool_destroy(&p->pool);
		for (i = 0; i < p->nslot; i++)
			ts_batch_free(&p->slot[i].b);
		free(p->slot);
	}
	free(p);
	dec->state = NULL;
}

static const struct ts_decoder_ops prod_ops = {
	"ts-gen", prod_open, prod_next, prod_close
};

struct ts_decoder *
gen_decoder(const struct gen *g, uint64_t n, int threads,
    const struct ts_layout *lay, bool ones, const char *name,
    struct ts_diags *d)
{
	struct prod *p = ts_xcalloc(1, sizeof(*p));
	struct ts_layout l = *lay;
	struct ts_decoder *dec;

	p->g = g;
	p->n = n;
	p->ones = ones;
	p->isint = ts_vtype_info(l.vtype)->is_int;
	l.values = ones;
	if ((dec = ts_decoder_new(&prod_ops, p, name, &l, d)) == NULL)
		return NULL;
	p->dec = dec;
	ts_decoder_set_threads(dec, threads);
	return dec;
}
