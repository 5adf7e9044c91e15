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
#include "util/escape.h"

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
fe_stats_json(FILE *fp, const struct fe_stats *s, const struct fe_verdict *v,
    const char *indent)
{
	struct json j = { fp, indent, true };
	int k;

	key(&j, "valid");
	fputs(v->valid ? "true" : "false", fp);
	key(&j, "broken_rules");
	fputc('[', fp);
	{
		char buf[sizeof(v->rules)], *w, *save = NULL;
		bool first = true;

		snprintf(buf, sizeof(buf), "%s", v->rules);
		for (w = strtok_r(buf, " ", &save); w != NULL;
		    w = strtok_r(NULL, " ", &save)) {
			fprintf(fp, "%s\"%s\"", first ? "" : ", ", w);
			first = false;
		}
	}
	fputc(']', fp);
	key(&j, "sparsity");
	fprintf(fp, "\"%s\"", s->block ? "block" : "element");
	key(&j, "order");
	fprintf(fp, "%d", s->order);
	key(&j, "dimensions");
	fputc('[', fp);
	for (k = 0; k < s->order; k++)
		fprintf(fp, "%s%llu", k ? ", " : "",
		    (unsigned long long)s->dims[k]);
	fputc(']', fp);
	key(&j, "dimensions_inferred");
	fputs(s->dims_inferred ? "true" : "false", fp);
	key(&j, "index_base");
	fprintf(fp, "%d", s->base);
	key(&j, "index_base_inferred");
	fputs(s->base_inferred ? "true" : "false", fp);
	key(&j, "nnz");
	fprintf(fp, "%llu", (unsigned long long)s->elements);
	key(&j, "positions");
	fprintf(fp, "\"%s\"", s->positions ? s->positions : "");
	key(&j, "density");
	fputs(s->density ? s->density : "null", fp);
	key(&j, "out_of_range");
	fprintf(fp, "%llu", (unsigned long long)s->out_of_range);
	key(&j, "sorted");
	if (s->sorted < 0)
		fputs("null", fp);
	else if (s->sorted == 0)
		fputs("false", fp);
	else {
		fputc('[', fp);
		for (k = 0; k < s->order; k++)
			fprintf(fp, "%s%d", k ? ", " : "", s->sort[k] + 1);
		fputc(']', fp);
	}
	key(&j, "repeats");
	if (s->repeats_known)
		fprintf(fp, "%llu", (unsigned long long)s->repeats);
	else
		fputs("null", fp);
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

/* ---- CSV ---- */

static const char *const columns[] = {
	"valid", "broken_rules", "sparsity", "order", "dimensions",
	"index_base", "nnz", "positions", "density", "out_of_range",
	"sorted", "repeats",
	"value_count", "value_min", "value_max", "value_mean", "value_zeros",
	"value_negatives", "value_nan", "value_inf", "value_distinct",
	"value_distinct_exact",
	"mode_nonempty", "mode_share", "mode_estimated", "mode_nnz_min",
	"mode_nnz_median", "mode_nnz_mean", "mode_nnz_max", "mode_nnz_std",
	"mode_used_min", "mode_used_max",
	"fiber_count", "fiber_nnz_min", "fiber_nnz_median", "fiber_nnz_mean",
	"fiber_nnz_max", "fiber_nnz_std",
	"block_count", "block_grid", "block_fill", "block_elements",
	"block_size_min", "block_size_max", "block_size_mean",
	NULL
};

void
fe_csv_field(FILE *fp, const char *s)
{
	char *c = ts_csv_cell(s);

	fputs(c, fp);
	free(c);
}

/* The columns of the shape, which an index has of its own. */
static bool
shape_column(const char *c)
{
	return strcmp(c, "order") == 0 || strcmp(c, "dimensions") == 0 ||
	    strcmp(c, "nnz") == 0 || strcmp(c, "density") == 0;
}

void
fe_stats_csv_head(FILE *fp, bool shape)
{
	int i;

	for (i = 0; columns[i] != NULL; i++)
		if (shape || !shape_column(columns[i]))
			fprintf(fp, ",%s", columns[i]);
}

void
fe_stats_csv_empty(FILE *fp, const struct fe_verdict *v, bool shape)
{
	int i;

	fputs(",false,", fp);
	fe_csv_field(fp, v->rules);
	for (i = 2; columns[i] != NULL; i++)
		if (shape || !shape_column(columns[i]))
			fputc(',', fp);
}

static void
cnum(FILE *fp, double v)
{
	char nb[TS_NUMBUF];

	fputs(fe_num(nb, v), fp);
}

/* Field f of each mode's distribution, ';' between modes. */
enum dfield { D_N, D_MIN, D_MEDIAN, D_MEAN, D_MAX, D_STD };

static void
cdist(FILE *fp, const struct fe_stats *s, bool fibers, enum dfield f)
{
	int k;

	fputc(',', fp);
	if (fibers && !s->fibers)
		return;
	for (k = 0; k < s->order; k++) {
		const struct ts_dist *d = fibers ? &s->mode[k].fibers :
		    &s->mode[k].slices;

		if (k > 0)
			fputc(';', fp);
		if (f == D_N)
			fprintf(fp, "%llu", (unsigned long long)d->n);
		else if (f == D_MEAN && d->n > 0)
			cnum(fp, frac(d->sum, d->n));
		else if (!d->known || d->n == 0)
			continue;
		else if (f == D_MIN)
			fprintf(fp, "%llu", (unsigned long long)d->min);
		else if (f == D_MAX)
			fprintf(fp, "%llu", (unsigned long long)d->max);
		else if (f == D_MEDIAN)
			cnum(fp, d->median);
		else if (f == D_STD)
			cnum(fp, d->std);
	}
}

void
fe_stats_csv_row(FILE *fp, const struct fe_stats *s,
    const struct fe_verdict *v, bool shape)
{
	const struct ts_value_stats *vs = &s->values;
	bool some = vs->present && vs->n > vs->nans;
	int k;

	fprintf(fp, ",%s,", v->valid ? "true" : "false");
	fe_csv_field(fp, v->rules);
	fprintf(fp, ",%s", s->block ? "block" : "element");
	if (shape) {
		fprintf(fp, ",%d,", s->order);
		for (k = 0; k < s->order; k++)
			fprintf(fp, "%s%llu", k ? "x" : "",
			    (unsigned long long)s->dims[k]);
	}
	fprintf(fp, ",%d", s->base);
	if (shape)
		fprintf(fp, ",%llu", (unsigned long long)s->elements);
	fprintf(fp, ",%s", s->positions ? s->positions : "");
	if (shape)
		fprintf(fp, ",%s", s->density ? s->density : "");
	fprintf(fp, ",%llu,", (unsigned long long)s->out_of_range);
	if (s->sorted == 0)
		fputs("none", fp);
	for (k = 0; s->sorted == 1 && k < s->order; k++)
		fprintf(fp, "%s%d", k ? ";" : "", s->sort[k] + 1);
	fputc(',', fp);
	if (s->repeats_known)
		fprintf(fp, "%llu", (unsigned long long)s->repeats);
	if (!vs->present)
		fputs(",,,,,,,,,,", fp);
	else {
		fprintf(fp, ",%llu,", (unsigned long long)vs->n);
		if (vs->is_int && vs->n > 0)
			fprintf(fp, "%lld,%lld,", (long long)vs->imin,
			    (long long)vs->imax);
		else if (some) {
			cnum(fp, vs->min);
			fputc(',', fp);
			cnum(fp, vs->max);
			fputc(',', fp);
		} else
			fputs(",,", fp);
		if (some)
			cnum(fp, vs->mean);
		fprintf(fp, ",%llu,%llu,%llu,%llu,%llu,%s",
		    (unsigned long long)vs->zeros,
		    (unsigned long long)vs->negatives,
		    (unsigned long long)vs->nans, (unsigned long long)vs->infs,
		    (unsigned long long)vs->distinct, vs->distinct_exact ?
		    "true" : "false");
	}
	fputc(',', fp);
	for (k = 0; k < s->order; k++)
		fprintf(fp, "%s%llu", k ? ";" : "",
		    (unsigned long long)s->mode[k].nonempty);
	fputc(',', fp);
	for (k = 0; k < s->order; k++) {
		if (k > 0)
			fputc(';', fp);
		cnum(fp, frac(s->mode[k].nonempty, s->mode[k].dim));
	}
	fputc(',', fp);
	for (k = 0; k < s->order; k++)
		fprintf(fp, "%s%s", k ? ";" : "", s->mode[k].estimated ?
		    "true" : "false");
	cdist(fp, s, false, D_MIN);
	cdist(fp, s, false, D_MEDIAN);
	cdist(fp, s, false, D_MEAN);
	cdist(fp, s, false, D_MAX);
	cdist(fp, s, false, D_STD);
	fputc(',', fp);
	for (k = 0; k < s->order; k++)
		if (s->mode[k].used)
			fprintf(fp, "%s%llu", k ? ";" : "",
			    (unsigned long long)s->mode[k].lo);
		else if (k > 0)
			fputc(';', fp);
	fputc(',', fp);
	for (k = 0; k < s->order; k++)
		if (s->mode[k].used)
			fprintf(fp, "%s%llu", k ? ";" : "",
			    (unsigned long long)s->mode[k].hi);
		else if (k > 0)
			fputc(';', fp);
	cdist(fp, s, true, D_N);
	cdist(fp, s, true, D_MIN);
	cdist(fp, s, true, D_MEDIAN);
	cdist(fp, s, true, D_MEAN);
	cdist(fp, s, true, D_MAX);
	cdist(fp, s, true, D_STD);
	if (!s->block) {
		fputs(",,,,,,,", fp);
		return;
	}
	fprintf(fp, ",%llu,", (unsigned long long)s->nnz);
	for (k = 0; k < s->order; k++)
		fprintf(fp, "%s%llu", k ? "x" : "",
		    (unsigned long long)s->mode[k].dim);
	fprintf(fp, ",%s,", s->blocks.fill ? s->blocks.fill : "");
	if (!s->blocks.elements_ovf)
		fprintf(fp, "%llu", (unsigned long long)s->blocks.elements);
	if (s->blocks.sizes.n > 0) {
		fprintf(fp, ",%llu,%llu,", (unsigned long long)
		    s->blocks.sizes.min, (unsigned long long)
		    s->blocks.sizes.max);
		cnum(fp, s->blocks.sizes.mean);
	} else
		fputs(",,,", fp);
}
