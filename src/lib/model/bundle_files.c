/*
 * bundle_files.c - a bundle's files as an archive packs them (SPEC B5):
 * which go in (its regular files) and why the others stay out, which the
 * metadata names, and the order a reader streams them by (the metadata,
 * the README, the text and binary data files, then the rest by name).
 * The archive writer asks this once and writes what it is told.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "model/model.h"
#include "util/xalloc.h"

const char *
ts_file_name_refused(const char *s, size_t n)
{
	size_t i;

	/* A name is what a line of SHA256SUMS, a terminal and every file
	 * system take as it is: no control character (a TAB, a newline),
	 * no '/', nothing a listing hides. */
	if (n == 0)
		return "a file without a name";
	if (s[0] == '.')
		return "a hidden file";
	if (n > 255)
		return "a file whose name is longer than 255 bytes";
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return "a file whose name holds a control character";
		else if (s[i] == '/')
			return "a file in a folder of the bundle";
	return NULL;
}

const char *
ts_bundle_left_out(struct ts_bundle *bd, const char *fname)
{
	struct ts_file_stat fs;
	const char *why;

	/*
	 * A symbolic link is never followed (what it points to is not the
	 * bundle's, and changes the archive with the world outside), nor
	 * stored, since no archive of bundles holds a link (ts_unpack
	 * refuses one); a folder, a name a reader refuses and anything
	 * else but a regular file are left out too.
	 */
	if ((why = ts_file_name_refused(fname, strlen(fname))) != NULL)
		return why;
	if (ts_bundle_stat(bd, fname, &fs) != 0)
		return NULL;	/* the packing says why */
	if (fs.link)
		return "a symbolic link";
	if (fs.dir)
		return "a folder";
	return fs.regular && fs.size >= 0 ? NULL : "not a regular file";
}

/* Does the metadata name fname (B3), so that the bundle without it
 * would not be whole? */
static bool
named(struct ts_bundle *bd, const char *fname)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	const char *k, *f;
	char *meta;
	json_t *v;
	bool yes;

	meta = ts_xasprintf("%s_metadata.json", ts_bundle_name(bd));
	yes = strcmp(fname, meta) == 0;
	free(meta);
	if (yes || m == NULL)
		return yes;
	if ((m->f_text && strcmp(m->f_text, fname) == 0) ||
	    (m->f_binary && strcmp(m->f_binary, fname) == 0) ||
	    (m->f_readme && strcmp(m->f_readme, fname) == 0))
		return true;
	if (m->f_other != NULL)
		json_object_foreach((json_t *)m->f_other, k, v)
			if ((f = json_string_value(v)) != NULL &&
			    strcmp(f, fname) == 0)
				return true;
	return false;
}

struct files {
	struct ts_bundle_file	*v;
	size_t			 n;
};

static int
collect(const char *fname, void *arg)
{
	struct files *fs = arg;

	fs->v = ts_xreallocarray(fs->v, fs->n + 1, sizeof(*fs->v));
	memset(&fs->v[fs->n], 0, sizeof(fs->v[fs->n]));
	fs->v[fs->n++].name = ts_xstrdup(fname);
	return 0;
}

static int
bycode(const void *a, const void *b)
{
	return strcmp(((const struct ts_bundle_file *)a)->name,
	    ((const struct ts_bundle_file *)b)->name);
}

int
ts_bundle_files(struct ts_bundle *bd, struct ts_bundle_file **vp,
    size_t *np)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	const char *name = ts_bundle_name(bd);
	struct files fs = { NULL, 0 };
	char *first[4];
	size_t i, j;

	*vp = NULL;
	*np = 0;
	if (ts_bundle_list(bd, collect, &fs) != 0) {
		ts_bundle_files_free(fs.v, fs.n);
		return -1;
	}
	qsort(fs.v, fs.n, sizeof(*fs.v), bycode);
	/* The order a reader streams by (SPEC B5); the rest by name. */
	first[0] = ts_xasprintf("%s_metadata.json", name);
	first[1] = ts_xstrdup(m && m->f_readme ? m->f_readme : "README.md");
	first[2] = m && m->f_text ? ts_xstrdup(m->f_text) :
	    ts_xasprintf("%s.tns", name);
	first[3] = m && m->f_binary ? ts_xstrdup(m->f_binary) :
	    ts_xasprintf("%s.tnsb", name);
	for (j = 0; j < fs.n; j++) {
		struct ts_bundle_file *f = &fs.v[j];

		f->shown = ts_bundle_path(bd, f->name);
		f->left_out = ts_bundle_left_out(bd, f->name);
		f->named = f->left_out != NULL && named(bd, f->name);
		f->rank = 4;
		for (i = 0; i < 4 && f->left_out == NULL; i++)
			if (strcmp(f->name, first[i]) == 0) {
				f->rank = (int)i;
				break;
			}
	}
	for (i = 0; i < 4; i++)
		free(first[i]);
	*vp = fs.v;
	*np = fs.n;
	return 0;
}

void
ts_bundle_files_free(struct ts_bundle_file *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].shown);
	}
	free(v);
}
