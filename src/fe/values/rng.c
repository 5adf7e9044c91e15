/*
 * rng.c - the logarithm and the exponential of the generators (rng.h),
 * from + - * / and the exact scalings of frexp and ldexp alone, so that
 * they give the same bits on every machine.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <math.h>

#include "values/rng.h"

/*
 * The natural logarithm of x > 0: x = m 2^e with m in [sqrt(1/2),
 * sqrt(2)), and ln m = 2 atanh(t), t = (m-1)/(m+1), whose series to t^23
 * is exact to double precision there (|t| < 0.172).
 */
double
fe_rng_ln(double x)
{
	static const double ln2 = 0.6931471805599453;
	double m, t, t2, p;
	int e, k;

	if (!(x > 0))
		return x == 0 ? -HUGE_VAL : NAN;
	if (x == HUGE_VAL)
		return x;
	m = frexp(x, &e);
	if (m < 0.7071067811865476) {
		m *= 2;
		e--;
	}
	t = (m - 1) / (m + 1);
	t2 = t * t;
	p = 1.0 / 23;
	for (k = 21; k >= 1; k -= 2)
		p = p * t2 + 1.0 / k;
	return (double)e * ln2 + 2 * t * p;
}

/*
 * e^x: x = k ln 2 + r with |r| <= ln(2)/2, ln 2 split in two (its high
 * part has trailing zero bits, so that k times it is exact: Cody and
 * Waite's reduction), e^r by its Taylor series to r^17 (the rest is
 * below 2^-60 of it), then scaled by 2^k exactly.
 */
double
fe_rng_exp(double x)
{
	static const double ln2hi = 6.93147180369123816490e-01;
	static const double ln2lo = 1.90821492927058770002e-10;
	static const double inv_ln2 = 1.44269504088896338700e+00;
	/* 1/i!, rounded once by the compiler. */
	static const double inv_fact[18] = {
		1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720,
		1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800,
		1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0,
		1.0 / 87178291200.0, 1.0 / 1307674368000.0,
		1.0 / 20922789888000.0, 1.0 / 355687428096000.0
	};
	double k, r, p;
	int i;

	if (x != x)
		return x;
	if (x > 709.782712893384)
		return HUGE_VAL;
	if (x < -745.1332191019412)
		return 0;
	k = x * inv_ln2;
	k = k < 0 ? (double)(long long)(k - 0.5) : (double)(long long)(k + 0.5);
	r = (x - k * ln2hi) - k * ln2lo;
	p = 0;
	for (i = 17; i >= 0; i--)
		p = p * r + inv_fact[i];
	return ldexp(p, (int)k);
}

double
fe_rng_pow(double x, double y)
{
	if (y == 0 || x == 1)
		return 1;
	return fe_rng_exp(y * fe_rng_ln(x));
}
