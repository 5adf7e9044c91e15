/*
 * readme.c - what ts-stat writes into a bundle directory, so that a
 * collection's pages can be made from the bundles themselves: with
 * --readme, a "Statistics" section in its README.md, the tables of the
 * text report in Markdown and a link to each picture (relative to the
 * bundle); with --plot and no directory, its pictures, in its folder
 * pictures/ (tensorsuite(5) B6), which the bundle's archives and
 * checksums hold.  A section written before is replaced, from its
 * heading to the next heading of its level or above; the rest of the
 * file is kept.  The folder of pictures is ts-stat's: replaced whole
 * when a picture in it changes, or one is there that it would not
 * draw.  What holds the same bytes as before is left alone: a bundle
 * that nothing changed in is not written at all, so that a second run
 * changes nothing.  The files are replaced as every writer of a bundle
 * replaces them: through the bundle writer, under the bundle's lock,
 * taken before the entries are read, so that no rewrite of the bundle
 * comes between what is written and the bundle it goes into.  The old
 * README and pictures are read as files of the bundle: never through a
 * link, never from a FIFO or a device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stat.h"
#include "image.h"
#include "readme.h"
#include "io/io.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The path from directory from to file to, both made absolute. */
static char *
relative(const char *from, const char *to)
{
	char *f = realpath(from, NULL), *t = realpath(to, NULL), *p;
	struct ts_strbuf b = { NULL, 0, 0 };
	size_t i, common = 0;

	if (f == NULL || t == NULL) {
		free(f);
		free(t);
		return ts_xstrdup(to);
	}
	/* The directories both start with, then ".." for each of f's
	 * left. */
	for (i = 0; f[i] != '\0' && f[i] == t[i]; i++)
		if (f[i] == '/')
			common = i;
	if (f[i] == '\0' && t[i] == '/')
		common = i;
	ts_sbprintf(&b, "%s", "");
	for (p = f + common; *p != '\0'; p++)
		if (*p == '/' && p[1] != '\0')
			ts_sbprintf(&b, "../");
	ts_sbprintf(&b, "%s", t + common + 1);
	free(f);
	free(t);
	return b.s;
}

/*
 * The text of the README at path, malloc'd; *n its length.  Read as a
 * file of the bundle is: never through a symbolic link, never from
 * anything but a regular file (a FIFO would block, a device never end).
 * NULL with errno when it cannot be read (ENOENT: there is none;
 * ELOOP: a link; EINVAL: not a regular file).
 */
static char *
read_readme(const char *path, size_t *n)
{
	struct ts_strbuf b = { NULL, 0, 0 };
	struct stat st;
	char buf[1 << 16];
	ssize_t r;
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return NULL;
	e = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
	if (e != 0) {
		close(fd);
		errno = e;
		return NULL;
	}
	ts_sbprintf(&b, "%s", "");
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		if (b.n + (size_t)r + 1 > b.cap) {
			b.cap = 2 * (b.n + (size_t)r + 1);
			b.s = ts_xrealloc(b.s, b.cap);
		}
		memcpy(b.s + b.n, buf, (size_t)r);
		b.n += (size_t)r;
		b.s[b.n] = '\0';
	}
	e = errno;
	close(fd);
	if (r < 0) {
		free(b.s);
		errno = e;
		return NULL;
	}
	*n = b.n;
	return b.s;
}

void
bundle_lock(struct tensor *t)
{
	if (t->dir != NULL && (t->bo = ts_bundle_out_open(t->dir,
	    TS_BUNDLE_OUT_INPLACE | TS_BUNDLE_OUT_WAIT)) == NULL)
		ts_diag_io(t->d, t->dir, "%s", strerror(errno));
}

/* Give up the bundle's writer, and its lock. */
static int
give_up(struct tensor *t, int rv)
{
	ts_bundle_out_abort(t->bo);
	t->bo = NULL;
	return rv;
}

/*
 * The README with its Statistics section, written anew, into *out
 * (malloc'd, *len bytes); *same when it holds what the file does.  -1
 * when the README cannot be read (reported).
 */
static int
readme_text(struct tensor *t, const char *path, char **out, size_t *len,
    bool *same)
{
	char *old, *cut = NULL, *rel;
	size_t n, oldn = 0, i;
	FILE *fp;

	*out = NULL;
	*len = 0;
	if ((old = read_readme(path, &oldn)) == NULL && errno != ENOENT) {
		if (errno == ELOOP || errno == EINVAL)
			ts_diag_io(t->d, path, "%s: a README is written into a "
			    "regular file of the bundle only; nothing written",
			    errno == ELOOP ? "a symbolic link" :
			    "not a regular file");
		else
			ts_diag_io(t->d, path, "%s", strerror(errno));
		return -1;
	}
	if (old != NULL) {
		/* Text: past a NUL, nothing is kept. */
		cut = ts_xstrdup(old);
		fe_readme_cut(cut);
		/* One blank line before the section. */
		for (i = strlen(cut); i > 0 && cut[i - 1] == '\n'; i--)
			cut[i - 1] = '\0';
	}
	if ((fp = open_memstream(out, len)) == NULL) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		free(old);
		free(cut);
		return -1;
	}
	if (cut != NULL && *cut != '\0')
		fprintf(fp, "%s\n\n", cut);
	fprintf(fp, "%s\n\nWhat `ts-stat --readme` found in the entries "
	    "(TensorSuite %s).\n\n", FE_README_HEADING, TS_VERSION);
	report_table(fp, t, true);
	for (i = 0, n = 0; i < t->npic; i++) {
		const struct picture *pc = &t->pic[i];

		if (pc->path == NULL)
			continue;
		if (n++ == 0)
			fputc('\n', fp);
		rel = pc->inside ? ts_xasprintf("%s/%s", PICTURES, pc->file) :
		    relative(t->dir, pc->path);
		fprintf(fp, "![%s](", pc->what);
		ts_fput_md_url(fp, rel);
		fputs(")\n", fp);
		free(rel);
	}
	if (fclose(fp) != 0) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		free(old);
		free(cut);
		free(*out);
		*out = NULL;
		return -1;
	}
	*same = old != NULL && oldn == *len && memcmp(old, *out, *len) == 0;
	free(old);
	free(cut);
	return 0;
}

/*
 * The pictures of t as they would be in its bundle's folder: each one's
 * path set; whether the folder must be written anew (a picture differs
 * or is missing, or a file is there that is none of them): 1, or 0; -1
 * when the folder is no folder (reported).
 */
static int
pictures_changed(struct tensor *t)
{
	char *dir = ts_xasprintf("%s/%s", t->dir, PICTURES);
	struct dirent *e;
	struct stat st;
	size_t i, files = 0;
	int changed = 0;
	DIR *d;

	for (i = 0; i < t->npic; i++) {
		t->pic[i].path = ts_xasprintf("%s/%s", dir, t->pic[i].file);
		t->pic[i].inside = true;
	}
	if (lstat(dir, &st) != 0) {
		free(dir);
		return t->npic > 0;
	}
	if (!S_ISDIR(st.st_mode) || (d = opendir(dir)) == NULL) {
		ts_diag_io(t->d, dir, "%s: the pictures of a bundle go into "
		    "a folder of it; none written", S_ISLNK(st.st_mode) ?
		    "a symbolic link" : !S_ISDIR(st.st_mode) ?
		    "not a folder" : strerror(errno));
		free(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		files += strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0;
	closedir(d);
	for (i = 0; i < t->npic && !changed; i++)
		changed = !same_file(t->pic[i].path, t->pic[i].png,
		    t->pic[i].len);
	free(dir);
	return changed || files != t->npic;
}

/* Write file fname of the bundle through its writer: 0, or -1. */
static int
put(struct tensor *t, const char *fname, const char *p, size_t n)
{
	struct ts_sink *k;
	char *path = ts_xasprintf("%s/%s", t->dir, fname);
	int rv = -1;

	if ((k = ts_bundle_out_file(t->bo, fname)) == NULL)
		ts_diag_io(t->d, path, "%s", strerror(errno));
	else if (ts_sink_write(k, p, n) != 0 || ts_sink_commit(k) != 0)
		ts_diag_io(t->d, path, "%s", strerror(errno));
	else
		rv = 0;
	free(path);
	return rv;
}

/* The pictures found in the bundle's folder: their paths set, to be
 * linked (--readme without --plot). */
static void
pictures_found(struct tensor *t)
{
	struct stat st;
	size_t i;

	for (i = 0; i < t->npic; i++) {
		char *p = ts_xasprintf("%s/%s/%s", t->dir, PICTURES,
		    t->pic[i].file);

		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			t->pic[i].path = p;
			t->pic[i].inside = true;
		} else
			free(p);
	}
}

/* The paths of the pictures inside: forgotten (not written). */
static void
pictures_lost(struct tensor *t)
{
	size_t i;

	for (i = 0; i < t->npic; i++)
		if (t->pic[i].inside) {
			free(t->pic[i].path);
			t->pic[i].path = NULL;
			t->pic[i].inside = false;
		}
}

int
bundle_write(struct tensor *t, const struct opts *o)
{
	const bool inside = o->plot && o->plot_dir == NULL;
	const char *fname = t->fname[F_README] ? t->fname[F_README] :
	    "README.md", *opt = o->readme ? "--readme" : "--plot";
	char *path, *text = NULL, *pf;
	size_t len = 0, i;
	bool same = true;
	int pics = 0, rv = -1;

	if (t->dir == NULL) {
		ts_diag(t->d, TS_SEV_NOTE, t->path, 0, 0, TS_RULE_NONE,
		    "%s: not a bundle directory; nothing written into it%s",
		    opt, inside ? " (--plot=DIR writes its pictures into DIR)" :
		    "");
		return 0;
	}
	/* What an invalid bundle's entries say may be anything: nothing
	 * of them goes into it (nor into a file 'files' names twice,
	 * which B3 refuses). */
	if (!t->v.valid) {
		ts_diag(t->d, TS_SEV_NOTE, t->path, 0, 0, TS_RULE_NONE,
		    "%s: the bundle is not valid: nothing is written into it",
		    opt);
		return give_up(t, 0);
	}
	if (t->bo == NULL)
		return -1;	/* said when its lock was asked for */
	if (inside && (pics = pictures_changed(t)) < 0) {
		pictures_lost(t);
		return give_up(t, -1);
	}
	if (!inside && o->readme && o->plot_dir == NULL)
		pictures_found(t);
	path = ts_xasprintf("%s/%s", t->dir, fname);
	if (o->readme && readme_text(t, path, &text, &len, &same) != 0)
		goto out;
	if (pics == 0 && same) {
		/* Nothing changed: the bundle is left alone. */
		rv = 0;
		goto out;
	}
	if (!same && put(t, fname, text, len) != 0)
		goto out;
	if (pics > 0) {
		/* The folder anew, whole: the old one goes. */
		ts_bundle_out_drop(t->bo, PICTURES);
		for (i = 0; i < t->npic; i++) {
			pf = ts_xasprintf("%s/%s", PICTURES, t->pic[i].file);
			rv = put(t, pf, t->pic[i].png, t->pic[i].len);
			free(pf);
			if (rv != 0)
				goto out;
		}
	}
	rv = ts_bundle_out_commit(t->bo, NULL);
	t->bo = NULL;
	if (rv != 0)
		ts_diag_io(t->d, t->dir, "%s", strerror(errno));
out:
	if (rv != 0)
		pictures_lost(t);
	free(text);
	free(path);
	return give_up(t, rv);
}
