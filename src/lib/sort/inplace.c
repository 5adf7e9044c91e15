/*
 * inplace.c - the final sort of what is in memory, in place: no second
 * array, so the memory of a sort that never spills is the records and a
 * few MiB.
 *
 * The most significant digit first, stably, in chunks of CHUNK records:
 * each record is copied to the partial chunk of its bucket (in a small
 * area of their own), and a partial chunk that fills up is written to
 * the next chunk slot of the record array, at the front, where every
 * record has already been read (after k chunks, at least k * CHUNK
 * records have).  Then bucket by bucket, in key order: its chunks are
 * gathered into a buffer, the chunks of later buckets in the slots that
 * its final place overlaps are moved to free slots past that place
 * (there are always enough: the later buckets' full chunks hold at most
 * the records past it), and the bucket, sorted on the other digits in
 * cache, is written to its place.  The result is the array sorted, as
 * ts_radix_sort() leaves it.
 *
 * With threads, the caller still gathers the buckets and moves the
 * chunks in their way, in key order (that part must be sequential), but
 * the sort of a gathered bucket in cache and its write to its place go
 * to whichever thread is free: once its place is cleared, no later
 * step reads or writes there (the moved chunks go to free slots past
 * it), so buckets are sorted in any order, into disjoint places.  The
 * jobs (one a thread and SPARE_JOBS) carry them in buffers of the
 * largest bucket, with one more a thread to sort in; when all are taken
 * the caller sorts one itself.  When those buffers would take more than
 * the records (a few huge buckets) the caller does it all alone.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "sort/sort_int.h"
#include "util/pool.h"

#define CHUNK		((size_t)256)
#define FREE_SLOT	UINT32_MAX
#define PAR_BUCKETS	4	/* fewer buckets: no threads */
#define SPARE_JOBS	1	/* jobs beyond one a thread */

enum { B_FREE, B_QUEUED, B_BUSY };

/* A gathered bucket: sorted in a, then written to dst. */
struct bjob {
	int		 state;
	uint64_t	*a, *dst;
	size_t		 m;
};

/* The buckets being sorted by threads. */
struct placer {
	const struct radix_job *r;
	struct bjob	*job;
	int		 njob, queued;
	uint64_t	*scratch[MAXTHREADS];	/* each thread's second
						 * buffer; 0 the caller's */
	/* The threads; its mutex guards the jobs' states, its `done`
	 * says a job is free again. */
	struct ts_pool	 pool;
};

/* A max-heap of free slot numbers. */
struct slots {
	uint32_t	*v;
	size_t		 n;
};

static void
slot_push(struct slots *h, uint32_t k)
{
	size_t i = h->n++, up;

	while (i > 0 && h->v[up = (i - 1) / 2] < k) {
		h->v[i] = h->v[up];
		i = up;
	}
	h->v[i] = k;
}

static uint32_t
slot_pop(struct slots *h)
{
	uint32_t top = h->v[0], x = h->v[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->v[c + 1] > h->v[c])
			c++;
		if (h->v[c] <= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n > 0)
		h->v[i] = x;
	return top;
}

/* Sort a gathered bucket in cache (with b, as large) and write it to
 * its place. */
static void
bjob_run(const struct radix_job *r, struct bjob *j, uint64_t *b)
{
	size_t c[(size_t)1 << RADIX_BITS];
	size_t off[(size_t)1 << RADIX_BITS];

	if (j->m > 1)
		ts_rs_bucket(r, r->key_words, c, off, j->a, b, j->a, 0, j->m);
	memcpy(j->dst, j->a, j->m * (size_t)r->rec_words * 8);
}

/* Take a queued job and run it with scratch buffer b, with the mutex
 * held (released while it runs). */
static bool
take_one(struct placer *p, uint64_t *b)
{
	int i;

	if (p->queued == 0)
		return false;
	for (i = 0; p->job[i].state != B_QUEUED; i++)
		;
	p->job[i].state = B_BUSY;
	p->queued--;
	pthread_mutex_unlock(&p->pool.mu);
	bjob_run(p->r, &p->job[i], b);
	pthread_mutex_lock(&p->pool.mu);
	p->job[i].state = B_FREE;
	pthread_cond_broadcast(&p->pool.done);
	return true;
}

/* A thread's turn (pool.h): worker id sorts with scratch buffer id + 1. */
static bool
placer_take(struct ts_pool *pool, int id)
{
	struct placer *p = pool->ctx;

	return take_one(p, p->scratch[id + 1]);
}

/* A free job's buffers for the next bucket; the caller runs queued
 * jobs itself while none is free. */
static struct bjob *
placer_get(struct placer *p)
{
	int i;

	pthread_mutex_lock(&p->pool.mu);
	for (;;) {
		for (i = 0; i < p->njob; i++)
			if (p->job[i].state == B_FREE) {
				p->job[i].state = B_BUSY;
				pthread_mutex_unlock(&p->pool.mu);
				return &p->job[i];
			}
		if (!take_one(p, p->scratch[0]))
			pthread_cond_wait(&p->pool.done, &p->pool.mu);
	}
}

static void
placer_put(struct placer *p, struct bjob *j)
{
	pthread_mutex_lock(&p->pool.mu);
	j->state = B_QUEUED;
	p->queued++;
	ts_pool_wake(&p->pool, false);
	pthread_mutex_unlock(&p->pool.mu);
}

/* Start threads - 1 threads (and the buffers: a bucket's for each
 * job and for each thread's sort); the caller goes on alone when none
 * can be had. */
static void
placer_start(struct placer *p, const struct radix_job *r, int threads,
    size_t maxc)
{
	const size_t rw = (size_t)r->rec_words;
	int i;

	memset(p, 0, sizeof(*p));
	p->r = r;
	p->njob = threads + SPARE_JOBS;
	p->job = ts_xcalloc((size_t)p->njob, sizeof(*p->job));
	ts_pool_init(&p->pool, p, placer_take);
	for (i = 0; i < p->njob; i++)
		p->job[i].a = ts_xreallocarray(NULL, maxc, rw * 8);
	for (i = 0; i < threads; i++)
		p->scratch[i] = ts_xreallocarray(NULL, maxc, rw * 8);
	ts_pool_start(&p->pool, threads - 1);
}

/* Run what is left, wait for every job, stop the threads. */
static void
placer_finish(struct placer *p)
{
	int i;

	pthread_mutex_lock(&p->pool.mu);
	while (take_one(p, p->scratch[0]))
		;
	for (i = 0; i < p->njob; i++)
		while (p->job[i].state != B_FREE)
			pthread_cond_wait(&p->pool.done, &p->pool.mu);
	pthread_mutex_unlock(&p->pool.mu);
	ts_pool_stop(&p->pool);
}

static void
placer_free(struct placer *p)
{
	int i;

	for (i = 0; i < p->njob; i++)
		free(p->job[i].a);
	for (i = 0; i < MAXTHREADS; i++)
		free(p->scratch[i]);
	free(p->job);
	ts_pool_destroy(&p->pool);
}

/* What the distribution fills. */
struct dist {
	uint64_t	*rec, *part;
	size_t		*fill, *lstart, *lcount;
	uint32_t	*owner, *opos, *list;
};

/* Each record to the partial chunk of its bucket by the MSD pass M, and
 * the chunks that fill up to the slots at the front; returns the slots
 * used.  Inlined with a constant rw, the copies are a few moves rather
 * than calls. */
static inline __attribute__((always_inline)) size_t
distribute(const struct dist *d, const struct radix_pass *M, size_t n,
    const size_t rw)
{
	const int mw = M->word, ms = M->shift;
	const uint64_t mm = M->mask;
	size_t i, b, k, used = 0;

	for (i = 0; i < n; i++) {
		const uint64_t *q = d->rec + i * rw;

		b = (q[mw] >> ms) & mm;
		memcpy(d->part + (b * CHUNK + d->fill[b]) * rw, q, rw * 8);
		if (++d->fill[b] == CHUNK) {
			k = used++;
			memcpy(d->rec + k * CHUNK * rw, d->part + b * CHUNK * rw,
			    CHUNK * rw * 8);
			d->owner[k] = (uint32_t)b;
			d->opos[k] = (uint32_t)d->lcount[b];
			d->list[d->lstart[b] + d->lcount[b]++] = (uint32_t)k;
			d->fill[b] = 0;
		}
	}
	return used;
}

/* Returns 0, or -1 (with nothing moved) when the array is small or one
 * bucket holds a large share of it: ts_radix_sort() then does it. */
int
ts_radix_inplace(struct ts_sorter *s)
{
	const size_t n = s->n, rw = (size_t)s->rec_words, cb = CHUNK * rw * 8;
	struct radix_job r;
	struct slots heap;
	struct radix_pass M;
	size_t nbk, b, i, k, nslot, nlist, maxc, used = 0;
	size_t *cnt, *start, *fill, *lstart, *lcount;
	uint32_t *owner, *opos, *list;
	uint64_t *part, *scratch = NULL;
	struct placer pl;
	struct bjob one;
	struct dist dv;
	bool par;
	int msd;

	if (n * rw * 8 <= HYBRID_MIN || n / CHUNK >= FREE_SLOT)
		return -1;
	memset(&r, 0, sizeof(r));
	for (msd = 1; msd < RADIX_BITS && n >> (msd + 1) >= BUCKET_RECS;
	    msd++)
		;
	r.npass = ts_rs_plan(s, r.p, msd);
	if (r.npass == 0)
		return 0;	/* every key the same: sorted */
	/* A copy of the MSD pass, kept in registers: r's address goes to
	 * functions of other files, so the compiler must assume that any
	 * store through a pointer, to cnt for one, may change r.p. */
	M = r.p[r.npass - 1];
	nbk = (size_t)M.mask + 1;
	cnt = ts_xcalloc(nbk + 1, sizeof(*cnt));
	for (i = 0; i < n; i++)
		cnt[(s->rec[i * rw + (size_t)M.word] >> M.shift) &
		    M.mask]++;
	maxc = 0;
	for (b = 0; b < nbk; b++)
		if (cnt[b] > maxc)
			maxc = cnt[b];
	/* A bucket is sorted in two buffers of its size: when one holds
	 * much of the array, the second array costs less. */
	if (maxc > n / 2) {
		free(cnt);
		return -1;
	}
	pf_join(s);
	nslot = (n + CHUNK - 1) / CHUNK;
	ts_rec_reserve(s, nslot * CHUNK);
	start = ts_xcalloc(nbk + 1, sizeof(*start));
	fill = ts_xcalloc(nbk, sizeof(*fill));
	lstart = ts_xcalloc(nbk + 1, sizeof(*lstart));
	lcount = ts_xcalloc(nbk, sizeof(*lcount));
	for (b = 0; b < nbk; b++) {
		start[b + 1] = start[b] + cnt[b];
		lstart[b + 1] = lstart[b] + cnt[b] / CHUNK;
	}
	nlist = lstart[nbk];
	list = ts_xreallocarray(NULL, nlist + 1, sizeof(*list));
	owner = ts_xreallocarray(NULL, nslot, sizeof(*owner));
	opos = ts_xreallocarray(NULL, nslot, sizeof(*opos));
	part = ts_xreallocarray(NULL, nbk * CHUNK, rw * 8);

	/* Distribute. */
	dv.rec = s->rec;
	dv.part = part;
	dv.fill = fill;
	dv.lstart = lstart;
	dv.lcount = lcount;
	dv.owner = owner;
	dv.opos = opos;
	dv.list = list;
	switch (rw) {
	case 1: used = distribute(&dv, &M, n, 1); break;
	case 2: used = distribute(&dv, &M, n, 2); break;
	case 3: used = distribute(&dv, &M, n, 3); break;
	default: used = distribute(&dv, &M, n, rw); break;
	}
	heap.v = ts_xreallocarray(NULL, nslot, sizeof(*heap.v));
	heap.n = 0;
	for (k = used; k < nslot; k++) {
		owner[k] = FREE_SLOT;
		slot_push(&heap, (uint32_t)k);
	}

	/* Place, bucket by bucket. */
	r.rec_words = s->rec_words;
	r.key_words = s->klay.nw;
	if (maxc == 0)
		maxc = 1;
	/* The threads' buffers (a bucket for each job and each thread)
	 * within what the records take, as the second array of
	 * ts_radix_sort() would be: the memory limit holds. */
	par = s->threads > 1 && nbk >= PAR_BUCKETS &&
	    (size_t)(2 * s->threads + SPARE_JOBS) * maxc <= n;
	if (par)
		placer_start(&pl, &r, s->threads, maxc);
	else {
		scratch = ts_xreallocarray(NULL, 2 * maxc, rw * 8);
		one.a = scratch;
	}
	for (b = 0; b < nbk; b++) {
		const size_t m = cnt[b], lo = start[b], hi = start[b + 1];
		struct bjob *j;
		uint64_t *a;

		if (m == 0)
			continue;
		j = par ? placer_get(&pl) : &one;
		a = j->a;
		for (i = 0; i < lcount[b]; i++) {
			k = list[lstart[b] + i];
			memcpy(a, s->rec + k * CHUNK * rw, cb);
			a += CHUNK * rw;
			owner[k] = FREE_SLOT;
			slot_push(&heap, (uint32_t)k);
		}
		memcpy(a, part + b * CHUNK * rw, fill[b] * rw * 8);
		/* Move later buckets' chunks out of [lo, hi). */
		for (k = lo / CHUNK; k * CHUNK < hi; k++) {
			uint32_t t, o;

			if (owner[k] == FREE_SLOT)
				continue;
			t = slot_pop(&heap);
			o = owner[k];
			memcpy(s->rec + (size_t)t * CHUNK * rw,
			    s->rec + k * CHUNK * rw, cb);
			owner[t] = o;
			opos[t] = opos[k];
			list[lstart[o] + opos[k]] = t;
			owner[k] = FREE_SLOT;
		}
		j->m = m;
		j->dst = s->rec + lo * rw;
		if (par)
			placer_put(&pl, j);
		else
			bjob_run(&r, j, scratch + maxc * rw);
	}
	if (par) {
		placer_finish(&pl);
		placer_free(&pl);
	}
	free(scratch);
	free(heap.v);
	free(part);
	free(opos);
	free(owner);
	free(list);
	free(lcount);
	free(lstart);
	free(fill);
	free(start);
	free(cnt);
	return 0;
}
