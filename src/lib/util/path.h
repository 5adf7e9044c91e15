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

#endif
