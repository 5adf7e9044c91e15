/*
 * part.c - ts-gen's part of a job (job.h): the entries come from the
 * model's decoder (produce.c) instead of SRC; the flow gains exact nnz
 * (exact.c) or a sort, the orbits of --symmetric, and the values; the
 * metadata says what the model guarantees, 'source' names the model and
 * every parameter, and the README what was asked and what was found.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "part.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const dups_words[] = { "allow", "unique", "sum", NULL };

const char *const *
gen_dups_names(void)
{
	return dups_words;
}

/* The sort the flow needs, if any: its options. */
static void
sort_opts(struct gen_part *p, struct fe_job *j, struct ts_sort_opts *so)
{
	const struct gen_opts *o = &p->g.o;
	const struct ts_meta *m = fe_job_meta(j);
	int k;

	memset(so, 0, sizeof(*so));
	so->order = o->order;
	for (k = 0; k < o->order; k++)
		so->prio[k] = o->nprio > 0 ? o->prio[k] : k;
	so->has_values = o->dups == GEN_SUM;
	so->vtype = m->value_type;
	so->mem_limit = o->mem_limit;
	so->tmpdir = o->tmpdir;
	so->expect = p->g.draws;
	so->threads = fe_job_threads(j);
	so->dups = o->dups == GEN_SUM ? TS_DUP_SUM : o->dups == GEN_UNIQUE ?
	    TS_DUP_FIRST : TS_DUP_KEEP;
}

/* Does the flow sort? */
static bool
sorts(const struct gen_part *p)
{
	const struct gen_opts *o = &p->g.o;

	return o->sorted || o->dups != GEN_ALLOW || o->symmetric ||
	    (p->g.m->needs & BLOCKS);
}

static char *
source_text(const struct gen_part *p)
{
	const struct gen_opts *o = &p->g.o;
	char *desc = gen_describe(&p->g), *s;

	if (p->g.m->needs & BLOCKS)
		s = ts_xasprintf("ts-gen %s: %s; %llu blocks", TS_VERSION,
		    desc, (unsigned long long)p->g.draws);
	else
		s = ts_xasprintf("ts-gen %s: %s; nnz %llu; duplicates %s",
		    TS_VERSION, desc, (unsigned long long)o->nnz,
		    dups_words[o->dups]);
	free(desc);
	return s;
}

static int gen_ready(void *, struct fe_job *);

/* The draws fed to the sort for nnz distinct coordinates: the model's
 * estimate, or TS_GEN_DRAWS (for tests: too few makes the exact stage
 * draw the rest). */
static uint64_t
fed(const struct gen *g)
{
	const char *e = getenv("TS_GEN_DRAWS");
	uint64_t v;

	if (e != NULL && fe_parse_list(e, 0, UINT64_MAX, &v, 1) == 1)
		return v < g->o.nnz ? g->o.nnz : v;
	return gen_draws_for(g, g->o.nnz);
}

/* The attributes of what is made. */
static int
gen_input(void *arg, struct fe_job *j)
{
	struct gen_part *p = arg;
	struct gen *g = &p->g;
	const struct gen_opts *o = &g->o;
	struct ts_meta *m = fe_job_meta(j);
	struct ts_diags *d = fe_job_diags(j);
	bool block;
	int k;

	if (!p->setup) {
		g->threads = fe_job_threads(j);
		if (gen_setup(g, d) != 0)
			return -1;
		g->draws = (g->m->needs & BLOCKS) ? g->draws :
		    o->dups != GEN_ALLOW ? fed(g) : o->nnz;
		p->setup = true;
	}
	if (gen_block_pair(g) && g->o.operand != p->operand &&
	    gen_block_operand(g, p->operand, d) != 0)
		return -1;
	block = (g->m->needs & BLOCKS) != 0;
	/* A count to settle once every draw is in the sort; without one,
	 * the first batch goes out as soon as it is made. */
	p->part.ready = sorts(p) && !block ? gen_ready : NULL;
	m->order = o->order;
	memcpy(m->dims, o->dims, sizeof(m->dims));
	m->index_base = p->base;
	m->index_type = p->itype >= 0 ? (enum ts_itype)p->itype :
	    TS_ITYPE_UINT64;
	m->values_provided = !block && (p->values || o->dups == GEN_SUM);
	m->value_type = p->vtype >= 0 ? (enum ts_vtype)p->vtype :
	    TS_VTYPE_FLOAT64;
	m->value_domain = !m->values_provided ? TS_DOMAIN_GENERAL :
	    o->dups == GEN_SUM ? TS_DOMAIN_NONNEGATIVE : p->vo.domain >= 0 ?
	    (enum ts_domain)p->vo.domain : p->domain;
	m->zeros_allowed = m->values_provided && o->dups != GEN_SUM &&
	    p->vo.zeros == 1;
	/* The draws repeat until the sort has settled which stay. */
	m->dups_allowed = !block;
	m->sorted = sorts(p);
	m->nsort = m->sorted ? o->order : 0;
	for (k = 0; k < m->nsort; k++)
		m->sort_order[k] = o->nprio > 0 ? o->prio[k] : k;
	m->psym = o->symmetric ? TS_SYM_FULL : TS_SYM_NO;
	m->nsym = o->symmetric && m->values_provided ? TS_SYM_FULL : TS_SYM_NO;
	m->sparsity = block ? TS_SPARSITY_BLOCK : TS_SPARSITY_ELEMENT;
	m->ndense = 0;
	if (block) {
		memcpy(m->parts, g->nparts, sizeof(m->parts));
		m->nnz_block = g->draws;
		m->nnz = g->nnz_elements;
	} else
		m->nnz = g->draws;
	free(m->source_type);
	m->source_type = ts_xstrdup("synthetic");
	free(m->source);
	m->source = source_text(p);
	/* The reference's block generator's choices: its group, and
	 * an id from the seed. */
	if (block && p->group == NULL)
		p->group = "synthetic";
	if (p->group != NULL && m->group == NULL)
		m->group = ts_xstrdup(p->group);
	if (block && p->id == NULL && m->id == NULL)
		m->id = ts_xasprintf("%04llu", (unsigned long long)(o->seed %
		    10000));
	if (p->id != NULL && m->id == NULL)
		m->id = ts_xstrdup(p->id);
	if (m->values_provided && o->dups != GEN_SUM &&
	    (p->gv = fe_genvalues_new(&p->vo, m, d)) == NULL)
		return -1;
	return 0;
}

static struct ts_decoder *
gen_produce(void *arg, struct fe_job *j)
{
	struct gen_part *p = arg;

	return gen_decoder(&p->g, p->g.draws, fe_job_threads(j),
	    fe_job_input_layout(j), p->g.o.dups == GEN_SUM,
	    fe_job_src_name(j), fe_job_diags(j));
}

static int
gen_stages(void *arg, struct fe_job *j, struct ts_flow *f, struct ts_decoder *dec)
{
	struct gen_part *p = arg;
	const struct gen_opts *o = &p->g.o;
	const struct ts_meta *m = fe_job_meta(j);
	struct ts_diags *d = fe_job_diags(j);
	const char *name = fe_job_src_name(j);
	struct ts_sort_opts so;

	memset(&p->sr, 0, sizeof(p->sr));
	memset(&p->sr2, 0, sizeof(p->sr2));
	if (sorts(p)) {
		sort_opts(p, j, &so);
		if (o->dups != GEN_ALLOW)
			ts_flow_add(f, gen_exact_stage(&p->g, &so, o->nnz,
			    fe_job_threads(j), name, d));
		else if (!o->symmetric)
			ts_flow_add(f, ts_stage_sort(&so, m->index_base, name,
			    NULL, &p->sr, d));
		if (o->symmetric) {
			so.dups = TS_DUP_KEEP;
			so.expect = 0;
			ts_flow_add(f, gen_orbit_stage(&so, &p->sr2, d));
		}
	}
	if (p->gv != NULL)
		ts_flow_add(f, fe_stage_genvalues(p->gv, fe_job_threads(j),
		    name, d));
	return 0;
}

/* Every draw is made: the count, once repeats are settled. */
static int
gen_ready(void *arg, struct fe_job *j)
{
	struct gen_part *p = arg;
	const struct gen_opts *o = &p->g.o;
	struct ts_meta *m = fe_job_meta(j);

	m->nnz = o->symmetric ? p->sr2.count : o->dups != GEN_ALLOW ?
	    o->nnz : p->g.draws;
	m->dups_allowed = o->dups == GEN_ALLOW && !o->symmetric;
	return 0;
}

static char *
gen_readme(void *arg, struct fe_job *j)
{
	struct gen_part *p = arg;
	const struct gen *g = &p->g;
	const struct gen_opts *o = &g->o;
	const struct ts_meta *m = fe_job_meta(j);
	struct ts_strbuf sb = { NULL, 0, 0 };
	char *desc = gen_describe(g), *notes, *list, *fname;

	ts_sbprintf(&sb, "\n## Model\n\nA synthetic tensor of the model "
	    "`%s`, its entries drawn by a counter-based generator keyed on "
	    "the seed and the model's parameters: the command above makes "
	    "the same bytes again, whatever `-j` and the kind of output.\n\n"
	    "- Parameters: %s\n", g->m->name, desc);
	free(desc);
	if (p->config != NULL)
		ts_sbprintf(&sb, "- Configuration: `%s`%s\n", p->config,
		    p->config_copied ? ", copied as `config.yaml`" : "");
	fname = ts_xasprintf("%s_factors.txt", m->name);
	p->g.name = fname;
	notes = g->m->notes != NULL ? g->m->notes(g) : NULL;
	p->g.name = NULL;
	free(fname);
	if (notes != NULL) {
		ts_sbprintf(&sb, "%s", notes);
		free(notes);
	}
	ts_sbprintf(&sb, "\n## What was made\n\n");
	if (g->m->needs & BLOCKS)
		ts_sbprintf(&sb, "- Non-zero blocks: %llu, holding %llu "
		    "elements\n", (unsigned long long)m->nnz_block,
		    (unsigned long long)m->nnz);
	else if (o->dups == GEN_ALLOW && !o->symmetric)
		ts_sbprintf(&sb, "- Entries: %llu draws, repeated coordinates "
		    "kept as drawn (`duplicates: allowed`)\n",
		    (unsigned long long)m->nnz);
	else {
		ts_sbprintf(&sb, "- %s: %llu distinct coordinates, the first "
		    "%llu of the first %llu draws\n", o->symmetric ?
		    "Canonical tuples" : "Entries", (unsigned long long)o->nnz,
		    (unsigned long long)o->nnz, (unsigned long long)g->made);
		ts_sbprintf(&sb, "- Repeats: %llu draw%s repeated a coordinate "
		    "drawn before, %s; %llu draw%s past the first %llu topped "
		    "them up\n", (unsigned long long)g->repeats, g->repeats ==
		    1 ? "" : "s", o->dups == GEN_SUM ? "each entry's value "
		    "counting its draws" : "removed", (unsigned long long)(
		    g->made - o->nnz), g->made - o->nnz == 1 ? "" : "s",
		    (unsigned long long)o->nnz);
		if (o->symmetric)
			ts_sbprintf(&sb, "- Entries: %llu, each canonical "
			    "tuple with its every distinct permutation "
			    "(`pattern_symmetry: full`)\n",
			    (unsigned long long)m->nnz);
	}
	if (p->gv != NULL) {
		list = fe_genvalues_describe(p->gv);
		ts_sbprintf(&sb, "\n## Values\n\nEach value a pure function of "
		    "the seed and the entry's 0-based coordinates, as "
		    "ts-gen-values(1) makes them.\n\n%s", list);
		free(list);
	}
	return sb.s;
}

static int
gen_aux(void *arg, struct fe_job *j, struct ts_bundle_out *bo)
{
	struct gen_part *p = arg;
	const struct gen *g = &p->g;
	char *text, *fname;
	int rv;

	if (p->config_text != NULL && p->config_copied &&
	    fe_job_put_file(j, bo, "config", "config.yaml", p->config_text,
	    strlen(p->config_text)) != 0)
		return -1;
	if (strcmp(g->m->name, "poisson-cp") != 0)
		return 0;
	/* The planted factors, the weights scaled to the events drawn. */
	text = gen_pcp_factors(g, g->o.dups == GEN_ALLOW ? g->o.nnz :
	    g->made);
	fname = ts_xasprintf("%s_factors.txt", fe_job_meta(j)->name);
	rv = fe_job_put_file(j, bo, "factors", fname, text, strlen(text));
	free(text);
	free(fname);
	return rv;
}

static int
gen_finish(void *arg, struct fe_job *j, int rv)
{
	struct gen_part *p = arg;

	fe_genvalues_free(p->gv);
	p->gv = NULL;
	return rv;
}

void
gen_part_free(struct gen_part *p)
{
	gen_free(&p->g);
	free(p->config_text);
	free(p->config_seed);
	free(p->config_dst);
	free(p->config_name);
}

void
gen_part_init(struct gen_part *p)
{
	memset(p, 0, sizeof(*p));
	fe_genvalues_opts_init(&p->vo);
	p->vtype = p->itype = -1;
	p->domain = TS_DOMAIN_GENERAL;
	p->g.o.dups = GEN_ALLOW;
	p->part.flags = FE_JOB_VALUES;
	p->part.produce = gen_produce;
	p->part.input = gen_input;
	p->part.stages = gen_stages;
	p->part.ready = gen_ready;
	p->part.aux = gen_aux;
	p->part.readme = gen_readme;
	p->part.finish = gen_finish;
	p->part.arg = p;
}
