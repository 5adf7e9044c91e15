/*
 * ts-gen - make a synthetic tensor: the models of the reference
 * generators and a few more, exact nnz, the same bytes for the same
 * arguments on any machine, with any -j, in any kind of output.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "part.h"
#include "util/xalloc.h"

enum {
	OPT_ALPHA = 256, OPT_BINARY, OPT_CONFIG, OPT_CP_ALPHA, OPT_CP_DIMS,
	OPT_CP_LAMBDA,
	OPT_CP_NOISE, OPT_CP_RANK, OPT_COUNTS, OPT_DENSITY, OPT_DIMS, OPT_DUPS,
	OPT_EINSUM, OPT_ENDIAN, OPT_GROUP, OPT_LABEL_PARTS, OPT_LABEL_PSIZE,
	OPT_LAW, OPT_PARTS, OPT_PSIZE, OPT_COMMUNITIES, OPT_P_IN, OPT_P_OUT,
	OPT_SCALE,
	OPT_HIGH, OPT_ID, OPT_INDEX_BASE, OPT_INDEX_TYPE, OPT_INPUT_BASE,
	OPT_LEVELS, OPT_LOW,
	OPT_MODEL, OPT_NAME, OPT_NNZ, OPT_PERMUTE, OPT_SEED, OPT_SORT_ORDER,
	OPT_SORTED, OPT_SOURCE_URL, OPT_SYMMETRIC, OPT_TEXT, OPT_TIME, OPT_TO,
	OPT_VTYPE
};

static const char *const lambdas[] = { "softmax", "none", NULL };

static const struct option longopts[] = {
	{ "alpha",		required_argument,	NULL, OPT_ALPHA },
	{ "binary",		no_argument,		NULL, OPT_BINARY },
	{ "buffer-size",	required_argument,	NULL, 'S' },
	{ "communities",	required_argument,	NULL, OPT_COMMUNITIES },
	{ "config",		required_argument,	NULL, OPT_CONFIG },
	{ "counts",		required_argument,	NULL, OPT_COUNTS },
	{ "cp-alpha",		required_argument,	NULL, OPT_CP_ALPHA },
	{ "cp-dims",		required_argument,	NULL, OPT_CP_DIMS },
	{ "cp-lambda",		required_argument,	NULL, OPT_CP_LAMBDA },
	{ "cp-noise",		required_argument,	NULL, OPT_CP_NOISE },
	{ "cp-rank",		required_argument,	NULL, OPT_CP_RANK },
	{ "density",		required_argument,	NULL, OPT_DENSITY },
	{ "dims",		required_argument,	NULL, OPT_DIMS },
	{ "duplicates",		required_argument,	NULL, OPT_DUPS },
	{ "einsum",		required_argument,	NULL, OPT_EINSUM },
	{ "endian",		required_argument,	NULL, OPT_ENDIAN },
	{ "force",		no_argument,		NULL, 'f' },
	{ "group",		required_argument,	NULL, OPT_GROUP },
	{ "help",		no_argument,		NULL, 'h' },
	{ "high",		required_argument,	NULL, OPT_HIGH },
	{ "id",			required_argument,	NULL, OPT_ID },
	{ "index-base",		required_argument,	NULL, OPT_INDEX_BASE },
	{ "index-type",		required_argument,	NULL, OPT_INDEX_TYPE },
	{ "input-base",		required_argument,	NULL, OPT_INPUT_BASE },
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "label-partition-size", required_argument,	NULL, OPT_LABEL_PSIZE },
	{ "label-partitions",	required_argument,	NULL, OPT_LABEL_PARTS },
	{ "levels",		required_argument,	NULL, OPT_LEVELS },
	{ "low",		required_argument,	NULL, OPT_LOW },
	{ "model",		required_argument,	NULL, OPT_MODEL },
	{ "name",		required_argument,	NULL, OPT_NAME },
	{ "nnz",		required_argument,	NULL, OPT_NNZ },
	{ "output",		required_argument,	NULL, 'o' },
	{ "p-in",		required_argument,	NULL, OPT_P_IN },
	{ "p-out",		required_argument,	NULL, OPT_P_OUT },
	{ "partition-law",	required_argument,	NULL, OPT_LAW },
	{ "partition-size",	required_argument,	NULL, OPT_PSIZE },
	{ "partitions",		required_argument,	NULL, OPT_PARTS },
	{ "permute",		no_argument,		NULL, OPT_PERMUTE },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "scale",		required_argument,	NULL, OPT_SCALE },
	{ "seed",		required_argument,	NULL, OPT_SEED },
	{ "sort-order",		required_argument,	NULL, OPT_SORT_ORDER },
	{ "sorted",		no_argument,		NULL, OPT_SORTED },
	{ "source-url",		required_argument,	NULL, OPT_SOURCE_URL },
	{ "symmetric",		no_argument,		NULL, OPT_SYMMETRIC },
	{ "temporary-directory", required_argument,	NULL, 'T' },
	{ "text",		no_argument,		NULL, OPT_TEXT },
	{ "time",		required_argument,	NULL, OPT_TIME },
	{ "to",			required_argument,	NULL, OPT_TO },
	FE_VALUE_LONGOPTS,
	{ "value-type",		required_argument,	NULL, OPT_VTYPE },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s --model MODEL [--dims D1,...,DN] [--nnz N] "
	    "[--seed S] [options]\n              [-o DST] [SRC]\n"
	    "       %s --config FILE.yaml [-fq] [-j N] [-S SIZE] [-T DIR] "
	    "[-o DST]\n", fe_progname, fe_progname);
	if (fp != stdout)
		return;
	fputs("Make a synthetic tensor of a model, the same bytes for the same "
	    "arguments on any\nmachine, with any -j, in any kind of output.  "
	    "DST as for ts-convert (default\n'-').\n\n"
	    "      --config FILE.yaml   the request of a configuration file "
	    "of the reference\n"
	    "                           generators (random, zipf, cp_fastskg, "
	    "fastskg); DST\n"
	    "                           by default its output_dir/name\n"
	    "Model (SRC: the tensor a model reads, kronecker's seed):\n"
	    "      --model MODEL        uniform, random, zipf, kronecker, "
	    "block, sbm,\n"
	    "                           poisson-cp or like (SRC)\n"
	    "      --dims D1,...,DN     the dimensions\n"
	    "      --nnz N              entries (distinct ones with "
	    "--duplicates unique or sum)\n"
	    "      --seed S             0 to 2^64-1 (default 0)\n"
	    "      --low L, --high H    random: slice degrees uniform on "
	    "[L,H], one value or\n"
	    "                           one a mode (default 0 and 2 nnz / "
	    "dimension)\n"
	    "      --alpha A            zipf: the exponent, one or one a mode "
	    "(default 1.2)\n"
	    "      --levels K           kronecker: levels (default: the "
	    "fewest that cover\n"
	    "                           --dims; without --dims, the seed's "
	    "dims^K)\n"
	    "      --cp-rank R          kronecker: the CP seed of rank R "
	    "(without SRC)\n"
	    "      --cp-dims S1,...,SN  its dimensions (default 2 a mode)\n"
	    "      --cp-alpha A         its factors' power law, one or one a "
	    "mode (1.2)\n"
	    "      --cp-noise X         its cells times 1 + X (u - 1/2) "
	    "(default 0)\n"
	    "      --cp-lambda L        its components' weights: softmax "
	    "(default) or none\n"
	    "      --partitions P       block: partitions of each mode "
	    "P1,...,PN, or a\n"
	    "                           label's from LO:HI (default 1:5)\n"
	    "      --partition-size S   block: sizes from LO:HI (default "
	    "1:64), or all S\n"
	    "      --partition-law LAW  block: uniform, random (default), "
	    "mixed or power_law\n"
	    "      --density D          block: share of the block grid "
	    "non-zero (default 0.3)\n"
	    "      --einsum A,B->O      block: the operand pair DST_A, DST_B "
	    "of a contraction\n"
	    "      --counts FA,FB,C[,B] block: the same, labels free in A, in "
	    "B, contracted,\n"
	    "                           batch\n"
	    "      --label-partitions L=N,...      a label's partitions\n"
	    "      --label-partition-size L=S,...  a label's partition size\n"
	    "      --communities C      sbm: communities, one count or one a "
	    "mode (default 4)\n"
	    "      --p-in P, --p-out Q  sbm: densities inside and across "
	    "communities\n"
	    "                           (default 0.1 and 0.01)\n"
	    "      --cp-rank R          poisson-cp: components (default 3)\n"
	    "      --scale F            like: SRC's dimensions and nnz times "
	    "F (default 1)\n"
	    "      --input-base 0|1     SRC's index base when it has no "
	    "metadata (default 1)\n"
	    "      --permute            each mode's slices in a random order\n"
	    "      --symmetric          every permutation of each entry "
	    "(pattern_symmetry full)\n"
	    "Entries:\n"
	    "      --duplicates POLICY  allow (as drawn, the default), unique "
	    "(repeats removed,\n"
	    "                           topped up to nnz) or sum (counts as "
	    "values)\n"
	    "      --sorted             sorted (so are unique and sum)\n"
	    "      --sort-order MODES   the mode priority, e.g. 3,1,2 "
	    "(default 1..N)\n", fp);
	fprintf(fp, "  -S, --buffer-size SIZE   memory for the sort, e.g. 256M, "
	    "2G, or a percentage of\n"
	    "                           the memory it may use: the least of "
	    "RAM, the cgroup's\n"
	    "                           memory.max, RLIMIT_AS and RLIMIT_DATA; "
	    "default 25%%,\n"
	    "                           %s\n", fe_mem_default("25%"));
	fputs("  -T, --temporary-directory DIR  where runs spill (default: "
	    "$TMPDIR or /tmp)\n"
	    "Values (none unless one of these is given):\n", fp);
	fe_value_usage(fp);
	fputs("      --value-type T       float32, float64, int32 or int64 "
	    "(default float64)\n"
	    "Output:\n"
	    "  -o, --output DST         bundle directory or archive (.tar.zst, "
	    "...), .tns, .tnsb,\n"
	    "                           .mtx or .json file, possibly .gz, .zst, "
	    ".xz or .bz2, or '-'\n"
	    "      --to KIND            bundle, tns, tnsb, frostt, mtx or "
	    "cutensor (default:\n"
	    "                           from DST; text to a stream)\n"
	    "      --text, --binary     data files of an output bundle "
	    "(default both with\n"
	    "                           values, text for a pattern)\n"
	    "      --index-base 0|1     index base of the output (default 0)\n"
	    "      --index-type T       uint32 or uint64\n"
	    "      --endian E           little or big\n"
	    "  -f, --force              replace an existing DST\n"
	    "      --name NAME, --group G, --id NNNN, --time YYYY-MM-DD,\n"
	    "      --source-url URL     descriptive metadata of a bundle\n"
	    "Other:\n"
	    "  -j, --jobs N             threads (default: the CPUs it may use)\n"
	    "  -q, --quiet              no notes on stderr\n"
	    "  -h, --help               show this help and exit\n"
	    "  -V, --version            show the version and exit\n"
	    "\nExit status: 0 done, 1 the model cannot give what was asked, "
	    "2 usage error,\n3 I/O error.\n", fp);
}

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

/* The first option of the block model given, and whether --p-in or
 * --p-out was, for check(). */
static const char *blockopt;
static bool p_given;

/* What the options ask, checked where it does not need the model. */
static void
check(struct gen_part *p, const struct ts_job_opts *jo, int argc)
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

/* --config FILE: its request, its messages printed as they come;
 * the exit status. */
static int
read_config(struct gen_part *gp, struct ts_job_opts *jo, const char *path,
    bool quiet)
{
	struct ts_diags *d = ts_diags_new(20, false);
	int rv;

	fe_diags_live(d, quiet);
	gen_config(gp, jo, path, jo->dst != NULL, d);
	ts_diags_print_suppressed(d, stderr);
	rv = ts_diags_status(d);
	ts_diags_free(d);
	return rv;
}

/* DST with _A or _B before its suffixes: x -> x_A, x.tar.zst ->
 * x_A.tar.zst, x.tns.gz -> x_A.tns.gz (malloc'd). */
static char *
operand_dst(const char *dst, char op)
{
	static const char *const sfx[] = { ".tar.zst", ".tar.gz", ".tar.xz",
	    ".tar.bz2", ".tar", ".tzst", ".tgz", ".txz", ".tns", ".tnsb",
	    ".json", NULL };
	size_t n = strlen(dst), cut = n, b;
	const char *base;
	int i;

	while (n > 1 && dst[n - 1] == '/')
		n--;
	base = dst;
	for (b = 0; b < n; b++)
		if (dst[b] == '/')
			base = dst + b + 1;
	cut = n;
	for (i = 0; sfx[i] != NULL; i++) {
		const char *at = strstr(base, sfx[i]);

		if (at != NULL && at > base && (size_t)(at - dst) < cut)
			cut = (size_t)(at - dst);
	}
	return ts_xasprintf("%.*s_%c%.*s", (int)cut, dst, op,
	    (int)(n - cut), dst + cut);
}

/*
 * --einsum, --counts: the operand A into DST_A, then B into DST_B, the
 * model set up once (its labels and their partitions shared).  Both
 * are refused before either is written when one exists and -f was not
 * given.
 */
static int
run_pair(struct gen_part *gp, struct ts_job_opts *jo, bool quiet)
{
	char *dst[2];
	struct stat st;
	int op, rv = TS_EXIT_OK;

	for (op = 0; op < 2; op++)
		dst[op] = operand_dst(jo->dst, "AB"[op]);
	for (op = 0; op < 2 && !jo->force; op++)
		if (lstat(dst[op], &st) == 0) {
			fe_warnx("'%s' exists (-f replaces it)", dst[op]);
			rv = TS_EXIT_USAGE;
		}
	for (op = 0; op < 2 && rv == TS_EXIT_OK; op++) {
		jo->dst = dst[op];
		gp->operand = op;
		rv = fe_run_job(jo, quiet);
	}
	free(dst[0]);
	free(dst[1]);
	return rv;
}

static char *command;	/* as typed, for the README */

int
main(int argc, char *argv[])
{
	struct ts_job_opts jo;
	struct gen_part gp;
	struct gen_opts *o = &gp.g.o;
	const char *config = NULL, *modelopt = NULL;
	bool quiet = false;
	int ch, rv, li = 0;

	fe_init("ts-gen");
	ts_job_opts_init(&jo);
	gen_part_init(&gp);
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
	command = fe_command_line(argc, argv);
	jo.program = fe_progname;
	jo.command = command;
	jo.part = &gp.part;
	while ((ch = getopt_long(argc, argv, "fhj:o:qS:T:V", longopts,
	    &li)) != -1) {
		/* What a configuration file says, the command line may not
		 * say too. */
		if (modelopt == NULL && ch >= OPT_ALPHA && ch != OPT_CONFIG &&
		    ch != OPT_TO && ch != OPT_GROUP && ch != OPT_ID &&
		    ch != OPT_TIME && ch != OPT_SOURCE_URL)
			modelopt = longopts[li].name;
		if (blockopt == NULL && (ch == OPT_COUNTS ||
		    ch == OPT_DENSITY || ch == OPT_EINSUM ||
		    ch == OPT_LABEL_PARTS || ch == OPT_LABEL_PSIZE ||
		    ch == OPT_LAW || ch == OPT_PARTS || ch == OPT_PSIZE))
			blockopt = longopts[li].name;
		switch (ch) {
		case 'f':
			jo.force = true;
			break;
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'j':
			jo.threads = fe_parse_jobs(optarg);
			break;
		case 'o':
			jo.dst = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'S':
			o->mem_limit = fe_parse_size("-S", optarg);
			break;
		case 'T':
			jo.tmpdir = o->tmpdir = optarg;
			break;
		case 'V':
			return fe_version();
		case OPT_ALPHA:
			parse_numlist("--alpha", optarg, &o->alpha);
			break;
		case OPT_BINARY:
			jo.want_binary = true;
			break;
		case OPT_CP_ALPHA:
			parse_numlist("--cp-alpha", optarg, &o->cp_alpha);
			break;
		case OPT_CP_DIMS:
			o->ncp_dims = fe_parse_list(optarg, 1, (uint64_t)1 << 24,
			    o->cp_dims, TS_MAXORDER);
			if (o->ncp_dims < 0)
				fe_usage_error("--cp-dims: '%s' is not a list of "
				    "dimensions like 2,2,2", optarg);
			break;
		case OPT_CP_LAMBDA:
			o->cp_equal = fe_pick("--cp-lambda", optarg, lambdas) == 1;
			break;
		case OPT_CP_NOISE:
			o->cp_noise = parse_real("--cp-noise", optarg, 0, 1e300);
			break;
		case OPT_CP_RANK:
			o->cp_rank = (int)parse_range_int("--cp-rank", optarg, 1,
			    1024);
			break;
		case OPT_COMMUNITIES:
			parse_numlist("--communities", optarg, &o->communities);
			break;
		case OPT_P_IN:
			o->p_in = parse_real("--p-in", optarg, 0, 1);
			p_given = true;
			break;
		case OPT_P_OUT:
			o->p_out = parse_real("--p-out", optarg, 0, 1);
			p_given = true;
			break;
		case OPT_SCALE:
			o->scale = parse_real("--scale", optarg, 1e-9, 1e9);
			break;
		case OPT_COUNTS:
			parse_counts(o, optarg);
			break;
		case OPT_DENSITY:
			o->density = parse_real("--density", optarg, 1e-300, 1);
			break;
		case OPT_EINSUM:
			o->einsum = optarg;
			break;
		case OPT_LABEL_PARTS:
			parse_labels("--label-partitions", optarg,
			    o->label_parts);
			break;
		case OPT_LABEL_PSIZE:
			parse_labels("--label-partition-size", optarg,
			    o->label_psize);
			break;
		case OPT_LAW:
			o->law = (enum gen_law)fe_pick_named("--partition-law",
			    optarg, 0, gen_law_name);
			break;
		case OPT_PARTS:
			parse_parts(o, optarg);
			break;
		case OPT_PSIZE:
			parse_lohi("--partition-size", optarg, &o->psize_lo,
			    &o->psize_hi);
			o->psize_pinned = o->psize_lo == o->psize_hi &&
			    strchr(optarg, ':') == NULL;
			break;
		case OPT_DIMS:
			o->order = parse_dims(optarg, o->dims);
			break;
		case OPT_DUPS:
			o->dups = (enum gen_dups)fe_pick("--duplicates",
			    optarg, gen_dups_names());
			o->dups_given = true;
			break;
		case OPT_ENDIAN:
			jo.out_endian = fe_pick_endian("--endian", optarg);
			break;
		case OPT_GROUP:
			jo.group = optarg;
			break;
		case OPT_HIGH:
			parse_numlist("--high", optarg, &o->high);
			break;
		case OPT_ID:
			jo.id = optarg;
			break;
		case OPT_INDEX_BASE:
			jo.out_base = fe_pick("--index-base", optarg, fe_bases);
			break;
		case OPT_INDEX_TYPE:
			gp.itype = fe_pick_itype("--index-type", optarg);
			break;
		case OPT_INPUT_BASE:
			o->src_base = fe_pick("--input-base", optarg, fe_bases);
			break;
		case OPT_LEVELS:
			o->levels = (int)parse_range_int("--levels", optarg, 1, 64);
			break;
		case OPT_LOW:
			parse_numlist("--low", optarg, &o->low);
			break;
		case OPT_MODEL:
			o->model = fe_pick_named("--model", optarg, 0,
			    gen_model_name);
			break;
		case OPT_NAME:
			jo.name = optarg;
			break;
		case OPT_NNZ:
			o->nnz = parse_count("--nnz", optarg);
			o->has_nnz = true;
			break;
		case OPT_PERMUTE:
			o->permute = true;
			break;
		case OPT_SEED:
			o->seed = gp.vo.seed = fe_parse_seed("--seed", optarg);
			break;
		case OPT_SORT_ORDER:
			parse_prio(o, optarg);
			break;
		case OPT_SORTED:
			o->sorted = true;
			break;
		case OPT_SOURCE_URL:
			jo.source_url = optarg;
			break;
		case OPT_SYMMETRIC:
			o->symmetric = true;
			break;
		case OPT_TEXT:
			jo.want_text = true;
			break;
		case OPT_TIME:
			jo.time = optarg;
			break;
		case OPT_TO:
			jo.to = fe_pick_kind("--to", optarg, true);
			break;
		case OPT_VTYPE:
			gp.vtype = fe_pick_vtype("--value-type", optarg);
			break;
		case FE_OPT_VALUE:
			fe_value_opt(&gp.vo, longopts[li].name, optarg);
			gp.values = true;
			break;
		case OPT_CONFIG:
			config = optarg;
			break;
		default:
			usage(stderr);
			fe_try_help();
			return TS_EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		fe_usage_error("give one tensor at most");
	o->src = argc == 1 ? argv[0] : NULL;
	if (config != NULL) {
		if (modelopt != NULL || argc > 0)
			fe_usage_error("--config gives the model and its "
			    "parameters: no '%s%s'", argc > 0 ? "" : "--",
			    argc > 0 ? argv[0] : modelopt);
		if ((rv = read_config(&gp, &jo, config, quiet)) != 0) {
			gen_part_free(&gp);
			free(command);
			return rv;
		}
	}
	check(&gp, &jo, argc);
	if (jo.dst == NULL)
		jo.dst = "-";
	/* A bundle gets both data files unless told (a configuration
	 * always tells), as the reference's
	 * generators write them; a pattern its text file only, which any
	 * reader takes (a binary file without values is this toolkit's
	 * alone).  The entries are named by the model in messages. */
	if (!jo.want_text && !jo.want_binary) {
		jo.want_text = true;
		jo.want_binary = gp.values || o->dups == GEN_SUM;
	}
	jo.src = config != NULL ? config : gen_models[o->model]->name;
	fe_progress_init(quiet || (strcmp(jo.dst, "-") == 0 &&
	    isatty(STDOUT_FILENO)));
	if (o->einsum != NULL || o->has_counts)
		rv = run_pair(&gp, &jo, quiet);
	else
		rv = fe_run_job(&jo, quiet);
	gen_part_free(&gp);
	free(command);
	return fe_close_stdout(rv);
}
