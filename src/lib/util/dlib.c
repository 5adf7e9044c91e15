/*
 * dlib.c - a shared library opened at its first use, and its symbols
 * looked up (dlib.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "util/dlib.h"

/* Why the last library that could not be loaded could not. */
static const char *last;

const char *
ts_dl_error(void)
{
	return last;
}

void *
ts_dl_open(const char *soname, char *why, size_t n)
{
	const char *e;
	void *h;

	/* Its symbols kept to itself: another library in the process may
	 * have its own of the same names. */
	if ((h = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(why, n, "%s", e != NULL ? e : soname);
		last = why;
	}
	return h;
}

int
ts_dl_sym(void *h, const char *soname, const char *name, void *to,
    char *why, size_t n)
{
	void *p;

	if ((p = dlsym(h, name)) == NULL) {
		snprintf(why, n, "%s: no symbol %s", soname, name);
		last = why;
		return -1;
	}
	memcpy(to, &p, sizeof(p));
	return 0;
}
