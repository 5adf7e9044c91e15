/*
 * cleanup.c - temporaries removed when a signal ends the program (or
 * when their owner is done: ts_rmtree).
 */
#include <ctype.h>
#include <dirent.h>
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
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "tensorsuite.h"
#include "io/io.h"
#include "util/path.h"
#include "util/xalloc.h"

/*
 * The temporaries a signal removes, as git keeps its tempfiles: a list
 * that the handler walks without a lock, so it must be whole at every
 * instant.  A node is filled before it is linked in (one pointer store
 * publishes it), and is never freed: a removed temporary leaves its
 * node empty (path NULL) for the next one, so that a handler in one
 * thread never reads a node that another thread freed.  Adding and
 * removing take a mutex, as ts-validate -j's workers and the parsing
 * threads may do both at once; there is no limit but memory.
 */
struct pending {
	char *volatile		 path;
	volatile sig_atomic_t	 dir;
	struct pending *volatile next;
};

static struct pending *volatile pending;
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static bool handlers_set;

/* ---- removing trees ---- */

static int
rmtree_at(int dfd, const char *name)
{
	struct dirent *e;
	DIR *d;
	int fd, rv = 0;

	if (unlinkat(dfd, name, 0) == 0)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return errno == ENOENT ? 0 : -1;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0 &&
		    rmtree_at(dirfd(d), e->d_name) != 0)
			rv = -1;
	closedir(d);
	if (unlinkat(dfd, name, AT_REMOVEDIR) != 0)
		rv = -1;
	return rv;
}

int
ts_rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return -1;
	return rmtree_at(AT_FDCWD, path);
}

int
ts_rmtree_held(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rv, e;

	/* Where no lock can be had (not a directory, a file system
	 * without flock), there is no reader to wait for either. */
	if (fd != -1)
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
			;
	rv = ts_rmtree(path);
	e = errno;
	if (fd != -1)
		close(fd);
	errno = e;
	return rv;
}

/* ---- temporaries named for their maker ---- */

#define TMP_NAMEMAX	200	/* of the target's name in a temporary's */

/* The program's name as a temporary's names hold it: no dot, no
 * slash. */
static void
tool_name(char *buf, size_t n)
{
	const char *p = ts_progname != NULL && *ts_progname != '\0' ?
	    ts_basename(ts_progname) : "tensorsuite";
	size_t i;

	for (i = 0; i + 1 < n && p[i] != '\0'; i++)
		buf[i] = (isalnum((unsigned char)p[i]) || p[i] == '-' ||
		    p[i] == '_') ? p[i] : '_';
	buf[i] = '\0';
}

char *
ts_tmpname(const char *dir, const char *name, const char *tag)
{
	char tool[33];

	tool_name(tool, sizeof(tool));
	return ts_xasprintf("%s/.%.*s%s%s.%ld.%s%sXXXXXX", dir,
	    TMP_NAMEMAX, name != NULL ? name : "", name != NULL ? "." : "",
	    tool, (long)getpid(), tag != NULL ? tag : "", tag != NULL ? "." :
	    "");
}

/* Is s "TOOL.PID.XXXXXX" (TOOL letters, digits, '-', '_'; XXXXXX six
 * letters or digits)?  Then its PID, else 0. */
static long
debris_pid(const char *s)
{
	const char *p = s, *q;
	long pid;

	while (isalnum((unsigned char)*p) || *p == '-' || *p == '_')
		p++;
	if (p == s || *p++ != '.' || !isdigit((unsigned char)*p))
		return 0;
	for (pid = 0, q = p; isdigit((unsigned char)*q); q++)
		if ((pid = pid * 10 + (*q - '0')) > 1L << 30)
			return 0;
	if (*q++ != '.' || strlen(q) != 6)
		return 0;
	for (p = q; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p))
			return 0;
	return pid;
}

/* Is process pid gone?  One that we may not signal is there. */
static bool
gone(long pid)
{
	return pid != (long)getpid() && kill((pid_t)pid, 0) != 0 &&
	    errno == ESRCH;
}

int
ts_debris_clean(const char *dir, const char *name, bool dirs)
{
	struct dirent *e;
	struct stat st;
	char *prefix, *p;
	size_t pl;
	long pid;
	DIR *d;
	int rv = 0, err = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	prefix = ts_xasprintf(".%.*s%s", TMP_NAMEMAX, name != NULL ? name :
	    "", name != NULL ? "." : "");
	pl = strlen(prefix);
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, prefix, pl) != 0 ||
		    (pid = debris_pid(e->d_name + pl)) == 0 || !gone(pid) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) !=
		    0 || (S_ISDIR(st.st_mode) && !dirs))
			continue;
		p = ts_xasprintf("%s/%s", dir, e->d_name);
		/* A bundle left behind may be read still. */
		if ((S_ISDIR(st.st_mode) ? ts_rmtree_held(p) : unlink(p)) !=
		    0 && errno != ENOENT)
			rv = -1, err = errno;
		free(p);
	}
	closedir(d);
	free(prefix);
	errno = err;
	return rv;
}

/* ---- may a tree be removed? ---- */

/* May the user list, add to and remove from directory name at dfd (not
 * followed) and every directory below it?  0, or -1 with errno and
 * *which (malloc'd, shown as below path) the first that it may not. */
static int
removable_at(int dfd, const char *name, const char *path, char **which)
{
	struct dirent *e;
	struct stat st;
	char *sub;
	DIR *d = NULL;
	int fd = -1, rv = 0, err;

	if (faccessat(dfd, name, R_OK | W_OK | X_OK, AT_EACCESS) != 0 ||
	    (fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (d = fdopendir(fd)) == NULL) {
		err = errno;
		if (fd != -1)
			close(fd);
		*which = ts_xstrdup(path);
		errno = err;
		return -1;
	}
	while (rv == 0 && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) !=
		    0 || !S_ISDIR(st.st_mode))
			continue;
		sub = ts_xasprintf("%s/%s", path, e->d_name);
		rv = removable_at(dirfd(d), e->d_name, sub, which);
		free(sub);
	}
	err = errno;
	closedir(d);
	errno = err;
	return rv;
}

int
ts_removable(const char *path, char **which)
{
	struct stat st;
	char *parent = ts_dirname(path);

	*which = NULL;
	if (faccessat(AT_FDCWD, parent, W_OK | X_OK, AT_EACCESS) != 0) {
		*which = parent;
		return -1;
	}
	free(parent);
	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	return removable_at(AT_FDCWD, path, path, which);
}

/* ---- removing on a signal ---- */

/*
 * A signal may come while a thread holds malloc's lock (or stdio's): its
 * handler must call only what is async-signal-safe, so it cannot use
 * opendir, which allocates.  On Linux the entries are read with the
 * getdents64 system call into static buffers, a level of the tree each,
 * as deep as the suite's temporaries go (an unpack's stage holds bundle
 * folders); elsewhere, and deeper, only what unlinkat can remove goes,
 * and the rest is debris that the next writer removes
 * (ts_debris_clean), since its name holds a process that is gone.
 */
#define SIG_DEPTH	4
#define SIG_BUF		8192

#ifdef __linux__
struct sig_dirent {			/* the kernel's linux_dirent64 */
	unsigned long long	 ino;
	long long		 off;
	unsigned short		 reclen;
	unsigned char		 type;
	char			 name[];
};

static char sig_buf[SIG_DEPTH][SIG_BUF] __attribute__((aligned(8)));
#endif

static bool
dot_or_dotdot(const char *n)
{
	return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

/*
 * Removes name at dfd and, a directory, what it holds; async-signal-safe.
 * True when it is gone.
 */
static bool
sig_rmtree_at(int dfd, const char *name, int depth)
{
#ifdef __linux__
	struct sig_dirent *e;
	long n, off;
	bool removed;
	int fd;

	if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
		return true;
	if (depth >= SIG_DEPTH || (fd = openat(dfd, name, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return false;
	/* Removing entries while reading them may skip some: read the
	 * directory again while a pass removes something. */
	do {
		removed = false;
		if (lseek(fd, 0, SEEK_SET) == -1)
			break;
		while ((n = syscall(SYS_getdents64, fd, sig_buf[depth],
		    SIG_BUF)) > 0)
			for (off = 0; off < n; off += e->reclen) {
				e = (struct sig_dirent *)(sig_buf[depth] + off);
				if (!dot_or_dotdot(e->name) &&
				    sig_rmtree_at(fd, e->name, depth + 1))
					removed = true;
			}
	} while (removed && n == 0);
	close(fd);
#else
	if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
		return true;
#endif
	return unlinkat(dfd, name, AT_REMOVEDIR) == 0;
}

static void
on_signal(int sig)
{
	struct pending *p;
	char *path;
	int e = errno;

	for (p = pending; p != NULL; p = p->next)
		if ((path = p->path) != NULL) {
			if (p->dir)
				sig_rmtree_at(AT_FDCWD, path, 0);
			else
				unlink(path);
		}
	errno = e;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Catch sig only where nobody asked for something else (nohup's
 * SIG_IGN, a parent's choice): a handler must not undo it. */
static void
catch(int sig)
{
	struct sigaction sa, old;

	if (sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

void
ts_cleanup_add(char *path, bool dir)
{
	struct pending *p;

	pthread_mutex_lock(&pending_lock);
	if (!handlers_set) {
		catch(SIGINT);
		catch(SIGTERM);
		catch(SIGHUP);
		handlers_set = true;
	}
	for (p = pending; p != NULL && p->path != NULL; p = p->next)
		;
	if (p != NULL) {
		/* An empty node: its kind first, then the path that makes
		 * the handler look at it. */
		p->dir = dir;
		p->path = path;
	} else {
		p = ts_xmalloc(sizeof(*p));
		p->dir = dir;
		p->path = path;
		p->next = pending;
		pending = p;
	}
	pthread_mutex_unlock(&pending_lock);
}

void
ts_cleanup_remove(const char *path)
{
	struct pending *p;

	pthread_mutex_lock(&pending_lock);
	for (p = pending; p != NULL; p = p->next)
		if (p->path == path)
			p->path = NULL;
	pthread_mutex_unlock(&pending_lock);
}
