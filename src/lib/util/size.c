/*
 * size.c - the size parser of every tool's options (see size.h).  The
 * digits are read by hand, not by strtod(3), which would take "0x1p4",
 * "inf", "1e3" and a locale's decimal comma for sizes.
 */
#include <errno.h>
#include <stddef.h>

#include "tensorsuite.h"
#include "util/size.h"

#define SIZE_LIMIT	((uint64_t)INT64_MAX)

int
ts_parse_size(const char *s, uint64_t whole, uint64_t *out)
{
	uint64_t ip = 0, fp = 0, fscale = 1, mult = 1, v;
	const char *p = s;
	int nd = 0;
	double frac;

	/* Digits before the point: beyond 2^63, too big whatever the
	 * suffix says. */
	for (; *p >= '0' && *p <= '9'; p++, nd++)
		if (!ts_mul_u64(ip, 10, &ip) || ip > SIZE_LIMIT - (uint64_t)(*p -
		    '0'))
			goto range;
		else
			ip += (uint64_t)(*p - '0');
	/* After it, the first 18 digits count; the rest cannot change the
	 * bytes of a size that fits. */
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, nd++)
			if (fscale < (uint64_t)1000000000000000000) {
				fp = fp * 10 + (uint64_t)(*p - '0');
				fscale *= 10;
			}
	if (nd == 0)
		goto bad;
	frac = (double)fp / (double)fscale;
	switch (*p) {
	case '\0':
		break;
	case '%':
		if (p[1] != '\0' || (ip == 0 && fp == 0) || ip > 100 ||
		    (ip == 100 && fp != 0))
			goto bad;
		/* Exact for whole percents; a fraction of one rounds down
		 * within a byte of the exact figure. */
		v = whole / 100 * ip + whole % 100 * ip / 100 +
		    (uint64_t)((double)whole * frac / 100);
		*out = v > SIZE_LIMIT ? SIZE_LIMIT : v;
		return 0;
	case 'k': case 'K':
		mult = (uint64_t)1 << 10;
		break;
	case 'm': case 'M':
		mult = (uint64_t)1 << 20;
		break;
	case 'g': case 'G':
		mult = (uint64_t)1 << 30;
		break;
	case 't': case 'T':
		mult = (uint64_t)1 << 40;
		break;
	default:
		goto bad;
	}
	if (*p != '\0' && p[1] != '\0')
		goto bad;
	if (!ts_mul_u64(ip, mult, &v) || v > SIZE_LIMIT)
		goto range;
	/* A fraction of a byte is no byte. */
	v += (uint64_t)(frac * (double)mult);
	if (v > SIZE_LIMIT)
		goto range;
	*out = v;
	return 0;
bad:
	errno = EINVAL;
	return -1;
range:
	/* Still not a size when what follows the digits is not one. */
	while ((*p >= '0' && *p <= '9') || *p == '.')
		p++;
	if (*p != '\0' && (p[1] != '\0' || !(*p == '%' || *p == 'k' ||
	    *p == 'K' || *p == 'm' || *p == 'M' || *p == 'g' || *p == 'G' ||
	    *p == 't' || *p == 'T')))
		errno = EINVAL;
	else
		errno = ERANGE;
	return -1;
}
