/*
 * h5lib.c - libhdf5 loaded at its first use (h5lib.h, util/dlib.h): by
 * the name the build linked against (TS_HDF5_SONAME, from the Makefile),
 * every function and variable bsp_h5.c uses looked up, the library
 * initialised.  Once a process, whichever thread comes first.
 */
#include <pthread.h>
#include <stdio.h>

#include "format/h5lib.h"
#include "util/dlib.h"

#ifndef TS_HDF5_SONAME
#define TS_HDF5_SONAME	"libhdf5.so"
#endif

struct ts_h5_api ts_h5;
const char ts_h5_soname[] = TS_HDF5_SONAME;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char why[512];
static const char *failed;

static void
load(void)
{
	void *h;

	if ((h = ts_dl_open(ts_h5_soname, why, sizeof(why))) == NULL) {
		failed = why;
		return;
	}
#define TS_H5_LOOK(name) \
	if (ts_dl_sym(h, ts_h5_soname, #name, &ts_h5.p_##name, why, \
	    sizeof(why)) != 0) { \
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
