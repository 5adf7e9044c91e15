/*
 * values.c - ts-gen-values' part of a job (values.h): the job's flow
 * gains the value stage (and, for a block tensor, the dense block
 * writer and the expansion into elements); the output's metadata says
 * values_provided, the value type and domain asked for; its README
 * says how the values were made, so that anyone can make them again.
 *
 * For a block tensor, the flow is decoder -> bounds -> dense blocks
 * (--blocks-out) -> expansion (--expand) -> values -> encoders; with
 * --blocks-out alone there are no encoders at all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "values.h"
#include "stage/stage.h"
#include "util/xalloc.h"

static void
gen_free(struct values_part *p)
{
	fe_genvalues_free(p->g);
	p->g = NULL;
	if (p->blk != NULL)
		ts_sink_abort(p->blk);
	p->blk = NULL;
}

/* The pattern is symmetric and the values will not be: what gives
 * them its symmetry. */
static void
sym_note(const struct ts_meta *m, const char *sname, struct ts_diags *d)
{
	char all[4 * TS_MAXORDER] = "";
	int k;

	for (k = 0; k < m->order; k++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%d",
		    k > 0 ? "," : "", k + 1);
	ts_diag(d, TS_SEV_NOTE, sname, 0, 0, TS_RULE_S8, "the pattern is %s "
	    "symmetric, the values will not be: numerical_symmetry stays "
	    "'no' (--symmetric-modes %s gives mirrored entries equal values)",
	    m->psym == TS_SYM_FULL ? "fully" : "partially",
	    m->psym == TS_SYM_FULL ? all : "MODES");
}

/* What the request asks of the input, and the generator. */
static int
setup(struct values_part *p, struct fe_job *j, bool output)
{
	const struct fe_job_opts *o = fe_job_opts(j);
	struct ts_meta *m = fe_job_meta(j);
	struct ts_diags *d = fe_job_diags(j);
	const char *sname = fe_job_src_name(j);
	const bool block = m->sparsity == TS_SPARSITY_BLOCK;

	if (!fe_job_meta_known(j) && !output) {
		ts_diag_usage(d, "'%s': --blocks-out needs a block-sparse "
		    "bundle, or --meta", sname);
		return -1;
	}
	if (m->values_provided && !block && !p->o.replace) {
		ts_diag_usage(d, "'%s' holds values already (--replace "
		    "replaces them%s)", sname, ts_kind_traits(fe_job_from(j)) & TS_KIND_BARE ?
		    "; --no-values reads the last column of a FROSTT file as "
		    "a mode" : "");
		return -1;
	}
	if (!block && (p->expand || p->blocks_out != NULL)) {
		ts_diag_usage(d, "'%s' is not block-sparse: --%s is for "
		    "block tensors", sname, p->expand ? "expand" :
		    "blocks-out");
		return -1;
	}
	if (block && output && !p->expand) {
		ts_diag_usage(d, "'%s' is block-sparse, and its data files "
		    "hold no values: --expand writes its elements with "
		    "values, --blocks-out FILE (without -o) its blocks' "
		    "dense values", sname);
		return -1;
	}
	/* The attributes of what is written. */
	if (output) {
		m->values_provided = true;
		if (p->expand) {
			m->sparsity = TS_SPARSITY_ELEMENT;
			m->ndense = 0;
		}
	}
	if (o->out_vtype >= 0)
		m->value_type = (enum ts_vtype)o->out_vtype;
	if (p->o.domain >= 0)
		m->value_domain = (enum ts_domain)p->o.domain;
	if (p->o.zeros >= 0)
		m->zeros_allowed = p->o.zeros == 1;
	if ((p->g = fe_genvalues_new(&p->o, m, d)) == NULL)
		return -1;
	/* Mirrored entries that will not get equal values: said once. */
	if (output && p->o.ngroups == 0 && m->nsym == TS_SYM_NO &&
	    m->psym != TS_SYM_NO && m->order > 1)
		sym_note(m, sname, d);
	if (p->blocks_out != NULL && fe_genvalues_from_pattern(p->g)) {
		ts_diag_usage(d, "--blocks-out: numerical_symmetry is "
		    "'partial': give its modes with --symmetric-modes");
		gen_free(p);
		return -1;
	}
	if (p->blocks_out != NULL && (p->blk = ts_sink_open(p->blocks_out,
	    o->force ? TS_SINK_FORCE : 0)) == NULL) {
		if (errno == EEXIST)
			ts_diag_usage(d, "'%s' exists (-f replaces it)",
			    p->blocks_out);
		else
			ts_diag_io(d, p->blocks_out, "%s", strerror(errno));
		gen_free(p);
		return -1;
	}
	return 0;
}

static int
values_prepare(void *arg, struct fe_job *j)
{
	return setup(arg, j, true);
}

static int
values_stages(void *arg, struct fe_job *j, struct ts_flow *f,
    struct ts_decoder *dec)
{
	struct values_part *p = arg;
	const struct ts_meta *m = fe_job_meta(j);
	const struct ts_header *h = ts_decoder_header(dec);
	struct ts_diags *d = fe_job_diags(j);

	if (p->blk != NULL)
		ts_flow_add(f, fe_stage_blocks_out(p->g, h, p->blk, d));
	if (p->expand)
		ts_flow_add(f, fe_stage_expand(h, m->sort_order, m->sorted &&
		    m->nsort == m->order, m->nnz, NULL, fe_job_src_name(j), d));
	if (m->values_provided)
		ts_flow_add(f, fe_stage_genvalues(p->g, fe_job_threads(j),
		    fe_job_src_name(j), d));
	return 0;
}

/* The symmetry the values hold, as the stage found it. */
static void
values_done(void *arg, struct fe_job *j)
{
	struct values_part *p = arg;
	struct ts_meta *m = fe_job_meta(j);

	if (p->g != NULL && m->values_provided)
		m->nsym = fe_genvalues_nsym(p->g);
}

static char *
values_readme(void *arg, struct fe_job *j)
{
	struct values_part *p = arg;
	char *list = fe_genvalues_describe(p->g), *date = fe_job_today();
	char *s;

	s = ts_xasprintf("\n## Values\n\nThe values were generated by %s %s "
	    "on %s, each a pure function of the seed and the entry's 0-based "
	    "coordinates, whatever the order or the form of the file; the "
	    "command above makes them again.\n\n%s", fe_job_opts(j)->program,
	    TS_VERSION, date, list);
	free(list);
	free(date);
	return s;
}

static int
values_finish(void *arg, struct fe_job *j, int rv)
{
	struct values_part *p = arg;
	struct ts_sink *k = p->blk;

	p->blk = NULL;
	if (k != NULL && rv == 0 && ts_sink_commit(k) != 0) {
		ts_diag_io(fe_job_diags(j), p->blocks_out, "%s",
		    strerror(errno));
		rv = -1;
	} else if (k != NULL && rv != 0)
		ts_sink_abort(k);
	gen_free(p);
	return rv;
}

/* --blocks-out alone: decoder -> bounds -> dense blocks, no encoder. */
static int
blocks_alone(void *arg, struct fe_job *j)
{
	struct values_part *p = arg;
	const struct ts_layout *in = fe_job_input_layout(j);
	const struct ts_meta *m = fe_job_meta(j);
	struct ts_diags *d = fe_job_diags(j);
	const char *sname = fe_job_src_name(j);
	struct ts_decoder *dec;
	const struct ts_header *h;
	struct ts_flow *f;
	int rv = -1;

	if (setup(p, j, false) != 0)
		return -1;
	if ((dec = fe_job_decoder(j, in)) == NULL)
		return values_finish(p, j, -1);
	h = ts_decoder_header(dec);
	f = ts_flow_new(dec, d, sname);
	ts_flow_name_output(f, p->blocks_out);
	ts_flow_add(f, ts_stage_block_bounds(h, in->base, m->nnz, sname, d));
	ts_flow_add(f, fe_stage_blocks_out(p->g, h, p->blk, d));
	if (ts_flow_run(f, NULL, NULL) == 0) {
		if (ts_flow_read(f) == m->nnz_block)
			rv = 0;
		else
			ts_diag(d, TS_SEV_ERROR, sname, 0, 0, TS_RULE_X7,
			    "%llu blocks read; its header says %llu", (unsigned
			    long long)ts_flow_read(f), (unsigned long
			    long)m->nnz_block);
	}
	ts_flow_free(f);
	ts_decoder_close(dec);
	return values_finish(p, j, rv);
}

void
values_part_init(struct values_part *p)
{
	memset(p, 0, sizeof(*p));
	fe_genvalues_opts_init(&p->o);
	p->part.flags = FE_JOB_FILTER | FE_JOB_VALUES;
	p->part.alone = blocks_alone;
	p->part.prepare = values_prepare;
	p->part.stages = values_stages;
	p->part.done = values_done;
	p->part.readme = values_readme;
	p->part.finish = values_finish;
	p->part.arg = p;
}
