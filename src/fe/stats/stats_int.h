/*
 * stats_int.h - the parts of the statistics engine its files share
 * (internal to src/fe/stats).
 */
#ifndef FE_STATS_INT_H
#define FE_STATS_INT_H

#include "stats/stats.h"
#include "util/hash.h"

/*
 * A distribution being gathered, one count at a time, exactly and in
 * bounded memory: counts below SMALL in a counting array, the larger
 * ones (there are at most sum / SMALL of them) in a list sorted at the
 * end.  The median comes from the counts, never from sorting members.
 */
#define DIST_SMALL	65536

struct dist_acc {
	uint64_t	*small;		/* DIST_SMALL, allocated on first use */
	uint64_t	*big;
	size_t		 nbig, capbig;
	uint64_t	 n, sum, min, max;
	uint64_t	 hist[FE_STATS_HIST];
};

void	 fe_dist_add(struct dist_acc *, uint64_t count);
/* Add count n times. */
void	 fe_dist_add_n(struct dist_acc *, uint64_t count, uint64_t n);
/* The distribution, and the accumulator emptied. */
void	 fe_dist_end(struct dist_acc *, struct ts_dist *);
/* The power law of a's tail (fit.c), before fe_dist_end empties it. */
void	 fe_stats_fit(const struct dist_acc *a, struct ts_fit *f);
void	 fe_dist_free(struct dist_acc *);

/* A HyperLogLog sketch of 2^HLL_P registers (standard error 1.04 /
 * 2^(HLL_P/2), 1.6%) of 64-bit hashes. */
#define HLL_P	12

struct hll {
	uint8_t		 reg[1 << HLL_P];
};

static inline void
hll_add(struct hll *h, uint64_t hash)
{
	uint64_t w = hash << HLL_P | (uint64_t)1 << (HLL_P - 1);
	size_t i = (size_t)(hash >> (64 - HLL_P));

	/* The rank clz(w) + 1 beats register value v when w has v
	 * leading zeros at least: told without counting them, which is
	 * all most hashes need once the registers have grown. */
	if (w <= UINT64_MAX >> h->reg[i])
		h->reg[i] = (uint8_t)(__builtin_clzll(w) + 1);
}

uint64_t fe_hll_count(const struct hll *);

/* The mode order found by order.c: from what each pair of neighbours
 * says (see there). */
struct order_acc;
struct order_acc *fe_order_new(int order);
/* The pair (prev, cur): eq has bit k when they agree in mode k, dec
 * when cur is below prev in it. */
void	 fe_order_pair(struct order_acc *, uint64_t eq, uint64_t dec);
/* The pairs of neighbours among the n tuples at t, and (prev, t[0])
 * when prev is not NULL; returns how many pairs are equal tuples. */
uint64_t fe_order_pairs(struct order_acc *, const uint64_t *t, size_t n,
	    const uint64_t *prev);
/* What from saw, added to o (of the same order). */
void	 fe_order_merge(struct order_acc *o, const struct order_acc *from);
/* 1 and a mode order in prio, 0 when none holds, -1 when too many
 * kinds of pair were seen to tell. */
int	 fe_order_end(struct order_acc *, int *prio);
/* Does the mode order prio (0-based, most significant first, a
 * permutation) hold for every pair seen?  false when it does not, or
 * too many kinds of pair were seen to tell. */
bool	 fe_order_holds(const struct order_acc *, const int *prio);
void	 fe_order_free(struct order_acc *);

#endif
