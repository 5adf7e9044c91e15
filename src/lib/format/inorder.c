/*
 * inorder.c - S2 for the writers whose format holds entries unique and
 * in lexicographic order (binsparse in HDF5 and in NPZ, pydata/sparse's
 * .npz): the first entry of a batch that is not after the one before it.
 * The flow sorts what is not known to be sorted, so this is a promise
 * checked, on every entry: one pass without a branch an entry that only
 * says whether there is one, then the search for it.
 */
#include <stdbool.h>

#include "tensorsuite.h"
#include "format/format.h"

/* gcc leaves the loop over the modes a loop unless told (clang unrolls
 * it, and does worse when told). */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL_MODES	_Pragma("GCC unroll 4")
#else
#define UNROLL_MODES
#endif

/*
 * Is entry e after p in the order perm[0], perm[1], ...?  As numbers of
 * order digits in base 2^64, the most significant first: e is after p
 * when p - e borrows, the subtraction's carry chain from the last mode
 * up (a compare and a subtract with borrow a mode, no branch).  order
 * is a constant where it is inlined, and with ident (perm the identity)
 * the modes are read in place.
 */
static inline __attribute__((always_inline)) bool
after(const uint64_t *e, const uint64_t *p, const int *perm, bool ident,
    int order)
{
	uint64_t t;
	unsigned borrow = 0;
	int k, m;

	UNROLL_MODES
	for (k = order - 1; k >= 0; k--) {
		m = ident ? k : perm[k];
		borrow = (unsigned)__builtin_sub_overflow(p[m], e[m], &t) |
		    (unsigned)__builtin_sub_overflow(t, borrow, &t);
	}
	return borrow != 0;
}

static inline __attribute__((always_inline)) size_t
first_bad(const uint64_t *c, size_t n, const uint64_t *last,
    const int *perm, bool ident, int order)
{
	bool bad = false;
	size_t i;

	if (n > 0 && last != NULL && !after(c, last, perm, ident, order))
		return 0;
	for (i = 1; i < n; i++)
		bad |= !after(c + i * (size_t)order, c + (i - 1) *
		    (size_t)order, perm, ident, order);
	if (!bad)
		return n;
	for (i = 1; i < n; i++)
		if (!after(c + i * (size_t)order, c + (i - 1) * (size_t)order,
		    perm, ident, order))
			break;
	return i;
}

size_t
ts_coords_unordered(const uint64_t *c, size_t n, const uint64_t *last,
    const int *perm, int order)
{
	bool ident = true;
	int k;

	for (k = 0; k < order; k++)
		ident &= perm[k] == k;
	if (ident && order == 2)
		return first_bad(c, n, last, perm, true, 2);
	if (ident && order == 3)
		return first_bad(c, n, last, perm, true, 3);
	if (ident && order == 4)
		return first_bad(c, n, last, perm, true, 4);
	return first_bad(c, n, last, perm, false, order);
}
