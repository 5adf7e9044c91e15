/*
 * bundle.c - find a bundle's files on disk (B1-B3) and read its metadata.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tensorsuite.h"

static const char META_SUFFIX[] = "_metadata.json";

static bool
exists(const char *path, bool *isreg)
{
	struct stat st;

	if (stat(path, &st) == -1)
		return false;
	*isreg = S_ISREG(st.st_mode);
	return true;
}

/* The last component of a directory path, trailing slashes ignored. */
static char *
lastcomp(const char *dir)
{
	char *t = ts_xstrdup(dir), *s, *r;
	size_t n = strlen(t);

	while (n > 1 && t[n - 1] == '/')
		t[--n] = '\0';
	s = strrchr(t, '/');
	s = s ? s + 1 : t;
	if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0 || *s == '\0') {
		char *rp = realpath(dir, NULL);

		free(t);
		if (rp == NULL)
			return ts_xstrdup("");
		s = strrchr(rp, '/');
		r = ts_xstrdup(s ? s + 1 : rp);
		free(rp);
		return r;
	}
	r = ts_xstrdup(s);
	free(t);
	return r;
}

static char *
joinpath(const char *dir, const char *file)
{
	size_t n = strlen(dir);

	return ts_xasprintf("%s%s%s", dir, n > 0 && dir[n - 1] == '/' ? "" :
	    "/", file);
}

/* A data file named in 'files': must exist, and be NAME.tns(b) (B2). */
static char *
datafile(struct ts_bundle *bd, const char *fname, const char *ext,
    const char *key, struct ts_diags *d)
{
	char *p, *want;
	bool reg = false, there;

	if (fname == NULL)
		return NULL;
	p = joinpath(bd->dir, fname);
	if (!(there = exists(p, &reg)) || !reg) {
		ts_diag(d, TS_ERROR, bd->meta_path, 0, 0, "B3", "'files.%s' "
		    "names '%s', which %s", key, fname, there ? "is not a "
		    "regular file" : "does not exist");
		free(p);
		return NULL;
	}
	want = ts_xasprintf("%s%s", bd->name, ext);
	if (strcmp(want, fname) != 0)
		ts_diag(d, TS_ERROR, bd->meta_path, 0, 0, "B2", "'files.%s' "
		    "is '%s'; the bundle's %s file must be '%s'", key, fname,
		    key, want);
	free(want);
	return p;
}

int
ts_bundle_open(struct ts_bundle *bd, const char *path, struct ts_diags *d)
{
	struct ts_meta *m = &bd->meta;
	struct stat st;
	size_t n = strlen(path);
	bool reg;
	char *p;

	memset(bd, 0, sizeof(*bd));
	ts_meta_init(m);
	if (stat(path, &st) == -1) {
		/* Nothing there is a missing bundle; anything else is the
		 * system failing us. */
		if (errno == ENOENT || errno == ENOTDIR)
			ts_diag(d, TS_ERROR, path, 0, 0, "B1", "no such bundle "
			    "directory or metadata file");
		else
			ts_diag_io(d, path, "%s", strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		bd->dir = ts_xstrdup(path);
		bd->name = lastcomp(path);
		bd->meta_path = ts_xasprintf("%s%s%s%s", path,
		    n > 0 && path[n - 1] == '/' ? "" : "/", bd->name,
		    META_SUFFIX);
	} else {
		const char *base = strrchr(path, '/');
		size_t bl;

		base = base ? base + 1 : path;
		bl = strlen(base);
		if (bl <= sizeof(META_SUFFIX) - 1 || strcmp(base + bl -
		    (sizeof(META_SUFFIX) - 1), META_SUFFIX) != 0) {
			ts_diag(d, TS_ERROR, path, 0, 0, "B1", "not a bundle: "
			    "give the bundle directory or its "
			    "NAME_metadata.json file");
			return -1;
		}
		bd->dir = base == path ? ts_xstrdup(".") :
		    ts_xasprintf("%.*s", (int)(base - path), path);
		bd->name = ts_xasprintf("%.*s", (int)(bl -
		    (sizeof(META_SUFFIX) - 1)), base);
		bd->meta_path = ts_xstrdup(path);
		{
			char *dn = lastcomp(bd->dir);

			if (strcmp(dn, bd->name) != 0)
				ts_diag(d, TS_ERROR, path, 0, 0, "B2",
				    "the metadata file is for '%s' but the "
				    "folder is '%s'", bd->name, dn);
			free(dn);
		}
	}
	if (!exists(bd->meta_path, &reg)) {
		ts_diag(d, TS_ERROR, bd->meta_path, 0, 0, "B1", "no metadata "
		    "file: a bundle '%s' holds '%s%s'", bd->name, bd->name,
		    META_SUFFIX);
		return -1;
	}
	if (ts_meta_read(m, bd->meta_path, d) != 0)
		return -1;
	bd->meta_ok = true;
	if (m->name != NULL && strcmp(m->name, bd->name) != 0)
		ts_diag(d, TS_ERROR, bd->meta_path, 0, 0, "B2", "'name' is "
		    "'%s' but the bundle is '%s'", m->name, bd->name);
	bd->text_path = datafile(bd, m->f_text, ".tns", "text", d);
	bd->binary_path = datafile(bd, m->f_binary, ".tnsb", "binary", d);
	if (m->f_readme != NULL) {
		p = joinpath(bd->dir, m->f_readme);
		if (!exists(p, &reg))
			ts_diag(d, TS_ERROR, bd->meta_path, 0, 0, "B3",
			    "'files.readme' names '%s', which does not "
			    "exist", m->f_readme);
		free(p);
	} else {
		p = joinpath(bd->dir, "README.md");
		if (!exists(p, &reg))
			ts_diag(d, TS_WARNING, bd->meta_path, 0, 0, "B1",
			    "the bundle has no README.md");
		free(p);
	}
	if (m->f_other != NULL) {
		const char *k;
		json_t *v;

		json_object_foreach((json_t *)m->f_other, k, v) {
			const char *f = json_string_value(v);

			if (f == NULL || *f == '\0')
				continue;
			p = joinpath(bd->dir, f);
			if (!exists(p, &reg))
				ts_diag(d, TS_ERROR, bd->meta_path, 0, 0,
				    "B3", "'files.%s' names '%s', which does "
				    "not exist", k, f);
			free(p);
		}
	}
	/* Data files that are there but not named (B3: a warning). */
	if ((m->have & TS_HAVE_FILES) && bd->name[0] != '\0') {
		static const char *const exts[] = { ".tns", ".tnsb" };

		for (int i = 0; i < 2; i++) {
			const char *named = i ? m->f_binary : m->f_text;
			char *fn = ts_xasprintf("%s%s", bd->name, exts[i]);

			p = joinpath(bd->dir, fn);
			if (named == NULL && exists(p, &reg))
				ts_diag(d, TS_WARNING, bd->meta_path, 0, 0,
				    "B3", "'%s' is in the bundle but 'files' "
				    "does not name it", fn);
			free(p);
			free(fn);
		}
	}
	return 0;
}

void
ts_bundle_free(struct ts_bundle *bd)
{
	free(bd->dir);
	free(bd->name);
	free(bd->meta_path);
	free(bd->text_path);
	free(bd->binary_path);
	ts_meta_free(&bd->meta);
	memset(bd, 0, sizeof(*bd));
}
