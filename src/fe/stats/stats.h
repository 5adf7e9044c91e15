/*
 * stats.h - what a tensor looks like, found in the pass that checks it:
 * its shape and density, the slices of each mode, its values, whether
 * it is sorted in some mode order and how many entries repeat, its
 * fibers (through the external sorter), a block tensor's grid, and the
 * binned counts its pictures are drawn from.  ts-stat and ts-pack
 * --index use it (not installed).
 *
 * The statistics are a consumer stage (fe_stats_stage), made for the
 * data file whose entries the checks read: fe_stats_watch() fills the
 * struct ts_check_watch that makes ts_check_bundle() and ts_check_file()
 * add it to their flow, so that a tensor is read once, checked and
 * counted.  Memory is bounded whatever the dimensions say: a mode's
 * slices are counted in an array of its dimension only up to
 * FE_STATS_SLICES_MAX slices; past it, in bins (the count of non-empty
 * slices is then a HyperLogLog estimate, and the distribution of the
 * slices' counts is not known) unless exact asks for a sort.  Nothing
 * is allocated from a declared size before it is checked.
 */
#ifndef FE_STATS_H
#define FE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorsuite.h"

#define FE_STATS_SLICES_MAX	((uint64_t)1 << 26)	/* counted a mode */
#define FE_STATS_PLOT_MAX	2048	/* --size: pixels a side */
#define FE_STATS_PAIRS_ORDER	8	/* every pair of modes up to it */
#define FE_STATS_HIST		65	/* buckets of a histogram */

struct fe_stats_opts {
	bool		 fibers;	/* per mode, through the sorter */
	bool		 exact;		/* modes past the bound, and the
					 * repeats, through the sorter */
	size_t		 mem_limit;	/* for the sorts (0: 256 MiB) */
	const char	*tmpdir;	/* where their runs spill */
	int		 threads;	/* of the sorts (0: 2) */
	int		 plot;		/* pixels a side of the pictures'
					 * grids; 0: none kept */
	bool		 fit;		/* the slices' power laws */
};

/*
 * A distribution of counts: of the entries of each non-empty slice (or
 * fiber, or of each block's elements).  The median of an even number of
 * members is the mean of the middle two; std is the population standard
 * deviation.  hist[j] members have a count in [2^j, 2^(j+1)).
 */
struct ts_dist {
	bool		 known;		/* false: only n is (an estimate) */
	uint64_t	 n;		/* members */
	uint64_t	 sum;		/* of their counts */
	uint64_t	 min, max;
	double		 median, mean, std;
	uint64_t	 hist[FE_STATS_HIST];
};

/* The power law that fits a distribution's tail (ts-stat --fit):
 * P(x) = x^-alpha / zeta(alpha, xmin) for x >= xmin, found by the
 * method of Clauset, Shalizi and Newman; its Kolmogorov-Smirnov distance
 * to the n members at or above xmin.  known false: too few distinct
 * counts to fit. */
struct ts_fit {
	bool		 known;
	double		 alpha;
	uint64_t	 xmin;
	double		 ks;
	uint64_t	 n;
};

/* A distribution's spread: its coefficient of variation (std / mean)
 * and imbalance (max / mean); and over every member, the empty ones
 * too (members of them in all). */
struct ts_spread {
	bool		 known;
	double		 members;
	double		 cv, imbalance;
	double		 all_min, all_mean, all_std, all_cv, all_imbalance;
};

struct ts_mode_stats {
	uint64_t	 dim;		/* grid sections, for blocks */
	uint64_t	 nonempty;	/* slices with an entry */
	bool		 estimated;	/* nonempty by HyperLogLog */
	bool		 exact_sorted;	/* counted through the sorter */
	struct ts_dist	 slices;	/* entries per non-empty slice */
	bool		 used;		/* lo, hi hold */
	uint64_t	 lo, hi;	/* coordinates used, in the file's
					 * index base */
	struct ts_dist	 fibers;	/* entries per non-empty fiber
					 * (the other modes fixed) */
	struct ts_fit	 fit;		/* of slices (--fit) */
	/* the non-empty mode-k fibers in each non-empty slice of mode
	 * fps_mode (the first mode but k) */
	struct ts_dist	 fps;
	int		 fps_mode;
};

struct ts_value_stats {
	bool		 present, is_int;
	uint64_t	 n;
	double		 min, max, mean;	/* float: NaN left out */
	int64_t		 imin, imax;
	uint64_t	 zeros, negatives, nans, infs;
	uint64_t	 distinct;
	bool		 distinct_exact;	/* else a HyperLogLog estimate */
};

struct ts_block_stats {
	uint64_t	 elements;	/* the non-zero blocks hold (K3) */
	bool		 elements_ovf;	/* more than 2^64 - 1 */
	struct ts_dist	 sizes;		/* elements per non-zero block */
	char		*fill;		/* blocks / grid positions */
	char		*grid_positions;
};

/* The binned counts of a picture: rows of mode a going down, columns
 * of mode b; each cell counts the entries (blocks: the non-zero blocks
 * over it) of its bin. */
struct fe_stats_grid {
	int		 a, b;		/* 0-based modes */
	uint32_t	 rows, cols;
	uint64_t	 per_row, per_col;	/* coordinates a bin covers at
						 * most */
	uint64_t	*cell;		/* rows * cols */
};

struct fe_stats {
	bool		 seen;		/* a data file's entries were read */
	bool		 complete;	/* ... to the end */
	int		 sort_errno;	/* a sort failed: why; else 0 */
	const char	*file;		/* which (borrowed from the check) */
	int		 order;
	bool		 block;
	bool		 has_values;
	int		 base;		/* the index base of the file */
	bool		 base_inferred;	/* no metadata or header said it */
	bool		 dims_inferred;	/* from the coordinates (FROSTT) */
	uint64_t	 dims[TS_MAXORDER];
	uint64_t	 nnz;		/* entries read (blocks for blocks) */
	uint64_t	 elements;	/* element nnz (= nnz, or K3's) */
	char		*positions;	/* product of dims, decimal */
	char		*density;	/* elements / positions */
	uint64_t	 out_of_range;	/* entries left out of the counts */
	struct ts_mode_stats mode[TS_MAXORDER];
	struct ts_value_stats values;
	struct ts_block_stats blocks;
	/* sort[] holds a mode order (0-based, most significant first) in
	 * which the entries are non-decreasing, when sorted is 1; 0: in
	 * none; -1: not found out */
	int		 sorted;
	int		 sort[TS_MAXORDER];
	bool		 repeats_known;
	uint64_t	 repeats;	/* entries that repeat one before */
	bool		 fibers;	/* mode[].fibers hold */
	struct fe_stats_grid *grid;	/* pictures' (plot > 0) */
	int		 ngrid;
	void		*st;		/* the pass's; library's */
	struct fe_stats_opts o;
};

void	 fe_stats_init(struct fe_stats *, const struct fe_stats_opts *);
/* Free what it points to, not the struct. */
void	 fe_stats_free(struct fe_stats *);
/*
 * The stage that counts the entries of dec into s (m the metadata, NULL
 * for a lone file), s borrowed: its results are complete once the flow
 * has finished and fe_stats_end() has been called.  NULL, and s left
 * unread, when a stage was made for s already (a second data file).
 */
struct ts_stage *fe_stats_stage(struct fe_stats *s, const struct ts_meta *m,
	    struct ts_decoder *dec);
/* The watch that gives the checks that stage and the checks' count of
 * repeats, for s. */
void	 fe_stats_watch(struct fe_stats *s, struct ts_check_watch *w);
/* After the checks: what only the whole tells (the repeats, the order
 * found, the density); reports a failed sort to d. */
void	 fe_stats_end(struct fe_stats *s, struct ts_diags *d);

/*
 * Statistics of a bundle: checked as ts_check_bundle() checks it (co,
 * whose watch is replaced), its entries counted into s, which must be
 * fresh from fe_stats_init().  The checks' messages go to d.
 */
void	 fe_stats_bundle(struct ts_bundle *bd, const struct ts_check_opts *co,
	    struct fe_stats *s, struct ts_diags *d);

/* ---- the parts, shared with the tests ---- */

/* The spread of d over members in all (fit.c). */
void	 fe_stats_spread(const struct ts_dist *d, double members,
	    struct ts_spread *);
/* The mode-k fibers in all, empty ones too: the product of the other
 * modes' dimensions (sections, for blocks), as a double. */
double	 fe_stats_fibers_all(const struct fe_stats *, int k);

/* n / p (p the product of the dims, order of them): the double nearest
 * to the exact fraction (ties to even), whatever the size of p; 0 when
 * n or p is. */
double	 fe_stats_ratio_double(uint64_t n, const uint64_t *dims, int order);
/* That double as the shortest decimal that reads back to it
 * (ts_fmt_double): "0.25", "3.614007241618348e-20"; malloc'd. */
char	*fe_stats_ratio(uint64_t n, const uint64_t *dims, int order);
/* The product of dims as an exact decimal, malloc'd. */
char	*fe_stats_product(const uint64_t *dims, int order);

#endif
