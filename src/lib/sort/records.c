/*
 * records.c - the record array in memory: grown within the memory
 * limit, and its fresh pages made present ahead of the first writes.
 *
 * The first write to a page of fresh memory costs more than anything
 * else the sorter does with it: the kernel must find and clear the page
 * (and on a virtual machine the host may have to back it first).  When
 * the caller says how many entries to expect, the record array is mapped
 * for them at once, and a thread of its own makes its pages present
 * (MADV_POPULATE_WRITE, which leaves their contents alone) while the
 * caller is still reading and parsing: the clearing moves to an
 * otherwise idle core.
 */
#include <sys/mman.h>

#include <pthread.h>

#include "tensorsuite.h"
#include "util/bigmem.h"
#include "sort/sort_int.h"

#define PF_CHUNK	((size_t)2 << 20)

static void *
pf_main(void *arg)
{
#ifdef MADV_POPULATE_WRITE
	const struct ts_sorter *s = arg;
	char *a = (char *)s->rec;
	size_t off, k;

	for (off = 0; off < s->recsz; off += k) {
		k = s->recsz - off < PF_CHUNK ? s->recsz - off : PF_CHUNK;
		if (madvise(a + off, k, MADV_POPULATE_WRITE) != 0)
			return NULL;	/* a hint: give up */
	}
#else
	(void)arg;
#endif
	return NULL;
}

/* Room for n records of the current width, growing by doubling up to
 * the share of the memory limit that records may take (half of what
 * the text leaves: the radix sort needs a second array). */
void
ts_rec_reserve(struct ts_sorter *s, size_t n)
{
	size_t need = n * (size_t)s->rec_words * 8, nsz, cap;

	if (need <= s->recsz)
		return;
	pf_join(s);
	nsz = s->recsz == 0 ? (size_t)256 << 10 : 2 * s->recsz;
	cap = s->limit > s->alen ? (s->limit - s->alen) / 2 : 0;
	if (s->limit != 0 && nsz > cap)
		nsz = cap;
	if (nsz < need)
		nsz = need;
	nsz = ts_big_round(nsz);
	s->rec = ts_big_grow(s->rec, s->recsz, nsz);
	s->recsz = nsz;
}

/* Map the record array for n records at once (the entries the caller
 * expects), and prefault it in a thread of its own. */
void
ts_rec_prefault(struct ts_sorter *s, size_t n)
{
	ts_rec_reserve(s, n);
	s->pf_active = pthread_create(&s->pf_tid, NULL, pf_main, s) == 0;
}
