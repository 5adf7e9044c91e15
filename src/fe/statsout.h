/*
 * statsout.h - a tensor's statistics as JSON members and CSV columns,
 * the same for ts-stat --json/--csv and for the index ts-pack --index
 * writes (not installed).  ts-stat(1) documents every key and column.
 */
#ifndef TS_FE_STATSOUT_H
#define TS_FE_STATSOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "tensorsuite.h"
#include "stats/stats.h"

/* What the checks said of a tensor whose statistics are printed. */
struct fe_verdict {
	bool		 valid;
	size_t		 errors, warnings;
	char		 rules[256];	/* the rules broken, "S1 S3" */
};

/* The verdict of d: its errors, and the rule ids of those, each once. */
void	 fe_verdict_of(const struct ts_diags *d, struct fe_verdict *v);

/* The JSON members of s, without braces: "valid": true, "order": 3,
 * ...; on one line (indent NULL), or one a line, each after the first
 * starting with indent. */
void	 fe_stats_json(FILE *, const struct fe_stats *s,
	    const struct fe_verdict *, const char *indent);

/* The CSV columns (header names, then one row's cells), each preceded
 * by a comma; without shape, not order, dimensions, nnz and density
 * (which an index has of its own). */
void	 fe_stats_csv_head(FILE *, bool shape);
void	 fe_stats_csv_row(FILE *, const struct fe_stats *s,
	    const struct fe_verdict *, bool shape);
/* The cells of a tensor that could not be read: not valid, the rules
 * it breaks, nothing else. */
void	 fe_stats_csv_empty(FILE *, const struct fe_verdict *, bool shape);
/* A CSV cell of text, as ts_csv_cell (util/escape.h) writes it: quoted
 * when it must be (RFC 4180), UTF-8, no formula.  Numbers are written
 * as they are, never through it. */
void	 fe_csv_field(FILE *, const char *s);

/* A count of entries per slice of a distribution, as printed: "12",
 * "3.5"; buf of TS_NUMBUF bytes. */
const char *fe_num(char *buf, double v);

#endif
