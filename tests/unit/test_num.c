/*
 * test_num.c - unit tests for tsnum.h (src/lib/num_parse.c, num_fmt.c)
 * and the field parser of the row scanner (num/num_field.h).
 *
 *	cc -std=c11 -O2 -Isrc/lib tests/unit/test_num.c \
 *	    src/lib/num_parse.c src/lib/num_fmt.c -lm
 *
 *	test_num [--scale=F] [seed]	run the tests, print TAP
 *	test_num --bench [seed]		time the conversions against libc
 *
 * The reference is the C library: glibc's strtod() and strtof() round
 * correctly and its printf() prints exact decimal expansions, so the
 * midpoint between two adjacent doubles (exact in long double) or two
 * adjacent floats (exact in double) can be written out digit for digit.
 * Random cases come from a fixed-seed splitmix64 generator; --scale
 * multiplies the number of random cases (e.g. 0.1 under a sanitizer).
 *
 * Every literal is parsed from a copy placed at the very end of a heap
 * block, with nothing after it: built with -fsanitize=address, any read
 * at or beyond `end' stops the program.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tsnum.h"
#include "num/digits.h"
#include "num/num_field.h"

/* ---- random numbers ---- */

static uint64_t rng;

/* splitmix64: tiny, fast and good enough for test data. */
static uint64_t
rnd(void)
{
	uint64_t z = (rng += 0x9E3779B97F4A7C15u);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

/* Uniform-enough integer in [0, n). */
static long
rndn(long n)
{
	return (long)(rnd() % (uint64_t)n);
}

/*
 * rnd() shifted right by a random amount: all magnitudes equally often.
 * (Each draw is its own statement: the order in which the operands of
 * one expression are evaluated is unspecified, and the cases must be the
 * same whatever the compiler.)
 */
static uint64_t
rnd_mag(int bits)
{
	int s = (int)rndn(bits);

	return rnd() >> s;
}

/* A short decimal such as 1.25, 0.3 or -4e-7: k * 10^(-25..24). */
static double
rnd_short_dec(void)
{
	double k = (double)(rndn(100000) - 50000);

	return k * pow(10, (double)(rndn(50) - 25));
}

static double
d_of(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

static uint64_t
bits_d(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof b);
	return b;
}

static float
f_of(uint32_t b)
{
	float v;

	memcpy(&v, &b, sizeof v);
	return v;
}

static uint32_t
bits_f(float v)
{
	uint32_t b;

	memcpy(&b, &v, sizeof b);
	return b;
}

/* A random finite double: all bit patterns, subnormals more often. */
static double
rnd_double(void)
{
	uint64_t b;

	do {
		b = rnd();
		if (rndn(16) == 0)	/* subnormal or zero */
			b &= 0x800FFFFFFFFFFFFFu;
	} while ((b & 0x7FF0000000000000u) == 0x7FF0000000000000u);
	return d_of(b);
}

static float
rnd_float(void)
{
	uint32_t b;

	do {
		b = (uint32_t)rnd();
		if (rndn(16) == 0)
			b &= 0x807FFFFFu;
	} while ((b & 0x7F800000u) == 0x7F800000u);
	return f_of(b);
}

/* ---- TAP ---- */

static double scale = 1.0;
static double t_begin;
static int ntest, nbad;
static long nfail, ncase;

static long
count(long n)
{
	long c = (long)((double)n * scale);

	return c < 1 ? 1 : c;
}

static double now(void);

static void
begin(void)
{
	nfail = 0;
	ncase = 0;
	t_begin = now();
}

/* A failing case: show the first few as TAP diagnostics. */
static void
fail(const char *fmt, ...)
{
	va_list ap;

	if (nfail++ >= 5)
		return;
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void
end(const char *desc)
{
	ntest++;
	if (nfail) {
		printf("# %ld of %ld cases failed\n", nfail, ncase);
		printf("not ok %d - %s\n", ntest, desc);
		nbad++;
	} else
		printf("ok %d - %s (%ld cases, %.1f s)\n", ntest, desc, ncase,
		    now() - t_begin);
	fflush(stdout);
}

/* ---- parsing ---- */

/*
 * A copy of the literal that ends exactly where the heap block ends, so
 * that AddressSanitizer reports any read past `end'.
 */
#define BLK	8192
static char *blk;

static const char *
place(const char *s, size_t n)
{
	char *p = blk + BLK - n;

	memcpy(p, s, n);
	return p;
}

static int
same_d(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b) && !signbit(a) == !signbit(b);
	return bits_d(a) == bits_d(b);
}

static int
same_f(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b) && !signbit(a) == !signbit(b);
	return bits_f(a) == bits_f(b);
}

/* ts_parse_double(s) against strtod(s): value and length. */
static void
check_pd(const char *s)
{
	size_t n = strlen(s);
	const char *p = place(s, n), *r;
	char *e;
	double want, got = 0;

	ncase++;
	want = strtod(s, &e);
	r = ts_parse_double(p, p + n, &got);
	if (e == s) {
		if (r != NULL)
			fail("\"%.80s\": accepted, strtod does not", s);
		return;
	}
	if (r == NULL)
		fail("\"%.80s\": rejected", s);
	else if (r - p != e - s)
		fail("\"%.80s\": length %td, strtod %td", s, r - p, e - s);
	else if (!same_d(got, want))
		fail("\"%.100s\"%s (%zu chars): %a, strtod %a", s,
		    n > 100 ? "..." : "", n, got, want);
}

static float
check_pf(const char *s)
{
	size_t n = strlen(s);
	const char *p = place(s, n), *r;
	char *e;
	float want, got = 0;

	ncase++;
	want = strtof(s, &e);
	r = ts_parse_float(p, p + n, &got);
	if (e == s) {
		if (r != NULL)
			fail("\"%.80s\": accepted, strtof does not", s);
		return want;
	}
	if (r == NULL)
		fail("\"%.80s\": rejected", s);
	else if (r - p != e - s)
		fail("\"%.80s\": length %td, strtof %td", s, r - p, e - s);
	else if (!same_f(got, want))
		fail("\"%.100s\"%s (%zu chars): %a, strtof %a", s,
		    n > 100 ? "..." : "", n, (double)got, (double)want);
	return want;
}

static void
t_parse_g17(void)
{
	char buf[64];
	long i, n = count(1000000);

	begin();
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof buf, "%.17g", rnd_double());
		check_pd(buf);
	}
	end("parse double: random bit patterns as %.17g");
}

static void
t_parse_e(void)
{
	char buf[64];
	long i, n = count(1000000);

	begin();
	for (i = 0; i < n; i++) {
		/* %.0e to %.19e: 1 to 20 significant digits */
		int prec = (int)rndn(20);

		snprintf(buf, sizeof buf, "%.*e", prec, rnd_double());
		check_pd(buf);
	}
	end("parse double: random bit patterns as %.{0..19}e");
}

/* A random double, mostly of moderate size so that %f stays short. */
static double
rnd_moderate(void)
{
	double v;

	if (rndn(32) == 0)
		return rnd_double();
	v = (double)(rnd() >> 11);
	v = ldexp(v, (int)rndn(141) - 70 - 53);
	return rndn(2) ? -v : v;
}

static void
t_parse_f(void)
{
	char buf[512];
	long i, n = count(1000000);

	begin();
	for (i = 0; i < n; i++) {
		int prec = (int)rndn(21);

		snprintf(buf, sizeof buf, "%.*f", prec, rnd_moderate());
		check_pd(buf);
	}
	end("parse double: random values as %.{0..20}f");
}

/* n random digits, zeros more often than the others. */
static char *
put_rdigits(char *p, long n)
{
	while (n-- > 0)
		*p++ = rndn(4) == 0 ? '0' : (char)('0' + rndn(10));
	return p;
}

/* n zeros */
static char *
put_zeros(char *p, long n)
{
	memset(p, '0', (size_t)n);
	return p + n;
}

/*
 * A random literal exercising the grammar: signs, leading and trailing
 * zeros, "5." and ".5", exponents with signs and leading zeros, cut-off
 * exponents ("1e", "1e+") and junk after the literal.
 */
static void
rnd_syntax(char *buf, int maxdig)
{
	char *p = buf, *digits;

	switch (rndn(3)) {
	case 0:
		*p++ = '-';
		break;
	case 1:
		*p++ = '+';
		break;
	}
	digits = p;
	if (rndn(4) == 0)
		p = put_zeros(p, rndn(6) + 1);
	p = put_rdigits(p, rndn(maxdig / 2 + 1));
	if (rndn(2)) {
		*p++ = '.';
		p = put_rdigits(p, rndn(maxdig / 2 + 1));
		if (rndn(4) == 0)
			p = put_zeros(p, rndn(6) + 1);
	}
	if (p == digits || (p == digits + 1 && *digits == '.'))
		*p++ = (char)('0' + rndn(10));	/* at least one digit */
	if (rndn(2)) {
		*p++ = rndn(2) ? 'e' : 'E';
		switch (rndn(3)) {
		case 0:
			*p++ = '-';
			break;
		case 1:
			*p++ = '+';
			break;
		}
		if (rndn(20)) {		/* else a cut-off exponent */
			if (rndn(4) == 0)
				*p++ = '0';
			p += sprintf(p, "%ld", rndn(rndn(4) ? 40 : 400));
		}
	}
	if (rndn(10) == 0)
		*p++ = ".xe, 9"[rndn(6)];
	*p = '\0';
}

static void
t_parse_syntax(void)
{
	char buf[128];
	long i, n = count(1000000);

	begin();
	for (i = 0; i < n; i++) {
		rnd_syntax(buf, 44);
		check_pd(buf);
	}
	end("parse double: random literals (signs, zeros, \".5\", \"5.\", "
	    "exponent forms)");
}

/* ---- decimal strings: exact midpoints and their neighbours ---- */

/* A decimal D * 10^e, D a string of n digits without leading zeros. */
struct decimal {
	int	n;
	long	e;
	char	d[1200];
};

/*
 * From printf's "%.*e" output: exact when asked for at least as many
 * digits as the value has.  Trailing zeros are dropped.
 */
static void
dec_from_e(struct decimal *r, const char *s)
{
	int n = 0;

	for (; *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			r->d[n++] = *s;
	r->e = strtol(s + 1, NULL, 10) - (n - 1);
	while (n > 1 && r->d[n - 1] == '0') {
		n--;
		r->e++;
	}
	r->n = n;
}

/* Add one unit in the last digit (+1), or take one away (-1). */
static void
dec_step(struct decimal *r, int step)
{
	int i = r->n - 1;

	for (; i >= 0 && r->d[i] == (step > 0 ? '9' : '0'); i--)
		r->d[i] = step > 0 ? '0' : '9';
	if (i >= 0)
		r->d[i] = (char)(r->d[i] + step);
	else {				/* 99..9 + 1 */
		memmove(r->d + 1, r->d, (size_t)r->n++);
		r->d[0] = '1';
	}
}

/* Append digits (value changes by less than one unit of the last one). */
static void
dec_append(struct decimal *r, const char *tail)
{
	size_t k = strlen(tail);

	memcpy(r->d + r->n, tail, k);
	r->n += (int)k;
	r->e -= (long)k;
}

/*
 * Write D * 10^e as "Ne-7", "1.2345e+3" or positional "0.00012345"
 * (positional only when it stays reasonably short).
 */
static void
dec_str(char *out, const struct decimal *r)
{
	char *p = out;
	long i, n = r->n, e = r->e, style = rndn(3);

	if (style == 2 && (e < -400 || e > 60))
		style = rndn(2);
	if (style == 0) {
		memcpy(p, r->d, (size_t)n);
		sprintf(p + n, "e%ld", e);
	} else if (style == 1) {
		*p++ = r->d[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, r->d + 1, (size_t)n - 1);
			p += n - 1;
		}
		sprintf(p, "e%+ld", e + n - 1);
	} else if (e >= 0) {
		memcpy(p, r->d, (size_t)n);
		memset(p + n, '0', (size_t)e);
		p[n + e] = '\0';
	} else if (n + e > 0) {		/* 12.345 */
		memcpy(p, r->d, (size_t)(n + e));
		p += n + e;
		*p++ = '.';
		memcpy(p, r->d + n + e, (size_t)-e);
		p[-e] = '\0';
	} else {			/* 0.00012345 */
		*p++ = '0';
		*p++ = '.';
		for (i = 0; i < -e - n; i++)
			*p++ = '0';
		memcpy(p, r->d, (size_t)n);
		p[n] = '\0';
	}
}

/*
 * A midpoint and its neighbours, each in a random shape: the midpoint
 * itself, one unit more or less in its last digit, the midpoint cut to
 * 10 to 24 digits (just below it), and the midpoint plus or minus far
 * less than half an ulp of a double (where parsing a float as a double
 * first returns exactly the midpoint: the double-rounding trap).
 */
static void
check_mid(const struct decimal *mid, void (*check)(const char *))
{
	static struct decimal r;
	static char buf[1600];
	int t;

	dec_str(buf, mid);
	check(buf);
	r = *mid;
	dec_step(&r, -1);
	dec_str(buf, &r);
	check(buf);
	r = *mid;
	dec_step(&r, +1);
	dec_str(buf, &r);
	check(buf);
	r = *mid;
	t = 10 + (int)rndn(15);
	if (r.n > t) {
		r.e += r.n - t;
		r.n = t;
	} else
		dec_append(&r, "00000000000000000000000000000000000001");
	dec_str(buf, &r);
	check(buf);
	r = *mid;
	if (rndn(2))
		dec_append(&r, "00000000000000000000001");
	else {
		dec_step(&r, -1);
		dec_append(&r, "99999999999999999999999");
	}
	dec_str(buf, &r);
	check(buf);
}

/*
 * The exact decimal value of m = c 2^k, given m in long double: with k
 * < 0 it has -k digits after the point, so asking printf for -k digits
 * beyond the first one's exponent (which %.0e may overstate by one,
 * harmlessly) prints it exactly.
 */
static void
exact_ld(struct decimal *r, long double m, int k)
{
	char buf[1400];
	long x;

	snprintf(buf, sizeof buf, "%.0Le", m);
	x = strtol(strchr(buf, 'e') + 1, NULL, 10);
	snprintf(buf, sizeof buf, "%.*Le", (int)(x + (k < 0 ? -k : 0) + 1), m);
	dec_from_e(r, buf);
}

/* The same for a double (cheaper to print). */
static void
exact_d(struct decimal *r, double m, int k)
{
	char buf[400];
	long x;

	snprintf(buf, sizeof buf, "%.0e", m);
	x = strtol(strchr(buf, 'e') + 1, NULL, 10);
	snprintf(buf, sizeof buf, "%.*e", (int)(x + (k < 0 ? -k : 0) + 1), m);
	dec_from_e(r, buf);
}

/*
 * The midpoint between v > 0 and the next double up.  It has 54
 * significant bits: exact in an x87 or IEEE quad long double.
 */
static int
mid_double(struct decimal *r, double v)
{
#if LDBL_MANT_DIG >= 54
	int e = v < DBL_MIN ? -1074 : ilogb(v) - 52;	/* ulp = 2^e */

	exact_ld(r, (long double)v + ldexpl(1.0L, e - 1), e - 1);
	return 1;
#else
	(void)r;
	(void)v;
	return 0;
#endif
}

/* Doubles from all over, weighted towards cheap (short) midpoints. */
static double
rnd_for_mid(void)
{
	uint64_t b = rnd() & 0x000FFFFFFFFFFFFFu;
	long r = rndn(100);
	uint64_t e;

	if (r < 72)		/* 2^-60 .. 2^70: up to ~80 digits */
		e = 1023 - 60 + (uint64_t)rndn(131);
	else if (r < 85)	/* anywhere */
		e = (uint64_t)rndn(2047);
	else if (r < 89)	/* subnormals: ~750 digits */
		e = 0;
	else if (r < 94)	/* the top and bottom binades */
		e = rndn(2) ? 2046 : 1;
	else			/* integers near 2^53 .. 2^64 */
		e = 1023 + 52 + (uint64_t)rndn(13);
	if (e == 0 && b == 0)
		b = 1;
	return d_of(e << 52 | b);
}

static void
t_parse_halfway(void)
{
	static struct decimal mid;
	long i, n = count(1000000) / 5;

	begin();
	if (!mid_double(&mid, 1.0)) {
		ntest++;
		printf("ok %d # SKIP long double cannot hold a midpoint\n", ntest);
		return;
	}
	for (i = 0; i < n; i++) {
		mid_double(&mid, rnd_for_mid());
		check_mid(&mid, check_pd);
	}
	/* The largest: half way to 2^1024 (rounds to inf). */
	mid_double(&mid, DBL_MAX);
	check_mid(&mid, check_pd);
	end("parse double: exact halfway cases between adjacent doubles, "
	    "+-1 in the last digit, truncated, +-tiny");
}

/*
 * Long random digit strings around a random decimal exponent, with more
 * zeros and nines than chance gives, and now and then a long run of
 * them (which is where truncating to 19 digits is hardest).  Four bits of
 * randomness per digit keep the generator cheap.
 */
static void
rnd_long(char *buf, long maxlen)
{
	static const char nib[] = "012345678900999";
	char *p = buf, rep = '0';
	long n, point, x, i, left = 0, r = rndn(100);
	uint64_t bits = 0;
	int k = 0, v;

	n = r < 70 ? 20 + rndn(21) : r < 96 ? 40 + rndn(160) :
	    200 + rndn(maxlen - 199);
	if (rndn(2))
		*p++ = '-';
	if (rndn(4) == 0) {		/* "0.000ddd": all after the point */
		memcpy(p, "0.00000", 7);
		p += 2 + rndn(6);
		point = n;
	} else
		point = 1 + rndn(n);	/* digits before the point */
	*p++ = (char)('1' + rndn(9));
	for (i = 1; i < n; i++) {
		if (i == point)
			*p++ = '.';
		if (left > 0) {
			*p++ = rep;
			left--;
			continue;
		}
		if (k++ % 16 == 0)
			bits = rnd();
		v = (int)(bits & 15);
		bits >>= 4;
		if (v < 15) {
			*p++ = nib[v];
			continue;
		}
		rep = bits & 1 ? '9' : '0';
		left = 5 + (long)(bits >> 1 & 31);
		*p++ = rep;
	}
	/* the decimal exponent of the first digit: about -330..320 */
	x = rndn(4) == 0 ? rndn(651) - 330 : rndn(61) - 30;
	sprintf(p, "e%ld", x - (point == n ? 0 : point - 1));
}

/*
 * The fast paths (Clinger's quotient, Eisel-Lemire's product) against
 * the exact parser alone (ts_parse_double_exact, big integers only) and
 * strtod: the bits and the length must agree.
 */
static void
check_fast(const char *s)
{
	size_t n = strlen(s);
	const char *p = place(s, n), *r, *x;
	double got = 0, want = 0;

	ncase++;
	r = ts_parse_double(p, p + n, &got);
	x = ts_parse_double_exact(p, p + n, &want);
	if (r != x)
		fail("\"%.80s\": length %td, exactly %td", s, r ? r - p : -1,
		    x ? x - p : -1);
	else if (r != NULL && bits_d(got) != bits_d(want))
		fail("\"%.80s\": %a, exactly %a", s, got, want);
	else if (r != NULL && bits_d(want) != bits_d(strtod(s, NULL)))
		fail("\"%.80s\": exactly %a, strtod %a", s, want,
		    strtod(s, NULL));
}

/*
 * The field parser (ts_parse_double_field, num_field.h) against the
 * exact parser: [p, e) is a field when the exact parser reads it whole,
 * and then the bits must agree.  The field ends where the heap block
 * does (AddressSanitizer stops any read at or past it), after bytes
 * that a scanner's row would have there: digits, points, signs, spaces.
 * With 32 bytes or more before the end the vector path (SSE2) reads it,
 * with fewer (the field at the block's start) the portable one: each
 * literal goes both ways.
 */
static void
check_field(const char *s)
{
	size_t n = strlen(s), i;
	char *p = blk + BLK - n;
	const char *x;
	double want = 0, got = 0, got2 = 0;
	int r, r2, whole;

	ncase++;
	for (i = 0; i < 40; i++)
		blk[BLK - n - 40 + i] = "0123456789.-+ e"[rndn(15)];
	memcpy(p, s, n);
	x = ts_parse_double_exact(p, p + n, &want);
	whole = x == p + n;
	r = ts_parse_double_field(blk, p, p + n, &got);
	if (r != whole)
		fail("\"%.80s\": field %s, exactly %s", s, r ? "taken" :
		    "refused", whole ? "taken" : "refused");
	else if (r && bits_d(got) != bits_d(want))
		fail("\"%.80s\": field %a, exactly %a", s, got, want);
	/* The same at the block's start: nothing before p to load. */
	memcpy(blk, s, n);
	r2 = ts_parse_double_field(blk, blk, blk + n, &got2);
	if (r2 != whole)
		fail("\"%.80s\": field at the start %s, exactly %s", s,
		    r2 ? "taken" : "refused", whole ? "taken" : "refused");
	else if (r2 && bits_d(got2) != bits_d(want))
		fail("\"%.80s\": field at the start %a, exactly %a", s, got2,
		    want);
}

/* n random digits at p, the first of them from first (a char set). */
static char *
put_digs(char *p, int n, const char *first)
{
	int i;

	for (i = 0; i < n; i++)
		*p++ = i == 0 && first ? first[rndn((long)strlen(first))] :
		    (char)('0' + rndn(10));
	return p;
}

static void
t_parse_field(void)
{
	char buf[96], *p;
	long i, n = count(3000000);
	int nd, at;
	uint64_t m;

	begin();
	for (i = 0; i < n; i++) {
		p = buf;
		switch (i % 8) {
		case 0:		/* as real tensors have them */
			snprintf(buf, sizeof buf, "%.17g", rnd_double());
			break;
		case 1:	/* a value in (0, 1), 16 or 17 digits: the common */
			snprintf(buf, sizeof buf, "%.*g", 16 + (int)rndn(2),
			    (double)(rnd() >> 11) * 0x1p-53);
			break;
		case 2:		/* 1..22 digits, a point anywhere or none */
			if (rndn(3) == 0)
				*p++ = "-+"[rndn(2)];
			nd = (int)rndn(22) + 1;
			at = rndn(4) == 0 ? -1 : (int)rndn(nd + 1);
			if (at >= 0) {
				p = put_digs(p, at, rndn(3) ? NULL : "0");
				*p++ = '.';
				p = put_digs(p, nd - at, NULL);
			} else
				p = put_digs(p, nd, rndn(2) ? NULL :
				    "123456789");
			*p = '\0';
			break;
		case 3:		/* digit counts at the edges: 8, 16, 19 */
			nd = "\x07\x08\x09\x0f\x10\x11\x12\x13\x14"[rndn(9)];
			at = (int)rndn(3);
			p = put_digs(p, at, "0123456789");
			*p++ = '.';
			p = put_digs(p, nd - at, NULL);
			*p = '\0';
			break;
		case 4:	/* exact midpoints near 2^50..2^53: k/8 .. k/2 */
			m = ((uint64_t)1 << 50) + (rnd() >> 14) % ((uint64_t)7 <<
			    50);
			snprintf(buf, sizeof buf, "%.3Lf", (long double)m / 8 +
			    (rndn(2) ? 0 : 1.0L / 16));
			break;
		case 5:		/* around 2^53, integers and not */
			m = ((uint64_t)1 << 53) - 8 + (uint64_t)rndn(16);
			snprintf(buf, sizeof buf, rndn(2) ? "%" PRIu64 :
			    "%" PRIu64 ".0", m);
			break;
		case 6:		/* any syntax: exponents, bad bytes */
			rnd_syntax(buf, 22);
			break;
		default:	/* a plain one broken or grown by a byte */
			snprintf(buf, sizeof buf, "%.*g", 1 + (int)rndn(17),
			    (double)(rnd() >> 11) * 0x1p-53 * (double)rndn(
			    100000));
			nd = (int)strlen(buf);
			at = (int)rndn(nd + 1);
			memmove(buf + at + 1, buf + at, (size_t)(nd - at + 1));
			buf[at] = ".-+e 0x"[rndn(7)];
			break;
		}
		check_field(buf);
	}
	end("parse double: fields as the row scanner's vector path and "
	    "the portable one read them, against the exact parser");
}

/* n digits, the first not 0, a point among them now and then. */
static char *
put_sig(char *p, int n, long *shift)
{
	int i, at = rndn(3) == 0 ? (int)rndn(n + 1) : n;

	*shift = 0;
	for (i = 0; i < n; i++) {
		if (i == at) {
			*p++ = '.';
			*shift = n - at;
		}
		*p++ = i == 0 ? (char)('1' + rndn(9)) : (char)('0' + rndn(10));
	}
	return p;
}

/* A long double's decimal digits: exact when asked for enough. */
static void
put_ld(char *buf, size_t n, int digits, long double v)
{
	snprintf(buf, n, "%s%.*Le", rndn(2) ? "-" : "", digits - 1, v);
}

static void
t_parse_fast(void)
{
	char buf[128];
	long i, n = count(3000000), shift, e;
	int nd, k, sh;
	uint64_t m, mid;
	long double ld;
	char *p;

	begin();
	for (i = 0; i < n; i++) {
		p = buf;
		if (rndn(2))
			*p++ = '-';
		switch (rndn(6)) {
		case 0:
		case 1:
			/* 1-19 digits, the value anywhere from below the
			 * subnormals to past the largest double. */
			nd = (int)rndn(19) + 1;
			p = put_sig(p, nd, &shift);
			e = rndn(345 + 311) - 345 - (nd - 1) + shift;
			sprintf(p, "e%ld", e);
			break;
		case 2:
			/* Where the quotient and the product take over:
			 * 15-20 digits, powers of ten within 10^+-25. */
			nd = (int)rndn(6) + 15;
			p = put_sig(p, nd, &shift);
			sprintf(p, "e%ld", rndn(51) - 25);
			break;
		case 3:
			/* Exact halfway cases between doubles of 2^49 to
			 * 2^64 (16 to 20 digits, 1-4 of them after the point
			 * below 2^53). */
			k = (int)rndn(15) + 49;
			m = (rnd() >> 11) | (uint64_t)1 << 52;
			mid = 2 * m + 1;	/* times 2^(k - 53) */
			sh = k - 53;
			ld = (long double)mid;
			ld = sh >= 0 ? ld * (long double)((uint64_t)1 << sh) :
			    ld / (long double)((uint64_t)1 << -sh);
			put_ld(buf, sizeof(buf), sh >= 0 ? 20 : 21, ld);
			break;
		case 4:
			/* Near halfway anywhere, subnormals too: the 19 and
			 * 17 first digits of the midpoint above a double. */
			ld = (long double)rnd_double();
			ld += (long double)(nextafter((double)ld, INFINITY) -
			    (double)ld) / 2;
			put_ld(buf, sizeof(buf), rndn(2) ? 19 : 17, ld);
			break;
		default:
			/* The 19-digit boundary: 18-20 digits of nines, or
			 * near 2^64, at a random power of ten. */
			nd = (int)rndn(3) + 18;
			if (rndn(2)) {
				memset(p, '9', (size_t)nd);
				p += nd;
			} else
				p += sprintf(p, "%" PRIu64,
				    UINT64_MAX - (uint64_t)rndn(1000));
			sprintf(p, "e%ld", rndn(600) - 330);
			break;
		}
		check_fast(buf);
	}
	end("parse double: the fast paths against the exact parser (1-20 "
	    "digits, whole range, halfway cases, the 19-digit boundary)");
}

static void
t_parse_long(void)
{
	static char buf[1000];
	long i, n = count(1000000);

	begin();
	for (i = 0; i < n; i++) {
		rnd_long(buf, 800);
		check_pd(buf);
	}
	end("parse double: long inputs (20 to 800 significant digits)");
}

/* Hand-picked literals shared by the double and float tables. */
static const char *const edge_common[] = {
	"0", "-0", "+0", "0.0", "-0.0", "-0.0e5", "0e999999999", "-0e-99999",
	"00000000000000000000000000000000000000000000.0000000000000000000",
	".5", "5.", "+1", "-1", "1.", "+.5e1", "-5.E-1", "1e0", "1E+00",
	"1e", "1e+", "1e-", "1E", "1.5e", "1.5e-x", "7e+0009",
	"inf", "-inf", "+inf", "INF", "-Infinity", "infinity", "InFiNiTy",
	"infinit", "infx", "nan", "NaN", "-nan", "+NAN", "nanx",
	"123456789012345678", "1234567890123456789",
	"12345678901234567890", "123456789012345678901234567890",
	"0.000000000000000000000000000000000000000000001",
	"000000000000000000000000000000000000001.5",
	"1.000000000000000000000000000000000000000000000001",
	"0.99999999999999999999999999999999999999999999999",
	"1e999999999999999999999", "1e-999999999999999999999",
	"-1e999999999999999999999",
	"0.0000000000000000000000000000000000000000001e40",
	"100000000000000000000000000000000000000000e-40",
	"3.14159265358979323846264338327950288419716939937510",
	"2.71828182845904523536028747135266249775724709369995",
	"9007199254740992", "9007199254740993", "9007199254740994",
	"9007199254740995", "9007199254740993.0000000000000000001",
	"9007199254740992.9999999999999999999",
	"16777216", "16777217", "16777218", "16777219", "8388608.5",
	"8388609.5", "16777217.000000000000000000001",
	"0.1", "0.2", "0.3", "1e22", "1e23", "1e-22", "1e-23", "123e30",
	"123456789012345e25", "9007199254740991e22", "9007199254740993e22",
	"4503599627370496.5", "4503599627370497.5", "1e-1", "1e-10",
	"1e10", "1e-45", "1e-46", "1e38", "1e39", "1e308", "1e309",
	"1e-323", "1e-324", "1e-325", "1e-400", "1e400",
	NULL,
};

static const char *const edge_double[] = {
	"1.7976931348623157e308",	/* DBL_MAX */
	"1.7976931348623158e308",	/* below the overflow threshold */
	"1.7976931348623158079372897140530341507993413271003782693617377898044496829276475094664736817e308",
	"1.797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977920",
	"1.7976931348623159e308",	/* above it: inf */
	"179769313486231580793728971405301e276",
	"2.2250738585072014e-308",	/* DBL_MIN */
	"2.2250738585072011e-308",	/* the largest subnormal, ~ */
	"2.2250738585072012e-308",
	"2.225073858507201136057409796709131975934819546351645648023426109724822222021076945516529523908135087914149158913039621106870086438694594645527657207407820621743379988141063267329253552286881372149012981122451451889849057222307285255133155755015914397476397983411801999323962548289017107081850690630666655994938275772572015763062690663332647565300009245888316433037779791869612049497390377829704905051080609940730262937128958950003583799967207254304360284078895771796150945516748243471030702609144621572289880258182545180325707018860872113128079512233426288368622321503775666622503982534335974568884423900265498198385487948292206894721689831099698365846814022854243330660339850886445804001034933970427567186443383770486037861622771738545623065874679014086723327636718751234567890123456789012345678901234567890e-308",
	"4.9406564584124654e-324",	/* denorm min */
	"4.9e-324", "5e-324", "3e-324", "2e-324",
	"2.4703282292062327e-324",	/* just below half of it: 0 */
	"2.4703282292062328e-324",	/* just above: denorm min */
	"2.470328229206232720882538179e-324",
	"2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
	"2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125000000000000000000001e-324",
	"7.4109846876186981626485318930233205854758970392148714663837852375101326090531312779794975454245398856969484704316857659638998506553390969459816219401617281718945106978546710679176872575177347315553307795408549809608457500958111373034747658096871009590975442271004757307809711118935784838675653998783503015228055934046593739791790738723868299395818481660169122019456499931289798411362062484498678713572180352209017023903285791732520220528974020802906854021606612375549983402671300035812486479041385743401875520901590172592547146296175134159774938718574737870961645638908718119841271673056017045493004705269590165763776884908267986972573366521765567941072508764337560846003984904972149117463085539556354188641513168478436313080237596295773983001708984375e-324",
	"7.4109846876186981626485318930233205854758970392148714663837852375101326090531312779794975454245398856969484704316857659638998506553390969459816219401617281718945106978546710679176872575177347315553307795408549809608457500958111373034747658096871009590975442271004757307809711118935784838675653998783503015228055934046593739791790738723868299395818481660169122019456499931289798411362062484498678713572180352209017023903285791732520220528974020802906854021606612375549983402671300035812486479041385743401875520901590172592547146296175134159774938718574737870961645638908718119841271673056017045493004705269590165763776884908267986972573366521765567941072508764337560846003984904972149117463085539556354188641513168478436313080237596295773983001708984374999e-324",
	"1.00000000000000011102230246251565404236316680908203125",
	"1.00000000000000011102230246251565404236316680908203124",
	"1.00000000000000011102230246251565404236316680908203126",
	"1.00000000000000033306690738754696212708950042724609375",
	"0.500000000000000166533453693773481063544750213623046875",
	"3.0540412816717060e-3", "2.4703282292062327e-324x",
	"-2.2250738585072012e-308",
	NULL,
};

static void
t_parse_edge(void)
{
	const char *const *s;

	begin();
	for (s = edge_common; *s; s++)
		check_pd(*s);
	for (s = edge_double; *s; s++)
		check_pd(*s);
	end("parse double: extremes, thresholds, zeros, specials, "
	    "hand-picked literals");
}

/* ---- parsing floats ---- */

static void
t_parse_float_rnd(void)
{
	char buf[512];
	long i, n = count(1000000);

	begin();
	for (i = 0; i < n; i++) {
		float v = rnd_float();

		switch (i % 4) {
		case 0:
			snprintf(buf, sizeof buf, "%.9g", (double)v);
			break;
		case 1:
			snprintf(buf, sizeof buf, "%.*e", (int)rndn(12),
			    (double)v);
			break;
		case 2: {	/* doubles, rounded to float */
			int prec = (int)rndn(19) + 1;

			snprintf(buf, sizeof buf, "%.*g", prec, rnd_double());
			break;
		}
		default:
			rnd_syntax(buf, 30);
			break;
		}
		check_pf(buf);
	}
	end("parse float: random bit patterns as %.9g and %.{0..11}e, "
	    "random doubles, random literals");
}

/*
 * The midpoint between v > 0 and the next float up.  It has 25
 * significant bits, so it is a double.
 */
static void
mid_float(struct decimal *r, float v)
{
	int e = v < FLT_MIN ? -149 : ilogb(v) - 23;

	exact_d(r, (double)v + ldexp(1.0, e - 1), e - 1);
}

static float
rnd_float_for_mid(void)
{
	uint32_t b = (uint32_t)rnd() & 0x7FFFFFu;
	uint32_t e = rndn(4) == 0 ? (uint32_t)rndn(2) * 254 :
	    (uint32_t)rndn(256);

	if (e == 255)
		e = 254;
	if (e == 0 && b == 0)
		b = 1;
	return f_of(e << 23 | b);
}

static long traps;

/*
 * Counts literals that parsing as double and then rounding to float gets
 * wrong: the test must contain some, or it proves nothing.
 */
static void
check_pf_trap(const char *s)
{
	if (bits_f((float)strtod(s, NULL)) != bits_f(check_pf(s)))
		traps++;
}

static void
t_parse_float_halfway(void)
{
	static struct decimal mid;
	long i, n = count(1000000) / 5;

	begin();
	traps = 0;
	for (i = 0; i < n; i++) {
		mid_float(&mid, rnd_float_for_mid());
		check_mid(&mid, check_pf_trap);
	}
	mid_float(&mid, FLT_MAX);
	check_mid(&mid, check_pf_trap);
	if (traps == 0)
		fail("no double-rounding trap among the cases");
	printf("# %ld literals where (float)strtod() != strtof()\n", traps);
	end("parse float: exact halfway cases, +-1 in the last digit, "
	    "truncated, +-tiny (double-rounding traps)");
}

static void
t_parse_float_long(void)
{
	static char buf[1000];
	long i, n = count(1000000);
	char *e;

	begin();
	for (i = 0; i < n; i++) {
		rnd_long(buf, 800);
		/* bring the exponent into float range most of the time */
		if (rndn(4) && (e = strrchr(buf, 'e')) != NULL) {
			long x = strtol(e + 1, NULL, 10);

			sprintf(e + 1, "%ld", x / 9);
		}
		check_pf(buf);
	}
	end("parse float: long inputs (20 to 800 significant digits)");
}

static const char *const edge_float[] = {
	"3.4028234663852886e38",	/* FLT_MAX */
	"3.40282346638528859811704183484516925440e38",
	"3.4028235677973366e38",	/* just below the threshold */
	"3.4028235677973367e38",	/* just above: inf */
	"340282356779733661637539395458142568448",	/* threshold: inf */
	"340282356779733661637539395458142568447.999999999",
	"1.17549435e-38", "1.1754943508222875e-38",	/* FLT_MIN */
	"1.1754942e-38", "1.40129846e-45", "1.4e-45", "1e-45",
	"7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625e-46",
	"7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015626e-46",
	"7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015624e-46",
	"7.0064923216240854e-46", "7.0064923216240853e-46",
	"2.1019476964872256e-45",
	"1.00000005960464477539062500",	/* 1 + 2^-24: tie to 1 */
	"1.00000005960464477539062501",
	"1.00000017881393432617187500",	/* 1 + 3 2^-24: tie up */
	"1.00000005960464477539062499",
	"0.100000001490116119384765625",
	"1.000000059604644775390625", "1.000000059604644775390624",
	"1.0000000596046448", "1.0000000596046447",
	NULL,
};

static void
t_parse_float_edge(void)
{
	const char *const *s;

	begin();
	for (s = edge_common; *s; s++)
		check_pf(*s);
	for (s = edge_float; *s; s++)
		check_pf(*s);
	for (s = edge_double; *s; s++)
		check_pf(*s);
	end("parse float: extremes, thresholds, zeros, specials, "
	    "hand-picked literals");
}

/* ---- parser: rejection and the `end' bound ---- */

static const struct {
	const char	*s;
	int		 len;	/* expected length, -1 for NULL */
} reject[] = {
	{"", -1}, {"+", -1}, {"-", -1}, {".", -1}, {"+.", -1}, {"-.", -1},
	{"e5", -1}, {"E5", -1}, {".e5", -1}, {"-e5", -1}, {"+.e1", -1},
	{"i", -1}, {"in", -1}, {"-in", -1}, {"n", -1}, {"na", -1},
	{"+n", -1}, {"--1", -1}, {"+-1", -1}, {"-+1", -1}, {" 1", -1},
	{"\t1", -1}, {"x", -1}, {"..5", -1}, {"infx", 3}, {"nan(1)", 3},
	{"nanx", 3}, {"infinit", 3}, {"infinityx", 8}, {"0x10", 1},
	{"0X1p3", 1}, {"1e", 1}, {"1e+", 1}, {"1e-x", 1}, {"1.e5", 4},
	{"1..2", 2}, {".5.", 2}, {"1_000", 1}, {"1,5", 1}, {"1 ", 1},
	{"-0.e-0", 6}, {"5e+-1", 1}, {"12e3.4", 4}, {"\xd9\xa1", -1},
};

static void
t_reject(void)
{
	size_t i;
	double d;
	float f;

	begin();
	for (i = 0; i < sizeof reject / sizeof reject[0]; i++) {
		const char *s = reject[i].s;
		size_t n = strlen(s);
		const char *p = place(s, n), *r;
		int want = reject[i].len;

		ncase++;
		r = ts_parse_double(p, p + n, &d);
		if ((r == NULL ? -1 : (int)(r - p)) != want)
			fail("double \"%s\": length %d, want %d", s,
			    r == NULL ? -1 : (int)(r - p), want);
		r = ts_parse_float(p, p + n, &f);
		if ((r == NULL ? -1 : (int)(r - p)) != want)
			fail("float \"%s\": length %d, want %d", s,
			    r == NULL ? -1 : (int)(r - p), want);
	}
	end("parse: invalid literals give NULL, junk after a literal is "
	    "left to the caller");
}

/*
 * Every prefix of each literal, twice: alone in an exactly sized heap
 * block, and in the middle of the full text with `end' cutting it.  Both
 * must agree with strtod()/strtof() on the NUL-terminated prefix.
 */
static const char *const cut[] = {
	"-123.456e+78", "+.5E-3", "7.", "1e5", "0.000e-0", "infinity",
	"-Infinity", "nan", "-NaN", "12345678901234567890123",
	"0.00000000000000000000000000000000000001e+20",
	"1.7976931348623159e308", "2.4703282292062328e-324",
	"9007199254740993.000000000000000000000000000000001",
	"1.00000005960464477539062500000000001",
	"340282356779733661637539395458142568448",
	"4.9406564584124654417656879286822137236505980e-324",
};

static void
check_prefix(const char *text, const char *p, size_t k)
{
	char pre[128], *e;
	const char *r;
	double d = 0, wd;
	float f = 0, wf;
	long want;

	memcpy(pre, text, k);
	pre[k] = '\0';
	wd = strtod(pre, &e);
	want = e == pre ? -1 : (long)(e - pre);
	wf = strtof(pre, NULL);
	ncase++;
	r = ts_parse_double(p, p + k, &d);
	if ((r == NULL ? -1 : (long)(r - p)) != want ||
	    (r != NULL && !same_d(d, wd)))
		fail("double \"%s\" cut to %zu: length %ld, value %a; "
		    "strtod %ld, %a", text, k, r == NULL ? -1L :
		    (long)(r - p), d, want, wd);
	r = ts_parse_float(p, p + k, &f);
	if ((r == NULL ? -1 : (long)(r - p)) != want ||
	    (r != NULL && !same_f(f, wf)))
		fail("float \"%s\" cut to %zu: length %ld, value %a; "
		    "strtof %ld, %a", text, k, r == NULL ? -1L :
		    (long)(r - p), (double)f, want, (double)wf);
}

static void
t_end_bound(void)
{
	size_t i, k;

	begin();
	for (i = 0; i < sizeof cut / sizeof cut[0]; i++) {
		const char *s = cut[i];
		size_t n = strlen(s);

		for (k = 0; k <= n; k++) {
			/* exactly k bytes, nothing after them */
			char *own = malloc(k ? k : 1);

			if (own == NULL)
				abort();
			memcpy(own, s, k);
			check_prefix(s, own, k);
			free(own);
			/* the rest of the literal follows `end' */
			check_prefix(s, place(s, n), k);
		}
	}
	end("parse: never reads at or beyond end (every prefix, alone and "
	    "followed by the rest)");
}

/* ---- formatting: shortest digits ---- */

/* A decimal d[0].d[1]...d[n-1] * 10^x, d[0] != '0'. */
struct dnum {
	int	n, x;
	char	d[48];
};

/* |v| rounded to n significant digits by printf (exact, ties even). */
static void
dn_round(struct dnum *r, double v, int n)
{
	char buf[64], *p = buf, *q = r->d;

	snprintf(buf, sizeof buf, "%.*e", n - 1, fabs(v));
	for (; *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			*q++ = *p;
	r->n = n;
	r->x = atoi(p + 1);
}

/* The next n-digit decimal up or down (finer below a power of ten). */
static void
dn_step(struct dnum *r, int up)
{
	int i;

	if (up) {
		for (i = r->n - 1; i >= 0 && r->d[i] == '9'; i--)
			r->d[i] = '0';
		if (i < 0) {
			r->d[0] = '1';
			r->x++;
		} else
			r->d[i]++;
		return;
	}
	for (i = 1; i < r->n && r->d[i] == '0'; i++)
		;
	if (r->d[0] == '1' && i == r->n) {	/* 10^x: down to 9.99..9 */
		memset(r->d, '9', (size_t)r->n);
		r->x--;
		return;
	}
	for (i = r->n - 1; r->d[i] == '0'; i--)
		r->d[i] = '9';
	r->d[i]--;
}

/* Does the decimal read back (strtod or strtof) as |v|?  *cmp: sign. */
static int
dn_reads_back(const struct dnum *r, double v, int f32, int *cmp)
{
	char buf[80];
	double back;

	snprintf(buf, sizeof buf, "%c.%.*se%d", r->d[0], r->n - 1, r->d + 1,
	    r->x);
	back = f32 ? (double)strtof(buf, NULL) : strtod(buf, NULL);
	*cmp = (back > fabs(v)) - (back < fabs(v));
	return *cmp == 0;
}

/*
 * The layout of tsnum.h, written independently of num_fmt.c: from the
 * digits (no trailing zeros) and the exponent of the first one.
 */
static void
ref_layout(char *out, int neg, const char *d, int n, int x)
{
	char *p = out;
	int i;

	if (neg)
		*p++ = '-';
	if (x < -4 || x >= 16) {
		*p++ = d[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)n - 1);
			p += n - 1;
		}
		sprintf(p, "e%c%d", x < 0 ? '-' : '+', abs(x));
		return;
	}
	if (x < 0) {
		*p++ = '0';
		*p++ = '.';
		for (i = 0; i < -x - 1; i++)
			*p++ = '0';
		memcpy(p, d, (size_t)n);
		p += n;
	} else
		for (i = 0; i < n || i <= x; i++) {
			if (i == x + 1)
				*p++ = '.';
			*p++ = i < n ? d[i] : '0';
		}
	*p = '\0';
}

/* Significant digits in the output, leading and trailing zeros aside. */
static int
sig_digits(const char *s)
{
	int n = 0, z = 0, started = 0;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s == '0') {
			if (started)
				z++;
			continue;
		}
		started = 1;
		n += z + 1;
		z = 0;
	}
	return n;
}

/*
 * got must (1) read back as v, (2) have n significant digits where no
 * n-1 digit decimal reads back as v, (3) be the n-digit decimal nearest
 * to v, (4) be laid out as tsnum.h says.  For (2) it is enough to try
 * the two (n-1)-digit decimals on either side of v: anything else that
 * read back would leave one of them inside the rounding interval too.
 */
static void
check_shortest(const char *got, int len, double v, int f32)
{
	char want[64];
	struct dnum a;
	double back;
	int n, c, i;

	ncase++;
	if (len != (int)strlen(got) || len >= TS_NUMBUF) {
		fail("%a: length %d for \"%s\"", v, len, got);
		return;
	}
	if (isnan(v) || isinf(v) || v == 0) {
		snprintf(want, sizeof want, "%s%s",
		    !isnan(v) && signbit(v) ? "-" : "",
		    isnan(v) ? "nan" : isinf(v) ? "inf" : "0");
		if (strcmp(got, want))
			fail("%a: \"%s\", want \"%s\"", v, got, want);
		return;
	}
	back = f32 ? (double)strtof(got, NULL) : strtod(got, NULL);
	if (bits_d(back) != bits_d(v)) {
		fail("%a: \"%s\" reads back as %a", v, got, back);
		return;
	}
	n = sig_digits(got);
	if (n > 1) {
		dn_round(&a, v, n - 1);
		if (!dn_reads_back(&a, v, f32, &c)) {
			dn_step(&a, c < 0);
			dn_reads_back(&a, v, f32, &c);
		}
		if (c == 0) {
			fail("%a: \"%s\" but %c.%.*se%d has fewer digits", v,
			    got, a.d[0], a.n - 1, a.d + 1, a.x);
			return;
		}
	}
	/*
	 * The nearest n-digit decimal, unless it is outside the interval;
	 * then the nearest on the other side of v.  (got is known to read
	 * back, so when it equals printf's nearest there is no more to do.)
	 */
	dn_round(&a, v, n);
	for (int pass = 0; pass < 2; pass++) {
		for (i = a.n; i > 1 && a.d[i - 1] == '0'; i--)
			;
		ref_layout(want, signbit(v) != 0, a.d, i, a.x);
		if (strcmp(got, want) == 0 || pass == 1 ||
		    dn_reads_back(&a, v, f32, &c))
			break;
		dn_step(&a, c < 0);
	}
	if (strcmp(got, want))
		fail("%a: \"%s\", want \"%s\"", v, got, want);
}

static void
t_fmt_double(void)
{
	char buf[TS_NUMBUF];
	long i, n = count(1000000);
	double v;

	begin();
	for (i = 0; i < n; i++) {
		switch (i % 8) {
		case 0:		/* short decimals: 1.25, 0.3, 1e-7 */
			v = rnd_short_dec();
			break;
		case 1:		/* small integers */
			v = (double)(int64_t)rnd_mag(64);
			break;
		case 2:		/* powers of two: asymmetric intervals */
			v = ldexp(1, (int)rndn(2098) - 1074);
			break;
		default:
			v = rnd_double();
			break;
		}
		check_shortest(buf, ts_fmt_double(buf, v), v, 0);
	}
	v = INFINITY;
	check_shortest(buf, ts_fmt_double(buf, v), v, 0);
	check_shortest(buf, ts_fmt_double(buf, -v), -v, 0);
	v = NAN;
	check_shortest(buf, ts_fmt_double(buf, v), v, 0);
	check_shortest(buf, ts_fmt_double(buf, -v), -v, 0);
	check_shortest(buf, ts_fmt_double(buf, 0.0), 0.0, 0);
	check_shortest(buf, ts_fmt_double(buf, -0.0), -0.0, 0);
	end("fmt double: random values read back, shortest, nearest, "
	    "laid out as specified");
}

static void
t_fmt_float(void)
{
	char buf[TS_NUMBUF];
	long i, n = count(1000000);
	float v;

	begin();
	for (i = 0; i < n; i++) {
		switch (i % 8) {
		case 0:
			v = (float)rnd_short_dec();
			break;
		case 1:
			v = (float)(int32_t)(uint32_t)(rnd_mag(32) >> 32);
			break;
		case 2:
			v = ldexpf(1, (int)rndn(277) - 149);
			break;
		default:
			v = rnd_float();
			break;
		}
		check_shortest(buf, ts_fmt_float(buf, v), v, 1);
	}
	v = INFINITY;
	check_shortest(buf, ts_fmt_float(buf, v), v, 1);
	check_shortest(buf, ts_fmt_float(buf, -v), -v, 1);
	v = NAN;
	check_shortest(buf, ts_fmt_float(buf, v), v, 1);
	check_shortest(buf, ts_fmt_float(buf, 0.0f), 0.0f, 1);
	check_shortest(buf, ts_fmt_float(buf, -0.0f), -0.0f, 1);
	end("fmt float: random values read back (strtof), shortest, "
	    "nearest, laid out as specified");
}

static const struct {
	double		 v;
	const char	*s;
} known_d[] = {
	{2.5, "2.5"}, {-1.25, "-1.25"}, {1e-300, "1e-300"}, {0.1, "0.1"},
	{1.0 / 3, "0.3333333333333333"}, {2.0 / 3, "0.6666666666666666"},
	{1e16, "1e+16"}, {1e15, "1000000000000000"}, {123, "123"},
	{-120, "-120"}, {3, "3"}, {5e-324, "5e-324"},
	{DBL_MAX, "1.7976931348623157e+308"},
	{DBL_MIN, "2.2250738585072014e-308"}, {-0.0, "-0"}, {0.0, "0"},
	{0.0001, "0.0001"}, {0.00001, "1e-5"}, {0.00012, "0.00012"},
	{1.5e16, "1.5e+16"}, {1e22, "1e+22"}, {1e23, "1e+23"},
	{9007199254740992.0, "9007199254740992"},
	{1234567890123456.7, "1234567890123456.8"},
	{12345678901234567.0, "1.2345678901234568e+16"},
	{0.3, "0.3"}, {0.1 + 0.2, "0.30000000000000004"},
	{100, "100"}, {1e-7, "1e-7"}, {-1.5e-10, "-1.5e-10"},
	{123456.789, "123456.789"}, {4.35, "4.35"}, {2e-323, "2e-323"},
	{1.7976931348623157e308 / 2, "8.988465674311579e+307"},
	{9.5e21, "9.5e+21"}, {5e-5, "5e-5"}, {0.5, "0.5"},
};

static const struct {
	float		 v;
	const char	*s;
} known_f[] = {
	{2.5f, "2.5"}, {-1.25f, "-1.25"}, {0.1f, "0.1"},
	{1.0f / 3, "0.33333334"}, {1e16f, "1e+16"}, {1e15f, "1000000000000000"},
	{123, "123"}, {1e-45f, "1e-45"}, {FLT_MAX, "3.4028235e+38"},
	{FLT_MIN, "1.1754944e-38"}, {-0.0f, "-0"}, {0.0001f, "0.0001"},
	{0.00001f, "1e-5"}, {16777216.0f, "16777216"}, {3e10f, "30000000000"},
	{1e10f, "10000000000"}, {0.3f, "0.3"}, {33554432.0f, "33554432"},
	{1e17f, "1e+17"}, {1.5e-5f, "1.5e-5"},
	{7e-45f, "7e-45"},
};

static void
t_fmt_known(void)
{
	char buf[TS_NUMBUF];
	size_t i;
	int n;

	begin();
	for (i = 0; i < sizeof known_d / sizeof known_d[0]; i++) {
		ncase++;
		n = ts_fmt_double(buf, known_d[i].v);
		if (strcmp(buf, known_d[i].s) || n != (int)strlen(buf))
			fail("double %a: \"%s\" (%d), want \"%s\"",
			    known_d[i].v, buf, n, known_d[i].s);
	}
	for (i = 0; i < sizeof known_f / sizeof known_f[0]; i++) {
		ncase++;
		n = ts_fmt_float(buf, known_f[i].v);
		if (strcmp(buf, known_f[i].s) || n != (int)strlen(buf))
			fail("float %a: \"%s\" (%d), want \"%s\"",
			    (double)known_f[i].v, buf, n, known_f[i].s);
	}
	end("fmt double and float: table of known strings");
}

/* ---- formatting: %.16e and integers ---- */

static void
check_e16(double v)
{
	char got[TS_NUMBUF + 8], want[64];
	int n;

	ncase++;
	n = ts_fmt_double_e16(got, v);
	if (isnan(v))
		strcpy(want, "nan");
	else
		snprintf(want, sizeof want, "%.16e", v);
	if (strcmp(got, want) || n != (int)strlen(got) || n >= TS_NUMBUF)
		fail("%a: \"%s\" (%d), want \"%s\"", v, got, n, want);
}

/* Is v's 18th significant digit an exact final 5 (a rounding tie)? */
static int
is_tie(double v)
{
	char buf[128], *e;

	snprintf(buf, sizeof buf, "%.80e", fabs(v));
	e = buf + 2 + 16;		/* "d." and 16 digits */
	return *e == '5' && e[1 + strspn(e + 1, "0")] == 'e';
}

static void
t_fmt_e16(void)
{
	long i, n = count(1000000), ties = 0;
	double v;

	begin();
	for (i = 0; i < n; i++)
		check_e16(rnd_double());
	/* Dyadic values with short expansions: ties, exact digits. */
	for (i = 0; i < count(200000); i++) {
		v = (double)(rnd_mag(50) >> 11 | 1);
		v = ldexp(v, (int)rndn(140) - 100);
		ties += is_tie(v);
		check_e16(rndn(2) ? -v : v);
	}
	/* odd * 5^s * 2^t: ties among large values too (10^-j divides) */
	for (i = 0; i < count(100000); i++) {
		double m = pow(5, (double)rndn(23));

		m *= (double)(2 * rndn(1000) + 1);
		if (m >= 0x1p53)
			continue;
		v = ldexp(m, (int)rndn(160) - 80);
		ties += is_tie(v);
		check_e16(v);
	}
	for (i = 0; i < count(100000); i++)
		check_e16((double)(int64_t)rnd_mag(64));
	check_e16(0.0);
	check_e16(-0.0);
	check_e16(INFINITY);
	check_e16(-INFINITY);
	check_e16(NAN);
	check_e16(DBL_MAX);
	check_e16(DBL_MIN);
	check_e16(5e-324);
	check_e16(-5e-324);
	check_e16(1.0);
	check_e16(9.9999999999999995e22);
	check_e16(ldexp(1, -25));	/* 2.98023223876953125e-08: a tie */
	check_e16(ldexp(3, -26));
	ties += is_tie(ldexp(1, -25));
	if (ties == 0)
		fail("no rounding tie among the cases");
	printf("# %ld of the cases are exact rounding ties\n", ties);
	end("fmt %.16e: random values, ties, integers, specials "
	    "against printf");
}

static void
t_fmt_int(void)
{
	static const uint64_t edges[] = {
		0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 9999999, 10000000,
		99999999, 100000000, 999999999, 1000000000, 4294967295u,
		4294967296u, 9999999999999999999u, 10000000000000000000u,
		UINT64_MAX, UINT64_MAX - 1, (uint64_t)INT64_MAX,
		(uint64_t)INT64_MAX + 1, (uint64_t)INT64_MAX + 2,
	};
	char got[TS_NUMBUF], want[80];
	long i, n = count(1000000);
	uint64_t u;
	int64_t s;
	int len;
	size_t k;

	begin();
	for (i = 0; i < n + (long)(2 * sizeof edges / sizeof edges[0]); i++) {
		if (i < n)
			u = rnd_mag(64);
		else
			u = edges[(size_t)(i - n) / 2];
		if (i >= n && (i - n) % 2)
			u = (uint64_t)0 - u;	/* negative values as int64 */
		ncase++;
		len = ts_fmt_u64(got, u);
		snprintf(want, sizeof want, "%" PRIu64, u);
		if (strcmp(got, want) || len != (int)strlen(want))
			fail("u64 %s: \"%s\" (%d)", want, got, len);
		memcpy(&s, &u, sizeof s);	/* all int64 values */
		len = ts_fmt_i64(got, s);
		snprintf(want, sizeof want, "%" PRId64, s);
		if (strcmp(got, want) || len != (int)strlen(want))
			fail("i64 %s: \"%s\" (%d)", want, got, len);
	}
	for (k = 0; k < 20; k++) {		/* powers of ten, +-1 */
		uint64_t p = 1;

		for (i = 0; i < (long)k; i++)
			p *= 10;
		for (u = p - 1; u <= p + 1; u++) {
			ncase++;
			ts_fmt_u64(got, u);
			snprintf(want, sizeof want, "%" PRIu64, u);
			if (strcmp(got, want))
				fail("u64 %s: \"%s\"", want, got);
		}
	}
	ncase++;
	ts_fmt_i64(got, INT64_MIN);
	if (strcmp(got, "-9223372036854775808"))
		fail("INT64_MIN: \"%s\"", got);
	/* The writers' inline coordinates: every value below 10^6, random
	 * ones below 10^8 (where the lookups of four digits end) and
	 * beyond, and those on each side of every power of ten. */
	for (i = 0; i < 1000000 + 3 * n + 60; i++) {
		if (i < 1000000)
			u = (uint64_t)i;
		else if (i < 1000000 + 2 * n)
			u = rnd_mag(i % 2 ? 27 : 64);
		else if (i < 1000000 + 3 * n)
			u = rnd() % 100000000;
		else {
			long j = i - 1000000 - 3 * n;

			for (u = 1, k = 0; k < (size_t)(j / 3); k++)
				u *= 10;
			u += (uint64_t)(j % 3) - 1;
		}
		ncase++;
		memset(got, 'x', sizeof got);
		len = ts_put_uint(got, u);
		snprintf(want, sizeof want, "%" PRIu64, u);
		if (len != (int)strlen(want) || memcmp(got, want,
		    (size_t)len) != 0)
			fail("put_uint %s: \"%.*s\" (%d)", want, len, got, len);
	}
	/* Leading zeros to every width, each in a buffer of exactly the
	 * size the contract gives (so that ASan sees a byte past it). */
	for (i = 0; i < 200000; i++) {
		int w = (int)(i % 64);
		size_t sz = (size_t)(w + 1 > TS_NUMBUF ? w + 1 : TS_NUMBUF);
		char *buf = malloc(sz), wfmt[16];

		if (buf == NULL)
			abort();
		u = i < 100 ? (uint64_t)i : rnd_mag(i % 3 ? 30 : 64);
		ncase++;
		len = ts_fmt_u64_width(buf, u, w);
		snprintf(wfmt, sizeof wfmt, "%%0%d" PRIu64, w);
		snprintf(want, sizeof want, wfmt, u);
		if (len != (int)strlen(want) || strcmp(buf, want) != 0)
			fail("u64 width %d %s: \"%s\" (%d)", w, want, buf, len);
		free(buf);
	}
	end("fmt u64 and i64, with leading zeros, and the writers' inline "
	    "put_uint: random and edge values against printf");
}

/* ---- benchmark ---- */

static double
now(void)
{
	struct timespec t;

	timespec_get(&t, TIME_UTC);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * Each figure is the best of REPS passes over NB values: the minimum is
 * the least disturbed by whatever else the machine is doing.
 */
#define NB	200000
#define REPS	15

static char (*bs)[TS_NUMBUF];	/* literals */
static int *blen;
static double *bv;
static float *bf;
static uint64_t *bu;
static volatile double sink;

static void
b_parse_d(void)
{
	double v, acc = 0;
	int i;

	for (i = 0; i < NB; i++) {
		ts_parse_double(bs[i], bs[i] + blen[i], &v);
		acc += v;
	}
	sink = acc;
}

static void
b_strtod(void)
{
	double acc = 0;
	int i;

	for (i = 0; i < NB; i++)
		acc += strtod(bs[i], NULL);
	sink = acc;
}

static void
b_parse_f(void)
{
	float v, acc = 0;
	int i;

	for (i = 0; i < NB; i++) {
		ts_parse_float(bs[i], bs[i] + blen[i], &v);
		acc += v;
	}
	sink = acc;
}

static void
b_strtof(void)
{
	float acc = 0;
	int i;

	for (i = 0; i < NB; i++)
		acc += strtof(bs[i], NULL);
	sink = acc;
}

static void
b_fmt_d(void)
{
	char buf[TS_NUMBUF];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += ts_fmt_double(buf, bv[i]);
	sink = n;
}

static void
b_printf_g17(void)
{
	char buf[64];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += snprintf(buf, sizeof buf, "%.17g", bv[i]);
	sink = n;
}

static void
b_fmt_f(void)
{
	char buf[TS_NUMBUF];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += ts_fmt_float(buf, bf[i]);
	sink = n;
}

static void
b_printf_g9(void)
{
	char buf[64];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += snprintf(buf, sizeof buf, "%.9g", (double)bf[i]);
	sink = n;
}

static void
b_fmt_e16(void)
{
	char buf[TS_NUMBUF];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += ts_fmt_double_e16(buf, bv[i]);
	sink = n;
}

static void
b_printf_e16(void)
{
	char buf[64];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += snprintf(buf, sizeof buf, "%.16e", bv[i]);
	sink = n;
}

static void
b_fmt_u64(void)
{
	char buf[TS_NUMBUF];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += ts_fmt_u64(buf, bu[i]);
	sink = n;
}

static void
b_printf_u64(void)
{
	char buf[64];
	int i, n = 0;

	for (i = 0; i < NB; i++)
		n += snprintf(buf, sizeof buf, "%" PRIu64, bu[i]);
	sink = n;
}

/* ns per value, best of REPS */
static double
timeit(void (*fn)(void))
{
	double best = 1e30, t;
	int r;

	for (r = 0; r < REPS; r++) {
		t = now();
		fn();
		t = now() - t;
		if (t < best)
			best = t;
	}
	return best * 1e9 / NB;
}

static void
bench_pair(const char *what, const char *mine, void (*a)(void),
    const char *theirs, void (*b)(void))
{
	double ta = timeit(a), tb = timeit(b);

	printf("%-26s %-18s %6.1f ns   %-15s %6.1f ns   (%.1fx)\n", what,
	    mine, ta, theirs, tb, tb / ta);
}

static int
bench(void)
{
	int i;

	bs = malloc(NB * sizeof *bs);
	blen = malloc(NB * sizeof *blen);
	bv = malloc(NB * sizeof *bv);
	bf = malloc(NB * sizeof *bf);
	bu = malloc(NB * sizeof *bu);
	if (!bs || !blen || !bv || !bf || !bu)
		return 1;
	for (i = 0; i < NB; i++) {
		do
			bv[i] = d_of(rnd());
		while (!isfinite(bv[i]));
		bf[i] = rnd_float();
		bu[i] = rnd_mag(64);
	}
	printf("# best of %d passes over %d values\n", REPS, NB);
	for (i = 0; i < NB; i++)
		blen[i] = snprintf(bs[i], sizeof bs[i], "%.17g", bv[i]);
	bench_pair("parse random bits %.17g", "ts_parse_double", b_parse_d,
	    "strtod", b_strtod);
	bench_pair("", "ts_parse_float", b_parse_f, "strtof", b_strtof);
	for (i = 0; i < NB; i++)
		blen[i] = ts_fmt_double(bs[i], bv[i]);
	bench_pair("parse random bits shortest", "ts_parse_double",
	    b_parse_d, "strtod", b_strtod);
	for (i = 0; i < NB; i++)
		blen[i] = snprintf(bs[i], sizeof bs[i], "%.16e",
		    (double)(rnd() >> 11) * 0x1p-53);
	bench_pair("parse [0, 1) as %.16e", "ts_parse_double", b_parse_d,
	    "strtod", b_strtod);
	bench_pair("", "ts_parse_float", b_parse_f, "strtof", b_strtof);
	for (i = 0; i < NB; i++)
		blen[i] = snprintf(bs[i], sizeof bs[i], "%.6f",
		    (double)(rnd() >> 11) * 0x1p-53 * 1000);
	bench_pair("parse [0, 1000) as %.6f", "ts_parse_double", b_parse_d,
	    "strtod", b_strtod);
	bench_pair("", "ts_parse_float", b_parse_f, "strtof", b_strtof);
	bench_pair("fmt random bits", "ts_fmt_double", b_fmt_d,
	    "snprintf %.17g", b_printf_g17);
	bench_pair("", "ts_fmt_float", b_fmt_f, "snprintf %.9g", b_printf_g9);
	bench_pair("", "ts_fmt_double_e16", b_fmt_e16, "snprintf %.16e",
	    b_printf_e16);
	bench_pair("fmt random magnitudes", "ts_fmt_u64", b_fmt_u64,
	    "snprintf PRIu64", b_printf_u64);
	free(bs);
	free(blen);
	free(bv);
	free(bf);
	free(bu);
	return 0;
}

int
main(int argc, char **argv)
{
	static void (*const tests[])(void) = {
		t_parse_g17, t_parse_e, t_parse_f, t_parse_syntax,
		t_parse_halfway, t_parse_fast, t_parse_field, t_parse_long,
		t_parse_edge,
		t_parse_float_rnd, t_parse_float_halfway, t_parse_float_long,
		t_parse_float_edge, t_reject, t_end_bound,
		t_fmt_double, t_fmt_float, t_fmt_known, t_fmt_e16, t_fmt_int,
	};
	size_t i, ntests = sizeof tests / sizeof tests[0];
	int dobench = 0;

	rng = 20240601;
	for (i = 1; i < (size_t)argc; i++) {
		if (strcmp(argv[i], "--bench") == 0)
			dobench = 1;
		else if (strncmp(argv[i], "--scale=", 8) == 0)
			scale = atof(argv[i] + 8);
		else
			rng = strtoull(argv[i], NULL, 0);
	}
	if (dobench)
		return bench();
	if ((blk = malloc(BLK)) == NULL)
		return 1;
	printf("1..%zu\n# seed %" PRIu64 "\n", ntests, rng);
	for (i = 0; i < ntests; i++)
		tests[i]();
	free(blk);
	return nbad ? 1 : 0;
}
