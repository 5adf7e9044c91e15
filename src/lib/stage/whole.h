/*
 * whole.h - entries kept whole, for what only the whole tensor can tell
 * (duplicates in unsorted input, symmetry, dense completeness); the
 * checks (check.c) and the inference of imports (infer.c) share it.
 * Internal to libtensorsuite.
 */
#ifndef TS_WHOLE_H
#define TS_WHOLE_H

#include "tensorsuite.h"

struct ts_whole {
	int		 order;
	uint64_t	*tup;		/* n * order, 0-based */
	double		*fv;		/* or NULL */
	int64_t		*iv;		/* or NULL */
	uint64_t	*loc;		/* where each came from, or NULL */
	size_t		 n, cap;
	bool		 keep_loc;
	/* for messages */
	const char	*file;
	bool		 loc_offset;
	int		 base;
};

void	 ts_whole_init(struct ts_whole *, int order, bool keep_loc);
void	 ts_whole_add(struct ts_whole *, const struct ts_batch *, size_t i);
void	 ts_whole_free(struct ts_whole *);
/*
 * The checks of the whole (S3 when the entries were not checked in
 * order, S7, S8, S9) against m, reported to d.  bad_bounds: some entry
 * was out of range and not kept, so completeness cannot be judged.
 */
void	 ts_whole_check(struct ts_whole *, const struct ts_meta *m,
	    bool s3, bool bad_bounds, struct ts_diags *);
/* What holds of the whole: repeats, the strongest symmetries. */
void	 ts_whole_infer(struct ts_whole *, const uint64_t *dims, bool *dups,
	    enum ts_sym *psym, enum ts_sym *nsym);

#endif
