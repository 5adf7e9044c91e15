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

/* The JSON members of what the record of an index (below) holds of s
 * but its columns: "dimensions_inferred", "index_base_inferred" and
 * the objects "values", "modes", "fibers" (--fibers) and "blocks",
 * each mode's --fit and the spreads of its fibers with them; without
 * braces, on one line (indent NULL), or one a line, each after the
 * first starting with indent. */
void	 fe_stats_json(FILE *, const struct fe_stats *s, const char *indent);

/*
 * The record of a tensor in a collection's index: the one set of
 * columns ts-stat --csv and --json and ts-pack --index write
 * (ts-stat(1) documents them): where it is, what its metadata says of
 * it, the verdict, its files' sizes and digests, its statistics.
 */
enum { FE_F_META, FE_F_README, FE_F_TEXT, FE_F_BINARY, FE_NF };
struct fe_record {
	const char	*path;		/* as given */
	const char	*name;
	const char	*archive;	/* the archive it went into; NULL */
	/* the metadata's words (fe_record_meta, malloc'd), NULL when it
	 * says none */
	char		*group, *id, *time, *source_type, *source_url;
	char		*value_type, *index_type, *sparsity_type;
	char		*psym, *nsym, *duplicates;
	/* its shape, for a tensor whose entries could not be read: order
	 * 0 when the metadata does not say it either */
	int		 order;
	uint64_t	 dims[TS_MAXORDER];
	uint64_t	 nnz;
	/* bytes of the metadata, the README and the data files (-1: no
	 * such file), of all the files an archive packs (-1: not known) */
	int64_t		 bytes[FE_NF], total;
	char		 sha256[FE_NF][65];	/* "": not known */
	const struct fe_stats *s;	/* NULL or not complete: not read */
	const struct fe_verdict *v;
};

/* A record with nothing known; fe_record_free frees what it holds. */
void	 fe_record_init(struct fe_record *);
void	 fe_record_free(struct fe_record *);
/* Fill in what the metadata m of a bundle says. */
void	 fe_record_meta(struct fe_record *, const struct ts_meta *m);
/* Fill in the sizes of bd's files (as an archive packs them), and with
 * digest their digests. */
void	 fe_record_files(struct fe_record *, struct ts_bundle *bd,
	    bool digest);

enum fe_form { FE_HEAD, FE_CSV, FE_JSON };
/* The record r as a CSV header line (r unused), a CSV row, or the
 * members of a JSON object (without braces, on one line) whose keys
 * are the header's columns; no newline. */
void	 fe_record_write(FILE *, const struct fe_record *r, enum fe_form);

/* A CSV cell of text, as ts_csv_cell (util/escape.h) writes it: quoted
 * when it must be (RFC 4180), UTF-8, no formula.  Numbers are written
 * as they are, never through it. */
void	 fe_csv_field(FILE *, const char *s);

/* A count of entries per slice of a distribution, as printed: "12",
 * "3.5"; buf of TS_NUMBUF bytes. */
const char *fe_num(char *buf, double v);

#endif
