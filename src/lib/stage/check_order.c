/*
 * order.c - is a tensor in a given key order?  A streaming stage that
 * compares each entry with the one before it, as sort -c does: it keeps
 * one tuple, so any tensor is checked in the same small memory, and it
 * stops the flow at the first entry out of order, which it reports with
 * its location (ts-sort -c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "stage/stage.h"
#include "util/xalloc.h"

struct order {
	int		 prio[TS_MAXORDER];
	int		 order, base;
	bool		 strict, have_prev;
	uint64_t	 prev[TS_MAXORDER];
	char		 key[TS_MAXORDER * 4];	/* "3,1,2" */
	struct ts_diags	*d;
};

static int
order_put(void *self, struct ts_batch *b)
{
	struct order *s = self;
	const int order = s->order;
	char tb[256], pb[256];
	size_t i;
	int k, c;

	for (i = 0; i < b->n; i++) {
		const uint64_t *t = b->coords + i * (size_t)order;

		c = 0;
		for (k = 0; k < order && c == 0; k++)
			if (s->prev[s->prio[k]] != t[s->prio[k]])
				c = s->prev[s->prio[k]] < t[s->prio[k]] ?
				    -1 : 1;
		if (s->have_prev && (c > 0 || (c == 0 && s->strict))) {
			ts_tuple_str(tb, sizeof(tb), t, order, s->base);
			ts_tuple_str(pb, sizeof(pb), s->prev, order, s->base);
			if (c > 0)
				ts_batch_diag(s->d, b, i, 0, TS_SEV_ERROR,
				    TS_RULE_NONE, "entry %s is out of order "
				    "in key %s: it follows %s", tb, s->key, pb);
			else
				ts_batch_diag(s->d, b, i, 0, TS_SEV_ERROR,
				    TS_RULE_NONE, "entry %s repeats the one "
				    "before it", tb);
			return -1;
		}
		memcpy(s->prev, t, (size_t)order * sizeof(*t));
		s->have_prev = true;
	}
	return 0;
}

static const struct ts_stage_ops order_ops = {
	"order", 0, order_put, NULL, NULL, NULL, free
};

struct ts_stage *
ts_stage_order(const int *prio, int order, int base, bool strict,
    struct ts_diags *d)
{
	struct order *s = ts_xcalloc(1, sizeof(*s));
	size_t n = 0;
	int k;

	memcpy(s->prio, prio, (size_t)order * sizeof(*prio));
	s->order = order;
	s->base = base;
	s->strict = strict;
	s->d = d;
	for (k = 0; k < order; k++)
		n += (size_t)snprintf(s->key + n, sizeof(s->key) - n, "%s%d",
		    k ? "," : "", prio[k] + 1);
	return ts_stage_new(&order_ops, s);
}
