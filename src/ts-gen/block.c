/*
 * block.c - the block model: a block-sparse tensor (sparsity_type block)
 * as the reference's block-sparse/generate_blocksparse.py makes them.
 * Each mode is cut into partitions whose sizes follow a law (uniform,
 * random, mixed, power_law); a share of the block grid, the density,
 * holds non-zero blocks, exactly ceil(density x grid) of them, distinct
 * (the first of a keyed permutation of the grid), sorted.
 *
 * With --einsum "ade,afg->defg" (or the label counts of the reference's
 * count-driven mode, --counts), the model is the operand pair A and B of
 * a contraction: a label's partitions are the same wherever it appears,
 * so that every pair of blocks can be contracted; ts-gen writes A, then
 * B (main.c), the model set up once for both.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "values/divide.h"
#include "util/xalloc.h"

/* The most blocks a grid may have, and a mode its partitions. */
#define GRID_MAX	((uint64_t)INT64_MAX)
#define PARTS_MAX	((uint64_t)1 << 24)

static const char *const laws[] = { "uniform", "random", "mixed",
    "power_law", NULL };

const char *
gen_law_name(int i)
{
	return i >= 0 && i <= LAW_POWER ? laws[i] : NULL;
}

/* A label's partitions: how many, and their sizes. */
struct label {
	uint64_t	 n;
	uint64_t	*size;
};

struct block {
	/* the labels of the operands (or of the modes: 'a' + mode) */
	char		 lab[2][TS_MAXORDER + 1];	/* A, B */
	char		 out[TS_MAXORDER + 1];
	int		 nop;		/* operands: 1, or 2 for a pair */
	struct label	 l[26];
	/* the operand being made */
	uint64_t	 grid;		/* blocks in its grid */
	uint64_t	 nnzb;		/* non-zero blocks */
	struct perm	 pm;
	struct fe_divisor part[TS_MAXORDER];	/* by each mode's count */
};

/* An integer of [lo, hi], each as likely. */
static uint64_t
uniform_int(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return lo + fe_rng_below(s, hi - lo + 1);
}

/*
 * n partition sizes of [lo, hi] by the law, as the reference draws them:
 * uniform, one size for all; random, each its own; mixed, alternately
 * from the lowest third of the range and the highest; power_law,
 * lo + round(span u^3), the small ones most likely (round half even,
 * as Python rounds).
 */
static void
draw_sizes(uint64_t *out, uint64_t n, uint64_t lo, uint64_t hi,
    enum gen_law law, uint64_t *s)
{
	uint64_t i, span = hi - lo, third = span / 3 > 1 ? span / 3 : 1;
	uint64_t lo_hi = lo + third < hi ? lo + third : hi;
	uint64_t hi_lo = hi - third > lo && hi > third ? hi - third : lo;
	double u;

	if (law == LAW_UNIFORM) {
		uint64_t v = uniform_int(s, lo, hi);

		for (i = 0; i < n; i++)
			out[i] = v;
		return;
	}
	for (i = 0; i < n; i++)
		switch (law) {
		case LAW_MIXED:
			out[i] = i % 2 == 0 ? uniform_int(s, lo, lo_hi) :
			    uniform_int(s, hi_lo, hi);
			break;
		case LAW_POWER:
			u = fe_rng_unit(s);
			out[i] = lo + (uint64_t)nearbyint((double)span * (u * u *
			    u));
			break;
		default:
			out[i] = uniform_int(s, lo, hi);
			break;
		}
}

/* ---- the labels ---- */

static int
parse_einsum(struct block *b, const char *spec, struct ts_diags *d)
{
	const char *arrow = strstr(spec, "->"), *comma, *p;
	char *dst;
	int which, n;
	bool inA[26] = { false }, inB[26] = { false }, inO[26] = { false };

	comma = strchr(spec, ',');
	if (arrow == NULL || comma == NULL || comma > arrow ||
	    strchr(comma + 1, ',') != NULL) {
		ts_diag_usage(d, "--einsum: '%s' is not 'A,B->O' (two operands "
		    "and an output, each a string of labels a to z)", spec);
		return -1;
	}
	for (p = spec, which = 0; which < 3; which++) {
		bool *in = which == 0 ? inA : which == 1 ? inB : inO;
		const char *end = which == 0 ? comma : which == 1 ? arrow :
		    spec + strlen(spec);

		dst = which < 2 ? b->lab[which] : b->out;
		for (n = 0; p < end; p++) {
			if (*p == ' ')
				continue;
			if (*p < 'a' || *p > 'z' || n == TS_MAXORDER) {
				ts_diag_usage(d, "--einsum: '%s': labels are "
				    "the letters a to z, %d an operand at most",
				    spec, TS_MAXORDER);
				return -1;
			}
			if (in[*p - 'a']) {
				ts_diag_usage(d, "--einsum: '%s': label '%c' "
				    "repeats within an operand", spec, *p);
				return -1;
			}
			in[*p - 'a'] = true;
			dst[n++] = *p;
		}
		dst[n] = '\0';
		p = which == 0 ? comma + 1 : arrow + 2;
		if (n == 0 && which < 2) {
			ts_diag_usage(d, "--einsum: '%s': an operand without "
			    "labels", spec);
			return -1;
		}
	}
	for (n = 0; n < 26; n++) {
		if (inO[n] && !inA[n] && !inB[n]) {
			ts_diag_usage(d, "--einsum: '%s': output label '%c' is "
			    "in neither operand", spec, 'a' + n);
			return -1;
		}
		if (inA[n] != inB[n] && !inO[n]) {
			ts_diag_usage(d, "--einsum: '%s': label '%c' is in one "
			    "operand only and not in the output (a label is "
			    "batch, contracted or free)", spec, 'a' + n);
			return -1;
		}
	}
	b->nop = 2;
	return 0;
}

/*
 * The reference's count-driven mode: labels from a on, batch, then
 * free A, free B and contracted; A batch + free A + contracted, B
 * batch + contracted + free B, each in an order of its own (a keyed
 * shuffle); the output batch + free A + free B.
 */
static int
count_labels(struct block *b, const struct gen_opts *o, struct ts_diags *d)
{
	int fa = o->counts[0], fb = o->counts[1], c = o->counts[2];
	int bt = o->counts[3], i, j, n;
	char *A = b->lab[0], *B = b->lab[1], t;
	uint64_t s;

	if (fa + fb + c + bt > 26 || bt + fa + c > TS_MAXORDER ||
	    bt + fb + c > TS_MAXORDER) {
		ts_diag_usage(d, "--counts: 26 labels at most, %d an operand",
		    TS_MAXORDER);
		return -1;
	}
	for (n = 0, i = 0; i < bt; i++)
		A[n++] = (char)('a' + i);
	for (i = 0; i < fa; i++)
		A[n++] = (char)('a' + bt + i);
	for (i = 0; i < c; i++)
		A[n++] = (char)('a' + bt + fa + fb + i);
	A[n] = '\0';
	for (n = 0, i = 0; i < bt; i++)
		B[n++] = (char)('a' + i);
	for (i = 0; i < c; i++)
		B[n++] = (char)('a' + bt + fa + fb + i);
	for (i = 0; i < fb; i++)
		B[n++] = (char)('a' + bt + fa + i);
	B[n] = '\0';
	for (n = 0, i = 0; i < bt + fa + fb; i++)
		b->out[n++] = (char)('a' + i);
	b->out[n] = '\0';
	s = fe_rng_mix(o->seed ^ 0x7368756666ULL);	/* "shuff" */
	for (j = 0; j < 2; j++) {
		char *L = b->lab[j];

		for (i = (int)strlen(L); i > 1; i--) {
			int r = (int)fe_rng_below(&s, (uint64_t)i);

			t = L[i - 1];
			L[i - 1] = L[r];
			L[r] = t;
		}
	}
	b->nop = 2;
	return 0;
}

/* Each label's partitions: pinned, or drawn (keyed on the seed and the
 * label, whatever the order of the labels). */
static int
draw_labels(struct block *b, const struct gen_opts *o, struct ts_diags *d)
{
	int op, k, x;
	uint64_t s;

	for (op = 0; op < b->nop; op++)
		for (k = 0; b->lab[op][k] != '\0'; k++) {
			struct label *l;

			x = b->lab[op][k] - 'a';
			l = &b->l[x];
			if (l->size != NULL)
				continue;
			s = fe_rng_mix(o->seed ^ fe_rng_mix(0x6c6162656cULL +
			    (uint64_t)x));
			l->n = o->label_parts[x] != 0 ? o->label_parts[x] :
			    o->nparts == 1 ? o->parts[0] :
			    o->nparts > 0 ? o->parts[k] :
			    uniform_int(&s, o->parts_lo, o->parts_hi);
			if (l->n > PARTS_MAX) {
				ts_diag_usage(d, "--partitions: %llu at most a "
				    "mode", (unsigned long long)PARTS_MAX);
				return -1;
			}
			l->size = ts_xreallocarray(NULL, l->n, sizeof(uint64_t));
			if (o->label_psize[x] != 0) {
				uint64_t i;

				for (i = 0; i < l->n; i++)
					l->size[i] = o->label_psize[x];
			} else
				draw_sizes(l->size, l->n, o->psize_lo,
				    o->psize_hi, o->psize_pinned ? LAW_UNIFORM :
				    o->law, &s);
		}
	return 0;
}

/* The operand o->operand: its modes, partitions and grid. */
static int
operand_shape(struct gen *g, struct block *b, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	const char *lab = b->lab[o->operand];
	uint64_t i, sum;
	int k;

	o->order = (int)strlen(lab);
	b->grid = 1;
	for (k = 0; k < o->order; k++) {
		const struct label *l = &b->l[lab[k] - 'a'];

		g->nparts[k] = l->n;
		fe_divisor_init(&b->part[k], l->n);
		free(g->extents[k]);
		g->extents[k] = ts_xreallocarray(NULL, l->n, sizeof(uint64_t));
		memcpy(g->extents[k], l->size, l->n * sizeof(uint64_t));
		for (sum = 0, i = 0; i < l->n; i++)
			if (!ts_add_u64(sum, l->size[i], &sum) ||
			    sum > (uint64_t)INT64_MAX) {
				ts_diag_usage(d, "mode %d would have more "
				    "than 2^63-1 coordinates", k + 1);
				return -1;
			}
		o->dims[k] = sum;
		if (!ts_mul_u64(b->grid, l->n, &b->grid) || b->grid >
		    GRID_MAX) {
			ts_diag_usage(d, "the block grid would have more than "
			    "2^63-1 blocks");
			return -1;
		}
	}
	/* ceil(density x grid), at least one, at most the grid. */
	b->nnzb = (uint64_t)ceil(o->density * (double)b->grid);
	b->nnzb = b->nnzb < 1 ? 1 : b->nnzb > b->grid ? b->grid : b->nnzb;
	g->draws = b->nnzb;
	perm_init(&b->pm, b->grid);
	return 0;
}

/* The key of the operand's blocks: the run's, and which operand. */
static uint64_t
operand_key(const struct gen *g)
{
	return g->key ^ fe_rng_mix((uint64_t)g->o.operand + 1);
}

/* Blocks [from, to) of the operand's: their elements summed, unless
 * a block's or the sum overflows (over). */
struct bsum {
	const struct gen *g;
	uint64_t	 from, to, sum;
	bool		 over;
	pthread_t	 tid;
};

static void *
bsum_main(void *arg)
{
	struct bsum *r = arg;
	const struct gen *g = r->g;
	const struct block *b = g->st;
	const uint64_t key = operand_key(g);
	const int order = g->o.order;
	uint64_t j, c, q, vol, sum = 0;
	int k;

	for (j = r->from; j < r->to; j++) {
		c = perm_at(&b->pm, key, j);
		/* The checks inlined: this loop is over every block. */
		for (vol = 1, k = order - 1; k >= 0; k--) {
			q = fe_divide(&b->part[k], c);
			if (__builtin_mul_overflow(vol, g->extents[k][c - q *
			    g->nparts[k]], &vol))
				break;
			c = q;
		}
		if (k >= 0 || __builtin_add_overflow(sum, vol, &sum)) {
			r->over = true;
			break;
		}
	}
	r->sum = sum;
	return NULL;
}

/* Blocks a thread takes at least: fewer are summed by the caller. */
#define BSUM_MIN	((uint64_t)1 << 18)

/* The elements of the operand's blocks, which the header says first:
 * on the setup's threads, each a run of blocks (the same sum however
 * many). */
static int
operand_blocks(struct gen *g, struct ts_diags *d)
{
	const struct block *b = g->st;
	struct bsum r[8];
	int nt, t, started;
	bool over = false;

	nt = g->threads < 1 ? 1 : g->threads > 8 ? 8 : g->threads;
	if (b->nnzb / BSUM_MIN < (uint64_t)nt)
		nt = b->nnzb / BSUM_MIN > 0 ? (int)(b->nnzb / BSUM_MIN) : 1;
	for (t = 0; t < nt; t++) {
		r[t].g = g;
		r[t].from = b->nnzb / (uint64_t)nt * (uint64_t)t;
		r[t].to = t == nt - 1 ? b->nnzb : b->nnzb / (uint64_t)nt *
		    (uint64_t)(t + 1);
		r[t].sum = 0;
		r[t].over = false;
	}
	for (started = 1; started < nt; started++)
		if (pthread_create(&r[started].tid, NULL, bsum_main,
		    &r[started]) != 0)
			break;
	/* The caller's run, and those no thread could take. */
	bsum_main(&r[0]);
	for (t = started; t < nt; t++)
		bsum_main(&r[t]);
	for (t = 1; t < started; t++)
		pthread_join(r[t].tid, NULL);
	g->nnz_elements = 0;
	for (t = 0; t < nt; t++)
		over |= r[t].over || __builtin_add_overflow(g->nnz_elements,
		    r[t].sum, &g->nnz_elements);
	if (over) {
		ts_diag_usage(d, "the blocks would hold more than 2^64-1 "
		    "elements");
		return -1;
	}
	return 0;
}

static int
block_keyed(struct gen *g, struct ts_diags *d)
{
	return operand_blocks(g, d);
}

static int
block_setup(struct gen *g, struct ts_diags *d)
{
	struct gen_opts *o = &g->o;
	struct block *b = ts_xcalloc(1, sizeof(*b));
	int k;

	g->st = b;
	b->nop = 1;
	if (o->einsum != NULL) {
		if (parse_einsum(b, o->einsum, d) != 0)
			return -1;
	} else if (o->has_counts) {
		if (count_labels(b, o, d) != 0)
			return -1;
	} else {
		if (o->nparts == 0) {
			ts_diag_usage(d, "--model block: give --partitions "
			    "N1,...,Nk (or --einsum, or --counts)");
			return -1;
		}
		for (k = 0; k < o->nparts; k++)
			b->lab[0][k] = (char)('a' + k);
		b->lab[0][k] = '\0';
	}
	/* A contraction's labels are not the modes of one tensor: one
	 * count for all, or a range. */
	if (b->nop == 2 && o->nparts > 1) {
		ts_diag_usage(d, "--partitions: one count for every label of "
		    "a contraction, or LO:HI (--label-partitions sets a "
		    "label's)");
		return -1;
	}
	for (k = 0; k < 26; k++)
		if ((o->label_parts[k] != 0 || o->label_psize[k] != 0) &&
		    strchr(b->lab[0], 'a' + k) == NULL &&
		    strchr(b->lab[1], 'a' + k) == NULL) {
			ts_diag_usage(d, "--label-partitions, "
			    "--label-partition-size: no label '%c' in the "
			    "contraction", 'a' + k);
			return -1;
		}
	if (draw_labels(b, o, d) != 0)
		return -1;
	return operand_shape(g, b, d);
}

/* The operand's grid: its key is known now (gen_setup), so its blocks
 * are drawn from it. */
static void
block_fill(const struct gen *g, uint64_t first, size_t n, uint64_t *c)
{
	const struct block *b = g->st;
	const int order = g->o.order;
	const uint64_t key = operand_key(g);
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		uint64_t x = perm_at(&b->pm, key, first + i), q;

		for (k = order - 1; k >= 0; k--) {
			q = fe_divide(&b->part[k], x);
			c[i * (size_t)order + (size_t)k] = x - q * g->nparts[k];
			x = q;
		}
	}
}

static void
block_describe(const struct gen *g, struct ts_strbuf *sb, bool key)
{
	const struct gen_opts *o = &g->o;
	const struct block *b = g->st;
	char dens[32];
	int k;

	/* Both operands have the key of A: each its blocks. */
	if (b->nop == 2)
		ts_sbprintf(sb, "; einsum %s,%s->%s", b->lab[0], b->lab[1],
		    b->out);
	if (b->nop == 2 && !key)
		ts_sbprintf(sb, "; operand %c", "AB"[o->operand]);
	ts_sbprintf(sb, "; partitions ");
	for (k = 0; k < o->order; k++)
		ts_sbprintf(sb, "%s%llu", k ? "," : "",
		    (unsigned long long)g->nparts[k]);
	ts_fmt_double(dens, o->density);
	ts_sbprintf(sb, "; partition sizes %llu:%llu %s; density %s",
	    (unsigned long long)o->psize_lo, (unsigned long long)o->psize_hi,
	    o->psize_pinned ? "pinned" : laws[o->law], dens);
	for (k = 0; k < 26; k++)
		if (o->label_parts[k] != 0 || o->label_psize[k] != 0)
			ts_sbprintf(sb, "; label %c partitions %llu size %llu",
			    'a' + k, (unsigned long long)o->label_parts[k],
			    (unsigned long long)o->label_psize[k]);
}

static char *
block_notes(const struct gen *g)
{
	const struct gen_opts *o = &g->o;
	const struct block *b = g->st;
	struct ts_strbuf sb = { NULL, 0, 0 };
	const char *lab = b->lab[o->operand];
	char dens[32];
	uint64_t i;
	int k;

	if (b->nop == 2) {
		ts_sbprintf(&sb, "- Contraction: `%s,%s->%s`; this bundle is "
		    "operand **%c** (labels `%s`), its companion operand **%c** "
		    "(labels `%s`): a label's partitions are the same in both\n",
		    b->lab[0], b->lab[1], b->out, "AB"[o->operand], lab,
		    "BA"[o->operand], b->lab[1 - o->operand]);
	}
	ts_fmt_double(dens, o->density);
	ts_sbprintf(&sb, "- Block grid: %llu blocks, %llu of them non-zero "
	    "(density %s, rounded up)\n", (unsigned long long)b->grid,
	    (unsigned long long)b->nnzb, dens);
	for (k = 0; k < o->order; k++) {
		ts_sbprintf(&sb, "- Mode %d", k + 1);
		if (b->nop == 2)
			ts_sbprintf(&sb, " (label `%c`)", lab[k]);
		ts_sbprintf(&sb, ": %llu partitions of sizes",
		    (unsigned long long)g->nparts[k]);
		for (i = 0; i < g->nparts[k] && i < 64; i++)
			ts_sbprintf(&sb, " %llu",
			    (unsigned long long)g->extents[k][i]);
		ts_sbprintf(&sb, "%s\n", g->nparts[k] > 64 ? " ..." : "");
	}
	return sb.s;
}

static void
block_free(struct gen *g)
{
	struct block *b = g->st;
	int k;

	if (b == NULL)
		return;
	for (k = 0; k < 26; k++)
		free(b->l[k].size);
	free(b);
	g->st = NULL;
}

int
gen_block_operand(struct gen *g, int op, struct ts_diags *d)
{
	g->o.operand = op;
	return operand_shape(g, g->st, d) != 0 ? -1 : operand_blocks(g, d);
}

const struct gen_model gen_block = {
	"block", BLOCKS, block_setup, block_keyed, block_fill, NULL,
	block_describe, block_notes, block_free
};

/* Is the model a pair (einsum or counts)? */
bool
gen_block_pair(const struct gen *g)
{
	const struct block *b = g->st;

	return g->m == &gen_block && b != NULL && b->nop == 2;
}
