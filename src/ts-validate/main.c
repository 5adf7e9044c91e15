/*
 * ts-validate - check TensorSuite bundles against every rule of the
 * format.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fe.h"
#include "util/progress.h"

enum { OPT_JSON = 256, OPT_QUICK };

static const struct option longopts[] = {
	{ "help",		no_argument,		NULL, 'h' },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "max-per-rule",	required_argument,	NULL, 'm' },
	{ "quick",		no_argument,		NULL, OPT_QUICK },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "strict",		no_argument,		NULL, 's' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

struct opts {
	bool	json, quick, quiet, strict;
	size_t	max_per_rule;
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-hqsV] [--json] [--quick] [-m N] PATH ...\n",
	    fe_progname);
	if (fp != stdout)
		return;
	fputs("Check TensorSuite bundles (a bundle directory or its "
	    "NAME_metadata.json).\n\n"
	    "  -h, --help            show this help and exit\n"
	    "      --json            print one JSON report per PATH, one per "
	    "line\n"
	    "  -m, --max-per-rule N  show at most N diagnostics per rule and "
	    "file\n"
	    "                        (default 20; 0 = all)\n"
	    "      --quick           check metadata and headers only; do not "
	    "read entries\n"
	    "  -q, --quiet           print nothing; the exit status tells\n"
	    "  -s, --strict          treat warnings as errors\n"
	    "  -V, --version         show the version and exit\n\n"
	    "Exit status: 0 valid, 1 invalid, 2 usage error, 3 I/O error.\n",
	    fp);
}

static void
print_report(const char *path, const struct ts_bundle *bd,
    const struct ts_diags *d, const struct opts *o, bool valid)
{
	const char *name = bd != NULL ? ts_bundle_name(bd) : NULL;
	size_t ne = ts_diags_count(d, TS_ERROR);
	size_t nw = ts_diags_count(d, TS_WARNING);

	ts_progress_clear();	/* the report may go to the terminal too */
	if (o->quiet)
		return;
	if (o->json) {
		json_t *p = json_string(path);
		char *ps = p ? json_dumps(p, JSON_ENCODE_ANY) : NULL;
		json_t *n = name ? json_string(name) : NULL;
		char *ns = n ? json_dumps(n, JSON_ENCODE_ANY) : NULL;

		printf("{\"path\": %s, \"name\": %s, \"valid\": %s, "
		    "\"errors\": %zu, \"warnings\": %zu, \"notes\": %zu, "
		    "\"quick\": %s, \"diagnostics\": ", ps ? ps : "null",
		    ns ? ns : "null", valid ? "true" : "false", ne, nw,
		    ts_diags_count(d, TS_NOTE), o->quick ? "true" : "false");
		ts_diags_print_json(d, stdout);
		printf(", \"suppressed\": %zu}\n", ts_diags_suppressed(d));
		free(ps);
		free(ns);
		json_decref(p);
		json_decref(n);
		return;
	}
	fflush(stdout);
	ts_diags_print(d, stderr, fe_progname);
	printf("%s: %s (%zu error%s, %zu warning%s)\n", path,
	    valid ? "valid" : "invalid", ne, ne == 1 ? "" : "s", nw,
	    nw == 1 ? "" : "s");
}

/* Validate one operand; returns its exit status. */
static int
validate(const char *path, const struct opts *o)
{
	struct ts_check_opts co = { o->quick };
	struct ts_diags *d = ts_diags_new(o->max_per_rule, o->strict);
	struct ts_bundle *bd;
	bool valid;
	int rv;

	if ((bd = ts_bundle_open(path, d)) != NULL)
		ts_check_bundle(bd, &co, d);
	valid = ts_diags_errors(d) == 0;
	print_report(path, bd, d, o, valid);
	rv = ts_diags_status(d);
	ts_bundle_free(bd);
	ts_diags_free(d);
	return rv;
}

int
main(int argc, char *argv[])
{
	struct opts o = { false, false, false, false, 20 };
	int ch, i, rv = TS_EXIT_OK, r;
	char *end;

	fe_init("ts-validate");
	while ((ch = getopt_long(argc, argv, "hm:qsV", longopts, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'm':
			o.max_per_rule = (size_t)strtoull(optarg, &end, 10);
			if (*optarg == '\0' || *optarg == '-' || *end != '\0') {
				fe_warnx("-m: '%s' is not a count", optarg);
				return TS_EXIT_USAGE;
			}
			break;
		case 'q':
			o.quiet = true;
			break;
		case 's':
			o.strict = true;
			break;
		case 'V':
			return fe_version();
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_QUICK:
			o.quick = true;
			break;
		default:
			usage(stderr);
			return TS_EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	fe_progress_init(o.quiet);
	if (argc == 0) {
		fe_warnx("no bundle given");
		usage(stderr);
		return TS_EXIT_USAGE;
	}
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			fe_warnx("'-': a bundle is several files and cannot "
			    "come from standard input");
			r = TS_EXIT_USAGE;
		} else
			r = validate(argv[i], &o);
		if (r > rv)
			rv = r;
	}
	return fe_close_stdout(rv);
}
