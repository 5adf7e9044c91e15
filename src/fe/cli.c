/*
 * cli.c - the small front-end helpers every tool's main() shares, as
 * libarchive_fe serves bsdtar and bsdcat.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"

int
ts_pick(const char *opt, const char *arg, const char *const *list)
{
	int i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(arg, list[i]) == 0)
			return i;
	ts_warnx("%s: '%s' is not one of the allowed values", opt, arg);
	exit(TS_EXIT_USAGE);
}

int
ts_close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ts_warn("write error on standard output");
		return TS_EXIT_IO;
	}
	return status;
}

int
ts_parse_list(const char *arg, uint64_t lo, uint64_t hi, uint64_t *out,
    int max)
{
	const char *p = arg;
	char *end;
	int n = 0;

	while (*p != '\0') {
		unsigned long long v;

		if (n == max || *p < '0' || *p > '9')
			return -1;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno != 0 || v < lo || v > hi)
			return -1;
		out[n++] = v;
		p = end;
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p != '\0')
			return -1;
	}
	return n > 0 ? n : -1;
}
