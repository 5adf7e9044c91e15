/*
 * sort.c - ts-sort's part of a job (sort.h): the sort stage, with its
 * options from -k, --duplicates, -S and the metadata, and what it
 * changes in the attributes written (sorted, and the count once a
 * policy merged repeats); or, with -c, the order check of SRC alone.
 */
#include <stdlib.h>
#include <string.h>

#include "sort.h"

/* The priority: -k, else the order the metadata claims, else 1..N. */
static int
priority(const struct sort_part *p, struct fe_job *j, int order, int *prio)
{
	const struct ts_meta *m = fe_job_meta(j);
	struct ts_diags *d = fe_job_diags(j);
	int k;

	if (p->nprio > 0 && p->nprio != order) {
		ts_diag_usage(d, "-k names %d modes; the tensor has order %d",
		    p->nprio, order);
		return -1;
	}
	for (k = 0; k < order; k++) {
		prio[k] = p->nprio > 0 ? p->prio[k] : fe_job_meta_known(j) &&
		    m->sorted && m->nsort == order ? m->sort_order[k] : k;
		if (prio[k] >= order) {
			ts_diag_usage(d, "-k: the tensor has no mode %d",
			    prio[k] + 1);
			return -1;
		}
	}
	return 0;
}

/* -i rewrites a bundle in place: SRC must be one, in a directory. */
static int
sort_input(void *arg, struct fe_job *j)
{
	if (!fe_job_opts(j)->inplace || (fe_job_src_bundle(j) &&
	    !fe_job_src_archive(j)))
		return 0;
	ts_diag_usage(fe_job_diags(j), "'%s': -i rewrites a bundle; this is "
	    "not one%s", fe_job_opts(j)->src, fe_job_src_archive(j) ?
	    ", but an archive" : "");
	return -1;
}

/* The sort stage's options, from -k, the metadata and the outputs. */
static int
sort_options(struct sort_part *p, struct fe_job *j)
{
	struct ts_meta *m = fe_job_meta(j);
	const struct ts_layout *in = fe_job_input_layout(j);
	struct ts_sort_opts *so = &p->so;
	int64_t size = fe_job_src_size(j);

	memset(so, 0, sizeof(*so));
	so->order = m->order;
	if (priority(p, j, m->order, so->prio) != 0)
		return -1;
	so->dups = p->dups;
	if (m->sparsity == TS_SPARSITY_BLOCK && so->dups != TS_DUP_KEEP &&
	    so->dups != TS_DUP_ERROR) {
		ts_diag_usage(fe_job_diags(j), "a block tensor's entries are "
		    "blocks without values: use --duplicates keep or error");
		return -1;
	}
	so->has_values = m->values_provided && m->sparsity != TS_SPARSITY_BLOCK;
	so->vtype = m->value_type;
	/* Texts travel when they come, nothing changes the values, and
	 * they are what is written. */
	so->keep_text = in->kind != TS_KIND_BINARY && !fe_job_opts(j)->e16 &&
	    in->vtype == m->value_type;
	so->texts_only = so->dups != TS_DUP_SUM && fe_job_outputs_text(j);
	so->mem_limit = p->mem_limit;
	so->tmpdir = fe_job_opts(j)->tmpdir;
	/* The header's count, if the input can hold that many entries (a
	 * row takes two bytes a coordinate at least); after the first
	 * batch, no more than its rows' length says the file holds. */
	so->expect = m->sparsity == TS_SPARSITY_BLOCK ? m->nnz_block : m->nnz;
	if (size < 0)
		so->expect = 0;
	else if (so->expect > (uint64_t)size / (2 * (uint64_t)m->order))
		so->expect = (uint64_t)size / (2 * (uint64_t)m->order);
	so->threads = fe_job_threads(j);
	if (so->threads < 1)
		so->threads = 1;
	return 0;
}

static int
sort_stages(void *arg, struct fe_job *j, struct ts_flow *f,
    struct ts_decoder *dec)
{
	struct sort_part *p = arg;
	struct ts_meta *m = fe_job_meta(j);
	struct ts_stage *st;

	memset(&p->sr, 0, sizeof(p->sr));
	if (sort_options(p, j) != 0)
		return -1;
	/* Texts sorted and written back, no sum: what a value is matters
	 * only as far as it is valid. */
	if (p->so.has_values && p->so.keep_text && p->so.texts_only)
		ts_decoder_value_classes(dec);
	st = ts_stage_sort(&p->so, m->index_base,
	    fe_job_src_name(j), dec, &p->sr, fe_job_diags(j));
	if (st == NULL)
		return -1;
	ts_flow_add(f, st);
	/* The order the entries leave in, known now: an output that holds
	 * them sorted (binsparse) stores that order, and does not sort
	 * them again by another. */
	m->sorted = true;
	m->nsort = m->order;
	memcpy(m->sort_order, p->so.prio, sizeof(m->sort_order));
	if (p->so.dups != TS_DUP_KEEP)
		m->dups_allowed = false;
	return 0;
}

/* Sorted: the order, and the count once repeats are merged. */
static int
sort_ready(void *arg, struct fe_job *j)
{
	struct sort_part *p = arg;
	struct ts_meta *m = fe_job_meta(j);

	m->sorted = true;
	m->nsort = m->order;
	memcpy(m->sort_order, p->so.prio, sizeof(m->sort_order));
	if (p->so.dups != TS_DUP_KEEP) {
		m->dups_allowed = false;
		if (m->sparsity == TS_SPARSITY_BLOCK)
			m->nnz_block = p->sr.count;
		else
			m->nnz = p->sr.count;
	}
	return 0;
}

/* What sums made: a zero, or a value not 0 or 1. */
static void
sort_done(void *arg, struct fe_job *j)
{
	struct sort_part *p = arg;

	fe_job_sums_seen(j, p->sr.seen);
}

/*
 * -c: is SRC in key order (-k, else the order its metadata claims, else
 * 1..N)?  One pass, one tuple kept, whatever the size; the coordinates
 * are read as written, since the base does not change their order (and
 * a 0 read as 1-based would wrap).
 */
static int
check_order(void *arg, struct fe_job *j)
{
	struct sort_part *p = arg;
	struct ts_layout lay = *fe_job_input_layout(j);
	struct ts_decoder *dec;
	struct ts_flow *f;
	int prio[TS_MAXORDER], order, rv = -1;

	lay.base = 0;
	if ((dec = fe_job_decoder(j, &lay)) == NULL)
		return -1;
	order = ts_decoder_header(dec)->order;
	if (priority(p, j, order, prio) == 0) {
		f = ts_flow_new(dec, fe_job_diags(j), fe_job_src_name(j));
		ts_flow_add(f, ts_stage_order(prio, order,
		    ts_decoder_layout(dec)->base, p->dups == TS_DUP_ERROR,
		    fe_job_diags(j)));
		rv = ts_flow_run(f, NULL, NULL);
		ts_flow_free(f);
	}
	ts_decoder_close(dec);
	return rv;
}

void
sort_part_init(struct sort_part *p, bool check)
{
	memset(&p->part, 0, sizeof(p->part));
	p->part.arg = p;
	if (check) {
		p->part.flags = FE_JOB_ANY_BASE;
		p->part.alone = check_order;
		return;
	}
	p->part.flags = FE_JOB_FILTER;
	p->part.input = sort_input;
	p->part.stages = sort_stages;
	p->part.ready = sort_ready;
	p->part.done = sort_done;
}
