/*
 * readme.c - --readme: a "Statistics" section in a bundle's README.md,
 * so that a collection's pages can be made from the bundles themselves:
 * the tables of the text report in Markdown, and a link to each picture
 * (relative to the bundle).  A section written before is replaced, from
 * its heading to the next heading of its level or above; the rest of
 * the file is kept.  The file is replaced as every writer of a bundle
 * replaces one: under the bundle's lock, through a temporary file
 * renamed into place.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define HEADING	"## Statistics"

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

/* The text of the README, less a Statistics section, malloc'd; *n its
 * length.  NULL with errno when it cannot be read (ENOENT: none). */
static char *
without_section(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "r");
	struct ts_strbuf b = { NULL, 0, 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool skip = false;

	if (fp == NULL)
		return NULL;
	ts_sbprintf(&b, "%s", "");
	while ((len = getline(&line, &cap, fp)) > 0) {
		if (strncmp(line, HEADING, strlen(HEADING)) == 0 &&
		    (line[strlen(HEADING)] == '\n' ||
		    line[strlen(HEADING)] == '\0')) {
			skip = true;
			continue;
		}
		if (skip && (strncmp(line, "# ", 2) == 0 ||
		    strncmp(line, "## ", 3) == 0))
			skip = false;
		if (!skip)
			ts_sbprintf(&b, "%s", line);
	}
	free(line);
	if (ferror(fp)) {
		int e = errno;

		fclose(fp);
		free(b.s);
		errno = e;
		return NULL;
	}
	fclose(fp);
	/* One blank line before the section. */
	while (b.n > 0 && b.s[b.n - 1] == '\n')
		b.s[--b.n] = '\0';
	*n = b.n;
	return b.s;
}

int
readme(struct tensor *t, const struct opts *o)
{
	const char *fname = t->fname[F_README] ? t->fname[F_README] :
	    "README.md";
	struct ts_bundle_out *bo;
	struct ts_sink *k;
	char *path, *old, *sec = NULL, *rel;
	size_t n = 0, len = 0, i;
	FILE *fp;
	int rv = -1;

	(void)o;
	if (t->dir == NULL) {
		ts_diag(t->d, TS_SEV_NOTE, t->path, 0, 0, "", "--readme: not a "
		    "bundle directory; no README written");
		return 0;
	}
	/* What an invalid bundle's entries say may be anything: nothing
	 * of them goes into its README. */
	if (!t->v.valid) {
		ts_diag(t->d, TS_SEV_NOTE, t->path, 0, 0, "", "--readme: the "
		    "bundle is not valid: its README is left as it was");
		return 0;
	}
	path = ts_xasprintf("%s/%s", t->dir, fname);
	if ((old = without_section(path, &n)) == NULL && errno != ENOENT) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		free(path);
		return -1;
	}
	if ((fp = open_memstream(&sec, &len)) == NULL) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	if (n > 0)
		fprintf(fp, "%s\n\n", old);
	fprintf(fp, "%s\n\nWhat `ts-stat --readme` found in the entries "
	    "(TensorSuite %s).\n\n", HEADING, TS_VERSION);
	report_table(fp, t, true);
	for (i = 0; i < t->npics; i++) {
		if (i == 0)
			fputc('\n', fp);
		rel = relative(t->dir, t->pics[i]);
		fprintf(fp, "![%s](", t->pic_what[i]);
		ts_fput_md_url(fp, rel);
		fputs(")\n", fp);
		free(rel);
	}
	if (fclose(fp) != 0) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	if ((bo = ts_bundle_out_open(t->dir, TS_BUNDLE_OUT_INPLACE |
	    TS_BUNDLE_OUT_WAIT)) == NULL) {
		ts_diag_io(t->d, t->dir, "%s", strerror(errno));
		goto out;
	}
	if ((k = ts_bundle_out_file(bo, fname)) == NULL) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		ts_bundle_out_abort(bo);
		goto out;
	}
	(void)ts_sink_write(k, sec, len);
	if (ts_sink_commit(k) != 0) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		ts_bundle_out_abort(bo);
		goto out;
	}
	if (ts_bundle_out_commit(bo, NULL) != 0) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	rv = 0;
out:
	free(sec);
	free(old);
	free(path);
	return rv;
}
