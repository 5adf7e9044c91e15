/*
 * reader.c - the streaming decoder for TensorSuite data files, text
 * (.tns) and binary (.tnsb), element-wise and block-wise.
 *
 * Bytes come in large reads into one reused buffer; the header is parsed
 * line by line, then entries are decoded straight from the buffer into a
 * caller's batch.  Text rows are parsed by hand (no stdio, no strtoull)
 * and only complete lines are handed to the row parser, so it can rely on
 * a '\n' sentinel instead of checking the buffer end at every byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/scan.h"

#define BUFSZ		(256u << 10)	/* fits in L2: the parser reads it hot */
#define LINE_MAX_HDR	(1u << 30)	/* longest header line we accept */

static const char MAGIC_TEXT[] = "%%TensorSuite-TNS";
static const char MAGIC_BIN[] = "%%TensorSuite-TNSB";

struct ts_reader {
	struct ts_source	*src;
	struct ts_diags		*d;
	const char		*file;
	struct ts_layout	 lay;
	struct ts_header	 h;
	char			*buf;
	size_t			 cap, pos, len;
	bool			 eof, failed;
	uint64_t		 off;	/* file offset of buf[pos] */
	uint64_t		 line;	/* line number of buf[pos] */
	uint64_t		 rows;	/* data rows (or records) seen */
	size_t			 recsz;
	bool			 swap;
	bool			 warned_crlf, warned_blank, warned_comment;
};

void
ts_batch_init(struct ts_batch *b, int order, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->order = order;
	b->cap = cap;
	b->coords = ts_xreallocarray(NULL, cap, (size_t)order *
	    sizeof(uint64_t));
	b->fval = ts_xreallocarray(NULL, cap, sizeof(double));
	b->ival = ts_xreallocarray(NULL, cap, sizeof(int64_t));
	b->loc = ts_xreallocarray(NULL, cap, sizeof(uint64_t));
	b->row = ts_xreallocarray(NULL, cap, sizeof(char *));
	b->vtext = ts_xreallocarray(NULL, cap, sizeof(char *));
	b->vlen = ts_xreallocarray(NULL, cap, sizeof(uint32_t));
}

void
ts_batch_free(struct ts_batch *b)
{
	free(b->coords);
	free(b->fval);
	free(b->ival);
	free(b->loc);
	free(b->row);
	free(b->vtext);
	free(b->vlen);
	memset(b, 0, sizeof(*b));
}

void
ts_header_free(struct ts_header *h)
{
	int i;

	free(h->version);
	free(h->name);
	for (i = 0; i < TS_MAXORDER; i++)
		free(h->extents[i]);
	memset(h, 0, sizeof(*h));
}

/*
 * Read more input after buf[len].  Keeps [pos, len), moving it to the
 * front; grows the buffer only when it is full of one unfinished line.
 * Returns the number of bytes added, 0 at end of file, -1 on error.
 */
static long
fill(struct ts_reader *r, size_t maxcap)
{
	long n;

	if (r->eof || r->failed)
		return 0;
	n = ts_fill(r->src, &r->buf, &r->cap, &r->pos, &r->len, maxcap);
	if (n < 0 && errno == EFBIG)
		return -1;
	if (n < 0) {
		r->failed = true;
		ts_diag_io(r->d, r->file, "read error: %s", strerror(errno));
		return -1;
	}
	if (n == 0)
		r->eof = true;
	return n;
}

static void	crlf_warn(struct ts_reader *, const char *);

/*
 * Next header line: a pointer into the buffer and its length without the
 * line end.  NULL at end of file.  A "\r\n" end is accepted with a
 * warning.
 */
static char *
hdrline(struct ts_reader *r, size_t *lenp, bool *crlf)
{
	char *s, *nl;
	size_t scanned = 0;

	for (;;) {
		nl = memchr(r->buf + r->pos + scanned, '\n',
		    r->len - r->pos - scanned);
		if (nl != NULL)
			break;
		scanned = r->len - r->pos;
		if (fill(r, LINE_MAX_HDR) <= 0) {
			if (r->pos == r->len)
				return NULL;
			/* Last line without a newline. */
			r->buf[r->len] = '\n';
			nl = r->buf + r->len;
			r->len++;
			break;
		}
	}
	s = r->buf + r->pos;
	*lenp = (size_t)(nl - s);
	*crlf = *lenp > 0 && s[*lenp - 1] == '\r';
	if (*crlf)
		(*lenp)--;
	r->pos = (size_t)(nl - r->buf) + 1;
	r->off += (uint64_t)(nl - s) + 1;
	r->line++;
	if (*crlf)
		crlf_warn(r, "H1");
	return s;
}


/*
 * Split a header line into unsigned integers.  Returns the count, or -1
 * after reporting a bad token under rule.
 */
static long
hdrints(struct ts_reader *r, const char *s, size_t len, uint64_t **out,
    size_t *cap, const char *rule, const char *what)
{
	const char *p = s, *end = s + len;
	size_t n = 0;
	int e;

	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			*out = ts_xreallocarray(*out, *cap, sizeof(**out));
		}
		if ((e = parse_u64(&p, end, &(*out)[n])) != 0 ||
		    (p < end && *p != ' ' && *p != '\t')) {
			ts_diag(r->d, TS_ERROR, r->file, r->line,
			    (uint64_t)(p - s) + 1, rule, e == 2 ?
			    "number too large in the %s" :
			    "expected an unsigned integer in the %s", what);
			return -1;
		}
		n++;
	}
	return (long)n;
}

static bool
expect_prefix(struct ts_reader *r, const char *s, size_t len,
    const char *prefix, char **val)
{
	size_t pl = strlen(prefix);

	if (s == NULL || len < pl || memcmp(s, prefix, pl) != 0) {
		ts_diag(r->d, TS_ERROR, r->file, r->line, 1, "H2",
		    "expected '%s...' on line %llu", prefix,
		    (unsigned long long)r->line);
		return false;
	}
	*val = ts_xmalloc(len - pl + 1);
	memcpy(*val, s + pl, len - pl);
	(*val)[len - pl] = '\0';
	return true;
}

static void
crlf_warn(struct ts_reader *r, const char *rule)
{
	if (r->warned_crlf)
		return;
	r->warned_crlf = true;
	ts_diag(r->d, TS_WARNING, r->file, r->line, 0, rule,
	    "line ends in \\r\\n; TensorSuite files end lines with \\n");
}

/* Describe the first bytes of a file that is not what we expected. */
static void
badmagic(struct ts_reader *r, const char *s, size_t len)
{
	char shown[40];
	size_t i, n = len < 24 ? len : 24;

	for (i = 0; i < n; i++)
		shown[i] = (s[i] >= ' ' && s[i] < 0x7f) ? s[i] : '?';
	shown[n] = '\0';
	ts_diag(r->d, TS_ERROR, r->file, 1, 1, "H1", "not a TensorSuite %s "
	    "file: line 1 is '%s%s', not '%s'",
	    r->lay.kind == TS_TEXT ? "text" : "binary", shown,
	    len > n ? "..." : "", r->lay.kind == TS_TEXT ? MAGIC_TEXT :
	    MAGIC_BIN);
}

static int	countfields(const char *);

/*
 * A FROSTT file has no header: skip leading comment and blank lines and
 * take the order from the first row, leaving that row unread.
 */
static int
frostt_header(struct ts_reader *r)
{
	struct ts_header *h = &r->h;
	uint64_t off, line;
	size_t len;
	bool crlf;
	char *s;
	int n;

	h->kind = TS_FROSTT;
	for (;;) {
		off = r->off;
		line = r->line;
		if ((s = hdrline(r, &len, &crlf)) == NULL) {
			if (r->failed)
				return -1;
			ts_diag(r->d, TS_ERROR, r->file, 0, 0, "", "no entries: "
			    "the order of a FROSTT file comes from its first "
			    "row");
			return -1;
		}
		n = countfields(s);
		if (n > 0 && s[strspn(s, " \t")] != '#')
			break;
	}
	/* Unread the row (hdrline may have moved the buffer: s is current). */
	r->pos = (size_t)(s - r->buf);
	r->off = off;
	r->line = line;
	if (r->lay.values < 0)
		r->lay.values = 1;
	h->order = n - r->lay.values;
	if (h->order < 1 || h->order > TS_MAXORDER) {
		ts_diag(r->d, TS_ERROR, r->file, line + 1, 1, "", "the first "
		    "row has %d fields: not a tensor of order 1..%d%s", n,
		    TS_MAXORDER, r->lay.values ? " with values" : "");
		return -1;
	}
	h->bytes = off;
	h->lines = line;
	return 0;
}

static int
read_header(struct ts_reader *r)
{
	struct ts_header *h = &r->h;
	uint64_t *v = NULL;
	size_t len, vcap = 0;
	bool crlf;
	char *s;
	long n;
	int i;

	if (r->lay.kind == TS_FROSTT)
		return frostt_header(r);
	h->kind = r->lay.kind;
	s = hdrline(r, &len, &crlf);
	if (s == NULL) {
		if (!r->failed)
			ts_diag(r->d, TS_ERROR, r->file, 1, 0, "H1",
			    "empty file; expected '%s'",
			    r->lay.kind == TS_TEXT ? MAGIC_TEXT : MAGIC_BIN);
		return -1;
	}
	{
		bool istext = len == sizeof(MAGIC_TEXT) - 1 &&
		    memcmp(s, MAGIC_TEXT, len) == 0;
		bool isbin = len == sizeof(MAGIC_BIN) - 1 &&
		    memcmp(s, MAGIC_BIN, len) == 0;

		if ((istext && r->lay.kind == TS_BINARY) ||
		    (isbin && r->lay.kind == TS_TEXT)) {
			ts_diag(r->d, TS_ERROR, r->file, 1, 1, "X1",
			    "this is a %s data file but is used as the %s "
			    "file", istext ? "text" : "binary",
			    istext ? "binary" : "text");
			return -1;
		}
		if (!istext && !isbin) {
			badmagic(r, s, len);
			return -1;
		}
	}
	s = hdrline(r, &len, &crlf);
	if (!expect_prefix(r, s, len, "% version: ", &h->version))
		return -1;
	s = hdrline(r, &len, &crlf);
	if (!expect_prefix(r, s, len, "% name: ", &h->name))
		return -1;
	while ((s = hdrline(r, &len, &crlf)) != NULL && len > 0 &&
	    s[0] == '%')
		ts_diag(r->d, TS_WARNING, r->file, r->line, 1, "H2",
		    "extra header line skipped (the reference reader "
		    "rejects it)");
	if (s == NULL) {
		ts_diag(r->d, TS_ERROR, r->file, r->line + 1, 0, "H3",
		    "file ends before the size line");
		return -1;
	}
	if ((n = hdrints(r, s, len, &v, &vcap, "H3", "size line")) < 0)
		goto fail;
	if (n < 3 || v[0] < 1 || v[0] > TS_MAXORDER ||
	    (uint64_t)n != v[0] + 2) {
		ts_diag(r->d, TS_ERROR, r->file, r->line, 1, "H3",
		    "the size line must be 'order d1 ... dN nnz' with order "
		    "in 1..%d", TS_MAXORDER);
		goto fail;
	}
	h->order = (int)v[0];
	for (i = 0; i < h->order; i++) {
		h->dims[i] = v[i + 1];
		if (h->dims[i] == 0) {
			ts_diag(r->d, TS_ERROR, r->file, r->line, 0, "H3",
			    "dimension %d is 0", i + 1);
			goto fail;
		}
	}
	h->nnz = v[h->order + 1];
	if (r->lay.block) {
		h->block = true;
		s = hdrline(r, &len, &crlf);
		if (s == NULL || (n = hdrints(r, s, len, &v, &vcap, "H4",
		    "block size line")) < 0 || n != h->order + 1) {
			if (s == NULL || n >= 0)
				ts_diag(r->d, TS_ERROR, r->file, r->line, 1,
				    "H4", "expected the block size line "
				    "'g1 ... g%d nnz_block'", h->order);
			goto fail;
		}
		for (i = 0; i < h->order; i++) {
			h->parts[i] = v[i];
			if (v[i] == 0 || v[i] > h->dims[i]) {
				ts_diag(r->d, TS_ERROR, r->file, r->line, 0,
				    "H4", "mode %d has %llu sections; it "
				    "must be in 1..%llu", i + 1,
				    (unsigned long long)v[i],
				    (unsigned long long)h->dims[i]);
				goto fail;
			}
		}
		h->nnz_block = v[h->order];
		for (i = 0; i < h->order; i++) {
			uint64_t sum = 0;
			bool ovf = false;

			s = hdrline(r, &len, &crlf);
			if (s == NULL || (n = hdrints(r, s, len, &v, &vcap,
			    "H4", "partition line")) < 0) {
				if (s == NULL)
					ts_diag(r->d, TS_ERROR, r->file,
					    r->line + 1, 0, "H4", "file ends "
					    "before partition line %d", i + 1);
				goto fail;
			}
			if ((uint64_t)n != h->parts[i]) {
				ts_diag(r->d, TS_ERROR, r->file, r->line, 1,
				    "H4", "partition line %d has %ld extents; "
				    "the block size line says %llu", i + 1, n,
				    (unsigned long long)h->parts[i]);
				goto fail;
			}
			for (long k = 0; k < n; k++) {
				if (v[k] == 0) {
					ts_diag(r->d, TS_ERROR, r->file,
					    r->line, 0, "H4", "section %ld of "
					    "mode %d has extent 0", k + 1,
					    i + 1);
					goto fail;
				}
				ovf |= !ts_add_u64(sum, v[k], &sum);
			}
			if (ovf || sum != h->dims[i]) {
				ts_diag(r->d, TS_ERROR, r->file, r->line, 0,
				    "X5", "the extents of mode %d sum to %s%llu, "
				    "not to its dimension %llu", i + 1,
				    ovf ? "more than " : "",
				    (unsigned long long)sum,
				    (unsigned long long)h->dims[i]);
				goto fail;
			}
			h->extents[i] = ts_xreallocarray(NULL, (size_t)n,
			    sizeof(uint64_t));
			memcpy(h->extents[i], v, (size_t)n * sizeof(uint64_t));
		}
	}
	free(v);
	h->bytes = r->off;
	h->lines = r->line;
	return 0;
fail:
	free(v);
	return -1;
}

static bool
host_little(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

struct ts_reader *
ts_reader_open(struct ts_source *src, const struct ts_layout *lay,
    struct ts_diags *d)
{
	struct ts_reader *r = ts_xcalloc(1, sizeof(*r));

	r->src = src;
	r->d = d;
	r->file = src->name;
	r->lay = *lay;
	r->cap = BUFSZ;
	r->buf = ts_xmalloc(r->cap);
	if (read_header(r) != 0) {
		ts_reader_close(r);
		return NULL;
	}
	r->line++;	/* from now on: the line number of the next row */
	if (r->lay.block)
		r->lay.values = 0;
	if (r->lay.kind == TS_BINARY) {
		if (r->lay.values < 0) {
			ts_diag(d, TS_ERROR, r->file, 0, 0, "E3", "a binary "
			    "file cannot say whether it holds values");
			ts_reader_close(r);
			return NULL;
		}
		r->recsz = (size_t)r->h.order * ts_itype_size(r->lay.itype) +
		    (r->lay.values ? ts_vtype_size(r->lay.vtype) : 0);
		r->swap = (r->lay.endian == TS_END_BIG) == host_little();
	}
	return r;
}

const struct ts_header *
ts_reader_header(const struct ts_reader *r)
{
	return &r->h;
}

const struct ts_layout *
ts_reader_layout(const struct ts_reader *r)
{
	return &r->lay;
}

uint64_t
ts_reader_rows(const struct ts_reader *r)
{
	return r->rows;
}

uint64_t
ts_reader_offset(const struct ts_reader *r)
{
	return r->off;
}

void
ts_reader_close(struct ts_reader *r)
{
	if (r == NULL)
		return;
	ts_header_free(&r->h);
	free(r->buf);
	free(r);
}

/* ---- text entries ---- */



/* Count the fields of a row (for inferring whether values are there). */
static int
countfields(const char *p)
{
	int n = 0;

	for (;;) {
		p = skipws(p);
		if (*p == '\n' || (*p == '\r' && p[1] == '\n'))
			return n;
		n++;
		while (!isdelim(*p))
			p++;
	}
}

static void
rowerr(struct ts_reader *r, const char *row, const char *p, const char *rule,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
rowerr(struct ts_reader *r, const char *row, const char *p, const char *rule,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ts_vdiag(r->d, TS_ERROR, r->file, r->line, (uint64_t)(p - row) + 1,
	    -1, rule, fmt, ap);
	va_end(ap);
}

/* Describe a token for a message, cut short and made printable. */
static const char *
tokstr(const char *p, char *buf, size_t n)
{
	size_t i = 0;

	while (i + 4 < n && !isdelim(p[i])) {
		buf[i] = (p[i] >= ' ' && p[i] < 0x7f) ? p[i] : '?';
		i++;
	}
	if (!isdelim(p[i]))
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

/*
 * Parse one value at p.  Returns the end of the token, or NULL after
 * reporting a problem.
 */
static const char *
parse_value(struct ts_reader *r, const char *row, const char *p,
    const char *end, double *fv, int64_t *iv)
{
	char tb[48];
	const char *q;

	switch (r->lay.vtype) {
	case TS_FLOAT64:
		q = ts_parse_double(p, end, fv);
		if (q == NULL || !isdelim(*q))
			break;
		if (overflowed(*fv, p)) {
			rowerr(r, row, p, "S5", "value '%s' overflows float64",
			    tokstr(p, tb, sizeof(tb)));
			return NULL;
		}
		return q;
	case TS_FLOAT32: {
		float f;

		q = ts_parse_float(p, end, &f);
		if (q == NULL || !isdelim(*q))
			break;
		*fv = f;
		if (overflowed(*fv, p)) {
			rowerr(r, row, p, "S5", "value '%s' overflows float32",
			    tokstr(p, tb, sizeof(tb)));
			return NULL;
		}
		return q;
	}
	case TS_INT32:
	case TS_INT64: {
		bool neg = *p == '-';
		uint64_t u;
		int e;

		q = p + (*p == '-' || *p == '+');
		e = parse_u64(&q, end, &u);
		if (e == 1 || (e == 0 && !isdelim(*q)))
			break;
		if (r->lay.vtype == TS_INT32 ? (e == 2 || u > (neg ?
		    (uint64_t)INT32_MAX + 1 : (uint64_t)INT32_MAX)) : (e == 2 ||
		    u > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))) {
			rowerr(r, row, p, "S5", "value '%s' is out of the "
			    "range of %s", tokstr(p, tb, sizeof(tb)),
			    ts_vtype_name(r->lay.vtype));
			return NULL;
		}
		*iv = neg ? (int64_t)(0 - u) : (int64_t)u;
		return q;
	}
	}
	rowerr(r, row, p, (r->lay.vtype == TS_INT32 ||
	    r->lay.vtype == TS_INT64) ? "S5" : "E2", "value '%s' is not %s",
	    tokstr(p, tb, sizeof(tb)), (r->lay.vtype == TS_INT32 ||
	    r->lay.vtype == TS_INT64) ? "an integer" : "a number");
	return NULL;
}

/*
 * Parse one row starting at p (a complete line, '\n' at its end).  Adds
 * an entry to b when the row is good.  Returns the start of the next
 * line.
 */
static const char *
parse_row(struct ts_reader *r, struct ts_batch *b, const char *p,
    const char *end)
{
	const char *row = p, *s;
	uint64_t *c = b->coords + b->n * (size_t)b->order;
	const uint64_t base = (uint64_t)r->lay.base;
	int k, order = b->order;
	char tb[48];

	p = skipws(p);
	if (*p == '\n' || *p == '#' || (*p == '\r' && p[1] == '\n')) {
		bool blank = *p != '#';

		if (r->lay.kind == TS_FROSTT)
			;	/* FROSTT allows comments anywhere */
		else if (blank ? !r->warned_blank : !r->warned_comment) {
			ts_diag(r->d, TS_WARNING, r->file, r->line, 1, "E1",
			    blank ? "blank line between entries" :
			    "comment line between entries");
			if (blank)
				r->warned_blank = true;
			else
				r->warned_comment = true;
		}
		goto next;
	}
	if (*p == '%' && r->lay.kind != TS_FROSTT) {
		rowerr(r, row, p, "H5", "a header line after the size line%s",
		    r->lay.block ? " and the partition lines" : "");
		goto next;
	}
	r->rows++;
	if (r->lay.values < 0)
		r->lay.values = countfields(p) == order + 1;
	for (k = 0; k < order; k++) {
		uint64_t v;

		s = p;
		v = (uint64_t)(*p - '0');
		if (v > 9) {
			if (*p == '\n' || *p == '\r')
				rowerr(r, row, p, "E1", "row has %d "
				    "coordinates; the tensor has order %d", k,
				    order);
			else
				rowerr(r, row, p, *p == '-' ? "S1" : "E1",
				    "coordinate '%s' is not an unsigned "
				    "integer", tokstr(p, tb, sizeof(tb)));
			goto next;
		}
		p++;
		while ((unsigned)(*p - '0') < 10)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (p - s > 19) {
			const char *q = s;
			uint64_t chk;

			if (parse_u64(&q, p, &chk) != 0) {
				rowerr(r, row, s, "S1", "coordinate '%s' is "
				    "too large", tokstr(s, tb, sizeof(tb)));
				goto next;
			}
		}
		if (!isdelim(*p)) {
			rowerr(r, row, s, "E1", "coordinate '%s' is not an "
			    "unsigned integer", tokstr(s, tb, sizeof(tb)));
			goto next;
		}
		c[k] = v - base;
		p = skipws(p);
	}
	if (r->lay.values) {
		if (*p == '\n' || *p == '\r') {
			rowerr(r, row, p, "S6", "row has no value; "
			    "'values_provided' is true");
			goto next;
		}
		s = parse_value(r, row, p, end, &b->fval[b->n],
		    &b->ival[b->n]);
		if (s == NULL)
			goto next;
		b->vtext[b->n] = p;
		b->vlen[b->n] = (uint32_t)(s - p);
		p = skipws(s);
	}
	if (*p == '\r' && p[1] == '\n') {
		crlf_warn(r, "E1");
		p++;
	}
	if (*p != '\n') {
		if (!r->lay.values && countfields(row) == order + 1)
			rowerr(r, row, p, "S6", "row has a value; "
			    "'values_provided' is false");
		else
			rowerr(r, row, p, "E1", "row has %d fields; expected "
			    "%d", countfields(row), order + (r->lay.values ?
			    1 : 0));
		goto next;
	}
	b->loc[b->n] = r->line;
	b->row[b->n] = row;
	b->n++;
next:
	r->line++;
	p = memchr(p, '\n', (size_t)(end - p));
	return p + 1;
}


static long
next_text(struct ts_reader *r, struct ts_batch *b)
{
	const char *p, *lim;
	char *nl;

	for (;;) {
		/* The last complete line in the buffer bounds the parse. */
		nl = lastnl(r->buf + r->pos, r->len - r->pos);
		if (nl != NULL)
			break;
		if (r->eof || r->failed) {
			if (r->pos == r->len || r->failed)
				return r->failed ? -1 : 0;
			/* A last row without a final newline. */
			r->buf[r->len++] = '\n';
			continue;
		}
		if (fill(r, (size_t)1 << 34) < 0)
			return -1;
	}
	p = r->buf + r->pos;
	lim = nl + 1;
	while (b->n < b->cap && p < lim)
		p = parse_row(r, b, p, lim);
	r->off += (uint64_t)(p - (r->buf + r->pos));
	r->pos = (size_t)(p - r->buf);
	return (long)b->n;
}

/* ---- binary records ---- */

static inline uint64_t
ld_u32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t
ld_u64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static long
next_binary(struct ts_reader *r, struct ts_batch *b)
{
	const size_t isz = ts_itype_size(r->lay.itype);
	const uint64_t base = (uint64_t)r->lay.base;
	const int order = b->order;
	size_t avail, i, n;

	while (r->len - r->pos < r->recsz && !r->eof && !r->failed)
		if (fill(r, BUFSZ) < 0)
			return -1;
	if (r->failed)
		return -1;
	avail = (r->len - r->pos) / r->recsz;
	if (avail == 0) {
		if (r->len > r->pos) {
			ts_diag_off(r->d, TS_ERROR, r->file, (int64_t)r->off,
			    "X8", "file ends inside a record (%zu of %zu "
			    "bytes)", r->len - r->pos, r->recsz);
			r->off += r->len - r->pos;
			r->pos = r->len;
		}
		return 0;
	}
	n = avail < b->cap - b->n ? avail : b->cap - b->n;
	for (i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)r->buf +
		    r->pos + i * r->recsz;
		uint64_t *c = b->coords + (b->n + i) * (size_t)order;
		int k;

		if (isz == 8)
			for (k = 0; k < order; k++)
				c[k] = ld_u64(p + 8 * k, r->swap) - base;
		else
			for (k = 0; k < order; k++)
				c[k] = ld_u32(p + 4 * k, r->swap) - base;
		p += (size_t)order * isz;
		if (r->lay.values) {
			switch (r->lay.vtype) {
			case TS_FLOAT32: {
				uint32_t u = (uint32_t)ld_u32(p, r->swap);
				float f;

				memcpy(&f, &u, 4);
				b->fval[b->n + i] = f;
				break;
			}
			case TS_FLOAT64: {
				uint64_t u = ld_u64(p, r->swap);

				memcpy(&b->fval[b->n + i], &u, 8);
				break;
			}
			case TS_INT32:
				b->ival[b->n + i] = (int32_t)(uint32_t)
				    ld_u32(p, r->swap);
				break;
			case TS_INT64:
				b->ival[b->n + i] = (int64_t)ld_u64(p,
				    r->swap);
				break;
			}
		}
		b->loc[b->n + i] = r->off + i * r->recsz;
		b->row[b->n + i] = NULL;
	}
	b->n += n;
	r->pos += n * r->recsz;
	r->off += n * r->recsz;
	r->rows += n;
	return (long)b->n;
}

long
ts_reader_next(struct ts_reader *r, struct ts_batch *b)
{
	long rv;

	b->n = 0;
	b->first = r->rows;
	b->has_values = r->lay.values > 0;
	b->is_int = r->lay.vtype == TS_INT32 || r->lay.vtype == TS_INT64;
	rv = r->lay.kind == TS_BINARY ? next_binary(r, b) : next_text(r, b);
	b->has_values = r->lay.values > 0;
	return rv;
}

uint64_t
ts_reader_col(const struct ts_reader *r, const struct ts_batch *b, size_t i,
    int k)
{
	const char *p;
	int f;

	(void)r;
	if (b->row == NULL || b->row[i] == NULL)
		return 0;
	p = skipws(b->row[i]);
	for (f = 0; f < k; f++) {
		while (!isdelim(*p))
			p++;
		p = skipws(p);
	}
	return (uint64_t)(p - b->row[i]) + 1;
}
