/*
 * unpack.c - the bundles of an archive unpacked into a directory,
 * safely: an archive may come from anyone.  Every member must be one a
 * bundle may hold (NAME/ or NAME/FILE; no absolute path, no '..', no
 * link, device or FIFO), none may come twice, and the caps on the
 * number of members and the bytes of data stop an archive bomb at its
 * header, before anything is written.  Files are created with
 * O_EXCL|O_NOFOLLOW under a fresh temporary directory inside the target
 * one, so nothing can land outside it; the bundles are checked there,
 * and renamed into place only when every one is good: a hostile or
 * invalid member leaves nothing behind.  The archive's manifest,
 * SHA256SUMS at its root, is written beside the bundles, last, so that
 * `sha256sum -c SHA256SUMS` there checks what was unpacked; one already
 * there keeps its lines for other bundles, so that archives unpacked one
 * after the other into a directory leave one manifest of them all,
 * written canonical whatever rule A1 let either spell.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "archive/archive_int.h"
#include "io/io.h"
#include "util/path.h"
#include "util/progress.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define DEF_MAX_SIZE	(8ULL << 30)
#define DEF_MAX_MEMBERS	100000
#define COPYBUF		(1 << 20)

struct unpack {
	const struct ts_unpack_opts *o;
	struct ts_diags	*d;
	const char	*label;		/* the archive in messages */
	const char	*dir;
	char		*tmp;		/* the temporary directory */
	int		 tfd;
	char		**names;	/* bundles, in order */
	char		**target;	/* ... where each goes */
	char		**stage;	/* ... where each is unpacked */
	size_t		 n;
	char		*buf;
	bool		 manifest;	/* the archive has one: mf */
	struct ts_manifest mf;
};

/* The index of bundle b, or -1 when it was not met yet. */
static long
bundle_index(struct unpack *u, const char *b)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (strcmp(u->names[i], b) == 0)
			return (long)i;
	return -1;
}

/* A member refused: said, naming it; the unpack stops. */
static int
refuse(struct unpack *u, const struct ts_member *m, const char *why)
{
	char *shown = ts_member_shown(m->name);

	ts_diag(u->d, TS_SEV_ERROR, u->label, 0, 0, TS_RULE_B5, "member '%s' "
	    "is refused: %s", shown, why);
	free(shown);
	return -1;
}

/*
 * A bundle met for the first time: may it go in, and its folder.  A
 * symbolic link there is written through (ts_write_path): the bundle is
 * then unpacked beside what the link points to, so that it can take its
 * place in one step.
 */
static int
new_bundle(struct unpack *u, const char *b)
{
	char *link = ts_xasprintf("%s/%s", u->dir, b), *m, *which, *parent;
	char *target = ts_write_path(link), *stage = NULL;
	struct stat st, ms;
	int rv = 0;

	if (lstat(target, &st) == 0) {
		m = ts_xasprintf("%s/%s_metadata.json", target, b);
		if (!u->o->force) {
			ts_diag_usage(u->d, "'%s' exists (-f replaces it)",
			    link);
			rv = -1;
		} else if (!S_ISDIR(st.st_mode) || lstat(m, &ms) != 0) {
			ts_diag_usage(u->d, "'%s' exists and is not a bundle: "
			    "-f replaces only a bundle", link);
			rv = -1;
		} else if (ts_removable(target, &which) != 0) {
			/* Found now, not once the old bundle is moved
			 * where it could not be removed from. */
			ts_diag_io(u->d, link, "cannot be replaced: '%s' is "
			    "not writable (%s); nothing unpacked", which,
			    strerror(errno));
			free(which);
			rv = -1;
		}
		free(m);
	}
	if (rv == 0 && strcmp(link, target) == 0) {
		if (mkdirat(u->tfd, b, 0755) == 0)
			stage = ts_xasprintf("%s/%s", u->tmp, b);
		else {
			ts_diag_io(u->d, u->tmp, "%s", strerror(errno));
			rv = -1;
		}
	} else if (rv == 0) {
		parent = ts_dirname(target);
		stage = ts_tmpname(parent, ts_basename(target), NULL);
		free(parent);
		ts_cleanup_add(stage, true);
		if (mkdtemp(stage) == NULL) {
			ts_diag_io(u->d, link, "%s", strerror(errno));
			ts_cleanup_remove(stage);
			free(stage);
			stage = NULL;
			rv = -1;
		} else
			chmod(stage, 0755 & ~ts_umask());
	}
	free(link);
	if (rv != 0) {
		free(target);
		return rv;
	}
	u->names = ts_xreallocarray(u->names, u->n + 1, sizeof(*u->names));
	u->target = ts_xreallocarray(u->target, u->n + 1,
	    sizeof(*u->target));
	u->stage = ts_xreallocarray(u->stage, u->n + 1, sizeof(*u->stage));
	u->names[u->n] = ts_xstrdup(b);
	u->target[u->n] = target;
	u->stage[u->n++] = stage;
	return 0;
}

/* Is bundle i unpacked beside what a link points to, not in the
 * temporary directory? */
static bool
away(const struct unpack *u, size_t i)
{
	size_t n = strlen(u->tmp);

	return strncmp(u->stage[i], u->tmp, n) != 0 || u->stage[i][n] != '/';
}

/* A write of file f of bundle b failed: named where it was going. */
static void
write_error(struct unpack *u, const char *b, const char *f, int e)
{
	char *to = ts_xasprintf("%s/%s/%s", u->dir, b, f);

	ts_diag_io(u->d, to, "write error: %s", strerror(e));
	free(to);
}

/* Write the member's data as file f of bundle b. */
static int
put(struct unpack *u, struct ts_archive *ar, const struct ts_member *m,
    const char *b, const char *f)
{
	struct ts_source *src;
	struct timespec ts[2];
	uint64_t done = 0;
	int bfd, fd, e;
	long r;

	if ((bfd = open(u->stage[bundle_index(u, b)], O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		ts_diag_io(u->d, u->tmp, "%s", strerror(errno));
		return -1;
	}
	fd = openat(bfd, f, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0644);
	e = errno;
	close(bfd);
	if (fd == -1) {
		if (e == EEXIST)
			return refuse(u, m, "it comes twice");
		ts_diag_io(u->d, u->tmp, "%s", strerror(e));
		return -1;
	}
	if ((src = ts_archive_data(ar)) == NULL) {
		close(fd);
		ts_diag_io(u->d, u->label, "%s", strerror(errno));
		return -1;
	}
	while ((r = ts_source_read(src, u->buf, COPYBUF)) > 0) {
		if ((e = ts_write_all(fd, u->buf, (size_t)r)) != 0) {
			ts_source_close(src);
			close(fd);
			write_error(u, b, f, e);
			return -1;
		}
		done += (uint64_t)r;
		ts_progress(done, (uint64_t)m->size, true, "unpacking %s/%s",
		    b, f);
	}
	e = errno;
	ts_source_close(src);
	if (r < 0 || done != (uint64_t)m->size) {
		close(fd);
		ts_diag(u->d, TS_SEV_ERROR, u->label, 0, 0, TS_RULE_B5,
		    "member '%s/%s' is refused: %s", b, f, r < 0 ?
		    ts_archive_error(ar) : "its data is not as long as its "
		    "header says");
		(void)e;
		return -1;
	}
	/* The member's time, as tar keeps it. */
	ts[0].tv_sec = ts[1].tv_sec = (time_t)m->mtime;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	(void)futimens(fd, ts);
	if (close(fd) != 0) {
		write_error(u, b, f, errno);
		return -1;
	}
	return 0;
}

/*
 * The manifest the reader verified the members with (its bytes, n of
 * them), kept until the bundles are in place, when the one written
 * beside them is made of it (merge_manifest).
 */
static int
keep_manifest(struct unpack *u, const char *text, size_t n)
{
	char *to = ts_xasprintf("%s/%s", u->dir, TS_MANIFEST);
	struct ts_diags *quiet = ts_diags_new(1, false);
	struct stat st;
	int rv = -1;

	/* No bundle has its name (ts_member_check). */
	if (lstat(to, &st) == 0 && !S_ISREG(st.st_mode))
		ts_diag_usage(u->d, "'%s' exists and is not a regular file",
		    to);
	else {
		/* Verified, so without a bad line. */
		ts_manifest_parse(&u->mf, text, n, to, quiet);
		u->manifest = true;
		rv = 0;
	}
	ts_diags_free(quiet);
	free(to);
	return rv;
}

/* Is path in one of the bundles unpacked? */
static bool
unpacked(const struct unpack *u, const char *path)
{
	size_t i, k;

	for (i = 0; i < u->n; i++) {
		k = strlen(u->names[i]);
		if (strncmp(path, u->names[i], k) == 0 && path[k] == '/')
			return true;
	}
	return false;
}

/*
 * The manifest already at path, read as every reader reads one (rule
 * A1: comments, './' paths, escapes) into mf: 1 when it is one, 0 when
 * it is not (a line that is none of A1's, a path listed twice, larger
 * than a reader takes), -1 with errno.  It is opened without waiting,
 * and only when it is a regular file.
 */
static int
read_manifest(const char *path, struct ts_manifest *mf)
{
	struct ts_diags *quiet = ts_diags_new(1, false);
	struct stat st;
	char *data;
	ssize_t r;
	size_t got = 0;
	int fd, e, rv = -1;

	memset(mf, 0, sizeof(*mf));
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		ts_diags_free(quiet);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > TS_MANIFEST_MAX) {
		close(fd);
		ts_diags_free(quiet);
		return 0;
	}
	data = ts_xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size && (r = read(fd, data + got,
	    (size_t)st.st_size - got)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			free(data);
			ts_diags_free(quiet);
			errno = e;
			return -1;
		}
		got += (size_t)r;
	}
	close(fd);
	rv = ts_manifest_parse(mf, data, got, path, quiet) == 0;
	free(data);
	ts_diags_free(quiet);
	return rv;
}

struct sumline {
	const char		*path;
	const unsigned char	*digest;
};

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct sumline *)a)->path,
	    ((const struct sumline *)b)->path);
}

/*
 * The manifest written beside the bundles, into the temporary directory
 * as .SHA256SUMS (no bundle's name starts with a dot) before anything is
 * placed: the lines of a SHA256SUMS already in the directory for other
 * bundles, and the archive's, canonical (as ts-pack writes one: paths
 * without './', escaped as sha256sum escapes them, sorted, no comment),
 * so that a line of a bundle replaced never stays beside its new one.
 * A file there that is no manifest is replaced only with -f.
 */
static int
merge_manifest(struct unpack *u)
{
	char *to = ts_xasprintf("%s/%s", u->dir, TS_MANIFEST);
	struct ts_manifest old;
	struct ts_strbuf b = { NULL, 0, 0 };
	struct sumline *v;
	struct stat st;
	size_t n = 0, i;
	int fd = -1, e, rv = -1, r = 0;

	memset(&old, 0, sizeof(old));
	if (lstat(to, &st) == 0 && (r = read_manifest(to, &old)) < 0) {
		ts_diag_io(u->d, to, "%s", strerror(errno));
		goto out;
	}
	if (lstat(to, &st) == 0 && r == 0) {
		if (!u->o->force) {
			ts_diag_usage(u->d, "'%s' exists and is not a manifest "
			    "of SHA-256 digests (-f replaces it)", to);
			goto out;
		}
		ts_manifest_free(&old);	/* replaced */
	}
	v = ts_xcalloc(old.n + u->mf.n + 1, sizeof(*v));
	for (i = 0; i < old.n; i++)
		if (!unpacked(u, old.e[i].path)) {
			v[n].path = old.e[i].path;
			v[n++].digest = old.e[i].digest;
		}
	for (i = 0; i < u->mf.n; i++) {
		v[n].path = u->mf.e[i].path;
		v[n++].digest = u->mf.e[i].digest;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_path);
	b.cap = 128 * (n + 1);
	b.s = ts_xmalloc(b.cap);
	b.s[0] = '\0';
	for (i = 0; i < n; i++)
		ts_manifest_line(&b, v[i].digest, v[i].path);
	free(v);
	if ((fd = openat(u->tfd, "." TS_MANIFEST, O_WRONLY | O_CREAT |
	    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) == -1) {
		ts_diag_io(u->d, u->tmp, "%s", strerror(errno));
		goto out;
	}
	if ((e = ts_write_all(fd, b.s, b.n)) != 0) {
		ts_diag_io(u->d, to, "write error: %s", strerror(e));
		goto out;
	}
	rv = 0;
out:
	if (fd != -1 && close(fd) != 0 && rv == 0) {
		ts_diag_io(u->d, to, "write error: %s", strerror(errno));
		rv = -1;
	}
	ts_manifest_free(&old);
	free(b.s);
	free(to);
	return rv;
}

/* Every member into the temporary directory. */
static int
extract(struct unpack *u, struct ts_archive *ar)
{
	const uint64_t maxsize = u->o->max_size ? u->o->max_size :
	    DEF_MAX_SIZE;
	const uint64_t maxmem = u->o->max_members ? u->o->max_members :
	    DEF_MAX_MEMBERS;
	uint64_t total = 0, count = 0;
	struct ts_folders folders = { NULL, 0 };
	struct ts_member m;
	const char *why, *text;
	char *b, *f, cap[128];
	size_t n;
	int r, rv = 0;

	while (rv == 0 && (r = ts_archive_next(ar, &m)) > 0) {
		if (++count > maxmem) {
			snprintf(cap, sizeof(cap), "the archive holds more "
			    "than %llu members (--max-members)",
			    (unsigned long long)maxmem);
			ts_folders_end(&folders, u->label, "refused", NULL);
			return refuse(u, &m, cap);
		}
		if ((why = ts_member_check(&m, &b, &f)) != NULL) {
			ts_folders_end(&folders, u->label, "refused", NULL);
			return refuse(u, &m, why);
		}
		ts_folders_met(&folders, b, f == NULL ? m.name : NULL);
		if (m.type == TS_MEMBER_FILE && (m.size < 0 ||
		    !ts_add_u64(total, (uint64_t)m.size, &total) ||
		    total > maxsize)) {
			snprintf(cap, sizeof(cap), "the data would pass "
			    "%llu bytes (--max-size)",
			    (unsigned long long)maxsize);
			rv = refuse(u, &m, cap);
		} else if (bundle_index(u, b) < 0)
			rv = new_bundle(u, b);
		if (rv == 0 && f != NULL)
			rv = put(u, ar, &m, b, f);
		free(b);
		free(f);
	}
	if (rv == 0 && r < 0) {
		ts_diag(u->d, TS_SEV_ERROR, u->label, 0, 0, TS_RULE_B5, "%s",
		    ts_archive_error(ar));
		rv = -1;
	}
	/* The folders, once every member came: as every reader says. */
	if (ts_folders_end(&folders, u->label, "refused", rv == 0 ? u->d :
	    NULL) != 0)
		rv = -1;
	/* What was unpacked against the manifest: nothing goes in place
	 * unless every digest is the one it lists. */
	if (rv == 0 && ts_archive_verify(ar, u->d) != 0)
		rv = -1;
	/* The manifest is a member, and its bytes are data, for the caps
	 * too (the reader took it whole, within its own bound). */
	if (rv == 0 && (text = ts_archive_manifest(ar, &n)) != NULL) {
		m.name = TS_MANIFEST;
		if (++count > maxmem) {
			snprintf(cap, sizeof(cap), "the archive holds more "
			    "than %llu members (--max-members)",
			    (unsigned long long)maxmem);
			return refuse(u, &m, cap);
		}
		if (!ts_add_u64(total, n, &total) || total > maxsize) {
			snprintf(cap, sizeof(cap), "the data would pass "
			    "%llu bytes (--max-size)",
			    (unsigned long long)maxsize);
			return refuse(u, &m, cap);
		}
		rv = keep_manifest(u, text, n);
	}
	if (rv == 0 && u->n == 0) {
		ts_diag(u->d, TS_SEV_ERROR, u->label, 0, 0, TS_RULE_B5,
		    "the archive holds no bundle");
		rv = -1;
	}
	return rv;
}

/* Each bundle unpacked, checked where it lies by the caller's check,
 * named as in the archive. */
static int
check_all(struct unpack *u)
{
	struct ts_bundle *bd;
	char *shown;
	size_t i;
	int rv = 0;

	for (i = 0; i < u->n; i++) {
		size_t before = ts_diags_errors(u->d);

		shown = ts_xasprintf("%s:%s", u->label, u->names[i]);
		bd = ts_bundle_open_dir(u->stage[i], u->names[i], shown,
		    u->d);
		if (bd != NULL && u->o->check(bd, u->o->check_arg, u->d) != 0 &&
		    ts_diags_errors(u->d) == before)
			ts_diag(u->d, TS_SEV_ERROR, shown, 0, 0, TS_RULE_NONE,
			    "refused");
		ts_bundle_free(bd);
		if (ts_diags_errors(u->d) > before) {
			ts_diag(u->d, TS_SEV_ERROR, u->label, 0, 0,
			    TS_RULE_NONE, "bundle '%s' is invalid: nothing "
			    "unpacked", u->names[i]);
			rv = -1;
		}
		free(shown);
	}
	return rv;
}

/*
 * Move bundle i into place.  An old one (-f) is exchanged with it in one
 * step, so that a reader finds the one or the other, and is then where
 * the new one was, *old (*swapped set); where the file system cannot
 * exchange, it is moved aside into *old first.
 */
static int
place(struct unpack *u, size_t i, char **old, bool *swapped)
{
	const char *from = u->stage[i], *to = u->target[i];
	struct stat st;
	char *parent;
	int rv = 0, e = 0;

	*old = NULL;
	*swapped = false;
	if (lstat(to, &st) == 0) {
		if (ts_exchange(from, to) == 0) {
			*old = ts_xstrdup(from);
			*swapped = true;
			return 0;
		}
		e = errno;
		if (e != EINVAL && e != ENOSYS && e != ENOTSUP)
			rv = -1;
		if (!away(u, i))
			*old = ts_xasprintf("%s/.%s.old", u->tmp,
			    u->names[i]);
		else {
			parent = ts_dirname(to);
			*old = ts_tmpname(parent, ts_basename(to), "old");
			free(parent);
			if (rv == 0 && mkdtemp(*old) == NULL) {
				e = errno;
				rv = -1;
			}
		}
		if (rv == 0 && rename(to, *old) != 0) {
			e = errno;
			rv = -1;
		}
		if (rv != 0) {
			free(*old);
			*old = NULL;
		}
	}
	if (rv == 0 && rename(from, to) != 0) {
		e = errno;
		if (*old != NULL && rename(*old, to) == 0) {
			free(*old);
			*old = NULL;
		}
		rv = -1;
	}
	if (rv != 0)
		ts_diag_io(u->d, to, "%s", strerror(e));
	return rv;
}

static const char *const *sort_names;

static int
by_name(const void *a, const void *b)
{
	return strcmp(sort_names[*(const size_t *)a],
	    sort_names[*(const size_t *)b]);
}

/*
 * The lock of every bundle about to be placed, which every writer of a
 * bundle takes (io/lock.c): another writer of one of them is waited
 * for.  Taken in name order, so that two unpacks never wait for each
 * other.  lk[i] is bundle i's.
 */
static int
lock_all(struct unpack *u, struct ts_lock **lk)
{
	size_t *ix = ts_xcalloc(u->n ? u->n : 1, sizeof(*ix)), i;
	int rv = 0;

	for (i = 0; i < u->n; i++)
		ix[i] = i;
	sort_names = (const char *const *)u->names;
	qsort(ix, u->n, sizeof(*ix), by_name);
	for (i = 0; i < u->n && rv == 0; i++) {
		const char *to = u->target[ix[i]];

		if ((lk[ix[i]] = ts_lock_take(to, true, NULL)) == NULL) {
			ts_diag_io(u->d, to, "cannot lock: %s",
			    strerror(errno));
			rv = -1;
		}
	}
	free(ix);
	return rv;
}

/* Every bundle into place, under its lock, or (when one fails) none. */
static int
place_all(struct unpack *u)
{
	char **old = ts_xcalloc(u->n ? u->n : 1, sizeof(*old));
	bool *swapped = ts_xcalloc(u->n ? u->n : 1, sizeof(*swapped));
	struct ts_lock **lk = ts_xcalloc(u->n ? u->n : 1, sizeof(*lk));
	size_t i = 0, j;
	int rv = lock_all(u, lk);

	for (i = 0; i < u->n && rv == 0; i++)
		rv = place(u, i, &old[i], &swapped[i]);
	if (rv != 0 && i > 0) {
		/* Undo, newest first: what was there is there again. */
		for (j = i - 1; j-- > 0;) {
			const char *to = u->target[j], *back = u->stage[j];

			if (swapped[j])
				ts_exchange(old[j], to);
			else if (rename(to, back) == 0 && old[j] != NULL)
				rename(old[j], to);
		}
	}
	for (i = 0; i < u->n; i++) {
		/* A bundle replaced goes once its readers are done. */
		if (rv == 0 && old[i] != NULL)
			ts_rmtree_held(old[i]);
		free(old[i]);
		ts_lock_release(lk[i]);
	}
	free(old);
	free(swapped);
	free(lk);
	return rv;
}

int
ts_unpack(const char *archive, const struct ts_unpack_opts *o,
    char ***names, size_t *nn, struct ts_diags *d)
{
	struct unpack u;
	struct ts_archive *ar;
	struct ts_lock *mlock = NULL;
	struct stat st;
	char *target = NULL;
	size_t i;
	int rv = -1;

	memset(&u, 0, sizeof(u));
	u.o = o;
	u.d = d;
	u.label = strcmp(archive, "-") == 0 ? "<stdin>" : archive;
	u.dir = o->dir != NULL ? o->dir : ".";
	u.tfd = -1;
	if (stat(u.dir, &st) != 0) {
		ts_diag_io(d, u.dir, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		ts_diag_io(d, u.dir, "not a directory");
		return -1;
	}
	if ((ar = ts_archive_open(archive)) == NULL) {
		if (errno == EILSEQ)
			ts_diag(d, TS_SEV_ERROR, u.label, 0, 0, TS_RULE_B5,
			    "not a tar archive");
		else
			ts_diag_io(d, u.label, "%s", strerror(errno));
		return -1;
	}
	/* What a killed unpack into dir left goes first. */
	ts_debris_clean(u.dir, NULL, true);
	u.tmp = ts_tmpname(u.dir, NULL, NULL);
	ts_cleanup_add(u.tmp, true);
	if (mkdtemp(u.tmp) == NULL || (u.tfd = open(u.tmp, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		ts_diag_io(d, u.dir, "%s", strerror(errno));
		goto out;
	}
	u.buf = ts_xmalloc(COPYBUF);
	if (extract(&u, ar) != 0)
		goto out;
	ts_archive_close(ar);
	ar = NULL;
	if (o->check != NULL && check_all(&u) != 0)
		goto out;
	/*
	 * The directory's manifest is read, merged and replaced under a
	 * lock of its own (taken before those of the bundles, as every
	 * unpack does, so that none waits for another in a cycle): two
	 * unpacks there at once would each keep the lines of the other's
	 * bundles out.
	 */
	if (u.manifest) {
		target = ts_xasprintf("%s/%s", u.dir, TS_MANIFEST);
		if ((mlock = ts_lock_take(target, true, NULL)) == NULL) {
			ts_diag_io(d, target, "cannot lock: %s",
			    strerror(errno));
			goto out;
		}
	}
	if (u.manifest && merge_manifest(&u) != 0)
		goto out;
	if (place_all(&u) != 0)
		goto out;
	if (u.manifest && renameat(u.tfd, "." TS_MANIFEST, AT_FDCWD,
	    target) != 0) {
		ts_diag_io(d, target, "%s", strerror(errno));
		goto out;
	}
	rv = 0;
out:
	ts_lock_release(mlock);
	ts_progress_clear();
	free(target);
	ts_archive_close(ar);
	if (u.tfd != -1)
		close(u.tfd);
	for (i = 0; i < u.n; i++) {
		if (away(&u, i)) {
			ts_rmtree(u.stage[i]);
			ts_cleanup_remove(u.stage[i]);
		}
		free(u.stage[i]);
		free(u.target[i]);
	}
	free(u.stage);
	free(u.target);
	ts_rmtree(u.tmp);
	ts_cleanup_remove(u.tmp);
	free(u.tmp);
	free(u.buf);
	ts_manifest_free(&u.mf);
	if (rv == 0 && names != NULL) {
		*names = u.names;
		*nn = u.n;
	} else {
		for (i = 0; i < u.n; i++)
			free(u.names[i]);
		free(u.names);
	}
	return rv;
}
