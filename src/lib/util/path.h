/*
 * path.h - the small path helpers of libtensorsuite (internal).
 */
#ifndef TS_PATH_H
#define TS_PATH_H

#include <stdbool.h>

/* The directory of a path ("." when none), malloc'd. */
char	*ts_dirname(const char *path);
/* The last component of a path, within it. */
const char *ts_basename(const char *path);
bool	 ts_has_suffix(const char *s, const char *suffix);
/* Where temporaries go: dir when given, else $TMPDIR when set and not
 * empty, else /tmp. */
const char *ts_tmpdir(const char *dir);
/*
 * Where a writer of path writes, malloc'd: path, or, when it is a
 * symbolic link, what the link points to (a chain followed to its end,
 * a dangling link to the name it would create), so that a file, archive
 * or bundle reached through a link is replaced and the link stays, as
 * sort -o and editors write through a link.  Trailing slashes go.
 */
char	*ts_write_path(const char *path);

#endif
