/*
 * lock.c - the lock a writer of a bundle holds, and its journal.
 *
 * The lock is flock(2) on PARENT/.NAME.lock, beside the bundle rather
 * than in it, because a rewrite replaces the bundle's directory.  flock
 * dies with its holder, so a killed writer never blocks the next one; a
 * holder removes the file when it is done, and a taker checks that the
 * file it locked is still the one at that path (else it locked a file
 * being removed, and takes the new one).
 *
 * The file is also the journal of what its holder is doing: "pid N",
 * "new X" (X, beside the bundle, is being built or holds the replaced
 * bundle: either way it goes) and, while a directory is moved aside
 * because the file system cannot exchange two, "old Y" (the bundle is
 * at Y until X is renamed into its place).  A writer that takes a lock
 * whose journal is not empty finds what a killed holder left, and puts
 * it right: the new bundle into place if the old one was moved aside
 * (the journal is written only once the new one is whole and durable),
 * then every temporary away.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

struct ts_lock {
	int	 fd;
	char	*path;		/* PARENT/.NAME.lock */
	char	*parent, *name;
	bool	 keep;		/* the journal must outlive us */
};

/* PARENT and NAME of a bundle's directory, trailing slashes ignored. */
static void
split(const char *dir, char **parent, char **name)
{
	char *t = ts_xstrdup(dir);
	size_t n = strlen(t);

	while (n > 1 && t[n - 1] == '/')
		t[--n] = '\0';
	*parent = ts_dirname(t);
	*name = ts_xstrdup(ts_basename(t));
	free(t);
}

static char *
lock_path(const char *parent, const char *name)
{
	return ts_xasprintf("%s/.%s.lock", parent, name);
}

/* Up to n - 1 bytes of the journal at fd, NUL-terminated. */
static void
journal_read(int fd, char *buf, size_t n)
{
	ssize_t r = pread(fd, buf, n - 1, 0);

	buf[r > 0 ? r : 0] = '\0';
}

/* The value of "key VALUE" in a journal, in buf; NULL when absent. */
static const char *
journal_get(const char *j, const char *key, char *buf, size_t n)
{
	size_t kl = strlen(key);
	const char *p = j, *e;

	for (; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) > kl && strncmp(p, key, kl) == 0 &&
		    p[kl] == ' ' && (size_t)(e - p - kl - 1) < n) {
			memcpy(buf, p + kl + 1, (size_t)(e - p - kl - 1));
			buf[e - p - kl - 1] = '\0';
			/* Only names of ours, beside the bundle. */
			if (buf[0] != '.' || strchr(buf, '/') != NULL)
				return NULL;
			return buf;
		}
	}
	return NULL;
}

/* Put right what a killed holder left (see the top of the file). */
static int
recover(struct ts_lock *l, const char *j)
{
	char nb[300], ob[300], *x = NULL, *y = NULL, *dir;
	const char *new = journal_get(j, "new", nb, sizeof(nb));
	const char *old = journal_get(j, "old", ob, sizeof(ob));
	struct stat st;
	int rv = 0;

	dir = ts_xasprintf("%s/%s", l->parent, l->name);
	if (new != NULL)
		x = ts_xasprintf("%s/%s", l->parent, new);
	if (old != NULL)
		y = ts_xasprintf("%s/%s", l->parent, old);
	if (y != NULL && lstat(dir, &st) != 0 && errno == ENOENT) {
		/* Killed between the two renames of a move: the new bundle
		 * is whole, put it in place; else the old one back. */
		if (x != NULL && lstat(x, &st) == 0)
			rv = rename(x, dir);
		else if (lstat(y, &st) == 0)
			rv = rename(y, dir);
	}
	/* Once a bundle is in place, what cannot be removed does not stop
	 * the next writer: the one that is named for a process gone, a
	 * later writer removes (ts_debris_clean). */
	if (rv == 0 && x != NULL)
		ts_rmtree_held(x);
	if (rv == 0 && y != NULL)
		ts_rmtree_held(y);
	ts_fsync_dir(l->parent);
	free(dir);
	free(x);
	free(y);
	return rv;
}

struct ts_lock *
ts_lock_take(const char *dir, bool wait, long *holder)
{
	struct ts_lock *l = ts_xcalloc(1, sizeof(*l));
	sigset_t ends, was;
	struct stat a, b;
	char j[1024];
	int e, r;

	split(dir, &l->parent, &l->name);
	l->path = lock_path(l->parent, l->name);
	/*
	 * The signals that end a writer wait from the file's making until
	 * it is in the clean-up's list: one that came between the two left
	 * the file (an empty .NAME.lock) beside the bundle.  Only while the
	 * lock is another's, waited for, do they come at once: the file is
	 * then the holder's to remove.
	 */
	sigemptyset(&ends);
	sigaddset(&ends, SIGTERM);
	sigaddset(&ends, SIGINT);
	sigaddset(&ends, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &ends, &was);
	for (;;) {
		l->fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		    0644);
		if (l->fd == -1)
			goto fail;
		while ((r = flock(l->fd, LOCK_EX | LOCK_NB)) != 0 &&
		    errno == EINTR)
			continue;
		if (r != 0 && errno == EWOULDBLOCK && wait) {
			pthread_sigmask(SIG_SETMASK, &was, NULL);
			while ((r = flock(l->fd, LOCK_EX)) != 0 &&
			    errno == EINTR)
				continue;
			pthread_sigmask(SIG_BLOCK, &ends, NULL);
		}
		if (r != 0) {
			if (errno == EWOULDBLOCK && holder != NULL) {
				journal_read(l->fd, j, sizeof(j));
				*holder = strncmp(j, "pid ", 4) == 0 ?
				    strtol(j + 4, NULL, 10) : 0;
			}
			goto fail;
		}
		/* A file its holder removed meanwhile is no lock. */
		if (fstat(l->fd, &a) == 0 && stat(l->path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(l->fd);
	}
	ts_cleanup_add(l->path, false);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	journal_read(l->fd, j, sizeof(j));
	if (j[0] != '\0' && recover(l, j) != 0) {
		e = errno;
		/* Keep the journal for a later try. */
		l->keep = true;
		ts_lock_release(l);
		errno = e;
		return NULL;
	}
	return l;
fail:
	e = errno;
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (l->fd != -1)
		close(l->fd);
	free(l->path);
	free(l->parent);
	free(l->name);
	free(l);
	errno = e;
	return NULL;
}

int
ts_lock_journal(struct ts_lock *l, const char *text, bool sync)
{
	char *s = ts_xasprintf("pid %ld\n%s", (long)getpid(), text);
	size_t n = strlen(s);
	ssize_t w = pwrite(l->fd, s, n, 0);
	int rv = 0;

	free(s);
	if (w != (ssize_t)n || ftruncate(l->fd, (off_t)n) != 0 ||
	    (sync && fdatasync(l->fd) != 0)) {
		if (w >= 0 && w != (ssize_t)n)
			errno = EIO;
		rv = -1;
	}
	return rv;
}

void
ts_lock_keep(struct ts_lock *l)
{
	l->keep = true;
}

void
ts_lock_release(struct ts_lock *l)
{
	if (l == NULL)
		return;
	/* Removed while still held, so that no one locks it after us; a
	 * journal that must outlive us stays. */
	if (!l->keep)
		unlink(l->path);
	ts_cleanup_remove(l->path);
	close(l->fd);
	free(l->path);
	free(l->parent);
	free(l->name);
	free(l);
}

bool
ts_lock_interrupted(const char *dir)
{
	char *parent, *name, *path, j[1024], ob[300];
	bool rv = false;
	int fd;

	split(dir, &parent, &name);
	path = lock_path(parent, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) != -1) {
		journal_read(fd, j, sizeof(j));
		rv = journal_get(j, "old", ob, sizeof(ob)) != NULL;
		close(fd);
	}
	free(path);
	free(parent);
	free(name);
	return rv;
}

/* ---- syncing ---- */

int
ts_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rv, e;

	if (fd == -1)
		return -1;
	rv = fsync(fd);
	e = errno;
	close(fd);
	errno = e;
	return rv;
}
