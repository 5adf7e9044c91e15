/*
 * order.c - in which mode order, if any, are the entries sorted?  Found
 * in the one pass, for any order of the tensor, from what each pair of
 * neighbours says: the modes in which they agree (eq) and those in
 * which the second is below the first (dec).
 *
 * A priority p (modes, most significant first) holds for a pair when
 * the first mode of p in which they differ is not in dec.  Greedily: the
 * modes that never decrease (F1) may all come first, in any order, and
 * some valid p starts with them if any does (a mode first in a valid p
 * never decreases; and any mode that never decreases can be moved to the
 * front of a valid p without breaking it).  The pairs a mode of F1
 * increases in are then settled; of the others, which agree in all of
 * F1, the modes that never decrease come next (F2), and so on.  No
 * mode left to take while some pair is unsettled: no order holds.  So
 * what must be kept is, for each set eq, the union of the dec sets of
 * the pairs with it: a table indexed by eq for orders up to 12, a small
 * hash table above.  Being unions, the tables of parts of the entries
 * (each part's pairs, and the pairs across their borders) merge into
 * the whole's exactly.  Whether a given priority holds (the one the
 * metadata claims) is told from the same tables: for each set eq, the
 * first mode of the priority outside eq must not be in its dec.
 */
#include <stdlib.h>
#include <string.h>

#include "stats/stats_int.h"
#include "util/xalloc.h"

#define DIRECT_ORDER	12
#define HASH_MAX	4096	/* kinds of eq kept above DIRECT_ORDER */

struct order_acc {
	int		 order;
	uint64_t	*dec;		/* by eq (direct), or hashed */
	uint64_t	*key;		/* hashed: eq + 1, 0 empty */
	size_t		 cap, n;
	bool		 lost;		/* too many kinds of eq */
};

struct order_acc *
fe_order_new(int order)
{
	struct order_acc *o = ts_xcalloc(1, sizeof(*o));

	o->order = order;
	if (order <= DIRECT_ORDER) {
		o->cap = (size_t)1 << order;
		o->dec = ts_xcalloc(o->cap, sizeof(*o->dec));
	} else {
		o->cap = 2 * HASH_MAX;
		o->dec = ts_xcalloc(o->cap, sizeof(*o->dec));
		o->key = ts_xcalloc(o->cap, sizeof(*o->key));
	}
	return o;
}

void
fe_order_pair(struct order_acc *o, uint64_t eq, uint64_t dec)
{
	size_t i;

	if (o->key == NULL) {
		o->dec[eq] |= dec;
		return;
	}
	for (i = (size_t)ts_mix64(eq) & (o->cap - 1);; i = (i + 1) &
	    (o->cap - 1)) {
		if (o->key[i] == eq + 1) {
			o->dec[i] |= dec;
			return;
		}
		if (o->key[i] == 0)
			break;
	}
	if (o->n == HASH_MAX) {
		o->lost = true;
		return;
	}
	o->key[i] = eq + 1;
	o->dec[i] = dec;
	o->n++;
}

/* fe_order_pairs for an order known when it is inlined: the loop over the
 * modes unrolled. */
static inline __attribute__((always_inline)) uint64_t
pairs(struct order_acc *o, const uint64_t *t, size_t n, const uint64_t *prev,
    const int order)
{
	const uint64_t all = order == 64 ? ~(uint64_t)0 :
	    ((uint64_t)1 << order) - 1;
	const uint64_t *a = prev != NULL ? prev : t;
	uint64_t same = 0, dec0 = 0;
	size_t i = prev != NULL ? 0 : 1;
	int k;

	if (prev == NULL)
		t += order;
	for (; i < n; i++, a = t, t += order) {
		uint64_t eq = 0, dec = 0;

#pragma GCC unroll 4
		for (k = 0; k < order; k++) {
			eq |= (uint64_t)(t[k] == a[k]) << k;
			dec |= (uint64_t)(t[k] < a[k]) << k;
		}
		if (dec == 0)
			same += eq == all;
		else if (eq == 0)
			dec0 |= dec;	/* the pairs of unsorted entries */
		else if (o->key == NULL)
			o->dec[eq] |= dec;
		else
			fe_order_pair(o, eq, dec);
	}
	if (dec0 != 0)
		fe_order_pair(o, 0, dec0);
	return same;
}

uint64_t
fe_order_pairs(struct order_acc *o, const uint64_t *t, size_t n,
    const uint64_t *prev)
{
	if (n == 0)
		return 0;
	switch (o->order) {
	case 2:
		return pairs(o, t, n, prev, 2);
	case 3:
		return pairs(o, t, n, prev, 3);
	case 4:
		return pairs(o, t, n, prev, 4);
	default:
		return pairs(o, t, n, prev, o->order);
	}
}

void
fe_order_merge(struct order_acc *o, const struct order_acc *from)
{
	size_t i;

	if (from->lost)
		o->lost = true;
	for (i = 0; i < from->cap; i++)
		if (from->key == NULL)
			o->dec[i] |= from->dec[i];
		else if (from->key[i] != 0 && !o->lost)
			fe_order_pair(o, from->key[i] - 1, from->dec[i]);
}

int
fe_order_end(struct order_acc *o, int *prio)
{
	const uint64_t all = o->order == 64 ? ~(uint64_t)0 :
	    ((uint64_t)1 << o->order) - 1;
	uint64_t taken = 0, u, f;
	size_t i;
	int np = 0, k;

	if (o->lost)
		return -1;
	for (;;) {
		/* The decreases of the pairs not settled yet. */
		u = 0;
		for (i = 0; i < o->cap; i++) {
			uint64_t eq = o->key == NULL ? i : o->key[i] - 1;

			if ((o->key == NULL || o->key[i] != 0) &&
			    (eq & taken) == taken)
				u |= o->dec[i];
		}
		u &= ~taken;
		f = all & ~taken & ~u;
		if (u == 0)
			f = all & ~taken;	/* the rest, in mode order */
		if (f == 0)
			return 0;
		for (k = 0; k < o->order; k++)
			if (f >> k & 1)
				prio[np++] = k;
		taken |= f;
		if (u == 0)
			return 1;
	}
}

bool
fe_order_holds(const struct order_acc *o, const int *prio)
{
	size_t i;
	int k;

	if (o->lost)
		return false;
	/* Each kind of pair: the first mode of prio in which its pairs
	 * differ must be one none of them decreases in. */
	for (i = 0; i < o->cap; i++) {
		uint64_t eq = o->key == NULL ? i : o->key[i] - 1;

		if ((o->key != NULL && o->key[i] == 0) || o->dec[i] == 0)
			continue;
		for (k = 0; k < o->order && (eq >> prio[k] & 1); k++)
			;
		if (k < o->order && (o->dec[i] >> prio[k] & 1))
			return false;
	}
	return true;
}

void
fe_order_free(struct order_acc *o)
{
	if (o == NULL)
		return;
	free(o->dec);
	free(o->key);
	free(o);
}
