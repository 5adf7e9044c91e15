/*
 * import.c - the attributes of an input that states none (a FROSTT or
 * Matrix Market file, a bare .tns stream): read it once through the
 * inference stage and fill order, dimensions, nnz, index base,
 * sortedness, duplicates, zeros, value domain and symmetry.  A file
 * output (not a bundle) needs little of that: a TensorSuite header and
 * one batch say enough ("light").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "job/job_int.h"
#include "format/format.h"
#include "stage/stage.h"
#include "util/xalloc.h"

/* The largest dimension metadata states (JSON integers, as jansson
 * reads them). */
#define DIM_MAX	((uint64_t)INT64_MAX)

/*
 * FROSTT states no dimensions: they are the extent of the coordinates,
 * which metadata must be able to state.  A coordinate beyond it is
 * refused where it is.
 */
static int
extent_put(void *self, struct ts_batch *b)
{
	struct ts_diags *d = self;
	size_t i;
	int k;

	for (i = 0; i < b->n; i++)
		for (k = 0; k < b->order; k++)
			if (b->coords[i * (size_t)b->order + (size_t)k] >
			    DIM_MAX) {
				ts_batch_diag(d, b, i, k, TS_SEV_ERROR,
				    TS_RULE_S1, "coordinate %llu is beyond "
				    "2^63-1, the largest dimension metadata "
				    "can state", (unsigned long long)b->coords[i
				    * (size_t)b->order + (size_t)k]);
				return -1;
			}
	return 0;
}

static const struct ts_stage_ops extent_ops = {
	"extent", 0, extent_put, NULL, NULL, NULL, NULL
};

/* FROSTT: the base from the coordinates, dimensions from their extent
 * (or --dims), unless a dialect's header states them. */
static int
frostt_attributes(struct fe_job *j, const struct ts_header *h,
    const struct ts_inferred *inf, int order, int *basep)
{
	struct ts_meta *m = &j->m;
	bool zero = false;
	int k, base;

	for (k = 0; k < order; k++)
		zero |= inf->n > 0 && inf->min[k] == 0;
	base = j->o->in_base >= 0 ? j->o->in_base : h->base >= 0 ? h->base :
	    zero ? 0 : 1;
	if (zero && j->o->in_base < 0 && h->base < 0)
		ts_diag(j->d, TS_SEV_NOTE, j->sname, 0, 0, TS_RULE_NONE,
		    "a coordinate is 0, so the file is read as 0-based "
		    "(--input-base to change)");
	for (k = 0; k < order; k++) {
		if (inf->n > 0 && inf->min[k] < (uint64_t)base) {
			ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, TS_RULE_S1,
			    "coordinate 0 in mode %d of a 1-based file",
			    k + 1);
			return -1;
		}
		if (h->dims_known) {
			/* The header's word; a coordinate beyond it is an
			 * S1 error, located, when the entries are read. */
			m->dims[k] = h->dims[k];
			continue;
		}
		m->dims[k] = inf->n ? inf->max[k] + 1 - (uint64_t)base : 1;
		if (m->dims[k] > DIM_MAX) {
			ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, TS_RULE_S1,
			    "0-based coordinate %llu in mode %d makes a "
			    "dimension of 2^63, beyond the largest metadata "
			    "can state", (unsigned long long)inf->max[k],
			    k + 1);
			return -1;
		}
	}
	if (j->o->ndims > 0) {
		if (j->o->ndims != order) {
			ts_diag_usage(j->d, "--dims gives %d dimensions; the "
			    "tensor has order %d", j->o->ndims, order);
			return -1;
		}
		for (k = 0; k < order; k++) {
			if (j->o->dims[k] > DIM_MAX) {
				ts_diag_usage(j->d, "--dims: %llu is beyond "
				    "2^63-1, the largest dimension metadata "
				    "can state",
				    (unsigned long long)j->o->dims[k]);
				return -1;
			}
			if (j->o->dims[k] < m->dims[k]) {
				ts_diag(j->d, TS_SEV_ERROR, NULL, 0, 0,
				    TS_RULE_NONE, "--dims: mode %d has a "
				    "coordinate beyond %llu", k + 1, (unsigned
				    long long)j->o->dims[k]);
				return -1;
			}
			m->dims[k] = j->o->dims[k];
		}
	}
	*basep = base;
	return 0;
}

/*
 * A FROSTT file whose first row's numbers match the shape of the rest
 * may start with another dialect's header (COMET: "d1 ... dN nnz";
 * others: "N d1 ... dN").  It is read as FROSTT, as the format says,
 * but the user should know, and how to read it the other way.
 */
static void
header_like(struct fe_job *j, const struct ts_header *h,
    const struct ts_inferred *inf, int order)
{
	double v = inf->first_value;
	uint64_t d[TS_MAXORDER];
	const char *what = NULL;
	char dims[TS_MAXORDER * 21], *p = dims;
	int k;

	if (inf->n < 2 || !(v >= 1 && v < 1e19 && v == (double)(uint64_t)v))
		return;
	for (k = 0; k < order && inf->first[k] == inf->max[k]; k++)
		d[k] = inf->first[k];
	if (k == order && (uint64_t)v == inf->n - 1)
		what = "COMET's 'd1 ... dN nnz'";
	else if (inf->first[0] == (uint64_t)order) {
		for (k = 0; k + 1 < order; k++)
			d[k] = inf->first[k + 1];
		d[order - 1] = (uint64_t)v;
		for (k = 0; k < order && d[k] == inf->max[k]; k++)
			continue;
		if (k == order)
			what = "'N d1 ... dN'";
	}
	if (what == NULL)
		return;
	for (k = 0; k < order; k++)
		p += sprintf(p, "%s%llu", k ? "," : "", (unsigned long long)d[k]);
	ts_diag(j->d, TS_SEV_NOTE, j->sname, h->lines + 1, 1, TS_RULE_NONE,
	    "this row looks like a header, %s: its numbers match the shape of "
	    "the other rows.  It is read as an entry, as FROSTT says; to read "
	    "it as a header: tail -n +%llu FILE | ts-convert --from frostt "
	    "--dims %s - ...", what, (unsigned long long)h->lines + 2, dims);
}

/*
 * A file that keeps the tensor's attributes beside its data (binsparse
 * does, outside its descriptor) gives them back as they were written,
 * so that a bundle that went through it comes back the same; the
 * decoder has checked that they describe its entries.
 */
static int
kept_attributes(struct fe_job *j, const struct ts_meta *fm)
{
	struct ts_diags *chk = ts_diags_new(1, false);
	char *text = ts_meta_canonical(fm);
	int rv = 0;

	ts_meta_free(&j->m);
	ts_meta_init(&j->m);
	if (ts_meta_parse(&j->m, text, strlen(text), j->sname, chk) != 0 ||
	    ts_diags_errors(chk) > 0) {
		ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, TS_RULE_M1,
		    "the attributes it keeps cannot be read back");
		rv = -1;
	}
	ts_diags_free(chk);
	free(text);
	j->kept = rv == 0;
	return rv;
}

int
fe_job_infer(struct fe_job *j, bool light)
{
	struct ts_meta *m = &j->m;
	struct ts_layout lay = j->in;
	struct ts_inferred inf;
	struct ts_decoder *dec;
	const struct ts_header *h;
	struct ts_flow *f;
	struct ts_batch b;
	int order, k, base, rv = -1;
	bool frostt = ts_kind_traits((enum ts_kind)j->from) & TS_KIND_BARE;
	bool header, unread = false;

	memset(&inf, 0, sizeof(inf));
	if (frostt)
		lay.base = 0;	/* read raw; the base is found below */
	if ((dec = fe_job_decoder(j, &lay)) == NULL)
		return -1;
	h = ts_decoder_header(dec);
	order = h->order;
	base = ts_decoder_layout(dec)->base;
	header = h->nnz_known && h->dims_known && !frostt;
	if (light && header) {
		/* The header says all a file output needs; one batch tells
		 * whether the rows hold values, when the header does not
		 * (text). */
		if (ts_decoder_layout(dec)->values < 0) {
			ts_batch_init(&b, order, JOB_BATCH);
			ts_decoder_next(dec, &b);	/* a failure is reported */
			ts_batch_free(&b);
		} else
			unread = true;
		inf.n = h->block ? h->nnz_block : h->nnz;
	} else {
		f = ts_flow_new(dec, j->d, j->sname);
		if (frostt && !h->dims_known)
			ts_flow_add(f, ts_stage_new(&extent_ops, j->d));
		ts_flow_add(f, ts_stage_infer(order, light, &inf));
		ts_flow_run(f, NULL, NULL);
		ts_flow_free(f);
	}
	m->values_provided = ts_decoder_layout(dec)->values > 0;
	m->value_type = ts_decoder_layout(dec)->vtype;
	if (h->name != NULL && m->name == NULL)
		m->name = ts_xstrdup(h->name);
	if (!light)
		fe_job_provenance(j, h->comments);
	m->order = order;
	m->nnz = inf.n;
	memcpy(m->dims, h->dims, sizeof(m->dims));
	/* A block file's entries are its blocks (binsparse's dense
	 * levels): their elements are nnz. */
	if (h->block) {
		m->nnz = h->nnz;
		m->nnz_block = inf.n;
		memcpy(m->parts, h->parts, sizeof(m->parts));
	}
	if (ts_diags_errors(j->d) > 0)
		goto out;
	if (frostt && frostt_attributes(j, h, &inf, order, &base) != 0)
		goto out;
	if (frostt && h->dialect == NULL && m->values_provided)
		header_like(j, h, &inf, order);
	/* Knowledge-graph tensors have no value column: the last mode
	 * would be read as values.  Ids run into the thousands; counts
	 * and ratings seldom do. */
	if (frostt && m->values_provided && j->o->in_vtype < 0 && inf.n > 0 &&
	    !inf.frac && !inf.zero && !inf.neg && inf.vmax >= 256)
		ts_diag(j->d, TS_SEV_NOTE, j->sname, 0, 0, TS_RULE_NONE,
		    "every value is a positive integer, as ids are: if the "
		    "file has no value column (a knowledge graph), "
		    "--no-values reads its last column as mode %d", order + 1);
	if (h->nnz_known && (h->block ? h->nnz_block : h->nnz) != inf.n) {
		ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, TS_RULE_X7,
		    "the size line says %llu entries; the file holds %llu",
		    (unsigned long long)(h->block ? h->nnz_block : h->nnz),
		    (unsigned long long)inf.n);
		goto out;
	}
	j->in.base = base;
	j->in.vtype = m->value_type;	/* mtx integer files give int64 */
	j->in.values = m->values_provided;
	m->index_base = base;
	/* uint32 when every coordinate fits (half the bytes of a binary
	 * file), else uint64; --index-type says otherwise.  A binary input
	 * described by flags keeps its layout. */
	m->index_type = TS_ITYPE_UINT32;
	for (k = 0; k < order; k++)
		if (m->dims[k] - 1 + (uint64_t)base > UINT32_MAX)
			m->index_type = TS_ITYPE_UINT64;
	if (j->from == TS_KIND_BINARY)
		m->index_type = j->in.itype;
	m->endianness = j->from == TS_KIND_BINARY ? j->in.endian :
	    TS_ENDIAN_NONE;
	if (!light)
		ts_infer_whole(&inf, (uint64_t)base, h->block ? m->parts :
		    m->dims);
	m->sorted = !light && (inf.fwd || inf.rev);
	m->nsort = m->sorted ? order : 0;
	for (k = 0; k < m->nsort; k++)
		m->sort_order[k] = inf.fwd ? k : order - 1 - k;
	m->dups_allowed = light || inf.dups;
	m->zeros_allowed = inf.zero;
	m->value_domain = !m->values_provided ? TS_DOMAIN_GENERAL :
	    !inf.nonbin ? TS_DOMAIN_BINARY : !inf.neg ? TS_DOMAIN_NONNEGATIVE :
	    TS_DOMAIN_GENERAL;
	/* Of blocks, nothing is claimed. */
	m->psym = light || h->block ? TS_SYM_NO : inf.psym;
	m->nsym = m->values_provided && !light ? inf.nsym : TS_SYM_NO;
	m->sparsity = h->block ? TS_SPARSITY_BLOCK : TS_SPARSITY_ELEMENT;
	m->ndense = 0;
	if (m->source_type == NULL)
		m->source_type = ts_xstrdup("real");
	rv = ts_decoder_meta(dec) != NULL ? kept_attributes(j,
	    ts_decoder_meta(dec)) : 0;
out:
	ts_inferred_free(&inf);
	if (rv == 0 && unread) {
		j->spare = dec;		/* fe_job_decoder's */
		j->spare_lay = lay;
		dec = NULL;
	}
	ts_decoder_close(dec);
	return rv;
}
