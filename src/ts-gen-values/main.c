/*
 * ts-gen-values - give a value-less tensor values: each a pure function
 * of a seed and the entry's coordinates, inside every constraint its
 * metadata states.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "values.h"

enum {
	OPT_BLOCKS = 256, OPT_EXPAND, OPT_REPLACE, OPT_SEED, OPT_SYM, OPT_TO,
	OPT_VTYPE
};

static const struct option longopts[] = {
	{ "blocks-out",		required_argument,	NULL, OPT_BLOCKS },
	{ "expand",		no_argument,		NULL, OPT_EXPAND },
	{ "force",		no_argument,		NULL, 'f' },
	{ "help",		no_argument,		NULL, 'h' },
	FE_INPUT_LONGOPTS,
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "output",		required_argument,	NULL, 'o' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "replace",		no_argument,		NULL, OPT_REPLACE },
	{ "seed",		required_argument,	NULL, OPT_SEED },
	{ "symmetric-modes",	required_argument,	NULL, OPT_SYM },
	{ "to",			required_argument,	NULL, OPT_TO },
	FE_VALUE_LONGOPTS,
	{ "value-type",		required_argument,	NULL, OPT_VTYPE },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static void
usage(FILE *fp)
{
	char vt[FE_WORDS];

	fprintf(fp, "usage: %s [-fhqV] [--dist DIST] [--range LO:HI] [--mean "
	    "M] [--std S]\n                     [--value V] [--seed N] "
	    "[--expand] [--blocks-out FILE]\n                     [-j N] "
	    "[-o DST] [SRC]\n", fe_progname);
	if (fp != stdout)
		return;
	fputs("Give a value-less tensor values, each a pure function of the "
	    "seed and the\nentry's coordinates, inside every constraint of "
	    "its metadata.  SRC is a bundle\n(a directory or an archive), a "
	    ".tns or .tnsb file, or '-' (the default); DST\nas for ts-convert "
	    "(default '-').\n\n", fp);
	fe_output_help(fp, "SRC's kind");
	fputs("  -f, --force              replace an existing DST or FILE\n"
	    "Values:\n", fp);
	fe_value_usage(fp);
	fprintf(fp, "      --seed N             0 to 2^64-1 (default 0)\n"
	    "      --symmetric-modes M  groups of symmetric modes, e.g. 1,2 "
	    "or 1,2/3,4\n"
	    "      --value-type T       %s (default: metadata)\n"
	    "      --replace            replace the values SRC holds\n"
	    "Block tensors:\n"
	    "      --expand             write the elements of the blocks, "
	    "with values\n"
	    "      --blocks-out FILE    the blocks' dense values, first mode "
	    "fastest\n"
	    "Input:\n"
	    "      --member NAME        the bundle of an archive SRC that "
	    "holds several\n"
	    "      --require-checksums  an archive SRC without SHA256SUMS is "
	    "an error\n"
	    "      --meta FILE          attributes of a bare data file or "
	    "stream\n", fe_vtype_words(vt));
	fe_input_help(fp);
	fputs("  -j, --jobs N             threads (default: the CPUs it may use)\n"
	    "  -q, --quiet              no notes on stderr\n"
	    "  -h, --help               show this help and exit\n"
	    "  -V, --version            show the version and exit\n"
	    "\nExit status: 0 done, 1 the input was rejected, 2 usage error "
	    "(options that\nthe metadata does not allow), 3 I/O error.\n", fp);
}

/* "1,2/3,4": groups of modes, each mode in one group at most. */
static void
parse_groups(struct fe_genvalues_opts *g, const char *arg)
{
	uint64_t v[TS_MAXORDER];
	char buf[1024], *grp, *save = NULL;
	int i, n;

	snprintf(buf, sizeof(buf), "%s", arg);
	memset(g->group, 0, sizeof(g->group));
	g->ngroups = 0;
	for (grp = strtok_r(buf, "/", &save); grp != NULL;
	    grp = strtok_r(NULL, "/", &save)) {
		if ((n = fe_parse_list(grp, 1, TS_MAXORDER, v,
		    TS_MAXORDER)) < 2)
			goto bad;
		g->ngroups++;
		for (i = 0; i < n; i++) {
			if (g->group[v[i] - 1] != 0)
				goto bad;
			g->group[v[i] - 1] = g->ngroups;
		}
	}
	if (g->ngroups > 0 && strlen(arg) < sizeof(buf) &&
	    arg[strlen(arg) - 1] != '/')
		return;
bad:
	fe_usage_error("--symmetric-modes: '%s' is not groups of two or more "
	    "distinct modes, like 1,2 or 1,2/3,4", arg);
}

static char *command;	/* as typed, for the README */

int
main(int argc, char *argv[])
{
	struct values_part vp;
	struct fe_job_opts o;
	char *src[1];
	bool quiet = false;
	int ch, rv, li = 0;

	fe_init("ts-gen-values");
	fe_job_opts_init(&o);
	values_part_init(&vp);
	o.part = &vp.part;
	/* getopt_long reorders argv: keep the command as typed (in a
	 * static, so that it is not lost on the paths that exit). */
	command = fe_command_line(argc, argv);

	o.program = fe_progname;
	o.command = command;
	while ((ch = getopt_long(argc, argv, "fhj:o:qV", longopts, &li)) !=
	    -1)
		switch (ch) {
		case 'f':
			o.force = true;
			break;
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'j':
			o.threads = fe_parse_jobs(optarg);
			break;
		case 'o':
			o.dst = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'V':
			return fe_version();
		case OPT_BLOCKS:
			vp.blocks_out = optarg;
			break;
		case OPT_EXPAND:
			vp.expand = true;
			break;
		case OPT_TO:
			o.to = fe_pick_kind("--to", optarg, true);
			break;
		case OPT_VTYPE:
			o.out_vtype = fe_pick_vtype("--value-type", optarg);
			break;
		case OPT_REPLACE:
			vp.o.replace = true;
			break;
		case OPT_SEED:
			vp.o.seed = fe_parse_seed("--seed", optarg);
			break;
		case OPT_SYM:
			parse_groups(&vp.o, optarg);
			break;
		case FE_OPT_INPUT:
			fe_input_opt(&o, longopts[li].name, optarg);
			break;
		case FE_OPT_VALUE:
			fe_value_opt(&vp.o, longopts[li].name, optarg);
			break;
		default:
			usage(stderr);
			fe_try_help();
			return TS_EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	o.src = fe_filter_src(argc, argv, usage);
	/* --blocks-out alone writes that file only. */
	if (o.dst == NULL && (vp.blocks_out == NULL || vp.expand))
		o.dst = "-";
	src[0] = (char *)o.src;
	fe_stdin_once(o.meta, 1, src);
	fe_stdout_once(o.dst, vp.blocks_out);
	/* No progress line among entries written to a terminal. */
	fe_progress_init(quiet || ((o.dst == NULL || strcmp(o.dst, "-") ==
	    0) && isatty(STDOUT_FILENO)));
	rv = fe_run_job(&o, quiet);
	free(command);
	return fe_close_stdout(rv);
}
