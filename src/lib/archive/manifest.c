/*
 * manifest.c - an archive's SHA256SUMS (tensorsuite(5), rule A1), in the
 * format `sha256sum -c` reads: one line a file, 64 lower-case hex digits
 * of its SHA-256, two spaces (or a space and '*', sha256sum -b), its path
 * as stored, a newline.  A line that starts with '\' spells its path with
 * the escapes sha256sum writes for a backslash, a newline or a carriage
 * return; a line that starts with '#' is a comment.  Anything else is an
 * error located by line and column: a manifest that a bit flip damaged
 * must not pass for one that lists less.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "archive/archive_int.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char *
ts_manifest_path(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			continue;
	return p;
}

void
ts_manifest_line(struct ts_strbuf *b, const unsigned char *digest,
    const char *path)
{
	char hex[TS_SHA256_HEX];
	const char *p;

	ts_sha256_hex(digest, hex);
	if (strpbrk(path, "\\\n\r") == NULL) {
		ts_sbprintf(b, "%s  %s\n", hex, path);
		return;
	}
	ts_sbprintf(b, "\\%s  ", hex);
	for (p = path; *p != '\0'; p++)
		if (*p == '\\')
			ts_sbprintf(b, "\\\\");
		else if (*p == '\n')
			ts_sbprintf(b, "\\n");
		else if (*p == '\r')
			ts_sbprintf(b, "\\r");
		else
			ts_sbprintf(b, "%c", *p);
	ts_sbprintf(b, "\n");
}

static int
by_path(const void *a, const void *b)
{
	const struct ts_manifest_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c != 0)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

static bool
lowhex(const char *s)
{
	int i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return false;
	return true;
}

/* The path of a line from column 67 on (len bytes), unescaped when the
 * line starts with '\': NULL with *bad the column of a bad escape. */
static char *
unescape(const char *s, size_t len, bool escaped, size_t *bad)
{
	char *p = ts_xmalloc(len + 1);
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\0') {
			*bad = i;
			free(p);
			return NULL;
		}
		if (!escaped || s[i] != '\\') {
			p[o++] = s[i];
			continue;
		}
		if (i + 1 < len && (s[i + 1] == '\\' || s[i + 1] == 'n' ||
		    s[i + 1] == 'r')) {
			p[o++] = s[i + 1] == 'n' ? '\n' : s[i + 1] == 'r' ?
			    '\r' : '\\';
			i++;
			continue;
		}
		*bad = i;
		free(p);
		return NULL;
	}
	p[o] = '\0';
	return p;
}

int
ts_manifest_parse(struct ts_manifest *mf, const char *data, size_t len,
    const char *file, struct ts_diags *d)
{
	const char *s = data, *end = data + len, *nl;
	struct ts_manifest_entry *e;
	uint64_t line = 0;
	size_t n, i, bad = 0, errs = ts_diags_errors(d);
	bool esc;
	char *path;

	memset(mf, 0, sizeof(*mf));
	for (; s < end; s = nl + 1) {
		line++;
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;	/* a last line without its newline */
		n = (size_t)(nl - s);
		if (n > 0 && s[0] == '#')
			continue;
		esc = n > 0 && s[0] == '\\';
		if (esc) {
			s++;
			n--;
		}
		if (n < 64 || !lowhex(s)) {
			for (i = 0; i < n && i < 64 && ((s[i] >= '0' &&
			    s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')); i++)
				continue;
			ts_diag(d, TS_SEV_ERROR, file, line, i + 1 + esc,
			    TS_RULE_A1, "%s", n == 0 && !esc ? "an empty "
			    "line; each line is a SHA-256 in hex, two spaces "
			    "and a path" : "expected the 64 lower-case hex "
			    "digits of a SHA-256");
			continue;
		}
		if (n < 66 || s[64] != ' ' || (s[65] != ' ' && s[65] != '*')) {
			ts_diag(d, TS_SEV_ERROR, file, line, (n > 64 && s[64] ==
			    ' ' ? 66 : 65) + esc, TS_RULE_A1, "expected two "
			    "spaces (or ' *') between the digest and the path");
			continue;
		}
		if (n == 66) {
			ts_diag(d, TS_SEV_ERROR, file, line, 67 + esc,
			    TS_RULE_A1, "no path after the digest");
			continue;
		}
		if ((path = unescape(s + 66, n - 66, esc, &bad)) == NULL) {
			ts_diag(d, TS_SEV_ERROR, file, line, 67 + esc + bad,
			    TS_RULE_A1, "%s", s[66 + bad] == '\0' ?
			    "a NUL byte in the path" : "an escape other than "
			    "'\\\\', '\\n' or '\\r' in the path");
			continue;
		}
		mf->e = ts_xreallocarray(mf->e, mf->n + 1, sizeof(*mf->e));
		e = &mf->e[mf->n++];
		memset(e, 0, sizeof(*e));
		ts_sha256_unhex(s, e->digest);
		e->line = line;
		e->raw = path;
		e->path = ts_manifest_path(path);
	}
	if (mf->n > 1)
		qsort(mf->e, mf->n, sizeof(*mf->e), by_path);
	for (i = 1; i < mf->n; i++)
		if (strcmp(mf->e[i].path, mf->e[i - 1].path) == 0) {
			char *shown = ts_member_shown(mf->e[i].path);

			ts_diag(d, TS_SEV_ERROR, file, mf->e[i].line, 67,
			    TS_RULE_A1, "'%s' is listed twice (first on line "
			    "%llu)", shown, (unsigned long long)mf->e[i -
			    1].line);
			free(shown);
			/* Found, so that it is not said to be missing. */
			mf->e[i].found = true;
		}
	return ts_diags_errors(d) > errs ? -1 : 0;
}

struct ts_manifest_entry *
ts_manifest_find(struct ts_manifest *mf, const char *path)
{
	size_t lo = 0, hi = mf->n, mid;
	int c;

	path = ts_manifest_path(path);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(path, mf->e[mid].path);
		if (c == 0) {
			/* The first of a path listed twice. */
			while (mid > 0 && strcmp(path, mf->e[mid - 1].path) ==
			    0)
				mid--;
			return &mf->e[mid];
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

void
ts_manifest_free(struct ts_manifest *mf)
{
	size_t i;

	for (i = 0; i < mf->n; i++)
		free(mf->e[i].raw);
	free(mf->e);
	memset(mf, 0, sizeof(*mf));
}
