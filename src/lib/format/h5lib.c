/*
 * h5lib.c - libhdf5 loaded at its first use (h5lib.h): dlopen by the
 * name the build linked against (TS_HDF5_SONAME, from the Makefile),
 * every function and variable bsp_h5.c uses looked up, the library
 * initialised.  Once a process, whichever thread comes first.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "format/h5lib.h"

#ifndef TS_HDF5_SONAME
#define TS_HDF5_SONAME	"libhdf5.so"
#endif

struct ts_h5_api ts_h5;
const char ts_h5_soname[] = TS_HDF5_SONAME;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char why[512];
static const char *failed;

/* The symbol name of h into *to (a pointer's bytes: ISO C has no
 * conversion from dlsym's void * to a function pointer): 0, or -1. */
static int
look_up(void *h, const char *name, void *to)
{
	void *p;

	if ((p = dlsym(h, name)) == NULL) {
		snprintf(why, sizeof(why), "%s: no symbol %s", ts_h5_soname,
		    name);
		return -1;
	}
	memcpy(to, &p, sizeof(p));
	return 0;
}

static void
load(void)
{
	const char *e;
	void *h;

	/* Its symbols kept to itself: another library in the process may
	 * have its own of the same names. */
	if ((h = dlopen(ts_h5_soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(why, sizeof(why), "%s", e != NULL ? e : ts_h5_soname);
		failed = why;
		return;
	}
#define TS_H5_LOOK(name) \
	if (look_up(h, #name, &ts_h5.p_##name) != 0) { \
		failed = why; \
		return; \
	}
	TS_H5_FUNCS(TS_H5_LOOK)
	TS_H5_VARS(TS_H5_LOOK)
#undef TS_H5_LOOK
	/* Its identifiers of types and classes are set by its start. */
	if (ts_h5.p_H5open() < 0) {
		snprintf(why, sizeof(why), "%s: H5open failed", ts_h5_soname);
		failed = why;
	}
	/* Never closed: libhdf5 ends itself at exit. */
}

const char *
ts_h5_load(void)
{
	pthread_once(&once, load);
	return failed;
}
