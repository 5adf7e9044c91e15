/*
 * report.c - what ts-validate prints of each operand, in the format a
 * reader wants: text for people (diagnostics on standard error, one
 * verdict a line on standard output), one JSON object a line for jq,
 * GitHub workflow commands that annotate a pull request, or one JUnit
 * XML document for GitLab and Jenkins.  Every name and message goes
 * through util/escape.h, so that no file name can break a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"
#include "util/escape.h"
#include "util/progress.h"
#include "util/xalloc.h"

static const char *
plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void
verdict(const struct result *r)
{
	size_t ne = ts_diags_count(r->d, TS_SEV_ERROR);
	size_t nw = ts_diags_count(r->d, TS_SEV_WARNING);

	ts_fput_name(stdout, r->path);
	/* What could not be read is neither valid nor invalid. */
	if (r->status == TS_EXIT_IO)
		fputs(": not checked (an I/O error)\n", stdout);
	else
		printf(": %s (%zu error%s, %zu warning%s)\n",
		    r->valid ? "valid" : "invalid", ne, plural(ne), nw,
		    plural(nw));
}

int
result_status(const struct result *r)
{
	int st = r->status;
	size_t i;

	for (i = 0; i < r->nsub; i++)
		if (result_status(&r->sub[i]) > st)
			st = result_status(&r->sub[i]);
	return st;
}

/* ---- JSON ---- */

static void
report_json(const struct result *r, const struct opts *o)
{
	/* A name that is not UTF-8 adds "path_base64" ("name_base64"). */
	fputc('{', stdout);
	ts_fput_json_name(stdout, "path", r->path);
	fputs(", ", stdout);
	ts_fput_json_name(stdout, "name", r->name);
	/* An archive's report, and those of its bundles, say which. */
	if (r->archive != NULL) {
		fputs(", ", stdout);
		ts_fput_json_name(stdout, "archive", r->archive);
		if (!r->bundle)
			printf(", \"bundles\": %zu", r->nsub);
	}
	printf(", \"valid\": %s, \"errors\": %zu, \"warnings\": %zu, "
	    "\"notes\": %zu, \"quick\": %s, \"status\": %d, \"diagnostics\": ",
	    r->valid ? "true" : "false", ts_diags_count(r->d, TS_SEV_ERROR),
	    ts_diags_count(r->d, TS_SEV_WARNING), ts_diags_count(r->d,
	    TS_SEV_NOTE), o->quick ? "true" : "false", r->status);
	ts_diags_print_json(r->d, stdout);
	printf(", \"suppressed\": %zu}\n", ts_diags_suppressed(r->d));
}

/* ---- GitHub workflow commands ---- */

static void
report_github(const struct result *r)
{
	static const char *const cmd[] = { "notice", "warning", "error" };
	size_t i;

	for (i = 0; i < ts_diags_len(r->d); i++) {
		const struct ts_diag *g = ts_diags_at(r->d, i);
		const char *sep = " ";

		printf("::%s", cmd[g->sev]);
		if (g->file != NULL) {
			fputs(" file=", stdout);
			ts_fput_gh_name(stdout, g->file);
			sep = ",";
			if (g->line > 0) {
				printf(",line=%llu", (unsigned long long)g->line);
				if (g->col > 0)
					printf(",col=%llu",
					    (unsigned long long)g->col);
			}
		}
		if (g->rule != TS_RULE_NONE) {
			printf("%stitle=", sep);
			ts_fput_gh(stdout, ts_rule_id(g->rule), true);
		}
		fputs("::", stdout);
		ts_fput_gh(stdout, g->msg, false);
		if (g->offset >= 0)
			printf(" (byte offset %lld)", (long long)g->offset);
		putchar('\n');
	}
	if (ts_diags_suppressed(r->d) > 0) {
		char *q = ts_quote(r->path, false);

		fputs("::notice::", stdout);
		ts_fput_gh(stdout, q, false);
		printf(": %zu more diagnostics not shown (-m 0 shows all)\n",
		    ts_diags_suppressed(r->d));
		free(q);
	}
	/* Plain lines: a name that could start a command is quoted. */
	verdict(r);
}

/* ---- JUnit XML ---- */

/*
 * What JUnit calls a test case's outcome: a failure is data rejected
 * (status 1); an error is an operand that could not be checked (a
 * system or I/O error, 3, or a request the library refused, 2).
 */
static bool
junit_error(const struct result *r)
{
	return !r->valid && r->status != TS_EXIT_DATA;
}

/*
 * The reports of v[0..n), an archive's bundles before the archive's own,
 * in order into *out (malloc'd): how many.
 */
static size_t
flatten(const struct result *v, size_t n, const struct result ***out)
{
	const struct result **w;
	size_t i, k, m = 0;

	for (i = 0; i < n; i++)
		m += v[i].nsub + 1;
	w = ts_xcalloc(m ? m : 1, sizeof(*w));
	for (i = m = 0; i < n; i++) {
		for (k = 0; k < v[i].nsub; k++)
			w[m++] = &v[i].sub[k];
		w[m++] = &v[i];
	}
	*out = w;
	return m;
}

static void
report_junit(const struct result *res, size_t nres)
{
	const struct result **v;
	size_t i, k, n, fail = 0, err = 0;
	const char *tag;
	double t = 0;

	n = flatten(res, nres, &v);
	for (i = 0; i < n; i++) {
		err += junit_error(v[i]);
		fail += !v[i]->valid && !junit_error(v[i]);
		t += v[i]->seconds;
	}
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"ts-validate\" tests=\"%zu\" failures=\"%zu\" "
	    "errors=\"%zu\" time=\"%.3f\">\n"
	    "  <testsuite name=\"ts-validate\" tests=\"%zu\" failures=\"%zu\" "
	    "errors=\"%zu\" time=\"%.3f\">\n", n, fail, err, t, n, fail, err,
	    t);
	for (i = 0; i < n; i++) {
		const struct result *r = v[i];

		/* A name XML cannot hold, or that holds a newline (which an
		 * attribute would turn into a space), is in the text form. */
		fputs("    <testcase classname=\"tensorsuite\" name=\"", stdout);
		ts_fput_xml_name(stdout, r->path);
		printf("\" time=\"%.3f\"", r->seconds);
		if (r->valid && ts_diags_len(r->d) == 0) {
			fputs("/>\n", stdout);
			continue;
		}
		fputs(">\n", stdout);
		if (r->valid) {
			tag = "system-out";
			fputs("      <system-out>", stdout);
		} else if (junit_error(r)) {
			tag = "error";
			printf("      <error type=\"%s\" message=\"%s\">",
			    r->status == TS_EXIT_IO ? "io" : "usage",
			    r->status == TS_EXIT_IO ? "not checked (an I/O "
			    "error)" : "not checked (a usage error)");
		} else {
			tag = "failure";
			printf("      <failure type=\"invalid\" message=\"%zu "
			    "error%s\">", ts_diags_count(r->d, TS_SEV_ERROR),
			    plural(ts_diags_count(r->d, TS_SEV_ERROR)));
		}
		/* The lines of the text format, names quoted as there. */
		for (k = 0; k < ts_diags_len(r->d); k++) {
			const struct ts_diag *g = ts_diags_at(r->d, k);
			char *line = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&line, &len);

			if (m == NULL)
				continue;
			ts_diag_print(g, m, fe_progname);
			fclose(m);
			ts_fput_xml(stdout, line, false);
			free(line);
		}
		printf("</%s>\n    </testcase>\n", tag);
	}
	fputs("  </testsuite>\n</testsuites>\n", stdout);
	free(v);
}

/* ---- the formats ---- */

void
report_start(const struct opts *o)
{
	(void)o;
}

void
report(const struct result *r, const struct opts *o)
{
	size_t i;

	ts_progress_clear();	/* the report may go to the terminal too */
	if (o->quiet)
		return;
	for (i = 0; i < r->nsub; i++)
		report(&r->sub[i], o);
	switch (o->format) {
	case FMT_TEXT:
		fflush(stdout);
		ts_diags_print(r->d, stderr, fe_progname);
		verdict(r);
		break;
	case FMT_JSON:
		report_json(r, o);
		break;
	case FMT_GITHUB:
		report_github(r);
		break;
	case FMT_JUNIT:
		break;	/* one document at the end */
	}
	fflush(stdout);
}

void
report_end(const struct result *res, size_t nres, const struct opts *o)
{
	const struct result **v;
	size_t i, n, bad = 0, bundles = 0, archives = 0, io = 0;

	if (o->quiet)
		return;
	if (o->format == FMT_JUNIT) {
		report_junit(res, nres);
		return;
	}
	if (o->format == FMT_JSON)
		return;
	n = flatten(res, nres, &v);
	for (i = 0; i < n; i++) {
		io += v[i]->status == TS_EXIT_IO;
		bad += !v[i]->valid && v[i]->status != TS_EXIT_IO;
		bundles += v[i]->bundle;
		archives += v[i]->archive != NULL && !v[i]->bundle;
	}
	free(v);
	if (n < 2)
		return;
	/* What the reports are of: bundles, and the archives they were
	 * in, which have a report of their own. */
	if (archives > 0 && bundles + archives == n)
		printf("%zu bundle%s and %zu archive%s", bundles,
		    plural(bundles), archives, plural(archives));
	else
		printf("%zu %s", n, bundles == n ? "bundles" : archives > 0 ?
		    "reports" : "operands");
	printf(": %zu valid, %zu invalid", n - bad - io, bad);
	if (io > 0)
		printf(", %zu not checked", io);
	putchar('\n');
}
