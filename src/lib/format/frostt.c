/*
 * frostt.c - FROSTT .tns files and the dialects other tools write.  The
 * rows are TensorSuite text's (tns_text.c): coordinates, then a value.
 *
 *  - FROSTT: no header, '#' comments anywhere; the order comes from the
 *    first row, dimensions and base from the entries.  An entry without a
 *    value is written with the value 1 (SPEC E5).
 *  - Extended FROSTT (MLIR's test data, ParTI): before the rows, a line
 *    "N nnz" (ParTI: "N") and a line of the N dimensions.  Told apart
 *    from FROSTT by its first two lines: one or two numbers, then exactly
 *    N of them, then a row of N coordinates and a value; FROSTT's first
 *    row has as many fields as its others.
 *  - The sptensor text of Tensor Toolbox, pyttb, GenTen and SparTen: a
 *    line "sptensor" (with "indices-start-at-zero" for 0-based files),
 *    N, the dimensions, nnz, then the rows.  Their dense kinds ("matrix",
 *    "tensor", ...) are refused by name.
 *
 * A header that states dimensions, nnz or the base is taken at its word;
 * the entries are checked against it like any other file's.
 */
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"

#define BUFSZ		(256u << 10)
#define LINE_MAX_HDR	(1u << 30)
#define MAXTOK		(TS_MAXORDER + 2)

int
ts_text_numbers(const char *s, size_t len, uint64_t *v)
{
	const char *p = s, *e = s + len;
	int n = 0;

	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e)
			return n;
		if (n == MAXTOK || parse_u64(&p, e, &v[n]) != 0 ||
		    (p < e && *p != ' ' && *p != '\t'))
			return -1;
		n++;
	}
}

/* Does the line start with the word w? */
static bool
word(const char *s, size_t len, const char *w)
{
	size_t n = strlen(w);

	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	return len >= n && memcmp(s, w, n) == 0 && (len == n ||
	    s[n] == ' ' || s[n] == '\t');
}

/* The next line that is not blank or a comment, consumed; NULL at the
 * end.  *off and *line say where it starts.  The comments go to the
 * header. */
static char *
content(struct ts_decoder *dec, size_t *len, uint64_t *off, uint64_t *line)
{
	struct ts_tns_state *t = dec->state;
	bool crlf;
	char *s;

	for (;;) {
		*off = t->L.off;
		*line = t->L.line;
		if ((s = ts_lines_get(&t->L, len, &crlf, LINE_MAX_HDR)) ==
		    NULL)
			return NULL;
		if (crlf)
			ts_tns_crlf_warn(dec, TS_RULE_H1);
		if (ts_text_countfields(s) > 0 && s[strspn(s, " \t")] != '#')
			return s;
		if (ts_text_countfields(s) > 0)
			ts_header_comment(&dec->h, s, *len);
	}
}

/*
 * Look ahead without consuming: the next line that is not blank or a
 * comment, from *at bytes past the unread start, which moves past it.
 * The buffer may move: the pointer is good until the next call.
 */
static char *
peek(struct ts_decoder *dec, size_t *at, size_t *len)
{
	struct ts_lines *L = &((struct ts_tns_state *)dec->state)->L;
	char *s, *nl;
	size_t scanned;

	for (;;) {
		/* What was searched is not searched again after a fill: a
		 * long line is found in linear time. */
		scanned = 0;
		while ((nl = memchr(L->buf + L->pos + *at + scanned, '\n',
		    L->len - L->pos - *at - scanned)) == NULL) {
			scanned = L->len - L->pos - *at;
			if (L->eof || ts_lines_fill(L, LINE_MAX_HDR) <= 0)
				return NULL;
		}
		s = L->buf + L->pos + *at;
		*len = (size_t)(nl - s);
		*at += *len + 1;
		if (*len > 0 && s[*len - 1] == '\r')
			(*len)--;
		if (ts_text_countfields(s) > 0 && s[strspn(s, " \t")] != '#')
			return s;
	}
}

/* A dialect's header states no dimension or count that metadata
 * cannot (line is s's, v its n numbers); -1 after saying so. */
static int
toolarge(struct ts_decoder *dec, uint64_t line, const char *s, size_t len,
    const uint64_t *v, int n, const char *what)
{
	int k;

	for (k = 0; k < n; k++)
		if (v[k] > TS_DIM_MAX) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, line,
			    fieldcol(s, len, k), TS_RULE_NONE, "%s %llu is "
			    "beyond 2^63-1, the largest metadata can state",
			    what, (unsigned long long)v[k]);
			return -1;
		}
	return 0;
}

static void
hdrerr(struct ts_decoder *dec, uint64_t line, const char *what)
{
	ts_diag(dec->d, TS_SEV_ERROR, dec->file, line, 1, TS_RULE_NONE,
	    "%s header: expected %s", dec->h.dialect, what);
}

/* Tensor Toolbox's sptensor text, after its first line. */
static int
sptensor(struct ts_decoder *dec, const char *s, size_t len)
{
	struct ts_tns_state *t = dec->state;
	struct ts_header *h = &dec->h;
	uint64_t v[MAXTOK], off, line;
	int n, k;

	h->dialect = "sptensor";
	/* SparTen's "sptensor indices-start-at-zero" says the base; Tensor
	 * Toolbox and pyttb write 1-based files, GenTen 0-based ones, and
	 * neither says so: the entries tell. */
	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	s += 8;
	len -= 8;
	h->base = word(s, len, "indices-start-at-zero") ? 0 : -1;
	if ((s = content(dec, &len, &off, &line)) == NULL ||
	    ts_text_numbers(s, len, v) != 1 || v[0] < 1 || v[0] > TS_MAXORDER) {
		hdrerr(dec, t->L.line, "the order (1..64) on line 2");
		return -1;
	}
	h->order = (int)v[0];
	if ((s = content(dec, &len, &off, &line)) == NULL ||
	    ts_text_numbers(s, len, v) != h->order) {
		hdrerr(dec, t->L.line, "a line of the dimensions");
		return -1;
	}
	for (k = 0; k < h->order; k++) {
		if (v[k] == 0) {
			hdrerr(dec, t->L.line, "positive dimensions");
			return -1;
		}
		h->dims[k] = v[k];
	}
	if (toolarge(dec, t->L.line, s, len, v, h->order, "dimension") != 0)
		return -1;
	if ((s = content(dec, &len, &off, &line)) == NULL ||
	    (n = ts_text_numbers(s, len, v)) != 1) {
		hdrerr(dec, t->L.line, "the count of entries");
		return -1;
	}
	if (toolarge(dec, t->L.line, s, len, v, 1, "count") != 0)
		return -1;
	h->nnz = v[0];
	h->nnz_known = h->dims_known = true;
	if (dec->lay.values < 0)
		dec->lay.values = 1;
	return 0;
}

/*
 * Extended FROSTT: line A is "N nnz" or "N", line B the N dimensions,
 * line C a row of N coordinates and a value.  Returns true when the
 * lines ahead are such (the header is then read), -1 when it states
 * what metadata cannot.
 */
static int
extended(struct ts_decoder *dec)
{
	struct ts_header *h = &dec->h;
	uint64_t a[MAXTOK], b[MAXTOK], off, line;
	size_t at = 0, len;
	char *s;
	int na, nb, k;

	if ((s = peek(dec, &at, &len)) == NULL ||
	    (na = ts_text_numbers(s, len, a)) < 1 || na > 2 || a[0] < 1 ||
	    a[0] > TS_MAXORDER)
		return 0;
	if ((s = peek(dec, &at, &len)) == NULL ||
	    (nb = ts_text_numbers(s, len, b)) != (int)a[0])
		return 0;
	for (k = 0; k < nb; k++)
		if (b[k] == 0)
			return 0;
	/* The next row must hold N coordinates and a value. */
	if ((s = peek(dec, &at, &len)) == NULL ||
	    ts_text_countfields(s) != nb + 1)
		return 0;
	s = content(dec, &len, &off, &line);
	if (na == 2 && toolarge(dec, line + 1, s, len, a + 1, 1, "count") !=
	    0)
		return -1;
	s = content(dec, &len, &off, &line);
	if (toolarge(dec, line + 1, s, len, b, nb, "dimension") != 0)
		return -1;
	h->dialect = "extended FROSTT";
	h->order = nb;
	memcpy(h->dims, b, (size_t)nb * sizeof(*b));
	h->dims_known = true;
	h->base = 1;
	if (na == 2) {
		h->nnz = a[1];
		h->nnz_known = true;
	}
	if (dec->lay.values < 0)
		dec->lay.values = 1;
	return 1;
}

/* Does the line start with a coordinate (digits, after blanks)? */
static bool
starts_numeric(const char *s)
{
	s += strspn(s, " \t");
	return *s >= '0' && *s <= '9';
}

/*
 * The first line is no row: say what was read, as a user would know it
 * (binary bytes, or the start of some text), and what the tools read.
 */
static void
not_rows(struct ts_decoder *dec, const char *s, size_t len, uint64_t line)
{
	size_t i, bin = 0, n = len < 40 ? len : 40;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t' && s[i] != '\r')
			bin++;
	if (bin > 0)
		ts_diag(dec->d, TS_SEV_ERROR, dec->file, line + 1, 1,
		    TS_RULE_NONE, "binary data, and not TensorSuite binary "
		    "(which starts with the line %%%%TensorSuite-TNSB): not a "
		    "tensor file these tools read");
	else
		ts_diag(dec->d, TS_SEV_ERROR, dec->file, line + 1, 1,
		    TS_RULE_NONE, "the first line, '%.*s%s', is not a row of "
		    "coordinates and a value (FROSTT), nor the first line of "
		    "a TensorSuite file (%%%%TensorSuite-TNS) or of Matrix "
		    "Market (%%%%MatrixMarket): not a tensor file these tools "
		    "read", (int)n, s, len > n ? "..." : "");
}

/*
 * Take the order from the first row, or read the header of a dialect,
 * leaving the first row unread.
 */
static int
frostt_open(struct ts_decoder *dec)
{
	static const char *const dense[] = { "matrix", "tensor", "ktensor",
	    "ttensor", "sumtensor", "tenmat", "sptenmat", NULL };
	struct ts_tns_state *t = ts_tns_state_new(dec, BUFSZ);
	struct ts_lines *L = &t->L;
	struct ts_header *h = &dec->h;
	uint64_t off, line;
	size_t len;
	char *s;
	int n, k, ext;

	h->kind = TS_KIND_FROSTT;
	if ((s = content(dec, &len, &off, &line)) == NULL) {
		if (L->failed)
			return -1;
		if (L->off == 0)
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 0, 0,
			    TS_RULE_NONE, "empty: no tensor to read (a "
			    "bundle, a .tns or .tnsb file, FROSTT rows or "
			    "Matrix Market)");
		else
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 0, 0,
			    TS_RULE_NONE, "no rows, only %llu blank or "
			    "comment lines: a FROSTT file gives its order by "
			    "its first row, coordinates then a value", (unsigned
			    long long) L->line);
		return -1;
	}
	if (word(s, len, "sptensor")) {
		if (sptensor(dec, s, len) != 0)
			return -1;
		goto done;
	}
	for (k = 0; dense[k] != NULL; k++)
		if (word(s, len, dense[k])) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, line + 1, 1,
			    TS_RULE_NONE, "a dense '%s' in the text format of "
			    "Tensor Toolbox and pyttb: TensorSuite reads its "
			    "sparse kind, 'sptensor'", dense[k]);
			return -1;
		}
	n = ts_text_countfields(s);
	/* Unread the line (the buffer may have moved: s is current). */
	L->pos = (size_t)(s - L->buf);
	L->off = off;
	L->line = line;
	if ((ext = extended(dec)) < 0)
		return -1;
	if (ext)
		goto done;
	/* Plain FROSTT: the first row is an entry. */
	if (dec->lay.values < 0)
		dec->lay.values = 1;
	if (!starts_numeric(s)) {
		not_rows(dec, s, len, line);
		return -1;
	}
	h->order = n - dec->lay.values;
	if (h->order < 1 || h->order > TS_MAXORDER) {
		ts_diag(dec->d, TS_SEV_ERROR, dec->file, line + 1, 1,
		    TS_RULE_NONE, "the first row has %d field%s: a FROSTT row "
		    "holds 1 to %d coordinates%s", n, n == 1 ? "" : "s",
		    TS_MAXORDER, dec->lay.values ? ", then a value "
		    "(--no-values: coordinates only)" : "");
		return -1;
	}
done:
	if (h->dialect != NULL)
		ts_diag(dec->d, TS_SEV_NOTE, dec->file, 0, 0, TS_RULE_NONE,
		    "read as %s: its header gives the order%s%s", h->dialect,
		    h->dims_known ? " and dimensions" : "", h->nnz_known ?
		    " and the count of entries" : "");
	h->bytes = L->off;
	h->lines = L->line;
	L->line++;	/* from now on: the line number of the next row */
	dec->off = L->off;
	return 0;
}

const struct ts_decoder_ops ts_frostt_decoder = {
	"FROSTT", frostt_open, ts_text_next, ts_tns_close
};

static int
frostt_enc_open(struct ts_encoder *enc)
{
	(void)enc;
	return 0;	/* FROSTT: no header */
}

static int
frostt_enc_close(struct ts_encoder *enc)
{
	(void)enc;
	return 0;
}

const struct ts_encoder_ops ts_frostt_encoder = {
	"FROSTT", frostt_enc_open, ts_text_put, frostt_enc_close,
	ts_text_rows
};
