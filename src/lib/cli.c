/*
 * cli.c - the small front-end helpers every tool's main() shares, as
 * libarchive_fe serves bsdtar and bsdcat.
 */
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
