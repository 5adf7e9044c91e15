/*
 * cleanup.c - temporaries removed when a signal ends the program (or
 * when their owner is done: ts_rmtree), and whole writes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

#define MAXPENDING	16

static char *volatile pending[MAXPENDING];
static volatile sig_atomic_t pending_dir[MAXPENDING];
static bool handlers_set;

int
ts_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	size_t off = 0;

	while (off < n) {
		ssize_t r = write(fd, p + off, n - off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		off += (size_t)r;
	}
	return 0;
}

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

static void
on_signal(int sig)
{
	int i;

	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] != NULL) {
			if (pending_dir[i])
				ts_rmtree(pending[i]);
			else
				unlink(pending[i]);
		}
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
	int i;

	if (!handlers_set) {
		catch(SIGINT);
		catch(SIGTERM);
		catch(SIGHUP);
		handlers_set = true;
	}
	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] == NULL) {
			pending_dir[i] = dir;
			pending[i] = path;
			return;
		}
}

void
ts_cleanup_remove(const char *path)
{
	int i;

	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] == path)
			pending[i] = NULL;
}
