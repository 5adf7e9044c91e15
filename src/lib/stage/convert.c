/*
 * convert.c - values from one type to another (--value-type), refusing
 * what does not fit exactly rather than changing it: an integer too
 * large for int32, a float that is not an integer, an integer that
 * float64 cannot hold, a float that float32 overflows or flushes to 0.
 * The first such value stops the work, located in its file.
 */
#include <math.h>
#include <stdlib.h>

#include "tensorsuite.h"
#include "stage/stage.h"
#include "util/xalloc.h"

struct conv {
	enum ts_vtype	 from, to;
	struct ts_diags	*d;
};

static int
bad(const struct conv *s, const struct ts_batch *b, size_t i,
    const char *fmt, const char *num)
{
	ts_batch_diag(s->d, b, i, b->order, TS_SEV_ERROR, TS_RULE_S5, fmt, num,
	    ts_vtype_name(s->to));
	return -1;
}

static int
conv_put(void *self, struct ts_batch *b)
{
	const struct conv *s = self;
	const struct ts_vtype_info *to = ts_vtype_info(s->to);
	const bool fint = ts_vtype_info(s->from)->is_int;
	const bool tint = to->is_int;
	char nb[TS_NUMBUF];
	size_t i;

	if (!b->has_values)
		return 0;
	for (i = 0; i < b->n; i++) {
		if (fint && tint) {
			int64_t v = b->ival[i];

			if (v < to->imin || v > to->imax) {
				ts_fmt_i64(nb, v);
				return bad(s, b, i, "value %s does not fit %s",
				    nb);
			}
		} else if (fint) {
			int64_t v = b->ival[i];
			double d = to->narrow != NULL ? to->narrow((double)v) :
			    (double)v;

			/* Exact when it converts back; 2^63 itself does not
			 * fit int64, so compare in double first. */
			if (d >= 9223372036854775808.0 || (int64_t)d != v) {
				ts_fmt_i64(nb, v);
				return bad(s, b, i, "value %s is not exact in "
				    "%s", nb);
			}
			b->fval[i] = d;
		} else if (tint) {
			double v = b->fval[i];
			/* (2^63 is no int64: compare in double.) */
			if (!(v == floor(v) && v >= (double)to->imin &&
			    v < -(double)to->imin)) {
				ts_fmt_double(nb, v);
				return bad(s, b, i, "value %s is not an integer "
				    "of %s", nb);
			}
			b->ival[i] = (int64_t)v;
		} else if (to->narrow != NULL) {
			double v = b->fval[i], w = to->narrow(v);
			bool over = isfinite(v) && isinf(w);

			if (over || (v != 0 && w == 0)) {
				ts_fmt_double(nb, v);
				return bad(s, b, i, over ? "value %s overflows "
				    "%s" : "value %s underflows %s to 0", nb);
			}
			b->fval[i] = w;
		}
	}
	b->is_int = tint;
	return 0;
}

static const struct ts_stage_ops conv_ops = {
	"convert", TS_STAGE_VALUES, conv_put, NULL, NULL, NULL, free
};

struct ts_stage *
ts_stage_convert(enum ts_vtype from, enum ts_vtype to, struct ts_diags *d)
{
	struct conv *s = ts_xmalloc(sizeof(*s));

	s->from = from;
	s->to = to;
	s->d = d;
	return ts_stage_new(&conv_ops, s);
}
