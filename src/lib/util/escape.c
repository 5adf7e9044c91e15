/*
 * escape.c - one way to write a name or a message into each kind of
 * report (see escape.h for the rules and why).
 *
 * The text form follows GNU ls's --quoting-style=shell-escape, which ls
 * uses by default on a terminal: a name that needs no quoting as it is;
 * else single quotes around the printable runs and $'...' around the
 * others, each byte of them as a C escape (\a \b \t \n \v \f \r) or
 * three octal digits: "a\nb" is 'a'$'\n''b', as ls shows it.  Whatever
 * the locale, valid UTF-8 other than controls counts as printable, as
 * ls counts it in a UTF-8 locale.  Any shell (bash, zsh, ksh) gives the
 * name back from the word, and a reader can tell a quoted name from a
 * plain one by its first byte, a quote, which no plain name holds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/xalloc.h"

/*
 * The length of the UTF-8 sequence at s, its code point in *cp; 0 when
 * the bytes there are not one.  Never reads past the NUL, which ends
 * any sequence.
 */
static size_t
u8dec(const unsigned char *s, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c < 0xc2)		/* a continuation byte, or overlong */
		return 0;
	if (c < 0xe0) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c < 0xf0) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c < 0xf5) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Shown as itself: not a C0 or C1 control, DEL, a line or paragraph
 * separator (a line break to some readers), or a noncharacter that XML
 * cannot hold. */
static bool
printable(uint32_t c)
{
	return c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) &&
	    c != 0x2028 && c != 0x2029 && c != 0xfffe && c != 0xffff;
}

/* White space as .NET's Char.IsWhiteSpace has it: what the GitHub
 * runner trims before it looks for "::". */
static bool
space(uint32_t c)
{
	return c == ' ' || (c >= 0x09 && c <= 0x0d) || c == 0x85 ||
	    c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
	    c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
	    c == 0x3000;
}

/* Is p, within s, the '[' of "##["? */
static bool
hashbracket(const unsigned char *s, const unsigned char *p)
{
	return *p == '[' && p - s >= 2 && p[-1] == '#' && p[-2] == '#';
}

bool
ts_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t c;
	size_t n;

	for (; *p != '\0'; p += n)
		if ((n = u8dec(p, &c)) == 0)
			return false;
	return true;
}

bool
ts_name_plain(const char *s)
{
	const unsigned char *u = (const unsigned char *)s, *p;
	uint32_t c;
	size_t n;

	if (*u == '\0' || *u == ':' || (u8dec(u, &c) > 0 && space(c)))
		return false;
	for (p = u; *p != '\0'; p += n)
		if ((n = u8dec(p, &c)) == 0 || !printable(c) || c == '\'' ||
		    hashbracket(u, p))
			return false;
	return true;
}

/* ---- the text form ---- */

struct buf {
	char	*s;
	size_t	 n, cap;
};

static void
put(struct buf *b, const void *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = 2 * (b->n + n + 1);
		b->s = ts_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void
puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* One byte inside $'...'. */
static void
putesc(struct buf *b, unsigned char c)
{
	static const char ctl[] = "\a\b\t\n\v\f\r", letter[] = "abtnvfr";
	const char *k = c != '\0' ? strchr(ctl, c) : NULL;
	char e[8];

	if (k != NULL)
		snprintf(e, sizeof(e), "\\%c", letter[k - ctl]);
	else
		snprintf(e, sizeof(e), "\\%03o", c);
	puts_(b, e);
}

char *
ts_quote(const char *s, bool always)
{
	const unsigned char *u = (const unsigned char *)s, *p;
	enum { OUT, IN, DOLLAR } st = IN;	/* outside, in '', in $'' */
	struct buf b = { NULL, 0, 0 };
	uint32_t c;
	size_t n, k;

	if (ts_name_plain(s)) {
		if (!always)
			return ts_xstrdup(s);
		puts_(&b, "'");
		puts_(&b, s);
		puts_(&b, "'");
		return b.s;
	}
	puts_(&b, "'");
	for (p = u; *p != '\0'; p += n) {
		if ((n = u8dec(p, &c)) == 0 || !printable(c)) {
			if (n == 0)
				n = 1;
			if (st != DOLLAR)
				puts_(&b, st == IN ? "'$'" : "$'");
			st = DOLLAR;
			for (k = 0; k < n; k++)
				putesc(&b, p[k]);
			continue;
		}
		if (c == '\'') {
			puts_(&b, st == OUT ? "\\'" : "'\\'");
			st = OUT;
			continue;
		}
		if (st != IN)
			puts_(&b, st == DOLLAR ? "''" : "'");
		st = IN;
		/* Close and reopen the quotes inside "##[". */
		if (hashbracket(u, p))
			puts_(&b, "''");
		put(&b, p, n);
	}
	if (st != OUT)
		puts_(&b, "'");
	return b.s;
}

void
ts_fput_name(FILE *fp, const char *s)
{
	char *q;

	if (ts_name_plain(s)) {
		fputs(s, fp);
		return;
	}
	q = ts_quote(s, false);
	fputs(q, fp);
	free(q);
}

void
ts_text_sanitize(char *s)
{
	unsigned char *u = (unsigned char *)s, *r = u, *w = u;
	uint32_t c;
	size_t n;

	while (*r != '\0') {
		n = u8dec(r, &c);
		if (n == 0 || !printable(c) || (c == '[' && w - u >= 2 &&
		    w[-1] == '#' && w[-2] == '#')) {
			*w++ = '?';
			r += n > 0 ? n : 1;
			continue;
		}
		memmove(w, r, n);
		w += n;
		r += n;
	}
	*w = '\0';
}

/*
 * The length of the run at p, within s, of printable ASCII that a
 * format writes as it is: not one of the bytes of special (which it
 * escapes), nor the '[' of "##[".  Reports are written a run at a time:
 * a million diagnostics should not cost a million calls per byte.
 */
static size_t
asciirun(const unsigned char *s, const unsigned char *p, const char *special)
{
	const unsigned char *q;

	for (q = p; *q >= 0x20 && *q < 0x7f; q++)
		if (strchr(special, *q) != NULL || hashbracket(s, q))
			break;
	return (size_t)(q - p);
}

/* ---- JSON ---- */

void
ts_fput_json(FILE *fp, const char *s)
{
	const unsigned char *u = (const unsigned char *)s, *p;
	uint32_t c;
	size_t n;

	putc('"', fp);
	for (p = u; *p != '\0'; p += n) {
		if ((n = asciirun(u, p, "\"\\")) > 0) {
			fwrite(p, 1, n, fp);
			continue;
		}
		if ((n = u8dec(p, &c)) == 0) {
			fputs("\\ufffd", fp);
			n = 1;
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			if ((!printable(c) && c < 0xfffe) || hashbracket(u, p))
				fprintf(fp, "\\u%04x", (unsigned)c);
			else
				fwrite(p, 1, n, fp);
		}
	}
	putc('"', fp);
}

static void
base64(FILE *fp, const unsigned char *s, size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t v;
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
		putc(abc[v >> 18], fp);
		putc(abc[v >> 12 & 63], fp);
		putc(abc[v >> 6 & 63], fp);
		putc(abc[v & 63], fp);
	}
	if (i < n) {
		v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 :
		    0);
		putc(abc[v >> 18], fp);
		putc(abc[v >> 12 & 63], fp);
		putc(i + 1 < n ? abc[v >> 6 & 63] : '=', fp);
		putc('=', fp);
	}
}

void
ts_fput_json_name(FILE *fp, const char *key, const char *s)
{
	char *q;

	fprintf(fp, "\"%s\": ", key);
	if (s == NULL) {
		fputs("null", fp);
		return;
	}
	if (ts_utf8_valid(s)) {
		ts_fput_json(fp, s);
		return;
	}
	q = ts_quote(s, false);
	ts_fput_json(fp, q);
	free(q);
	fprintf(fp, ", \"%s_base64\": \"", key);
	base64(fp, (const unsigned char *)s, strlen(s));
	putc('"', fp);
}

/* ---- CSV ---- */

char *
ts_csv_cell(const char *s)
{
	const unsigned char *p;
	struct buf b = { NULL, 0, 0 };
	char *t;
	bool mark, quote;

	t = s == NULL || *s == '\0' ? ts_xstrdup("") : ts_quote(s, false);
	/* The text form quotes tab and CR: what is left to mark. */
	mark = *t != '\0' && strchr("=+-@", *t) != NULL;
	quote = mark || strpbrk(t, ",\"") != NULL;
	puts_(&b, quote ? "\"" : "");
	if (mark)
		puts_(&b, "'");
	for (p = (const unsigned char *)t; *p != '\0'; p++)
		put(&b, *p == '"' ? "\"\"" : (const char *)p, *p == '"' ? 2 :
		    1);
	puts_(&b, quote ? "\"" : "");
	free(t);
	return b.s;
}

/* ---- Markdown ---- */

void
ts_fput_md_url(FILE *fp, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
			putc(*p, fp);
		else
			fprintf(fp, "%%%02X", *p);
}

/* ---- XML ---- */

void
ts_fput_xml(FILE *fp, const char *s, bool attr)
{
	const unsigned char *u = (const unsigned char *)s, *p;
	uint32_t c;
	size_t n;

	for (p = u; *p != '\0'; p += n) {
		if ((n = asciirun(u, p, "&<>\"")) > 0) {
			fwrite(p, 1, n, fp);
			continue;
		}
		if ((n = u8dec(p, &c)) == 0) {
			putc('?', fp);
			n = 1;
			continue;
		}
		switch (c) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\r':	/* a parser would make it LF */
			fputs("&#13;", fp);
			break;
		case '\t':
		case '\n':	/* an attribute's would be a space */
			if (attr)
				fprintf(fp, "&#%u;", (unsigned)c);
			else
				putc((int)c, fp);
			break;
		default:
			if (!printable(c))
				putc('?', fp);
			else if (hashbracket(u, p))
				fputs("&#91;", fp);
			else
				fwrite(p, 1, n, fp);
		}
	}
}

void
ts_fput_xml_name(FILE *fp, const char *s)
{
	char *q = ts_quote(s, false);

	ts_fput_xml(fp, q, true);
	free(q);
}

/* ---- GitHub workflow commands ---- */

void
ts_fput_gh(FILE *fp, const char *s, bool prop)
{
	size_t n;

	for (; *s != '\0'; s++) {
		if ((n = strcspn(s, prop ? "%\r\n:," : "%\r\n")) > 0) {
			fwrite(s, 1, n, fp);
			if (*(s += n) == '\0')
				break;
		}
		switch (*s) {
		case '%':
			fputs("%25", fp);
			break;
		case '\r':
			fputs("%0D", fp);
			break;
		case '\n':
			fputs("%0A", fp);
			break;
		case ':':
			fputs(prop ? "%3A" : ":", fp);
			break;
		case ',':
			fputs(prop ? "%2C" : ",", fp);
			break;
		default:
			putc(*s, fp);
		}
	}
}

void
ts_fput_gh_name(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t c;
	size_t n;
	char *q;

	for (; *p != '\0'; p += n)
		if ((n = u8dec(p, &c)) == 0 || (!printable(c) && c != '\r' &&
		    c != '\n'))
			break;
	if (*p == '\0') {
		ts_fput_gh(fp, s, true);
		return;
	}
	q = ts_quote(s, false);
	ts_fput_gh(fp, q, true);
	free(q);
}
