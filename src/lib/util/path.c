/*
 * path.c - the small path helpers (see path.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

char *
ts_write_path(const char *path)
{
	char *cur = ts_xstrdup(path), *next, *dir, buf[PATH_MAX];
	struct stat st;
	size_t n = strlen(cur);
	ssize_t r;
	int i;

	/* "t/" is the link t, not what it points to. */
	while (n > 1 && cur[n - 1] == '/')
		cur[--n] = '\0';
	/* As many links as the kernel follows; past that, the writer's
	 * own calls fail with ELOOP. */
	for (i = 0; i < 40 && lstat(cur, &st) == 0 && S_ISLNK(st.st_mode);
	    i++) {
		if ((r = readlink(cur, buf, sizeof(buf) - 1)) <= 0)
			break;
		buf[r] = '\0';
		if (buf[0] == '/' || strchr(cur, '/') == NULL)
			next = ts_xstrdup(buf);
		else {
			dir = ts_dirname(cur);
			next = ts_xasprintf("%s/%s", dir, buf);
			free(dir);
		}
		free(cur);
		cur = next;
		n = strlen(cur);
		while (n > 1 && cur[n - 1] == '/')
			cur[--n] = '\0';
	}
	return cur;
}
