/*
 * symmetric.c - --symmetric: each canonical tuple (its coordinates
 * ascending, as the models' draws are made under --symmetric) becomes
 * its orbit, every distinct permutation of it, with its value; the
 * entries are sorted again (the external sorter), so that the count is
 * known before the header is written and the file is in order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/xalloc.h"

#define CHUNK	8192

struct orbit {
	struct ts_sorter *s;
	struct ts_batch	 out;		/* permutations, on their way */
	int		 order;
	struct ts_sort_result *res;
	const char	*tmpdir;
	struct ts_diags	*d;
};

static int
flush(struct orbit *o)
{
	if (o->out.n > 0 && ts_sorter_add(o->s, &o->out) != 0) {
		ts_diag_io(o->d, NULL, "sorting (temporary directory '%s'): "
		    "%s", o->tmpdir ? o->tmpdir : "$TMPDIR or /tmp",
		    strerror(errno));
		return -1;
	}
	o->out.n = 0;
	return 0;
}

/* The next permutation of t in lexicographic order: false after the
 * last (the ascending tuple's orbit, every distinct one once). */
static bool
next_perm(uint64_t *t, int n)
{
	int i = n - 2, j;
	uint64_t v;

	while (i >= 0 && t[i] >= t[i + 1])
		i--;
	if (i < 0)
		return false;
	for (j = n - 1; t[j] <= t[i]; j--)
		continue;
	v = t[i];
	t[i] = t[j];
	t[j] = v;
	for (i++, j = n - 1; i < j; i++, j--) {
		v = t[i];
		t[i] = t[j];
		t[j] = v;
	}
	return true;
}

static int
orbit_put(void *self, struct ts_batch *b)
{
	struct orbit *o = self;
	uint64_t t[TS_MAXORDER];
	size_t i, k = (size_t)o->order;

	o->out.has_values = b->has_values;
	o->out.is_int = b->is_int;
	for (i = 0; i < b->n; i++) {
		memcpy(t, b->coords + i * k, k * sizeof(*t));
		do {
			if (o->out.n == o->out.cap && flush(o) != 0)
				return -1;
			memcpy(o->out.coords + o->out.n * k, t, k *
			    sizeof(*t));
			o->out.fval[o->out.n] = b->fval[i];
			o->out.ival[o->out.n] = b->ival[i];
			o->out.n++;
		} while (next_perm(t, o->order));
	}
	return 0;
}

static int
orbit_finish(void *self)
{
	struct orbit *o = self;

	if (flush(o) != 0)
		return -1;
	if (ts_sorter_finish(o->s) != 0) {
		ts_diag_io(o->d, NULL, "sorting: %s", strerror(errno));
		return -1;
	}
	if (o->res != NULL)
		o->res->count = ts_sorter_count(o->s);
	return 0;
}

static long
orbit_next(void *self, struct ts_batch *b)
{
	struct orbit *o = self;
	long r = ts_sorter_next(o->s, b);

	if (r < 0)
		ts_diag_io(o->d, NULL, "sorting: %s", strerror(errno));
	return r;
}

static uint64_t
orbit_count(void *self)
{
	return ts_sorter_count(((struct orbit *)self)->s);
}

static void
orbit_free(void *self)
{
	struct orbit *o = self;

	ts_sorter_free(o->s);
	ts_batch_free(&o->out);
	free(o);
}

static const struct ts_stage_ops orbit_ops = {
	"orbits", 0, orbit_put, orbit_finish, orbit_next, orbit_count,
	orbit_free
};

struct ts_stage *
gen_orbit_stage(const struct ts_sort_opts *so, struct ts_sort_result *res,
    struct ts_diags *d)
{
	struct orbit *o = ts_xcalloc(1, sizeof(*o));

	o->order = so->order;
	o->res = res;
	o->tmpdir = so->tmpdir;
	o->d = d;
	if ((o->s = ts_sorter_new(so)) == NULL) {
		ts_diag_io(d, NULL, "sorting: %s", strerror(errno));
		free(o);
		return NULL;
	}
	ts_batch_init(&o->out, so->order, CHUNK);
	return ts_stage_new(&orbit_ops, o);
}
