/*
 * sums.c - ts-validate --checksums FILE: the files a SHA256SUMS lists,
 * on disk, against their digests (tensorsuite(5) A1), as `sha256sum -c`
 * checks them: each path from the current directory.  A listed file
 * that is missing or differs is an error at FILE:LINE; so is a file of
 * a listed bundle's folder that FILE does not list, as in an archive.
 * The folders of the listed files are the bundles checked when no PATH
 * is given.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "validate.h"
#include "archive/archive_int.h"
#include "util/path.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "util/xalloc.h"

#define BUF	(1 << 20)

/*
 * Why a listed path is not opened: it must lie below the directory it
 * is taken from, as a member of an archive lies below the one it is
 * unpacked into.  NULL when it does.
 */
static const char *
outside(const char *p)
{
	const char *c;
	size_t n;

	if (*p == '/')
		return "it is absolute";
	for (c = p; *c != '\0'; c += n + (c[n] == '/')) {
		n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.')
			return "it climbs out with '..'";
	}
	return NULL;
}

/*
 * The digest of the file at path into d: 0, or -1 with errno (EINVAL:
 * not a regular file).  Opened as every reader opens a file it did not
 * make: without waiting (a FIFO with no writer would block the open and
 * the reads for ever), then taken only if it is a regular file.
 */
static int
digest(const char *path, char *buf, unsigned char *d)
{
	struct ts_sha256 h;
	struct stat st;
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = e;
		return -1;
	}
	if (ts_sha256_init(&h) != 0) {
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, BUF)) > 0)
		if (ts_sha256_update(&h, buf, (size_t)n) != 0) {
			n = -1;
			break;
		}
	e = errno;
	close(fd);
	if (n < 0) {
		ts_sha256_free(&h);
		errno = e;
		return -1;
	}
	return ts_sha256_final(&h, d);
}

/* Add the folder of path to *dirs unless it is there. */
static void
add_dir(const char *path, char ***dirs, size_t *n)
{
	char *dir = ts_dirname(path);
	size_t i;

	if (strcmp(dir, ".") == 0) {
		free(dir);
		return;
	}
	for (i = 0; i < *n; i++)
		if (strcmp((*dirs)[i], dir) == 0) {
			free(dir);
			return;
		}
	*dirs = ts_xreallocarray(*dirs, *n + 1, sizeof(**dirs));
	(*dirs)[(*n)++] = dir;
}

/* The files of folder dir that mf does not list: errors. */
static void
unlisted(struct ts_manifest *mf, const char *dir, struct ts_diags *d)
{
	struct dirent *de;
	struct stat st;
	char *p, *shown;
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = ts_xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    ts_manifest_find(mf, p) == NULL) {
			shown = ts_member_shown(p);
			ts_diag(d, TS_SEV_ERROR, shown, 0, 0, TS_RULE_A1,
			    "it is not listed in the checksums: its data "
			    "cannot be verified");
			free(shown);
		}
		free(p);
	}
	closedir(dp);
}

void
check_sums(const char *file, const struct opts *o, struct ts_diags **out,
    char ***dirs, size_t *ndirs)
{
	struct ts_diags *d = ts_diags_new(o->max_per_rule, o->strict);
	unsigned char dg[TS_SHA256_LEN];
	struct ts_manifest mf;
	struct ts_source *src;
	char *data = NULL, *buf, *shown;
	const char *why;
	size_t len = 0, i;
	long n;

	*out = d;
	*dirs = NULL;
	*ndirs = 0;
	if ((src = ts_source_open_file(file)) == NULL) {
		ts_diag_io(d, file, "%s", strerror(errno));
		return;
	}
	buf = ts_xmalloc(BUF);
	while ((n = ts_source_read(src, buf, BUF)) > 0) {
		data = ts_xrealloc(data, len + (size_t)n);
		memcpy(data + len, buf, (size_t)n);
		len += (size_t)n;
	}
	if (n < 0) {
		ts_diag_io(d, file, "read error: %s", ts_source_error(src) ?
		    ts_source_error(src) : strerror(errno));
		ts_source_close(src);
		free(buf);
		free(data);
		return;
	}
	ts_source_close(src);
	ts_manifest_parse(&mf, data, len, file, d);
	free(data);
	for (i = 0; i < mf.n; i++) {
		const struct ts_manifest_entry *e = &mf.e[i];

		if (mf.e[i].found)	/* listed twice: said */
			continue;
		shown = ts_member_shown(e->raw);
		ts_progress(i, mf.n, false, "checking %s", shown);
		if ((why = outside(e->raw)) != NULL) {
			ts_diag(d, TS_SEV_ERROR, file, e->line, 0, TS_RULE_A1,
			    "'%s' is listed, but a listed path must lie below "
			    "the directory it is taken from: %s", shown, why);
			free(shown);
			continue;
		}
		if (digest(e->raw, buf, dg) != 0) {
			if (errno == ENOENT || errno == ENOTDIR)
				ts_diag(d, TS_SEV_ERROR, file, e->line, 0,
				    TS_RULE_A1, "'%s' is listed, but there is "
				    "no such file", shown);
			else if (errno == EISDIR || errno == EINVAL)
				ts_diag(d, TS_SEV_ERROR, file, e->line, 0,
				    TS_RULE_A1, "'%s' is listed, but it is "
				    "not a regular file", shown);
			else
				ts_diag_io(d, shown, "%s", strerror(errno));
			free(shown);
			continue;
		}
		if (memcmp(dg, e->digest, sizeof(dg)) != 0)
			ts_diag(d, TS_SEV_ERROR, file, e->line, 0, TS_RULE_A1,
			    "'%s': its SHA-256 differs from the one listed",
			    shown);
		free(shown);
		/* A bundle is checked where a listed file was read. */
		add_dir(e->path, dirs, ndirs);
	}
	for (i = 0; i < *ndirs; i++)
		unlisted(&mf, (*dirs)[i], d);
	ts_progress_clear();
	ts_manifest_free(&mf);
	free(buf);
}
