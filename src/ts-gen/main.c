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
#include "util/path.h"
#include "util/xalloc.h"

static const struct option longopts[] = {
	{ "alpha",		required_argument,	NULL, OPT_ALPHA },
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
	{ "force",		no_argument,		NULL, 'f' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "high",		required_argument,	NULL, OPT_HIGH },
	{ "index-type",		required_argument,	NULL, OPT_INDEX_TYPE },
	{ "input-base",		required_argument,	NULL, OPT_INPUT_BASE },
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "label-partition-size", required_argument,	NULL, OPT_LABEL_PSIZE },
	{ "label-partitions",	required_argument,	NULL, OPT_LABEL_PARTS },
	{ "levels",		required_argument,	NULL, OPT_LEVELS },
	{ "low",		required_argument,	NULL, OPT_LOW },
	{ "model",		required_argument,	NULL, OPT_MODEL },
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
	{ "symmetric",		no_argument,		NULL, OPT_SYMMETRIC },
	{ "temporary-directory", required_argument,	NULL, 'T' },
	FE_VALUE_LONGOPTS,
	FE_OUTPUT_LONGOPTS,
	{ "value-type",		required_argument,	NULL, OPT_VTYPE },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static void
usage(FILE *fp)
{
	char vt[FE_WORDS];

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
	fprintf(fp, "      --value-type T       %s (default float64)\n"
	    "Output:\n", fe_vtype_words(vt));
	fe_output_help(fp, "text");
	fputs("      --text, --binary     data files of an output bundle "
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

/* --config FILE: its request, its messages printed as they come;
 * the exit status. */
static int
read_config(struct gen_part *gp, struct fe_job_opts *jo, const char *path,
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
 * x_A.tar.zst, x.tns.gz -> x_A.tns.gz (malloc'd); the suffixes are the
 * archives' and the formats' tables'. */
static char *
operand_dst(const char *dst, char op)
{
	size_t n = strlen(dst), cut, stem;
	char *name, *out;

	while (n > 1 && dst[n - 1] == '/')
		n--;
	name = ts_xasprintf("%.*s", (int)n, dst);
	cut = n;
	if (ts_compress_of(name) >= 0) {
		char *t = ts_archive_stem(name);

		cut = (size_t)(ts_basename(name) - name) + strlen(t);
		free(t);
	} else if (ts_kind_of_path(name, &stem) >= 0)
		cut = stem;
	out = ts_xasprintf("%.*s_%c%s", (int)cut, name, op, name + cut);
	free(name);
	return out;
}

/*
 * --einsum, --counts: the operand A into DST_A, then B into DST_B, the
 * model set up once (its labels and their partitions shared).  Both
 * are refused before either is written when one exists and -f was not
 * given.
 */
static int
run_pair(struct gen_part *gp, struct fe_job_opts *jo, bool quiet)
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

/* May output option name (FE_OUTPUT_LONGOPTS) come with --config, which
 * says everything else? */
static bool
beside_config(const char *name)
{
	static const char *const ok[] = { "to", "group", "id", "time",
	    "source-url" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strcmp(name, ok[i]) == 0)
			return true;
	return false;
}

int
main(int argc, char *argv[])
{
	struct fe_job_opts jo;
	struct gen_part gp;
	struct gen_opts *o = &gp.g.o;
	const char *config = NULL, *modelopt = NULL;
	bool quiet = false;
	int ch, rv, li = 0;

	fe_init("ts-gen");
	fe_job_opts_init(&jo);
	gen_part_init(&gp);
	gen_opts_init(&gp);
	command = fe_command_line(argc, argv);
	jo.program = fe_progname;
	jo.command = command;
	jo.part = &gp.part;
	while ((ch = getopt_long(argc, argv, "fhj:o:qS:T:V", longopts,
	    &li)) != -1) {
		/* What a configuration file says, the command line may not
		 * say too. */
		if (modelopt == NULL && ch >= OPT_ALPHA && ch != OPT_CONFIG &&
		    !(ch == FE_OPT_OUTPUT && beside_config(longopts[li].name)))
			modelopt = longopts[li].name;
		if (gen_option(&gp, ch, longopts[li].name, optarg))
			continue;
		switch (ch) {
		case FE_OPT_OUTPUT:
			fe_output_opt(&jo, longopts[li].name, optarg);
			break;
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
			jo.mem_limit = o->mem_limit = fe_parse_size("-S",
			    optarg);
			break;
		case 'T':
			jo.tmpdir = o->tmpdir = optarg;
			break;
		case 'V':
			return fe_version();
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
	gen_check(&gp, &jo, argc);
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
