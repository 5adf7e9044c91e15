/*
 * cli.c - the front end of a tool on the engine: the options that
 * describe an input and those that describe what is written, into the
 * job's options, and a job run with its messages printed as they come.
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

void
fe_output_opt(struct fe_job_opts *o, const char *name, const char *arg)
{
	char opt[40];

	snprintf(opt, sizeof(opt), "--%s", name);
	if (strcmp(name, "binary") == 0)
		o->want_binary = true;
	else if (strcmp(name, "endian") == 0)
		o->out_endian = fe_pick_endian(opt, arg);
	else if (strcmp(name, "group") == 0)
		o->group = arg;
	else if (strcmp(name, "id") == 0)
		o->id = arg;
	else if (strcmp(name, "index-base") == 0)
		o->out_base = fe_pick(opt, arg, fe_bases);
	else if (strcmp(name, "name") == 0)
		o->name = arg;
	else if (strcmp(name, "source-url") == 0)
		o->source_url = arg;
	else if (strcmp(name, "text") == 0)
		o->want_text = true;
	else if (strcmp(name, "time") == 0)
		o->time = arg;
	else if (strcmp(name, "to") == 0)
		o->to = fe_pick_kind(opt, arg, true);
}
