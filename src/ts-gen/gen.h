/*
 * gen.h - what ts-gen's files share: the request (struct gen_opts, from
 * the command line or a configuration file), the models (one row each
 * in the table of model.c), the draws they make (draw.c), and the parts
 * that turn draws into a tensor: the decoder that makes them (produce.c),
 * exact nnz (exact.c) and the job's part (part.c).
 *
 * Every entry is drawn alone, from a state that is a pure function of
 * the key (the seed and the model's parameters) and the entry's index:
 * any entry can be made on any thread, in any order, and the tensor is
 * the same bytes whatever -j and the kind of output.
 */
#ifndef TS_GEN_H
#define TS_GEN_H

#include "fe.h"
#include "job/job.h"
#include "values/genvalues.h"
#include "values/rng.h"
#include "util/strbuf.h"

/* What --duplicates asks. */
enum gen_dups { GEN_ALLOW, GEN_UNIQUE, GEN_SUM };

/* Block partition sizes, as the reference's block generator draws them. */
enum gen_law { LAW_UNIFORM, LAW_RANDOM, LAW_MIXED, LAW_POWER };

/* A value given once for every mode, or mode by mode. */
struct gen_list {
	int		 n;		/* 0: not given; 1: every mode */
	double		 v[TS_MAXORDER];
};

/* The request. */
struct gen_opts {
	int		 model;		/* index into gen_models */
	const char	*src;		/* the tensor a model reads, or NULL */
	int		 src_base;	/* its base without metadata; -1 */
	int		 order;		/* 0 until known */
	uint64_t	 dims[TS_MAXORDER];
	bool		 has_nnz;
	uint64_t	 nnz;
	uint64_t	 seed;
	enum gen_dups	 dups;
	bool		 dups_given;
	bool		 sorted;
	int		 prio[TS_MAXORDER];	/* 0-based; nprio 0: 1..N */
	int		 nprio;
	bool		 symmetric;
	bool		 permute;
	/* random */
	struct gen_list	 low, high;
	/* zipf */
	struct gen_list	 alpha;
	/* kronecker and poisson-cp */
	int		 levels;	/* 0: the fewest that cover dims */
	int		 cp_rank;	/* 0: no CP seed */
	struct gen_list	 cp_alpha;
	uint64_t	 cp_dims[TS_MAXORDER];
	int		 ncp_dims;
	double		 cp_noise;
	bool		 cp_equal;	/* --cp-lambda none */
	/* a configuration's fastSKG: dims the seed's to the levels, and
	 * the seed's dims these (nexpect 0: any) */
	bool		 box_only;
	uint64_t	 expect[TS_MAXORDER];
	int		 nexpect;
	/* block */
	uint64_t	 parts[TS_MAXORDER];	/* partitions per mode */
	int		 nparts;
	uint64_t	 parts_lo, parts_hi;	/* per label: a range */
	uint64_t	 psize_lo, psize_hi;
	bool		 psize_pinned;
	enum gen_law	 law;
	double		 density;
	const char	*einsum;
	int		 counts[4];	/* free A, free B, contracted, batch */
	bool		 has_counts;
	uint64_t	 label_parts[26], label_psize[26];	/* 0: none */
	/* sbm */
	int		 operand;	/* of a pair: 0 A, 1 B */
	struct gen_list	 communities;
	double		 p_in, p_out;
	/* like */
	double		 scale;
	/* sorts and top-ups */
	size_t		 mem_limit;
	const char	*tmpdir;
};

/* Draws not bounded: how many more than nnz before giving up. */
#define GEN_MAX_DRAWS(n)	((n) * 64 + ((uint64_t)1 << 22))

/* ---- draw.c: tables and permutations the models draw from ---- */

/*
 * An alias table (Walker; Vose's construction) over n outcomes, n below
 * 2^32: one number drawn picks an outcome with the probability of its
 * weight, in constant time.  A cell is 8 bytes, so that a table of
 * 65536 outcomes stays in a core's cache: its outcome is kept when the
 * high 32 bits of the draw's low product (uniform within the cell) are
 * below thr, with 2^-32 of the cell's share as the step.
 */
struct alias_cell {
	uint32_t	 thr;		/* keep below this, else alt */
	uint32_t	 alt;
};
struct alias {
	uint64_t	 n;
	struct alias_cell *c;
};
/* From n weights w (>= 0, one of them > 0), n < 2^32. */
void	 alias_build(struct alias *, const double *w, uint64_t n);
void	 alias_free(struct alias *);

static inline uint64_t
alias_draw(const struct alias *a, uint64_t x)
{
	uint64_t lo, i = fe_rng_mulhi(x, a->n, &lo);
	const struct alias_cell *c = &a->c[i];
	/* Either outcome as likely as the cell's share: a select, not a
	 * branch. */
	uint64_t keep = (uint64_t)0 - (uint64_t)((uint32_t)(lo >> 32) < c->thr);

	return (i & keep) | ((uint64_t)c->alt & ~keep);
}

/*
 * A pseudo-random permutation of [0, n) (a Feistel network on a grid of
 * a rows of 2^half, walking the cycle until it is back below n):
 * perm_at(p, key, i) is where i goes; each key gives another
 * permutation.
 */
struct perm {
	uint64_t	 n;
	int		 half;		/* bits of a row */
	uint64_t	 mask, rows;
};
void	 perm_init(struct perm *, uint64_t n);
uint64_t perm_at(const struct perm *, uint64_t key, uint64_t i);

/* One pass of the network (perm_at walks until it is below n): four
 * rounds, each adding to one half a keyed hash of the other. */
#define PERM_ROUNDS	4
static inline uint64_t
perm_feistel(const struct perm *p, uint64_t key, uint64_t i)
{
	uint64_t x = i >> p->half, y = i & p->mask, lo;
	int r;

	for (r = 0; r < PERM_ROUNDS; r += 2) {
		x += fe_rng_mulhi(fe_rng_mum(y ^ key ^ ((uint64_t)r << 58),
		    FE_RNG_WYP0), p->rows, &lo);
		x = x >= p->rows ? x - p->rows : x;
		y = (y + fe_rng_mum(x ^ key ^ ((uint64_t)(r + 1) << 58),
		    FE_RNG_WYP0)) & p->mask;
	}
	return x << p->half | y;
}

/*
 * The truncated Zipf law on [0, n): k with weight (k + 1)^-alpha.  The
 * first ZIPF_HEAD outcomes by an alias table; the rest, when there are
 * more, by inversion of the continuous law and an exact rejection.
 */
#define ZIPF_HEAD	((uint64_t)1 << 16)
struct zipf {
	uint64_t	 n, head;
	double		 alpha;
	struct alias	 a;		/* head outcomes, then "the tail" */
	double		 tail_lo, tail_hi;	/* of the integral's inverse */
	double		 norm;		/* sum of every weight */
	double		 sq;		/* sum of the squared probabilities */
};
void	 zipf_init(struct zipf *, uint64_t n, double alpha);
uint64_t zipf_draw(const struct zipf *, uint64_t *s);
/* The same, x the stream's next number, drawn already. */
uint64_t zipf_pick(const struct zipf *, uint64_t x, uint64_t *s);
double	 zipf_prob(const struct zipf *, uint64_t k);
void	 zipf_free(struct zipf *);

/* ---- the models ---- */

struct gen;

/* What a model needs of the request. */
enum {
	NEED_DIMS = 1,		/* --dims */
	NEED_NNZ = 2,		/* --nnz */
	NEED_SRC = 4,		/* the operand */
	HAS_SRC = 8,		/* the operand, optionally */
	BLOCKS = 16		/* its entries are blocks */
};

struct gen_model {
	const char	*name;
	unsigned	 needs;
	/* Check the request and build the tables: 0, or -1 (reported). */
	int	(*setup)(struct gen *, struct ts_diags *);
	/* The key is made (of what setup found): what needs it, or NULL. */
	int	(*keyed)(struct gen *, struct ts_diags *);
	/* The 0-based coordinates of entries [first, first + n), order a
	 * row, into c (the draws of an entry from gen_state(g, i)). */
	void	(*fill)(const struct gen *, uint64_t first, size_t n,
		    uint64_t *c);
	/* The probability of the coordinates c as fill draws them (for the
	 * estimate of how many draws give nnz distinct ones), or NULL: none
	 * repeats. */
	double	(*prob)(const struct gen *, const uint64_t *c);
	/* Its parameters, as "; name value..." for 'source' and README;
	 * for the key (key true), without what does not change the draws
	 * (the name of a file read). */
	void	(*describe)(const struct gen *, struct ts_strbuf *, bool key);
	/* README lines on what the model is, malloc'd; may be NULL. */
	char	*(*notes)(const struct gen *);
	void	(*free)(struct gen *);
};

extern const struct gen_model *const gen_models[];	/* NULL-ended */
/* "uniform", ...: the names, in the table's order, for --model. */
const char *gen_model_name(int);

/* The request, the key and what the models built. */
struct gen {
	struct gen_opts	 o;
	const struct gen_model *m;
	uint64_t	 key;		/* of the draws */
	uint64_t	 draws;		/* entries the decoder makes */
	/* the permutation of each mode's coordinates (--permute) */
	struct perm	 pm[TS_MAXORDER];
	uint64_t	 pmkey[TS_MAXORDER];
	/* the model's own state */
	void		*st;
	/* a block tensor's partition lines (extents[k][parts[k]]) */
	uint64_t	 nparts[TS_MAXORDER];
	uint64_t	*extents[TS_MAXORDER];
	uint64_t	 nnz_elements;	/* of the blocks */
	int		 threads;	/* the setup's, as -j: 0 or 1 alone */
	/* what the run found */
	uint64_t	 made;		/* draws, when nnz distinct were
					 * asked for */
	uint64_t	 repeats;	/* of them, repeats of one before */
	uint64_t	 shortfall;	/* draws added past the estimate */
	const char	*name;		/* of a file beside the tensor */
};

/* The state entry i draws from. */
static inline uint64_t
gen_state(const struct gen *g, uint64_t i)
{
	return g->key ^ fe_rng_mix(i + FE_RNG_GAMMA);
}

/* --permute: coordinate v of mode k moved by the mode's permutation. */
static inline uint64_t
gen_permuted(const struct gen *g, int k, uint64_t v)
{
	return g->o.permute ? perm_at(&g->pm[k], g->pmkey[k], v) : v;
}

/* model.c */
int	 gen_setup(struct gen *, struct ts_diags *);
void	 gen_free(struct gen *);
/* The parameters (without nnz), "model uniform; dims 10,20; ...". */
char	*gen_describe(const struct gen *);
/* "; name v1,v2" of a list given, for a model's describe. */
void	 gen_describe_list(struct ts_strbuf *, const char *name,
	    const struct gen_list *, int order);
/* A value of a list for mode k. */
static inline double
gen_list_at(const struct gen_list *l, int k)
{
	return l->n == 1 ? l->v[0] : l->v[k];
}
/* Read the tensor at path (a bundle, an archive, a data file, read
 * base-based when it has no metadata and base is 0 or 1): header once,
 * then batch for each batch of its entries (0-based, within the
 * dimensions): 0, or -1 when it could not be read or either said -1
 * (reported to d). */
int	 gen_read(const char *path, int base, struct ts_diags *d,
	    int (*header)(void *, const struct ts_header *),
	    int (*batch)(void *, const struct ts_batch *), void *arg);
/* Draws enough for nnz distinct coordinates, by the model's prob on a
 * sample (nnz when no entry repeats). */
uint64_t gen_draws_for(const struct gen *, uint64_t nnz);
/* The coordinates of entries [first, first + n) with --permute and
 * --symmetric applied: what the decoder gives. */
void	 gen_fill(const struct gen *, uint64_t first, size_t n, uint64_t *c);

/* produce.c: a decoder that makes entries [0, n) of g (blocks: with
 * their header), on threads threads (>= 1), values 1 when ones; named
 * name. */
struct ts_decoder *gen_decoder(const struct gen *, uint64_t n, int threads,
	    const struct ts_layout *lay, bool ones, const char *name,
	    struct ts_diags *d);

/*
 * exact.c: the stage that makes nnz exact: the draws it is given (entries
 * 0, 1, ... of g, in order, with values 1 to sum when sum) are sorted in
 * the priority of so, and the first nnz distinct coordinates in draw
 * order are handed on, each once (with the count of its draws among
 * those that came before the nnz-th distinct one when sum).  When the
 * draws given hold fewer, it draws more itself.  Records in g->made and
 * g->repeats what it found.
 */
struct ts_stage *gen_exact_stage(struct gen *, const struct ts_sort_opts *so,
	    uint64_t nnz, int threads, const char *name, struct ts_diags *d);

/* block.c: "uniform", ... for --partition-law; the pair's operand op
 * set up (0 A, 1 B); is the model a pair? */
const char *gen_law_name(int);
int	 gen_block_operand(struct gen *, int op, struct ts_diags *d);
bool	 gen_block_pair(const struct gen *);

/* pcp.c: the planted weights (scaled to sum to events) and factors, as
 * a ktensor's text (malloc'd). */
char	*gen_pcp_factors(const struct gen *, uint64_t events);

/* symmetric.c: each canonical tuple (ascending coordinates) becomes its
 * distinct permutations, with its value, sorted by so (its count into
 * res, which must outlive the stage). */
struct ts_stage *gen_orbit_stage(const struct ts_sort_opts *so,
	    struct ts_sort_result *res, struct ts_diags *d);

#endif
