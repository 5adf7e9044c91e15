/*
 * readme.c - the Statistics section of a README (see readme.h).
 */
#include <string.h>

#include "readme.h"

/* Does the line at p start with the heading s (and end there)? */
static bool
heading(const char *p, const char *s)
{
	size_t n = strlen(s);

	return strncmp(p, s, n) == 0 && (p[n] == '\n' || p[n] == '\0' ||
	    (p[n] == '\r' && p[n + 1] == '\n'));
}

bool
fe_readme_cut(char *text)
{
	char *p, *end;
	bool found = false;

	for (p = text; *p != '\0';) {
		if (!heading(p, FE_README_HEADING)) {
			p = (end = strchr(p, '\n')) != NULL ? end + 1 :
			    p + strlen(p);
			continue;
		}
		found = true;
		/* To the next line that is a heading of level 1 or 2. */
		for (end = p; (end = strchr(end, '\n')) != NULL;)
			if (strncmp(++end, "# ", 2) == 0 ||
			    strncmp(end, "## ", 3) == 0)
				break;
		if (end == NULL)
			end = p + strlen(p);
		memmove(p, end, strlen(end) + 1);
	}
	return found;
}
