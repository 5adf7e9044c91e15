/*
 * diag.c - one collector for every message the library has for its
 * caller: severity, file, line and column (or byte offset), rule id and
 * text, and the exit status it implies (a rejected input 1, a misuse 2,
 * a failing system 3; the worst wins).  A cap per file and rule keeps a
 * tensor with a million bad rows from printing a million lines; the
 * counts still include what was not kept.  Nothing here prints unless
 * asked: a front end either prints the collection at the end or sets an
 * emit hook that sees each message as it is recorded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "util/diag_int.h"
#include "util/dlib.h"
#include "util/escape.h"
#include "util/xalloc.h"

struct ts_rulecount {
	char		*file;
	enum ts_rule	 rule;
	size_t		 seen, suppressed;
};

struct ts_diags {
	struct ts_diag	*v;
	size_t		 n, cap;
	size_t		 count[3];	/* by severity, suppressed ones too */
	size_t		 suppressed;
	size_t		 max_per_rule;	/* 0 = no limit */
	bool		 strict;	/* warnings are promoted to errors */
	int		 status;	/* enum ts_status, the worst seen */
	ts_diag_fn	*emit;
	void		*emit_arg;
	/* per (file, rule) counters for the cap */
	struct ts_rulecount *rc;
	size_t		 nrc, caprc;
};

static const char *const sevnames[] = { "note", "warning", "error" };

const char *
ts_sev_name(enum ts_sev s)
{
	return sevnames[s];
}

struct ts_diags *
ts_diags_new(size_t max_per_rule, bool strict)
{
	struct ts_diags *d = ts_xcalloc(1, sizeof(*d));

	d->max_per_rule = max_per_rule;
	d->strict = strict;
	return d;
}

void
ts_diags_clear(struct ts_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].msg);
	}
	for (i = 0; i < d->nrc; i++)
		free(d->rc[i].file);
	free(d->v);
	free(d->rc);
	d->v = NULL;
	d->rc = NULL;
	d->n = d->cap = d->nrc = d->caprc = d->suppressed = 0;
	memset(d->count, 0, sizeof(d->count));
	d->status = TS_STATUS_OK;
}

void
ts_diags_free(struct ts_diags *d)
{
	if (d == NULL)
		return;
	ts_diags_clear(d);
	free(d);
}

void
ts_diags_set_emit(struct ts_diags *d, ts_diag_fn *fn, void *arg)
{
	d->emit = fn;
	d->emit_arg = arg;
}

static bool
samefile(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static struct ts_rulecount *
rulecount(struct ts_diags *d, const char *file, enum ts_rule rule)
{
	size_t i;
	struct ts_rulecount *rc;

	for (i = 0; i < d->nrc; i++)
		if (d->rc[i].rule == rule &&
		    samefile(d->rc[i].file, file))
			return &d->rc[i];
	if (d->nrc == d->caprc) {
		d->caprc = d->caprc ? 2 * d->caprc : 16;
		d->rc = ts_xreallocarray(d->rc, d->caprc, sizeof(*d->rc));
	}
	rc = &d->rc[d->nrc++];
	memset(rc, 0, sizeof(*rc));
	rc->file = file ? ts_xstrdup(file) : NULL;
	rc->rule = rule;
	return rc;
}

bool
ts_diag_wanted(struct ts_diags *d, const char *file, enum ts_rule rule)
{
	struct ts_rulecount *rc;

	if (d->max_per_rule == 0)
		return true;
	rc = rulecount(d, file, rule);
	return rc->seen < d->max_per_rule;
}

/*
 * Is the same note or warning kept already?  A second pass over an input
 * says again what the first said at its start; only the first messages
 * are looked at, so that a file with a million warnings costs no more.
 */
static bool
repeated(const struct ts_diags *d, enum ts_sev sev, const char *file,
    uint64_t line, uint64_t col, const char *msg)
{
	size_t i;

	for (i = 0; i < d->n && i < 64; i++) {
		const struct ts_diag *g = &d->v[i];

		if (g->sev == sev && g->line == line && g->col == col &&
		    samefile(g->file, file) && strcmp(g->msg, msg) == 0)
			return true;
	}
	return false;
}

/* Record one message with the exit status it implies. */
static bool
record(struct ts_diags *d, enum ts_sev sev, int status, const char *file,
    uint64_t line, uint64_t col, int64_t offset, enum ts_rule rule,
    const char *fmt, va_list ap)
{
	struct ts_rulecount *rc;
	struct ts_diag *g;
	char buf[1024];

	if (sev == TS_SEV_WARNING && d->strict)
		sev = TS_SEV_ERROR;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* A message is one line of printable UTF-8 that starts no workflow
	 * command, whatever a file's strings hold; every report can then
	 * carry it as it is. */
	ts_text_sanitize(buf);
	/* Work that reads its input twice says a note once. */
	if (sev != TS_SEV_ERROR && repeated(d, sev, file, line, col, buf))
		return false;
	if (sev == TS_SEV_ERROR && status > d->status)
		d->status = status;
	d->count[sev]++;
	rc = rulecount(d, file, rule);
	rc->seen++;
	if (d->max_per_rule != 0 && rc->seen > d->max_per_rule) {
		rc->suppressed++;
		d->suppressed++;
		return false;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 32;
		d->v = ts_xreallocarray(d->v, d->cap, sizeof(*d->v));
	}
	g = &d->v[d->n++];
	g->sev = sev;
	g->file = file ? ts_xstrdup(file) : NULL;
	g->line = line;
	g->col = col;
	g->offset = offset;
	g->rule = rule;
	g->msg = ts_xstrdup(buf);
	g->status = sev == TS_SEV_ERROR ? status : TS_STATUS_OK;
	if (d->emit != NULL)
		d->emit(g, d->emit_arg);
	return true;
}

bool
ts_vdiag(struct ts_diags *d, enum ts_sev sev, const char *file,
    uint64_t line, uint64_t col, int64_t offset, enum ts_rule rule,
    const char *fmt, va_list ap)
{
	return record(d, sev, TS_STATUS_DATA, file, line, col, offset, rule,
	    fmt, ap);
}

bool
ts_diag(struct ts_diags *d, enum ts_sev sev, const char *file,
    uint64_t line, uint64_t col, enum ts_rule rule, const char *fmt,
    ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = ts_vdiag(d, sev, file, line, col, -1, rule, fmt, ap);
	va_end(ap);
	return r;
}

bool
ts_diag_off(struct ts_diags *d, enum ts_sev sev, const char *file,
    int64_t offset, enum ts_rule rule, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = ts_vdiag(d, sev, file, 0, 0, offset, rule, fmt, ap);
	va_end(ap);
	return r;
}

/* An I/O error of the message fmt (its arguments after it). */
static void
io_error(struct ts_diags *d, const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(d, TS_SEV_ERROR, TS_STATUS_IO, file, 0, 0, -1, TS_RULE_NONE, fmt,
	    ap);
	va_end(ap);
}

void
ts_diag_io(struct ts_diags *d, const char *file, const char *fmt, ...)
{
	/* A library that could not be loaded (ELIBACC): which, and why. */
	const char *why = errno == ELIBACC ? ts_dl_error() : NULL;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	if (why == NULL)
		record(d, TS_SEV_ERROR, TS_STATUS_IO, file, 0, 0, -1,
		    TS_RULE_NONE, fmt, ap);
	else {
		vsnprintf(msg, sizeof(msg), fmt, ap);
		io_error(d, file, "%s: %s", msg, why);
	}
	va_end(ap);
}

void
ts_diag_usage(struct ts_diags *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(d, TS_SEV_ERROR, TS_STATUS_USAGE, NULL, 0, 0, -1, TS_RULE_NONE,
	    fmt, ap);
	va_end(ap);
}

size_t
ts_diags_errors(const struct ts_diags *d)
{
	return d->count[TS_SEV_ERROR];
}

size_t
ts_diags_count(const struct ts_diags *d, enum ts_sev sev)
{
	return d->count[sev];
}

size_t
ts_diags_suppressed(const struct ts_diags *d)
{
	return d->suppressed;
}

int
ts_diags_status(const struct ts_diags *d)
{
	return d->status;
}

size_t
ts_diags_len(const struct ts_diags *d)
{
	return d->n;
}

const struct ts_diag *
ts_diags_at(const struct ts_diags *d, size_t i)
{
	return i < d->n ? &d->v[i] : NULL;
}

void
ts_diag_print(const struct ts_diag *g, FILE *fp, const char *prog)
{
	if (g->status == TS_STATUS_IO && g->line == 0 && g->offset < 0 &&
	    g->rule == TS_RULE_NONE) {
		/* The system failing us, as err(3) says it. */
		if (prog != NULL)
			fprintf(fp, "%s: ", prog);
		if (g->file != NULL) {
			ts_fput_name(fp, g->file);
			fputs(": ", fp);
		}
		fprintf(fp, "%s\n", g->msg);
		return;
	}
	if (g->file != NULL) {
		/* A name is quoted when it is not safe on a line. */
		ts_fput_name(fp, g->file);
		if (g->offset >= 0)
			fprintf(fp, ":+%lld", (long long)g->offset);
		else if (g->line > 0) {
			fprintf(fp, ":%llu", (unsigned long long)g->line);
			if (g->col > 0)
				fprintf(fp, ":%llu",
				    (unsigned long long)g->col);
		}
		fprintf(fp, ": %s: ", sevnames[g->sev]);
	} else if (prog != NULL) {
		/* err(3)'s form: an error needs no word for it. */
		fprintf(fp, "%s: ", prog);
		if (g->sev != TS_SEV_ERROR)
			fprintf(fp, "%s: ", sevnames[g->sev]);
	} else
		fprintf(fp, "%s: ", sevnames[g->sev]);
	fputs(g->msg, fp);
	if (g->rule != TS_RULE_NONE)
		fprintf(fp, " [%s]", ts_rule_id(g->rule));
	fputc('\n', fp);
}

void
ts_diags_print_suppressed(const struct ts_diags *d, FILE *fp)
{
	size_t i;

	for (i = 0; i < d->nrc; i++) {
		if (d->rc[i].suppressed == 0)
			continue;
		if (d->rc[i].file != NULL) {
			ts_fput_name(fp, d->rc[i].file);
			fputs(": ", fp);
		}
		fprintf(fp, "note: %zu more diagnostics%s%s%s not shown\n",
		    d->rc[i].suppressed,
		    d->rc[i].rule ? " [" : "", ts_rule_id(d->rc[i].rule),
		    d->rc[i].rule ? "]" : "");
	}
}

void
ts_diags_print(const struct ts_diags *d, FILE *fp, const char *prog)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		ts_diag_print(&d->v[i], fp, prog);
	ts_diags_print_suppressed(d, fp);
}

void
ts_diags_print_json(const struct ts_diags *d, FILE *fp)
{
	const struct ts_diag *g;
	size_t i;

	fputc('[', fp);
	for (i = 0; i < d->n; i++) {
		g = &d->v[i];
		fprintf(fp, "%s{\"severity\": \"%s\", ", i ? ", " : "",
		    sevnames[g->sev]);
		/* A name that is not UTF-8 adds "file_base64". */
		ts_fput_json_name(fp, "file", g->file);
		if (g->line > 0)
			fprintf(fp, ", \"line\": %llu",
			    (unsigned long long)g->line);
		else
			fputs(", \"line\": null", fp);
		if (g->col > 0)
			fprintf(fp, ", \"column\": %llu",
			    (unsigned long long)g->col);
		else
			fputs(", \"column\": null", fp);
		if (g->offset >= 0)
			fprintf(fp, ", \"offset\": %lld",
			    (long long)g->offset);
		else
			fputs(", \"offset\": null", fp);
		fputs(", \"rule\": ", fp);
		if (g->rule != TS_RULE_NONE)
			ts_fput_json(fp, ts_rule_id(g->rule));
		else
			fputs("null", fp);
		fputs(", \"message\": ", fp);
		ts_fput_json(fp, g->msg);
		fputc('}', fp);
	}
	fputc(']', fp);
}

/* A formatter that takes the message as it is. */
static bool
recordf(struct ts_diags *d, enum ts_sev sev, int status, const char *file,
    uint64_t line, uint64_t col, int64_t offset, enum ts_rule rule,
    const char *fmt, ...) __attribute__((format(printf, 9, 10)));

static bool
recordf(struct ts_diags *d, enum ts_sev sev, int status, const char *file,
    uint64_t line, uint64_t col, int64_t offset, enum ts_rule rule,
    const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = record(d, sev, status, file, line, col, offset, rule, fmt, ap);
	va_end(ap);
	return r;
}

void
ts_diags_absorb(struct ts_diags *d, const struct ts_diags *src,
    uint64_t line_offset)
{
	size_t i, kept[3] = { 0, 0, 0 };
	int sev;

	for (i = 0; i < src->n; i++) {
		const struct ts_diag *g = &src->v[i];

		kept[g->sev]++;
		recordf(d, g->sev, g->status != 0 ? g->status : TS_STATUS_DATA,
		    g->file, g->line > 0 ? g->line + line_offset : 0, g->col,
		    g->offset, g->rule, "%s", g->msg);
	}
	/* What src's cap kept back still counts. */
	for (sev = 0; sev < 3; sev++)
		d->count[sev] += src->count[sev] - kept[sev];
	for (i = 0; i < src->nrc; i++)
		if (src->rc[i].suppressed > 0) {
			struct ts_rulecount *rc = rulecount(d, src->rc[i].file,
			    src->rc[i].rule);

			rc->seen += src->rc[i].suppressed;
			rc->suppressed += src->rc[i].suppressed;
			d->suppressed += src->rc[i].suppressed;
		}
	if (src->status > d->status)
		d->status = src->status;
}

struct ts_diags *
ts_diags_like(const struct ts_diags *d)
{
	return ts_diags_new(d->max_per_rule, d->strict);
}
