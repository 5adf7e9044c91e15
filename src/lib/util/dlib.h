/*
 * dlib.h - shared libraries loaded at their first use rather than
 * linked (dlib.c): libarchive (util/lalib.h), libcrypto (util/sha256.c)
 * and libhdf5 (format/h5lib.h) cost every run of every tool their
 * dynamic linking (libarchive's libxml2 and ICU, libhdf5's thirty), and
 * most runs never call them.  Each is opened by the SONAME the build
 * linked against (scripts/soname.sh) with its symbols kept to itself,
 * and its functions are reached through a table of pointers that its
 * header puts in place of their names.  Where one cannot be loaded,
 * what needed it fails with errno ELIBACC, and an I/O error reported
 * then (ts_diag_io) says which library and why.  Internal to
 * libtensorsuite.
 */
#ifndef TS_UTIL_DLIB_H
#define TS_UTIL_DLIB_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A library to load: its soname, the n symbols names[i] whose addresses
 * go to slots[i] (each a pointer of its table: the address's bytes are
 * copied, ISO C having no conversion from dlsym's void * to a function
 * pointer), and start, called once they are (NULL: none), 0 or -1 with
 * a reason in why.  The rest is dlib.c's.
 */
struct ts_dl_lib {
	const char		*soname;
	const char *const	*names;
	void *const		*slots;
	size_t			 n;
	int			(*start)(char *why, size_t len);
	bool			 tried;
	const char		*failed;	/* why not, or NULL */
	char			 why[512];
};
/*
 * l loaded, once a process whatever the thread (never closed): 0, or -1
 * with errno ELIBACC and l->failed saying why ("libarchive.so.13: cannot
 * open shared object file: ...", "...: no symbol archive_read_new").
 */
int	 ts_dl_load(struct ts_dl_lib *l);
/*
 * Why the last library that could not be loaded could not, or NULL:
 * what an error of ELIBACC adds to its message (ts_diag_io).
 */
const char *ts_dl_error(void);

#endif
