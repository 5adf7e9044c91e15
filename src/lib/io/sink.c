/*
 * sink.c - where bytes go: standard output, or a file (or a bundle
 * directory) that appears whole or not at all.  Output is written to a
 * temporary name beside the target and renamed into place; on an error,
 * or on SIGINT, SIGTERM or SIGHUP, the temporary is removed (as zstd
 * removes a half-written output).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"

#define MAXPENDING	16

/* Temporaries to remove if a signal ends the program. */
static char *volatile pending[MAXPENDING];
static volatile sig_atomic_t pending_dir[MAXPENDING];
static bool handlers_set;

/* Remove a directory's files and the directory (no recursion needed: a
 * bundle is flat).  Async-signal-safe except for opendir, which the
 * signal path avoids by removing known names first. */
static void
rmflat(const char *dir)
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

static void
on_signal(int sig)
{
	int i;

	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] != NULL) {
			if (pending_dir[i])
				rmflat(pending[i]);
			else
				unlink(pending[i]);
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
track(char *path, bool dir)
{
	int i;

	if (!handlers_set) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		handlers_set = true;
	}
	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] == NULL) {
			pending_dir[i] = dir;
			pending[i] = path;
			return;
		}
}

static void
untrack(const char *path)
{
	int i;

	for (i = 0; i < MAXPENDING; i++)
		if (pending[i] == path)
			pending[i] = NULL;
}

static char *
dirof(const char *path)
{
	const char *s = strrchr(path, '/');

	if (s == NULL)
		return ts_xstrdup(".");
	if (s == path)
		return ts_xstrdup("/");
	return ts_xasprintf("%.*s", (int)(s - path), path);
}

static const char *
baseof(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int
ts_sink_open(struct ts_sink *k, const char *path, bool force)
{
	struct stat st;
	char *dir;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	if (strcmp(path, "-") == 0) {
		k->fd = STDOUT_FILENO;
		k->is_stdout = true;
		k->name = ts_xstrdup("<stdout>");
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		/* A device or a FIFO is written to, never replaced. */
		if ((k->fd = open(path, O_WRONLY)) == -1)
			return -1;
		k->is_stdout = true;	/* nothing to rename or remove */
		k->name = ts_xstrdup(path);
		return 0;
	}
	if (!force && lstat(path, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	dir = dirof(path);
	k->tmp = ts_xasprintf("%s/.%s.XXXXXX", dir, baseof(path));
	free(dir);
	track(k->tmp, false);
	if ((k->fd = mkstemp(k->tmp)) == -1) {
		int e = errno;

		untrack(k->tmp);
		free(k->tmp);
		k->tmp = NULL;
		errno = e;
		return -1;
	}
	fchmod(k->fd, 0644 & ~ts_umask());
	k->path = ts_xstrdup(path);
	k->name = ts_xstrdup(path);
	return 0;
}

mode_t
ts_umask(void)
{
	static mode_t m = (mode_t)-1;

	if (m == (mode_t)-1) {
		m = umask(022);
		umask(m);
	}
	return m;
}

int
ts_sink_commit(struct ts_sink *k)
{
	int rv = 0;

	if (k->is_stdout) {
		if (k->fd != STDOUT_FILENO && k->fd >= 0) {
			rv = close(k->fd);
			k->fd = -1;
		}
		return rv;
	}
	if (k->fd >= 0 && close(k->fd) != 0)
		rv = -1;
	k->fd = -1;
	if (rv == 0 && rename(k->tmp, k->path) != 0)
		rv = -1;
	if (rv != 0) {
		int e = errno;

		unlink(k->tmp);
		errno = e;
	}
	untrack(k->tmp);
	free(k->tmp);
	k->tmp = NULL;
	return rv;
}

void
ts_sink_abort(struct ts_sink *k)
{
	if (k->is_stdout && k->fd != STDOUT_FILENO && k->fd >= 0)
		close(k->fd);
	if (!k->is_stdout && k->tmp != NULL) {
		if (k->fd >= 0)
			close(k->fd);
		unlink(k->tmp);
		untrack(k->tmp);
		free(k->tmp);
		k->tmp = NULL;
	}
	k->fd = -1;
}

void
ts_sink_free(struct ts_sink *k)
{
	if (k->tmp != NULL)
		ts_sink_abort(k);
	free(k->path);
	free(k->name);
	memset(k, 0, sizeof(*k));
	k->fd = -1;
}

int
ts_bundle_out_open(struct ts_bundle_out *o, const char *dir, bool force)
{
	struct stat st;
	char *parent;

	memset(o, 0, sizeof(*o));
	if (lstat(dir, &st) == 0) {
		char *m = ts_xasprintf("%s/%s_metadata.json", dir,
		    baseof(dir));
		struct stat ms;
		bool bundle = S_ISDIR(st.st_mode) && stat(m, &ms) == 0;

		free(m);
		/* -f replaces a bundle, never some other directory. */
		if (!force || !bundle) {
			errno = force ? ENOTEMPTY : EEXIST;
			return -1;
		}
	}
	parent = dirof(dir);
	o->tmp = ts_xasprintf("%s/.%s.XXXXXX", parent, baseof(dir));
	free(parent);
	track(o->tmp, true);
	if (mkdtemp(o->tmp) == NULL) {
		int e = errno;

		untrack(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		errno = e;
		return -1;
	}
	chmod(o->tmp, 0755 & ~ts_umask());
	o->dir = ts_xstrdup(dir);
	return 0;
}

char *
ts_bundle_out_path(const struct ts_bundle_out *o, const char *file)
{
	return ts_xasprintf("%s/%s", o->tmp, file);
}

int
ts_bundle_out_commit(struct ts_bundle_out *o)
{
	struct stat st;
	char *old = NULL;
	int rv;

	/* Replacing (-f): move the old bundle aside, then remove it. */
	if (lstat(o->dir, &st) == 0) {
		char *parent = dirof(o->dir);

		old = ts_xasprintf("%s/.%s.old.XXXXXX", parent,
		    baseof(o->dir));
		free(parent);
		if (mkdtemp(old) == NULL || rename(o->dir, old) != 0) {
			int e = errno;

			rmdir(old);
			free(old);
			errno = e;
			return -1;
		}
	}
	rv = rename(o->tmp, o->dir);
	if (old != NULL) {
		if (rv == 0) {
			if (S_ISDIR(st.st_mode))
				rmflat(old);
			else
				unlink(old);
		} else
			rename(old, o->dir);
		free(old);
	}
	if (rv == 0) {
		untrack(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	return rv;
}

int
ts_bundle_out_commit_files(struct ts_bundle_out *o)
{
	static const char suffix[] = "_metadata.json";
	struct dirent *e;
	char from[4096], to[4096];
	int pass, rv = 0;
	DIR *d;

	/* Data files and README first, the metadata last (STYLE 8). */
	for (pass = 0; pass < 2 && rv == 0; pass++) {
		if ((d = opendir(o->tmp)) == NULL)
			return -1;
		while ((e = readdir(d)) != NULL) {
			size_t n = strlen(e->d_name);
			bool meta = n >= sizeof(suffix) - 1 &&
			    strcmp(e->d_name + n - (sizeof(suffix) - 1),
			    suffix) == 0;

			if (e->d_name[0] == '.' || meta != (pass == 1))
				continue;
			snprintf(from, sizeof(from), "%s/%s", o->tmp,
			    e->d_name);
			snprintf(to, sizeof(to), "%s/%s", o->dir, e->d_name);
			if (rename(from, to) != 0) {
				rv = -1;
				break;
			}
		}
		closedir(d);
	}
	if (rv == 0) {
		rmdir(o->tmp);
		untrack(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	return rv;
}

void
ts_bundle_out_free(struct ts_bundle_out *o)
{
	if (o->tmp != NULL) {
		rmflat(o->tmp);
		untrack(o->tmp);
		free(o->tmp);
	}
	free(o->dir);
	memset(o, 0, sizeof(*o));
}
