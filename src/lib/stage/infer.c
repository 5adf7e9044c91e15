/*
 * infer.c - what an import's entries are, for metadata that nothing
 * states: a stage that watches each batch go by (extent of each mode,
 * order, zeros, signs, binary values) and, unless light, keeps the
 * entries for what only the whole can tell (repeats, symmetry).  Memory
 * then grows with nnz: only imports pay for it.
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "stage/infer_whole.h"
#include "util/xalloc.h"

struct infer {
	struct ts_inferred	*out;
	uint64_t		 prev[TS_MAXORDER];
	bool			 light;
	int			 order;
};

static int
lexcmp(const uint64_t *a, const uint64_t *b, int order, bool rev)
{
	int i;

	for (i = 0; i < order; i++) {
		int k = rev ? order - 1 - i : i;

		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	}
	return 0;
}

static int
infer_put(void *self, struct ts_batch *b)
{
	struct infer *s = self;
	struct ts_inferred *o = s->out;
	const int order = s->order;
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;

		for (k = 0; k < order; k++) {
			if (o->n == 0 || c[k] > o->max[k])
				o->max[k] = c[k];
			if (o->n == 0 || c[k] < o->min[k])
				o->min[k] = c[k];
		}
		if (o->n == 0) {
			memcpy(o->first, c, (size_t)order * sizeof(*c));
			if (b->has_values)
				o->first_value = b->is_int ?
				    (double)b->ival[i] : b->fval[i];
		} else {
			if (lexcmp(s->prev, c, order, false) > 0)
				o->fwd = false;
			if (lexcmp(s->prev, c, order, true) > 0)
				o->rev = false;
		}
		memcpy(s->prev, c, (size_t)order * sizeof(*c));
		if (b->has_values) {
			double v = b->is_int ? (double)b->ival[i] : b->fval[i];

			o->zero |= v == 0;
			o->neg |= !(v >= 0);
			o->nonbin |= v != 0 && v != 1;
			/* Beyond int64 (or not finite) is no id either; the
			 * cast would be undefined there. */
			o->frac |= !(v > -0x1p63 && v < 0x1p63) ||
			    v != (double)(int64_t)v;
			if (o->n == 0 || v > o->vmax)
				o->vmax = v;
		}
		for (k = 1; k < order && c[k] == c[0]; k++)
			continue;
		o->ndiag += k == order;
		o->n++;
		if (!s->light)
			ts_whole_add(o->kept, b, i);
	}
	return 0;
}

static const struct ts_stage_ops infer_ops = {
	"infer", 0, infer_put, NULL, NULL, NULL, free
};

struct ts_stage *
ts_stage_infer(int order, bool light, struct ts_inferred *out)
{
	struct infer *s = ts_xcalloc(1, sizeof(*s));

	memset(out, 0, sizeof(*out));
	out->fwd = out->rev = true;
	out->dups = true;	/* nothing is claimed without looking */
	if (!light) {
		out->kept = ts_xmalloc(sizeof(struct ts_whole));
		ts_whole_init(out->kept, order);
	}
	s->out = out;
	s->light = light;
	s->order = order;
	return ts_stage_new(&infer_ops, s);
}

void
ts_infer_whole(struct ts_inferred *o, uint64_t base, const uint64_t *dims)
{
	struct ts_whole *w = o->kept;
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n * (size_t)w->order; i++)
		w->tup[i] -= base;
	ts_whole_infer(w, dims, &o->dups, &o->psym, &o->nsym);
	o->skew = w->order == 2 && o->psym == TS_SYM_FULL && !o->dups &&
	    o->ndiag == 0 && ts_whole_skew(w);
	ts_inferred_free(o);
}

void
ts_inferred_free(struct ts_inferred *o)
{
	if (o->kept != NULL) {
		ts_whole_free(o->kept);
		free(o->kept);
		o->kept = NULL;
	}
}
