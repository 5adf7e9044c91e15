/*
 * symmetry.c - a symmetric matrix exported to Matrix Market as the
 * SuiteSparse Matrix Collection ships one: 'symmetric' (or
 * 'skew-symmetric') with the lower triangle only.  The metadata's claim
 * (pattern_symmetry full) asks for it; the entries, read once before
 * they are written, must bear it out, since the size line must count
 * what the triangle holds before any entry is written: mirrors all
 * there, none repeated, and values equal (numerical_symmetry full) or
 * of opposite signs with none on the diagonal (skew).  Anything else is
 * written 'general', whole, as --mtx-general asks.
 */
#include <errno.h>
#include <string.h>

#include "tensorsuite.h"
#include "job/job_int.h"
#include "util/path.h"

/* The Matrix Market symmetries of struct ts_encode_opts' mtx_sym. */
enum { MTX_GENERAL, MTX_SYMMETRIC, MTX_SKEW };

int
fe_job_mtx_symmetry(struct fe_job *j, int *sym, uint64_t *stored)
{
	const struct ts_meta *m = j->mp;
	struct ts_inferred inf;
	struct ts_decoder *dec;
	struct ts_flow *f;
	const char *dst = strcmp(j->o->dst, "-") == 0 ? "<stdout>" :
	    j->o->dst;

	*sym = MTX_GENERAL;
	*stored = m->nnz;
	if (j->o->mtx_general || m->order != 2 || m->dims[0] != m->dims[1] ||
	    m->psym != TS_SYM_FULL || m->sparsity == TS_SPARSITY_BLOCK ||
	    m->nnz == 0)
		return 0;
	/* Read twice: a pipe or an archive's member is copied once. */
	if (!ts_source_can_rewind(j->src) && (j->src =
	    ts_source_prepare(j->src, TS_SOURCE_REWIND, j->o->tmpdir)) ==
	    NULL) {
		ts_diag_io(j->d, j->sname, "copying to a temporary file in "
		    "'%s', to read it twice: %s", ts_tmpdir(j->o->tmpdir),
		    strerror(errno));
		return -1;
	}
	if ((dec = fe_job_decoder(j, &j->in)) == NULL)
		return -1;
	f = ts_flow_new(dec, j->d, j->sname);
	ts_flow_add(f, ts_stage_infer(2, false, &inf));
	if (ts_flow_run(f, NULL, NULL) != 0 || ts_diags_errors(j->d) > 0) {
		ts_flow_free(f);
		ts_inferred_free(&inf);
		ts_decoder_close(dec);
		return -1;
	}
	ts_flow_free(f);
	ts_decoder_close(dec);
	/* The decoder gave 0-based coordinates. */
	ts_infer_whole(&inf, 0, m->dims);
	if (inf.psym == TS_SYM_FULL && !inf.dups && (!m->values_provided ||
	    inf.nsym == TS_SYM_FULL)) {
		*sym = MTX_SYMMETRIC;
		*stored = (inf.n + inf.ndiag) / 2;
	} else if (inf.psym == TS_SYM_FULL && !inf.dups && inf.skew) {
		*sym = MTX_SKEW;
		*stored = inf.n / 2;
	} else if (inf.psym != TS_SYM_FULL || inf.dups) {
		ts_diag(j->d, TS_SEV_WARNING, j->sname, 0, 0, TS_RULE_S7,
		    "the metadata says pattern_symmetry 'full', but %s: "
		    "written 'general'", inf.dups ? "some coordinates repeat" :
		    "some entry has no mirror");
		return 0;
	}
	if (*sym != MTX_GENERAL)
		ts_diag(j->d, TS_SEV_NOTE, dst, 0, 0, TS_RULE_NONE, "written "
		    "'%s', the lower triangle: %llu of the %llu entries "
		    "(ts-convert --mtx-general writes them all)", *sym == MTX_SKEW ?
		    "skew-symmetric" : "symmetric", (unsigned long long)*stored,
		    (unsigned long long)inf.n);
	return 0;
}
