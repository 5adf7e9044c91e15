/*
 * lalib.c - libarchive loaded at its first use (lalib.h, dlib.h): by the
 * name the build linked against (TS_LIBARCHIVE_SONAME, from the
 * Makefile), every function the library calls looked up.  Once a
 * process, whichever thread comes first.
 */
#include <errno.h>
#include <pthread.h>

#include "util/dlib.h"
#include "util/lalib.h"

#ifndef TS_LIBARCHIVE_SONAME
#define TS_LIBARCHIVE_SONAME	"libarchive.so"
#endif

struct ts_la_api ts_la;
const char ts_la_soname[] = TS_LIBARCHIVE_SONAME;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char why[512];
static const char *failed;

static void
load(void)
{
	void *h;

	if ((h = ts_dl_open(ts_la_soname, why, sizeof(why))) == NULL) {
		failed = why;
		return;
	}
#define TS_LA_LOOK(name) \
	if (ts_dl_sym(h, ts_la_soname, #name, &ts_la.p_##name, why, \
	    sizeof(why)) != 0) { \
		failed = why; \
		return; \
	}
	TS_LA_FUNCS(TS_LA_LOOK)
#undef TS_LA_LOOK
}

int
ts_la_load(void)
{
	pthread_once(&once, load);
	if (failed != NULL) {
		errno = ELIBACC;
		return -1;
	}
	return 0;
}
