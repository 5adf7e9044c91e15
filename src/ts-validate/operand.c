/*
 * operand.c - what an operand of ts-validate is, and its checks: a
 * bundle (its directory or metadata file); a lone data file, checked
 * against the metadata beside it, --meta, or its own header; standard
 * input as such a file; a tar archive of bundles, each checked as it
 * streams by; and, with -r, every bundle below a directory.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "validate.h"
#include "util/path.h"
#include "util/progress.h"
#include "util/xalloc.h"

static const char META_SUFFIX[] = "_metadata.json";

/* DIR/NAME.tns(b), maybe compressed: DIR/NAME_metadata.json, if there. */
static char *
beside(const char *path)
{
	static const char *const ext[] = { ".tns", ".tnsb", NULL };
	static const char *const zip[] = { "", ".gz", ".zst", ".xz", ".bz2",
	    NULL };
	const char *b = ts_basename(path);
	struct stat st;
	char *m, tail[16];
	int i, k;

	for (i = 0; ext[i] != NULL; i++)
		for (k = 0; zip[k] != NULL; k++) {
			snprintf(tail, sizeof(tail), "%s%s", ext[i], zip[k]);
			if (!ts_has_suffix(b, tail) || strlen(b) == strlen(tail))
				continue;
			m = ts_xasprintf("%.*s%.*s%s", (int)(b - path), path,
			    (int)(strlen(b) - strlen(tail)), b, META_SUFFIX);
			if (stat(m, &st) == 0)
				return m;
			free(m);
		}
	return NULL;
}

/* Read the metadata at path into m; false when it cannot be used. */
static bool
read_meta(const char *path, struct ts_meta *m, struct ts_diags *d)
{
	struct ts_source *src;
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		ts_diag_io(d, path, "not a regular file");
		return false;
	}
	if ((src = ts_source_open_file(path)) == NULL) {
		ts_diag_io(d, path, "%s", strerror(errno));
		return false;
	}
	ts_meta_read(m, src, d);
	ts_source_close(src);
	return ts_diags_errors(d) == 0;
}

/* A lone data file (or standard input). */
static void
check_data(const char *path, const struct opts *o, struct result *r)
{
	struct ts_check_opts co = { o->quick, o->mem_limit, o->tmpdir,
	    o->jobs > 1 ? 1 : 0 };
	struct ts_source *src;
	struct ts_meta m;
	enum ts_kind kind;
	char *mp = NULL;
	bool have = false;

	ts_meta_init(&m);
	if ((src = ts_source_open_file(path)) == NULL) {
		ts_diag_io(r->d, path, "%s", strerror(errno));
		return;
	}
	if (strcmp(path, "-") != 0)
		ts_source_set_name(src, path);
	if (ts_source_compression(src) != NULL &&
	    (src = ts_source_decompress(src)) == NULL) {
		ts_diag(r->d, TS_ERROR, path, 0, 0, "", "cannot decompress: %s",
		    strerror(errno));
		return;
	}
	kind = ts_sniff(src);
	if (o->meta != NULL)
		mp = ts_xstrdup(o->meta);
	else if (strcmp(path, "-") != 0)
		mp = beside(path);
	if (mp != NULL && (kind == TS_FROSTT || kind == TS_MTX)) {
		ts_diag(r->d, TS_NOTE, path, 0, 0, "", "a %s file has no "
		    "header to hold against '%s': it is checked on its own "
		    "(ts-convert makes a bundle of it)", kind == TS_MTX ?
		    "Matrix Market" : "FROSTT", mp);
		free(mp);
		mp = NULL;
	}
	if (mp != NULL) {
		if (!read_meta(mp, &m, r->d)) {
			ts_source_close(src);
			goto out;
		}
		have = true;
		r->name = m.name ? ts_xstrdup(m.name) : NULL;
	}
	ts_check_file(src, kind, have ? &m : NULL, &co, r->d);
out:
	free(mp);
	ts_meta_free(&m);
}

void
check_operand(const char *path, const struct opts *o, struct result *r)
{
	struct ts_check_opts co = { o->quick, o->mem_limit, o->tmpdir,
	    o->jobs > 1 ? 1 : 0 };
	struct ts_bundle *bd;
	struct stat st;
	double t0 = ts_seconds();

	memset(r, 0, sizeof(*r));
	r->path = ts_xstrdup(path);
	r->d = ts_diags_new(o->max_per_rule, o->strict);
	if (strcmp(path, "-") == 0)
		check_data(path, o, r);
	else if (stat(path, &st) != 0) {
		/* A typo in a CI path is not bad data; nor is a bundle that
		 * an interrupted rewrite moved aside, which the bundle's
		 * opener tells apart. */
		if (errno == ENOENT)
			ts_bundle_free(ts_bundle_open(path, r->d));
		else
			ts_diag_io(r->d, path, "%s", strerror(errno));
	}
	else if (S_ISDIR(st.st_mode) || ts_has_suffix(path, META_SUFFIX)) {
		r->bundle = true;
		if ((bd = ts_bundle_open(path, r->d)) != NULL) {
			r->name = ts_xstrdup(ts_bundle_name(bd));
			ts_check_bundle(bd, &co, r->d);
		}
		ts_bundle_free(bd);
	} else if (ts_archive_is(path)) {
		r->bundle = true;
		ts_check_archive(path, &co, r->d);
	} else
		check_data(path, o, r);
	r->valid = ts_diags_errors(r->d) == 0;
	r->status = ts_diags_status(r->d);
	r->seconds = ts_seconds() - t0;
}

/* ---- -r: the bundles below a directory ---- */

struct found {
	char	**v;
	size_t	 n, cap;
};

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory holding NAME_metadata.json, NAME its own name. */
static bool
is_bundle(const char *dir)
{
	char *m = ts_xasprintf("%s/%s%s", dir, ts_basename(dir), META_SUFFIX);
	struct stat st;
	bool yes = stat(m, &st) == 0;

	free(m);
	return yes;
}

static int
walk(const char *dir, struct found *f, int depth)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	char *p;
	int rv = 0;

	if (is_bundle(dir)) {
		if (f->n == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 64;
			f->v = ts_xreallocarray(f->v, f->cap, sizeof(*f->v));
		}
		f->v[f->n++] = ts_xstrdup(dir);
		return 0;	/* a bundle is flat */
	}
	if (depth > 64)
		return 0;	/* no sane tree */
	if ((d = opendir(dir)) == NULL) {
		fe_warn("%s", dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;	/* ., .., and hidden (.git) */
		p = ts_xasprintf("%s%s%s", dir, ts_has_suffix(dir, "/") ? "" :
		    "/", e->d_name);
		/* No link is followed below the operand, as find(1) by
		 * default: a link to .. or / would walk the tree again. */
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
		    walk(p, f, depth + 1) != 0)
			rv = -1;
		free(p);
	}
	closedir(d);
	return rv;
}

int
find_bundles(const char *dir, char ***paths)
{
	struct found f = { NULL, 0, 0 };
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (errno == 0 || S_ISREG(st.st_mode))
			errno = ENOTDIR;
		fe_warn("%s", dir);
		return -1;
	}
	if (walk(dir, &f, 0) != 0) {
		while (f.n > 0)
			free(f.v[--f.n]);
		free(f.v);
		return -1;
	}
	if (f.n > 1)
		qsort(f.v, f.n, sizeof(*f.v), cmpstr);
	*paths = f.v;
	return (int)f.n;
}
