/*
 * ts-pack - TensorSuite bundles in tar archives: packed reproducibly,
 * unpacked safely, listed without unpacking.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fe.h"
#include "operand.h"
#include "pack.h"
#include "archive/archive_int.h"
#include "util/diag_int.h"
#include "util/progress.h"
#include "util/sysres.h"
#include "util/xalloc.h"

enum { OPT_CHECK = 256, OPT_DEEP, OPT_EACH, OPT_INDEX, OPT_JSON,
	OPT_LEVEL, OPT_MAX_MEMBERS, OPT_MAX_SIZE, OPT_NO_VALIDATE, OPT_QUICK,
	OPT_REQUIRE, OPT_SUMS_ONLY };

static const struct option longopts[] = {
	{ "check",		no_argument,		NULL, OPT_CHECK },
	{ "deep",		no_argument,		NULL, OPT_DEEP },
	{ "directory",		required_argument,	NULL, 'C' },
	{ "each",		required_argument,	NULL, OPT_EACH },
	{ "extract",		required_argument,	NULL, 'x' },
	{ "force",		no_argument,		NULL, 'f' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "index",		required_argument,	NULL, OPT_INDEX },
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "level",		required_argument,	NULL, OPT_LEVEL },
	{ "list",		required_argument,	NULL, 't' },
	{ "max-members",	required_argument,	NULL, OPT_MAX_MEMBERS },
	{ "max-size",		required_argument,	NULL, OPT_MAX_SIZE },
	{ "no-validate",	no_argument,		NULL, OPT_NO_VALIDATE },
	{ "output",		required_argument,	NULL, 'o' },
	{ "quick",		no_argument,		NULL, OPT_QUICK },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "recursive",		no_argument,		NULL, 'r' },
	{ "require-checksums",	no_argument,		NULL, OPT_REQUIRE },
	{ "sums-only",		no_argument,		NULL, OPT_SUMS_ONLY },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-fqr] [-j N] [--level N] [--quick | --deep | "
	    "--no-validate]\n"
	    "               [--index FILE] -o ARCHIVE | --each DIR  BUNDLE ...\n"
	    "       %s [-fqr] [--quick | --deep | --no-validate] --sums-only "
	    "[-o FILE] BUNDLE ...\n"
	    "       %s [-fq] [-C DIR] [--max-size SIZE] [--max-members N] "
	    "[--require-checksums]\n"
	    "               -x ARCHIVE\n"
	    "       %s [--check] [--quick | --deep] [--json] "
	    "[--require-checksums]\n"
	    "               -t ARCHIVE\n",
	    fe_progname, fe_progname, fe_progname, fe_progname);
	if (fp != stdout)
		return;
	fputs("Pack TensorSuite bundles into a tar archive, unpack one, or "
	    "list one.\n"
	    "ARCHIVE '-' is standard output or input.\n\n"
	    "Packing:\n"
	    "  -o, --output ARCHIVE  write ARCHIVE: .tar.zst (the default), "
	    ".tar.gz,\n"
	    "                        .tar.xz or .tar, by its name\n"
	    "      --each DIR        write one archive per bundle, "
	    "DIR/NAME.tar.zst\n"
	    "      --level N         compression level (zstd 1-19, default "
	    "3; gzip 1-9;\n"
	    "                        xz 0-9)\n"
	    "  -j, --jobs N          zstd threads (default: the CPUs it may "
	    "use); the bytes\n"
	    "                        do not depend on it\n"
	    "      --quick           check only metadata and headers, first\n"
	    "                        (by default, also every entry as it is "
	    "packed)\n"
	    "      --deep            check everything first, the checks that "
	    "sort too\n"
	    "      --no-validate     check nothing\n"
	    "      --index FILE      write an index of the bundles, JSON (or "
	    "CSV for .csv)\n"
	    "      --sums-only       write only the SHA256SUMS an archive of "
	    "the bundles\n"
	    "                        would hold, to -o FILE or standard "
	    "output\n"
	    "  -r, --recursive       a directory BUNDLE stands for every "
	    "bundle below it,\n"
	    "                        as ts-validate -r finds them\n"
	    "Unpacking:\n"
	    "  -x, --extract ARCHIVE unpack the bundles of ARCHIVE\n"
	    "  -C, --directory DIR   into DIR (default .)\n"
	    "      --max-size SIZE   refuse more data than SIZE (default 8G)\n"
	    "      --max-members N   refuse more members than N (default "
	    "100000)\n"
	    "      --quick, --deep, --no-validate  how the bundles are checked "
	    "(default\n"
	    "                        --quick)\n"
	    "Listing:\n"
	    "  -t, --list ARCHIVE    one line per bundle: name, order, "
	    "dimensions, nnz\n"
	    "      --check           ... and valid or invalid: every entry as "
	    "it streams\n"
	    "                        by (--quick: metadata and headers only; "
	    "--deep: the\n"
	    "                        checks that sort too)\n"
	    "      --json            one JSON object per bundle\n"
	    "Other:\n"
	    "  -f, --force           replace an existing ARCHIVE, index or "
	    "bundle\n"
	    "  -q, --quiet           no notes on stderr\n"
	    "      --require-checksums  -x, -t: an archive without SHA256SUMS "
	    "is an error,\n"
	    "                        not a note\n"
	    "  -h, --help            show this help and exit\n"
	    "  -V, --version         show the version and exit\n\n"
	    "Exit status: 0 done, 1 a bundle or member was rejected, 2 usage "
	    "error,\n3 I/O error.\n", fp);
}

/* A count within [lo, hi], or a usage message and exit. */
static long
count(const char *opt, const char *arg, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
		fe_warnx("%s: '%s' is not a number from %ld to %ld", opt, arg,
		    lo, hi);
		exit(TS_EXIT_USAGE);
	}
	return v;
}

/* ---- packing ---- */

static int
byname(const void *a, const void *b)
{
	return strcmp(ts_bundle_name(((const struct item *)a)->bd),
	    ts_bundle_name(((const struct item *)b)->bd));
}

/* The failures of the system among the messages of from. */
static void
relay_io(const struct ts_diags *from, struct ts_diags *to)
{
	size_t i;

	for (i = 0; i < ts_diags_len(from); i++)
		if (ts_diags_at(from, i)->status == TS_EXIT_IO)
			ts_diag_io(to, ts_diags_at(from, i)->file, "%s",
			    ts_diags_at(from, i)->msg);
		else if (ts_diags_at(from, i)->sev == TS_SEV_ERROR)
			ts_diag(to, TS_SEV_ERROR, ts_diags_at(from, i)->file, 0,
			    0, ts_diags_at(from, i)->rule, "%s",
			    ts_diags_at(from, i)->msg);
}

/* Open and check every bundle; sort them by name (the order of the
 * operands must not change the archive).  -1 when one is refused. */
static int
gather(struct opts *o, int argc, char *argv[], struct item **items,
    struct ts_diags *d)
{
	struct item *v = ts_xcalloc((size_t)argc, sizeof(*v));
	struct ts_check_opts co;
	struct ts_diags *qd;
	int i, n = 0, rv = 0;

	memset(&co, 0, sizeof(co));
	co.quick = o->validate != V_DEEP;

	for (i = 0; i < argc; i++) {
		size_t errs = ts_diags_errors(d);
		/* Unchecked, what the metadata says is not said either. */
		struct ts_diags *od = o->validate != V_NONE ? d :
		    ts_diags_new(20, false);
		struct ts_bundle *bd = ts_bundle_open(argv[i], od);

		if (od != d) {
			if (bd == NULL)
				relay_io(od, d);
			ts_diags_free(od);
		}
		if (bd == NULL) {
			rv = -1;
			continue;
		}
		/* Checked as it is packed (check_packed), a bundle's headers
		 * are first looked at only to refuse it early: what else
		 * they say is said as it is packed, once. */
		qd = o->validate == V_STREAM ? ts_diags_like(d) : d;
		if (o->validate != V_NONE && ts_bundle_meta(bd) != NULL)
			ts_check_bundle(bd, &co, qd);
		if (qd != d) {
			if (ts_diags_errors(qd) > 0)
				ts_diags_absorb(d, qd, 0);
			ts_diags_free(qd);
		}
		if (ts_diags_errors(d) > errs && o->validate != V_NONE) {
			fe_warnx("'%s' is invalid: not packed", argv[i]);
			rv = -1;
		}
		v[n].path = argv[i];
		v[n++].bd = bd;
	}
	qsort(v, (size_t)n, sizeof(*v), byname);
	for (i = 1; i < n; i++)
		if (strcmp(ts_bundle_name(v[i - 1].bd),
		    ts_bundle_name(v[i].bd)) == 0) {
			ts_diag_usage(d, "'%s' and '%s' are both bundle '%s': an "
			    "archive holds one of each name", v[i - 1].path,
			    v[i].path, ts_bundle_name(v[i].bd));
			rv = -1;
		}
	*items = v;
	o->nitems = (size_t)n;
	return rv;
}

/* The checks of each entry of a bundle as it is packed, on a thread of
 * the archive writer's (ts_archive_out_watch), the bundle read from the
 * bytes packed: what needs no sort, so that it costs one core beside the
 * compression, not a second reading. */
static int
check_packed(struct ts_bundle *bd, void *arg, struct ts_diags *d)
{
	struct item *it = arg;
	struct ts_check_opts co;

	memset(&co, 0, sizeof(co));
	co.stream_only = true;
	co.threads = 1;
	if (ts_check_bundle(bd, &co, d) != 0)
		it->refused = true;
	return it->refused ? -1 : 0;
}

/* Bundle v[i] into ao, checked as it goes when it is to be. */
static int
put_bundle(const struct opts *o, struct ts_archive_out *ao, struct item *it,
    struct ts_diags *d)
{
	if (o->validate == V_STREAM)
		ts_archive_out_watch(ao, check_packed, it);
	if (ts_archive_out_bundle(ao, it->bd, d) == 0)
		return 0;
	/* Not when the archive could not be written (a full disk): the
	 * checks then read a bundle cut short, and that error is said. */
	if (it->refused && ts_diags_status(d) != TS_STATUS_IO)
		fe_warnx("'%s' is invalid: not packed", it->path);
	return -1;
}

/* Standard output, a device or a FIFO: written to as it is, in zstd
 * (a name of the kind an archive has still says). */
static bool
stream(const char *path)
{
	struct stat st;

	return strcmp(path, "-") == 0 || (ts_compress_of(path) < 0 &&
	    stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode));
}

/* A sink that could not be opened: why, and what status. */
static void
refused(const char *path, int e, struct ts_diags *d)
{
	if (e == EEXIST)
		ts_diag_usage(d, "'%s' exists (-f replaces it)", path);
	else
		ts_diag_io(d, path, "%s", strerror(e));
}

/* Write items [i, j) into the archive at path; with an index, *sums is
 * its manifest, malloc'd, which items [i, j) then point to. */
static int
write_archive(const struct opts *o, const char *path, struct item *v,
    size_t i, size_t j, char **sums, struct ts_diags *d)
{
	size_t first = i;

	struct ts_pack_opts po;
	struct ts_archive_out *ao;
	struct ts_sink *k;
	int c = stream(path) ? TS_COMPRESS_ZSTD : ts_compress_of(path);

	po.compress = (enum ts_compress)c;
	po.level = o->level;
	po.threads = o->jobs;
	if (strcmp(path, "-") == 0 && isatty(STDOUT_FILENO)) {
		ts_diag_usage(d, "an archive is not written to a terminal");
		return -1;
	}
	if ((k = ts_sink_open(path, o->force ? TS_SINK_FORCE : 0)) == NULL) {
		refused(path, errno, d);
		return -1;
	}
	if ((ao = ts_archive_out_open(k, &po)) == NULL) {
		if (errno == EINVAL)
			ts_diag_usage(d, "--level %d: not a level of %s",
			    o->level, c == TS_COMPRESS_GZIP ? "gzip" :
			    c == TS_COMPRESS_XZ ? "xz" : "zstd");
		else
			ts_diag_io(d, path, "%s", strerror(errno));
		return -1;
	}
	for (; i < j; i++) {
		v[i].archive = strcmp(path, "-") == 0 ? "<stdout>" : path;
		if (put_bundle(o, ao, &v[i], d) != 0) {
			ts_archive_out_abort(ao);
			return -1;
		}
	}
	if (o->index != NULL) {
		if ((*sums = ts_archive_out_manifest(ao)) == NULL) {
			ts_diag_io(d, path, "%s", strerror(errno));
			ts_archive_out_abort(ao);
			return -1;
		}
		for (i = first; i < j; i++)
			v[i].sums = *sums;
	}
	if (ts_archive_out_commit(ao) != 0) {
		ts_diag_io(d, path, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

/* --sums-only: the manifest an archive of the bundles would end with,
 * the bundles read as the archive writer reads them. */
static int
sums_only(struct opts *o, int argc, char *argv[], struct ts_diags *d)
{
	const char *path = o->out != NULL ? o->out : "-";
	struct ts_archive_out *ao = NULL;
	struct ts_sink *k = NULL;
	struct item *v = NULL;
	char *text = NULL;
	size_t i;
	int rv = -1;

	if (gather(o, argc, argv, &v, d) != 0)
		goto out;
	/* Refused at once when it exists. */
	if ((k = ts_sink_open(path, o->force ? TS_SINK_FORCE : 0)) == NULL) {
		refused(path, errno, d);
		goto out;
	}
	ao = ts_archive_out_hash();
	for (i = 0; i < o->nitems; i++)
		if (put_bundle(o, ao, &v[i], d) != 0)
			goto out;
	if ((text = ts_archive_out_manifest(ao)) == NULL) {
		ts_diag_io(d, path, "%s", strerror(errno));
		goto out;
	}
	(void)ts_sink_write(k, text, strlen(text));
	rv = ts_sink_commit(k);
	k = NULL;
	if (rv != 0)
		ts_diag_io(d, path, "%s", strerror(errno));
out:
	ts_archive_out_abort(ao);
	ts_sink_abort(k);
	free(text);
	for (i = 0; i < o->nitems; i++)
		ts_bundle_free(v[i].bd);
	free(v);
	return rv;
}

static int
pack(struct opts *o, int argc, char *argv[], struct ts_diags *d)
{
	struct item *v = NULL;
	struct ts_sink *ix = NULL;
	char **paths = NULL, **sums = NULL;
	size_t i;
	int rv = -1, c;

	if (o->out != NULL && !stream(o->out) && ts_compress_of(o->out) < 0) {
		ts_diag_usage(d, "'%s': name the archive .tar.zst, .tar.gz, "
		    ".tar.xz or .tar", o->out);
		return -1;
	}
	c = o->out == NULL || stream(o->out) ? TS_COMPRESS_ZSTD :
	    ts_compress_of(o->out);
	if (o->level >= 0 && (c == TS_COMPRESS_NONE ||
	    (c == TS_COMPRESS_ZSTD && (o->level < 1 || o->level > 19)) ||
	    (c == TS_COMPRESS_GZIP && (o->level < 1 || o->level > 9)))) {
		ts_diag_usage(d, "--level %d: %s", o->level, c ==
		    TS_COMPRESS_NONE ? "a .tar is not compressed" : c ==
		    TS_COMPRESS_ZSTD ? "zstd levels are 1 to 19" :
		    "gzip levels are 1 to 9");
		return -1;
	}
	if (gather(o, argc, argv, &v, d) != 0)
		goto out;
	/* The index is refused at once when it exists. */
	if (o->index != NULL && (ix = ts_sink_open(o->index, o->force ?
	    TS_SINK_FORCE : 0)) == NULL) {
		refused(o->index, errno, d);
		goto out;
	}
	/* One manifest an archive. */
	sums = ts_xcalloc(o->nitems + 1, sizeof(*sums));
	if (o->each != NULL) {
		paths = ts_xcalloc(o->nitems, sizeof(*paths));
		for (i = 0; i < o->nitems; i++) {
			paths[i] = ts_xasprintf("%s/%s.tar.zst", o->each,
			    ts_bundle_name(v[i].bd));
			if (write_archive(o, paths[i], v, i, i + 1, &sums[i],
			    d) != 0)
				goto out;
		}
	} else if (write_archive(o, o->out, v, 0, o->nitems, &sums[0], d) !=
	    0)
		goto out;
	if (ix != NULL) {
		rv = write_index(ix, o->index, v, o->nitems, d);
		ix = NULL;
		if (rv != 0)
			goto out;
	}
	rv = 0;
out:
	ts_sink_abort(ix);
	for (i = 0; i < o->nitems; i++) {
		ts_bundle_free(v[i].bd);
		if (paths != NULL)
			free(paths[i]);
		if (sums != NULL)
			free(sums[i]);
	}
	free(paths);
	free(sums);
	free(v);
	return rv;
}

/* ---- unpacking and listing ---- */

/* A bundle unpacked, checked as -x was asked (--quick: its headers). */
static int
check_unpacked(struct ts_bundle *bd, void *arg, struct ts_diags *d)
{
	const struct opts *o = arg;
	struct ts_check_opts co;

	memset(&co, 0, sizeof(co));
	co.quick = o->validate != V_DEEP;
	return ts_check_bundle(bd, &co, d);
}

static int
unpack(const struct opts *o, struct ts_diags *d)
{
	struct ts_unpack_opts uo;
	char **names = NULL;
	size_t n = 0, i;
	int rv;

	memset(&uo, 0, sizeof(uo));
	uo.dir = o->dir;
	uo.force = o->force;
	uo.max_size = o->max_size;
	uo.max_members = o->max_members;
	if (o->validate != V_NONE) {
		uo.check = check_unpacked;
		uo.check_arg = (void *)o;
	}
	rv = ts_unpack(o->extract, &uo, &names, &n, d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rv;
}

/* A JSON string, malloc'd. */
static char *
jstr(const char *s)
{
	json_t *j = json_string(s != NULL ? s : "");
	char *r = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	json_decref(j);
	return r != NULL ? r : ts_xstrdup("\"\"");
}

/* A bundle's line of -t, but its verdict, to fp: its name and shape. */
static void
list_shape(const struct opts *o, struct ts_bundle *bd, FILE *fp)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	bool usable = m != NULL && (m->have & (TS_HAVE_ORDER | TS_HAVE_DIMS |
	    TS_HAVE_NNZ)) == (TS_HAVE_ORDER | TS_HAVE_DIMS | TS_HAVE_NNZ);
	int k;

	if (o->json) {
		char *p = jstr(ts_bundle_where(bd)), *n = jstr(ts_bundle_name(bd));

		fprintf(fp, "{\"path\": %s, \"name\": %s", p, n);
		free(p);
		free(n);
		if (usable) {
			fprintf(fp, ", \"order\": %d, \"dimensions\": [",
			    m->order);
			for (k = 0; k < m->order; k++)
				fprintf(fp, "%s%llu", k ? ", " : "",
				    (unsigned long long)m->dims[k]);
			fprintf(fp, "], \"nnz\": %llu",
			    (unsigned long long)m->nnz);
		}
		return;
	}
	fprintf(fp, "%s", ts_bundle_name(bd));
	if (usable) {
		fprintf(fp, "\t%d\t", m->order);
		for (k = 0; k < m->order; k++)
			fprintf(fp, "%s%llu", k ? "x" : "",
			    (unsigned long long)m->dims[k]);
		fprintf(fp, "\t%llu", (unsigned long long)m->nnz);
	} else
		fprintf(fp, "\t?\t?\t?");
}

/* A bundle listed with --check, its line waiting for the end of the
 * archive, where its integrity is known. */
struct listed {
	char	*name;
	char	*shape;		/* list_shape's */
	size_t	 errors, warnings;
	int	 status;
};

/* The line of b, its verdict of the diagnostics of its checks and its
 * integrity. */
static void
list_line(const struct opts *o, const struct listed *b)
{
	/* What "valid" covers: no bare word for headers alone. */
	static const char *const checks[] = { "quick", "stream", "deep" };

	ts_progress_clear();
	fputs(b->shape, stdout);
	if (o->json)
		printf(", \"valid\": %s, \"checks\": \"%s\", \"errors\": %zu, "
		    "\"warnings\": %zu}\n", b->errors == 0 ? "true" : "false",
		    checks[o->validate], b->errors, b->warnings);
	else
		printf("\t%s%s\n", o->validate == V_QUICK && b->errors == 0 ?
		    "metadata and headers " : "", b->errors == 0 ? "valid" :
		    "invalid");
}

static int
list(const struct opts *o, struct ts_diags *ad)
{
	struct ts_diags *d = ts_diags_new(20, false);
	struct ts_check_opts co;
	struct ts_bundles *bs;
	struct ts_bundle *bd;
	struct listed *v = NULL;
	size_t n = 0, i, len;
	FILE *fp;
	int rv = 0;

	memset(&co, 0, sizeof(co));
	co.quick = o->validate == V_QUICK;
	co.stream_only = o->validate == V_STREAM;

	if (o->check)
		fe_diags_live(d, o->quiet);
	if ((bs = ts_bundles_open(o->list, NULL, ad)) == NULL) {
		ts_diags_free(d);
		return -1;
	}
	/* Checked, a bundle's record carries what the manifest says of its
	 * files, known at the archive's end: the lines wait for it. */
	if (o->check)
		ts_bundles_split(bs);
	for (;;) {
		ts_diags_clear(d);
		if ((bd = ts_bundles_next(bs, NULL, d)) == NULL)
			break;
		if (!o->check) {
			ts_progress_clear();
			list_shape(o, bd, stdout);
			fputs(o->json ? "}\n" : "\n", stdout);
			ts_bundle_free(bd);
			continue;
		}
		ts_check_bundle(bd, &co, d);
		v = ts_xreallocarray(v, n + 1, sizeof(*v));
		v[n].name = ts_xstrdup(ts_bundle_name(bd));
		v[n].shape = NULL;
		if ((fp = open_memstream(&v[n].shape, &len)) == NULL)
			ts_xoom(0);
		list_shape(o, bd, fp);
		fclose(fp);
		v[n].errors = ts_diags_count(d, TS_SEV_ERROR);
		v[n].warnings = ts_diags_count(d, TS_SEV_WARNING);
		v[n++].status = ts_diags_status(d);
		ts_bundle_free(bd);
	}
	for (i = 0; i < n; i++) {
		ts_diags_clear(d);
		ts_bundles_verdict(bs, v[i].name, d);
		v[i].errors += ts_diags_count(d, TS_SEV_ERROR);
		v[i].warnings += ts_diags_count(d, TS_SEV_WARNING);
		if (ts_diags_status(d) > v[i].status)
			v[i].status = ts_diags_status(d);
		list_line(o, &v[i]);
		if (v[i].status > rv)
			rv = v[i].status;
		free(v[i].name);
		free(v[i].shape);
	}
	free(v);
	if (ts_bundles_count(bs) == 0 && ts_diags_errors(ad) == 0)
		ts_diag(ad, TS_SEV_ERROR, o->list, 0, 0, TS_RULE_B5,
		    "the archive holds no bundle");
	ts_bundles_close(bs);
	ts_diags_free(d);
	return rv;
}

/* An option of another mode than the one asked for. */
/*
 * -r: the operands, a directory standing for every bundle below it, as
 * ts-validate -r finds them (fe_operands), into *found (malloc'd, NULL
 * after the last): their count, or -1 when a directory has none below
 * it (said in d).
 */
static int
below(int argc, char *argv[], char ***found, struct ts_diags *d)
{
	struct ts_diags **why;
	char **paths;
	size_t n, i;
	int rv;

	n = fe_operands(argc, argv, true, 20, false, &paths, &why);
	rv = (int)n;
	for (i = 0; i < n; i++)
		if (why[i] != NULL) {
			relay_io(why[i], d);
			ts_diags_free(why[i]);
			rv = -1;
		}
	free(why);
	paths = ts_xreallocarray(paths, n + 1, sizeof(*paths));
	paths[n] = NULL;
	*found = paths;
	return rv;
}

static bool
misplaced(const struct opts *o)
{
	const char *bad = NULL;
	bool packing = o->out != NULL || o->each != NULL;

	if (o->sums_only && (o->each != NULL || o->extract != NULL ||
	    o->list != NULL || o->index != NULL || o->level >= 0))
		bad = "--sums-only";
	else if (!packing && o->index != NULL)
		bad = "--index";
	else if (!packing && o->level >= 0)
		bad = "--level";
	else if (o->extract == NULL && (o->dir != NULL || o->max_size ||
	    o->max_members))
		bad = o->dir != NULL ? "-C" : o->max_size ? "--max-size" :
		    "--max-members";
	else if (o->list == NULL && (o->check || o->json))
		bad = o->check ? "--check" : "--json";
	else if (o->recursive && !packing && !o->sums_only)
		bad = "-r";
	else if (o->list != NULL && o->force)
		bad = "-f";
	else if (o->list != NULL && o->validate == V_NONE)
		bad = "--no-validate";
	if (bad == NULL)
		return false;
	if (o->sums_only && strcmp(bad, "--sums-only") == 0)
		fe_warnx("--sums-only goes only with -o, -f, -q and the checks "
		    "(--quick, --deep, --no-validate)");
	else
		fe_warnx("%s does not go with %s", bad, packing ? "packing" :
		    o->extract != NULL ? "-x" : "-t");
	return true;
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct ts_diags *d;
	char **found = NULL;
	bool require = false;
	int ch, modes, rv = 0, st;

	fe_init("ts-pack");
	memset(&o, 0, sizeof(o));
	o.validate = V_STREAM;
	o.level = -1;
	o.jobs = ts_cpus_available();
	while ((ch = getopt_long(argc, argv, "C:fhj:o:qrt:Vx:", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'C':
			o.dir = optarg;
			break;
		case 'f':
			o.force = true;
			break;
		case 'h':
			usage(stdout);
			return fe_close_stdout(TS_EXIT_OK);
		case 'j':
			o.jobs = (int)count("-j", optarg, 1, 256);
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'r':
			o.recursive = true;
			break;
		case 't':
			o.list = optarg;
			break;
		case 'V':
			return fe_version();
		case 'x':
			o.extract = optarg;
			break;
		case OPT_CHECK:
			o.check = true;
			break;
		case OPT_DEEP:
			o.validate = V_DEEP;
			break;
		case OPT_EACH:
			o.each = optarg;
			break;
		case OPT_INDEX:
			o.index = optarg;
			break;
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_LEVEL:
			o.level = (int)count("--level", optarg, 0, 22);
			break;
		case OPT_MAX_MEMBERS:
			o.max_members = (uint64_t)count("--max-members",
			    optarg, 1, 1L << 40);
			break;
		case OPT_MAX_SIZE:
			o.max_size = fe_parse_size_min("--max-size", optarg, 1);
			break;
		case OPT_NO_VALIDATE:
			o.validate = V_NONE;
			break;
		case OPT_QUICK:
			o.validate = V_QUICK;
			break;
		case OPT_REQUIRE:
			require = true;
			break;
		case OPT_SUMS_ONLY:
			o.sums_only = true;
			break;
		default:
			usage(stderr);
			return TS_EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	if (o.sums_only && misplaced(&o))
		return TS_EXIT_USAGE;
	modes = (o.out != NULL || o.sums_only) + (o.each != NULL) +
	    (o.extract != NULL) + (o.list != NULL);
	if (modes != 1) {
		fe_warnx(modes ? "-o, --each, -x and -t exclude one another" :
		    "say what to do: -o, --each, -x or -t");
		usage(stderr);
		return TS_EXIT_USAGE;
	}
	if ((o.out != NULL || o.each != NULL || o.sums_only) != (argc > 0)) {
		fe_warnx(argc > 0 ? "'%s': -x and -t take no operand" :
		    "no bundle given", argc > 0 ? argv[0] : "");
		usage(stderr);
		return TS_EXIT_USAGE;
	}
	if (misplaced(&o))
		return TS_EXIT_USAGE;
	if (require && o.extract == NULL && o.list == NULL) {
		fe_warnx("--require-checksums does not go with packing");
		return TS_EXIT_USAGE;
	}
	ts_archive_require_checksums(require);
	fe_stdout_once(o.out, o.index);
	fe_progress_init(o.quiet);
	d = ts_diags_new(20, false);
	fe_diags_live(d, o.quiet);
	if (o.recursive)
		argc = below(argc, argv, &found, d);
	if (argc < 0)
		rv = -1;	/* nothing is packed */
	else if (o.sums_only)
		rv = sums_only(&o, argc, found != NULL ? found : argv, d);
	else if (o.out != NULL || o.each != NULL)
		rv = pack(&o, argc, found != NULL ? found : argv, d);
	else if (o.extract != NULL)
		rv = unpack(&o, d);
	else
		rv = list(&o, d);
	for (ch = 0; found != NULL && found[ch] != NULL; ch++)
		free(found[ch]);
	free(found);
	ts_progress_clear();
	st = ts_diags_status(d);
	if (rv > st)
		st = rv;
	if (rv < 0 && st == TS_EXIT_OK)
		st = TS_EXIT_DATA;
	ts_diags_free(d);
	return fe_close_stdout(st);
}
