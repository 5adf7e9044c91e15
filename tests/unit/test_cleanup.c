/*
 * test_cleanup.c - unit tests of what a signal's handler removes
 * (io/cleanup.c): the temporaries registered with ts_cleanup_add go,
 * trees and all, and the handler calls nothing that allocates — a
 * signal that comes while a thread holds malloc's lock must not hang
 * the program.  opendir and fdopendir are interposed here: in the
 * handler, where they have no business, they abort.  Prints TAP; exit
 * status 1 when a test fails.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "tap.h"

static volatile sig_atomic_t in_handler;

DIR *opendir(const char *);
DIR *fdopendir(int);

DIR *
opendir(const char *name)
{
	DIR *(*real)(const char *);

	if (in_handler)
		abort();
	/* POSIX: a function pointer from dlsym is read this way. */
	*(void **)&real = dlsym(RTLD_NEXT, "opendir");
	return real(name);
}

DIR *
fdopendir(int fd)
{
	DIR *(*real)(int);

	if (in_handler)
		abort();
	*(void **)&real = dlsym(RTLD_NEXT, "fdopendir");
	return real(fd);
}

static void
touch(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs("x\n", f) == EOF || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* The tree of an unpack's stage: bundles with files, n files more. */
static void
make_tree(const char *top, int n)
{
	char p[512];
	int i;

	if (mkdir(top, 0755) != 0) {
		perror(top);
		exit(1);
	}
	snprintf(p, sizeof(p), "%s/a", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/a.tns", top);
	touch(p);
	snprintf(p, sizeof(p), "%s/a/sub", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/sub/deep", top);
	touch(p);
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/file-with-a-long-name-%06d", top, i);
		touch(p);
	}
}

/* In a child: register a tree and a file, then take sig.  How it
 * ended. */
static int
killed_with(const char *tree, const char *file, int sig)
{
	pid_t pid;
	int st;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		/* At its default, whatever the test was started with
		 * (nohup, a background job: ignored signals stay so). */
		signal(sig, SIG_DFL);
		ts_cleanup_add(strdup(tree), true);
		ts_cleanup_add(strdup(file), false);
		in_handler = 1;
		raise(sig);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/*
 * Many temporaries from many threads (issue 30, point 20: the registry
 * had 16 slots, silently dropped the 17th and took no lock): each of
 * NTHR threads registers NPER files, and removes from the registry (not
 * the disk) every third, while the others do the same.
 */
#define NTHR	4
#define NPER	60

struct churn {
	const char	*dir;
	int		 t;
};

static void *
churn(void *arg)
{
	const struct churn *c = arg;
	char *p[NPER];
	int i;

	for (i = 0; i < NPER; i++) {
		p[i] = malloc(512);
		snprintf(p[i], 512, "%s/t%d-%02d", c->dir, c->t, i);
		touch(p[i]);
		ts_cleanup_add(p[i], false);
		if (i % 3 == 2)
			ts_cleanup_remove(p[i]);
	}
	return NULL;
}

static int
many_killed(const char *dir)
{
	pthread_t th[NTHR];
	struct churn c[NTHR];
	pid_t pid;
	int i, st;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		for (i = 0; i < NTHR; i++) {
			c[i].dir = dir;
			c[i].t = i;
			pthread_create(&th[i], NULL, churn, &c[i]);
		}
		for (i = 0; i < NTHR; i++)
			pthread_join(th[i], NULL);
		in_handler = 1;
		raise(SIGTERM);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

int
main(void)
{
	char dir[] = "/tmp/ts-cleanup-XXXXXX", tree[256], file[256];
	struct stat sb;
	int st;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(tree, sizeof(tree), "%s/.stage", dir);
	snprintf(file, sizeof(file), "%s/.x.tns.tmp", dir);

	make_tree(tree, 3);
	touch(file);
	st = killed_with(tree, file, SIGTERM);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	    "SIGTERM ends the program as SIGTERM, the handler allocating "
	    "nothing (status %#x)", st);
	ok(lstat(tree, &sb) != 0 && errno == ENOENT &&
	    lstat(file, &sb) != 0 && errno == ENOENT,
	    "the registered tree and file are gone");

	/* More entries than one read of the directory gives. */
	make_tree(tree, 3000);
	touch(file);
	st = killed_with(tree, file, SIGINT);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT &&
	    lstat(tree, &sb) != 0 && errno == ENOENT,
	    "SIGINT: a tree of 3000 files goes too (status %#x)", st);

	st = many_killed(dir);
	{
		char p[512];
		int t, i, left = 0, kept = 0;

		for (t = 0; t < NTHR; t++)
			for (i = 0; i < NPER; i++) {
				snprintf(p, sizeof(p), "%s/t%d-%02d", dir, t,
				    i);
				if (lstat(p, &sb) != 0)
					continue;
				if (i % 3 == 2)
					kept++;
				else
					left++;
				unlink(p);
			}
		ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && left == 0 &&
		    kept == NTHR * NPER / 3, "%d temporaries registered by %d "
		    "threads at once: the %d registered go, the %d removed "
		    "from the registry stay (%d left, %d kept, status %#x)",
		    NTHR * NPER, NTHR, NTHR * NPER * 2 / 3, NTHR * NPER / 3,
		    left, kept, st);
	}

	if (rmdir(dir) != 0)
		ok(0, "%s left empty: %s", dir, strerror(errno));
	return tap_done();
}
