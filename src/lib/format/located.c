/*
 * located.c - where an entry of a batch came from, for messages: the
 * column of a field in the text of its row, a message at that line and
 * column (or at the byte offset of a binary record), and a coordinate
 * tuple as messages print it.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "format/lines.h"

/* The column of field k of entry i, from the text of its row. */
uint64_t
ts_batch_col(const struct ts_batch *b, size_t i, int k)
{
	const char *p;
	int f;

	if (b->loc_offset || b->row == NULL || b->row[i] == NULL)
		return 0;
	p = skipws(b->row[i]);
	for (f = 0; f < k; f++) {
		while (!isdelim(*p))
			p++;
		p = skipws(p);
	}
	return (uint64_t)(p - b->row[i]) + 1;
}

void
ts_batch_diag(struct ts_diags *d, const struct ts_batch *b, size_t i, int k,
    enum ts_sev sev, enum ts_rule rule, const char *fmt, ...)
{
	uint64_t line = 0, col = 0;
	int64_t off = -1;
	va_list ap;

	if (!ts_diag_wanted(d, b->file, rule)) {
		/* Still counted; no need to locate it. */
		ts_diag(d, sev, b->file, 0, 0, rule, "-");
		return;
	}
	if (b->loc_offset)
		off = (int64_t)(b->loc[i] + (uint64_t)k * b->loc_step);
	else if (b->loc != NULL && b->file != NULL) {
		line = b->loc[i];
		col = ts_batch_col(b, i, k);
	}
	va_start(ap, fmt);
	ts_vdiag(d, sev, b->file, line, col, off, rule, fmt, ap);
	va_end(ap);
}

char *
ts_tuple_str(char *buf, size_t n, const uint64_t *t, int order, int base)
{
	size_t k = 0;
	int i;

	buf[k++] = '(';
	for (i = 0; i < order && k + 24 < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? ", " : "",
		    (unsigned long long)(t[i] + (uint64_t)base));
	if (i < order)
		k += (size_t)snprintf(buf + k, n - k, ", ...");
	snprintf(buf + k, n - k, ")");
	return buf;
}
