/*
 * pack.h - what the two files of ts-pack share: the options, the
 * bundles being packed, and the index written beside their archives
 * (index.c).
 */
#ifndef TS_PACK_H
#define TS_PACK_H

#include <stdbool.h>
#include <stdint.h>

#include "tensorsuite.h"

/* How the bundles are checked: not at all, their metadata and headers,
 * also every entry as it streams by (by default), everything. */
enum { V_NONE = -1, V_QUICK, V_STREAM, V_DEEP };

struct opts {
	const char	*out, *each, *extract, *list, *dir, *index;
	int		 validate;	/* V_* */
	bool		 force, quiet, json, check;
	bool		 sums_only;	/* --sums-only: the manifest alone */
	int		 level, jobs;
	uint64_t	 max_size, max_members;
	size_t		 nitems;
};

/* A bundle to pack. */
struct item {
	const char		*path;		/* as given */
	struct ts_bundle	*bd;
	const char		*archive;	/* where it went */
	const char		*sums;		/* its manifest (SHA256SUMS) */
	bool			 refused;	/* by the checks as it went in */
};

/*
 * Write the index of the n bundles packed to k (named path, which says
 * JSON or, ending in .csv, CSV) and commit it: one record per bundle,
 * in the archive's order, with its descriptive metadata, its shape and
 * the size and SHA-256 of each of its files (those of the manifest of
 * the archive it went into).  k is taken.  0, or -1 (reported).
 */
int	 write_index(struct ts_sink *k, const char *path,
	    const struct item *v, size_t n, struct ts_diags *d);

#endif
