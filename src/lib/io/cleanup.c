/*
 * cleanup.c - temporaries removed when a signal ends the program, and
 * whole writes.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
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

void
ts_rmflat(const char *dir)
{
	DIR *d;
	struct dirent *e;
	char path[4096];

	if ((d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

void
ts_rmtree2(const char *dir)
{
	DIR *d;
	struct dirent *e;
	char path[4096];

	if ((d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (unlink(path) != 0)
				ts_rmflat(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

static void
on_signal(int sig)
{
	int i;

	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] != NULL) {
			if (pending_dir[i] == 2)
				ts_rmtree2(pending[i]);
			else if (pending_dir[i])
				ts_rmflat(pending[i]);
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
ts_cleanup_add_tree(char *path)
{
	int i;

	ts_cleanup_add(path, true);
	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] == path)
			pending_dir[i] = 2;
}

void
ts_cleanup_remove(const char *path)
{
	int i;

	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] == path)
			pending[i] = NULL;
}
