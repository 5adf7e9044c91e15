/*
 * provenance.c - what an imported file says of where it comes from:
 * the comment lines of its header (struct ts_header's comments), kept
 * whole in a section of the bundle's README, and, when they are the
 * SuiteSparse Matrix Collection's block
 *
 *	%-------------------------------------------------------------
 *	% UF Sparse Matrix Collection, Tim Davis
 *	% http://www.cise.ufl.edu/research/sparse/matrices/HB/bcsstk13
 *	% name: HB/bcsstk13
 *	% [SYMMETRIC STIFFNESS MATRIX, FLUID FLOW GENERALIZED EIGENVALUES]
 *	% id: 35
 *	% date: 1982
 *	% ...
 *
 * the metadata's group, id, time, source and source_url, each only
 * when it is a value its rule takes (tensorsuite(5) M1): a value the
 * file gives that no rule takes is left to the default, and a note
 * says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "job/job_int.h"
#include "model/model.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The fields of the SuiteSparse block that are kept. */
enum { F_COLLECTION, F_URL, F_NAME, F_TITLE, F_ID, F_DATE, F_AUTHOR, F_ED,
	F_KIND, NFIELDS };

static const char *const label[NFIELDS] = { "collection", "URL", "name",
	"title", "id", "date", "author", "editor", "kind" };

/* Is s valid UTF-8, which a JSON string must be? */
static bool
utf8(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

/* s[0..n) with its blanks at both ends taken off, malloc'd. */
static char *
trimmed(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return ts_xasprintf("%.*s", (int)n, s);
}

/*
 * The fields of the SuiteSparse block, from its first line of dashes to
 * its second: "key: value" lines, the title in brackets, the collection
 * and its URL on the lines before "name:".  Are they there (a name
 * "GROUP/NAME")?
 */
static bool
suitesparse(const char *text, char *f[NFIELDS])
{
	static const struct { const char *key; int field; } keys[] = {
		{ "name:", F_NAME }, { "id:", F_ID }, { "date:", F_DATE },
		{ "author:", F_AUTHOR }, { "ed:", F_ED }, { "kind:", F_KIND }
	};
	const char *p, *e, *s;
	size_t n, i;
	int dashes = 0;

	memset(f, 0, NFIELDS * sizeof(*f));
	for (p = text; *p != '\0' && dashes < 2; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		s = p + strspn(p, " \t");
		if (*s != '%')
			continue;
		s++;
		if (strncmp(s, "---", 3) == 0) {
			dashes++;
			continue;
		}
		if (dashes != 1)
			continue;
		s += strspn(s, " \t");
		n = (size_t)(e - s);
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strncmp(s, keys[i].key, strlen(keys[i].key)) == 0)
				break;
		if (i < sizeof(keys) / sizeof(keys[0])) {
			if (f[keys[i].field] == NULL)
				f[keys[i].field] = trimmed(s +
				    strlen(keys[i].key), n -
				    strlen(keys[i].key));
		} else if (*s == '[' && f[F_TITLE] == NULL) {
			char *t = trimmed(s + 1, n - 1);
			size_t k = strlen(t);

			if (k > 0 && t[k - 1] == ']')
				t[k - 1] = '\0';
			f[F_TITLE] = t;
		} else if ((strncmp(s, "http://", 7) == 0 ||
		    strncmp(s, "https://", 8) == 0) && f[F_URL] == NULL)
			f[F_URL] = trimmed(s, n);
		else if (f[F_NAME] == NULL && f[F_COLLECTION] == NULL &&
		    n > 0 && strstr(s, "Collection") != NULL &&
		    (size_t)(strstr(s, "Collection") - s) < n)
			f[F_COLLECTION] = trimmed(s, n);
	}
	return f[F_NAME] != NULL && strchr(f[F_NAME], '/') != NULL;
}

static void
note(struct fe_job *j, const char *fmt, const char *v)
{
	ts_diag(j->d, TS_SEV_NOTE, j->sname, 0, 0, TS_RULE_NONE, fmt, v);
}

static void
setkey(char **dst, char *v)
{
	free(*dst);
	*dst = v;
}

/* The metadata's descriptive keys from the fields, each one its rule
 * takes (the options still change them after). */
static void
describe(struct fe_job *j, char *const f[NFIELDS])
{
	struct ts_meta *m = j->mp;
	const char *slash = strchr(f[F_NAME], '/');
	size_t n;
	char *v;

	if (utf8(f[F_NAME]))
		setkey(&m->group, ts_xasprintf("%.*s", (int)(slash -
		    f[F_NAME]), f[F_NAME]));
	if (f[F_ID] != NULL && *f[F_ID] != '\0') {
		n = strlen(f[F_ID]);
		if (n <= 4 && strspn(f[F_ID], "0123456789") == n)
			setkey(&m->id, ts_xasprintf("%04d", atoi(f[F_ID])));
		else
			note(j, "its id '%s' is not four digits at most: "
			    "'id' is not set from it", f[F_ID]);
	}
	if (f[F_DATE] != NULL && *f[F_DATE] != '\0') {
		/* The collection gives a year: its first day. */
		v = strlen(f[F_DATE]) == 4 ? ts_xasprintf("%s-01-01",
		    f[F_DATE]) : ts_xstrdup(f[F_DATE]);
		if (ts_valid_date(v))
			setkey(&m->time, v);
		else {
			free(v);
			note(j, "its date '%s' is not a year nor a date "
			    "YYYY-MM-DD: 'time' is not set from it", f[F_DATE]);
		}
	}
	if (f[F_URL] != NULL) {
		if (ts_valid_url(f[F_URL]))
			setkey(&m->source_url, ts_xstrdup(f[F_URL]));
		else
			note(j, "its URL '%s' is not an absolute http(s) URL: "
			    "'source_url' is not set from it", f[F_URL]);
	}
	v = ts_xasprintf("%s%s%s%s%s%s", f[F_NAME], f[F_TITLE] ? ": " : "",
	    f[F_TITLE] ? f[F_TITLE] : "", f[F_COLLECTION] ? " (" : "",
	    f[F_COLLECTION] ? f[F_COLLECTION] : "", f[F_COLLECTION] ? ")" :
	    "");
	if (utf8(v))
		setkey(&m->source, v);
	else
		free(v);
}

void
fe_job_provenance(struct fe_job *j, const char *comments)
{
	char *f[NFIELDS];
	const char *p, *e;
	struct ts_strbuf b = { NULL, 0, 0 };
	bool ss;
	int i;

	if (comments == NULL || *comments == '\0')
		return;
	ss = suitesparse(comments, f);
	if (ss)
		describe(j, f);
	ts_sbprintf(&b, "\n## Header of the source file\n\n");
	if (ss) {
		ts_sbprintf(&b, "What `%s` says of itself, a matrix of "
		    "the SuiteSparse Matrix Collection:\n\n", j->sname);
		for (i = 0; i < NFIELDS; i++)
			if (f[i] != NULL && *f[i] != '\0')
				ts_sbprintf(&b, "- %s: %s\n", label[i],
				    f[i]);
		ts_sbprintf(&b, "\nIts comment lines, as written:\n\n");
	} else
		ts_sbprintf(&b, "The comment lines of `%s`, as "
		    "written:\n\n", j->sname);
	for (p = comments; *p != '\0'; p = e + 1) {
		e = strchr(p, '\n');
		ts_sbprintf(&b, "    %.*s\n", (int)(e - p), p);
	}
	for (i = 0; i < NFIELDS; i++)
		free(f[i]);
	free(j->provenance);
	j->provenance = b.s;
}
