/*
 * whole.h - entries kept whole, for what only the whole tensor can tell
 * an import (repeats, symmetry): infer.c keeps them here.  Internal to
 * libtensorsuite.
 */
#ifndef TS_WHOLE_H
#define TS_WHOLE_H

#include "tensorsuite.h"

struct ts_whole {
	int		 order;
	uint64_t	*tup;		/* n * order, 0-based */
	double		*fv;		/* or NULL */
	int64_t		*iv;		/* or NULL */
	size_t		 n, cap;
};

void	 ts_whole_init(struct ts_whole *, int order);
void	 ts_whole_add(struct ts_whole *, const struct ts_batch *, size_t i);
void	 ts_whole_free(struct ts_whole *);
/* What holds of the whole: repeats, the strongest symmetries. */
void	 ts_whole_infer(struct ts_whole *, const uint64_t *dims, bool *dups,
	    enum ts_sym *psym, enum ts_sym *nsym);

/* Order 2, once ts_whole_infer has run: does every entry's mirror hold
 * its value negated (every mirror is there)? */
bool	 ts_whole_skew(struct ts_whole *);

#endif
