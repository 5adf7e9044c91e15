/*
 * print.c - the diagnostics on standard error, printed as they are
 * recorded, the progress line (progress.c) cleared before each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fe.h"
#include "util/progress.h"

static void
emit(const struct ts_diag *g, void *arg)
{
	bool quiet = *(bool *)arg;

	if (quiet && g->sev == TS_SEV_NOTE)
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
