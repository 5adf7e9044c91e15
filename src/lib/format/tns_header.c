/*
 * tns_header.c - the header of TensorSuite data files, text and binary
 * alike (SPEC H1-H5): the magic line, version and name, the size line,
 * and for block files the block size line and the partition lines.
 * Read line by line from the line buffer; written as text in front of
 * the entries of either kind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/xalloc.h"

#define LINE_MAX_HDR	(1u << 30)	/* longest header line we accept */

static const char MAGIC_TEXT[] = "%%TensorSuite-TNS";
static const char MAGIC_BIN[] = "%%TensorSuite-TNSB";

struct ts_tns_state *
ts_tns_state_new(struct ts_decoder *dec, size_t bufsz)
{
	struct ts_tns_state *t = ts_xcalloc(1, sizeof(*t));

	ts_lines_init(&t->L, dec->src, dec->d, bufsz);
	t->L.file = dec->file;
	t->scan = ts_scan_kind();
	dec->state = t;
	return t;
}

void
ts_tns_close(struct ts_decoder *dec)
{
	struct ts_tns_state *t = dec->state;

	if (t == NULL)
		return;
	ts_par_free(t->par);
	ts_lines_free(&t->L);
	free(t);
	dec->state = NULL;
}

void
ts_warn_crlf(struct ts_diags *d, const char *file, uint64_t line,
    struct ts_warned *w, enum ts_rule rule)
{
	if (w->defer) {
		if (w->crlf_line == 0)
			w->crlf_line = line;
		return;
	}
	if (w->crlf)
		return;
	w->crlf = true;
	ts_diag(d, TS_SEV_WARNING, file, line, 0, rule, "line ends in \\r\\n; "
	    "TensorSuite files end lines with \\n");
}

void
ts_tns_crlf_warn(struct ts_decoder *dec, enum ts_rule rule)
{
	struct ts_tns_state *t = dec->state;

	ts_warn_crlf(dec->d, dec->file, t->L.line, &t->w, rule);
}

/* The next header line; a "\r\n" end is accepted with a warning. */
static char *
hdrline(struct ts_decoder *dec, size_t *lenp)
{
	struct ts_tns_state *t = dec->state;
	bool crlf;
	char *s = ts_lines_get(&t->L, lenp, &crlf, LINE_MAX_HDR);

	if (s != NULL && crlf)
		ts_tns_crlf_warn(dec, TS_RULE_H1);
	return s;
}

/*
 * Split a header line into unsigned integers.  Returns the count, or -1
 * after reporting a bad token under rule.
 */
static long
hdrints(struct ts_decoder *dec, const char *s, size_t len, uint64_t **out,
    size_t *cap, enum ts_rule rule, const char *what)
{
	struct ts_tns_state *t = dec->state;
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
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line,
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
expect_prefix(struct ts_decoder *dec, const char *s, size_t len,
    const char *prefix, char **val)
{
	struct ts_tns_state *t = dec->state;
	size_t pl = strlen(prefix);

	if (s == NULL || len < pl || memcmp(s, prefix, pl) != 0) {
		ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 1,
		    TS_RULE_H2, "expected '%s...' on line %llu", prefix,
		    (unsigned long long)t->L.line);
		return false;
	}
	*val = ts_xmalloc(len - pl + 1);
	memcpy(*val, s + pl, len - pl);
	(*val)[len - pl] = '\0';
	return true;
}

/* Describe the first bytes of a file that is not what we expected. */
static void
badmagic(struct ts_decoder *dec, const char *s, size_t len)
{
	char shown[40];
	size_t i, n = len < 24 ? len : 24;

	for (i = 0; i < n; i++)
		shown[i] = (s[i] >= ' ' && s[i] < 0x7f) ? s[i] : '?';
	shown[n] = '\0';
	ts_diag(dec->d, TS_SEV_ERROR, dec->file, 1, 1, TS_RULE_H1, "not a "
	    "TensorSuite %s file: line 1 is '%s%s', not '%s'", dec->lay.kind ==
	    TS_KIND_TEXT ? "text" : "binary", shown, len > n ? "..." : "",
	    dec->lay.kind == TS_KIND_TEXT ? MAGIC_TEXT : MAGIC_BIN);
}

/* H4, X5: the block size line and the partition lines. */
static int
read_blocks(struct ts_decoder *dec, uint64_t **v, size_t *vcap)
{
	struct ts_tns_state *t = dec->state;
	struct ts_header *h = &dec->h;
	size_t len;
	char *s;
	long n;
	int i;

	h->block = true;
	s = hdrline(dec, &len);
	if (s == NULL || (n = hdrints(dec, s, len, v, vcap, TS_RULE_H4,
	    "block size line")) < 0 || n != h->order + 1) {
		if (s == NULL || n >= 0)
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 1,
			    TS_RULE_H4, "expected the block size line "
			    "'g1 ... g%d nnz_block'", h->order);
		return -1;
	}
	for (i = 0; i < h->order; i++) {
		h->parts[i] = (*v)[i];
		if ((*v)[i] == 0 || (*v)[i] > h->dims[i]) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 0,
			    TS_RULE_H4, "mode %d has %llu sections; it must "
			    "be in 1..%llu", i + 1, (unsigned long long)(*v)[i],
			    (unsigned long long)h->dims[i]);
			return -1;
		}
	}
	h->nnz_block = (*v)[h->order];
	for (i = 0; i < h->order; i++) {
		uint64_t sum = 0;
		bool ovf = false;

		s = hdrline(dec, &len);
		if (s == NULL || (n = hdrints(dec, s, len, v, vcap, TS_RULE_H4,
		    "partition line")) < 0) {
			if (s == NULL && !t->L.failed)
				ts_diag(dec->d, TS_SEV_ERROR, dec->file,
				    t->L.line + 1, 0, TS_RULE_H4, "file ends "
				    "before partition line %d", i + 1);
			return -1;
		}
		if ((uint64_t)n != h->parts[i]) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 1,
			    TS_RULE_H4, "partition line %d has %ld extents; "
			    "the block size line says %llu", i + 1, n, (unsigned
			    long long)h->parts[i]);
			return -1;
		}
		for (long k = 0; k < n; k++) {
			if ((*v)[k] == 0) {
				ts_diag(dec->d, TS_SEV_ERROR, dec->file,
				    t->L.line, 0, TS_RULE_H4, "section %ld of "
				    "mode %d has extent 0", k + 1, i + 1);
				return -1;
			}
			ovf |= !ts_add_u64(sum, (*v)[k], &sum);
		}
		if (ovf) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 0,
			    TS_RULE_X5, "the extents of mode %d sum to more "
			    "than 18446744073709551615 (2^64 - 1), not to its "
			    "dimension %llu", i + 1, (unsigned long
			    long)h->dims[i]);
			return -1;
		}
		if (sum != h->dims[i]) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 0,
			    TS_RULE_X5, "the extents of mode %d sum to %llu, "
			    "not to its dimension %llu", i + 1, (unsigned long
			    long)sum, (unsigned long long)h->dims[i]);
			return -1;
		}
		h->extents[i] = ts_xreallocarray(NULL, (size_t)n,
		    sizeof(uint64_t));
		memcpy(h->extents[i], *v, (size_t)n * sizeof(uint64_t));
	}
	return 0;
}

int
ts_tns_read_header(struct ts_decoder *dec)
{
	struct ts_tns_state *t = dec->state;
	struct ts_header *h = &dec->h;
	uint64_t *v = NULL;
	size_t len, vcap = 0;
	char *s;
	long n;
	int i;

	h->kind = dec->lay.kind;
	s = hdrline(dec, &len);
	if (s == NULL) {
		if (!t->L.failed)
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 1, 0,
			    TS_RULE_H1, "empty file; expected '%s'",
			    dec->lay.kind == TS_KIND_TEXT ? MAGIC_TEXT :
			    MAGIC_BIN);
		return -1;
	}
	{
		bool istext = len == sizeof(MAGIC_TEXT) - 1 &&
		    memcmp(s, MAGIC_TEXT, len) == 0;
		bool isbin = len == sizeof(MAGIC_BIN) - 1 &&
		    memcmp(s, MAGIC_BIN, len) == 0;

		if ((istext && dec->lay.kind == TS_KIND_BINARY) ||
		    (isbin && dec->lay.kind == TS_KIND_TEXT)) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 1, 1,
			    TS_RULE_X1, "this is a %s data file but is used "
			    "as the %s file", istext ? "text" : "binary", istext
			    ? "binary" : "text");
			return -1;
		}
		if (!istext && !isbin) {
			badmagic(dec, s, len);
			return -1;
		}
	}
	s = hdrline(dec, &len);
	if (!expect_prefix(dec, s, len, "% version: ", &h->version))
		return -1;
	s = hdrline(dec, &len);
	if (!expect_prefix(dec, s, len, "% name: ", &h->name))
		return -1;
	while ((s = hdrline(dec, &len)) != NULL && len > 0 && s[0] == '%')
		ts_diag(dec->d, TS_SEV_WARNING, dec->file, t->L.line, 1,
		    TS_RULE_H2, "extra header line skipped (the reference "
		    "reader rejects it)");
	if (s == NULL) {
		if (!t->L.failed)
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line + 1,
			    0, TS_RULE_H3, "file ends before the size line");
		return -1;
	}
	if ((n = hdrints(dec, s, len, &v, &vcap, TS_RULE_H3, "size line")) < 0)
		goto fail;
	if (n < 3 || v[0] < 1 || v[0] > TS_MAXORDER ||
	    (uint64_t)n != v[0] + 2) {
		ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 1,
		    TS_RULE_H3, "the size line must be 'order d1 ... dN nnz' "
		    "with order in 1..%d", TS_MAXORDER);
		goto fail;
	}
	h->order = (int)v[0];
	for (i = 0; i < h->order; i++) {
		h->dims[i] = v[i + 1];
		if (h->dims[i] == 0) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line, 0,
			    TS_RULE_H3, "dimension %d is 0", i + 1);
			goto fail;
		}
	}
	for (i = 1; i <= h->order + 1; i++)
		if (v[i] > TS_DIM_MAX) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, t->L.line,
			    fieldcol(s, len, i), TS_RULE_H3, "%s %llu is "
			    "beyond 2^63-1, the largest metadata can state", i
			    <= h->order ? "dimension" : "count", (unsigned long
			    long)v[i]);
			goto fail;
		}
	h->nnz = v[h->order + 1];
	h->nnz_known = h->dims_known = true;
	if (dec->lay.block && read_blocks(dec, &v, &vcap) != 0)
		goto fail;
	free(v);
	h->bytes = t->L.off;
	h->lines = t->L.line;
	return 0;
fail:
	free(v);
	return -1;
}

void
ts_tns_write_header(struct ts_encoder *enc)
{
	const struct ts_header *h = &enc->h;
	struct ts_outbuf *o = enc->out;
	uint64_t k;
	int i;

	ts_outbuf_puts(o, enc->lay.kind == TS_KIND_TEXT ? "%%TensorSuite-TNS\n"
	    : "%%TensorSuite-TNSB\n");
	ts_outbuf_puts(o, "% version: " TS_FORMAT "\n% name: ");
	ts_outbuf_puts(o, enc->o.name);
	ts_outbuf_puts(o, "\n");
	ts_outbuf_putu(o, (uint64_t)h->order, ' ');
	for (i = 0; i < h->order; i++)
		ts_outbuf_putu(o, h->dims[i], ' ');
	ts_outbuf_putu(o, h->nnz, '\n');
	if (enc->lay.block) {
		for (i = 0; i < h->order; i++)
			ts_outbuf_putu(o, h->parts[i], ' ');
		ts_outbuf_putu(o, h->nnz_block, '\n');
		for (i = 0; i < h->order; i++)
			for (k = 0; k < h->parts[i]; k++)
				ts_outbuf_putu(o, h->extents[i][k],
				    k + 1 == h->parts[i] ? '\n' : ' ');
	}
}
