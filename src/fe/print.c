/*
 * print.c - what the front end draws on standard error: the progress
 * line (on a terminal only, redrawn in place, cleared before any other
 * message) and the diagnostics, printed as they are recorded; names and
 * messages made safe for a terminal by util/escape.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fe.h"
#include "util/escape.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define PROGRESS_AFTER	1.0

static int width;	/* of the line on screen; 0: none */

static void
draw(const char *line, void *arg)
{
	char *safe;
	int w;

	(void)arg;
	if (line == NULL) {
		if (width > 0)
			fprintf(stderr, "\r%*s\r", width, "");
		fflush(stderr);
		width = 0;
		return;
	}
	/* The line names a file, which must not reach the terminal raw. */
	safe = ts_xstrdup(line);
	ts_text_sanitize(safe);
	w = fprintf(stderr, "\r%s: %s", fe_progname, safe) - 1;
	free(safe);
	/* Pad over what a longer line left. */
	if (width > w)
		fprintf(stderr, "%*s", width - w, "");
	fflush(stderr);
	width = w;
}

void
fe_progress_init(bool quiet)
{
	const char *e = getenv("TS_PROGRESS");
	bool always = e != NULL && strcmp(e, "always") == 0;
	bool on = !quiet && (always || (isatty(STDERR_FILENO) &&
	    (e == NULL || strcmp(e, "never") != 0)));

	ts_progress_hook(on ? draw : NULL, NULL, always ? 0 : PROGRESS_AFTER);
}

static void
emit(const struct ts_diag *g, void *arg)
{
	bool quiet = *(bool *)arg;

	if (quiet && g->sev == TS_NOTE)
		return;
	ts_progress_clear();
	fflush(stdout);
	ts_diag_print(g, stderr, fe_progname);
}

void
fe_diags_live(struct ts_diags *d, bool quiet)
{
	static bool q[2] = { false, true };

	ts_diags_set_emit(d, emit, &q[quiet ? 1 : 0]);
}
