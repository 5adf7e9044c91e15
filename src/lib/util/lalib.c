/*
 * lalib.c - libarchive loaded at its first use (lalib.h, dlib.h): by the
 * name the build linked against (TS_LIBARCHIVE_SONAME, from the
 * Makefile), every function the library calls looked up.
 */
#include "util/dlib.h"
#include "util/lalib.h"

#ifndef TS_LIBARCHIVE_SONAME
#define TS_LIBARCHIVE_SONAME	"libarchive.so"
#endif

struct ts_la_api ts_la;
const char ts_la_soname[] = TS_LIBARCHIVE_SONAME;

#define TS_LA_NAME(name)	#name,
#define TS_LA_SLOT(name)	&ts_la.p_##name,
static const char *const names[] = { TS_LA_FUNCS(TS_LA_NAME) };
static void *const slots[] = { TS_LA_FUNCS(TS_LA_SLOT) };
#undef TS_LA_NAME
#undef TS_LA_SLOT

static struct ts_dl_lib lib = { ts_la_soname, names, slots,
    sizeof(names) / sizeof(names[0]), NULL, false, NULL, "" };

int
ts_la_load(void)
{
	return ts_dl_load(&lib);
}
