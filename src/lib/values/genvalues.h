/*
 * genvalues.h - the value generator inside libtensorsuite (not
 * installed): its state, resolved from the options and the metadata by
 * genvalues.c, and shared with the stages that use it (the value stage,
 * the dense block writer).
 */
#ifndef TS_GENVALUES_H
#define TS_GENVALUES_H

#include "tensorsuite.h"

/* The name of the function, recorded in READMEs: a change to any value
 * it gives must change this name. */
#define TS_GEN_NAME	"tsgen1"

struct ts_genvalues {
	struct ts_genvalues_opts o;	/* as given */
	int		 order;
	uint64_t	 dims[TS_MAXORDER];
	enum ts_vtype	 vtype;
	enum ts_domain	 dom;
	bool		 zeros;		/* explicit zeros allowed */
	enum ts_sym	 nsym;
	enum ts_gen_dist dist;		/* resolved; unused when binary */
	bool		 binary;	/* 1, or 0 with P o.binary_zeros */
	bool		 isint;		/* int32 or int64 values */
	/* uniform: [lo, hi); normal: clipped to [lo, hi]; integer types
	 * and the integers distribution: [ilo, ihi] */
	double		 lo, hi, width, mean, std;
	int64_t		 ilo, ihi;
	uint64_t	 span;		/* integers: choices, 0 for 2^64 */
	bool		 skip0;		/* integers: 0 is not one of them */
	double		 fconst;	/* constant */
	int64_t		 iconst;
	double		 fnz;		/* the value after TRIES zeros */
	int64_t		 inz;
	uint64_t	 h0;		/* mix64(seed + GAMMA) */
	/* symmetric mode groups, 0-based modes ascending in each */
	int		 ngroups;
	int		 gsize[TS_MAXORDER];
	int		 gmode[TS_MAXORDER][TS_MAXORDER];
	bool		 pattern;	/* groups come from the pattern */
	bool		 check;		/* given groups, checked against
					 * the pattern ('partial') */
	bool		 found;		/* ... and were found */
	bool		 reduced;	/* the pattern was fully symmetric:
					 * one pair only */
};

/*
 * Set the symmetric mode groups: group[k] is 1..n for the modes of
 * group n, 0 for a mode in none (the stage that finds them from the
 * pattern calls it).
 */
void	 ts_gen_set_groups(struct ts_genvalues *, const int *group);
/* The values of entries [from, to) of b, which ts_genvalues_fill marks
 * as having them (threads fill parts of one batch). */
void	 ts_gen_fill_range(const struct ts_genvalues *, struct ts_batch *b,
	    size_t from, size_t to);
/* Are its values so quick to make (a few nanoseconds) that threads
 * would cost more than they save? */
bool	 ts_gen_cheap(const struct ts_genvalues *);
/* The value of one entry, 0-based coordinates c: into *f (float types)
 * or *i (integer types). */
void	 ts_gen_value(const struct ts_genvalues *, const uint64_t *c,
	    double *f, int64_t *i);

#endif
