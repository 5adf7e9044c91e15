/*
 * inrange.c - S1: is every coordinate inside the tensor (or, for a block
 * tensor, inside the block grid), and the message when one is not.  The
 * one place that says so: every decoder checks its batches with it
 * unless its reader asks otherwise (decoder.c), the bounds stage of the
 * conversions stops at the first coordinate out, and the checks report
 * each.
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"

/*
 * Is some coordinate of the n tuples of order ord at c outside lim?  No
 * branch on each (a third less time than a test of each on the wide
 * bench tensor), ord a constant where inlined.
 */
static inline __attribute__((always_inline)) bool
any_out(const uint64_t *c, size_t n, const uint64_t *lim, const int ord)
{
	uint64_t l[TS_MAXORDER], bad = 0;
	size_t i;
	int k;

	memcpy(l, lim, (size_t)ord * sizeof(*l));
	for (i = 0; i < n; i++)
		for (k = 0; k < ord; k++)
			bad |= c[i * (size_t)ord + (size_t)k] >= l[k];
	return bad != 0;
}

#if defined(__GNUC__) || defined(__clang__)
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/*
 * The same when every limit is in [1, 2^63], two words at a time: x is
 * at least its limit l exactly when (l - 1 - x) | x has its top bit set
 * (below 2^63, l - 1 - x wraps past 2^63 when x > l - 1; from 2^63, x's
 * own top bit).  A subtraction and two ORs a word, no compare (SSE2 has
 * none of 64-bit words): a quarter of any_out's time.  The words taken
 * 2 ord at a time, the limits' pattern repeating over ord vectors.
 */
static inline __attribute__((always_inline)) bool
any_out_vec(const uint64_t *c, size_t n, const uint64_t *lim, const int ord)
{
	u64x2 pat[TS_MAXORDER], acc = { 0, 0 }, x;
	uint64_t l1[TS_MAXORDER], bad;
	const size_t m = n * (size_t)ord, per = 2 * (size_t)ord;
	size_t j;
	int k;

	for (k = 0; k < ord; k++)
		l1[k] = lim[k] - 1;
	for (k = 0; k < ord; k++) {
		pat[k][0] = l1[(2 * k) % ord];
		pat[k][1] = l1[(2 * k + 1) % ord];
	}
	for (j = 0; j + per <= m; j += per)
		for (k = 0; k < ord; k++) {
			memcpy(&x, c + j + 2 * (size_t)k, sizeof(x));
			acc |= (pat[k] - x) | x;
		}
	bad = acc[0] | acc[1];
	for (; j < m; j++)
		bad |= (l1[j % (size_t)ord] - c[j]) | c[j];
	return bad >> 63 != 0;
}

/* May any_out_vec stand for any_out: every limit in [1, 2^63]? */
static bool
vec_ok(const uint64_t *lim, int order)
{
	int k;

	for (k = 0; k < order; k++)
		if (lim[k] - 1 >= (uint64_t)1 << 63)
			return false;
	return true;
}
#else
#define any_out_vec	any_out
#define vec_ok(lim, order)	false
#endif

bool
ts_coords_out(const uint64_t *c, size_t n, const uint64_t *lim, int order)
{
	if (vec_ok(lim, order))
		switch (order) {
		case 2: return any_out_vec(c, n, lim, 2);
		case 3: return any_out_vec(c, n, lim, 3);
		case 4: return any_out_vec(c, n, lim, 4);
		default: return any_out_vec(c, n, lim, order);
		}
	switch (order) {
	case 2: return any_out(c, n, lim, 2);
	case 3: return any_out(c, n, lim, 3);
	case 4: return any_out(c, n, lim, 4);
	default: return any_out(c, n, lim, order);
	}
}

void
ts_bounds_report(struct ts_diags *d, const struct ts_batch *b, size_t i,
    int k, const uint64_t *lim, int base, bool block)
{
	uint64_t raw = b->coords[i * (size_t)b->order + (size_t)k] +
	    (uint64_t)base;

	if (raw < (uint64_t)base)
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, TS_RULE_S1,
		    "coordinate %llu of mode %d is below the index base %d",
		    (unsigned long long)raw, k + 1, base);
	else if (block)
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, TS_RULE_S1, "block "
		    "coordinate %llu is outside the %llu sections of mode %d",
		    (unsigned long long)raw, (unsigned long long)lim[k], k + 1);
	else if (base == 1)
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, TS_RULE_S1,
		    "coordinate %llu exceeds dimension %llu of mode %d",
		    (unsigned long long)raw, (unsigned long long)lim[k], k + 1);
	else
		ts_batch_diag(d, b, i, k, TS_SEV_ERROR, TS_RULE_S1,
		    "coordinate %llu exceeds %llu, the largest 0-based index "
		    "of mode %d (dimension %llu)", (unsigned long long)raw,
		    (unsigned long long)(lim[k] - 1), k + 1, (unsigned long
		    long)lim[k]);
}

