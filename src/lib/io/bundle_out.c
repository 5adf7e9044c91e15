/*
 * bundle_out.c - a bundle being written, behind one small table of
 * functions (a sink per file, commit, abort), so that a tool writes a
 * bundle directory or an archive alike.  This file holds the generic
 * part and the directory.
 *
 * A directory is written under the bundle's lock (lock.c), as a whole
 * new bundle in a temporary directory beside the target; rewriting in
 * place first gives it the old bundle's other files (hard links, or
 * copies).  At commit, a bundle that replaces another is made durable
 * (fsync of every file and directory) and exchanged with the old one in
 * one step, renameat2(RENAME_EXCHANGE), so that a reader finds the old
 * bundle or the new one, never a mix; then the old one is removed.
 * Where the file system cannot exchange, the old directory is moved
 * aside and the new one renamed into place, under a journal that lets
 * the next writer finish the move if this one is killed between the
 * two.  Abort, or SIGINT, SIGTERM or SIGHUP before the commit, removes
 * the temporary; the commit itself holds those signals off.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/path.h"
#include "util/xalloc.h"

struct ts_bundle_out {
	const struct ts_bundle_out_ops *ops;
	void		*ctx;
	char		*name;
};

struct ts_bundle_out *
ts_bundle_out_new(const struct ts_bundle_out_ops *ops, void *ctx,
    const char *name)
{
	struct ts_bundle_out *o = ts_xcalloc(1, sizeof(*o));

	o->ops = ops;
	o->ctx = ctx;
	o->name = ts_xstrdup(name);
	return o;
}

const char *
ts_bundle_out_name(const struct ts_bundle_out *o)
{
	return o->name;
}

struct ts_sink *
ts_bundle_out_file(struct ts_bundle_out *o, const char *fname)
{
	return o->ops->file(o->ctx, fname);
}

int
ts_bundle_out_commit(struct ts_bundle_out *o, int *state)
{
	int rv, e;

	if (state != NULL)
		*state = 0;
	if (o == NULL) {
		errno = EINVAL;
		return -1;
	}
	/* A directory's commit says a state between as a positive value
	 * (dir_commit); the caller is told it beside the failure. */
	rv = o->ops->commit(o->ctx);
	e = errno;
	if (rv > 0 && state != NULL)
		*state = rv;
	free(o->name);
	free(o);
	errno = e;
	return rv == 0 ? 0 : -1;
}

void
ts_bundle_out_abort(struct ts_bundle_out *o)
{
	if (o == NULL)
		return;
	o->ops->abort(o->ctx);
	free(o->name);
	free(o);
}

/* ---- a directory ---- */

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE	(1 << 1)	/* linux/fs.h */
#endif

struct dirout {
	char		*dir;		/* the target directory */
	char		*parent;	/* ... and where it is */
	char		*tmp;		/* the new bundle, until commit; then
					 * what it replaced, until removed */
	bool		 inplace;
	struct ts_lock	*lock;
	char		**drop;		/* old entries not kept, in place */
	size_t		 ndrop;
};

/* A new file fname in dir, never one that exists, as a sink named
 * shown/fname; fname FOLDER/FILE is in a folder, made if need be. */
static struct ts_sink *
sink_in_dir(const char *dir, const char *fname, const char *shown)
{
	const char *slash = strchr(fname, '/');
	struct ts_sink *k;
	char *p;
	int fd, e;

	if (slash != NULL) {
		p = ts_xasprintf("%s/%.*s", dir, (int)(slash - fname), fname);
		e = mkdir(p, 0777) != 0 && errno != EEXIST ? errno : 0;
		free(p);
		if (e != 0) {
			errno = e;
			return NULL;
		}
	}
	p = ts_xasprintf("%s/%s", dir, fname);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	free(p);
	if (fd == -1)
		return NULL;
	p = ts_xasprintf("%s/%s", shown, fname);
	k = ts_sink_open_fd(fd, p, true);
	free(p);
	return k;
}

char *
ts_tmpdir_beside(const char *parent, const char *name)
{
	char *tmp;
	int e;

	ts_debris_clean(parent, name, true);
	tmp = ts_tmpname(parent, name, NULL);
	ts_cleanup_add(tmp, true);
	if (mkdtemp(tmp) == NULL) {
		e = errno;
		ts_cleanup_remove(tmp);
		free(tmp);
		errno = e;
		return NULL;
	}
	return tmp;
}

/* ---- a bundle staged in a temporary directory ---- */

struct staged {
	const char	*tmp, *shown;	/* the owner's */
	int		(*commit)(void *);
	void		(*abort)(void *);
	void		*arg;
};

static struct ts_sink *
staged_file(void *ctx, const char *fname)
{
	struct staged *st = ctx;

	return sink_in_dir(st->tmp, fname, st->shown);
}

static int
staged_commit(void *ctx)
{
	struct staged *st = ctx;
	int rv = st->commit(st->arg), e = errno;

	free(st);
	errno = e;
	return rv;
}

static void
staged_abort(void *ctx)
{
	struct staged *st = ctx;

	st->abort(st->arg);
	free(st);
}

static const struct ts_bundle_out_ops staged_ops = { staged_file,
    staged_commit, staged_abort };

struct ts_bundle_out *
ts_bundle_out_staged(const char *tmp, const char *shown, const char *name,
    int (*commit)(void *), void (*abort)(void *), void *arg)
{
	struct staged *st = ts_xcalloc(1, sizeof(*st));

	st->tmp = tmp;
	st->shown = shown;
	st->commit = commit;
	st->abort = abort;
	st->arg = arg;
	return ts_bundle_out_new(&staged_ops, st, name);
}

/* 0, or -1 with errno when the temporary (or, after a commit, the old
 * bundle) could not be removed. */
static int
dir_free(struct dirout *o)
{
	int rv = 0, e = 0;

	if (o->tmp != NULL) {
		/* What cannot be removed now, the next writer removes.
		 * After a commit it is the old bundle, which a reader may
		 * still be reading. */
		if (ts_rmtree_held(o->tmp) != 0 && errno != ENOENT) {
			rv = -1, e = errno;
			ts_lock_keep(o->lock);
		}
		ts_cleanup_remove(o->tmp);
		free(o->tmp);
	}
	ts_lock_release(o->lock);
	for (size_t i = 0; i < o->ndrop; i++)
		free(o->drop[i]);
	free(o->drop);
	free(o->parent);
	free(o->dir);
	free(o);
	errno = e;
	return rv;
}

/* ---- keeping the old bundle's other files, in place ---- */

static int keep_dir(int, int, const struct dirout *);
static int keep_tree(int, const char *, int, const char *,
    const struct stat *, const struct dirout *);

static int
copy_at(int from, int to, const char *name, mode_t mode)
{
	char buf[1 << 16];
	ssize_t r;
	int in, out, e = 0;

	if ((in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) ==
	    -1)
		return -1;
	if ((out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    mode & 07777)) == -1) {
		e = errno;
		close(in);
		errno = e;
		return -1;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if ((e = ts_write_all(out, buf, (size_t)r)) != 0)
			break;
	if (r < 0)
		e = errno;
	close(in);
	if (close(out) != 0 && e == 0)
		e = errno;
	errno = e;
	return e != 0 ? -1 : 0;
}

/*
 * One entry of the old bundle into the new: a file as a hard link (a
 * copy where the file system refuses one), a directory with what it
 * holds, a symbolic link or a FIFO as itself.  Sockets and devices are
 * nothing a bundle keeps.
 */
static int
keep_one(int from, int to, const char *name, const struct stat *st)
{
	char target[PATH_MAX];
	ssize_t n;

	if (S_ISREG(st->st_mode))
		return linkat(from, name, to, name, 0) == 0 ? 0 :
		    copy_at(from, to, name, st->st_mode);
	if (S_ISLNK(st->st_mode)) {
		if ((n = readlinkat(from, name, target, sizeof(target) -
		    1)) < 0)
			return -1;
		target[n] = '\0';
		return symlinkat(target, to, name);
	}
	if (S_ISFIFO(st->st_mode))
		return mkfifoat(to, name, st->st_mode & 07777);
	if (!S_ISDIR(st->st_mode))
		return 0;
	if (mkdirat(to, name, 0700) != 0)
		return -1;
	return keep_tree(from, name, to, name, st, NULL);
}

/*
 * The directory from (at fromat) into the directory to (at toat): at the
 * top (st NULL), what to lacks, but what the writer top drops; else all
 * of it, never through a link, and to gets the mode st gives.
 */
static int
keep_tree(int fromat, const char *from, int toat, const char *to,
    const struct stat *st, const struct dirout *top)
{
	const int fl = O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (st != NULL ? O_NOFOLLOW : 0);
	int sf, tf, rv, e;

	sf = openat(fromat, from, fl);
	tf = openat(toat, to, fl);
	rv = sf == -1 || tf == -1 ? -1 : keep_dir(sf, tf, top);
	if (rv == 0 && st != NULL && fchmod(tf, st->st_mode & 07777) != 0)
		rv = -1;
	e = errno;
	if (sf != -1)
		close(sf);
	if (tf != -1)
		close(tf);
	errno = e;
	return rv;
}

/*
 * fn for every entry of the directory dfd but . and .., with what it is
 * (not following a link; NULL when that cannot be told), until fn fails:
 * 0, or -1 with errno.
 */
static int
each_entry(int dfd, int (*fn)(int, const char *, const struct stat *,
    void *), void *arg)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd, rv = 0, err = 0;

	if ((fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1)
		return -1;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return -1;
	}
	while (rv == 0 && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((rv = fn(dfd, e->d_name, fstatat(dfd, e->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 ? &st : NULL, arg)) != 0)
			err = errno;	/* after a failed fstatat: its own */
	}
	closedir(d);
	errno = err;
	return rv;
}

struct keep {
	int		 to;
	const struct dirout *top;	/* at the top: its writer */
};

static int
keep_entry(int from, const char *name, const struct stat *st, void *arg)
{
	const struct keep *k = arg;
	struct stat ts;
	int e = errno;

	/* At the top, what the writer wrote anew stays, and what it
	 * drops goes. */
	if (k->top != NULL && fstatat(k->to, name, &ts, AT_SYMLINK_NOFOLLOW) ==
	    0)
		return 0;
	for (size_t i = 0; k->top != NULL && i < k->top->ndrop; i++)
		if (strcmp(name, k->top->drop[i]) == 0)
			return 0;
	if (st == NULL) {
		errno = e;	/* why it could not be told */
		return -1;
	}
	return keep_one(from, k->to, name, st) != 0 ? -1 : 0;
}

/* Every entry of from that to lacks (at the top: what the writer top
 * did not write anew, nor drop). */
static int
keep_dir(int from, int to, const struct dirout *top)
{
	struct keep k = { to, top };

	return each_entry(from, keep_entry, &k);
}

static int
keep_all(struct dirout *o)
{
	return keep_tree(AT_FDCWD, o->dir, AT_FDCWD, o->tmp, NULL, o);
}

static int sync_tree(int);

static int
sync_entry(int dfd, const char *name, const struct stat *st, void *arg)
{
	int fd, rv;

	if (st == NULL || !(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)))
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
	    (S_ISDIR(st->st_mode) ? O_DIRECTORY : 0));
	rv = fd == -1 || (S_ISDIR(st->st_mode) ? sync_tree(fd) : fsync(fd)) !=
	    0 ? -1 : 0;
	if (fd != -1) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return rv;
}

/* Every file and directory of the tree at dfd on disk. */
static int
sync_tree(int dfd)
{
	if (each_entry(dfd, sync_entry, NULL) != 0)
		return -1;
	return fsync(dfd);
}

static int
sync_path(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rv, e;

	if (fd == -1)
		return -1;
	rv = sync_tree(fd);
	e = errno;
	close(fd);
	errno = e;
	return rv;
}

/* ---- the commit ---- */

int
ts_exchange(const char *a, const char *b)
{
#ifdef SYS_renameat2
	return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b,
	    RENAME_EXCHANGE);
#else
	(void)a;
	(void)b;
	errno = ENOSYS;
	return -1;
#endif
}

/* Write the journal: what goes (and what was moved aside). */
static int
journal(struct dirout *o, const char *aside, bool sync)
{
	char *t = ts_xasprintf("new %s\n%s%s%s", ts_basename(o->tmp),
	    aside ? "old " : "", aside ? ts_basename(aside) : "",
	    aside ? "\n" : "");
	int rv = ts_lock_journal(o->lock, t, sync), e = errno;

	free(t);
	errno = e;
	return rv;
}

/*
 * No exchange on this file system: the old bundle is moved aside, then
 * the new one into its place, with the journal saying so in between.
 * Afterwards o->tmp is what was moved aside.
 */
static int
move_aside(struct dirout *o)
{
	char *aside = ts_tmpname(o->parent, ts_basename(o->dir), "old");
	int e;

	if (mkdtemp(aside) == NULL) {
		free(aside);
		return -1;
	}
	if (journal(o, aside, true) != 0 || ts_fsync_dir(o->parent) != 0 ||
	    rename(o->dir, aside) != 0) {
		e = errno;
		rmdir(aside);
		journal(o, NULL, false);
		free(aside);
		errno = e;
		return -1;
	}
	if (rename(o->tmp, o->dir) != 0) {
		e = errno;
		if (rename(aside, o->dir) == 0)
			journal(o, NULL, false);
		else {
			/* The next writer's work: the temporary, which the
			 * journal names, must stay. */
			ts_lock_keep(o->lock);
			ts_cleanup_remove(o->tmp);
			free(o->tmp);
			o->tmp = NULL;
			free(aside);
			errno = e;
			return -2;
		}
		free(aside);
		errno = e;
		return -1;
	}
	ts_cleanup_remove(o->tmp);
	free(o->tmp);
	o->tmp = aside;
	journal(o, NULL, false);
	return 0;
}

static int
dir_commit(void *ctx)
{
	struct dirout *o = ctx;
	sigset_t block, saved;
	struct stat st;
	bool replace;
	int rv = -1, e = 0;

	/* No signal between the steps: each leaves a whole bundle. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &saved);
	replace = lstat(o->dir, &st) == 0;
	/* In place, the bundle keeps what it had, and its mode. */
	if (replace && o->inplace && (keep_all(o) != 0 ||
	    chmod(o->tmp, st.st_mode & 07777) != 0))
		goto out;
	if (!replace) {
		if (rename(o->tmp, o->dir) != 0)
			goto out;
		ts_cleanup_remove(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	} else if (sync_path(o->tmp) != 0)
		goto out;
	else if (ts_exchange(o->tmp, o->dir) != 0 && (!(errno == EINVAL ||
	    errno == ENOSYS || errno == ENOTSUP) ||
	    (rv = move_aside(o)) != 0)) {
		if (rv == -2)
			rv = TS_COMMIT_ASIDE;
		goto out;
	}
	/* In place; what follows fails, the caller is told so. */
	rv = 0;
	if (replace && ts_fsync_dir(o->parent) != 0)
		rv = TS_COMMIT_UNSYNCED;
out:
	e = errno;
	/* Once the new bundle is in place, a signal may end the wait for
	 * the old one's readers (its handler removes it). */
	if (rv == 0 || rv == TS_COMMIT_UNSYNCED)
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (dir_free(o) != 0 && rv == 0) {
		rv = TS_COMMIT_LEFT;
		e = errno;
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	errno = e;
	return rv;
}

static void
dir_abort(void *ctx)
{
	dir_free(ctx);
}

int
ts_bundle_out_drop(struct ts_bundle_out *bo, const char *name)
{
	struct staged *st;
	struct dirout *o;

	if (bo == NULL || bo->ops != &staged_ops || (st = bo->ctx)->commit !=
	    dir_commit || !(o = st->arg)->inplace) {
		errno = ENOTSUP;
		return -1;
	}
	o->drop = ts_xreallocarray(o->drop, o->ndrop + 1, sizeof(*o->drop));
	o->drop[o->ndrop++] = ts_xstrdup(name);
	return 0;
}

/* ---- nowhere: /dev/null ---- */

static int
null_write(void *ctx, const void *buf, size_t n)
{
	return 0;
}

static int
null_commit(void *ctx)
{
	return 0;
}

static void
null_abort(void *ctx)
{
}

static const struct ts_sink_ops null_sink_ops = { null_write, null_commit,
    null_abort };

static struct ts_sink *
null_file(void *ctx, const char *fname)
{
	char *p = ts_xasprintf("%s/%s", (const char *)ctx, fname);
	struct ts_sink *k = ts_sink_new(&null_sink_ops, NULL, p);

	free(p);
	return k;
}

static int
null_out_commit(void *ctx)
{
	free(ctx);
	return 0;
}

static void
null_out_abort(void *ctx)
{
	free(ctx);
}

static const struct ts_bundle_out_ops null_ops = { null_file,
    null_out_commit, null_out_abort };

static bool
is_devnull(const struct stat *st)
{
	struct stat ns;

	return S_ISCHR(st->st_mode) && stat("/dev/null", &ns) == 0 &&
	    st->st_rdev == ns.st_rdev;
}

/* ---- where a new bundle may go ---- */

static bool
is_empty_dir(const char *dir)
{
	struct dirent *e;
	bool empty = true;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return false;
	while (empty && (e = readdir(d)) != NULL)
		empty = strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

/*
 * May a new bundle take the place of dir?  Nothing there, or an empty
 * directory, which holds nothing to lose; a bundle or a file with -f;
 * never another directory (ENOTEMPTY) or a device (ENOTDIR: it would be
 * renamed away).
 */
static int
may_replace(const char *dir, unsigned flags)
{
	struct stat st, ls;
	char *m;
	bool bundle;

	if (lstat(dir, &ls) != 0)
		return 0;
	if (stat(dir, &st) != 0)
		st = ls;	/* a dangling link: replaced like a file */
	if (S_ISDIR(st.st_mode)) {
		if (is_empty_dir(dir))
			return 0;
		m = ts_xasprintf("%s/%s_metadata.json", dir,
		    ts_basename(dir));
		bundle = access(m, F_OK) == 0;
		free(m);
		if (!bundle)
			errno = ENOTEMPTY;
		else if (!(flags & TS_BUNDLE_OUT_FORCE))
			errno = EEXIST;
		return bundle && (flags & TS_BUNDLE_OUT_FORCE) ? 0 : -1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	if (!(flags & TS_BUNDLE_OUT_FORCE)) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

struct ts_bundle_out *
ts_bundle_out_open(const char *dir, unsigned flags)
{
	struct dirout *o;
	struct ts_bundle_out *bo;
	struct stat st;
	char *which;
	int e;

	/* A bundle written nowhere: every file is made and dropped. */
	if (stat(dir, &st) == 0 && is_devnull(&st))
		return ts_bundle_out_new(&null_ops, ts_xstrdup(dir), "null");
	o = ts_xcalloc(1, sizeof(*o));
	/* Through a symbolic link, what it points to is the bundle. */
	o->dir = ts_write_path(dir);
	o->parent = ts_dirname(o->dir);
	o->inplace = (flags & TS_BUNDLE_OUT_INPLACE) != 0;
	/* One writer at a time; and what it finds, it finds locked. */
	if ((o->lock = ts_lock_take(o->dir, (flags & TS_BUNDLE_OUT_WAIT) !=
	    0, NULL)) == NULL)
		goto fail;
	if (!o->inplace && may_replace(o->dir, flags) != 0)
		goto fail;
	/* What the rewrite needs, before it starts: else it would replace
	 * the bundle and fail to remove the old one. */
	if (ts_removable(o->dir, &which) != 0) {
		e = errno;
		free(which);
		errno = e;
		goto fail;
	}
	/* Under the lock, and once what it says is put right: what a
	 * killed writer left goes. */
	if ((o->tmp = ts_tmpdir_beside(o->parent, ts_basename(o->dir))) ==
	    NULL)
		goto fail;
	if (journal(o, NULL, false) != 0)
		goto fail;
	chmod(o->tmp, 0755 & ~ts_umask());
	bo = ts_bundle_out_staged(o->tmp, o->dir, ts_basename(o->dir),
	    dir_commit, dir_abort, o);
	return bo;
fail:
	e = errno;
	dir_free(o);
	errno = e;
	return NULL;
}
