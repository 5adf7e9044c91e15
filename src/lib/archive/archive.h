/*
 * archive.h - what the archive files share inside libtensorsuite (not
 * installed): member names made fit to print (archive_read.c), and the
 * rules of what a bundle archive may hold (SPEC B5, bundle_archive.c).
 */
#ifndef TS_ARCHIVE_H
#define TS_ARCHIVE_H

#include "tensorsuite.h"

/*
 * May a bundle archive hold m?  NULL when it may, with *bundle set to its
 * bundle's name and *file to its file name (NULL for the folder itself),
 * both malloc'd; else why not ("it is a symbolic link"), with both NULL.
 * A member may be the folder NAME/ or a regular file NAME/FILE: NAME a
 * bundle name (B2), FILE a plain name, not hidden; leading "./" are
 * dropped.
 */
const char *ts_member_check(const struct ts_member *, char **bundle,
	    char **file);
/* name with control characters and backslashes as octal escapes,
 * malloc'd: a hostile name must not draw on the terminal. */
char	*ts_member_shown(const char *name);

#endif
