/*
 * report.c - what ts-validate prints of each operand, in the format a
 * reader wants: text for people (diagnostics on standard error, one
 * verdict a line on standard output), one JSON object a line for jq,
 * GitHub workflow commands that annotate a pull request, or one JUnit
 * XML document for GitLab and Jenkins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "validate.h"
#include "util/escape.h"
#include "util/progress.h"

static const char *
plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void
verdict(const struct result *r)
{
	size_t ne = ts_diags_count(r->d, TS_ERROR);
	size_t nw = ts_diags_count(r->d, TS_WARNING);

	ts_fput_name(stdout, r->path);
	/* What could not be read is neither valid nor invalid. */
	if (r->status == TS_EXIT_IO)
		fputs(": not checked (an I/O error)\n", stdout);
	else
		printf(": %s (%zu error%s, %zu warning%s)\n",
		    r->valid ? "valid" : "invalid", ne, plural(ne), nw,
		    plural(nw));
}

/* ---- JSON ---- */

static void
putjson(const char *s)
{
	json_t *j = s != NULL ? json_string(s) : NULL;
	char *t = j != NULL ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	fputs(t != NULL ? t : "null", stdout);
	free(t);
	json_decref(j);
}

static void
report_json(const struct result *r, const struct opts *o)
{
	fputs("{\"path\": ", stdout);
	putjson(r->path);
	fputs(", \"name\": ", stdout);
	putjson(r->name);
	printf(", \"valid\": %s, \"errors\": %zu, \"warnings\": %zu, "
	    "\"notes\": %zu, \"quick\": %s, \"status\": %d, \"diagnostics\": ",
	    r->valid ? "true" : "false", ts_diags_count(r->d, TS_ERROR),
	    ts_diags_count(r->d, TS_WARNING), ts_diags_count(r->d, TS_NOTE),
	    o->quick ? "true" : "false", r->status);
	ts_diags_print_json(r->d, stdout);
	printf(", \"suppressed\": %zu}\n", ts_diags_suppressed(r->d));
}

/* ---- GitHub workflow commands ---- */

/* A property or message of a workflow command, escaped as the runner
 * expects: '%', CR and LF always; ':' and ',' in properties. */
static void
ghput(const char *s, bool prop)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '%':
			fputs("%25", stdout);
			break;
		case '\r':
			fputs("%0D", stdout);
			break;
		case '\n':
			fputs("%0A", stdout);
			break;
		case ':':
			fputs(prop ? "%3A" : ":", stdout);
			break;
		case ',':
			fputs(prop ? "%2C" : ",", stdout);
			break;
		default:
			putchar(*s);
		}
}

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
			ghput(g->file, true);
			sep = ",";
			if (g->line > 0) {
				printf(",line=%llu", (unsigned long long)g->line);
				if (g->col > 0)
					printf(",col=%llu",
					    (unsigned long long)g->col);
			}
		}
		if (g->rule[0] != '\0') {
			printf("%stitle=", sep);
			ghput(g->rule, true);
		}
		fputs("::", stdout);
		ghput(g->msg, false);
		if (g->offset >= 0)
			printf(" (byte offset %lld)", (long long)g->offset);
		putchar('\n');
	}
	if (ts_diags_suppressed(r->d) > 0)
		printf("::notice::%s: %zu more diagnostics not shown "
		    "(-m 0 shows all)\n", r->path, ts_diags_suppressed(r->d));
	verdict(r);
}

/* ---- JUnit XML ---- */

static void
xmlput(const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '<':
			fputs("&lt;", stdout);
			break;
		case '>':
			fputs("&gt;", stdout);
			break;
		case '&':
			fputs("&amp;", stdout);
			break;
		case '"':
			fputs("&quot;", stdout);
			break;
		default:
			putchar(*s);
		}
}

static void
report_junit(const struct result *v, size_t n)
{
	size_t i, k, fail = 0;
	double t = 0;

	for (i = 0; i < n; i++) {
		fail += !v[i].valid;
		t += v[i].seconds;
	}
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"ts-validate\" tests=\"%zu\" failures=\"%zu\" "
	    "time=\"%.3f\">\n"
	    "  <testsuite name=\"ts-validate\" tests=\"%zu\" failures=\"%zu\" "
	    "errors=\"0\" time=\"%.3f\">\n", n, fail, t, n, fail, t);
	for (i = 0; i < n; i++) {
		const struct result *r = &v[i];

		fputs("    <testcase classname=\"tensorsuite\" name=\"", stdout);
		xmlput(r->path);
		printf("\" time=\"%.3f\"", r->seconds);
		if (r->valid && ts_diags_len(r->d) == 0) {
			fputs("/>\n", stdout);
			continue;
		}
		fputs(">\n", stdout);
		if (!r->valid)
			printf("      <failure type=\"invalid\" message=\"%zu "
			    "error%s\">", ts_diags_count(r->d, TS_ERROR),
			    plural(ts_diags_count(r->d, TS_ERROR)));
		else
			fputs("      <system-out>", stdout);
		for (k = 0; k < ts_diags_len(r->d); k++) {
			const struct ts_diag *g = ts_diags_at(r->d, k);
			char *line = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&line, &len);

			if (m == NULL)
				continue;
			ts_diag_print(g, m, fe_progname);
			fclose(m);
			xmlput(line);
			free(line);
		}
		fputs(r->valid ? "</system-out>\n" : "</failure>\n", stdout);
		fputs("    </testcase>\n", stdout);
	}
	fputs("  </testsuite>\n</testsuites>\n", stdout);
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
	ts_progress_clear();	/* the report may go to the terminal too */
	if (o->quiet)
		return;
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
report_end(const struct result *v, size_t n, const struct opts *o)
{
	size_t i, bad = 0, bundles = 0, io = 0;

	if (o->quiet)
		return;
	if (o->format == FMT_JUNIT) {
		report_junit(v, n);
		return;
	}
	if (n < 2 || o->format == FMT_JSON)
		return;
	for (i = 0; i < n; i++) {
		io += v[i].status == TS_EXIT_IO;
		bad += !v[i].valid && v[i].status != TS_EXIT_IO;
		bundles += v[i].bundle;
	}
	printf("%zu %s: %zu valid, %zu invalid", n, bundles == n ?
	    "bundles" : "operands", n - bad - io, bad);
	if (io > 0)
		printf(", %zu not checked", io);
	putchar('\n');
}
