/*
 * ordered.h - the checks of validation that need the entries in some
 * order, by external sorts in bounded memory (ordered.c).  Internal to
 * libtensorsuite.
 */
#ifndef TS_ORDERED_H
#define TS_ORDERED_H

#include "tensorsuite.h"

struct ts_ordered_opts {
	const char	*file;		/* the entries' file, for messages */
	bool		 loc_offset;	/* binary: places are byte offsets */
	bool		 s3;		/* report repeats (S3) */
	size_t		 mem_limit;	/* for all the sorts; 0: 256 MiB */
	const char	*tmpdir;	/* where runs spill; NULL: $TMPDIR */
	int		 threads;
	uint64_t	 expect;	/* entries expected, a hint */
};

struct ts_ordered;
/* The sorts m's claims need (none may be needed). */
struct ts_ordered *ts_ordered_new(const struct ts_meta *m,
	    const struct ts_ordered_opts *, struct ts_diags *);
/* Entries of b where keep[i] (keep NULL: all); -1 on a failure
 * (reported). */
int	 ts_ordered_add(struct ts_ordered *, const struct ts_batch *,
	    const bool *keep);
/* Sort, read back, report.  bad_bounds: some entry was out of range
 * and not added, so completeness cannot be judged. */
int	 ts_ordered_finish(struct ts_ordered *, bool bad_bounds);
/* After a finish: how many entries repeat one before them, when a sort
 * ordered every coordinate; else UINT64_MAX (none did, or it failed). */
uint64_t ts_ordered_repeats(const struct ts_ordered *);
void	 ts_ordered_free(struct ts_ordered *);

#endif
