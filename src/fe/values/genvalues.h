/*
 * genvalues.h - the value generator inside libtensorsuite (not
 * installed; ts-gen-values and ts-gen are its users): its options, its
 * functions and stages, and its state, resolved from the options and the
 * metadata by genvalues.c, and shared with the stages that use it (the
 * value stage, the dense block writer).
 */
#ifndef FE_GENVALUES_H
#define FE_GENVALUES_H

#include "tensorsuite.h"

/* ================================================================
 * Generated values (SPEC section 9): a value for every entry, a pure
 * function of a seed, the entry's 0-based coordinates and the options,
 * inside every constraint the metadata states.  ts-gen-values(1) gives
 * the function exactly.
 * ================================================================ */

enum fe_gen_dist { FE_GEN_DIST_DEFAULT, FE_GEN_DIST_UNIFORM, FE_GEN_DIST_NORMAL,
	FE_GEN_DIST_CONSTANT, FE_GEN_DIST_INTEGERS };

struct fe_genvalues_opts {
	uint64_t	 seed;
	enum fe_gen_dist dist;		/* DEFAULT: what fits the metadata */
	/* --range LO:HI; the int64 forms when both are integers */
	bool		 has_range, range_int;
	double		 lo, hi;
	int64_t		 ilo, ihi;
	bool		 has_mean, has_std;
	double		 mean, std;	/* normal */
	bool		 has_value, value_int;
	double		 value;		/* constant */
	int64_t		 ivalue;
	double		 binary_zeros;	/* binary domain: P of a 0 */
	/* Symmetric mode groups: group[k] is 1.. for the modes of one
	 * group, 0 for a mode in none; ngroups 0: not given. */
	int		 group[TS_MAXORDER];
	int		 ngroups;
	/* The metadata's value_domain and explicit_zeros (-1), or an
	 * enum ts_domain and 0 (disallowed) or 1 (allowed) instead. */
	int		 domain, zeros;
	bool		 replace;	/* values in the input are replaced */
};
void	 fe_genvalues_opts_init(struct fe_genvalues_opts *);
/* "default", "uniform", "normal", "constant", "integers"; NULL for
 * none of them. */
const char *fe_gen_dist_name(enum fe_gen_dist);

struct ts_genvalues;
/*
 * A generator for the tensor m describes (order, dimensions,
 * value_type, value_domain, explicit_zeros, numerical_symmetry): the
 * options are checked against it, and every conflict is reported to d
 * (a usage error, status 2); NULL then.  Free with fe_genvalues_free.
 */
struct ts_genvalues *fe_genvalues_new(const struct fe_genvalues_opts *,
	    const struct ts_meta *m, struct ts_diags *d);
void	 fe_genvalues_free(struct ts_genvalues *);
/* Does it find its symmetric modes from the pattern (a first pass over
 * the whole tensor: numerical_symmetry partial, no groups given)? */
bool	 fe_genvalues_from_pattern(const struct ts_genvalues *);
/* The numerical symmetry the values hold (S8), for the metadata of what
 * is written: what the metadata claimed, or, when --symmetric-modes made
 * values symmetric that it did not claim, what the pattern and the
 * values show once the stage has run (never more than the pattern's). */
enum ts_sym fe_genvalues_nsym(const struct ts_genvalues *);
/* Give every entry of b its value (fval or ival, by the value type). */
void	 fe_genvalues_fill(const struct ts_genvalues *, struct ts_batch *b);
/* How the values are made, as Markdown lines for a README, malloc'd. */
char	*fe_genvalues_describe(const struct ts_genvalues *);

/*
 * The generator as a stage (TS_STAGE_VALUES): each batch gets its
 * values, computed by threads threads (>= 1; the values do not depend
 * on it).  When the symmetric modes come from the pattern, the stage
 * holds every entry until the input ends, finds them, and completes g;
 * g is borrowed and must outlive the stage.  Errors about file.
 */
struct ts_stage *fe_stage_genvalues(struct ts_genvalues *g, int threads,
	    const char *file, struct ts_diags *d);
/*
 * A block tensor's non-zero blocks (h: its block header) become their
 * elements: every element of every block, in element coordinates.  With
 * sorted, the blocks must come in lexicographic order of prio (0-based
 * modes, most significant first; S2 otherwise), and the elements are
 * handed on in that order; else block by block in input order, each
 * with its first mode fastest.  The stage holds the blocks until the
 * input ends; the count of elements must equal expect (K3), and nnz
 * (may be NULL; it must outlive the stage) gets it.
 */
struct ts_stage *fe_stage_expand(const struct ts_header *h, const int *prio,
	    bool sorted, uint64_t expect, uint64_t *nnz, const char *file,
	    struct ts_diags *d);
/*
 * The values of every element of each block that passes, written to k
 * in the value type of g, little-endian: blocks in input order, each
 * dense with its first mode fastest (cuTENSOR's default layout).  The
 * blocks pass on unchanged.  g, h and k are borrowed.
 */
struct ts_stage *fe_stage_blocks_out(const struct ts_genvalues *g,
	    const struct ts_header *h, struct ts_sink *k, struct ts_diags *d);

/* ---- the generator's state, for the stages that use it ---- */

/* The name of the function, recorded in READMEs: a change to any value
 * it gives must change this name. */
#define TS_GEN_NAME	"tsgen1"

struct ts_genvalues {
	struct fe_genvalues_opts o;	/* as given */
	int		 order;
	uint64_t	 dims[TS_MAXORDER];
	enum ts_vtype	 vtype;
	const struct ts_vtype_info *vt;	/* its row */
	enum ts_domain	 dom;
	bool		 zeros;		/* explicit zeros allowed */
	enum ts_sym	 nsym;
	enum fe_gen_dist dist;		/* resolved; unused when binary */
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
	/* given groups with no symmetry claimed: the pattern is held to
	 * tell what the values hold (result), at most psym */
	bool		 measure;
	enum ts_sym	 psym, result;
};

/*
 * Set the symmetric mode groups: group[k] is 1..n for the modes of
 * group n, 0 for a mode in none (the stage that finds them from the
 * pattern calls it).
 */
void	 fe_gen_set_groups(struct ts_genvalues *, const int *group);
/* The values of entries [from, to) of b, which fe_genvalues_fill marks
 * as having them (threads fill parts of one batch). */
void	 fe_gen_fill_range(const struct ts_genvalues *, struct ts_batch *b,
	    size_t from, size_t to);
/* Are its values so quick to make (a few nanoseconds) that threads
 * would cost more than they save? */
bool	 fe_gen_cheap(const struct ts_genvalues *);
/* The value of one entry, 0-based coordinates c: into *f (float types)
 * or *i (integer types). */
void	 fe_gen_value(const struct ts_genvalues *, const uint64_t *c,
	    double *f, int64_t *i);

#endif
