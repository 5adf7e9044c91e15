/*
 * stage.h - what the stages share inside libtensorsuite (not
 * installed): messages located at an entry of a batch, and the S1
 * message, which the bounds stage and the checks give alike.
 */
#ifndef TS_STAGE_H
#define TS_STAGE_H

#include "tensorsuite.h"

/*
 * Report a problem with field k (the coordinates, then the value) of
 * entry i of b: at its line and column, or at its byte offset.  When
 * the cap would hide it, it is only counted, unformatted.
 */
void	 ts_batch_diag(struct ts_diags *, const struct ts_batch *, size_t i,
	    int k, enum ts_sev, const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 7, 8)));

/* S1: coordinate k of entry i is not below lim[k]; say why. */
void	 ts_bounds_report(struct ts_diags *, const struct ts_batch *,
	    size_t i, int k, const uint64_t *lim, int base, bool block);

/*
 * The bounds stage of a block tensor (S1 in the block grid of h), which
 * also counts the elements of the blocks: more than nnz stops the flow
 * at the block that makes them so, fewer at the end (K3).  h and file
 * must outlive the stage.
 */
struct ts_stage *ts_stage_block_bounds(const struct ts_header *h, int base,
	    uint64_t nnz, const char *file, struct ts_diags *);

/* A coordinate tuple as text "(3, 1, 4)", in index base base; long
 * ones end in ", ...)".  Returns buf. */
char	*ts_tuple_str(char *buf, size_t n, const uint64_t *t, int order,
	    int base);

#endif
