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
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "sort/sort_int.h"

#define CHUNK		((size_t)256)
#define FREE_SLOT	UINT32_MAX

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
	uint64_t *part, *bufa, *bufb, *scratch;
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
	for (i = 0; i < n; i++) {
		const uint64_t *q = s->rec + i * rw;

		b = (q[M.word] >> M.shift) & M.mask;
		memcpy(part + (b * CHUNK + fill[b]) * rw, q, rw * 8);
		if (++fill[b] == CHUNK) {
			k = used++;
			memcpy(s->rec + k * CHUNK * rw, part + b * CHUNK * rw,
			    cb);
			owner[k] = (uint32_t)b;
			opos[k] = (uint32_t)lcount[b];
			list[lstart[b] + lcount[b]++] = (uint32_t)k;
			fill[b] = 0;
		}
	}
	heap.v = ts_xreallocarray(NULL, nslot, sizeof(*heap.v));
	heap.n = 0;
	for (k = used; k < nslot; k++) {
		owner[k] = FREE_SLOT;
		slot_push(&heap, (uint32_t)k);
	}

	/* Place, bucket by bucket. */
	scratch = ts_xreallocarray(NULL, 2 * (maxc > 0 ? maxc : 1), rw * 8);
	bufa = scratch;
	bufb = scratch + maxc * rw;
	r.rec_words = s->rec_words;
	r.key_words = s->klay.nw;
	for (b = 0; b < nbk; b++) {
		const size_t m = cnt[b], lo = start[b], hi = start[b + 1];
		uint64_t *a = bufa;

		if (m == 0)
			continue;
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
		if (m > 1) {
			size_t c[(size_t)1 << RADIX_BITS];
			size_t off[(size_t)1 << RADIX_BITS];

			ts_rs_bucket(&r, r.key_words, c, off, bufa, bufb, bufa,
			    0, m);
		}
		memcpy(s->rec + lo * rw, bufa, m * rw * 8);
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
