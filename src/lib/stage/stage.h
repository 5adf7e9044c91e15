/*
 * stage.h - what the stages share inside libtensorsuite (not
 * installed): the bounds stage of block tensors.  Messages located at
 * an entry of a batch and the S1 scan and message (format.h) come
 * along, as every stage uses them.
 */
#ifndef TS_STAGE_H
#define TS_STAGE_H

#include "tensorsuite.h"
#include "format/format.h"

/*
 * The bounds stage of a block tensor (S1 in the block grid of h), which
 * also counts the elements of the blocks: more than nnz stops the flow
 * at the block that makes them so, fewer at the end (K3).  h and file
 * must outlive the stage.
 */
struct ts_stage *ts_stage_block_bounds(const struct ts_header *h, int base,
	    uint64_t nnz, const char *file, struct ts_diags *);

#endif
