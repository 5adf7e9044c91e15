/*
 * npy.c - the header of a NumPy .npy array (numpy.lib.format): the
 * magic "\x93NUMPY", a version byte pair (1.0: a 2-byte little-endian
 * length; 2.0 and 3.0: 4 bytes; 3.0's text is UTF-8, the others'
 * Latin-1), then a Python dictionary literal of 'descr',
 * 'fortran_order' and 'shape', padded with blanks and ended by a
 * newline.  Read strictly: what numpy writes for the plain types, in
 * any order of the keys, with any blanks between tokens; each problem
 * at its byte offset.  Written as numpy writes it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "format/npy.h"
#include "util/xalloc.h"

static const char magic[6] = "\x93NUMPY";

/* The largest header read: numpy's own limit is 10000 bytes unless
 * told otherwise; a shape of 64 dimensions needs less than 2000. */
#define HDR_LIMIT	(1u << 20)

static int
fail(struct ts_npy_err *e, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct ts_npy_err *e, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	e->off = off;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static const struct {
	const char	*name;
	char		 kind;		/* of the descr */
	size_t		 size;
} types[] = {
	[TS_NPY_BOOL] = { "bool", 'b', 1 },
	[TS_NPY_INT8] = { "int8", 'i', 1 },
	[TS_NPY_INT16] = { "int16", 'i', 2 },
	[TS_NPY_INT32] = { "int32", 'i', 4 },
	[TS_NPY_INT64] = { "int64", 'i', 8 },
	[TS_NPY_UINT8] = { "uint8", 'u', 1 },
	[TS_NPY_UINT16] = { "uint16", 'u', 2 },
	[TS_NPY_UINT32] = { "uint32", 'u', 4 },
	[TS_NPY_UINT64] = { "uint64", 'u', 8 },
	[TS_NPY_FLOAT32] = { "float32", 'f', 4 },
	[TS_NPY_FLOAT64] = { "float64", 'f', 8 },
	[TS_NPY_UNICODE] = { "str", 'U', 0 },
	[TS_NPY_BYTES] = { "bytes", 'S', 0 },
};

#define NTYPES	(sizeof(types) / sizeof(types[0]))
_Static_assert(NTYPES == TS_NPY_BYTES + 1, "a row for every type");

size_t
ts_npy_type_size(enum ts_npy_type t)
{
	return (unsigned)t < NTYPES ? types[t].size : 0;
}

const char *
ts_npy_type_name(enum ts_npy_type t)
{
	return (unsigned)t < NTYPES ? types[t].name : "?";
}

enum ts_npy_type
ts_npy_of_vtype(enum ts_vtype v)
{
	switch (v) {
	case TS_VTYPE_FLOAT32:
		return TS_NPY_FLOAT32;
	case TS_VTYPE_INT32:
		return TS_NPY_INT32;
	case TS_VTYPE_INT64:
		return TS_NPY_INT64;
	default:
		return TS_NPY_FLOAT64;
	}
}

enum ts_npy_type
ts_npy_of_itype(enum ts_itype i)
{
	return i == TS_ITYPE_UINT32 ? TS_NPY_UINT32 : TS_NPY_UINT64;
}

int
ts_npy_prefix(const unsigned char *p, size_t n, uint64_t *total,
    struct ts_npy_err *e)
{
	uint64_t len;
	size_t i, need;

	for (i = 0; i < sizeof(magic); i++)
		if (i >= n || p[i] != (unsigned char)magic[i])
			return fail(e, i, i >= n ? "the array ends in its magic" :
			    "not a .npy array: no magic '\\x93NUMPY'");
	if (n < 8)
		return fail(e, n, "the array ends in its version");
	if ((p[6] < 1 || p[6] > 3) || p[7] != 0)
		return fail(e, 6, "version %u.%u of the .npy format is not "
		    "read (1.0, 2.0, 3.0 are)", p[6], p[7]);
	need = p[6] == 1 ? 10 : 12;
	if (n < need)
		return fail(e, n, "the array ends in its header length");
	if (p[6] == 1)
		len = (uint64_t)p[8] | (uint64_t)p[9] << 8;
	else
		len = (uint64_t)p[8] | (uint64_t)p[9] << 8 |
		    (uint64_t)p[10] << 16 | (uint64_t)p[11] << 24;
	if (len > HDR_LIMIT)
		return fail(e, 8, "a header of %llu bytes is too large (the "
		    "limit is %u)", (unsigned long long)len, HDR_LIMIT);
	*total = need + len;
	return 0;
}

/* The dictionary's tokens, from p to end, offsets from base. */
struct lex {
	const unsigned char *p, *start, *end;
};

static uint64_t
at(const struct lex *x)
{
	return (uint64_t)(x->p - x->start);
}

static void
blanks(struct lex *x)
{
	while (x->p < x->end && (*x->p == ' ' || *x->p == '\t'))
		x->p++;
}

/* A quoted string into buf (cap bytes). */
static int
string(struct lex *x, char *buf, size_t cap, struct ts_npy_err *e)
{
	unsigned char q;
	size_t n = 0;

	blanks(x);
	if (x->p >= x->end || (*x->p != '\'' && *x->p != '"'))
		return fail(e, at(x), "a quoted string expected");
	q = *x->p++;
	while (x->p < x->end && *x->p != q) {
		if (*x->p == '\\' || *x->p < 0x20 || *x->p >= 0x7f)
			return fail(e, at(x), "a character a descr or a key "
			    "cannot hold");
		if (n + 1 >= cap)
			return fail(e, at(x), "a string too long for a key or "
			    "a descr");
		buf[n++] = (char)*x->p++;
	}
	if (x->p >= x->end)
		return fail(e, at(x), "an unterminated string");
	x->p++;
	buf[n] = '\0';
	return 0;
}

static bool
punct(struct lex *x, char c)
{
	blanks(x);
	if (x->p < x->end && *x->p == (unsigned char)c) {
		x->p++;
		return true;
	}
	return false;
}

static int
descr(struct lex *x, struct ts_npy *a, struct ts_npy_err *e)
{
	char s[32], *end;
	uint64_t off;
	unsigned long long sz;
	size_t k;

	blanks(x);
	off = at(x);
	if (x->p < x->end && *x->p == '[')
		return fail(e, off, "a structured descr (a list of fields) is "
		    "not read");
	if (string(x, s, sizeof(s), e) != 0)
		return -1;
	if (strchr("<>|=", s[0]) == NULL || s[1] == '\0')
		return fail(e, off, "descr '%s': a byte order ('<', '>', '|') "
		    "and a type expected", s);
	a->big = s[0] == '>' || (s[0] == '=' && !ts_host_little());
	if (s[2] == '\0' && s[1] == '?')
		sz = 1, s[1] = 'b';
	else {
		if (s[2] < '1' || s[2] > '9')
			return fail(e, off, "descr '%s' is not a type read "
			    "(bool, int, uint, float, str)", s);
		sz = strtoull(s + 2, &end, 10);
		if (*end != '\0')
			return fail(e, off, "descr '%s' is not a type read "
			    "(bool, int, uint, float, str)", s);
	}
	if (s[1] == 'U' || s[1] == 'S') {
		if (sz > (1ull << 28))
			return fail(e, off, "descr '%s': strings too long", s);
		a->type = s[1] == 'U' ? TS_NPY_UNICODE : TS_NPY_BYTES;
		a->itemsize = (size_t)sz * (s[1] == 'U' ? 4 : 1);
		return 0;
	}
	for (k = 0; k < NTYPES; k++)
		if (types[k].kind == s[1] && types[k].size == sz)
			break;
	if (k == NTYPES)
		return fail(e, off, "descr '%s' is not a type read (bool, "
		    "int8-64, uint8-64, float32, float64, str, bytes)", s);
	if (sz == 1 && s[0] != '|' && s[0] != '<' && s[0] != '>')
		return fail(e, off, "descr '%s': a byte order of one-byte "
		    "items is '|'", s);
	a->type = (enum ts_npy_type)k;
	a->itemsize = (size_t)sz;
	return 0;
}

static int
boolean(struct lex *x, bool *v, struct ts_npy_err *e)
{
	blanks(x);
	if ((size_t)(x->end - x->p) >= 4 && memcmp(x->p, "True", 4) == 0) {
		x->p += 4;
		*v = true;
		return 0;
	}
	if ((size_t)(x->end - x->p) >= 5 && memcmp(x->p, "False", 5) == 0) {
		x->p += 5;
		*v = false;
		return 0;
	}
	return fail(e, at(x), "'fortran_order' is True or False");
}

static int
shape(struct lex *x, struct ts_npy *a, struct ts_npy_err *e)
{
	uint64_t v;

	if (!punct(x, '('))
		return fail(e, at(x), "'shape' is a tuple: '(' expected");
	a->ndim = 0;
	for (;;) {
		blanks(x);
		if (punct(x, ')'))
			break;
		if (x->p >= x->end || *x->p < '0' || *x->p > '9')
			return fail(e, at(x), "a dimension (a number) or ')' "
			    "expected");
		if (a->ndim == TS_NPY_MAXDIM)
			return fail(e, at(x), "more than %d dimensions",
			    TS_NPY_MAXDIM);
		v = 0;
		while (x->p < x->end && *x->p >= '0' && *x->p <= '9') {
			if (!ts_mul_u64(v, 10, &v) || !ts_add_u64(v,
			    (uint64_t)(*x->p - '0'), &v))
				return fail(e, at(x), "a dimension too large");
			x->p++;
		}
		/* numpy writes Python ints; a 'L' of Python 2's too. */
		if (x->p < x->end && *x->p == 'L')
			x->p++;
		a->shape[a->ndim++] = v;
		if (punct(x, ','))
			continue;
		if (punct(x, ')'))
			break;
		return fail(e, at(x), "',' or ')' expected in 'shape'");
	}
	return 0;
}

int
ts_npy_parse(const unsigned char *p, size_t n, struct ts_npy *a,
    struct ts_npy_err *e)
{
	struct lex x;
	uint64_t total;
	unsigned seen = 0;
	uint64_t close = 0, shape_at = 0;
	char key[32];
	int i, k;

	memset(a, 0, sizeof(*a));
	if (ts_npy_prefix(p, n, &total, e) != 0)
		return -1;
	if (total > n)
		return fail(e, n, "the array ends in its header (%llu bytes "
		    "of %llu)", (unsigned long long)n,
		    (unsigned long long)total);
	a->version = p[6];
	a->data_off = total;
	x.start = p;
	x.p = p + (p[6] == 1 ? 10 : 12);
	x.end = p + total;
	if (x.p >= x.end || x.end[-1] != '\n')
		return fail(e, total > 0 ? total - 1 : 0, "the header does not "
		    "end in a newline");
	x.end--;
	if (!punct(&x, '{'))
		return fail(e, at(&x), "the header is no dictionary: '{' "
		    "expected");
	for (;;) {
		blanks(&x);
		close = at(&x);
		if (punct(&x, '}'))
			break;
		if (string(&x, key, sizeof(key), e) != 0)
			return -1;
		k = strcmp(key, "descr") == 0 ? 0 : strcmp(key,
		    "fortran_order") == 0 ? 1 : strcmp(key, "shape") == 0 ? 2 :
		    -1;
		if (k < 0)
			return fail(e, close, "key '%s' is none of 'descr', "
			    "'fortran_order', 'shape'", key);
		if (seen & 1u << k)
			return fail(e, close, "key '%s' twice", key);
		seen |= 1u << k;
		if (!punct(&x, ':'))
			return fail(e, at(&x), "':' expected after '%s'", key);
		blanks(&x);
		if (k == 2)
			shape_at = at(&x);
		if ((k == 0 ? descr(&x, a, e) : k == 1 ? boolean(&x,
		    &a->fortran, e) : shape(&x, a, e)) != 0)
			return -1;
		if (punct(&x, ','))
			continue;
		blanks(&x);
		close = at(&x);
		if (punct(&x, '}'))
			break;
		return fail(e, at(&x), "',' or '}' expected");
	}
	blanks(&x);
	if (x.p != x.end)
		return fail(e, at(&x), "bytes after the dictionary");
	if (seen != 7)
		return fail(e, close, "the header has no '%s'", !(seen & 1) ?
		    "descr" : !(seen & 2) ? "fortran_order" : "shape");
	a->count = 1;
	for (i = 0; i < a->ndim; i++)
		if (!ts_mul_u64(a->count, a->shape[i], &a->count))
			return fail(e, shape_at, "the shape's product "
			    "overflows");
	if (!ts_mul_u64(a->count, a->itemsize, &a->bytes) || a->bytes >
	    (UINT64_C(1) << 62))
		return fail(e, shape_at, "the data's size overflows");
	return 0;
}

size_t
ts_npy_header(char *buf, size_t cap, enum ts_npy_type t, size_t itemsize,
    int ndim, const uint64_t *shape)
{
	char d[TS_NPY_HDRMAX];
	size_t len, pre, total;
	int i, m;

	if (t != TS_NPY_UNICODE && t != TS_NPY_BYTES)
		itemsize = types[t].size;
	m = snprintf(d, sizeof(d), "{'descr': '%c%c%zu', 'fortran_order': "
	    "False, 'shape': (", (itemsize == 1 && t != TS_NPY_UNICODE) ||
	    t == TS_NPY_BYTES ? '|' : '<', types[t].kind, t ==
	    TS_NPY_UNICODE ? itemsize / 4 : itemsize);
	for (i = 0; i < ndim; i++)
		m += snprintf(d + m, sizeof(d) - (size_t)m, "%llu%s",
		    (unsigned long long)shape[i], ndim == 1 ? "," : i + 1 <
		    ndim ? ", " : "");
	m += snprintf(d + m, sizeof(d) - (size_t)m, "), }");
	len = (size_t)m;
	pre = len + 1 + 10 <= 65535 ? 10 : 12;
	total = (pre + len + 1 + 63) / 64 * 64;
	if (total > cap)
		return 0;
	memcpy(buf, magic, 6);
	buf[6] = pre == 10 ? 1 : 2;
	buf[7] = 0;
	for (i = 0; i < (int)pre - 8; i++)
		buf[8 + i] = (char)((total - pre) >> (8 * i) & 0xff);
	memcpy(buf + pre, d, len);
	memset(buf + pre + len, ' ', total - pre - len - 1);
	buf[total - 1] = '\n';
	return total;
}

char *
ts_npy_utf32_to_utf8(const unsigned char *p, uint64_t n, bool big,
    struct ts_npy_err *e)
{
	char *s, *q;
	uint64_t i;
	uint32_t c;

	if (n > (SIZE_MAX - 1) / 4) {
		fail(e, 0, "a string too long");
		return NULL;
	}
	s = q = ts_xmalloc((size_t)n * 4 + 1);
	for (i = 0; i < n; i++, p += 4) {
		c = big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 24 |
		    (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
		if (c == 0)
			break;
		if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
			free(s);
			fail(e, i * 4, "U+%X is no character", c);
			return NULL;
		}
		if (c < 0x80)
			*q++ = (char)c;
		else if (c < 0x800) {
			*q++ = (char)(0xc0 | c >> 6);
			*q++ = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			*q++ = (char)(0xe0 | c >> 12);
			*q++ = (char)(0x80 | (c >> 6 & 0x3f));
			*q++ = (char)(0x80 | (c & 0x3f));
		} else {
			*q++ = (char)(0xf0 | c >> 18);
			*q++ = (char)(0x80 | (c >> 12 & 0x3f));
			*q++ = (char)(0x80 | (c >> 6 & 0x3f));
			*q++ = (char)(0x80 | (c & 0x3f));
		}
	}
	*q = '\0';
	return s;
}

unsigned char *
ts_npy_utf8_to_utf32(const char *s, uint64_t *n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), k = 0;
	unsigned char *out = ts_xmalloc(len * 4 + 4);
	uint32_t c;
	int more, j;

	while (*p != '\0') {
		if (*p < 0x80)
			c = *p, more = 0;
		else if ((*p & 0xe0) == 0xc0)
			c = *p & 0x1f, more = 1;
		else if ((*p & 0xf0) == 0xe0)
			c = *p & 0x0f, more = 2;
		else if ((*p & 0xf8) == 0xf0)
			c = *p & 0x07, more = 3;
		else
			goto bad;
		p++;
		for (j = 0; j < more; j++, p++) {
			if ((*p & 0xc0) != 0x80)
				goto bad;
			c = c << 6 | (*p & 0x3f);
		}
		if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ||
		    (more == 1 && c < 0x80) || (more == 2 && c < 0x800) ||
		    (more == 3 && c < 0x10000))
			goto bad;
		for (j = 0; j < 4; j++)
			out[k * 4 + (size_t)j] = (unsigned char)(c >> (8 * j));
		k++;
	}
	*n = k;
	return out;
bad:
	free(out);
	return NULL;
}
