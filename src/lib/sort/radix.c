/*
 * radix.c - the radix sort of the records in memory, with a second
 * array, threaded.
 *
 * An LSD radix sort, stable by construction, over only the key bits
 * that vary (the OR and AND of all keys are kept as records come): in
 * each key word, the span from the lowest to the highest bit that
 * varies is cut into equal digits of at most RADIX_BITS bits, so that
 * 33 varying bits take 3 passes.  Past a few MiB, passes over an array
 * far larger than the caches are what cost, so the most significant
 * digit goes first: one pass splits the array into buckets of about
 * BUCKET_RECS records, and the LSD passes then sort each bucket while
 * it sits in one core's cache.  With threads, a pass over the whole
 * array is split: thread t scatters its own slice to offsets from a
 * prefix sum over all threads' counts (which keeps it stable), and
 * counts the next pass's digits by destination slice as it writes;
 * then the threads take buckets as they become free.  That takes a
 * second array as large as the records; the last sort of a tensor that
 * never spilled does without it (ts_radix_inplace() in inplace.c: the
 * MSD pass in chunks, in place), which halves the memory of a sort in
 * memory.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "util/bigmem.h"
#include "sort/sort_int.h"

#define PAR_MIN		((size_t)1 << 16)	/* fewer records: 1 thread */
#define SLICE_SHIFT	40		/* see rs_split() */

struct rs_arg {
	struct radix_job	*r;
	int		 t;
};

static void
bar_wait(struct sort_barrier *b)
{
	unsigned gen;

	if (b->n <= 1)
		return;
	pthread_mutex_lock(&b->mu);
	gen = b->gen;
	if (++b->waiting == b->n) {
		b->waiting = 0;
		b->gen++;
		pthread_cond_broadcast(&b->cv);
	} else
		while (gen == b->gen)
			pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
}

/*
 * Cut [0, n) into nt slices.  Destination indices are mapped to slices
 * with a multiply and a shift rather than a division, in the scatter's
 * inner loop; the slice bounds are whatever that map gives, which is
 * within one index per 2^40 / n of an even split.
 */
static void
rs_split(struct radix_job *r, int nt)
{
	int t;

	r->threads = nt;
	r->mul = ((uint64_t)nt << SLICE_SHIFT) / r->n;
	r->lo[0] = 0;
	for (t = 1; t < nt; t++) {
		uint64_t x = ((uint64_t)t << SLICE_SHIFT) + r->mul - 1;

		r->lo[t] = r->mul == 0 ? r->n : (size_t)(x / r->mul);
		if (r->lo[t] > r->n)
			r->lo[t] = r->n;
	}
	r->lo[nt] = r->n;
}

/* Move records [lo, hi) of src to dst by digit P; with NEXT, count the
 * next pass's digit N of each record by the slice it lands in. */
static inline __attribute__((always_inline)) void
scatter(const uint64_t *restrict src, uint64_t *restrict dst, size_t lo,
    size_t hi, const int rw, const struct radix_pass *P, const bool next,
    const struct radix_pass *N, size_t *restrict off, size_t *restrict nh,
    uint64_t mul, size_t nb)
{
	const int pw = P->word, ps = P->shift;
	const uint64_t pm = P->mask;
	const int nwd = next ? N->word : 0, ns = next ? N->shift : 0;
	const uint64_t nm = next ? N->mask : 0;
	size_t i, j;
	int w;

	for (i = lo; i < hi; i++) {
		const uint64_t *s = src + i * (size_t)rw;
		uint64_t *q;

		j = off[(s[pw] >> ps) & pm]++;
		q = dst + j * (size_t)rw;
		for (w = 0; w < rw; w++)
			q[w] = s[w];
		if (next)
			nh[((j * mul) >> SLICE_SHIFT) * nb +
			    ((s[nwd] >> ns) & nm)]++;
	}
}

static void
rs_scatter(const struct radix_job *r, const uint64_t *src, uint64_t *dst,
    size_t lo, size_t hi, const struct radix_pass *P,
    const struct radix_pass *N, size_t *off, size_t *nh)
{
	const uint64_t mul = r->mul;
	const size_t nb = r->nb;

#define SC(RW, NX)	scatter(src, dst, lo, hi, RW, P, NX, N, off, nh, \
			    mul, nb)
	if (N != NULL)
		switch (r->rec_words) {
		case 1: SC(1, true); break;
		case 2: SC(2, true); break;
		case 3: SC(3, true); break;
		case 4: SC(4, true); break;
		default: SC(r->rec_words, true); break;
		}
	else
		switch (r->rec_words) {
		case 1: SC(1, false); break;
		case 2: SC(2, false); break;
		case 3: SC(3, false); break;
		case 4: SC(4, false); break;
		default: SC(r->rec_words, false); break;
		}
#undef SC
}

/* Stable insertion sort of records [lo, hi) of a by key: for the tiny
 * buckets, where counting would cost more than it saves. */
static void
rs_insert(const struct radix_job *r, int nw, uint64_t *a, size_t lo, size_t hi)
{
	const size_t rw = (size_t)r->rec_words;
	uint64_t x[TS_MAXORDER + 2];
	size_t i, j;

	for (i = lo + 1; i < hi; i++) {
		if (keycmp(a + (i - 1) * rw, a + i * rw, nw) <= 0)
			continue;
		memcpy(x, a + i * rw, rw * 8);
		for (j = i; j > lo && keycmp(a + (j - 1) * rw, x, nw) > 0; j--)
			memcpy(a + j * rw, a + (j - 1) * rw, rw * 8);
		memcpy(a + j * rw, x, rw * 8);
	}
}

/*
 * Sort bucket [lo, hi) of src (the MSD pass has put it there) on the
 * remaining digits, ending in tgt (src or dst).  The bucket is small
 * enough to stay in this core's cache for all its passes.
 */
void
ts_rs_bucket(const struct radix_job *r, int nw, size_t *cnt, size_t *off,
    uint64_t *src, uint64_t *dst, uint64_t *tgt, size_t lo, size_t hi)
{
	const size_t rw = (size_t)r->rec_words;
	size_t i, b, run;
	uint64_t *x;
	int p;

	if (hi - lo <= 32)
		rs_insert(r, nw, src, lo, hi);
	else
		for (p = 0; p < r->npass - 1; p++) {
			const struct radix_pass *P = &r->p[p];

			memset(cnt, 0, (P->mask + 1) * sizeof(*cnt));
			for (i = lo; i < hi; i++)
				cnt[(src[i * rw + P->word] >> P->shift) &
				    P->mask]++;
			run = lo;
			for (b = 0; b <= P->mask; b++) {
				if (cnt[b] == hi - lo)
					break;	/* one digit: nothing to do */
				off[b] = run;
				run += cnt[b];
			}
			if (b <= P->mask)
				continue;
			rs_scatter(r, src, dst, lo, hi, P, NULL, off, NULL);
			x = src;
			src = dst;
			dst = x;
		}
	if (src != tgt)
		memcpy(tgt + lo * rw, src + lo * rw, (hi - lo) * rw * 8);
}

/* Thread t's share of the sort. */
static void
rs_work(struct radix_job *r, int t)
{
	const size_t nb = r->nb;
	const int nt = r->threads, rw = r->rec_words;
	size_t *mine = r->cnt + (size_t)t * nb, *off = r->off + (size_t)t * nb;
	size_t *nh = r->nh + (size_t)t * (size_t)nt * nb;
	size_t i, b, run, lo = r->lo[t], hi = r->lo[t + 1];
	uint64_t *src = r->a, *dst = r->b, *x;
	const struct radix_pass *P = &r->p[r->npass - r->npar];
	int p, u;

	memset(mine, 0, nb * sizeof(*mine));
	for (i = lo; i < hi; i++)
		mine[(src[i * (size_t)rw + P->word] >> P->shift) & P->mask]++;
	for (p = r->npass - r->npar; p < r->npass; p++) {
		const struct radix_pass *N = p + 1 < r->npass ? &r->p[p + 1] :
		    NULL;

		P = &r->p[p];
		bar_wait(&r->bar);
		/* Bucket b of slice t goes after bucket b of slices < t. */
		run = 0;
		for (b = 0; b <= P->mask; b++)
			for (u = 0; u < nt; u++) {
				if (u == t)
					off[b] = run;
				run += r->cnt[(size_t)u * nb + b];
			}
		if (t == 0 && r->bstart != NULL) {
			memcpy(r->bstart, off, (P->mask + 1) * sizeof(*off));
			r->bstart[P->mask + 1] = r->n;
		}
		if (N != NULL)
			memset(nh, 0, (size_t)nt * nb * sizeof(*nh));
		rs_scatter(r, src, dst, r->lo[t], r->lo[t + 1], P, N, off, nh);
		bar_wait(&r->bar);
		if (N != NULL)
			for (b = 0; b <= N->mask; b++) {
				size_t sum = 0;

				for (u = 0; u < nt; u++)
					sum += r->nh[((size_t)u * nt + t) *
					    nb + b];
				mine[b] = sum;
			}
		x = src;
		src = dst;
		dst = x;
	}
	if (r->bstart != NULL) {
		/* The rest, bucket by bucket, whoever is free first. */
		const size_t nbk = r->p[r->npass - 1].mask + 1;
		uint64_t *tgt = r->npass % 2 != 0 ? r->b : r->a;

		while ((b = atomic_fetch_add(&r->nextb, 1)) < nbk)
			if (r->bstart[b + 1] > r->bstart[b])
				ts_rs_bucket(r, r->key_words, mine, off, src,
				    dst, tgt, r->bstart[b], r->bstart[b + 1]);
	}
}

static void *
rs_main(void *arg)
{
	struct rs_arg *a = arg;
	struct radix_job *r = a->r;
	int go;

	pthread_mutex_lock(&r->gmu);
	while (r->go == 0)
		pthread_cond_wait(&r->gcv, &r->gmu);
	go = r->go;
	pthread_mutex_unlock(&r->gmu);
	if (go > 0)
		rs_work(r, a->t);
	return NULL;
}

/* Digits of at most RADIX_BITS over the bits that vary, per key word,
 * lowest first; with msd > 0, the top msd of them form the last digit
 * on their own. */
int
ts_rs_plan(const struct ts_sorter *s, struct radix_pass *P, int msd)
{
	int w, top = -1, np = 0;

	for (w = 0; w < s->klay.nw; w++)
		if ((s->key_or[w] ^ s->key_and[w]) != 0)
			top = w;
	for (w = 0; w <= top; w++) {
		uint64_t diff = s->key_or[w] ^ s->key_and[w];
		int lo, hi, mlo = 64, span, k, bits, i;

		if (diff == 0)
			continue;
		lo = __builtin_ctzll(diff);
		hi = 63 - __builtin_clzll(diff);
		if (w == top && msd > 0) {
			mlo = hi - msd + 1 > lo ? hi - msd + 1 : lo;
			hi = mlo - 1;
		}
		span = hi - lo + 1;
		k = span > 0 ? (span + RADIX_BITS - 1) / RADIX_BITS : 0;
		bits = k > 0 ? (span + k - 1) / k : 0;
		for (i = 0; i < k; i++) {
			int sh = lo + i * bits;
			int nb = bits < hi + 1 - sh ? bits : hi + 1 - sh;

			P[np].word = w;
			P[np].shift = sh;
			P[np].mask = ((uint64_t)1 << nb) - 1;
			np++;
		}
		if (mlo < 64) {
			hi = 63 - __builtin_clzll(diff);
			P[np].word = w;
			P[np].shift = mlo;
			P[np].mask = ((uint64_t)1 << (hi - mlo + 1)) - 1;
			np++;
		}
	}
	return np;
}

/*
 * Sort s->rec[0 .. n) (the result may swap rec and tmp).  Small arrays
 * get a plain LSD sort.  Larger ones first get one MSD pass over the
 * whole array, by as many top bits as make buckets of about
 * BUCKET_RECS records, and then an LSD sort of each bucket on the
 * other digits: all but one pass then run in cache, which is what
 * bounds a radix sort once the array is much larger than the caches.
 */
void
ts_radix_sort(struct ts_sorter *s)
{
	struct radix_job *r;
	struct rs_arg args[MAXTHREADS];
	pthread_t tid[MAXTHREADS];
	size_t need = s->n * (size_t)s->rec_words * 8, nb = 0;
	int nt, t, made = 1, i, msd = 0;
	void *x;

	pf_join(s);
	if (s->n < 2)
		return;
	r = ts_xcalloc(1, sizeof(*r));
	if (need > HYBRID_MIN)
		for (msd = 1; msd < RADIX_BITS &&
		    s->n >> (msd + 1) >= BUCKET_RECS; msd++)
			;
	r->npass = ts_rs_plan(s, r->p, msd);
	if (r->npass == 0) {
		free(r);
		return;
	}
	if (need > s->tmpsz) {
		ts_big_unmap(s->tmp, s->tmpsz);
		s->tmpsz = ts_big_round(need);
		s->tmp = ts_big_map(s->tmpsz);
	}
	for (i = 0; i < r->npass; i++)
		if (r->p[i].mask + 1 > nb)
			nb = r->p[i].mask + 1;
	r->a = s->rec;
	r->b = s->tmp;
	r->n = s->n;
	r->rec_words = s->rec_words;
	r->key_words = s->klay.nw;
	r->nb = nb;
	r->npar = msd > 0 && r->npass > 1 ? 1 : r->npass;
	if (r->npar == 1 && r->npass > 1)
		r->bstart = ts_xcalloc(r->p[r->npass - 1].mask + 2,
		    sizeof(size_t));
	atomic_init(&r->nextb, 0);
	nt = s->n >= PAR_MIN ? s->threads : 1;
	rs_split(r, nt);
	r->cnt = ts_xcalloc((size_t)nt * nb, sizeof(size_t));
	r->off = ts_xcalloc((size_t)nt * nb, sizeof(size_t));
	r->nh = ts_xcalloc((size_t)nt * nt * nb, sizeof(size_t));
	if (nt > 1) {
		pthread_mutex_init(&r->gmu, NULL);
		pthread_cond_init(&r->gcv, NULL);
		pthread_mutex_init(&r->bar.mu, NULL);
		pthread_cond_init(&r->bar.cv, NULL);
		r->bar.n = nt;
		for (t = 1; t < nt; t++) {
			args[t].r = r;
			args[t].t = t;
			if (pthread_create(&tid[t], NULL, rs_main,
			    &args[t]) != 0)
				break;
			made++;
		}
		pthread_mutex_lock(&r->gmu);
		r->go = made == nt ? 1 : -1;
		pthread_cond_broadcast(&r->gcv);
		pthread_mutex_unlock(&r->gmu);
		if (made != nt) {
			/* No threads to be had: do it alone. */
			for (t = 1; t < made; t++)
				pthread_join(tid[t], NULL);
			made = 1;
			r->bar.n = 1;
			rs_split(r, 1);
		}
	}
	rs_work(r, 0);
	for (t = 1; t < made; t++)
		pthread_join(tid[t], NULL);
	if (nt > 1) {
		pthread_mutex_destroy(&r->gmu);
		pthread_cond_destroy(&r->gcv);
		pthread_mutex_destroy(&r->bar.mu);
		pthread_cond_destroy(&r->bar.cv);
	}
	if (r->npass % 2 != 0) {
		size_t sz = s->recsz;

		x = s->rec;
		s->rec = s->tmp;
		s->tmp = x;
		s->recsz = s->tmpsz;
		s->tmpsz = sz;
	}
	free(r->bstart);
	free(r->cnt);
	free(r->off);
	free(r->nh);
	free(r);
}
