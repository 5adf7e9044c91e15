/*
 * opts.c - the options that describe the model, its entries and its
 * values (the ones a configuration file gives instead): their values
 * parsed, then checked against each other where that does not need the
 * model set up (a usage error, status 2, exits).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "part.h"

static const char *const lambdas[] = { "softmax", "none", NULL };

/* The first option of the block model given, and whether --p-in or
 * --p-out was, for gen_check(). */
static const char *blockopt;
static bool p_given;

/* A list of numbers, one or one a mode, into l. */
static void
parse_numlist(const char *opt, const char *arg, struct gen_list *l)
{
	const char *p = arg, *e;
	int64_t iv;
	bool isint;

	l->n = 0;
	for (;;) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if (l->n == TS_MAXORDER)
			fe_usage_error("%s: '%s' gives more than %d values",
			    opt, arg, TS_MAXORDER);
		l->v[l->n++] = fe_parse_number(opt, p, (size_t)(e - p), &iv,
		    &isint);
		if (*e == '\0')
			break;
		p = e + 1;
	}
}

/* --dims and --sort-order. */
static int
parse_dims(const char *arg, uint64_t *dims)
{
	int n = fe_parse_list(arg, 1, (uint64_t)INT64_MAX, dims, TS_MAXORDER);

	if (n < 0)
		fe_usage_error("--dims: '%s' is not a list of dimensions like "
		    "100,200,300", arg);
	return n;
}

static void
parse_prio(struct gen_opts *o, const char *arg)
{
	uint64_t v[TS_MAXORDER];
	bool seen[TS_MAXORDER] = { false };
	int i, n = fe_parse_list(arg, 1, TS_MAXORDER, v, TS_MAXORDER);

	for (i = 0; i < n; i++) {
		if (seen[v[i] - 1])
			break;
		seen[v[i] - 1] = true;
		o->prio[i] = (int)v[i] - 1;
	}
	if (n < 0 || i < n)
		fe_usage_error("--sort-order: '%s' is not a list of distinct "
		    "modes like 3,1,2", arg);
	o->nprio = n;
	o->sorted = true;
}

static uint64_t
parse_count(const char *opt, const char *arg)
{
	uint64_t v;

	if (fe_parse_list(arg, 0, (uint64_t)INT64_MAX, &v, 1) != 1)
		fe_usage_error("%s: '%s' is not a count of 0 to 2^63-1", opt,
		    arg);
	return v;
}

/* An integer of [lo, hi]. */
static uint64_t
parse_range_int(const char *opt, const char *arg, uint64_t lo, uint64_t hi)
{
	uint64_t v;

	if (fe_parse_list(arg, lo, hi, &v, 1) != 1)
		fe_usage_error("%s: '%s' is not an integer from %llu to %llu",
		    opt, arg, (unsigned long long)lo, (unsigned long long)hi);
	return v;
}

/* A number of [lo, hi]. */
static double
parse_real(const char *opt, const char *arg, double lo, double hi)
{
	int64_t iv;
	bool isint;
	double v = fe_parse_number(opt, arg, strlen(arg), &iv, &isint);

	if (!(v >= lo && v <= hi))
		fe_usage_error("%s: '%s' is not a number from %g to %g", opt,
		    arg, lo, hi);
	return v;
}

/* N or LO:HI, 1 to 2^32 each, LO at most HI. */
static void
parse_lohi(const char *opt, const char *arg, uint64_t *lo, uint64_t *hi)
{
	uint64_t v[2];
	char buf[64];
	const char *colon = strchr(arg, ':');

	if (colon == NULL) {
		*lo = *hi = parse_range_int(opt, arg, 1, (uint64_t)1 << 32);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*s,%s", (int)(colon - arg), arg,
	    colon + 1);
	if (strlen(arg) >= sizeof(buf) || fe_parse_list(buf, 1,
	    (uint64_t)1 << 32, v, 2) != 2 || v[0] > v[1])
		fe_usage_error("%s: '%s' is not N or LO:HI, from 1 up, LO at "
		    "most HI", opt, arg);
	*lo = v[0];
	*hi = v[1];
}

/* --partitions: a list of counts (a mode each), or a range for the
 * labels of a contraction. */
static void
parse_parts(struct gen_opts *o, const char *arg)
{
	if (strchr(arg, ':') != NULL) {
		parse_lohi("--partitions", arg, &o->parts_lo, &o->parts_hi);
		o->nparts = 0;
		return;
	}
	o->nparts = fe_parse_list(arg, 1, (uint64_t)1 << 24, o->parts,
	    TS_MAXORDER);
	if (o->nparts < 0)
		fe_usage_error("--partitions: '%s' is not a list of "
		    "partitions like 3,4,5 (or LO:HI)", arg);
}

/* --counts FA,FB,C[,B]. */
static void
parse_counts(struct gen_opts *o, const char *arg)
{
	uint64_t v[4] = { 0, 0, 0, 0 };
	int n = fe_parse_list(arg, 0, 26, v, 4), i;

	if (n < 3 || v[0] < 1 || v[1] < 1 || v[2] < 1)
		fe_usage_error("--counts: '%s' is not FA,FB,C[,B]: labels free "
		    "in A, in B (1 or more each), contracted (1 or more), "
		    "batch", arg);
	for (i = 0; i < 4; i++)
		o->counts[i] = (int)v[i];
	o->has_counts = true;
}

/* a=4,d=12: a count for labels a to z. */
static void
parse_labels(const char *opt, const char *arg, uint64_t *out)
{
	const char *p = arg;
	char buf[32];
	uint64_t v;
	size_t n;

	while (*p != '\0') {
		n = strcspn(p, ",");
		if (n < 3 || p[0] < 'a' || p[0] > 'z' || p[1] != '=' ||
		    n - 2 >= sizeof(buf))
			goto bad;
		snprintf(buf, sizeof(buf), "%.*s", (int)(n - 2), p + 2);
		if (fe_parse_list(buf, 1, (uint64_t)1 << 32, &v, 1) != 1)
			goto bad;
		out[p[0] - 'a'] = v;
		p += n;
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p != '\0')
			goto bad;
	}
	return;
bad:
	fe_usage_error("%s: '%s' is not a list like a=4,d=12 (labels a to z, "
	    "counts from 1)", opt, arg);
}

/* What the options ask, checked where it does not need the model. */
void
gen_check(struct gen_part *p, const struct fe_job_opts *jo, int argc)
{
	struct gen_opts *o = &p->g.o;
	const struct gen_model *m;
	int k;

	if (o->model < 0)
		fe_usage_error("give --model");
	m = gen_models[o->model];
	if ((m->needs & NEED_DIMS) && o->order == 0)
		fe_usage_error("--model %s: give --dims", m->name);
	if ((m->needs & NEED_NNZ) && !o->has_nnz)
		fe_usage_error("--model %s: give --nnz", m->name);
	if (argc > 0 && !(m->needs & (NEED_SRC | HAS_SRC)))
		fe_usage_error("--model %s reads no tensor: '%s' is not for "
		    "it", m->name, o->src);
	if (argc == 0 && (m->needs & NEED_SRC))
		fe_usage_error("--model %s: give the tensor it reads", m->name);
	if (strcmp(m->name, "kronecker") == 0 && (o->src != NULL) ==
	    (o->cp_rank > 0))
		fe_usage_error("--model kronecker: give a seed tensor or "
		    "--cp-rank, not %s", o->src != NULL ? "both" : "neither");
	if (strcmp(m->name, "block") == 0 && (p->values || p->vtype >= 0 ||
	    o->dups_given || o->symmetric || o->permute))
		fe_usage_error("--model block: its blocks are distinct and "
		    "their data files hold no values: no value options, "
		    "--duplicates, --symmetric or --permute");
	if (strcmp(m->name, "block") != 0 && blockopt != NULL)
		fe_usage_error("--%s is for --model block", blockopt);
	if (o->einsum != NULL && o->has_counts)
		fe_usage_error("--einsum and --counts are two ways to say the "
		    "contraction: give one");
	if ((o->einsum != NULL || o->has_counts) && (jo->dst == NULL ||
	    strcmp(jo->dst, "-") == 0))
		fe_usage_error("--einsum and --counts write two bundles: give "
		    "-o DST, which they are named after (DST_A, DST_B)");
	if (strcmp(m->name, "kronecker") != 0 && (o->levels > 0 ||
	    (o->cp_rank > 0 && strcmp(m->name, "poisson-cp") != 0) ||
	    o->ncp_dims > 0 || o->cp_alpha.n > 0 || o->cp_noise > 0))
		fe_usage_error("--levels and --cp-* are for --model kronecker "
		    "(--cp-rank for poisson-cp too)");
	if (strcmp(m->name, "sbm") != 0 && (o->communities.n > 0 ||
	    p_given))
		fe_usage_error("--communities, --p-in and --p-out are for "
		    "--model sbm");
	if (strcmp(m->name, "like") != 0 && o->scale != 0)
		fe_usage_error("--scale is for --model like");
	/* A count tensor of the planted model; a real tensor's sibling
	 * without repeats, as real tensors are. */
	if (!o->dups_given && strcmp(m->name, "poisson-cp") == 0)
		o->dups = p->values ? GEN_UNIQUE : GEN_SUM;
	if (!o->dups_given && strcmp(m->name, "like") == 0)
		o->dups = GEN_UNIQUE;
	if (o->nprio > 0 && o->order > 0 && o->nprio != o->order)
		fe_usage_error("--sort-order names %d modes; the tensor has "
		    "order %d", o->nprio, o->order);
	for (k = 0; k < o->nprio; k++)
		if (o->order > 0 && o->prio[k] >= o->order)
			fe_usage_error("--sort-order: the tensor has no mode %d",
			    o->prio[k] + 1);
	if (o->symmetric && o->dups_given && o->dups == GEN_ALLOW)
		fe_usage_error("--symmetric writes each tuple's orbit once: "
		    "give --duplicates unique or sum");
	if (o->symmetric && !o->dups_given)
		o->dups = GEN_UNIQUE;
	if (o->dups == GEN_SUM && p->values)
		fe_usage_error("--duplicates sum makes the values (the counts "
		    "of each entry's draws): no value options");
	/* A value type alone asks for values too (counts under sum). */
	if (p->vtype >= 0 && o->dups != GEN_SUM)
		p->values = true;
	if (jo->dst != NULL && strcmp(jo->dst, "-") == 0 && (jo->want_text ||
	    jo->want_binary))
		fe_usage_error("--text and --binary are for a bundle DST");
}

bool
gen_option(struct gen_part *p, int ch, const char *name, const char *arg)
{
	struct gen_opts *o = &p->g.o;

	if (blockopt == NULL && (ch == OPT_COUNTS || ch == OPT_DENSITY ||
	    ch == OPT_EINSUM || ch == OPT_LABEL_PARTS ||
	    ch == OPT_LABEL_PSIZE || ch == OPT_LAW || ch == OPT_PARTS ||
	    ch == OPT_PSIZE))
		blockopt = name;
	switch (ch) {
	case OPT_ALPHA:
		parse_numlist("--alpha", arg, &o->alpha);
		break;
	case OPT_CP_ALPHA:
		parse_numlist("--cp-alpha", arg, &o->cp_alpha);
		break;
	case OPT_CP_DIMS:
		o->ncp_dims = fe_parse_list(arg, 1, (uint64_t)1 << 24,
		    o->cp_dims, TS_MAXORDER);
		if (o->ncp_dims < 0)
			fe_usage_error("--cp-dims: '%s' is not a list of "
			    "dimensions like 2,2,2", arg);
		break;
	case OPT_CP_LAMBDA:
		o->cp_equal = fe_pick("--cp-lambda", arg, lambdas) == 1;
		break;
	case OPT_CP_NOISE:
		o->cp_noise = parse_real("--cp-noise", arg, 0, 1e300);
		break;
	case OPT_CP_RANK:
		o->cp_rank = (int)parse_range_int("--cp-rank", arg, 1,
		    1024);
		break;
	case OPT_COMMUNITIES:
		parse_numlist("--communities", arg, &o->communities);
		break;
	case OPT_P_IN:
		o->p_in = parse_real("--p-in", arg, 0, 1);
		p_given = true;
		break;
	case OPT_P_OUT:
		o->p_out = parse_real("--p-out", arg, 0, 1);
		p_given = true;
		break;
	case OPT_SCALE:
		o->scale = parse_real("--scale", arg, 1e-9, 1e9);
		break;
	case OPT_COUNTS:
		parse_counts(o, arg);
		break;
	case OPT_DENSITY:
		o->density = parse_real("--density", arg, 1e-300, 1);
		break;
	case OPT_EINSUM:
		o->einsum = arg;
		break;
	case OPT_LABEL_PARTS:
		parse_labels("--label-partitions", arg,
		    o->label_parts);
		break;
	case OPT_LABEL_PSIZE:
		parse_labels("--label-partition-size", arg,
		    o->label_psize);
		break;
	case OPT_LAW:
		o->law = (enum gen_law)fe_pick_named("--partition-law",
		    arg, 0, gen_law_name);
		break;
	case OPT_PARTS:
		parse_parts(o, arg);
		break;
	case OPT_PSIZE:
		parse_lohi("--partition-size", arg, &o->psize_lo,
		    &o->psize_hi);
		o->psize_pinned = o->psize_lo == o->psize_hi &&
		    strchr(arg, ':') == NULL;
		break;
	case OPT_DIMS:
		o->order = parse_dims(arg, o->dims);
		break;
	case OPT_DUPS:
		o->dups = (enum gen_dups)fe_pick("--duplicates",
		    arg, gen_dups_names());
		o->dups_given = true;
		break;
	case OPT_HIGH:
		parse_numlist("--high", arg, &o->high);
		break;
	case OPT_INDEX_TYPE:
		p->itype = fe_pick_itype("--index-type", arg);
		break;
	case OPT_INPUT_BASE:
		o->src_base = fe_pick("--input-base", arg, fe_bases);
		break;
	case OPT_LEVELS:
		o->levels = (int)parse_range_int("--levels", arg, 1, 64);
		break;
	case OPT_LOW:
		parse_numlist("--low", arg, &o->low);
		break;
	case OPT_MODEL:
		o->model = fe_pick_named("--model", arg, 0,
		    gen_model_name);
		break;
	case OPT_NNZ:
		o->nnz = parse_count("--nnz", arg);
		o->has_nnz = true;
		break;
	case OPT_PERMUTE:
		o->permute = true;
		break;
	case OPT_SEED:
		o->seed = p->vo.seed = fe_parse_seed("--seed", arg);
		break;
	case OPT_SORT_ORDER:
		parse_prio(o, arg);
		break;
	case OPT_SORTED:
		o->sorted = true;
		break;
	case OPT_SYMMETRIC:
		o->symmetric = true;
		break;
	case OPT_VTYPE:
		p->vtype = fe_pick_vtype("--value-type", arg);
		break;
	case FE_OPT_VALUE:
		fe_value_opt(&p->vo, name, arg);
		p->values = true;
		break;
	default:
		return false;
	}
	return true;
}

void
gen_opts_init(struct gen_part *p)
{
	struct gen_opts *o = &p->g.o;

	o->model = -1;
	/* The reference's block generator's defaults. */
	o->parts_lo = 1;
	o->parts_hi = 5;
	o->psize_lo = 1;
	o->psize_hi = 64;
	o->law = LAW_RANDOM;
	o->density = 0.3;
	o->p_in = 0.1;
	o->p_out = 0.01;
	o->src_base = -1;
	o->mem_limit = fe_parse_size("-S", "25%");
}
