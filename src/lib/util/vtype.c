/*
 * vtype.c - the value types of the format, one row each: the name the
 * metadata spells, the bytes of a binary record's value, integer or
 * float, the range, and the functions that read and write one value as
 * text and many as binary fields.  Everything that branches on a value
 * type asks this table instead, so that a new type is a row here and the
 * functions of its row.  The text functions are the exact ones of
 * num/; a float type's text reads back to the same bits.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tensorsuite.h"

/* ---- text ---- */

/* An infinity that its literal did not spell: the value overflowed. */
static bool
overflowed(double v, const char *p)
{
	if (!isinf(v))
		return false;
	p += *p == '-' || *p == '+';
	return *p != 'i' && *p != 'I';
}

static const char *
parse_f64(const char *p, const char *e, double *f, int64_t *i, int *why)
{
	const char *q = ts_parse_double(p, e, f);

	(void)i;
	*why = q == NULL ? TS_VTYPE_NOT : overflowed(*f, p) ?
	    TS_VTYPE_RANGE : TS_VTYPE_OK;
	return q;
}

static const char *
parse_f32(const char *p, const char *e, double *f, int64_t *i, int *why)
{
	float x = 0;
	const char *q = ts_parse_float(p, e, &x);

	(void)i;
	*f = x;
	*why = q == NULL ? TS_VTYPE_NOT : overflowed(*f, p) ?
	    TS_VTYPE_RANGE : TS_VTYPE_OK;
	return q;
}

/* An optional sign and decimal digits, within [lo, hi]. */
static const char *
parse_int(const char *p, const char *e, int64_t *out, uint64_t hi,
    int *why)
{
	const bool neg = p != e && *p == '-';
	const char *q = p + (p != e && (*p == '-' || *p == '+'));
	uint64_t u = 0;
	bool big = false;

	if (q == e || *q < '0' || *q > '9') {
		*why = TS_VTYPE_NOT;
		return NULL;
	}
	for (; q != e && *q >= '0' && *q <= '9'; q++) {
		big |= u > (UINT64_MAX - 9) / 10;
		u = u * 10 + (uint64_t)(*q - '0');
	}
	if (big || u > hi + (neg ? 1 : 0)) {
		*why = TS_VTYPE_RANGE;
		return q;
	}
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	*why = TS_VTYPE_OK;
	return q;
}

static const char *
parse_i32(const char *p, const char *e, double *f, int64_t *i, int *why)
{
	(void)f;
	return parse_int(p, e, i, INT32_MAX, why);
}

static const char *
parse_i64(const char *p, const char *e, double *f, int64_t *i, int *why)
{
	(void)f;
	return parse_int(p, e, i, INT64_MAX, why);
}

static int
print_f64(char *buf, double f, int64_t i)
{
	(void)i;
	return ts_fmt_double(buf, f);
}

static int
print_f32(char *buf, double f, int64_t i)
{
	(void)i;
	return ts_fmt_float(buf, (float)f);
}

static int
print_int(char *buf, double f, int64_t i)
{
	(void)f;
	return ts_fmt_i64(buf, i);
}

static double
narrow_f32(double x)
{
	return (float)x;
}

/* ---- binary fields ---- */

static inline uint32_t
ld32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t
ld64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static inline void
st32(unsigned char *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static inline void
st64(unsigned char *p, uint64_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static void
load_f32(const unsigned char *v, size_t stride, size_t n, bool swap,
    double *f, int64_t *i)
{
	size_t k;

	(void)i;
	for (k = 0; k < n; k++) {
		uint32_t u = ld32(v + k * stride, swap);
		float x;

		memcpy(&x, &u, 4);
		f[k] = x;
	}
}

static void
load_f64(const unsigned char *v, size_t stride, size_t n, bool swap,
    double *f, int64_t *i)
{
	size_t k;

	(void)i;
	for (k = 0; k < n; k++) {
		uint64_t u = ld64(v + k * stride, swap);

		memcpy(&f[k], &u, 8);
	}
}

static void
load_i32(const unsigned char *v, size_t stride, size_t n, bool swap,
    double *f, int64_t *i)
{
	size_t k;

	(void)f;
	for (k = 0; k < n; k++)
		i[k] = (int32_t)ld32(v + k * stride, swap);
}

static void
load_i64(const unsigned char *v, size_t stride, size_t n, bool swap,
    double *f, int64_t *i)
{
	size_t k;

	(void)f;
	for (k = 0; k < n; k++)
		i[k] = (int64_t)ld64(v + k * stride, swap);
}

static void
store_f32(unsigned char *v, size_t stride, size_t n, bool swap,
    const double *f, const int64_t *i)
{
	size_t k;

	(void)i;
	for (k = 0; k < n; k++) {
		float x = (float)f[k];
		uint32_t u;

		memcpy(&u, &x, 4);
		st32(v + k * stride, u, swap);
	}
}

static void
store_f64(unsigned char *v, size_t stride, size_t n, bool swap,
    const double *f, const int64_t *i)
{
	size_t k;

	(void)i;
	for (k = 0; k < n; k++) {
		uint64_t u;

		memcpy(&u, &f[k], 8);
		st64(v + k * stride, u, swap);
	}
}

static void
store_i32(unsigned char *v, size_t stride, size_t n, bool swap,
    const double *f, const int64_t *i)
{
	size_t k;

	(void)f;
	for (k = 0; k < n; k++)
		st32(v + k * stride, (uint32_t)i[k], swap);
}

static void
store_i64(unsigned char *v, size_t stride, size_t n, bool swap,
    const double *f, const int64_t *i)
{
	size_t k;

	(void)f;
	for (k = 0; k < n; k++)
		st64(v + k * stride, (uint64_t)i[k], swap);
}

/* ---- the table ---- */

static const struct ts_vtype_info vtypes[] = {
	[TS_VTYPE_FLOAT32] = { "float32", 4, false, 24, FLT_MAX, 0x1p-149,
	    0, 0, parse_f32, print_f32, narrow_f32, load_f32, store_f32 },
	[TS_VTYPE_FLOAT64] = { "float64", 8, false, 53, DBL_MAX, 0x1p-1074,
	    0, 0, parse_f64, print_f64, NULL, load_f64, store_f64 },
	[TS_VTYPE_INT32] = { "int32", 4, true, 0, 2147483647.0, 1,
	    INT32_MIN, INT32_MAX, parse_i32, print_int, NULL, load_i32,
	    store_i32 },
	[TS_VTYPE_INT64] = { "int64", 8, true, 0, 9223372036854775807.0, 1,
	    INT64_MIN, INT64_MAX, parse_i64, print_int, NULL, load_i64,
	    store_i64 },
};

_Static_assert(sizeof(vtypes) / sizeof(vtypes[0]) == TS_VTYPE_COUNT,
    "a row for every value type of enum ts_vtype");

const struct ts_vtype_info *
ts_vtype_info(enum ts_vtype t)
{
	return (unsigned)t < TS_VTYPE_COUNT ? &vtypes[t] : NULL;
}

const char *
ts_vtype_name(enum ts_vtype t)
{
	return (unsigned)t < TS_VTYPE_COUNT ? vtypes[t].name : NULL;
}

int
ts_vtype_of_name(const char *s)
{
	int t;

	for (t = 0; s != NULL && t < TS_VTYPE_COUNT; t++)
		if (strcmp(vtypes[t].name, s) == 0)
			return t;
	return -1;
}

size_t
ts_vtype_size(enum ts_vtype t)
{
	return (unsigned)t < TS_VTYPE_COUNT ? vtypes[t].size : 0;
}
