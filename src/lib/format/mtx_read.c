/*
 * mtx_read.c - the Matrix Market decoder: coordinate and array
 * matrices (real, integer, pattern; general, symmetric, skew-symmetric).
 *
 * The reader works like the TensorSuite text decoder (tns_text.c): large reads into one reused buffer,
 * only complete lines handed to the line parsers (so a '\n' sentinel ends
 * every scan), hand-written integer parsing, values from
 * ts_parse_double(), nothing allocated per entry or from a number read
 * in the file.
 *
 * What is accepted, and why.  The NIST definition is strict; files in
 * the wild are not.  The two readers most of them meet are
 * fast_matrix_market ("fmm") and scipy.io.mmread (which is fmm inside
 * since SciPy 1.12), so we accept what both accept when nothing has to
 * be guessed, and refuse everything else with its line and column:
 *
 *  - The banner "%%MatrixMarket matrix FORMAT FIELD SYMMETRY" with the
 *    four keywords in any letter case, as fmm.  Spaces or TABs before
 *    the banner and the one-percent form "%MatrixMarket" are accepted:
 *    fmm's "permissive" tests read both, some packages write them, and
 *    nothing else can be meant.  The word MatrixMarket itself is matched
 *    exactly (fmm does the same).  A file without a banner is refused,
 *    not read as "coordinate real general": its field cannot be known.
 *    fmm's non-standard fields "double" and "unsigned-integer" are not
 *    Matrix Market and are refused like any unknown keyword.
 *  - Comment lines (first non-blank character '%'; any bytes, TABs
 *    included, after it) and blank lines before the size line, and also
 *    between entries: fmm skips blank lines anywhere, LAGraph and SciPy's
 *    older reader skip comment lines in the body too, and neither can be
 *    mistaken for an entry.
 *  - Lines end in "\n" or "\r\n"; the last line may lack its end.  A
 *    bare "\r" line end (classic Mac OS) is refused with a message that
 *    says so: fmm reads such a file as one long line and fails too, and
 *    splitting lines on '\r' as well would put a second test in the
 *    inner loop for a form nobody writes any more.
 *  - A symmetric or skew-symmetric file should store the lower triangle,
 *    but an entry above the diagonal (row < column) is accepted and
 *    mirrored like any other off-diagonal entry, as scipy.io.mmread (and
 *    fmm) do: each off-diagonal entry stands for itself and its mirror.
 *    A diagonal entry of a skew-symmetric file must be zero.
 *  - Real values follow ts_parse_double(): digits with or without a
 *    point ("-.27", "12."), E exponents ("0.53309688E+00"), and the words
 *    "inf" and "nan" (LAGraph writes them; fmm reads them).  Fortran D
 *    exponents are refused with a message naming them.  A finite literal
 *    beyond the range of a double ("1E310") is refused rather than read
 *    as infinity, as TensorSuite's own reader does (rule S5).
 *  - Integer values must fit in int64; a skew-symmetric mirror of
 *    INT64_MIN cannot be stored and is refused.
 *  - Zero rows or columns are refused at the size line: TensorSuite
 *    dimensions are positive, so there is no tensor to make of them.
 *    Duplicate entries are passed on for the caller's duplicates policy.
 *  - A file whose first line is a size line of three numbers and no
 *    banner (LAGraph's "noheader" files) is read as "coordinate real
 *    general", with a note; its entry count must match as any file's.
 *    Any other first line without a banner is refused.
 *  - A line may be up to 16 MiB long.  The first problem ends the read
 *    (one diagnostic): a refused file is refused whole, and entries
 *    handed out before the problem was reached are not to be used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "format/mtx.h"
#include "num/digits.h"
#include "util/xalloc.h"

#define RBUFSZ		(256u << 10)	/* fits in L2: parsed while hot */
#define MAXLINE		(16u << 20)	/* longest line we accept */

static const char BANNER[] = "'%%MatrixMarket matrix coordinate|array "
    "real|integer|pattern general|symmetric|skew-symmetric'";

struct ts_mtx_reader {
	struct ts_diags		*d;
	const char		*file;
	struct ts_mtx_info	 info;
	struct ts_lines		 L;	/* input; [pos, len) is unread */
	/*
	 * Skew-symmetric files: the negated value texts of this batch's
	 * mirrors.  Each takes at most the bytes of its line, so cap bytes
	 * (the size of buf) always suffice for one batch.
	 */
	char			*neg;
	size_t			 nlen;
	bool			 done;
	bool			 nobanner;	/* read as coordinate real */
	uint64_t		 seen;	/* stored entries read */
	uint64_t		 emitted;	/* entries handed out */
	uint64_t		 arow, acol;	/* array: the next position */
	/*
	 * A mirror that found the batch full waits here for the next call.
	 * Its text is copied (the buffer moves); two copies alternate, as
	 * the next batch may both hand out one and hold another.
	 */
	bool			 pend;
	uint64_t		 prow, pcol, pline;
	double			 pf;
	int64_t			 pi;
	char			*ptext[2];
	size_t			 plen, pcap[2];
	int			 pcur;
};

static void	rerr(struct ts_mtx_reader *, uint64_t, uint64_t,
		    const char *, ...) __attribute__((format(printf, 4, 5)));

/* Report an error at (line, col) of the file being read. */
static void
rerr(struct ts_mtx_reader *r, uint64_t line, uint64_t col, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	ts_vdiag(r->d, TS_SEV_ERROR, r->file, line, col, -1, TS_RULE_NONE, fmt,
	    ap);
	va_end(ap);
}

/* Read more input; the negated texts' buffer follows the input's size.
 * Returns the bytes added, 0 at the end, -1 on error (reported). */
static long
fill(struct ts_mtx_reader *r)
{
	size_t cap = r->L.cap;
	long n = ts_lines_fill(&r->L, MAXLINE);

	if (r->neg != NULL && r->L.cap != cap)
		r->neg = ts_xrealloc(r->neg, r->L.cap);
	return n;
}

/* The next header line, without its line end ("\n" or "\r\n"). */
static char *
hdrline(struct ts_mtx_reader *r, size_t *lenp)
{
	size_t cap = r->L.cap;
	char *s = ts_lines_get(&r->L, lenp, NULL, MAXLINE);

	if (r->neg != NULL && r->L.cap != cap)
		r->neg = ts_xrealloc(r->neg, r->L.cap);
	return s;
}

static inline bool
issp(char c)
{
	return c == ' ' || c == '\t';
}




/* A token for a message: at most 32 bytes of it, made printable. */
static const char *
show(const char *s, size_t n, char *buf)
{
	size_t i, k = n < 32 ? n : 32;

	for (i = 0; i < k; i++)
		buf[i] = (s[i] >= ' ' && s[i] < 0x7f) ? s[i] : '?';
	if (k < n)
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

/* The same for a token in a body line, which ends at a delimiter. */
static const char *
showtok(const char *p, char *buf)
{
	size_t n = 0;

	while (n < 33 && !isdelim(p[n]))
		n++;
	return show(p, n, buf);
}

/* Does s[0..n) spell the lower-case keyword kw, in any letter case? */
static bool
keyeq(const char *s, size_t n, const char *kw)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (kw[i] == '\0' || c != kw[i])
			return false;
	}
	return kw[n] == '\0';
}

/* Is a bare '\r' (one not followed by '\n') in the first line? */
static const char *
bare_cr(const char *s, size_t len)
{
	const char *nl = memchr(s, '\n', len);
	const char *end = nl != NULL ? nl : s + len;
	const char *cr = memchr(s, '\r', (size_t)(end - s));

	/* A '\r' at the very end of what was read is undecided: skip it. */
	return cr != NULL && cr + 1 < end ? cr : NULL;
}

/* Is s[0..len) three unsigned integers, as a coordinate size line? */
static bool
size_line(const char *s, size_t len)
{
	const char *p = s, *e = s + len;
	uint64_t x;
	int n = 0;

	for (;;) {
		while (p < e && issp(*p))
			p++;
		if (p == e)
			return n == 3;
		if (parse_u64(&p, e, &x) != 0 || (p < e && !issp(*p)))
			return false;
		n++;
	}
}

static int
read_banner(struct ts_mtx_reader *r)
{
	static const char *const what[4] = { "object", "format", "field",
	    "symmetry" };
	struct ts_mtx_info *in = &r->info;
	const char *s, *p, *e, *cr, *t[5];
	size_t len, tn[5];
	char sh[48];
	int nt = 0;

	/* Look at the first bytes before asking for a whole line. */
	while (r->L.len < 64 && !r->L.eof)
		if (fill(r) < 0)
			return -1;
	if (r->L.len >= 2 && (unsigned char)r->L.buf[0] == 0x1f &&
	    (unsigned char)r->L.buf[1] == 0x8b) {
		rerr(r, 1, 1, "gzip-compressed data: decompress it first "
		    "(zcat)");
		return -1;
	}
	if ((cr = bare_cr(r->L.buf, r->L.len)) != NULL) {
		rerr(r, 1, (uint64_t)(cr - r->L.buf) + 1, "line 1 ends in a "
		    "bare carriage return: lines must end in \\n or \\r\\n "
		    "(convert with tr '\\r' '\\n')");
		return -1;
	}
	if ((s = hdrline(r, &len)) == NULL) {
		if (!r->L.failed)
			rerr(r, 1, 0, "empty file; expected the banner %s",
			    BANNER);
		return -1;
	}
	e = s + len;
	for (p = s; p < e && issp(*p); p++)
		continue;
	if ((size_t)(e - p) >= 14 && memcmp(p, "%%MatrixMarket", 14) == 0)
		p += 14;
	else if ((size_t)(e - p) >= 13 && memcmp(p, "%MatrixMarket", 13) == 0)
		p += 13;	/* one '%': some packages write it */
	else if (size_line(s, len)) {
		/*
		 * No banner, but a size line: a coordinate real general
		 * matrix, as LAGraph writes them, if the rows that follow
		 * are as many as it says (the entry count is checked as
		 * for any file).  The size line is read again below.
		 */
		in->coordinate = true;
		in->field = TS_MTX_REAL;
		in->sym = TS_MTX_GENERAL;
		r->nobanner = true;
		r->L.pos = (size_t)(s - r->L.buf);
		r->L.off = 0;
		r->L.line = 0;
		ts_diag(r->d, TS_SEV_NOTE, r->file, 1, 1, TS_RULE_NONE, "no "
		    "%%%%MatrixMarket banner: line 1 is read as the size line "
		    "of a 'coordinate real general' matrix (--from frostt "
		    "reads the file as FROSTT)");
		return 0;
	} else {
		rerr(r, 1, (uint64_t)(p - s) + 1, "%s: line 1 is '%s'; a "
		    "Matrix Market file starts with the banner %s%s",
		    p < e && (unsigned)(*p - '0') < 10 ? "no banner" :
		    "not a Matrix Market file", show(s, len, sh), BANNER,
		    p < e && (unsigned)(*p - '0') < 10 ? " (--from frostt "
		    "reads the file as FROSTT)" : "");
		return -1;
	}
	if (p < e && !issp(*p)) {
		rerr(r, 1, 1, "not a Matrix Market file: line 1 is '%s'",
		    show(s, len, sh));
		return -1;
	}
	for (;;) {
		while (p < e && issp(*p))
			p++;
		if (p == e || nt == 5)
			break;
		t[nt] = p;
		while (p < e && !issp(*p))
			p++;
		tn[nt] = (size_t)(p - t[nt]);
		nt++;
	}
	if (nt < 4) {
		rerr(r, 1, len + 1, "the banner ends before the %s; expected "
		    "%s", what[nt], BANNER);
		return -1;
	}
	if (keyeq(t[0], tn[0], "vector")) {
		rerr(r, 1, (uint64_t)(t[0] - s) + 1, "'vector' objects are "
		    "not supported: TensorSuite imports Matrix Market "
		    "matrices (order 2); write the vector as an N x 1 matrix");
		return -1;
	}
	if (!keyeq(t[0], tn[0], "matrix")) {
		rerr(r, 1, (uint64_t)(t[0] - s) + 1, "unknown object '%s' in "
		    "the banner; expected 'matrix'", show(t[0], tn[0], sh));
		return -1;
	}
	if (keyeq(t[1], tn[1], "coordinate"))
		in->coordinate = true;
	else if (keyeq(t[1], tn[1], "array"))
		in->coordinate = false;
	else {
		rerr(r, 1, (uint64_t)(t[1] - s) + 1, "unknown format '%s' in "
		    "the banner; expected 'coordinate' or 'array'",
		    show(t[1], tn[1], sh));
		return -1;
	}
	if (keyeq(t[2], tn[2], "real"))
		in->field = TS_MTX_REAL;
	else if (keyeq(t[2], tn[2], "integer"))
		in->field = TS_MTX_INTEGER;
	else if (keyeq(t[2], tn[2], "pattern"))
		in->field = TS_MTX_PATTERN;
	else if (keyeq(t[2], tn[2], "complex")) {
		rerr(r, 1, (uint64_t)(t[2] - s) + 1, "complex matrices are "
		    "not supported: TensorSuite has no complex value type");
		return -1;
	} else {
		rerr(r, 1, (uint64_t)(t[2] - s) + 1, "unknown field '%s' in "
		    "the banner; expected real, integer or pattern",
		    show(t[2], tn[2], sh));
		return -1;
	}
	if (keyeq(t[3], tn[3], "general"))
		in->sym = TS_MTX_GENERAL;
	else if (keyeq(t[3], tn[3], "symmetric"))
		in->sym = TS_MTX_SYMMETRIC;
	else if (keyeq(t[3], tn[3], "skew-symmetric"))
		in->sym = TS_MTX_SKEW;
	else if (keyeq(t[3], tn[3], "hermitian")) {
		rerr(r, 1, (uint64_t)(t[3] - s) + 1, "hermitian matrices are "
		    "not supported: TensorSuite has no complex value type "
		    "(a real hermitian matrix is symmetric: say 'symmetric')");
		return -1;
	} else {
		rerr(r, 1, (uint64_t)(t[3] - s) + 1, "unknown symmetry '%s' "
		    "in the banner; expected general, symmetric or "
		    "skew-symmetric", show(t[3], tn[3], sh));
		return -1;
	}
	if (nt > 4) {
		rerr(r, 1, (uint64_t)(t[4] - s) + 1, "unexpected '%s' after "
		    "the symmetry in the banner", show(t[4], tn[4], sh));
		return -1;
	}
	if (!in->coordinate && in->field == TS_MTX_PATTERN) {
		rerr(r, 1, (uint64_t)(t[2] - s) + 1, "'array pattern' is not "
		    "a Matrix Market combination: an array lists values");
		return -1;
	}
	if (in->field == TS_MTX_PATTERN && in->sym == TS_MTX_SKEW) {
		rerr(r, 1, (uint64_t)(t[3] - s) + 1, "'pattern "
		    "skew-symmetric' is not a Matrix Market combination: a "
		    "pattern has no values to negate");
		return -1;
	}
	return 0;
}

/* The size line, past the comment lines, which h keeps (when not
 * NULL). */
static int
read_size(struct ts_mtx_reader *r, struct ts_header *h)
{
	struct ts_mtx_info *in = &r->info;
	const char *s, *p, *e, *q;
	uint64_t v[3] = { 0, 0, 0 }, col[3] = { 0, 0, 0 }, x;
	size_t len;
	int n = 0, want = in->coordinate ? 3 : 2, rc;
	char sh[48];

	for (;;) {
		if ((s = hdrline(r, &len)) == NULL) {
			if (!r->L.failed)
				rerr(r, r->L.line, 0, "the file ends before the "
				    "size line");
			return -1;
		}
		e = s + len;
		for (p = s; p < e && issp(*p); p++)
			continue;
		if (p < e && *p != '%')
			break;	/* not blank, not a comment */
		if (p < e && h != NULL)
			ts_header_comment(h, s, len);
	}
	while (p < e) {
		if (issp(*p)) {
			p++;
			continue;
		}
		q = p;
		rc = parse_u64(&q, e, &x);
		if (rc != 0 || (q < e && !issp(*q))) {
			for (q = p; q < e && !issp(*q); q++)
				continue;
			rerr(r, r->L.line, (uint64_t)(p - s) + 1, "'%s' in the "
			    "size line %s", show(p, (size_t)(q - p), sh),
			    rc == 2 ? "does not fit in 64 bits" : *p == '-' ?
			    "is negative" : "is not an unsigned integer");
			return -1;
		}
		if (n < want) {
			v[n] = x;
			col[n] = (uint64_t)(p - s) + 1;
		}
		n++;
		p = q;
	}
	if (n != want) {
		rerr(r, r->L.line, 1, "the size line of a%s matrix is '%s'; "
		    "this one has %d number%s", in->coordinate ?
		    " coordinate" : "n array", in->coordinate ?
		    "rows columns entries" : "rows columns", n,
		    n == 1 ? "" : "s");
		return -1;
	}
	in->rows = v[0];
	in->cols = v[1];
	for (n = 0; n < 3; n++)
		if (n < 2 && v[n] == 0) {
			/* Matrix Market allows it; a tensor cannot be. */
			rerr(r, r->L.line, col[n], "dimension %d is 0; "
			    "TensorSuite dimensions are positive", n + 1);
			return -1;
		} else if (v[n] > TS_DIM_MAX) {
			rerr(r, r->L.line, col[n], "%s %llu is beyond 2^63-1, "
			    "the largest TensorSuite metadata can state", n < 2 ?
			    "dimension" : "count", (unsigned long long)v[n]);
			return -1;
		}
	if (in->sym != TS_MTX_GENERAL && in->rows != in->cols) {
		rerr(r, r->L.line, 1, "a %s matrix must be square; the size "
		    "line says %llu x %llu", in->sym == TS_MTX_SYMMETRIC ?
		    "symmetric" : "skew-symmetric",
		    (unsigned long long)in->rows,
		    (unsigned long long)in->cols);
		return -1;
	}
	if (in->coordinate)
		in->stored = v[2];
	else {
		uint64_t all;

		if (!ts_mul_u64(in->rows, in->cols, &all)) {
			rerr(r, r->L.line, 1, "an array of %llu x %llu has more "
			    "than 2^64 values", (unsigned long long)in->rows,
			    (unsigned long long)in->cols);
			return -1;
		}
		/* all = n*n < 2^64 here, so all + n cannot wrap. */
		if (in->sym == TS_MTX_GENERAL)
			in->stored = all;
		else if (in->sym == TS_MTX_SYMMETRIC)
			in->stored = (all + in->rows) / 2;
		else
			in->stored = (all - in->rows) / 2;
		r->acol = 0;
		r->arow = in->sym == TS_MTX_SKEW ? 1 : 0;
	}
	in->header_lines = r->L.line;
	return 0;
}

static int
mtx_open(struct ts_decoder *dec)
{
	struct ts_mtx_reader *r = ts_xcalloc(1, sizeof(*r));
	struct ts_header *h = &dec->h;

	dec->state = r;
	r->d = dec->d;
	r->file = dec->file;
	ts_lines_init(&r->L, dec->src, dec->d, RBUFSZ);
	r->L.file = dec->file;
	if (read_banner(r) != 0 || read_size(r, &dec->h) != 0)
		return -1;
	if (r->info.sym == TS_MTX_SKEW && r->info.field != TS_MTX_PATTERN)
		r->neg = ts_xmalloc(r->L.cap);
	/* What the file holds, said as any decoder says it. */
	h->kind = TS_KIND_MTX;
	h->order = 2;
	h->dims[0] = r->info.rows;
	h->dims[1] = r->info.cols;
	h->nnz = r->info.sym == TS_MTX_GENERAL ? r->info.stored : 0;
	h->nnz_known = r->info.sym == TS_MTX_GENERAL;
	h->dims_known = true;
	h->base = 1;
	h->lines = r->info.header_lines;
	h->bytes = r->L.off;
	dec->lay.kind = TS_KIND_MTX;
	dec->lay.block = false;
	dec->lay.values = r->info.field != TS_MTX_PATTERN;
	dec->lay.vtype = r->info.field == TS_MTX_INTEGER ? TS_VTYPE_INT64 :
	    TS_VTYPE_FLOAT64;
	dec->lay.base = 1;
	dec->off = r->L.off;
	return 0;
}

const struct ts_mtx_info *
ts_mtx_info(const struct ts_decoder *dec)
{
	const struct ts_mtx_reader *r = dec->state;

	return dec->ops == &ts_mtx_decoder ? &r->info : NULL;
}

static void
mtx_close(struct ts_decoder *dec)
{
	struct ts_mtx_reader *r = dec->state;

	if (r == NULL)
		return;
	ts_lines_free(&r->L);
	free(r->neg);
	free(r->ptext[0]);
	free(r->ptext[1]);
	free(r);
	dec->state = NULL;
}

/* ---- entries ---- */

static void	lerr(struct ts_mtx_reader *, const char *, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));

/* Report an error at p in the body line that starts at row. */
static void
lerr(struct ts_mtx_reader *r, const char *row, const char *p,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ts_vdiag(r->d, TS_SEV_ERROR, r->file, r->L.line + 1,
	    (uint64_t)(p - row) + 1, -1, TS_RULE_NONE, fmt, ap);
	va_end(ap);
}

/*
 * Report what is wrong with the index s[0..p) that the fast path of
 * index1() did not take, unless it is only a long run of leading zeros.
 * Kept out of line so the fast path stays small.
 */
static __attribute__((noinline)) bool
index_bad(struct ts_mtx_reader *r, const char *row, const char *s,
    const char *p, uint64_t v, uint64_t max, const char *what)
{
	char tb[48];

	if (p == s) {
		if (*p == '\n' || *p == '\r')
			lerr(r, row, p, "the line ends before the %s index",
			    what);
		else
			lerr(r, row, p, "%s index '%s' is not %s", what,
			    showtok(p, tb), *p == '-' ? "positive (indices "
			    "start at 1)" : "an unsigned integer");
		return true;
	}
	if (p - s > 19) {	/* may have wrapped: check properly */
		const char *q = s;
		uint64_t chk;

		if (parse_u64(&q, p, &chk) != 0) {
			lerr(r, row, s, "%s index '%s' does not fit in 64 "
			    "bits", what, showtok(s, tb));
			return true;
		}
	}
	if (!isdelim(*p)) {
		lerr(r, row, s, "%s index '%s' is not an unsigned integer",
		    what, showtok(s, tb));
		return true;
	}
	if (v == 0 || v > max) {
		lerr(r, row, s, "%s index %llu is out of range 1..%llu%s",
		    what, (unsigned long long)v, (unsigned long long)max,
		    v == 0 ? " (indices start at 1)" : "");
		return true;
	}
	return false;
}

/*
 * Parse a 1-based index at p that must be in 1..max; store it 0-based.
 * Returns the end of the token, or NULL after reporting.
 */
static inline const char *
index1(struct ts_mtx_reader *r, const char *row, const char *p,
    uint64_t max, const char *what, uint64_t *out)
{
	const char *s = p;
	uint64_t v = 0;

	while ((unsigned)(*p - '0') < 10)
		v = v * 10 + (uint64_t)(*p++ - '0');
	/* v - 1 >= max also catches v == 0, which wraps around. */
	if ((p == s || p - s > 19 || !isdelim(*p) || v - 1 >= max) &&
	    index_bad(r, row, s, p, v, max, what))
		return NULL;
	*out = v - 1;
	return p;
}

/* Report why the real value at p was not taken; q is where the parse
 * stopped (NULL: no number at all). */
static __attribute__((noinline)) void
real_bad(struct ts_mtx_reader *r, const char *row, const char *p,
    const char *q)
{
	char tb[48];

	if (*p == '\n' || *p == '\r')
		lerr(r, row, p, "the line ends before the value");
	else if (q != NULL && isdelim(*q))
		lerr(r, row, p, "value '%s' is beyond the range of a double",
		    showtok(p, tb));
	else if (q != NULL && (*q == 'D' || *q == 'd'))
		lerr(r, row, p, "value '%s' has a Fortran D exponent; write E "
		    "instead", showtok(p, tb));
	else
		lerr(r, row, p, "value '%s' is not a number", showtok(p, tb));
}

/*
 * Parse the integer value at p: int64, with an optional sign.  Returns
 * the end of the token, or NULL after reporting.
 */
static const char *
int_value(struct ts_mtx_reader *r, const char *row, const char *p,
    const char *lim, int64_t *iv)
{
	bool neg = *p == '-';
	const char *q = p + (*p == '-' || *p == '+');
	uint64_t u = 0;
	char tb[48];
	int e;

	if (*p == '\n' || *p == '\r') {
		lerr(r, row, p, "the line ends before the value");
		return NULL;
	}
	e = parse_u64(&q, lim, &u);
	if (e == 1 || (e == 0 && !isdelim(*q))) {
		lerr(r, row, p, "value '%s' is not an integer", showtok(p, tb));
		return NULL;
	}
	if (e == 2 || u > (uint64_t)INT64_MAX + neg) {
		lerr(r, row, p, "value '%s' is beyond the range of a 64-bit "
		    "integer", showtok(p, tb));
		return NULL;
	}
	*iv = !neg ? (int64_t)u : u > (uint64_t)INT64_MAX ? INT64_MIN :
	    -(int64_t)u;
	return q;
}

/*
 * Parse the value at p (a real or an integer, by the field).  Returns
 * the end of the token, or NULL after reporting.
 */
static inline const char *
value(struct ts_mtx_reader *r, const char *row, const char *p,
    const char *lim, double *fv, int64_t *iv)
{
	const char *q;

	if (r->info.field != TS_MTX_REAL)
		return int_value(r, row, p, lim, iv);
	q = ts_parse_double(p, lim, fv);
	if (q != NULL && isdelim(*q) && !overflowed(*fv, p))
		return q;
	real_bad(r, row, p, q);
	return NULL;
}

/* At the end of an entry: only "\n" or "\r\n" may follow. */
static bool
endofline(struct ts_mtx_reader *r, const char *row, const char **pp)
{
	const char *p = *pp;
	char tb[48];

	if (*p == '\r' && p[1] == '\n')
		p++;
	if (*p == '\n') {
		*pp = p;
		return true;
	}
	if (*p == '\r')
		lerr(r, row, p, "a carriage return that does not end the "
		    "line: bare \\r line ends are not supported");
	else
		lerr(r, row, p, "unexpected '%s': an entry line is '%s'",
		    showtok(p, tb), !r->info.coordinate ? "value" :
		    r->info.field == TS_MTX_PATTERN ? "row column" :
		    "row column value");
	return false;
}

/*
 * Put an entry in b, or keep it for the next call when b is full (only
 * a mirror can find b full: a line is parsed only when there is room).
 */
static inline void
put(struct ts_mtx_reader *r, struct ts_batch *b, uint64_t i, uint64_t j,
    double f, int64_t v, const char *t, size_t tl, uint64_t line)
{
	size_t k = b->n;

	if (k == b->cap) {
		int c = r->pcur ^ 1;	/* the copy not handed out */

		if (tl > r->pcap[c]) {
			r->pcap[c] = tl;
			r->ptext[c] = ts_xrealloc(r->ptext[c], tl);
		}
		if (tl > 0)
			memcpy(r->ptext[c], t, tl);
		r->pcur = c;
		r->pend = true;
		r->prow = i;
		r->pcol = j;
		r->pf = f;
		r->pi = v;
		r->plen = tl;
		r->pline = line;
		return;
	}
	b->coords[2 * k] = i;
	b->coords[2 * k + 1] = j;
	if (r->info.field == TS_MTX_REAL)
		b->fval[k] = f;
	else if (r->info.field == TS_MTX_INTEGER)
		b->ival[k] = v;
	b->loc[k] = line;
	if (b->row != NULL)
		b->row[k] = NULL;	/* the fields of a mirror are swapped */
	if (b->vtext != NULL) {
		b->vtext[k] = t;
		b->vlen[k] = (uint32_t)tl;
	}
	b->n++;
}

/* The text of -v for a skew-symmetric mirror of the value t[0..*tl). */
static const char *
negtext(struct ts_mtx_reader *r, const char *t, size_t *tl, bool zero_int)
{
	char *s;

	if (*t == '-') {
		(*tl)--;
		return t + 1;
	}
	if (zero_int)
		return t;	/* not "-0" */
	if (*t == '+') {
		t++;
		(*tl)--;
	}
	/* At most the bytes of its line: neg cannot overflow (see above). */
	s = r->neg + r->nlen;
	s[0] = '-';
	memcpy(s + 1, t, *tl);
	(*tl)++;
	r->nlen += *tl;
	return s;
}

/* Store entry (i, j) and, off the diagonal of a symmetric file, its
 * mirror.  Returns -1 after reporting when the mirror cannot be stored. */
static inline int
emit(struct ts_mtx_reader *r, struct ts_batch *b, const char *row,
    const char *vp, uint64_t i, uint64_t j, double f, int64_t v, size_t tl)
{
	uint64_t line = r->L.line + 1;

	put(r, b, i, j, f, v, vp, tl, line);
	if (r->info.sym == TS_MTX_GENERAL || i == j)
		return 0;
	if (r->info.sym == TS_MTX_SKEW) {
		if (r->info.field == TS_MTX_INTEGER && v == INT64_MIN) {
			lerr(r, row, vp, "value %lld has no negation in 64 "
			    "bits: its skew-symmetric mirror cannot be "
			    "stored", (long long)v);
			return -1;
		}
		vp = negtext(r, vp, &tl, r->info.field == TS_MTX_INTEGER &&
		    v == 0);
		f = -f;
		v = -v;
	}
	put(r, b, j, i, f, v, vp, tl, line);
	return 0;
}


/* One line of a coordinate file.  Returns the next line, or NULL. */
static const char *
coord_line(struct ts_mtx_reader *r, struct ts_batch *b, const char *p,
    const char *lim)
{
	const struct ts_mtx_info *in = &r->info;
	const char *row = p, *vp = NULL;
	uint64_t i, j;
	double f = 0;
	int64_t v = 0;
	size_t tl = 0;
	char tb[48];

	p = skipws(p);
	if (*p == '\n' || *p == '%' || (*p == '\r' && p[1] == '\n'))
		goto next;	/* blank or comment */
	if (r->seen == in->stored) {
		lerr(r, row, p, "more entries than the %llu the size line "
		    "announces%s", (unsigned long long)in->stored,
		    r->nobanner ? " (the file has no banner: --from frostt "
		    "reads it as FROSTT)" : "");
		return NULL;
	}
	if ((p = index1(r, row, p, in->rows, "row", &i)) == NULL)
		return NULL;
	p = skipws(p);
	if ((p = index1(r, row, p, in->cols, "column", &j)) == NULL)
		return NULL;
	p = skipws(p);
	if (in->field != TS_MTX_PATTERN) {
		vp = p;
		if ((p = value(r, row, p, lim, &f, &v)) == NULL)
			return NULL;
		tl = (size_t)(p - vp);
		p = skipws(p);
	}
	if (!endofline(r, row, &p))
		return NULL;
	if (in->sym == TS_MTX_SKEW && i == j && (in->field == TS_MTX_REAL ?
	    f != 0 : v != 0)) {
		lerr(r, row, vp, "diagonal entry (%llu, %llu) is %s: a "
		    "skew-symmetric matrix has zeros on its diagonal",
		    (unsigned long long)i + 1, (unsigned long long)j + 1,
		    showtok(vp, tb));
		return NULL;
	}
	r->seen++;
	if (emit(r, b, row, vp, i, j, f, v, tl) < 0)
		return NULL;
	r->L.line++;
	return p + 1;		/* endofline() left p at the '\n' */
next:
	r->L.line++;
	return (const char *)memchr(p, '\n', (size_t)(lim - p)) + 1;
}

/*
 * One line of an array file: the value at the next position, column by
 * column; symmetric files hold the lower triangle, skew-symmetric ones
 * the part below the diagonal.
 */
static const char *
array_line(struct ts_mtx_reader *r, struct ts_batch *b, const char *p,
    const char *lim)
{
	const struct ts_mtx_info *in = &r->info;
	const char *row = p, *vp;
	double f = 0;
	int64_t v = 0;
	size_t tl;

	p = skipws(p);
	if (*p == '\n' || *p == '%' || (*p == '\r' && p[1] == '\n'))
		goto next;	/* blank or comment */
	if (r->seen == in->stored) {
		lerr(r, row, p, "more values than the %llu a%s %llu x %llu "
		    "array holds", (unsigned long long)in->stored,
		    in->sym == TS_MTX_GENERAL ? "" : in->sym ==
		    TS_MTX_SYMMETRIC ? " symmetric" : " skew-symmetric",
		    (unsigned long long)in->rows,
		    (unsigned long long)in->cols);
		return NULL;
	}
	vp = p;
	if ((p = value(r, row, p, lim, &f, &v)) == NULL)
		return NULL;
	tl = (size_t)(p - vp);
	p = skipws(p);
	if (!endofline(r, row, &p))
		return NULL;
	r->seen++;
	if (emit(r, b, row, vp, r->arow, r->acol, f, v, tl) < 0)
		return NULL;
	if (++r->arow == in->rows) {
		r->acol++;
		r->arow = in->sym == TS_MTX_GENERAL ? 0 : in->sym ==
		    TS_MTX_SYMMETRIC ? r->acol : r->acol + 1;
	}
	r->L.line++;
	return p + 1;
next:
	r->L.line++;
	return (const char *)memchr(p, '\n', (size_t)(lim - p)) + 1;
}


static long
mtx_next(struct ts_decoder *dec, struct ts_batch *b)
{
	struct ts_mtx_reader *r = dec->state;
	const char *p, *lim;
	char *nl;
	size_t fixed = 0;	/* entries whose text is not in buf */

	if (r->L.failed)
		return -1;
	if (b->order != 2 || b->cap == 0) {
		rerr(r, 0, 0, "internal error: a Matrix Market batch needs "
		    "order 2 and room for an entry");
		errno = EINVAL;
		return -1;
	}
	r->nlen = 0;
	if (r->pend) {
		r->pend = false;
		put(r, b, r->prow, r->pcol, r->pf, r->pi, r->ptext[r->pcur],
		    r->plen, r->pline);
		fixed = 1;
	}
	while (b->n < b->cap && !r->done) {
		/* The last complete line in the buffer bounds the parse. */
		nl = ts_lines_lastnl(&r->L);
		if (nl == NULL) {
			if (b->n > fixed)
				break;	/* moving buf would move b's texts */
			if (!r->L.eof) {
				if (fill(r) < 0)
					return -1;
				continue;
			}
			if (r->L.pos < r->L.len) {
				/* A last line without a line end. */
				r->L.buf[r->L.len++] = '\n';
				continue;
			}
			if (r->seen < r->info.stored) {
				rerr(r, r->L.line, 0, "the file ends after %llu "
				    "of the %llu %s the size line announces%s",
				    (unsigned long long)r->seen,
				    (unsigned long long)r->info.stored,
				    r->info.coordinate ? "entries" : "values",
				    r->nobanner ? " (the file has no banner: "
				    "--from frostt reads it as FROSTT)" : "");
				r->L.failed = true;
				return -1;
			}
			r->done = true;
			break;
		}
		p = r->L.buf + r->L.pos;
		lim = nl + 1;
		while (b->n < b->cap && p < lim) {
			p = r->info.coordinate ? coord_line(r, b, p, lim) :
			    array_line(r, b, p, lim);
			if (p == NULL) {
				r->L.failed = true;
				return -1;
			}
		}
		r->L.off += (uint64_t)(p - (r->L.buf + r->L.pos));
		r->L.pos = (size_t)(p - r->L.buf);
	}
	r->emitted += b->n;
	dec->rows = r->emitted;
	dec->off = r->L.off;
	b->texts = r->info.field != TS_MTX_PATTERN;
	return (long)b->n;
}

const struct ts_decoder_ops ts_mtx_decoder = {
	"Matrix Market", mtx_open, mtx_next, mtx_close
};

