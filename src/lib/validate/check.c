/*
 * check.c - validation: a bundle's data files against its metadata.
 * Each header is read by its decoder and compared (X1-X5, X8); then the
 * entries of one data file flow through the checks of each entry (S1,
 * S2, S3 in order, S4, S5, E2, K3) and, when there are both, a stage
 * that walks the binary file beside the text one (X6); what needs the
 * whole tensor (S3 in unsorted input, S7, S8, S9) is checked at the
 * end by external sorts (sorted_checks.c).  Files are found through the
 * bundle, so a bundle in an archive is checked as one in a directory.
 *
 * A bundle read from a stream (an archive's members, in order) gives
 * one file at a time: the text file is checked first and summed, chunk
 * by chunk, with a keyed hash; the binary file that follows is summed
 * the same way, and X6 holds when the sums agree.  When they do not,
 * the two files are read again side by side, as from a directory, to
 * name the entries that differ (an archive on a pipe cannot be read
 * again: the chunk is named instead).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "stage/stage.h"
#include "validate/sorted_checks.h"
#include "util/hash.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define BATCH	8192

/* One data file being read. */
struct stream {
	struct ts_source	*src;
	struct ts_decoder	*dec;
	struct ts_batch		 b;
	size_t			 i;	/* next entry of b to use */
	bool			 done;
};

/* The checks of each entry, as a stage. */
struct entries {
	const struct ts_meta	*m;
	struct ts_diags		*d;
	int			 order;
	bool			 block;
	uint64_t		 lim[TS_MAXORDER];
	const struct ts_header	*hdr;
	bool			 have_prev;
	uint64_t		 prev[TS_MAXORDER];
	bool			 check_sort, check_zeros;
	uint64_t		 volume;	/* K3 */
	bool			 vol_ovf;
	struct ts_ordered	*ord;	/* what needs the whole, or NULL */
	bool			*keep;	/* a batch's entries in bounds */
	size_t			 keepcap;
	bool			 failed;
	bool			 bad_bounds;
};

static char *
tuplestr(const struct entries *c, const uint64_t *t, char *buf, size_t n)
{
	return ts_tuple_str(buf, n, t, c->order, c->m->index_base);
}

/* Compare tuples in sort_order priority. */
static int
cmp_sorted(const struct ts_meta *m, const uint64_t *a, const uint64_t *b)
{
	int i;

	for (i = 0; i < m->nsort; i++) {
		int k = m->sort_order[i];

		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	}
	return 0;
}

/* S4, S5, E2: the value of entry i. */
static void
check_value(struct entries *c, const struct ts_batch *b, size_t i)
{
	const struct ts_meta *m = c->m;
	const int order = c->order;
	bool zero, bad = false;
	char tb[256];

	if (b->is_int) {
		int64_t v = b->ival[i];

		zero = v == 0;
		if (m->value_domain == TS_DOMAIN_NONNEGATIVE)
			bad = v < 0;
		else if (m->value_domain == TS_DOMAIN_BINARY)
			bad = v != 0 && v != 1;
		if (bad)
			ts_batch_diag(c->d, b, i, order, TS_SEV_ERROR,
			    TS_RULE_S5, "value %lld is not %s", (long long)v,
			    m->value_domain == TS_DOMAIN_BINARY ? "0 or 1" :
			    "nonnegative");
	} else {
		double v = b->fval[i];
		char nb[TS_NUMBUF];

		zero = v == 0;
		if (isnan(v) || isinf(v))
			ts_batch_diag(c->d, b, i, order, TS_SEV_WARNING,
			    TS_RULE_E2, "value %s is not finite (the "
			    "reference writer refuses it)", isnan(v) ? "nan" : v
			    > 0 ? "inf" : "-inf");
		if (m->value_domain == TS_DOMAIN_NONNEGATIVE)
			bad = !(v >= 0);
		else if (m->value_domain == TS_DOMAIN_BINARY)
			bad = v != 0 && v != 1;
		if (bad) {
			ts_fmt_double(nb, v);
			ts_batch_diag(c->d, b, i, order, TS_SEV_ERROR,
			    TS_RULE_S5, "value %s is not %s", nb,
			    m->value_domain == TS_DOMAIN_BINARY ? "0 or 1" :
			    "nonnegative");
		}
	}
	if (zero && c->check_zeros)
		ts_batch_diag(c->d, b, i, order, TS_SEV_ERROR, TS_RULE_S4,
		    "explicit zero at %s; 'explicit_zeros' is 'disallowed'",
		    tuplestr(c, b->coords + i * (size_t)order, tb, sizeof(tb)));
}

static int
entries_put(void *self, struct ts_batch *b)
{
	struct entries *c = self;
	const struct ts_meta *m = c->m;
	const int order = c->order;
	/* The entry before, in place: c->prev only across batches. */
	const uint64_t *prev = c->have_prev ? c->prev : NULL;
	char tb[256], tb2[256];
	size_t i;
	int k;

	if (c->ord != NULL && c->keepcap < b->n) {
		free(c->keep);
		c->keepcap = b->cap;
		c->keep = ts_xreallocarray(NULL, c->keepcap, sizeof(bool));
	}
	for (i = 0; i < b->n; i++) {
		const uint64_t *t = b->coords + i * (size_t)order;
		bool inb = true;

		for (k = 0; k < order; k++)
			if (t[k] >= c->lim[k]) {
				inb = false;
				ts_bounds_report(c->d, b, i, k, c->lim,
				    m->index_base, c->block);
			}
		if (!inb)
			c->bad_bounds = true;
		if (c->block && inb) {
			uint64_t v = 1;

			for (k = 0; k < order; k++)
				c->vol_ovf |= !ts_mul_u64(v,
				    c->hdr->extents[k][t[k]], &v);
			c->vol_ovf |= !ts_add_u64(c->volume, v, &c->volume);
		}
		if (c->check_sort) {
			if (prev != NULL) {
				int r = cmp_sorted(m, prev, t);

				if (r > 0)
					ts_batch_diag(c->d, b, i, 0,
					    TS_SEV_ERROR, TS_RULE_S2,
					    "entry %s is out of order: it "
					    "follows %s", tuplestr(c, t, tb,
					    sizeof(tb)), tuplestr(c, prev, tb2,
					    sizeof(tb2)));
				else if (r == 0 && !m->dups_allowed)
					ts_batch_diag(c->d, b, i, 0,
					    TS_SEV_ERROR, TS_RULE_S3,
					    "entry %s repeats the one before "
					    "it", tuplestr(c, t, tb,
					    sizeof(tb)));
			}
			prev = t;
		}
		if (b->has_values)
			check_value(c, b, i);
		if (c->ord != NULL)
			c->keep[i] = inb;
	}
	if (c->check_sort && b->n > 0) {
		memcpy(c->prev, prev, (size_t)order * sizeof(*prev));
		c->have_prev = true;
	}
	if (c->ord != NULL && !c->failed &&
	    ts_ordered_add(c->ord, b, c->keep) != 0)
		c->failed = true;	/* reported; the other checks go on */
	return 0;
}

static const struct ts_stage_ops entries_ops = {
	"check", TS_STAGE_READS, entries_put, NULL, NULL, NULL, NULL
};

/* ---- X6: the binary file beside the text one ---- */

struct compare {
	struct stream		*bin;
	struct ts_diags		*d;
	const struct entries	*c;
	uint64_t		 mismatches;
};

/* Advance s by one entry (refilling); false at the end. */
static bool
stream_next(struct stream *s)
{
	if (s->done)
		return false;
	if (++s->i < s->b.n)
		return true;
	s->i = 0;
	if (ts_decoder_next(s->dec, &s->b) <= 0) {
		s->done = true;
		return false;
	}
	return true;
}

static bool
sameentry(const struct ts_batch *a, size_t i, const struct ts_batch *b,
    size_t j, int order)
{
	if (memcmp(a->coords + i * (size_t)order, b->coords + j *
	    (size_t)order, (size_t)order * sizeof(uint64_t)) != 0)
		return false;
	if (!a->has_values)
		return true;
	if (a->is_int)
		return a->ival[i] == b->ival[j];
	if (isnan(a->fval[i]) && isnan(b->fval[j]))
		return true;
	return memcmp(&a->fval[i], &b->fval[j], sizeof(double)) == 0;
}

static int
compare_put(void *self, struct ts_batch *t)
{
	struct compare *x = self;
	struct stream *bin = x->bin;
	char tb[256];
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (bin->done || !stream_next(bin)) {
			if (x->mismatches == 0)
				ts_diag(x->d, TS_SEV_ERROR, t->file, t->loc[i],
				    1, TS_RULE_X6, "the binary file ends "
				    "before this entry");
			x->mismatches++;
			return 0;
		}
		if (!sameentry(t, i, &bin->b, bin->i, t->order)) {
			x->mismatches++;
			ts_diag(x->d, TS_SEV_ERROR, t->file, t->loc[i], 1,
			    TS_RULE_X6, "entry %s differs from record %llu of "
			    "the binary file (offset %llu)", tuplestr(x->c,
			    t->coords + i * (size_t)t->order, tb, sizeof(tb)),
			    (unsigned long long)(bin->b.first + bin->i + 1),
			    (unsigned long long)bin->b.loc[bin->i]);
		}
	}
	return 0;
}

static const struct ts_stage_ops compare_ops = {
	"compare", 0, compare_put, NULL, NULL, NULL, NULL
};

/* ---- X6 over a stream: sums of chunks of entries ---- */

#define DCHUNK	4096	/* entries a sum covers */

struct digest {
	uint64_t	 key[2];
	uint64_t	 acc[2];	/* of the chunk being summed */
	uint64_t	 n;		/* entries summed */
	uint64_t	*sums;		/* two a chunk */
	size_t		 nsums, cap;
};

/* Keys nobody can guess, so that no crafted pair of files agrees by
 * construction. */
static void
digest_init(struct digest *g)
{
	uint64_t k[2];

	memset(g, 0, sizeof(*g));
	if (getentropy(k, sizeof(k)) != 0) {
		k[0] = (uint64_t)time(NULL) ^ (uint64_t)clock();
		k[1] = (uint64_t)getpid() ^ (uint64_t)(uintptr_t)g;
	}
	g->key[0] = ts_mix64(k[0]) | 1;
	g->key[1] = ts_mix64(k[1] ^ 0x9e3779b97f4a7c15ULL) | 1;
}

static void
digest_push(struct digest *g)
{
	if (g->nsums + 2 > g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		g->sums = ts_xreallocarray(g->sums, g->cap, sizeof(*g->sums));
	}
	g->sums[g->nsums++] = ts_mix64(g->acc[0]);
	g->sums[g->nsums++] = ts_mix64(g->acc[1]);
	g->acc[0] = g->acc[1] = 0;
}

/* Sum the entries as sameentry() compares them: coordinates, and the
 * value's bits (every NaN alike). */
static int
digest_put(void *self, struct ts_batch *b)
{
	struct digest *g = self;
	const int order = b->order;
	uint64_t f, h0, h1;
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *t = b->coords + i * (size_t)order;

		h0 = g->key[0];
		h1 = g->key[1];
		for (k = 0; k <= order; k++) {
			if (k < order)
				f = t[k];
			else if (!b->has_values)
				break;
			else if (b->is_int)
				f = (uint64_t)b->ival[i];
			else if (isnan(b->fval[i]))
				f = 0x7ff8000000000000ULL;
			else
				memcpy(&f, &b->fval[i], sizeof(f));
			h0 = (h0 ^ f) * 0x9e3779b97f4a7c15ULL;
			h0 ^= h0 >> 29;
			h1 = (h1 ^ f) * 0xd6e8feb86659fd93ULL;
			h1 ^= h1 >> 31;
		}
		g->acc[0] = g->acc[0] * 0x100000001b3ULL + ts_mix64(h0);
		g->acc[1] = g->acc[1] * 0xc2b2ae3d27d4eb4fULL + ts_mix64(h1 ^
		    g->key[0]);
		if (++g->n % DCHUNK == 0)
			digest_push(g);
	}
	return 0;
}

static int
digest_finish(void *self)
{
	struct digest *g = self;

	if (g->n % DCHUNK != 0)
		digest_push(g);
	return 0;
}

static const struct ts_stage_ops digest_ops = {
	"digest", 0, digest_put, digest_finish, NULL, NULL, NULL
};

/* ---- headers and files ---- */

/* A decoder on s->src (which the stream then owns). */
static int
start_stream(struct stream *s, const struct ts_layout *lay,
    const struct ts_check_opts *o, struct ts_diags *d)
{
	if ((s->dec = ts_decoder_open(s->src, lay, d)) == NULL) {
		ts_source_close(s->src);
		s->src = NULL;
		return -1;
	}
	/* Every coordinate out of range is reported, not the first. */
	ts_decoder_check_bounds(s->dec, false);
	if (o != NULL && o->threads > 0)
		ts_decoder_set_threads(s->dec, o->threads);
	ts_batch_init(&s->b, ts_decoder_header(s->dec)->order, BATCH);
	return 0;
}

static int
open_stream(struct ts_bundle *bd, const char *fname, enum ts_kind kind,
    struct stream *s, const struct ts_check_opts *o, struct ts_diags *d)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	struct ts_layout lay;

	memset(s, 0, sizeof(*s));
	if ((s->src = ts_bundle_open_file(bd, fname)) == NULL) {
		char *p = ts_bundle_path(bd, fname);

		ts_diag_io(d, p, "cannot open: %s", strerror(errno));
		free(p);
		return -1;
	}
	s->src = ts_source_prepare(s->src, TS_SOURCE_DECOMPRESS, NULL);
	if (s->src == NULL) {
		char *p = ts_bundle_path(bd, fname);

		ts_diag(d, TS_SEV_ERROR, p, 0, 0, TS_RULE_NONE, "cannot "
		    "decompress: %s", strerror(errno));
		free(p);
		return -1;
	}
	ts_layout_of(m, kind, &lay);
	return start_stream(s, &lay, o, d);
}

static void
close_stream(struct stream *s)
{
	if (s->dec == NULL)
		return;
	ts_batch_free(&s->b);
	ts_decoder_close(s->dec);
	ts_source_close(s->src);
	s->dec = NULL;
}

/* B2 for the '% name' of a lone data file (with metadata, X3 holds it
 * to the metadata's name, which B2 holds). */
static void
check_name(const struct ts_header *h, const char *path, struct ts_diags *d)
{
	if (h->name != NULL && !ts_valid_name(h->name))
		ts_diag(d, TS_SEV_ERROR, path, 3, 9, TS_RULE_B2, "'%% name' "
		    "'%s' is not [A-Za-z0-9][A-Za-z0-9._-]* of at most %d "
		    "bytes", h->name, TS_NAMEMAX);
}

/* X2-X5 and X8: a header against the metadata. */
static bool
check_header(const struct ts_meta *m, struct stream *s, struct ts_diags *d)
{
	const struct ts_header *h = ts_decoder_header(s->dec);
	const char *path = ts_source_name(s->src);
	const bool block = m->sparsity == TS_SPARSITY_BLOCK;
	bool ok = true;
	int i;

	if (m->version && strcmp(h->version, m->version) != 0)
		ts_diag(d, TS_SEV_ERROR, path, 2, 12, TS_RULE_X2,
		    "'%% version' is '%s'; the metadata says '%s'", h->version,
		    m->version);
	if (m->name && strcmp(h->name, m->name) != 0)
		ts_diag(d, TS_SEV_ERROR, path, 3, 9, TS_RULE_X3, "'%% name' "
		    "is '%s'; the metadata says '%s'", h->name, m->name);
	if (h->order != m->order) {
		ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_X4, "the size "
		    "line gives order %d; the metadata says %d", h->order,
		    m->order);
		return false;
	}
	for (i = 0; i < h->order; i++)
		if (h->dims[i] != m->dims[i]) {
			ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_X4,
			    "the size line gives dimension %llu for mode %d; "
			    "the metadata says %llu", (unsigned long
			    long)h->dims[i], i + 1, (unsigned long
			    long)m->dims[i]);
			ok = false;
		}
	if (h->nnz != m->nnz)
		ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_X4, "the size "
		    "line gives nnz %llu; the metadata says %llu", (unsigned
		    long long)h->nnz, (unsigned long long)m->nnz);
	if (block) {
		for (i = 0; i < h->order; i++)
			if (h->parts[i] != m->parts[i]) {
				ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_X5,
				    "the block size line gives %llu sections "
				    "for mode %d; 'block_partitions' says %llu",
				    (unsigned long long)h->parts[i], i + 1,
				    (unsigned long long)m->parts[i]);
				ok = false;
			}
		if (h->nnz_block != m->nnz_block)
			ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_X5,
			    "the block size line gives nnz_block %llu; the "
			    "metadata says %llu",
			    (unsigned long long)h->nnz_block,
			    (unsigned long long)m->nnz_block);
	}
	if (h->kind == TS_KIND_BINARY && ts_source_size(s->src) >= 0) {
		const struct ts_layout *l = ts_decoder_layout(s->dec);
		uint64_t recs = block ? h->nnz_block : h->nnz, want, rs;
		uint64_t size = (uint64_t)ts_source_size(s->src);

		rs = (uint64_t)h->order * ts_itype_size(l->itype) +
		    (l->values ? ts_vtype_size(l->vtype) : 0);
		if (!ts_mul_u64(recs, rs, &want) ||
		    !ts_add_u64(want, h->bytes, &want) || want != size)
			ts_diag_off(d, TS_SEV_ERROR, path, (int64_t)h->bytes,
			    TS_RULE_X8, "the file has %llu bytes; a header of "
			    "%llu and %llu records of %llu make %s%llu",
			    (unsigned long long)size, (unsigned long
			    long)h->bytes, (unsigned long long)recs, (unsigned
			    long long)rs, want < h->bytes ? "more than " : "",
			    (unsigned long long)want);
		if (!l->values && !block)
			ts_diag(d, TS_SEV_NOTE, path, 0, 0, TS_RULE_E3,
			    "a binary file without values is read by this "
			    "toolkit only; the reference reader expects a "
			    "value field");
	}
	return ok;
}

/* The entries every stage needs: in bounds, and the metadata usable. */
static bool
meta_usable(const struct ts_meta *m)
{
	const unsigned need = TS_HAVE_VTYPE | TS_HAVE_ITYPE | TS_HAVE_BASE |
	    TS_HAVE_VALUES | TS_HAVE_ORDER | TS_HAVE_DIMS | TS_HAVE_NNZ |
	    TS_HAVE_SPARSITY | TS_HAVE_ENDIAN;

	return (m->have & need) == need && (m->sparsity != TS_SPARSITY_BLOCK ||
	    (m->have & TS_HAVE_BLOCKS));
}

/* Read the primary file through the checks (and X6 beside it, or the
 * sums of its entries into g); with only_x6, through X6 alone. */
static void
check_entries(const struct ts_meta *m, struct stream *pri,
    struct stream *bin, struct digest *g, bool only_x6,
    const struct ts_check_opts *o, struct ts_diags *d)
{
	const char *file = ts_source_name(pri->src);
	struct entries c;
	struct compare x;
	struct ts_flow *f;
	struct ts_stage *w;
	uint64_t expect;
	int k;

	memset(&c, 0, sizeof(c));
	c.m = m;
	c.d = d;
	c.order = m->order;
	c.block = m->sparsity == TS_SPARSITY_BLOCK;
	for (k = 0; k < c.order; k++)
		c.lim[k] = c.block ? m->parts[k] : m->dims[k];
	c.hdr = ts_decoder_header(pri->dec);
	c.check_sort = (m->have & TS_HAVE_SORT) && m->sorted;
	c.check_zeros = (m->have & TS_HAVE_ZEROS) && !m->zeros_allowed;
	/* Only these need the entries in another order: sorts. */
	if (!only_x6 && !o->stream_only && (((m->have & TS_HAVE_DUPS) &&
	    !m->dups_allowed && !c.check_sort) ||
	    ((m->have & TS_HAVE_PSYM) && m->psym != TS_SYM_NO) ||
	    ((m->have & TS_HAVE_NSYM) && m->nsym != TS_SYM_NO) ||
	    (m->sparsity == TS_SPARSITY_NO && (m->have & TS_HAVE_DENSE)) ||
	    (m->sparsity == TS_SPARSITY_SEMI && (m->have & TS_HAVE_DENSE)))) {
		struct ts_ordered_opts oo;

		memset(&oo, 0, sizeof(oo));
		oo.file = file;
		oo.loc_offset = ts_decoder_layout(pri->dec)->kind ==
		    TS_KIND_BINARY;
		oo.s3 = (m->have & TS_HAVE_DUPS) && !m->dups_allowed &&
		    !c.check_sort;
		oo.mem_limit = o->mem_limit;
		oo.tmpdir = o->tmpdir;
		oo.threads = o->threads > 0 ? o->threads : 2;
		/* Memory is prepared for the header's count, if the file
		 * can hold that many (two bytes a row at least). */
		oo.expect = c.block ? m->nnz_block : m->nnz;
		if (ts_source_size(pri->src) < 0)
			oo.expect = 0;
		else if (oo.expect > (uint64_t)ts_source_size(pri->src) / 4)
			oo.expect = (uint64_t)ts_source_size(pri->src) / 4;
		c.ord = ts_ordered_new(m, &oo, d);
	}

	/*
	 * When the checks of each entry are all that read the values, their
	 * classes are enough: zero, negative, finite (check_value).  Not
	 * for the binary domain (is it 1?), nor when a caller's stage, a
	 * sum or a comparison with the binary file reads them, nor when
	 * the values travel through a sort (S8).
	 */
	if (!only_x6 && bin == NULL && g == NULL && o->watch == NULL &&
	    m->value_domain != TS_DOMAIN_BINARY && !((m->have &
	    TS_HAVE_NSYM) && m->nsym != TS_SYM_NO))
		ts_decoder_value_classes(pri->dec);
	f = ts_flow_new(pri->dec, d, file);
	ts_flow_keep_going(f, true);
	if (!only_x6)
		ts_flow_add(f, ts_stage_new(&entries_ops, &c));
	if (!only_x6 && o->watch != NULL && o->watch->stage != NULL &&
	    (w = o->watch->stage(o->watch->arg, m, pri->dec)) != NULL)
		ts_flow_add(f, w);
	if (g != NULL)
		ts_flow_add(f, ts_stage_new(&digest_ops, g));
	memset(&x, 0, sizeof(x));
	if (bin != NULL) {
		x.bin = bin;
		x.d = d;
		x.c = &c;
		ts_flow_add(f, ts_stage_new(&compare_ops, &x));
	}
	ts_flow_run(f, NULL, NULL);
	ts_flow_free(f);

	if (bin != NULL && stream_next(bin) && x.mismatches == 0)
		ts_diag(d, TS_SEV_ERROR, ts_source_name(bin->src), 0, 0,
		    TS_RULE_X6, "the binary file holds more entries than the "
		    "text file");
	if (only_x6)
		return;
	if (ts_decoder_layout(pri->dec)->kind != TS_KIND_BINARY) {
		expect = c.block ? m->nnz_block : m->nnz;
		if (ts_decoder_rows(pri->dec) != expect)
			ts_diag(d, TS_SEV_ERROR, file, 0, 0, TS_RULE_X7,
			    "the file holds %llu %s; the metadata says %llu",
			    (unsigned long long)ts_decoder_rows(pri->dec),
			    c.block ? "blocks" : "entries", (unsigned long
			    long)expect);
	}
	if (c.block && !c.bad_bounds && c.vol_ovf)
		ts_diag(d, TS_SEV_ERROR, file, 0, 0, TS_RULE_K3, "the non-zero "
		    "blocks hold more than 18446744073709551615 (2^64 - 1) "
		    "elements; 'nnz' is %llu", (unsigned long long)m->nnz);
	else if (c.block && !c.bad_bounds && c.volume != m->nnz)
		ts_diag(d, TS_SEV_ERROR, file, 0, 0, TS_RULE_K3, "the non-zero "
		    "blocks hold %llu elements; 'nnz' is %llu",
		    (unsigned long long)c.volume, (unsigned long long)m->nnz);
	if (c.ord != NULL && !c.failed) {
		ts_progress(0, 0, false, "checking %s as a whole", file);
		if (ts_ordered_finish(c.ord, c.bad_bounds) == 0 &&
		    ts_ordered_repeats(c.ord) != UINT64_MAX &&
		    o->watch != NULL && o->watch->repeats != NULL)
			o->watch->repeats(o->watch->arg,
			    ts_ordered_repeats(c.ord));
	}
	ts_ordered_free(c.ord);
	free(c.keep);
}

/* Is fname there, or may it still come by?  A file missing is B3,
 * which ts_bundle_settle says. */
static bool
may_open(struct ts_bundle *bd, const char *fname)
{
	struct ts_file_stat fs;

	return fname != NULL && (ts_bundle_stat(bd, fname, &fs) == 0 ||
	    errno == EAGAIN);
}

/* The sums of the text and binary files disagree: name the entries,
 * reading both again side by side; or, when they cannot be read again,
 * the first chunk that differs. */
static void
x6_again(struct ts_bundle *bd, const struct digest *t, const struct digest *b,
    const struct ts_check_opts *o, struct ts_diags *d)
{
	const char *tf = ts_bundle_data_file(bd, TS_KIND_TEXT);
	const char *bf = ts_bundle_data_file(bd, TS_KIND_BINARY);
	struct ts_diags *quiet = ts_diags_new(1, false);
	struct stream st[2];
	char *tp;
	size_t i;

	memset(st, 0, sizeof(st));
	if (open_stream(bd, tf, TS_KIND_TEXT, &st[0], o, quiet) == 0 &&
	    open_stream(bd, bf, TS_KIND_BINARY, &st[1], o, quiet) == 0) {
		check_entries(ts_bundle_meta(bd), &st[0], &st[1], NULL, true, o,
		    d);
		close_stream(&st[0]);
		close_stream(&st[1]);
		ts_diags_free(quiet);
		return;
	}
	close_stream(&st[0]);
	ts_diags_free(quiet);
	for (i = 0; i < t->nsums && i < b->nsums; i++)
		if (t->sums[i] != b->sums[i])
			break;
	tp = ts_bundle_path(bd, tf);
	if (i < t->nsums && i < b->nsums) {
		uint64_t first = i / 2 * DCHUNK, last = first + DCHUNK;

		if (last > t->n)
			last = t->n;
		ts_diag(d, TS_SEV_ERROR, tp, 0, 0, TS_RULE_X6, "entries %llu "
		    "to %llu differ from the same records of the binary file "
		    "(which entries, the archive cannot be read again to tell)",
		    (unsigned long long)first + 1, (unsigned long long)last);
	}
	if (t->n != b->n)
		ts_diag(d, TS_SEV_ERROR, tp, 0, 0, TS_RULE_X6, "the text file "
		    "holds %llu entries, the binary file %llu", (unsigned long
		    long)t->n, (unsigned long long)b->n);
	free(tp);
}

/* Sum the entries of a data file already open into g (X6). */
static void
digest_file(struct stream *st, struct digest *g, struct ts_diags *d)
{
	struct ts_flow *f = ts_flow_new(st->dec, d, ts_source_name(st->src));

	ts_flow_keep_going(f, true);
	ts_flow_add(f, ts_stage_new(&digest_ops, g));
	ts_flow_run(f, NULL, NULL);
	ts_flow_free(f);
}

static bool
same_sums(const struct digest *a, const struct digest *b)
{
	return a->n == b->n && a->nsums == b->nsums && memcmp(a->sums,
	    b->sums, a->nsums * sizeof(*a->sums)) == 0;
}

/*
 * A bundle read from a stream: one file after the other, in the order
 * they come.  The text file is the one checked entry by entry, as from
 * a directory; a binary file beside it is only summed, before or after.
 */
static void
check_stream(struct ts_bundle *bd, const struct ts_check_opts *o,
    struct ts_diags *d)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	const char *tf = ts_bundle_data_file(bd, TS_KIND_TEXT);
	const char *bf = ts_bundle_data_file(bd, TS_KIND_BINARY);
	struct ts_file_stat fs;
	struct digest g[2];
	struct stream st;
	bool ok0 = false, ok1 = false, summed = false, bin_first;
	/* Checked as they stream by alone, each file is checked on its
	 * own: X6 would read every value of both. */
	bool both = may_open(bd, tf) && may_open(bd, bf) && !o->stream_only;

	digest_init(&g[0]);
	g[1] = g[0];
	/* The binary file is here and the text one not yet: the binary
	 * comes first (an archive that tar wrote), so it is summed first,
	 * rather than kept aside until the text file has been read. */
	bin_first = both && ts_bundle_stat(bd, tf, &fs) != 0 &&
	    errno == EAGAIN && ts_bundle_stat(bd, bf, &fs) == 0;
	if (bin_first && open_stream(bd, bf, TS_KIND_BINARY, &st, o, d) == 0) {
		if ((ok1 = check_header(m, &st, d)) && !o->quick) {
			digest_file(&st, &g[1], d);
			summed = true;
		}
		close_stream(&st);
	}
	if (may_open(bd, tf) &&
	    open_stream(bd, tf, TS_KIND_TEXT, &st, o, d) == 0) {
		if ((ok0 = check_header(m, &st, d)) && !o->quick)
			check_entries(m, &st, NULL, both ? &g[0] : NULL,
			    false, o, d);
		close_stream(&st);
	}
	if (!bin_first && may_open(bd, bf) && open_stream(bd, bf,
	    TS_KIND_BINARY, &st, o, d) == 0) {
		if ((ok1 = check_header(m, &st, d)) && !o->quick) {
			if (ok0 && both) {
				digest_file(&st, &g[1], d);
				summed = true;
			} else
				check_entries(m, &st, NULL, NULL, false, o,
				    d);
		}
		close_stream(&st);
	} else if (bin_first && ok1 && !ok0 && !o->quick) {
		/* The text file is unusable: the binary one, summed only,
		 * is checked entry by entry after all, read again. */
		if (open_stream(bd, bf, TS_KIND_BINARY, &st, o, d) == 0) {
			check_entries(m, &st, NULL, NULL, false, o, d);
			close_stream(&st);
		}
	}
	if (ok0 && ok1 && summed && !same_sums(&g[0], &g[1]))
		x6_again(bd, &g[0], &g[1], o, d);
	free(g[0].sums);
	free(g[1].sums);
}

static void
check_bundle(struct ts_bundle *bd, const struct ts_check_opts *o,
    struct ts_diags *d)
{
	struct ts_meta *m = ts_bundle_meta(bd);
	static const struct ts_check_opts dflt = { false, 0, NULL, 0, NULL,
	    false };
	struct stream st[2];	/* text, binary */
	bool ok[2] = { false, false };
	int k;

	if (o == NULL)
		o = &dflt;
	if (m == NULL || !meta_usable(m)) {
		ts_bundle_settle(bd, d);
		return;
	}
	if (ts_bundle_streams(bd)) {
		check_stream(bd, o, d);
		ts_bundle_settle(bd, d);
		return;
	}
	memset(st, 0, sizeof(st));
	for (k = 0; k < 2; k++) {
		const char *f = ts_bundle_data_file(bd, (enum ts_kind)k);

		if (f != NULL && open_stream(bd, f, (enum ts_kind)k, &st[k], o,
		    d) == 0)
			ok[k] = check_header(m, &st[k], d);
	}
	if (!o->quick && o->stream_only) {
		/* Each file on its own, as from a stream. */
		for (k = 0; k < 2; k++)
			if (ok[k])
				check_entries(m, &st[k], NULL, NULL, false, o,
				    d);
	} else if (!o->quick && (ok[0] || ok[1]))
		check_entries(m, ok[0] ? &st[0] : &st[1], ok[0] && ok[1] ?
		    &st[1] : NULL, NULL, false, o, d);
	close_stream(&st[0]);
	close_stream(&st[1]);
}

/* ---- a lone data file ---- */

/*
 * Without metadata, what a file says of itself: its header's shape and
 * count, against which the rows are checked.  The index base is not
 * known: every coordinate must be at most the dimension (1-based) and,
 * when some coordinate is 0 (0-based), below it.
 */
struct selfcheck {
	struct ts_diags	*d;
	int		 order;
	uint64_t	 dims[TS_MAXORDER];
	bool		 zero;		/* a coordinate 0 was seen */
	bool		 top;		/* one equal to its dimension */
	const char	*file;
	uint64_t	 topline;
	int		 topmode;
};

static int
self_put(void *self, struct ts_batch *b)
{
	struct selfcheck *c = self;
	uint64_t lim[TS_MAXORDER];
	size_t i;
	int k;

	for (k = 0; k < c->order; k++)
		lim[k] = c->dims[k] + 1;
	for (i = 0; i < b->n; i++)
		for (k = 0; k < c->order; k++) {
			uint64_t v = b->coords[i * (size_t)c->order +
			    (size_t)k];

			if (v >= lim[k])
				ts_batch_diag(c->d, b, i, k, TS_SEV_ERROR,
				    TS_RULE_S1, "coordinate %llu exceeds "
				    "dimension %llu of mode %d", (unsigned long
				    long)v, (unsigned long long)c->dims[k], k +
				    1);
			else if (v == 0)
				c->zero = true;
			else if (v == c->dims[k] && !c->top) {
				c->top = true;
				c->topline = b->loc[i];
				c->topmode = k + 1;
			}
		}
	return 0;
}

static const struct ts_stage_ops self_ops = {
	"selfcheck", TS_STAGE_READS, self_put, NULL, NULL, NULL, NULL
};

static void
check_alone(struct stream *s, const struct ts_check_opts *o,
    struct ts_diags *d)
{
	const struct ts_header *h = ts_decoder_header(s->dec);
	const char *file = ts_source_name(s->src);
	struct selfcheck c;
	struct ts_flow *f;
	struct ts_stage *w;

	memset(&c, 0, sizeof(c));
	c.d = d;
	c.order = h->order;
	memcpy(c.dims, h->dims, sizeof(c.dims));
	c.file = file;
	f = ts_flow_new(s->dec, d, file);
	ts_flow_keep_going(f, true);
	if (h->dims_known && !h->block)
		ts_flow_add(f, ts_stage_new(&self_ops, &c));
	if (o->watch != NULL && o->watch->stage != NULL &&
	    (w = o->watch->stage(o->watch->arg, NULL, s->dec)) != NULL)
		ts_flow_add(f, w);
	ts_flow_run(f, NULL, NULL);
	ts_flow_free(f);
	if (c.zero && c.top)
		ts_diag(d, TS_SEV_ERROR, file, c.topline, 0, TS_RULE_S1,
		    "coordinate %llu of mode %d is its dimension, yet another "
		    "coordinate is 0: neither base holds every coordinate",
		    (unsigned long long)c.dims[c.topmode - 1], c.topmode);
	if (h->nnz_known && ts_decoder_rows(s->dec) != (h->block ?
	    h->nnz_block : h->nnz))
		ts_diag(d, TS_SEV_ERROR, file, 0, 0, TS_RULE_X7, "the file "
		    "holds %llu %s; its size line says %llu", (unsigned long
		    long)ts_decoder_rows(s->dec), h->block ? "blocks" :
		    "entries", (unsigned long long) (h->block ? h->nnz_block :
		    h->nnz));
	ts_diag(d, TS_SEV_NOTE, file, 0, 0, TS_RULE_NONE, "no metadata: the "
	    "header, the rows, the bounds and the count were checked; the "
	    "attributes' rules (S2-S9, X) need the metadata (--meta FILE)");
}

static void
check_file(struct ts_source *src, enum ts_kind kind,
    const struct ts_meta *m, const struct ts_check_opts *o,
    struct ts_diags *d)
{
	static const struct ts_check_opts dflt = { false, 0, NULL, 0, NULL,
	    false };
	struct ts_layout lay;
	struct stream st;

	if (o == NULL)
		o = &dflt;
	memset(&st, 0, sizeof(st));
	st.src = src;
	if (m != NULL) {
		if (!meta_usable(m)) {
			ts_source_close(src);
			return;
		}
		ts_layout_of(m, kind, &lay);
		if (start_stream(&st, &lay, o, d) != 0)
			return;
		if (check_header(m, &st, d) && !o->quick)
			check_entries(m, &st, NULL, NULL, false, o, d);
	} else {
		if (kind == TS_KIND_BINARY) {
			ts_diag(d, TS_SEV_ERROR, ts_source_name(src), 0, 0,
			    TS_RULE_E3, "a binary file does not say how its "
			    "records are laid out: give its metadata (--meta "
			    "FILE)");
			ts_source_close(src);
			return;
		}
		memset(&lay, 0, sizeof(lay));
		lay.kind = kind;
		lay.values = -1;
		lay.vtype = TS_VTYPE_FLOAT64;
		lay.itype = TS_ITYPE_UINT64;
		lay.base = 0;	/* raw: the base is not known */
		if (start_stream(&st, &lay, o, d) != 0)
			return;
		check_name(ts_decoder_header(st.dec), ts_source_name(src), d);
		if (!o->quick)
			check_alone(&st, o, d);
	}
	close_stream(&st);
}

/* A check fails when it finds the data rejected: when it reports an
 * error. */
int
ts_check_bundle(struct ts_bundle *bd, const struct ts_check_opts *o,
    struct ts_diags *d)
{
	size_t errs = ts_diags_errors(d);

	check_bundle(bd, o, d);
	return ts_diags_errors(d) > errs ? -1 : 0;
}

int
ts_check_file(struct ts_source *src, enum ts_kind kind,
    const struct ts_meta *m, const struct ts_check_opts *o,
    struct ts_diags *d)
{
	size_t errs = ts_diags_errors(d);

	check_file(src, kind, m, o, d);
	return ts_diags_errors(d) > errs ? -1 : 0;
}

/* ---- every bundle of an archive ---- */

size_t
ts_check_archive(const char *path, const struct ts_check_opts *co,
    struct ts_diags *d)
{
	const char *label = strcmp(path, "-") == 0 ? "<stdin>" : path;
	struct ts_bundles *bs;
	struct ts_bundle *bd;
	size_t n;

	if ((bs = ts_bundles_open(path, NULL, d)) == NULL)
		return 0;
	while ((bd = ts_bundles_next(bs, NULL, d)) != NULL) {
		ts_check_bundle(bd, co, d);
		ts_bundle_free(bd);
	}
	if ((n = ts_bundles_count(bs)) == 0 && ts_diags_errors(d) == 0)
		ts_diag(d, TS_SEV_ERROR, label, 0, 0, TS_RULE_B5,
		    "the archive holds no bundle");
	ts_bundles_close(bs);
	return n;
}
