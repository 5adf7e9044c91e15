/*
 * operand.c - what an operand of a tool that reads tensors whole is, and
 * the check of a lone data file (see operand.h); ts-validate and
 * ts-stat share them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "operand.h"
#include "util/escape.h"
#include "util/path.h"
#include "util/xalloc.h"

static const char META_SUFFIX[] = "_metadata.json";

/* DIR/NAME.tns(b), maybe compressed: DIR/NAME_metadata.json, if there. */
static char *
beside(const char *path)
{
	const char *b = ts_basename(path);
	struct stat st;
	size_t stem;
	char *m;
	int k = ts_kind_of_path(b, &stem);

	/* A bundle's data files are TensorSuite's own. */
	if ((k != TS_KIND_TEXT && k != TS_KIND_BINARY) || stem == 0)
		return NULL;
	m = ts_xasprintf("%.*s%.*s%s", (int)(b - path), path, (int)stem, b,
	    META_SUFFIX);
	if (stat(m, &st) == 0)
		return m;
	free(m);
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

enum fe_operand
fe_operand_kind(const char *path, struct ts_diags *d)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		/* A pipe carries a data file or an archive of bundles. */
		return ts_archive_is(path) ? FE_OPERAND_ARCHIVE :
		    FE_OPERAND_DATA;
	if (stat(path, &st) != 0) {
		/* A typo in a CI path is not bad data; nor is a bundle that
		 * an interrupted rewrite moved aside, which the bundle's
		 * opener tells apart. */
		if (errno == ENOENT)
			ts_bundle_free(ts_bundle_open(path, d));
		else
			ts_diag_io(d, path, "%s", strerror(errno));
		return FE_OPERAND_NONE;
	}
	if (S_ISDIR(st.st_mode) || ts_has_suffix(path, META_SUFFIX))
		return FE_OPERAND_BUNDLE;
	if (ts_archive_is(path))
		return FE_OPERAND_ARCHIVE;
	return FE_OPERAND_DATA;
}

void
fe_check_data(const char *path, const char *meta,
    const struct ts_check_opts *co, char **name, struct ts_diags *d)
{
	struct ts_source *src;
	struct ts_meta m;
	enum ts_kind kind;
	char *mp = NULL;
	bool have = false;

	*name = NULL;
	ts_meta_init(&m);
	if ((src = ts_source_open_file(path)) == NULL) {
		ts_diag_io(d, path, "%s", strerror(errno));
		return;
	}
	if (strcmp(path, "-") != 0)
		ts_source_set_name(src, path);
	if (ts_source_compression(src) != NULL &&
	    (src = ts_source_decompress(src)) == NULL) {
		if (errno == ELIBACC)
			ts_diag_io(d, path, "cannot decompress: %s",
			    strerror(errno));
		else
			ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_NONE,
			    "cannot decompress: %s", strerror(errno));
		return;
	}
	kind = ts_sniff(src);
	if (meta != NULL)
		mp = ts_xstrdup(meta);
	else if (strcmp(path, "-") != 0)
		mp = beside(path);
	/* Metadata describes TensorSuite's own data files only. */
	if (mp != NULL && kind != TS_KIND_TEXT && kind != TS_KIND_BINARY) {
		ts_diag(d, TS_SEV_NOTE, path, 0, 0, TS_RULE_NONE,
		    "a %s file has no header to hold against '%s': it is "
		    "checked on its own (ts-convert makes a bundle of it)",
		    ts_kind_title(kind), mp);
		free(mp);
		mp = NULL;
	}
	if (mp != NULL) {
		if (!read_meta(mp, &m, d)) {
			ts_source_close(src);
			goto out;
		}
		have = true;
		*name = m.name ? ts_xstrdup(m.name) : NULL;
	}
	ts_check_file(src, kind, have ? &m : NULL, co, d);
out:
	free(mp);
	ts_meta_free(&m);
}

/* ---- -r: the bundles below a directory ---- */

/*
 * The walk keeps the folders still to read on a list of its own, not on
 * the stack, so that no depth of tree can overflow it; a folder is
 * walked once (its device and inode are remembered), so that a loop no
 * link makes (a bind mount) ends; and what cannot be read (a folder
 * locked, a path too long for the system) is an error, never skipped.
 */
struct found {
	char	**v;
	size_t	 n, cap;
	struct ts_diags *d;	/* why the walk failed */
	char	**todo;		/* folders still to read */
	size_t	 ntodo, todocap;
	struct seen {
		dev_t	 dev;
		ino_t	 ino;
	}	*seen;		/* folders read, an open-addressed set */
	size_t	 nseen, seencap;
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

static size_t
seen_slot(const struct seen *v, size_t cap, dev_t dev, ino_t ino)
{
	size_t i = ((size_t)ino * 0x9e3779b97f4a7c15ULL ^ (size_t)dev) &
	    (cap - 1);

	while ((v[i].dev != 0 || v[i].ino != 0) && (v[i].dev != dev ||
	    v[i].ino != ino))
		i = (i + 1) & (cap - 1);
	return i;
}

/* Was the folder of st met before?  It is remembered now. */
static bool
met(struct found *f, const struct stat *st)
{
	struct seen *old = f->seen;
	size_t i, oldcap = f->seencap;

	if (2 * (f->nseen + 1) > f->seencap) {
		f->seencap = oldcap ? 2 * oldcap : 256;
		f->seen = ts_xcalloc(f->seencap, sizeof(*f->seen));
		for (i = 0; i < oldcap; i++)
			if (old[i].dev != 0 || old[i].ino != 0)
				f->seen[seen_slot(f->seen, f->seencap,
				    old[i].dev, old[i].ino)] = old[i];
		free(old);
	}
	i = seen_slot(f->seen, f->seencap, st->st_dev, st->st_ino);
	if (f->seen[i].dev == st->st_dev && f->seen[i].ino == st->st_ino &&
	    (st->st_dev != 0 || st->st_ino != 0))
		return true;
	f->seen[i].dev = st->st_dev;
	f->seen[i].ino = st->st_ino;
	f->nseen++;
	return false;
}

static void
push(char ***v, size_t *n, size_t *cap, char *s)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = ts_xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[(*n)++] = s;
}

/* Read folder dir (taken): a bundle is found, a folder goes on the
 * list.  -1 when it cannot be read (said). */
static int
visit(char *dir, struct found *f)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	char *p;
	int rv = 0;

	if (is_bundle(dir)) {
		push(&f->v, &f->n, &f->cap, dir);
		return 0;	/* a bundle is flat */
	}
	if ((d = opendir(dir)) == NULL) {
		ts_diag_io(f->d, dir, "%s", strerror(errno));
		free(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;	/* ., .., and hidden (.git) */
		p = ts_xasprintf("%s%s%s", dir, ts_has_suffix(dir, "/") ? "" :
		    "/", e->d_name);
		/* No link is followed below the operand, as find(1) by
		 * default: a link to .. or / would walk the tree again. */
		if (lstat(p, &st) != 0) {
			/* Gone meanwhile is nothing; a path too long for
			 * the system is what was not walked. */
			if (errno != ENOENT) {
				ts_diag_io(f->d, p, "%s", strerror(errno));
				rv = -1;
			}
		} else if (S_ISDIR(st.st_mode) && !met(f, &st)) {
			push(&f->todo, &f->ntodo, &f->todocap, p);
			continue;
		}
		free(p);
	}
	closedir(d);
	free(dir);
	return rv;
}

static int
walk(const char *dir, struct found *f, const struct stat *top)
{
	int rv = 0;

	met(f, top);
	push(&f->todo, &f->ntodo, &f->todocap, ts_xstrdup(dir));
	while (f->ntodo > 0)
		if (visit(f->todo[--f->ntodo], f) != 0)
			rv = -1;
	free(f->todo);
	free(f->seen);
	return rv;
}

int
fe_find_bundles(const char *dir, char ***paths, struct ts_diags *why)
{
	struct found f;
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (errno == 0 || S_ISREG(st.st_mode))
			errno = ENOTDIR;
		ts_diag_io(why, dir, "%s", strerror(errno));
		return -1;
	}
	memset(&f, 0, sizeof(f));
	f.d = why;
	if (walk(dir, &f, &st) != 0) {
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

/* ---- the operands, with -r's directories expanded ---- */

size_t
fe_operands(int argc, char *argv[], bool recursive, size_t max_per_rule,
    bool strict, char ***out, struct ts_diags ***whyv)
{
	struct ts_diags **w = NULL, *why;
	char **v = NULL, **found, *q;
	size_t n = 0, cap = 0;
	int i, k, nf;

	for (i = 0; i < argc; i++) {
		bool expand = recursive && strcmp(argv[i], "-") != 0 &&
		    access(argv[i], F_OK) == 0 && !ts_has_suffix(argv[i],
		    "_metadata.json");

		nf = 1;
		found = NULL;
		why = NULL;
		if (expand) {
			why = ts_diags_new(max_per_rule, strict);
			nf = fe_find_bundles(argv[i], &found, why);
			if (nf == 0) {
				q = ts_quote(argv[i], true);
				ts_diag(why, TS_SEV_ERROR, NULL, 0, 0,
				    TS_RULE_NONE, "%s: no bundle below it (a "
				    "folder holding NAME_metadata.json)", q);
				free(q);
			}
			if (nf > 0) {
				ts_diags_free(why);
				why = NULL;
			} else {
				free(found);
				found = NULL;
				nf = 1;
			}
		}
		if (n + (size_t)nf > cap) {
			cap = 2 * (n + (size_t)nf);
			v = ts_xreallocarray(v, cap, sizeof(*v));
			w = ts_xreallocarray(w, cap, sizeof(*w));
		}
		if (found == NULL) {
			w[n] = why;
			v[n++] = ts_xstrdup(argv[i]);
		} else
			for (k = 0; k < nf; k++) {
				w[n] = NULL;
				v[n++] = found[k];
			}
		free(found);
	}
	*out = v;
	*whyv = w;
	return n;
}

