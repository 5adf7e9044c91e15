/*
 * blocks_out.c - the dense values of a block tensor's non-zero blocks,
 * for cuTENSOR: blocks in input order, each block whole, its first mode
 * fastest (cuTENSOR's default, column-major, strides), every value in
 * the value type, little-endian, nothing else in the file.  With the
 * descriptor JSON of ts-convert --to cutensor, a CUDA program has all
 * that cutensorCreateBlockSparseTensorDescriptor and the data pointers
 * need, and copies the file to the device in one call.
 *
 * The values are the generator's for the elements' coordinates: element
 * (i, j, k) has here the value the expanded tensor gives it.  The
 * blocks pass on unchanged, so that the same flow can expand them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "values/genvalues.h"
#include "util/xalloc.h"

#define CHUNK	8192		/* elements given values at once */

struct blkst {
	const struct ts_genvalues *g;
	int		 order;
	uint64_t	*start[TS_MAXORDER];
	const uint64_t	*ext[TS_MAXORDER];
	struct ts_sink	*k;
	struct ts_diags	*d;
	struct ts_batch	 el;		/* elements of the block at hand */
	unsigned char	*buf;
	size_t		 vsize;
};

/* The values of el to the sink, little-endian in the value type. */
static int
flush_values(struct blkst *st)
{
	struct ts_batch *el = &st->el;
	unsigned char *p = st->buf;

	fe_genvalues_fill(st->g, el);
	/* Little-endian: swapped on a big-endian host. */
	st->g->vt->store(p, st->vsize, el->n, !ts_host_little(), el->fval,
	    el->ival);
	if (el->n > 0 && ts_sink_write(st->k, st->buf, el->n * st->vsize) !=
	    0) {
		ts_diag_io(st->d, ts_sink_name(st->k), "write error: %s",
		    strerror(errno));
		return -1;
	}
	el->n = 0;
	return 0;
}

static int
blk_put(void *self, struct ts_batch *b)
{
	struct blkst *st = self;
	const int order = st->order;
	uint64_t x[TS_MAXORDER];
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;

		/* Every element of the block, its first mode fastest. */
		memset(x, 0, sizeof(x));
		for (;;) {
			uint64_t *out = st->el.coords + st->el.n *
			    (size_t)order;

			for (k = 0; k < order; k++)
				out[k] = st->start[k][c[k]] + x[k];
			if (++st->el.n == st->el.cap && flush_values(st) != 0)
				return -1;
			for (k = 0; k < order; k++) {
				if (++x[k] < st->ext[k][c[k]])
					break;
				x[k] = 0;
			}
			if (k == order)
				break;
		}
	}
	return 0;
}

static int
blk_finish(void *self)
{
	return flush_values(self);
}

static void
blk_free(void *self)
{
	struct blkst *st = self;
	int k;

	for (k = 0; k < st->order; k++)
		free(st->start[k]);
	ts_batch_free(&st->el);
	free(st->buf);
	free(st);
}

static const struct ts_stage_ops blk_ops = {
	"dense blocks", 0, blk_put, blk_finish, NULL, NULL, blk_free
};

struct ts_stage *
fe_stage_blocks_out(const struct ts_genvalues *g, const struct ts_header *h,
    struct ts_sink *k, struct ts_diags *d)
{
	struct blkst *st = ts_xcalloc(1, sizeof(*st));
	uint64_t s, i;
	int m;

	st->g = g;
	st->order = h->order;
	for (m = 0; m < h->order; m++) {
		st->ext[m] = h->extents[m];
		st->start[m] = ts_xreallocarray(NULL, h->parts[m] ?
		    h->parts[m] : 1, sizeof(uint64_t));
		for (s = 0, i = 0; i < h->parts[m]; i++) {
			st->start[m][i] = s;
			s += h->extents[m][i];
		}
	}
	st->k = k;
	st->d = d;
	st->vsize = ts_vtype_size(g->vtype);
	ts_batch_init(&st->el, h->order, CHUNK);
	st->buf = ts_xmalloc(CHUNK * st->vsize);
	return ts_stage_new(&blk_ops, st);
}
