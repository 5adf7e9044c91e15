/*
 * h5lib.c - libhdf5 loaded at its first use (h5lib.h, util/dlib.h): by
 * the name the build linked against (TS_HDF5_SONAME, from the Makefile),
 * every function and variable bsp_h5.c uses looked up, the library
 * initialised.
 */
#include <stdio.h>

#include "format/h5lib.h"
#include "util/dlib.h"

#ifndef TS_HDF5_SONAME
#define TS_HDF5_SONAME	"libhdf5.so"
#endif

struct ts_h5_api ts_h5;
const char ts_h5_soname[] = TS_HDF5_SONAME;

#define TS_H5_NAME(name)	#name,
#define TS_H5_SLOT(name)	&ts_h5.p_##name,
static const char *const names[] = { TS_H5_FUNCS(TS_H5_NAME)
    TS_H5_VARS(TS_H5_NAME) };
static void *const slots[] = { TS_H5_FUNCS(TS_H5_SLOT)
    TS_H5_VARS(TS_H5_SLOT) };
#undef TS_H5_NAME
#undef TS_H5_SLOT

/* Its identifiers of types and classes are set by its start.  Never
 * closed: libhdf5 ends itself at exit. */
static int
start(char *why, size_t n)
{
	if (ts_h5.p_H5open() >= 0)
		return 0;
	snprintf(why, n, "%s: H5open failed", ts_h5_soname);
	return -1;
}

static struct ts_dl_lib lib = { ts_h5_soname, names, slots,
    sizeof(names) / sizeof(names[0]), start, false, NULL, "" };

const char *
ts_h5_load(void)
{
	return ts_dl_load(&lib) == 0 ? NULL : lib.failed;
}
