/*
 * ts-convert - convert sparse tensors between TensorSuite bundles, .tns
 * and .tnsb data files, FROSTT .tns and Matrix Market .mtx.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fe.h"
#include "job/job.h"
#include "model/model.h"

enum {
	OPT_DIMS = 256, OPT_DUPS, OPT_E16, OPT_EXPAND, OPT_FROM,
	OPT_INDEX_TYPE, OPT_MTX_GENERAL, OPT_SOURCE, OPT_SOURCE_TYPE,
	OPT_UPGRADE, OPT_VALUE_TYPE
};

static const struct option longopts[] = {
	{ "buffer-size",	required_argument,	NULL, 'S' },
	{ "dims",		required_argument,	NULL, OPT_DIMS },
	{ "duplicates",		required_argument,	NULL, OPT_DUPS },
	{ "e16",		no_argument,		NULL, OPT_E16 },
	{ "expand",		no_argument,		NULL, OPT_EXPAND },
	{ "force",		no_argument,		NULL, 'f' },
	{ "from",		required_argument,	NULL, OPT_FROM },
	{ "help",		no_argument,		NULL, 'h' },
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "index-type",		required_argument,	NULL, OPT_INDEX_TYPE },
	FE_INPUT_LONGOPTS,
	FE_OUTPUT_LONGOPTS,
	{ "mtx-general",	no_argument,		NULL, OPT_MTX_GENERAL },
	{ "output",		required_argument,	NULL, 'o' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "source",		required_argument,	NULL, OPT_SOURCE },
	{ "source-type",	required_argument,	NULL, OPT_SOURCE_TYPE },
	{ "temporary-directory", required_argument,	NULL, 'T' },
	{ "upgrade",		no_argument,		NULL, OPT_UPGRADE },
	{ "value-type",		required_argument,	NULL, OPT_VALUE_TYPE },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static void
usage(FILE *fp)
{
	char from[FE_WORDS], to[FE_WORDS], sfx[FE_WORDS], vt[FE_WORDS];
	char text[3 * FE_WORDS];

	fprintf(fp, "usage: %s [options] SRC DST\n"
	    "       %s [options] SRC -o DST\n", fe_progname, fe_progname);
	if (fp != stdout)
		return;
	/* The kinds, suffixes and types from the library's tables. */
	fprintf(fp, "Convert a tensor between TensorSuite bundles (directories "
	    "or tar archives),\n.tns/.tnsb data files, FROSTT .tns, Matrix "
	    "Market .mtx, scipy's and numpy's\n.npz, binsparse's .bsp.npz and "
	    ".bsp.h5, SPLATT's and FROSTT's binary .bin,\nHiParTI's text.  "
	    "SRC or DST '-' is stdin or stdout.  DST's name tells its\nkind: "
	    "a bundle has no suffix, or .tar.zst (.tar.gz, .tar.xz, .tar) for "
	    "a\nbundle in an archive; files end in\n");
	snprintf(text, sizeof(text), "%s (possibly then .gz, .zst, .xz or "
	    ".bz2); else give --to.", fe_suffix_words(sfx));
	fe_help_wrap(fp, "", text);
	fprintf(fp, "\nInput:\n");
	snprintf(text, sizeof(text), "%s (default: detected)",
	    fe_kind_words(from, false, true));
	fe_help_wrap(fp, "      --from KIND", text);
	fprintf(fp, "      --member NAME        the bundle of an archive SRC that "
	    "holds several\n"
	    "      --require-checksums  an archive SRC without SHA256SUMS is "
	    "an error\n"
	    "      --meta FILE          attributes of a bare data file or "
	    "stream\n"
	    "      --upgrade            SRC, a bundle of the reference's older "
	    "metadata\n"
	    "                           (numeric id, 0-based sort_order, "
	    "missing keys),\n"
	    "                           made 0.1, each change a note\n");
	fe_input_help(fp);
	fprintf(fp, "      --dims D1,...,DN     dimensions of a FROSTT input\n"
	    "Output:\n"
	    "  -o, --output DST         write to DST (instead of the second "
	    "operand)\n");
	snprintf(text, sizeof(text), "%s (default: from DST's name)",
	    fe_kind_words(to, true, true));
	fe_help_wrap(fp, "      --to KIND", text);
	fprintf(fp,
	    "      --text, --binary     data files of an output bundle\n"
	    "      --index-base 0|1     index base of the output\n"
	    "      --index-type T       uint32 or uint64\n"
	    "      --value-type T       %s\n"
	    "      --endian E           little or big\n"
	    "      --e16                write float values as %%.16e, like "
	    "the reference\n"
	    "      --mtx-general        Matrix Market: every entry, never "
	    "one triangle of a\n"
	    "                           symmetric or skew-symmetric matrix\n"
	    "      --duplicates POLICY  repeated coordinates in an output of "
	    "unique entries\n"
	    "                           (binsparse, .npz): sum, first, last or "
	    "error (the\n"
	    "                           default, which refuses them)\n"
	    "      --expand             a block tensor's elements, without "
	    "values, for an\n"
	    "                           output that holds no blocks, or not "
	    "blocks of\n"
	    "                           several shapes (binsparse)\n",
	    fe_vtype_words(vt));
	snprintf(text, sizeof(text), "memory to sort the entries of such an "
	    "output, and for the arrays a format writes at its end, e.g. "
	    "256M, 2G, or a percentage of the memory it may use: the least of "
	    "RAM, the cgroup's memory.max, RLIMIT_AS and RLIMIT_DATA; default "
	    "25%%, %s", fe_mem_default("25%"));
	fe_help_wrap(fp, "  -S, --buffer-size SIZE", text);
	fe_help_wrap(fp, "  -T, --temporary-directory DIR", "where they spill, "
	    "and where a pipe read twice is copied (default: $TMPDIR or "
	    "/tmp)");
	fprintf(fp,
	    "  -f, --force              replace an existing DST\n"
	    "Descriptive metadata of an output bundle:\n"
	    "      --name NAME, --group G, --id NNNN, --time YYYY-MM-DD,\n"
	    "      --source S, --source-url URL, --source-type "
	    "synthetic|real\n"
	    "Other:\n"
	    "  -q, --quiet              no notes on stderr\n"
	    "  -j, --jobs N             threads that parse text and compress an "
	    "archive DST\n"
	    "                           (default: the CPUs it may use; 4 at most "
	    "parse)\n"
	    "  -h, --help               show this help and exit\n"
	    "  -V, --version            show the version and exit\n"
	    "\nExit status: 0 done, 1 the input was rejected, 2 usage "
	    "error, 3 I/O error.\n");
}


int
main(int argc, char *argv[])
{
	struct fe_job_opts o;
	int ch, rv, li = 0;
	bool quiet = false;

	fe_init("ts-convert");
	fe_job_opts_init(&o);
	o.expand = 0;
	/* getopt_long reorders argv: keep the command as typed. */
	char *typed[argc + 1], *command;
	int nargs = argc;

	o.program = fe_progname;
	memcpy(typed, argv, ((size_t)argc + 1) * sizeof(*argv));
	while ((ch = getopt_long(argc, argv, "fhj:o:qS:T:V", longopts,
	    &li)) != -1)
		switch (ch) {
		case 'f':
			o.force = true;
			break;
		case 'j':
			o.threads = fe_parse_jobs(optarg);
			break;
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'o':
			o.dst = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'S':
			o.mem_limit = fe_parse_size("-S", optarg);
			break;
		case 'T':
			o.tmpdir = optarg;
			break;
		case 'V':
			return fe_version();
		case OPT_DIMS:
			if ((o.ndims = fe_parse_list(optarg, 1, UINT64_MAX,
			    o.dims, TS_MAXORDER)) < 0)
				fe_usage_error("--dims: '%s' is not a list of "
				    "positive integers D1,...,DN", optarg);
			break;
		case OPT_DUPS:
			o.dups = fe_pick_unique_policy("--duplicates", optarg);
			break;
		case OPT_E16:
			o.e16 = true;
			break;
		case OPT_EXPAND:
			o.expand = 1;
			break;
		case OPT_FROM:
			o.from = fe_pick_kind("--from", optarg, false);
			break;
		case OPT_INDEX_TYPE:
			o.out_itype = fe_pick_itype("--index-type", optarg);
			break;
		case FE_OPT_INPUT:
			fe_input_opt(&o, longopts[li].name, optarg);
			break;
		case FE_OPT_OUTPUT:
			fe_output_opt(&o, longopts[li].name, optarg);
			break;
		case OPT_MTX_GENERAL:
			o.mtx_general = true;
			break;
		case OPT_SOURCE:
			o.source = optarg;
			break;
		case OPT_SOURCE_TYPE:
			fe_pick("--source-type", optarg, ts_srctype_names);
			o.source_type = optarg;
			break;
		case OPT_UPGRADE:
			o.upgrade = true;
			break;
		case OPT_VALUE_TYPE:
			o.out_vtype = fe_pick_vtype("--value-type", optarg);
			break;
		default:
			usage(stderr);
			fe_try_help();
			return TS_EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	/* SRC DST, as cp(1) takes them, or SRC -o DST. */
	if (argc == 2 && o.dst == NULL)
		o.dst = argv[1];
	else if (argc != 1 || o.dst == NULL) {
		fe_warnx("%s", argc == 0 ? "give SRC and DST" :
		    argc == 1 ? "give DST after SRC, or with -o" :
		    argc == 2 ? "give DST once: after SRC or with -o" :
		    "give one SRC and one DST");
		usage(stderr);
		fe_try_help();
		return TS_EXIT_USAGE;
	}
	o.src = argv[0];
	/* No progress line among entries written to a terminal. */
	fe_progress_init(quiet || ((o.dst == NULL || strcmp(o.dst, "-") ==
	    0) && isatty(STDOUT_FILENO)));
	command = fe_command_line(nargs, typed);
	o.command = command;
	rv = fe_run_job(&o, quiet);
	free(command);
	return fe_close_stdout(rv);
}
