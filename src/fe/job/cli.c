/*
 * cli.c - the front end of a tool on the engine: the options that
 * describe an input, into the job's options, and a job run with its
 * messages printed as they come.
 */
#include <stdio.h>
#include <string.h>

#include "fe.h"
#include "job/job.h"

int
fe_run_job(const struct fe_job_opts *o, bool quiet)
{
	char *src[1];
	struct ts_diags *d;
	int rv;

	src[0] = (char *)(o->src != NULL ? o->src : "");
	fe_stdin_once(o->meta, 1, src);
	d = ts_diags_new(20, false);
	fe_diags_live(d, quiet);
	rv = fe_job_run(o, d);
	ts_diags_print_suppressed(d, stderr);
	ts_diags_free(d);
	return rv;
}

void
fe_input_opt(struct fe_job_opts *o, const char *name, const char *arg)
{
	char opt[40];

	snprintf(opt, sizeof(opt), "--%s", name);
	if (strcmp(name, "input-base") == 0)
		o->in_base = fe_pick(opt, arg, fe_bases);
	else if (strcmp(name, "input-endian") == 0)
		o->in_endian = fe_pick_endian(opt, arg);
	else if (strcmp(name, "input-index-type") == 0)
		o->in_itype = fe_pick_itype(opt, arg);
	else if (strcmp(name, "input-value-type") == 0)
		o->in_vtype = fe_pick_vtype(opt, arg);
	else if (strcmp(name, "member") == 0)
		o->member = arg;
	else if (strcmp(name, "meta") == 0)
		o->meta = arg;
	else if (strcmp(name, "no-values") == 0)
		o->no_values = true;
	else if (strcmp(name, "require-checksums") == 0)
		ts_archive_require_checksums(true);
}
