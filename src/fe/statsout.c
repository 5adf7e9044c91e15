/*
 * statsout.c - a tensor's statistics as JSON members and CSV columns
 * (see statsout.h).  Numbers are printed exactly: counts as integers,
 * the other figures as the shortest decimal that reads back to the same
 * double, and a ratio of counts (the density, a share, a mean of counts)
 * as the double nearest to the exact fraction (stats/ratio.c); what is
 * not known is null in JSON and an empty cell in CSV, and a non-finite
 * value is the string "nan", "inf" or "-inf".  Per-mode columns of CSV
 * hold one value a mode, separated by ';', so that every row has the
 * same columns whatever the order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statsout.h"
#include "model/model.h"
#include "util/escape.h"
#include "util/xalloc.h"

void
fe_verdict_of(const struct ts_diags *d, struct fe_verdict *v)
{
	size_t i, n;

	memset(v, 0, sizeof(*v));
	v->errors = ts_diags_count(d, TS_SEV_ERROR);
	v->warnings = ts_diags_count(d, TS_SEV_WARNING);
	v->valid = v->errors == 0;
	for (i = 0; i < ts_diags_len(d); i++) {
		const struct ts_diag *g = ts_diags_at(d, i);
		const char *id = ts_rule_id(g->rule);
		char tag[8], padded[sizeof(v->rules) + 2];

		if (g->sev != TS_SEV_ERROR || g->rule == TS_RULE_NONE)
			continue;
		/* Each rule once: " S1 S3 " holds " S1 ". */
		snprintf(tag, sizeof(tag), " %s ", id);
		snprintf(padded, sizeof(padded), " %s ", v->rules);
		if (strstr(padded, tag) != NULL)
			continue;
		n = strlen(v->rules);
		if (n + strlen(id) + 2 < sizeof(v->rules))
			snprintf(v->rules + n, sizeof(v->rules) - n, "%s%s",
			    n ? " " : "", id);
	}
}

const char *
fe_num(char *buf, double v)
{
	if (isnan(v))
		return strcpy(buf, "nan");
	if (isinf(v))
		return strcpy(buf, v > 0 ? "inf" : "-inf");
	ts_fmt_double(buf, v);
	return buf;
}

/* a / b, the double nearest to the fraction (stats/ratio.c): a share
 * or a mean of counts is printed as the density is. */
static double
frac(uint64_t a, uint64_t b)
{
	return fe_stats_ratio_double(a, &b, 1);
}

/* ---- JSON ---- */

struct json {
	FILE		*fp;
	const char	*indent;
	bool		 first;
};

static void
key(struct json *j, const char *k)
{
	if (!j->first)
		fprintf(j->fp, "%s%s", j->indent ? ",\n" : ", ",
		    j->indent ? j->indent : "");
	fprintf(j->fp, "\"%s\": ", k);
	j->first = false;
}

static void
jnum(FILE *fp, double v)
{
	char nb[TS_NUMBUF];

	if (isfinite(v))
		fputs(fe_num(nb, v), fp);
	else
		fprintf(fp, "\"%s\"", fe_num(nb, v));
}

static void
jdist(FILE *fp, const struct ts_dist *d)
{
	if (!d->known) {
		fputs("\"min\": null, \"median\": null, \"mean\": ", fp);
		if (d->n > 0)
			jnum(fp, frac(d->sum, d->n));
		else
			fputs("null", fp);
		fputs(", \"max\": null, \"std\": null", fp);
		return;
	}
	if (d->n == 0) {
		fputs("\"min\": null, \"median\": null, \"mean\": null, "
		    "\"max\": null, \"std\": null", fp);
		return;
	}
	fprintf(fp, "\"min\": %llu, \"median\": ", (unsigned long long)d->min);
	jnum(fp, d->median);
	fputs(", \"mean\": ", fp);
	jnum(fp, d->mean);
	fprintf(fp, ", \"max\": %llu, \"std\": ", (unsigned long long)d->max);
	jnum(fp, d->std);
}

/* --fit: a mode's "fit", null when not asked or not known. */
static void
jfit(FILE *fp, const struct fe_stats *s, const struct ts_fit *f)
{
	fputs(", \"fit\": ", fp);
	if (!s->o.fit || !f->known) {
		fputs("null", fp);
		return;
	}
	fputs("{\"alpha\": ", fp);
	jnum(fp, f->alpha);
	fprintf(fp, ", \"xmin\": %llu, \"n\": %llu, \"ks\": ",
	    (unsigned long long)f->xmin, (unsigned long long)f->n);
	jnum(fp, f->ks);
	fputc('}', fp);
}

/* A distribution's cv and imbalance, and "all": over every member of
 * members, the empty ones too. */
static void
jspread(FILE *fp, const struct ts_dist *d, double members, const char *what)
{
	struct ts_spread sp;

	fe_stats_spread(d, members, &sp);
	if (!sp.known) {
		fputs(", \"cv\": null, \"imbalance\": null, \"all\": null",
		    fp);
		return;
	}
	fputs(", \"cv\": ", fp);
	jnum(fp, sp.cv);
	fputs(", \"imbalance\": ", fp);
	jnum(fp, sp.imbalance);
	fprintf(fp, ", \"all\": {\"%s\": ", what);
	jnum(fp, sp.members);
	fputs(", \"min\": ", fp);
	jnum(fp, sp.all_min);
	fputs(", \"mean\": ", fp);
	jnum(fp, sp.all_mean);
	fputs(", \"max\": ", fp);
	jnum(fp, (double)d->max);
	fputs(", \"std\": ", fp);
	jnum(fp, sp.all_std);
	fputs(", \"cv\": ", fp);
	jnum(fp, sp.all_cv);
	fputs(", \"imbalance\": ", fp);
	jnum(fp, sp.all_imbalance);
	fputc('}', fp);
}

static void
jmodes(struct json *j, const struct fe_stats *s)
{
	int k;

	key(j, "modes");
	fputc('[', j->fp);
	for (k = 0; k < s->order; k++) {
		const struct ts_mode_stats *m = &s->mode[k];

		fprintf(j->fp, "%s{\"mode\": %d, \"dimension\": %llu, "
		    "\"nonempty\": %llu, \"share\": ", k ? ", " : "", k + 1,
		    (unsigned long long)m->dim,
		    (unsigned long long)m->nonempty);
		jnum(j->fp, frac(m->nonempty, m->dim));
		fprintf(j->fp, ", \"estimated\": %s, ", m->estimated ? "true" :
		    "false");
		jdist(j->fp, &m->slices);
		if (m->used)
			fprintf(j->fp, ", \"used\": [%llu, %llu]",
			    (unsigned long long)m->lo,
			    (unsigned long long)m->hi);
		else
			fputs(", \"used\": null", j->fp);
		jfit(j->fp, s, &m->fit);
		fputc('}', j->fp);
	}
	fputc(']', j->fp);
	key(j, "fibers");
	if (!s->fibers) {
		fputs("null", j->fp);
		return;
	}
	fputc('[', j->fp);
	for (k = 0; k < s->order; k++) {
		const struct ts_mode_stats *m = &s->mode[k];

		fprintf(j->fp, "%s{\"mode\": %d, \"fibers\": %llu, ", k ? ", " :
		    "", k + 1, (unsigned long long)m->fibers.n);
		jdist(j->fp, &m->fibers);
		jspread(j->fp, &m->fibers, fe_stats_fibers_all(s, k), "fibers");
		if (s->order > 1) {
			fprintf(j->fp, ", \"per_slice\": {\"of_mode\": %d, "
			    "\"slices\": %llu, ", m->fps_mode + 1,
			    (unsigned long long)m->fps.n);
			jdist(j->fp, &m->fps);
			jspread(j->fp, &m->fps, (double)s->mode[m->fps_mode].dim,
			    "slices");
			fputc('}', j->fp);
		} else
			fputs(", \"per_slice\": null", j->fp);
		fputc('}', j->fp);
	}
	fputc(']', j->fp);
}

static void
jvalues(struct json *j, const struct fe_stats *s)
{
	const struct ts_value_stats *v = &s->values;

	key(j, "values");
	if (!v->present) {
		fputs("null", j->fp);
		return;
	}
	fprintf(j->fp, "{\"count\": %llu, \"min\": ", (unsigned long long)v->n);
	if (v->is_int && v->n > 0)
		fprintf(j->fp, "%lld, \"max\": %lld", (long long)v->imin,
		    (long long)v->imax);
	else if (v->n == 0 || v->n == v->nans)
		fputs("null, \"max\": null", j->fp);
	else {
		jnum(j->fp, v->min);
		fputs(", \"max\": ", j->fp);
		jnum(j->fp, v->max);
	}
	fputs(", \"mean\": ", j->fp);
	if (v->n == 0 || v->n == v->nans)
		fputs("null", j->fp);
	else
		jnum(j->fp, v->mean);
	fprintf(j->fp, ", \"zeros\": %llu, \"negatives\": %llu, \"nan\": %llu, "
	    "\"inf\": %llu, \"distinct\": %llu, \"distinct_exact\": %s}",
	    (unsigned long long)v->zeros, (unsigned long long)v->negatives,
	    (unsigned long long)v->nans, (unsigned long long)v->infs,
	    (unsigned long long)v->distinct, v->distinct_exact ? "true" :
	    "false");
}

void
fe_stats_json(FILE *fp, const struct fe_stats *s, const char *indent)
{
	struct json j = { fp, indent, true };
	int k;

	key(&j, "dimensions_inferred");
	fputs(s->dims_inferred ? "true" : "false", fp);
	key(&j, "index_base_inferred");
	fputs(s->base_inferred ? "true" : "false", fp);
	jvalues(&j, s);
	jmodes(&j, s);
	key(&j, "blocks");
	if (!s->block) {
		fputs("null", fp);
		return;
	}
	fprintf(fp, "{\"count\": %llu, \"grid\": [", (unsigned long long)s->nnz);
	for (k = 0; k < s->order; k++)
		fprintf(fp, "%s%llu", k ? ", " : "",
		    (unsigned long long)s->mode[k].dim);
	fprintf(fp, "], \"grid_positions\": \"%s\", \"fill\": %s, ",
	    s->blocks.grid_positions ? s->blocks.grid_positions : "",
	    s->blocks.fill ? s->blocks.fill : "null");
	if (s->blocks.elements_ovf)
		fputs("\"elements\": null, ", fp);
	else
		fprintf(fp, "\"elements\": %llu, ",
		    (unsigned long long)s->blocks.elements);
	fputs("\"size_", fp);
	{
		/* The blocks' sizes as a distribution: size_min, ... */
		const struct ts_dist *d = &s->blocks.sizes;

		if (d->n == 0)
			fputs("min\": null, \"size_median\": null, "
			    "\"size_mean\": null, \"size_max\": null", fp);
		else {
			fprintf(fp, "min\": %llu, \"size_median\": ",
			    (unsigned long long)d->min);
			jnum(fp, d->median);
			fputs(", \"size_mean\": ", fp);
			jnum(fp, d->mean);
			fprintf(fp, ", \"size_max\": %llu",
			    (unsigned long long)d->max);
		}
	}
	fputc('}', fp);
}

/* ---- the record of an index ---- */

void
fe_csv_field(FILE *fp, const char *s)
{
	char *c = ts_csv_cell(s);

	fputs(c, fp);
	free(c);
}

void
fe_record_init(struct fe_record *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < FE_NF; i++)
		r->bytes[i] = -1;
	r->total = -1;
}

void
fe_record_free(struct fe_record *r)
{
	char **w[] = { &r->group, &r->id, &r->time, &r->source_type,
	    &r->source_url, &r->value_type, &r->index_type,
	    &r->sparsity_type, &r->psym, &r->nsym, &r->duplicates };
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		free(*w[i]);
		*w[i] = NULL;
	}
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? ts_xstrdup(s) : NULL;
}

void
fe_record_meta(struct fe_record *r, const struct ts_meta *m)
{
	const unsigned shape = TS_HAVE_ORDER | TS_HAVE_DIMS | TS_HAVE_NNZ;
	int k;

	if (m == NULL)
		return;
	r->group = dup_or_null(m->group);
	r->id = dup_or_null(m->id);
	r->time = dup_or_null(m->time);
	r->source_type = dup_or_null(m->source_type);
	r->source_url = dup_or_null(m->source_url);
	if (m->have & TS_HAVE_VTYPE)
		r->value_type = dup_or_null(ts_vtype_name(m->value_type));
	if (m->have & TS_HAVE_ITYPE)
		r->index_type = dup_or_null(ts_itype_name(m->index_type));
	if (m->have & TS_HAVE_SPARSITY)
		r->sparsity_type = dup_or_null(ts_sparsity_name(m->sparsity));
	if (m->have & TS_HAVE_PSYM)
		r->psym = dup_or_null(ts_sym_name(m->psym));
	if (m->have & TS_HAVE_NSYM)
		r->nsym = dup_or_null(ts_sym_name(m->nsym));
	if (m->have & TS_HAVE_DUPS)
		r->duplicates = dup_or_null(ts_allowed_names[m->dups_allowed]);
	if ((m->have & shape) == shape && m->order > 0 &&
	    m->order <= TS_MAXORDER) {
		r->order = m->order;
		for (k = 0; k < m->order; k++)
			r->dims[k] = m->dims[k];
		r->nnz = m->nnz;
	}
}

struct files {
	struct fe_record *r;
	struct ts_bundle *bd;
	const char	*fname[FE_NF];
	bool		 digest;
};

static int
addfile(const char *fname, void *arg)
{
	struct files *f = arg;
	struct ts_file_stat fs;
	int i;

	/* What an archive holds: ts_archive_out_bundle leaves out the
	 * rest. */
	if (!ts_archive_packs(f->bd, fname) ||
	    ts_bundle_stat(f->bd, fname, &fs) != 0)
		return 0;
	f->r->total += fs.size;
	for (i = 0; i < FE_NF; i++)
		if (f->fname[i] != NULL && strcmp(fname, f->fname[i]) == 0) {
			f->r->bytes[i] = fs.size;
			if (f->digest && ts_bundle_digest(f->bd, fname,
			    f->r->sha256[i]) != 0)
				f->r->sha256[i][0] = '\0';
		}
	return 0;
}

void
fe_record_files(struct fe_record *r, struct ts_bundle *bd, bool digest)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	char *mf = ts_xasprintf("%s_metadata.json", ts_bundle_name(bd));
	struct files f;

	f.r = r;
	f.bd = bd;
	f.digest = digest;
	f.fname[FE_F_META] = mf;
	f.fname[FE_F_README] = m != NULL && m->f_readme != NULL ?
	    m->f_readme : "README.md";
	f.fname[FE_F_TEXT] = ts_bundle_data_file(bd, TS_KIND_TEXT);
	f.fname[FE_F_BINARY] = ts_bundle_data_file(bd, TS_KIND_BINARY);
	r->total = 0;
	if (ts_bundle_list(bd, addfile, &f) != 0)
		r->total = -1;
	free(mf);
}

/*
 * One record, in one of three forms: col() names a column (the header)
 * or begins its cell, and the put functions write a value as CSV or
 * JSON spell it.  Every column is named once, below, in the one
 * function that writes them: the header, a row and a JSON object cannot
 * disagree.
 */
struct out {
	FILE		*fp;
	enum fe_form	 form;
	bool		 first;
};

static bool
col(struct out *o, const char *name)
{
	if (o->form == FE_JSON)
		fprintf(o->fp, "%s\"%s\": ", o->first ? "" : ", ", name);
	else if (!o->first || o->form == FE_HEAD)
		fprintf(o->fp, "%s%s", o->first ? "" : ",",
		    o->form == FE_HEAD ? name : "");
	o->first = false;
	return o->form != FE_HEAD;
}

static void
put_null(struct out *o)
{
	if (o->form == FE_JSON)
		fputs("null", o->fp);
}

static void
put_str(struct out *o, const char *s)
{
	if (s == NULL)
		put_null(o);
	else if (o->form == FE_JSON)
		ts_fput_json(o->fp, s);
	else
		fe_csv_field(o->fp, s);
}

static void
put_u64(struct out *o, uint64_t v)
{
	fprintf(o->fp, "%llu", (unsigned long long)v);
}

static void
put_i64(struct out *o, int64_t v)
{
	if (v < 0)
		put_null(o);
	else
		fprintf(o->fp, "%lld", (long long)v);
}

static void
put_bool(struct out *o, bool b)
{
	fputs(b ? "true" : "false", o->fp);
}

static void
put_num(struct out *o, double v)
{
	char nb[TS_NUMBUF];

	if (o->form == FE_JSON)
		jnum(o->fp, v);
	else
		fputs(fe_num(nb, v), o->fp);
}

/* A number as the statistics spell it exactly ("0.25"), or null. */
static void
put_raw(struct out *o, const char *s)
{
	if (s == NULL)
		put_null(o);
	else
		fputs(s, o->fp);
}

/* A list: [a, b] in JSON, a<sep>b in CSV. */
static void
put_open(struct out *o)
{
	if (o->form == FE_JSON)
		fputc('[', o->fp);
}

static void
put_sep(struct out *o, int k, char sep)
{
	if (k > 0 && o->form == FE_JSON)
		fputs(", ", o->fp);
	else if (k > 0)
		fputc(sep, o->fp);
}

static void
put_close(struct out *o)
{
	if (o->form == FE_JSON)
		fputc(']', o->fp);
}

static void
put_dims(struct out *o, int order, const uint64_t *dims)
{
	int k;

	put_open(o);
	for (k = 0; k < order; k++) {
		put_sep(o, k, 'x');
		put_u64(o, dims[k]);
	}
	put_close(o);
}

/* Field f of each mode's distribution of slices (or fibers), one a
 * mode; null (or an empty cell) for all when fibers were not
 * counted. */
enum dfield { D_N, D_MIN, D_MEDIAN, D_MEAN, D_MAX, D_STD };

static void
put_dist(struct out *o, const struct fe_stats *s, bool fibers, enum dfield f)
{
	int k;

	if (fibers && !s->fibers) {
		put_null(o);
		return;
	}
	put_open(o);
	for (k = 0; k < s->order; k++) {
		const struct ts_dist *d = fibers ? &s->mode[k].fibers :
		    &s->mode[k].slices;

		put_sep(o, k, ';');
		if (f == D_N)
			put_u64(o, d->n);
		else if (f == D_MEAN && d->n > 0)
			put_num(o, frac(d->sum, d->n));
		else if (!d->known || d->n == 0)
			put_null(o);
		else if (f == D_MIN)
			put_u64(o, d->min);
		else if (f == D_MAX)
			put_u64(o, d->max);
		else if (f == D_MEDIAN)
			put_num(o, d->median);
		else
			put_num(o, d->std);
	}
	put_close(o);
}

/* The lowest (hi false) or highest index used of each mode. */
static void
put_used(struct out *o, const struct fe_stats *s, bool hi)
{
	int k;

	put_open(o);
	for (k = 0; k < s->order; k++) {
		put_sep(o, k, ';');
		if (s->mode[k].used)
			put_u64(o, hi ? s->mode[k].hi : s->mode[k].lo);
		else
			put_null(o);
	}
	put_close(o);
}

static void
put_rules(struct out *o, const char *rules)
{
	char buf[sizeof(((struct fe_verdict *)0)->rules)], *w, *save = NULL;
	int k = 0;

	if (o->form != FE_JSON) {
		fe_csv_field(o->fp, rules);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", rules);
	put_open(o);
	for (w = strtok_r(buf, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		fprintf(o->fp, "%s\"%s\"", k++ ? ", " : "", w);
	put_close(o);
}

/* Every column is named here, once; r is NULL for the header. */
void
fe_record_write(FILE *fp, const struct fe_record *r, enum fe_form form)
{
	static const char *const fname[FE_NF] = { "metadata", "readme",
	    "text", "binary" };
	struct out o = { fp, form, true };
	const struct fe_stats *s = r != NULL && r->s != NULL &&
	    r->s->complete ? r->s : NULL;
	const struct ts_value_stats *vs = s != NULL && s->values.present ?
	    &s->values : NULL;
	const bool some = vs != NULL && vs->n > vs->nans;
	int64_t known = 0;
	char *dens = NULL, name[32];
	int i, k;

	/* Where, and what its metadata calls it. */
	if (col(&o, "name"))
		put_str(&o, r->name);
	if (col(&o, "group"))
		put_str(&o, r->group);
	if (col(&o, "id"))
		put_str(&o, r->id);
	if (col(&o, "path"))
		put_str(&o, r->path);
	if (col(&o, "archive"))
		put_str(&o, r->archive);
	if (col(&o, "valid"))
		put_bool(&o, r->v->valid);
	if (col(&o, "broken_rules"))
		put_rules(&o, r->v->rules);
	/* Its shape: of the entries read, else of the metadata. */
	if (col(&o, "order")) {
		if (s != NULL || r->order > 0)
			fprintf(fp, "%d", s != NULL ? s->order : r->order);
		else
			put_null(&o);
	}
	if (col(&o, "dimensions")) {
		if (s != NULL || r->order > 0)
			put_dims(&o, s != NULL ? s->order : r->order,
			    s != NULL ? s->dims : r->dims);
		else
			put_null(&o);
	}
	if (col(&o, "nnz")) {
		if (s != NULL || r->order > 0)
			put_u64(&o, s != NULL ? s->elements : r->nnz);
		else
			put_null(&o);
	}
	if (col(&o, "density")) {
		if (s != NULL)
			put_raw(&o, s->density);
		else if (r->order > 0) {
			dens = fe_stats_ratio(r->nnz, r->dims, r->order);
			put_raw(&o, dens);
			free(dens);
		} else
			put_null(&o);
	}
	/* Its types and properties, as its metadata declares them (the
	 * checks hold the entries to them: a valid bundle has them). */
	if (col(&o, "value_type"))
		put_str(&o, r->value_type);
	if (col(&o, "index_type"))
		put_str(&o, r->index_type);
	if (col(&o, "index_base")) {
		if (s != NULL)
			fprintf(fp, "%d", s->base);
		else
			put_null(&o);
	}
	if (col(&o, "sparsity_type"))
		put_str(&o, r->sparsity_type != NULL ? r->sparsity_type :
		    s != NULL ? (s->block ? "block" : "element") : NULL);
	if (col(&o, "pattern_symmetry"))
		put_str(&o, r->psym);
	if (col(&o, "numerical_symmetry"))
		put_str(&o, r->nsym);
	if (col(&o, "duplicates"))
		put_str(&o, r->duplicates);
	/* Its provenance. */
	if (col(&o, "source_type"))
		put_str(&o, r->source_type);
	if (col(&o, "source_url"))
		put_str(&o, r->source_url);
	if (col(&o, "time"))
		put_str(&o, r->time);
	/* Its files. */
	for (i = 0; i < FE_NF; i++) {
		snprintf(name, sizeof(name), "%s_bytes", fname[i]);
		if (col(&o, name)) {
			put_i64(&o, r->bytes[i]);
			if (r->bytes[i] > 0)
				known += r->bytes[i];
		}
	}
	if (col(&o, "other_bytes"))
		put_i64(&o, r->total >= 0 ? r->total - known : -1);
	if (col(&o, "bytes"))
		put_i64(&o, r->total);
	for (i = 0; i < FE_NF; i++) {
		snprintf(name, sizeof(name), "%s_sha256", fname[i]);
		if (col(&o, name))
			put_str(&o, r->sha256[i][0] != '\0' ? r->sha256[i] :
			    NULL);
	}
	/* Its entries. */
	if (col(&o, "positions"))
		put_str(&o, s != NULL ? s->positions : NULL);
	if (col(&o, "out_of_range")) {
		if (s != NULL)
			put_u64(&o, s->out_of_range);
		else
			put_null(&o);
	}
	if (col(&o, "sorted")) {
		if (s == NULL || s->sorted < 0)
			put_null(&o);
		else if (s->sorted == 0)
			fputs(form == FE_JSON ? "false" : "none", fp);
		else {
			put_open(&o);
			for (k = 0; k < s->order; k++) {
				put_sep(&o, k, ';');
				fprintf(fp, "%d", s->sort[k] + 1);
			}
			put_close(&o);
		}
	}
	if (col(&o, "repeats")) {
		if (s != NULL && s->repeats_known)
			put_u64(&o, s->repeats);
		else
			put_null(&o);
	}
	/* Its values. */
	if (col(&o, "value_count")) {
		if (vs != NULL)
			put_u64(&o, vs->n);
		else
			put_null(&o);
	}
	for (i = 0; i < 2; i++)
		if (col(&o, i ? "value_max" : "value_min")) {
			if (vs != NULL && vs->is_int && vs->n > 0)
				fprintf(fp, "%lld", (long long)(i ? vs->imax :
				    vs->imin));
			else if (some)
				put_num(&o, i ? vs->max : vs->min);
			else
				put_null(&o);
		}
	if (col(&o, "value_mean")) {
		if (some)
			put_num(&o, vs->mean);
		else
			put_null(&o);
	}
	{
		static const char *const cn[] = { "value_zeros",
		    "value_negatives", "value_nan", "value_inf",
		    "value_distinct" };

		for (i = 0; i < 5; i++)
			if (col(&o, cn[i])) {
				if (vs == NULL)
					put_null(&o);
				else
					put_u64(&o, i == 0 ? vs->zeros :
					    i == 1 ? vs->negatives : i == 2 ?
					    vs->nans : i == 3 ? vs->infs :
					    vs->distinct);
			}
	}
	if (col(&o, "value_distinct_exact")) {
		if (vs != NULL)
			put_bool(&o, vs->distinct_exact);
		else
			put_null(&o);
	}
	/* Its modes, one value a mode. */
	if (col(&o, "mode_nonempty")) {
		if (s == NULL)
			put_null(&o);
		else {
			put_open(&o);
			for (k = 0; k < s->order; k++) {
				put_sep(&o, k, ';');
				put_u64(&o, s->mode[k].nonempty);
			}
			put_close(&o);
		}
	}
	if (col(&o, "mode_share")) {
		if (s == NULL)
			put_null(&o);
		else {
			put_open(&o);
			for (k = 0; k < s->order; k++) {
				put_sep(&o, k, ';');
				put_num(&o, frac(s->mode[k].nonempty,
				    s->mode[k].dim));
			}
			put_close(&o);
		}
	}
	if (col(&o, "mode_estimated")) {
		if (s == NULL)
			put_null(&o);
		else {
			put_open(&o);
			for (k = 0; k < s->order; k++) {
				put_sep(&o, k, ';');
				put_bool(&o, s->mode[k].estimated);
			}
			put_close(&o);
		}
	}
	{
		static const char *const mn[] = { "mode_nnz_min",
		    "mode_nnz_median", "mode_nnz_mean", "mode_nnz_max",
		    "mode_nnz_std" };
		static const char *const fn[] = { "fiber_count",
		    "fiber_nnz_min", "fiber_nnz_median", "fiber_nnz_mean",
		    "fiber_nnz_max", "fiber_nnz_std" };

		for (i = 0; i < 5; i++)
			if (col(&o, mn[i])) {
				if (s == NULL)
					put_null(&o);
				else
					put_dist(&o, s, false,
					    (enum dfield)(i + 1));
			}
		for (i = 0; i < 2; i++)
			if (col(&o, i ? "mode_used_max" : "mode_used_min")) {
				if (s == NULL)
					put_null(&o);
				else
					put_used(&o, s, i == 1);
			}
		for (i = 0; i < 6; i++)
			if (col(&o, fn[i])) {
				if (s == NULL)
					put_null(&o);
				else
					put_dist(&o, s, true, (enum dfield)i);
			}
	}
	/* Its blocks. */
	s = s != NULL && s->block ? s : NULL;
	if (col(&o, "block_count")) {
		if (s != NULL)
			put_u64(&o, s->nnz);
		else
			put_null(&o);
	}
	if (col(&o, "block_grid")) {
		uint64_t grid[TS_MAXORDER];

		for (k = 0; s != NULL && k < s->order; k++)
			grid[k] = s->mode[k].dim;
		if (s != NULL)
			put_dims(&o, s->order, grid);
		else
			put_null(&o);
	}
	if (col(&o, "block_fill"))
		put_raw(&o, s != NULL ? s->blocks.fill : NULL);
	if (col(&o, "block_elements")) {
		if (s != NULL && !s->blocks.elements_ovf)
			put_u64(&o, s->blocks.elements);
		else
			put_null(&o);
	}
	if (col(&o, "block_size_min")) {
		if (s != NULL && s->blocks.sizes.n > 0)
			put_u64(&o, s->blocks.sizes.min);
		else
			put_null(&o);
	}
	if (col(&o, "block_size_max")) {
		if (s != NULL && s->blocks.sizes.n > 0)
			put_u64(&o, s->blocks.sizes.max);
		else
			put_null(&o);
	}
	if (col(&o, "block_size_mean")) {
		if (s != NULL && s->blocks.sizes.n > 0)
			put_num(&o, s->blocks.sizes.mean);
		else
			put_null(&o);
	}
}
