/*
 * tasks.c - a shared object for LD_PRELOAD that counts the threads of a
 * program: after each thread it starts (pthread_create), the entries of
 * /proc/self/task, the threads alive then; at exit it writes "PEAK
 * STARTED" (the most seen alive, the main thread included, and how many
 * were started) to the file $TS_TASKS_OUT.  tests/limits.bats builds
 * it.  The threads of the libraries the program links (libzstd's
 * workers) are counted too: they start through the same pthread_create.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef int create_fn(pthread_t *, const pthread_attr_t *,
    void *(*)(void *), void *);

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int peak = 1, started;

static int
alive(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

int
pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
    void *arg)
{
	static create_fn *real;
	int rv, n;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	if ((rv = real(t, a, fn, arg)) != 0)
		return rv;
	n = alive();
	pthread_mutex_lock(&mu);
	started++;
	if (n > peak)
		peak = n;
	pthread_mutex_unlock(&mu);
	return 0;
}

__attribute__((destructor)) static void
report(void)
{
	const char *f = getenv("TS_TASKS_OUT");
	FILE *fp;

	if (f != NULL && (fp = fopen(f, "w")) != NULL) {
		fprintf(fp, "%d %d\n", peak, started);
		fclose(fp);
	}
}
