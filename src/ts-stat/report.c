/*
 * report.c - what ts-stat prints of each tensor: for people, a table
 * (and the checks' diagnostics on standard error, as ts-validate prints
 * them, with a warning when the tensor breaks a rule); one JSON object a
 * line; or one CSV row a tensor after a header line, the columns of
 * ts-pack --index.  The same table, in Markdown, is the Statistics
 * section readme.c writes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"
#include "util/escape.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define COLS	16
#define ROWS	(TS_MAXORDER + 1)

/* A table of cells, printed with its columns aligned. */
struct table {
	char	*c[ROWS][COLS];
	int	 nr, nc;
};

static void
cell(struct table *t, int r, int c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
cell(struct table *t, int r, int c, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* Whole, however long a name in it. */
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	t->c[r][c] = ts_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(t->c[r][c], (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (r >= t->nr)
		t->nr = r + 1;
	if (c >= t->nc)
		t->nc = c + 1;
}

static void
table_print(FILE *fp, struct table *t, bool md, bool left, const char *lead)
{
	size_t w[COLS] = { 0 }, n;
	int r, c;

	for (r = 0; r < t->nr; r++)
		for (c = 0; c < t->nc; c++)
			if (t->c[r][c] != NULL && (n = strlen(t->c[r][c])) >
			    w[c])
				w[c] = n;
	for (r = 0; r < t->nr; r++) {
		fputs(lead, fp);
		for (c = 0; c < t->nc; c++) {
			const char *s = t->c[r][c] ? t->c[r][c] : "";

			if (md)
				fprintf(fp, "| %s ", s);
			else if (left)
				fprintf(fp, "%s%-*s", c ? "  " : "", c + 1 ==
				    t->nc ? 0 : (int)w[c], s);
			else
				fprintf(fp, "%s%*s", c ? "  " : "", (int)w[c],
				    s);
		}
		fputs(md ? "|\n" : "\n", fp);
		if (md && r == 0) {
			for (c = 0; c < t->nc; c++)
				fputs(left ? (c ? "---|" : "|---|") :
				    (c ? "---:|" : "|---:|"), fp);
			fputc('\n', fp);
		}
	}
	for (r = 0; r < t->nr; r++)
		for (c = 0; c < t->nc; c++)
			free(t->c[r][c]);
	memset(t, 0, sizeof(*t));
}

static const char *
num(char *buf, double v)
{
	return fe_num(buf, v);
}

/* A distribution's min, median, mean, max, std into row r from col c. */
static void
dist_cells(struct table *t, int r, int c, const struct ts_dist *d)
{
	char nb[TS_NUMBUF];

	if (d->n == 0)
		return;
	if (!d->known) {
		cell(t, r, c + 2, "~%s", num(nb, fe_stats_ratio_double(d->sum,
		    &d->n, 1)));
		return;
	}
	cell(t, r, c, "%llu", (unsigned long long)d->min);
	cell(t, r, c + 1, "%s", num(nb, d->median));
	cell(t, r, c + 2, "%.6g", d->mean);
	cell(t, r, c + 3, "%llu", (unsigned long long)d->max);
	cell(t, r, c + 4, "%.6g", d->std);
}

/* The spread of d over members in all: its cv and imbalance, then over
 * every member (the empty ones count 0) their number, mean, std, cv
 * and imbalance, from column c on. */
static void
spread_cells(struct table *t, int r, int c, const struct ts_dist *d,
    double members)
{
	struct ts_spread sp;

	fe_stats_spread(d, members, &sp);
	if (!sp.known)
		return;
	cell(t, r, c, "%.4g", sp.cv);
	cell(t, r, c + 1, "%.4g", sp.imbalance);
	cell(t, r, c + 2, "%.6g", sp.members);
	cell(t, r, c + 3, "%.6g", sp.all_mean);
	cell(t, r, c + 4, "%.6g", sp.all_std);
	cell(t, r, c + 5, "%.4g", sp.all_cv);
	cell(t, r, c + 6, "%.4g", sp.all_imbalance);
}

static void
spread_head(struct table *t, int c, const char *what)
{
	cell(t, 0, c, "cv");
	cell(t, 0, c + 1, "imbalance");
	cell(t, 0, c + 2, "all %s", what);
	cell(t, 0, c + 3, "mean");
	cell(t, 0, c + 4, "std");
	cell(t, 0, c + 5, "cv");
	cell(t, 0, c + 6, "imbalance");
}

/* --fit: each mode's slices' power law. */
static void
fit_table(FILE *fp, struct table *t, const struct fe_stats *s, bool md,
    const char *lead)
{
	int k, c;

	fputc('\n', fp);
	cell(t, 0, 0, "power law of");
	cell(t, 0, 1, "alpha");
	cell(t, 0, 2, "x_min");
	cell(t, 0, 3, "slices in tail");
	cell(t, 0, 4, "KS distance");
	for (k = 0; k < s->order; k++) {
		const struct ts_fit *f = &s->mode[k].fit;

		cell(t, k + 1, 0, "mode %d slices", k + 1);
		if (!f->known) {
			for (c = 1; c <= 4; c++)
				cell(t, k + 1, c, "-");
			continue;
		}
		cell(t, k + 1, 1, "%.4f", f->alpha);
		cell(t, k + 1, 2, "%llu", (unsigned long long)f->xmin);
		cell(t, k + 1, 3, "%llu", (unsigned long long)f->n);
		cell(t, k + 1, 4, "%.4f", f->ks);
	}
	table_print(fp, t, md, false, lead);
}

/* --fibers: the fibers of each mode per slice of another. */
static void
fps_table(FILE *fp, struct table *t, const struct fe_stats *s, bool md,
    const char *lead)
{
	int k;

	fputc('\n', fp);
	cell(t, 0, 0, "fibers of");
	cell(t, 0, 1, "per slice of");
	cell(t, 0, 2, "slices");
	cell(t, 0, 3, "min fibers");
	cell(t, 0, 4, "median");
	cell(t, 0, 5, "mean");
	cell(t, 0, 6, "max");
	cell(t, 0, 7, "std");
	spread_head(t, 8, "slices");
	for (k = 0; k < s->order; k++) {
		const struct ts_mode_stats *m = &s->mode[k];

		cell(t, k + 1, 0, "mode %d", k + 1);
		cell(t, k + 1, 1, "mode %d", m->fps_mode + 1);
		cell(t, k + 1, 2, "%llu", (unsigned long long)m->fps.n);
		dist_cells(t, k + 1, 3, &m->fps);
		spread_cells(t, k + 1, 8, &m->fps,
		    (double)s->mode[m->fps_mode].dim);
	}
	table_print(fp, t, md, false, lead);
}

static void
dims_str(char *buf, size_t n, const uint64_t *d, int order, const char *x)
{
	size_t at = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < order && at < n; k++)
		at += (size_t)snprintf(buf + at, n - at, "%s%llu", k ? x : "",
		    (unsigned long long)d[k]);
}

void
report_table(FILE *fp, const struct tensor *tn, bool md)
{
	const struct fe_stats *s = &tn->s;
	const struct ts_value_stats *v = &s->values;
	const char *lead = md ? "" : "  ";
	char db[4096], nb[TS_NUMBUF], nb2[TS_NUMBUF];
	uint64_t parts[TS_MAXORDER];
	struct table t;
	char *q;
	int k, r = 0, i;

	memset(&t, 0, sizeof(t));
	if (md) {
		cell(&t, r, 0, "what");
		cell(&t, r++, 1, "value");
	}
	dims_str(db, sizeof(db), s->dims, s->order, " x ");
	cell(&t, r, 0, "tensor");
	cell(&t, r++, 1, "%s, order %d", s->block ? "block-sparse" :
	    "element-wise", s->order);
	cell(&t, r, 0, "dimensions");
	cell(&t, r++, 1, "%s%s, index base %d%s", db, s->dims_inferred ?
	    " (from the coordinates)" : "", s->base, s->base_inferred ?
	    " (inferred)" : "");
	cell(&t, r, 0, "nnz");
	cell(&t, r++, 1, "%llu of %s positions: density %s",
	    (unsigned long long)s->elements, s->positions, s->density);
	if (s->block) {
		for (k = 0; k < s->order; k++)
			parts[k] = s->mode[k].dim;
		dims_str(db, sizeof(db), parts, s->order, " x ");
		cell(&t, r, 0, "blocks");
		cell(&t, r++, 1, "%llu non-zero of %s in a %s grid: fill %s",
		    (unsigned long long)s->nnz, s->blocks.grid_positions, db,
		    s->blocks.fill);
		if (s->blocks.sizes.n > 0) {
			cell(&t, r, 0, "block sizes");
			cell(&t, r++, 1, "%llu to %llu elements, mean %s",
			    (unsigned long long)s->blocks.sizes.min,
			    (unsigned long long)s->blocks.sizes.max,
			    num(nb, s->blocks.sizes.mean));
		}
	}
	if (s->out_of_range > 0) {
		cell(&t, r, 0, "out of range");
		cell(&t, r++, 1, "%llu entries, left out of the counts",
		    (unsigned long long)s->out_of_range);
	}
	cell(&t, r, 0, "sorted");
	if (s->sorted == 1) {
		size_t at = 0;

		for (k = 0; k < s->order && at < sizeof(db); k++)
			at += (size_t)snprintf(db + at, sizeof(db) - at,
			    "%s%d", k ? "," : "", s->sort[k] + 1);
		cell(&t, r++, 1, "in mode order %s", db);
	} else
		cell(&t, r++, 1, "%s", s->sorted == 0 ? "in no mode order" :
		    "not found out");
	cell(&t, r, 0, "repeats");
	if (s->repeats_known)
		cell(&t, r++, 1, "%llu", (unsigned long long)s->repeats);
	else
		cell(&t, r++, 1, "not counted (--exact counts them)");
	if (v->present) {
		cell(&t, r, 0, "values");
		if (v->n == v->nans)
			cell(&t, r++, 1, "%llu, all NaN",
			    (unsigned long long)v->n);
		else if (v->is_int)
			cell(&t, r++, 1, "%llu integers: min %lld, max %lld, "
			    "mean %s", (unsigned long long)v->n,
			    (long long)v->imin, (long long)v->imax,
			    num(nb, v->mean));
		else {
			char nb3[TS_NUMBUF];

			cell(&t, r++, 1, "%llu: min %s, max %s, mean %s",
			    (unsigned long long)v->n, num(nb, v->min),
			    num(nb2, v->max), num(nb3, v->mean));
		}
		cell(&t, r, 0, "%s", "");
		cell(&t, r++, 1, "%llu zero, %llu negative, %llu NaN, %llu "
		    "infinite; %s%llu distinct", (unsigned long long)v->zeros,
		    (unsigned long long)v->negatives,
		    (unsigned long long)v->nans, (unsigned long long)v->infs,
		    v->distinct_exact ? "" : "about ",
		    (unsigned long long)v->distinct);
	}
	for (i = 0; i < NFILES; i++) {
		/* The README's own size would change as it is written. */
		if (tn->fname[i] == NULL || (md && i == F_README))
			continue;
		/* As ts-validate names files: no byte a terminal acts on. */
		q = ts_quote(tn->fname[i], false);
		cell(&t, r, 0, "file");
		cell(&t, r++, 1, "%s, %lld bytes", q, (long long)tn->bytes[i]);
		free(q);
	}
	table_print(fp, &t, md, true, lead);
	fputc('\n', fp);

	cell(&t, 0, 0, "mode");
	cell(&t, 0, 1, "%s", s->block ? "sections" : "dimension");
	cell(&t, 0, 2, "non-empty");
	cell(&t, 0, 3, "share");
	cell(&t, 0, 4, "%s", s->block ? "min blocks" : "min nnz");
	cell(&t, 0, 5, "median");
	cell(&t, 0, 6, "mean");
	cell(&t, 0, 7, "max");
	cell(&t, 0, 8, "std");
	cell(&t, 0, 9, "used");
	for (k = 0; k < s->order; k++) {
		const struct ts_mode_stats *m = &s->mode[k];

		cell(&t, k + 1, 0, "%d", k + 1);
		cell(&t, k + 1, 1, "%llu", (unsigned long long)m->dim);
		cell(&t, k + 1, 2, "%s%llu", m->estimated ? "~" : "",
		    (unsigned long long)m->nonempty);
		cell(&t, k + 1, 3, "%.4g%%", m->dim ? 100.0 *
		    (double)m->nonempty / (double)m->dim : 0);
		dist_cells(&t, k + 1, 4, &m->slices);
		if (m->used)
			cell(&t, k + 1, 9, "%llu..%llu",
			    (unsigned long long)m->lo,
			    (unsigned long long)m->hi);
	}
	table_print(fp, &t, md, false, lead);
	if (s->o.fit)
		fit_table(fp, &t, s, md, lead);
	if (s->fibers) {
		fputc('\n', fp);
		cell(&t, 0, 0, "fibers of");
		cell(&t, 0, 1, "fibers");
		cell(&t, 0, 2, "min nnz");
		cell(&t, 0, 3, "median");
		cell(&t, 0, 4, "mean");
		cell(&t, 0, 5, "max");
		cell(&t, 0, 6, "std");
		for (k = 0; k < s->order; k++) {
			cell(&t, k + 1, 0, "mode %d", k + 1);
			cell(&t, k + 1, 1, "%llu",
			    (unsigned long long)s->mode[k].fibers.n);
			dist_cells(&t, k + 1, 2, &s->mode[k].fibers);
			spread_cells(&t, k + 1, 7, &s->mode[k].fibers,
			    fe_stats_fibers_all(s, k));
		}
		spread_head(&t, 7, "fibers");
		table_print(fp, &t, md, false, lead);
		if (s->order > 1)
			fps_table(fp, &t, s, md, lead);
	}
	for (k = 0; !md && k < s->order; k++)
		if (s->mode[k].estimated) {
			fprintf(fp, "%s~ mode %d: more than %llu slices, "
			    "counted in bins: non-empty slices estimated "
			    "(HyperLogLog, about 1.6%%); --exact counts them\n",
			    lead, k + 1,
			    (unsigned long long)FE_STATS_SLICES_MAX);
			break;
		}
}

void
report_start(const struct opts *o)
{
	if (o->format != FMT_CSV)
		return;
	fputs("path,name,text_bytes,binary_bytes,metadata_bytes,readme_bytes",
	    stdout);
	fe_stats_csv_head(stdout, true);
	putchar('\n');
}

/* The checks said something of t: print it as ts-validate does, and
 * say when t breaks a rule. */
static void
diagnostics(const struct tensor *t, const struct opts *o)
{
	fflush(stdout);
	if (!o->quiet || ts_diags_errors(t->d) > 0) {
		if (o->quiet) {
			size_t i;

			for (i = 0; i < ts_diags_len(t->d); i++)
				if (ts_diags_at(t->d, i)->sev == TS_SEV_ERROR)
					ts_diag_print(ts_diags_at(t->d, i),
					    stderr, fe_progname);
		} else
			ts_diags_print(t->d, stderr, fe_progname);
	}
	if (t->s.complete && !t->v.valid && !o->quiet) {
		char *q = ts_quote(t->path, true);

		fprintf(stderr, "%s: warning: %s breaks %s%s: its statistics "
		    "are of its entries as read\n", fe_progname, q,
		    t->v.rules[0] == '\0' ? "a rule" : strchr(t->v.rules, ' ') ?
		    "rules " : "rule ", t->v.rules);
		free(q);
	}
}

void
report(const struct tensor *t, const struct opts *o)
{
	static const int order[NFILES] = { F_TEXT, F_BINARY, F_META,
	    F_README };
	size_t i;
	int k;

	ts_progress_clear();
	diagnostics(t, o);
	switch (o->format) {
	case FMT_TEXT:
		if (!t->s.complete)
			break;
		ts_fput_name(stdout, t->path);
		printf(": %s\n", t->v.valid ? "valid" : "invalid");
		report_table(stdout, t, false);
		for (i = 0; i < t->npics; i++) {
			fputs("  picture: ", stdout);
			ts_fput_name(stdout, t->pics[i]);
			printf(" (%s)\n", t->pic_what[i]);
		}
		putchar('\n');
		break;
	case FMT_JSON:
		fputc('{', stdout);
		ts_fput_json_name(stdout, "path", t->path);
		fputs(", ", stdout);
		ts_fput_json_name(stdout, "name", t->name);
		printf(", \"readable\": %s, \"status\": %d, \"errors\": %zu, "
		    "\"warnings\": %zu, \"files\": {", t->s.complete ? "true" :
		    "false", ts_diags_status(t->d), t->v.errors,
		    t->v.warnings);
		for (i = 0, k = 0; i < NFILES; i++) {
			if (t->fname[order[i]] == NULL)
				continue;
			fputs(k++ ? ", " : "", stdout);
			ts_fput_json(stdout, t->fname[order[i]]);
			printf(": %lld", (long long)t->bytes[order[i]]);
		}
		fputs("}, \"pictures\": [", stdout);
		for (i = 0; i < t->npics; i++) {
			fputs(i ? ", " : "", stdout);
			ts_fput_json(stdout, t->pics[i]);
		}
		fputs("]", stdout);
		if (t->s.complete) {
			fputs(", ", stdout);
			fe_stats_json(stdout, &t->s, &t->v, NULL);
		} else
			printf(", \"valid\": false");
		fputs("}\n", stdout);
		break;
	case FMT_CSV:
		fe_csv_field(stdout, t->path);
		putchar(',');
		fe_csv_field(stdout, t->name);
		for (i = 0; i < NFILES; i++) {
			putchar(',');
			if (t->fname[order[i]] != NULL)
				printf("%lld", (long long)t->bytes[order[i]]);
		}
		if (t->s.complete)
			fe_stats_csv_row(stdout, &t->s, &t->v, true);
		else
			fe_stats_csv_empty(stdout, &t->v, true);
		putchar('\n');
		break;
	}
	fflush(stdout);
}
