/*
 * batch.c - the unit that flows between decoders, stages and encoders:
 * a few thousand entries as parallel arrays, allocated once and reused;
 * and the header that describes a data file.
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "util/xalloc.h"

void
ts_batch_init(struct ts_batch *b, int order, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->order = order;
	b->cap = cap;
	b->coords = ts_xreallocarray(NULL, cap, (size_t)order *
	    sizeof(uint64_t));
	b->fval = ts_xreallocarray(NULL, cap, sizeof(double));
	b->ival = ts_xreallocarray(NULL, cap, sizeof(int64_t));
	b->loc = ts_xreallocarray(NULL, cap, sizeof(uint64_t));
	b->row = ts_xreallocarray(NULL, cap, sizeof(char *));
	b->vtext = ts_xreallocarray(NULL, cap, sizeof(char *));
	b->vlen = ts_xreallocarray(NULL, cap, sizeof(uint32_t));
}

void
ts_batch_free(struct ts_batch *b)
{
	free(b->coords);
	free(b->fval);
	free(b->ival);
	free(b->loc);
	free(b->row);
	free(b->vtext);
	free(b->vlen);
	memset(b, 0, sizeof(*b));
}

void
ts_header_free(struct ts_header *h)
{
	int i;

	free(h->version);
	free(h->name);
	free(h->comments);
	for (i = 0; i < TS_MAXORDER; i++)
		free(h->extents[i]);
	memset(h, 0, sizeof(*h));
}

int
ts_header_uniform(const struct ts_header *h, uint64_t *shape, uint64_t e[2])
{
	uint64_t i;
	int k;

	for (k = 0; k < h->order; k++) {
		if (h->parts[k] == 0 || h->extents[k] == NULL)
			continue;
		for (i = 1; i < h->parts[k]; i++)
			if (h->extents[k][i] != h->extents[k][0]) {
				e[0] = h->extents[k][0];
				e[1] = h->extents[k][i];
				return k;
			}
		shape[k] = h->extents[k][0];
	}
	return -1;
}
