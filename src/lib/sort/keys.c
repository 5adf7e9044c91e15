/*
 * keys.c - coordinates packed into a record's key, and the packing
 * widened as wider coordinates come.
 *
 * The key is the coordinates in priority order, bit-packed with each
 * field as wide as the largest coordinate seen so far in its mode,
 * least significant word first: an order-3 tensor with dimensions below
 * 2000 needs 33 bits, so a record with a value takes 16 bytes instead of
 * 32.  When a batch brings a coordinate wider than its field, the
 * records in memory are repacked; fields only widen, one bit at least
 * each time, so this is rare (a few times per mode for sorted input,
 * where it happens while there is little to repack).  Packing and
 * comparing one key are inline, in sort_int.h.
 */
#include <string.h>

#include "tensorsuite.h"
#include "util/bigmem.h"
#include "sort/sort_int.h"

/* Place the fields, the last priority at bit 0. */
void
ts_key_layout_finish(struct key_layout *kl, int d)
{
	int j, off = 0;

	for (j = d - 1; j >= 0; j--) {
		kl->sh[j] = kl->w[j] != 0 ? (uint16_t)off : 0;
		kl->mask[j] = kl->w[j] >= 64 ? ~(uint64_t)0 :
		    ((uint64_t)1 << kl->w[j]) - 1;
		off += kl->w[j];
	}
	kl->nw = off == 0 ? 1 : (off + 63) / 64;
}

/* The index of the current layout among those of the runs. */
int
ts_run_layout(struct ts_sorter *s)
{
	if (s->nlays == 0 || !key_layout_eq(&s->lays[s->nlays - 1], &s->klay,
	    s->order)) {
		s->lays = ts_xreallocarray(s->lays, (size_t)s->nlays + 1,
		    sizeof(*s->lays));
		s->lays[s->nlays++] = s->klay;
	}
	return s->nlays - 1;
}

/* Switch to a wider packing, repacking the records in memory. */
void
ts_relayout(struct ts_sorter *s, const struct key_layout *to)
{
	/* A copy of *to, kept in registers: the compiler must assume that
	 * the stores to the records and bounds below may change *to. */
	const struct key_layout NLc = *to, *NL = &NLc;
	struct key_layout OL = s->klay;
	const int orw = s->rec_words, extra = s->val_words + s->keep_text;
	const int nrw = NL->nw + extra;
	uint64_t tk[TS_MAXORDER], nk[TS_MAXORDER], ex[2];
	size_t i, k, n = s->n;
	int w;

	s->klay = *NL;
	reset_bounds(s);
	pf_join(s);
	if (nrw != orw && n != 0) {
		/* Grow first; the repacking below moves records up. */
		size_t oldsz = s->recsz;
		size_t need = n * (size_t)nrw * 8;

		if (need > oldsz) {
			size_t nsz = ts_big_round(need > 2 * oldsz ? need :
			    2 * oldsz);

			s->rec = ts_big_grow(s->rec, oldsz, nsz);
			s->recsz = nsz;
		}
	}
	s->rec_words = nrw;
	for (k = 0; k < n; k++) {
		/* Wider records: back to front, so nothing unread is
		 * overwritten. */
		const uint64_t *r;
		uint64_t *q;

		i = nrw > orw ? n - 1 - k : k;
		r = s->rec + i * (size_t)orw;
		memcpy(tk, r, (size_t)OL.nw * 8);
		memcpy(ex, r + OL.nw, (size_t)extra * 8);
		key_repack(&OL, NL, s->order, tk, nk);
		q = s->rec + i * (size_t)nrw;
		memcpy(q, nk, (size_t)NL->nw * 8);
		memcpy(q + NL->nw, ex, (size_t)extra * 8);
		for (w = 0; w < NL->nw; w++) {
			s->key_or[w] |= nk[w];
			s->key_and[w] &= nk[w];
		}
	}
}
