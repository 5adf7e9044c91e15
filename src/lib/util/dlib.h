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

#include <stddef.h>

/*
 * The library soname opened, or NULL and why not in why (n bytes: the
 * dynamic linker's words, "libarchive.so.13: cannot open shared object
 * file: No such file or directory").  Never closed.
 */
void	*ts_dl_open(const char *soname, char *why, size_t n);
/*
 * The symbol name of the library h (opened as soname) into *to, a
 * pointer to a function or an object of the table (its bytes copied:
 * ISO C has no conversion from dlsym's void * to a function pointer):
 * 0, or -1 and why ("libarchive.so.13: no symbol archive_read_new").
 */
int	 ts_dl_sym(void *h, const char *soname, const char *name, void *to,
	    char *why, size_t n);
/*
 * Why the last library that could not be loaded could not (the why of
 * the two above, kept by its loader), or NULL: what an error of ELIBACC
 * adds to its message (ts_diag_io).
 */
const char *ts_dl_error(void);

#endif
