/*
 * ts-sort - sort the entries of a TensorSuite tensor by its coordinates,
 * in memory or in runs spilled to disk and merged.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sort.h"

enum {
	OPT_DUPS = 256, OPT_TO
};

static const struct option longopts[] = {
	{ "buffer-size",	required_argument,	NULL, 'S' },
	{ "check",		no_argument,		NULL, 'c' },
	{ "duplicates",		required_argument,	NULL, OPT_DUPS },
	{ "force",		no_argument,		NULL, 'f' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "in-place",		no_argument,		NULL, 'i' },
	FE_INPUT_LONGOPTS,
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "key",		required_argument,	NULL, 'k' },
	{ "output",		required_argument,	NULL, 'o' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "temporary-directory", required_argument,	NULL, 'T' },
	{ "to",			required_argument,	NULL, OPT_TO },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-fhiqV] [-k MODES] [--duplicates POLICY] "
	    "[-S SIZE] [-T DIR] [-j N]\n               [-o DST] [SRC]\n"
	    "       %s -c [-q] [-k MODES] [--duplicates error] [SRC]\n",
	    fe_progname, fe_progname);
	if (fp != stdout)
		return;
	fputs("Sort a tensor's entries by their coordinates (a stable sort).  "
	    "SRC is a bundle\n(a directory or an archive), a .tns or .tnsb "
	    "file, or '-' (the default); DST\nas for ts-convert (default "
	    "'-').\n\n"
	    "  -c, --check              only tell whether SRC is sorted (exit "
	    "0) or not (1),\n"
	    "                           naming the first entry out of order\n"
	    "  -k, --key MODES          mode priority, 1-based, e.g. 3,1,2 "
	    "(default: the\n"
	    "                           metadata's sort_order, else 1..N)\n"
	    "      --duplicates POLICY  keep, sum, first, last or error "
	    "(default keep)\n", fp);
	fe_output_help(fp, "SRC's kind");
	fputs("  -i, --in-place           rewrite the bundle SRC, atomically\n"
	    "  -f, --force              replace an existing DST\n", fp);
	fprintf(fp, "  -S, --buffer-size SIZE   memory for entries, e.g. 256M, "
	    "2G, or a percentage of\n"
	    "                           the memory it may use: the least of "
	    "RAM, the cgroup's\n"
	    "                           memory.max, RLIMIT_AS and RLIMIT_DATA; "
	    "default 25%%,\n"
	    "                           %s\n", fe_mem_default("25%"));
	fputs("  -T, --temporary-directory DIR  where runs spill (default: "
	    "$TMPDIR or /tmp)\n"
	    "  -j, --jobs N             threads to parse and sort (default: "
	    "the CPUs it may\n"
	    "                           use; 4 at most parse)\n"
	    "      --member NAME        the bundle of an archive SRC that "
	    "holds several\n"
	    "      --require-checksums  an archive SRC without SHA256SUMS is "
	    "an error\n"
	    "      --meta FILE          attributes of a bare data file or "
	    "stream\n", fp);
	fe_input_help(fp);
	fputs("  -q, --quiet              no notes on stderr\n"
	    "  -h, --help               show this help and exit\n"
	    "  -V, --version            show the version and exit\n"
	    "\nExit status: 0 done, 1 the input was rejected (or repeats with "
	    "--duplicates\nerror, or with -c is not sorted), 2 usage error, "
	    "3 I/O error.\n", fp);
}

/* -k 3,1,2: distinct 1-based modes, kept 0-based. */
static void
parse_key(struct sort_part *p, const char *arg)
{
	uint64_t v[TS_MAXORDER];
	bool seen[TS_MAXORDER] = { false };
	int i, n = fe_parse_list(arg, 1, TS_MAXORDER, v, TS_MAXORDER);

	for (i = 0; i < n; i++) {
		if (seen[v[i] - 1])
			break;
		seen[v[i] - 1] = true;
		p->prio[i] = (int)v[i] - 1;
	}
	/* What a GNU sort user types: a field range, or keys with flags. */
	if (n == 2 && v[0] == v[1])
		fe_usage_error("-k: '%s' is a field range of GNU sort; here -k "
		    "lists every mode once, most significant first: -k "
		    "%llu,... sorts by mode %llu, then the modes that follow",
		    arg, (unsigned long long)v[0], (unsigned long long)v[0]);
	if (n < 0 && strspn(arg, "0123456789,") != strlen(arg))
		fe_usage_error("-k: '%s' is not a list of modes like 3,1,2: "
		    "coordinates always compare as numbers, in increasing "
		    "order (no field ranges, columns or flags as in GNU sort)",
		    arg);
	if (n < 0 || i < n)
		fe_usage_error("-k: '%s' is not a list of distinct modes like "
		    "3,1,2", arg);
	p->nprio = n;
}

/* GNU sort's options that mean something else, or nothing, here. */
static void
gnu_hint(int opt)
{
	static const char *const hints[][2] = {
		{ "r", "no reverse order: coordinates sort in increasing "
		    "order" },
		{ "n", "coordinates always compare as numbers" },
		{ "u", "repeated coordinates: --duplicates first (or sum, "
		    "last, error)" },
		{ "s", "the sort is always stable" },
		{ "t", "rows are split at blanks; -k names modes, not "
		    "fields" },
	};
	size_t i;

	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		if (opt == hints[i][0][0])
			fe_warnx("-%c is an option of GNU sort: %s", opt,
			    hints[i][1]);
}


int
main(int argc, char *argv[])
{
	struct fe_job_opts o;
	struct sort_part sp;
	bool check = false, inplace = false, quiet = false;
	int ch, rv, li = 0;

	fe_init("ts-sort");
	fe_job_opts_init(&o);
	memset(&sp, 0, sizeof(sp));
	sp.dups = TS_DUP_KEEP;
	/* getopt_long reorders argv: keep the command as typed. */
	char *typed[argc + 1], *command;
	int nargs = argc;

	o.program = fe_progname;
	memcpy(typed, argv, ((size_t)argc + 1) * sizeof(*argv));
	while ((ch = getopt_long(argc, argv, "cfhij:k:o:qS:T:V", longopts,
	    &li)) != -1)
		switch (ch) {
		case 'c':
			check = true;
			break;
		case 'f':
			o.force = true;
			break;
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'i':
			inplace = true;
			break;
		case 'j':
			o.threads = fe_parse_jobs(optarg);
			break;
		case 'k':
			parse_key(&sp, optarg);
			break;
		case 'o':
			o.dst = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'S':
			o.mem_limit = sp.mem_limit = fe_parse_size("-S",
			    optarg);
			break;
		case 'T':
			o.tmpdir = optarg;
			break;
		case 'V':
			return fe_version();
		case OPT_DUPS:
			sp.dups = fe_pick_dup_policy("--duplicates", optarg);
			break;
		case FE_OPT_INPUT:
			fe_input_opt(&o, longopts[li].name, optarg);
			break;
		case OPT_TO:
			o.to = fe_pick_kind("--to", optarg, true);
			break;
		default:
			gnu_hint(optopt);
			usage(stderr);
			fe_try_help();
			return TS_EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	o.src = fe_filter_src(argc, argv, usage);
	if (check) {
		if (inplace || o.dst != NULL || o.to != FE_JOB_AUTO)
			fe_usage_error("-c only reads: no -i, -o or --to");
	}
	if (inplace) {
		if (o.dst != NULL || strcmp(o.src, "-") == 0)
			fe_usage_error("-i rewrites the bundle SRC: give a "
			    "bundle and no -o");
		o.dst = o.src;
		o.to = TS_KIND_BUNDLE;
		o.force = true;
		o.inplace = true;
	}
	/* -c reads SRC alone: no DST, and no memory to sort in. */
	if (o.dst == NULL && !check)
		o.dst = "-";
	if (sp.mem_limit == 0 && !check)
		sp.mem_limit = fe_default_size("-S", "25%");
	sort_part_init(&sp, check);
	o.part = &sp.part;
	/* No progress line among entries written to a terminal. */
	fe_progress_init(quiet || ((o.dst == NULL || strcmp(o.dst, "-") ==
	    0) && isatty(STDOUT_FILENO)));
	command = fe_command_line(nargs, typed);
	o.command = command;
	rv = fe_run_job(&o, quiet);
	free(command);
	return fe_close_stdout(rv);
}
