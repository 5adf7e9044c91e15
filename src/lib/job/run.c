/*
 * run.c - one job from SRC to DST (job.h): what SRC is and what it
 * holds (input.c, import.c), what DST is and its name, then the flow
 * into it (output.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "job/job_int.h"
#include "util/progress.h"
#include "util/path.h"
#include "util/xalloc.h"

const char *const ts_pkind_names[] = { "auto", "bundle", "tns", "tnsb",
    "frostt", "mtx", "cutensor", NULL };

void
ts_job_opts_init(struct ts_job_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->in_base = o->out_base = -1;
	o->in_itype = o->out_itype = -1;
	o->in_vtype = o->out_vtype = -1;
	o->in_endian = o->out_endian = -1;
	o->dups = TS_DUP_KEEP;
	o->threads = 1;
	o->program = "tensorsuite";
}

static enum ts_pkind
kind_of_dst(const char *dst)
{
	if (strcmp(dst, "-") == 0)
		return TS_PK_TNS;
	if (ts_has_suffix(dst, ".tnsb"))
		return TS_PK_TNSB;
	if (ts_has_suffix(dst, ".tns"))
		return TS_PK_TNS;
	if (ts_has_suffix(dst, ".mtx"))
		return TS_PK_MTX;
	if (ts_has_suffix(dst, ".json"))
		return TS_PK_CUTENSOR;
	return TS_PK_BUNDLE;
}

static void
setname(struct ts_meta *m, const char *v)
{
	free(m->name);
	m->name = ts_xstrdup(v);
}

/* The name a bundle DST gives: its folder's. */
static int
bundle_name(struct job *j)
{
	const struct ts_job_opts *o = j->o;
	const char *name;
	size_t n;

	j->dstdir = ts_xstrdup(o->inplace ? ts_bundle_where(j->bd) : o->dst);
	n = strlen(j->dstdir);
	while (n > 1 && j->dstdir[n - 1] == '/')
		j->dstdir[--n] = '\0';
	if (o->inplace)
		name = ts_bundle_name(j->bd);
	else
		name = ts_basename(j->dstdir);
	if (!ts_valid_name(name) || (o->name != NULL &&
	    strcmp(o->name, name) != 0)) {
		ts_diag_usage(j->d, "'%s': a bundle's name is its folder's "
		    "name, [A-Za-z0-9][A-Za-z0-9._-]*%s", name, o->name ?
		    "; --name must agree" : "");
		return -1;
	}
	setname(j->mp, name);
	return 0;
}

/* The name a file DST gives: --name, or its stem. */
static int
file_name(struct job *j)
{
	const struct ts_job_opts *o = j->o;
	struct ts_meta *m = j->mp;

	if (m->name == NULL || o->name != NULL) {
		const char *b = ts_basename(o->dst);
		size_t n = strlen(b);

		if (o->name != NULL)
			setname(m, o->name);
		else if (strcmp(o->dst, "-") == 0)
			setname(m, "tensor");
		else {
			/* The file's stem: only the known suffix goes, a
			 * name may hold dots. */
			if (ts_has_suffix(b, ".tnsb"))
				n -= 5;
			else if (ts_has_suffix(b, ".tns") || ts_has_suffix(b, ".mtx"))
				n -= 4;
			free(m->name);
			m->name = ts_xasprintf("%.*s", (int)n, b);
		}
	}
	if (!ts_valid_name(m->name)) {
		ts_diag_usage(j->d, "'%s' is not a valid tensor name "
		    "([A-Za-z0-9][A-Za-z0-9._-]*): give --name", m->name);
		return -1;
	}
	return 0;
}

static int
run(struct job *j)
{
	const struct ts_job_opts *o = j->o;

	/* DST first: refused before anything is read, and a bundle locked
	 * before its old self is read. */
	j->to = o->to != TS_PK_AUTO ? o->to : kind_of_dst(o->dst);
	if (job_open_output(j) != 0 || job_input(j) != 0)
		return -1;
	if (o->inplace && j->bd == NULL) {
		ts_diag_usage(j->d, "'%s': -i rewrites a bundle; this is not "
		    "one", o->src);
		return -1;
	}
	/* ts-sort to stdout: a filter keeps its input's kind. */
	if (o->sort && o->to == TS_PK_AUTO && strcmp(o->dst, "-") == 0)
		j->to = j->in.kind == TS_BINARY ? TS_PK_TNSB : TS_PK_TNS;
	if (!j->meta_known) {
		/* Two passes: a pipe is copied once, to read it twice. */
		j->src = ts_source_prepare(j->src, TS_SOURCE_REWIND, o->tmpdir);
		if (j->src == NULL) {
			ts_diag_io(j->d, j->sname, "copying to a temporary "
			    "file: %s", strerror(errno));
			return -1;
		}
		if (job_infer(j, j->to != TS_PK_BUNDLE) != 0)
			return -1;
	}
	if (j->to == TS_PK_BUNDLE) {
		if (bundle_name(j) != 0)
			return -1;
		job_describe(j);
	} else if (file_name(j) != 0)
		return -1;
	return job_write(j);
}

int
ts_job_run(const struct ts_job_opts *o, struct ts_diags *d)
{
	struct job j;
	int st;

	memset(&j, 0, sizeof(j));
	j.o = o;
	j.d = d;
	j.sname = strcmp(o->src, "-") == 0 ? "<stdin>" : o->src;
	ts_meta_init(&j.m);
	j.mp = &j.m;
	if (run(&j) != 0 && ts_diags_status(d) == TS_EXIT_OK)
		ts_diag(d, TS_ERROR, j.sname, 0, 0, "", "failed");
	ts_sink_abort(j.sink);
	ts_bundle_out_abort(j.bo);
	job_input_free(&j);
	ts_meta_free(&j.m);
	free(j.dstdir);
	ts_progress_clear();
	st = ts_diags_status(d);
	return st;
}
