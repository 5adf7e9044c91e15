/*
 * diag_int.h - what the library's own parts do with a collector of
 * diagnostics beyond the public interface (internal).
 */
#ifndef TS_DIAG_INT_H
#define TS_DIAG_INT_H

#include "tensorsuite.h"

/*
 * Record in d what src holds, as if it had been said to d: the kept
 * messages (their line numbers moved by line_offset, for a part of a
 * file parsed on its own), the counts of those src's cap kept back, the
 * worst status.  d's cap applies to what comes in.
 */
void	 ts_diags_absorb(struct ts_diags *d, const struct ts_diags *src,
	    uint64_t line_offset);

/* A new collector with d's cap and strictness. */
struct ts_diags *ts_diags_like(const struct ts_diags *d);

#endif
