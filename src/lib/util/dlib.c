/*
 * dlib.c - a shared library loaded at its first use, its symbols into
 * its table (dlib.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "util/dlib.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
/* Why the last library that could not be loaded could not. */
static const char *last;

const char *
ts_dl_error(void)
{
	const char *s;

	pthread_mutex_lock(&mu);
	s = last;
	pthread_mutex_unlock(&mu);
	return s;
}

/* l opened and its table filled: 0, or -1 with l->why. */
static int
load(struct ts_dl_lib *l)
{
	const char *e;
	void *h, *p;
	size_t i;

	/* Its symbols kept to itself: another library in the process may
	 * have its own of the same names. */
	if ((h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(l->why, sizeof(l->why), "%s", e != NULL ? e :
		    l->soname);
		return -1;
	}
	for (i = 0; i < l->n; i++) {
		if ((p = dlsym(h, l->names[i])) == NULL) {
			snprintf(l->why, sizeof(l->why), "%s: no symbol %s",
			    l->soname, l->names[i]);
			return -1;
		}
		memcpy(l->slots[i], &p, sizeof(p));
	}
	return l->start != NULL ? l->start(l->why, sizeof(l->why)) : 0;
}

int
ts_dl_load(struct ts_dl_lib *l)
{
	int rv;

	pthread_mutex_lock(&mu);
	if (!l->tried) {
		l->tried = true;
		if (load(l) != 0)
			last = l->failed = l->why;
	}
	rv = l->failed != NULL ? -1 : 0;
	pthread_mutex_unlock(&mu);
	if (rv != 0)
		errno = ELIBACC;
	return rv;
}
