/*
 * path.c - the small path helpers (see path.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util/path.h"
#include "util/xalloc.h"

char *
ts_dirname(const char *path)
{
	const char *s = strrchr(path, '/');

	if (s == NULL)
		return ts_xstrdup(".");
	if (s == path)
		return ts_xstrdup("/");
	return ts_xasprintf("%.*s", (int)(s - path), path);
}

const char *
ts_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

bool
ts_has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && strcmp(s + n - k, suf) == 0;
}

const char *
ts_tmpdir(const char *dir)
{
	if (dir == NULL || *dir == '\0')
		dir = getenv("TMPDIR");
	return dir != NULL && *dir != '\0' ? dir : "/tmp";
}
