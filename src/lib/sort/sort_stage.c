/*
 * sort_stage.c - the sorter (the other files of sort/) as a stage of a
 * flow: it holds every entry until the input ends, then hands them on
 * in order.
 * What a sort can find wrong is reported here, about the input: a
 * repeated tuple under --duplicates error, a sum of repeats that
 * overflows the value type, a temporary directory that fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "stage/stage.h"
#include "util/path.h"
#include "util/xalloc.h"

#define BATCH	8192

struct sortst {
	struct ts_sorter	*s;
	struct ts_sort_opts	 o;
	enum ts_vtype		 vtype;
	int			 base;
	char			*file;
	struct ts_sort_result	*res;
	const struct ts_decoder	*hint;
	uint64_t		 added;
	struct ts_diags		*d;
};

static void
sort_fail(struct sortst *st)
{
	ts_diag_io(st->d, NULL, "sorting (temporary directory '%s'): %s",
	    ts_tmpdir(st->o.tmpdir), strerror(errno));
}

/*
 * How many entries the file may hold, going by the first batch: at most
 * a quarter more than its size over the bytes a row took so far, and
 * never more than n.
 */
static uint64_t
plausible(const struct ts_decoder *dec, uint64_t n)
{
	struct ts_source *src = ts_decoder_source(dec);
	uint64_t rows = ts_decoder_rows(dec), off = ts_decoder_offset(dec);
	uint64_t est;

	if (rows == 0 || off == 0 || ts_source_size(src) < 0)
		return n;
	est = (uint64_t)((double)ts_source_size(src) / ((double)off /
	    (double)rows) * 1.25) + BATCH;
	return est < n ? est : n;
}

static int
sort_put(void *self, struct ts_batch *b)
{
	struct sortst *st = self;

	if (st->added == 0 && st->hint != NULL)
		ts_sorter_expect(st->s, plausible(st->hint, st->o.expect));
	st->added += b->n;
	if (ts_sorter_add(st->s, b) != 0) {
		sort_fail(st);
		return -1;
	}
	return 0;
}

static int
sort_finish(void *self)
{
	struct sortst *st = self;
	int rv = ts_sorter_finish(st->s);
	char tb[256];

	if (rv != 0 && ts_sorter_dup(st->s) != NULL) {
		ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0, TS_RULE_S3,
		    "entry %s repeats (--duplicates error)", ts_tuple_str(tb,
		    sizeof(tb), ts_sorter_dup(st->s), st->o.order, st->base));
		return -1;
	}
	if (rv != 0 && errno == ERANGE) {
		ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0, TS_RULE_S5,
		    "a sum of repeated entries overflows %s",
		    ts_vtype_name(st->vtype));
		return -1;
	}
	if (rv != 0) {
		sort_fail(st);
		return -1;
	}
	if (st->res != NULL)
		st->res->count = ts_sorter_count(st->s);
	return 0;
}

static long
sort_next(void *self, struct ts_batch *b)
{
	struct sortst *st = self;
	const struct ts_vtype_info *vt = ts_vtype_info(st->vtype);
	long r = ts_sorter_next(st->s, b);
	size_t e;

	if (r < 0) {
		sort_fail(st);
		return -1;
	}
	if (st->o.dups != TS_DUP_SUM || !b->has_values)
		return r;
	/* A sum of a narrower float is rounded to its type, and its text
	 * must say so: format rather than copy. */
	if (vt->narrow != NULL) {
		b->texts = false;
		for (e = 0; e < b->n; e++)
			b->fval[e] = vt->narrow(b->fval[e]);
	}
	if (vt->is_int)
		for (e = 0; e < b->n; e++)
			if (b->ival[e] < vt->imin || b->ival[e] > vt->imax) {
				ts_diag(st->d, TS_SEV_ERROR, st->file, 0, 0,
				    TS_RULE_S5, "a sum of repeated entries "
				    "overflows %s", vt->name);
				return -1;
			}
	/* A sum may make a zero or leave the binary domain: the metadata,
	 * written after the entries, must say what is there. */
	if (st->res != NULL)
		for (e = 0; e < b->n; e++) {
			double v = b->is_int ? (double)b->ival[e] : b->fval[e];

			if (v == 0)
				st->res->seen |= 1;
			if (v != 0 && v != 1)
				st->res->seen |= 2;
		}
	return r;
}

static uint64_t
sort_count(void *self)
{
	struct sortst *st = self;

	return ts_sorter_count(st->s);
}

static void
sort_free(void *self)
{
	struct sortst *st = self;

	ts_sorter_free(st->s);
	free(st->file);
	free(st);
}

static const struct ts_stage_ops sort_ops = {
	"sort", 0, sort_put, sort_finish, sort_next, sort_count, sort_free
};

struct ts_stage *
ts_stage_sort(const struct ts_sort_opts *o, int base,
    const char *file, const struct ts_decoder *hint,
    struct ts_sort_result *res, struct ts_diags *d)
{
	struct sortst *st;
	struct ts_sorter *s = ts_sorter_new(o);

	if (s == NULL) {
		ts_diag_usage(d, "sorting: %s", strerror(errno));
		return NULL;
	}
	st = ts_xcalloc(1, sizeof(*st));
	st->s = s;
	st->o = *o;
	st->vtype = o->vtype;
	st->base = base;
	st->file = ts_xstrdup(file);
	st->hint = hint;
	st->res = res;
	st->d = d;
	return ts_stage_new(&sort_ops, st);
}
