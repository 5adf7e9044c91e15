/*
 * lines.c - the line buffer of the text decoders (see lines.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/lines.h"
#include "util/xalloc.h"

void
ts_lines_init(struct ts_lines *L, struct ts_source *src, struct ts_diags *d,
    size_t bufsz)
{
	memset(L, 0, sizeof(*L));
	L->src = src;
	L->d = d;
	L->file = ts_source_name(src);
	L->cap = bufsz;
	L->buf = ts_xmalloc(L->cap);
}

void
ts_lines_free(struct ts_lines *L)
{
	free(L->buf);
	L->buf = NULL;
}

long
ts_lines_fill(struct ts_lines *L, size_t maxcap)
{
	long n;

	if (L->failed)
		return -1;
	if (L->eof)
		return 0;
	if (L->pos > 0) {
		memmove(L->buf, L->buf + L->pos, L->len - L->pos);
		L->len -= L->pos;
		L->pos = 0;
	}
	if (L->cap - L->len < 2) {	/* keep room for a sentinel */
		if (L->cap >= maxcap) {
			L->failed = true;
			ts_diag(L->d, TS_SEV_ERROR, L->file, L->line + 1, 0,
			    TS_RULE_NONE, "line is longer than %zu MiB", maxcap
			    >> 20);
			errno = EFBIG;
			return -1;
		}
		L->cap *= 2;
		L->buf = ts_xrealloc(L->buf, L->cap);
	}
	n = ts_source_read(L->src, L->buf + L->len, L->cap - L->len - 1);
	if (n < 0) {
		L->failed = true;
		if (ts_source_error(L->src) != NULL)
			ts_diag(L->d, TS_SEV_ERROR, L->file, 0, 0, TS_RULE_NONE,
			    "%s", ts_source_error(L->src));
		else if (errno == EILSEQ)
			ts_diag(L->d, TS_SEV_ERROR, L->file, 0, 0, TS_RULE_NONE,
			    "cannot decompress: the compressed data is "
			    "corrupt");
		else
			ts_diag_io(L->d, L->file, "read error: %s",
			    strerror(errno));
		return -1;
	}
	if (n == 0)
		L->eof = true;
	L->len += (size_t)n;
	return n;
}

char *
ts_lines_get(struct ts_lines *L, size_t *lenp, bool *crlf, size_t maxcap)
{
	char *s, *nl;
	size_t scanned = 0;

	for (;;) {
		nl = memchr(L->buf + L->pos + scanned, '\n',
		    L->len - L->pos - scanned);
		if (nl != NULL)
			break;
		scanned = L->len - L->pos;
		if (L->eof) {
			if (L->pos == L->len)
				return NULL;
			/* A last line without a line end. */
			L->buf[L->len] = '\n';
			nl = L->buf + L->len++;
			break;
		}
		if (ts_lines_fill(L, maxcap) < 0)
			return NULL;
	}
	s = L->buf + L->pos;
	*lenp = (size_t)(nl - s);
	if (*lenp > 0 && s[*lenp - 1] == '\r') {
		(*lenp)--;
		if (crlf != NULL)
			*crlf = true;
	} else if (crlf != NULL)
		*crlf = false;
	L->pos = (size_t)(nl - L->buf) + 1;
	L->off += (uint64_t)(nl - s) + 1;
	L->line++;
	return s;
}

char *
ts_lines_lastnl(struct ts_lines *L)
{
	char *s = L->buf + L->pos;
	size_t n = L->len - L->pos, known = 0;

	/* What is known to hold no line end is the part of [nonl_from,
	 * nonl_to) at or after the unread start. */
	if (L->nonl_from <= L->off && L->off <= L->nonl_to)
		known = (size_t)(L->nonl_to - L->off);
	else
		L->nonl_from = L->nonl_to = L->off;
	if (known > n)
		known = n;
	while (n > known)
		if (s[--n] == '\n')
			return s + n;
	L->nonl_to = L->off + (L->len - L->pos);
	return NULL;
}
