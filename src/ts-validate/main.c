/*
 * ts-validate - check TensorSuite bundles, and lone data files, against
 * every rule of the format; made for CI: collections (-r), operands in
 * parallel (-j) with output in operand order, and reports for people,
 * jq, GitHub and JUnit readers.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"
#include "operand.h"
#include "util/xalloc.h"

enum { OPT_CHECKSUMS = 256, OPT_FORMAT, OPT_JSON, OPT_META, OPT_QUICK,
	OPT_REQUIRE };

static const struct option longopts[] = {
	{ "buffer-size",	required_argument,	NULL, 'S' },
	{ "checksums",		required_argument,	NULL, OPT_CHECKSUMS },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "help",		no_argument,		NULL, 'h' },
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "max-per-rule",	required_argument,	NULL, 'm' },
	{ "meta",		required_argument,	NULL, OPT_META },
	{ "quick",		no_argument,		NULL, OPT_QUICK },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "recursive",		no_argument,		NULL, 'r' },
	{ "require-checksums",	no_argument,		NULL, OPT_REQUIRE },
	{ "strict",		no_argument,		NULL, 's' },
	{ "temporary-directory", required_argument,	NULL, 'T' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static const char *const formats[] = { "text", "json", "github", "junit",
    NULL };

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-hqrsV] [--format FMT] [--json] [--quick] "
	    "[-j N] [-m N]\n                   [--meta FILE] [-S SIZE] "
	    "[-T DIR] PATH ...\n"
	    "       %s [options] [--require-checksums] --checksums FILE "
	    "[PATH ...]\n", fe_progname, fe_progname);
	if (fp != stdout) {
		fprintf(fp, "Try '%s --help'.\n", fe_progname);
		return;
	}
	fputs("Check TensorSuite bundles (a bundle directory or its "
	    "NAME_metadata.json),\nor lone data files (.tns, .tnsb, FROSTT, "
	    ".mtx, compressed or not; '-' is\nstandard input): against the "
	    "metadata beside them, --meta, or their header.\nAn archive's "
	    "members are checked against its SHA256SUMS.\n\n"
	    "      --checksums FILE  check the files FILE lists (sha256sum's "
	    "format,\n"
	    "                        paths from the current directory) and, "
	    "without PATH,\n"
	    "                        the bundles they are in\n"
	    "      --format FMT      text (default), json, github (workflow "
	    "commands)\n"
	    "                        or junit (one XML document)\n"
	    "  -h, --help            show this help and exit\n"
	    "  -j, --jobs N          check N operands at once (default 1); "
	    "output keeps\n"
	    "                        the operands' order\n"
	    "      --json            the same as --format json\n"
	    "  -m, --max-per-rule N  show at most N diagnostics per rule and "
	    "file\n"
	    "                        (default 20; 0 = all)\n"
	    "      --meta FILE       the metadata of lone data files\n"
	    "      --quick           check metadata and headers only; do not "
	    "read entries\n"
	    "  -q, --quiet           print nothing; the exit status tells\n"
	    "  -r, --recursive       a directory PATH stands for every bundle "
	    "below it\n"
	    "      --require-checksums  an archive without SHA256SUMS is an "
	    "error, not a note\n"
	    "  -s, --strict          treat warnings as errors\n", fp);
	fprintf(fp, "  -S, --buffer-size SIZE  memory for the checks that sort the "
	    "entries\n"
	    "                        (repeats in unsorted input, symmetry, "
	    "density),\n"
	    "                        e.g. 64M, 2G, or a percentage of the "
	    "memory it may\n"
	    "                        use: the least of RAM, the cgroup's "
	    "memory.max,\n"
	    "                        RLIMIT_AS and RLIMIT_DATA; default 25%%, "
	    "shared by -j,\n"
	    "                        %s\n", fe_mem_default("25%"));
	fputs("  -T, --temporary-directory DIR  where their runs spill "
	    "(default: $TMPDIR\n"
	    "                        or /tmp)\n"
	    "  -V, --version         show the version and exit\n\n"
	    "Exit status: 0 valid, 1 invalid, 2 usage error, 3 I/O error.\n"
	    "With several operands, the worst of theirs.\n", fp);
}

/* ---- operands, one after another or N at once ---- */

struct pool {
	char			**paths;
	struct ts_diags		**why;	/* why -r found nothing, or NULL */
	struct result		*res;
	bool			*done;
	size_t			 n, next;
	const struct opts	*o;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
};

/* Check operand i; or, for a directory -r found nothing to check in,
 * make its result of why, so that every format says it. */
static void
check(struct pool *p, size_t i)
{
	struct result *r = &p->res[i];

	if (p->why[i] == NULL) {
		check_operand(p->paths[i], p->o, r);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->path = ts_xstrdup(p->paths[i]);
	r->d = p->why[i];
	p->why[i] = NULL;
	r->valid = ts_diags_errors(r->d) == 0;
	r->status = ts_diags_status(r->d);
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->n)
			return NULL;
		check(p, i);
		pthread_mutex_lock(&p->mu);
		p->done[i] = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Check every operand, reporting each in order as soon as it and the
 * ones before it are done. */
static void
run(struct pool *p, int jobs)
{
	pthread_t tid[64];
	int nt = 0, t;
	size_t i;

	if (jobs > 1) {
		pthread_mutex_init(&p->mu, NULL);
		pthread_cond_init(&p->cv, NULL);
		for (t = 0; t < jobs && (size_t)t < p->n; t++)
			if (pthread_create(&tid[nt], NULL, worker, p) == 0)
				nt++;
	}
	for (i = 0; i < p->n; i++) {
		if (nt == 0)
			check(p, i);
		else {
			pthread_mutex_lock(&p->mu);
			while (!p->done[i])
				pthread_cond_wait(&p->cv, &p->mu);
			pthread_mutex_unlock(&p->mu);
		}
		report(&p->res[i], p->o);
	}
	for (t = 0; t < nt; t++)
		pthread_join(tid[t], NULL);
	if (nt > 0) {
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->cv);
	}
}

int
main(int argc, char *argv[])
{
	struct opts o = { FMT_TEXT, false, false, false, false, 20, NULL, 1, 0,
	    NULL, NULL };
	struct ts_diags *sums = NULL;
	char **dirs = NULL;
	size_t ndirs = 0;
	bool sized = false;
	struct pool p;
	size_t i;
	int ch, rv = TS_EXIT_OK;
	char *end;
	long n;

	fe_init("ts-validate");
	while ((ch = getopt_long(argc, argv, "hj:m:qrsS:T:V", longopts, NULL)) !=
	    -1)
		switch (ch) {
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'j':
			n = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || n < 1 ||
			    n > 64) {
				fe_warnx("-j: '%s' is not a count of jobs "
				    "(1..64)", optarg);
				usage(stderr);
				return TS_EXIT_USAGE;
			}
			o.jobs = (int)n;
			break;
		case 'm':
			o.max_per_rule = (size_t)strtoull(optarg, &end, 10);
			if (*optarg == '\0' || *optarg == '-' || *end != '\0') {
				fe_warnx("-m: '%s' is not a count", optarg);
				usage(stderr);
				return TS_EXIT_USAGE;
			}
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'r':
			o.recursive = true;
			break;
		case 's':
			o.strict = true;
			break;
		case 'S':
			o.mem_limit = fe_parse_size("-S", optarg);
			sized = true;
			break;
		case 'T':
			o.tmpdir = optarg;
			break;
		case 'V':
			return fe_version();
		case OPT_FORMAT:
			o.format = (enum format)fe_pick("--format", optarg,
			    formats);
			break;
		case OPT_JSON:
			o.format = FMT_JSON;
			break;
		case OPT_META:
			o.meta = optarg;
			break;
		case OPT_QUICK:
			o.quick = true;
			break;
		case OPT_CHECKSUMS:
			o.checksums = optarg;
			break;
		case OPT_REQUIRE:
			ts_archive_require_checksums(true);
			break;
		default:
			usage(stderr);
			return TS_EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	if (argc == 0 && o.checksums == NULL) {
		fe_warnx("no bundle given");
		usage(stderr);
		return TS_EXIT_USAGE;
	}
	fe_stdin_once(o.meta, argc, argv);
	/* The memory of the sorts is shared by the operands at once. */
	if (!sized)
		o.mem_limit = fe_default_size("-S", "25%");
	o.mem_limit /= (size_t)o.jobs;
	/* One progress line cannot tell of several operands at once. */
	fe_progress_init(o.quiet || o.jobs > 1);
	memset(&p, 0, sizeof(p));
	p.o = &o;
	/* The checksums first: their folders are the operands when none
	 * is given, and their report comes first, under FILE. */
	if (o.checksums != NULL)
		check_sums(o.checksums, &o, &sums, &dirs, &ndirs);
	if (argc > 0 || sums == NULL)
		p.n = fe_operands(argc, argv, o.recursive, o.max_per_rule,
		    o.strict, &p.paths, &p.why);
	else
		p.n = fe_operands((int)ndirs, dirs, false, o.max_per_rule,
		    o.strict, &p.paths, &p.why);
	if (sums != NULL) {
		p.paths = ts_xreallocarray(p.paths, p.n + 1, sizeof(*p.paths));
		p.why = ts_xreallocarray(p.why, p.n + 1, sizeof(*p.why));
		memmove(p.paths + 1, p.paths, p.n * sizeof(*p.paths));
		memmove(p.why + 1, p.why, p.n * sizeof(*p.why));
		p.paths[0] = ts_xstrdup(o.checksums);
		p.why[0] = sums;
		p.n++;
	}
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	p.res = ts_xcalloc(p.n ? p.n : 1, sizeof(*p.res));
	p.done = ts_xcalloc(p.n ? p.n : 1, sizeof(*p.done));
	report_start(&o);
	run(&p, o.jobs);
	report_end(p.res, p.n, &o);
	for (i = 0; i < p.n; i++) {
		if (result_status(&p.res[i]) > rv)
			rv = result_status(&p.res[i]);
		result_free(&p.res[i]);
		free(p.paths[i]);
	}
	free(p.paths);
	free(p.why);
	free(p.res);
	free(p.done);
	return fe_close_stdout(rv);
}
