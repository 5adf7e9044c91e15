/*
 * ts-stat - what a tensor looks like: its statistics, and pictures of
 * it, for one bundle or a whole collection.  Each tensor is read once:
 * the checks of ts-validate and the statistics ride on the same pass
 * (the statistics are a stage of the checks' flow), so that a tensor
 * that breaks a rule is still described, with a warning naming it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stat.h"
#include "operand.h"
#include "util/escape.h"
#include "util/path.h"
#include "util/xalloc.h"

enum { OPT_CSV = 256, OPT_EXACT, OPT_FIBERS, OPT_FIT, OPT_JSON, OPT_META,
	OPT_PLOT, OPT_README, OPT_REQUIRE, OPT_SIZE };

static const struct option longopts[] = {
	{ "buffer-size",	required_argument,	NULL, 'S' },
	{ "csv",		no_argument,		NULL, OPT_CSV },
	{ "exact",		no_argument,		NULL, OPT_EXACT },
	{ "fibers",		no_argument,		NULL, OPT_FIBERS },
	{ "fit",		no_argument,		NULL, OPT_FIT },
	{ "force",		no_argument,		NULL, 'f' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "max-per-rule",	required_argument,	NULL, 'm' },
	{ "meta",		required_argument,	NULL, OPT_META },
	{ "plot",		required_argument,	NULL, OPT_PLOT },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "readme",		no_argument,		NULL, OPT_README },
	{ "recursive",		no_argument,		NULL, 'r' },
	{ "require-checksums",	no_argument,		NULL, OPT_REQUIRE },
	{ "size",		required_argument,	NULL, OPT_SIZE },
	{ "strict",		no_argument,		NULL, 's' },
	{ "temporary-directory", required_argument,	NULL, 'T' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-fhqrsV] [--json | --csv] [--fibers] [--fit] "
	    "[--exact] [--plot DIR]\n               [--size N] [--readme] [-m N] "
	    "[--meta FILE] [-S SIZE] [-T DIR]\n               PATH ...\n",
	    fe_progname);
	if (fp != stdout) {
		fe_try_help();
		return;
	}
	fputs("Describe TensorSuite tensors: shape, density, slices of each "
	    "mode, values,\norder and repeats, fibers, blocks; and draw them. "
	    "A PATH is a bundle, a\nlone data file (.tns, .tnsb, FROSTT, .mtx, "
	    "compressed or not), '-' for\nstandard input, or a tar archive of "
	    "bundles.\n\n"
	    "      --csv             one CSV row per tensor, after a header "
	    "line\n"
	    "      --exact           count modes of more than 2^26 slices, "
	    "and repeats,\n"
	    "                        through the sorter (else estimated)\n"
	    "  -f, --force           replace existing pictures\n"
	    "      --fit             each mode's slices' power law (Clauset, "
	    "Shalizi and Newman)\n"
	    "      --fibers          the fibers of each mode too (sorts the "
	    "entries)\n"
	    "  -h, --help            show this help and exit\n"
	    "      --json            one JSON object per tensor\n"
	    "  -m, --max-per-rule N  show at most N diagnostics per rule and "
	    "file\n"
	    "                        (default 20; 0 = all)\n"
	    "      --meta FILE       the metadata of lone data files\n"
	    "      --plot DIR        write the pictures (PNG) into DIR\n"
	    "  -q, --quiet           no notes or warnings on stderr\n"
	    "      --readme          add a Statistics section to each "
	    "bundle's README.md\n"
	    "  -r, --recursive       a directory PATH stands for every bundle "
	    "below it\n"
	    "      --require-checksums  an archive without SHA256SUMS is an "
	    "error, not a note\n"
	    "      --size N          pictures at most N pixels a side "
	    "(default 512)\n"
	    "  -s, --strict          treat warnings as errors\n", fp);
	fprintf(fp, "  -S, --buffer-size SIZE  memory for the sorts (--fibers, "
	    "--exact), e.g. 64M,\n"
	    "                        2G, or a percentage of the memory it may "
	    "use: the\n"
	    "                        least of RAM, the cgroup's memory.max, "
	    "RLIMIT_AS and\n"
	    "                        RLIMIT_DATA; default 25%%, %s\n",
	    fe_mem_default("25%"));
	fputs("  -T, --temporary-directory DIR  where their runs spill "
	    "(default: $TMPDIR\n"
	    "                        or /tmp)\n"
	    "  -V, --version         show the version and exit\n\n"
	    "Exit status: 0 valid, 1 invalid (its statistics are printed if "
	    "it could be\nread), 2 usage error, 3 I/O error; with several "
	    "operands, the worst.\n", fp);
}

/* ---- one tensor ---- */

static struct tensor *
tensor_new(const char *path, const struct opts *o)
{
	struct tensor *t = ts_xcalloc(1, sizeof(*t));
	struct fe_stats_opts so;
	int i;

	memset(&so, 0, sizeof(so));
	so.fibers = o->fibers;
	so.fit = o->fit;
	so.exact = o->exact;
	so.mem_limit = o->mem_limit;
	so.tmpdir = o->tmpdir;
	so.plot = o->plot != NULL ? o->size : 0;
	t->path = ts_xstrdup(path);
	t->d = ts_diags_new(o->max_per_rule, o->strict);
	fe_stats_init(&t->s, &so);
	for (i = 0; i < NFILES; i++)
		t->bytes[i] = -1;
	return t;
}

static void
tensor_free(struct tensor *t)
{
	size_t i;

	fe_stats_free(&t->s);
	ts_diags_free(t->d);
	for (i = 0; i < NFILES; i++)
		free(t->fname[i]);
	ts_bundle_out_abort(t->bo);
	for (i = 0; i < t->npics; i++) {
		free(t->pics[i]);
		free(t->pic_what[i]);
	}
	free(t->pics);
	free(t->pic_what);
	free(t->path);
	free(t->name);
	free(t->dir);
	free(t);
}

static void
check_opts(const struct opts *o, struct ts_check_opts *co)
{
	memset(co, 0, sizeof(*co));
	co->mem_limit = o->mem_limit;
	co->tmpdir = o->tmpdir;
}

/* The sizes of a bundle's files, once its checks have read it. */
static void
sizes(struct tensor *t, struct ts_bundle *bd)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	const char *f[NFILES];
	struct ts_file_stat fs;
	char *mf = ts_xasprintf("%s_metadata.json", ts_bundle_name(bd));
	int i;

	f[F_META] = mf;
	f[F_README] = m != NULL && m->f_readme != NULL ? m->f_readme :
	    "README.md";
	f[F_TEXT] = ts_bundle_data_file(bd, TS_KIND_TEXT);
	f[F_BINARY] = ts_bundle_data_file(bd, TS_KIND_BINARY);
	for (i = 0; i < NFILES; i++)
		if (f[i] != NULL && ts_bundle_stat(bd, f[i], &fs) == 0 &&
		    fs.regular) {
			t->fname[i] = ts_xstrdup(f[i]);
			t->bytes[i] = fs.size;
		}
	free(mf);
}

/* Done with t: its statistics completed, its pictures and README
 * written, reported; the worst status so far. */
static int
finish(struct tensor *t, const struct opts *o, int rv)
{
	int st;

	fe_stats_end(&t->s, t->d);
	fe_verdict_of(t->d, &t->v);
	if (t->s.complete && o->plot != NULL)
		plot(t, o);
	if (t->s.complete && o->readme)
		readme(t, o);
	report(t, o);
	st = ts_diags_status(t->d);
	tensor_free(t);
	return st > rv ? st : rv;
}

/* The name of a lone file's tensor: its metadata's, or its stem. */
static char *
stem(const char *path)
{
	static const char *const ext[] = { ".gz", ".zst", ".xz", ".bz2",
	    ".tnsb", ".tns", ".mtx", ".txt", NULL };
	char *s = ts_xstrdup(strcmp(path, "-") == 0 ? "stdin" :
	    ts_basename(path));
	size_t n;
	int i;

	for (i = 0; ext[i] != NULL; i++)
		if (ts_has_suffix(s, ext[i]) && (n = strlen(s) -
		    strlen(ext[i])) > 0)
			s[n] = '\0';
	return s;
}

static int
archive(const char *path, const struct opts *o, int rv)
{
	struct ts_diags *ad = ts_diags_new(o->max_per_rule, o->strict);
	struct ts_check_opts co;
	struct ts_bundles *bs;
	struct ts_bundle *bd;
	struct tensor *t, **v = NULL;
	size_t n = 0, i;
	int st;

	check_opts(o, &co);
	if ((bs = ts_bundles_open(path, o->tmpdir, ad)) != NULL) {
		/* A bundle's record carries what the manifest says of its
		 * files, known at the archive's end: the records wait. */
		ts_bundles_split(bs);
		for (;;) {
			t = tensor_new(path, o);
			if ((bd = ts_bundles_next(bs, NULL, t->d)) == NULL) {
				tensor_free(t);
				break;
			}
			free(t->path);
			t->path = ts_xasprintf("%s:%s", strcmp(path, "-") ?
			    path : "<stdin>", ts_bundle_name(bd));
			t->name = ts_xstrdup(ts_bundle_name(bd));
			fe_stats_bundle(bd, &co, &t->s, t->d);
			sizes(t, bd);
			ts_bundle_free(bd);
			v = ts_xreallocarray(v, n + 1, sizeof(*v));
			v[n++] = t;
		}
		for (i = 0; i < n; i++) {
			ts_bundles_verdict(bs, v[i]->name, v[i]->d);
			rv = finish(v[i], o, rv);
		}
		free(v);
		if (ts_bundles_count(bs) == 0 && ts_diags_errors(ad) == 0)
			ts_diag(ad, TS_SEV_ERROR, strcmp(path, "-") ? path :
			    "<stdin>", 0, 0, TS_RULE_B5, "the archive holds no "
			    "bundle");
		ts_bundles_close(bs);
	}
	fflush(stdout);
	if (!o->quiet || ts_diags_errors(ad) > 0)
		ts_diags_print(ad, stderr, fe_progname);
	st = ts_diags_status(ad);
	ts_diags_free(ad);
	return st > rv ? st : rv;
}

/* Every tensor of one operand; the worst status so far. */
static int
operand(const char *path, struct ts_diags *why, const struct opts *o, int rv)
{
	struct ts_check_opts co;
	struct ts_check_watch w;
	struct ts_bundle *bd;
	struct tensor *t = tensor_new(path, o);
	struct stat st;
	char *name = NULL;

	if (why != NULL) {
		/* -r found nothing to describe below a directory. */
		ts_diags_free(t->d);
		t->d = why;
		return finish(t, o, rv);
	}
	check_opts(o, &co);
	switch (fe_operand_kind(path, t->d)) {
	case FE_OPERAND_NONE:
		break;
	case FE_OPERAND_ARCHIVE:
		tensor_free(t);
		return archive(path, o, rv);
	case FE_OPERAND_BUNDLE:
		t->dir = ts_has_suffix(path, "_metadata.json") ?
		    ts_dirname(path) : ts_xstrdup(path);
		/* The README's lock first: no writer replaces the bundle
		 * between the reading and the writing. */
		if (o->readme)
			readme_lock(t);
		if ((bd = ts_bundle_open(path, t->d)) == NULL)
			break;
		t->name = ts_xstrdup(ts_bundle_name(bd));
		fe_stats_bundle(bd, &co, &t->s, t->d);
		sizes(t, bd);
		/* Its directory no longer held: the README's commit
		 * replaces it. */
		ts_bundle_free(bd);
		break;
	case FE_OPERAND_DATA:
		fe_stats_watch(&t->s, &w);
		co.watch = &w;
		fe_check_data(path, o->meta, &co, &name, t->d);
		t->name = name != NULL ? name : stem(path);
		if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			t->fname[F_TEXT] = ts_xstrdup(ts_basename(path));
			t->bytes[F_TEXT] = (int64_t)st.st_size;
		}
		break;
	}
	return finish(t, o, rv);
}

/* A count in [lo, hi], or a usage error. */
static long
count(const char *opt, const char *arg, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
		fe_usage_error("%s: '%s' is not a number from %ld to %ld", opt,
		    arg, lo, hi);
	return v;
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct ts_diags **why;
	char **paths;
	bool sized = false;
	size_t i, n;
	int ch, rv = TS_EXIT_OK;

	memset(&o, 0, sizeof(o));
	o.max_per_rule = 20;
	o.size = 512;
	fe_init("ts-stat");
	while ((ch = getopt_long(argc, argv, "fhm:qrsS:T:V", longopts, NULL)) !=
	    -1)
		switch (ch) {
		case 'f':
			o.force = true;
			break;
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'm':
			o.max_per_rule = (size_t)count("-m", optarg, 0,
			    1000000000);
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
		case OPT_CSV:
			o.format = FMT_CSV;
			break;
		case OPT_EXACT:
			o.exact = true;
			break;
		case OPT_FIBERS:
			o.fibers = true;
			break;
		case OPT_FIT:
			o.fit = true;
			break;
		case OPT_JSON:
			o.format = FMT_JSON;
			break;
		case OPT_META:
			o.meta = optarg;
			break;
		case OPT_PLOT:
			o.plot = optarg;
			break;
		case OPT_README:
			o.readme = true;
			break;
		case OPT_REQUIRE:
			ts_archive_require_checksums(true);
			break;
		case OPT_SIZE:
			o.size = (int)count("--size", optarg, 16,
			    FE_STATS_PLOT_MAX);
			break;
		default:
			usage(stderr);
			return TS_EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		fe_warnx("no tensor given");
		usage(stderr);
		return TS_EXIT_USAGE;
	}
	fe_stdin_once(o.meta, argc, argv);
	if (!sized)
		o.mem_limit = fe_default_size("-S", "25%");
	fe_progress_init(o.quiet);
	n = fe_operands(argc, argv, o.recursive, o.max_per_rule, o.strict,
	    &paths, &why);
	report_start(&o);
	for (i = 0; i < n; i++) {
		rv = operand(paths[i], why[i], &o, rv);
		free(paths[i]);
	}
	free(paths);
	free(why);
	return fe_close_stdout(rv);
}
