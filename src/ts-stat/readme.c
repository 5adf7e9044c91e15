/*
 * readme.c - --readme: a "Statistics" section in a bundle's README.md,
 * so that a collection's pages can be made from the bundles themselves:
 * the tables of the text report in Markdown, and a link to each picture
 * (relative to the bundle).  A section written before is replaced, from
 * its heading to the next heading of its level or above; the rest of
 * the file is kept.  The file is replaced as every writer of a bundle
 * replaces one: through the bundle writer, under the bundle's lock,
 * taken before the entries are read, so that no rewrite of the bundle
 * comes between what the section says and the bundle it goes into.
 * The old README is read as a file of the bundle: never through a
 * link, never from a FIFO or a device.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stat.h"
#include "readme.h"
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
 * The text of the README at path, less a Statistics section, malloc'd;
 * *n its length.  Read as a file of the bundle is: never through a
 * symbolic link, never from anything but a regular file (a FIFO would
 * block, a device never end).  NULL with errno when it cannot be read
 * (ENOENT: there is none; ELOOP: a link; EINVAL: not a regular file).
 */
static char *
without_section(const char *path, size_t *n)
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
	while ((r = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[r] = '\0';
		ts_sbprintf(&b, "%s", buf);
	}
	e = errno;
	close(fd);
	if (r < 0) {
		free(b.s);
		errno = e;
		return NULL;
	}
	fe_readme_cut(b.s);
	/* One blank line before the section. */
	b.n = strlen(b.s);
	while (b.n > 0 && b.s[b.n - 1] == '\n')
		b.s[--b.n] = '\0';
	*n = b.n;
	return b.s;
}

void
readme_lock(struct tensor *t)
{
	if (t->dir != NULL && (t->bo = ts_bundle_out_open(t->dir,
	    TS_BUNDLE_OUT_INPLACE | TS_BUNDLE_OUT_WAIT)) == NULL)
		ts_diag_io(t->d, t->dir, "--readme: %s", strerror(errno));
}

/* Give up the README's writer, and its lock. */
static int
give_up(struct tensor *t, int rv)
{
	ts_bundle_out_abort(t->bo);
	t->bo = NULL;
	return rv;
}

int
readme(struct tensor *t, const struct opts *o)
{
	const char *fname = t->fname[F_README] ? t->fname[F_README] :
	    "README.md";
	struct ts_sink *k;
	char *path, *old, *sec = NULL, *rel;
	size_t n = 0, len = 0, i;
	FILE *fp;
	int rv = -1;

	(void)o;
	if (t->dir == NULL) {
		ts_diag(t->d, TS_SEV_NOTE, t->path, 0, 0, TS_RULE_NONE,
		    "--readme: not a bundle directory; no README written");
		return 0;
	}
	/* What an invalid bundle's entries say may be anything: nothing
	 * of them goes into its README (nor into a file 'files' names
	 * twice, which B3 refuses). */
	if (!t->v.valid) {
		ts_diag(t->d, TS_SEV_NOTE, t->path, 0, 0, TS_RULE_NONE,
		    "--readme: the bundle is not valid: its README is left as "
		    "it was");
		return give_up(t, 0);
	}
	if (t->bo == NULL)
		return -1;	/* said when its lock was asked for */
	path = ts_xasprintf("%s/%s", t->dir, fname);
	if ((old = without_section(path, &n)) == NULL && errno != ENOENT) {
		if (errno == ELOOP || errno == EINVAL)
			ts_diag_io(t->d, path, "%s: a README is written into a "
			    "regular file of the bundle only; nothing written",
			    errno == ELOOP ? "a symbolic link" :
			    "not a regular file");
		else
			ts_diag_io(t->d, path, "%s", strerror(errno));
		free(path);
		return give_up(t, -1);
	}
	if ((fp = open_memstream(&sec, &len)) == NULL) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	if (n > 0)
		fprintf(fp, "%s\n\n", old);
	fprintf(fp, "%s\n\nWhat `ts-stat --readme` found in the entries "
	    "(TensorSuite %s).\n\n", FE_README_HEADING, TS_VERSION);
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
	if ((k = ts_bundle_out_file(t->bo, fname)) == NULL) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	(void)ts_sink_write(k, sec, len);
	if (ts_sink_commit(k) != 0) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	rv = ts_bundle_out_commit(t->bo, NULL);
	t->bo = NULL;
	if (rv != 0)
		ts_diag_io(t->d, path, "%s", strerror(errno));
out:
	free(sec);
	free(old);
	free(path);
	return give_up(t, rv);
}
