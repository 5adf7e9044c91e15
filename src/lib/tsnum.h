/*
 * tsnum.h - exact conversions between numbers and their decimal text.
 *
 * Part of libtensorsuite; included by tensorsuite.h.  Nothing here
 * allocates, nothing depends on the locale, and every function is safe to
 * call from several threads at once.
 */
#ifndef TSNUM_H
#define TSNUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any string the ts_fmt_* functions write, NUL included. */
#define TS_NUMBUF 40

/*
 * Parse a decimal floating-point literal that starts at s and must end
 * before end.  The grammar is
 *
 *	[+-]? ( digits [ '.' digits? ] | '.' digits ) ( [eE] [+-]? digits )?
 *	[+-]? ( "inf" | "infinity" | "nan" )	(case-insensitive)
 *
 * No leading white space, no hexadecimal floats, no "nan(...)" (the
 * literal ends after "nan").  An exponent marker without digits is not
 * part of the literal: "1e" and "1e+" parse as 1 and return a pointer to
 * the 'e', as strtod(3) does.  Any number of digits is accepted.  The
 * result is the correctly rounded value (round half to even), as
 * strtod(3) or strtof(3) would give in the C locale: overflow gives a
 * signed infinity, underflow a (signed) zero or subnormal, and "-nan" a
 * NaN with the sign bit set.  The text need not be NUL-terminated:
 * nothing at or beyond end is read.
 *
 * Returns a pointer to the first character after the literal, or NULL
 * when no valid literal starts at s.  The caller decides whether the
 * character after the literal is an acceptable delimiter.
 */
const char *ts_parse_double(const char *s, const char *end, double *out);
const char *ts_parse_float(const char *s, const char *end, float *out);

/*
 * Write the shortest decimal string that reads back (with strtod, or
 * strtof for the float version) to exactly the same value, then a NUL.
 * Returns the length, not counting the NUL.  buf holds TS_NUMBUF bytes.
 *
 * Of several shortest strings, the one nearest to the value (ties: even
 * last digit).
 *
 * Layout (Python's repr, except that the exponent is not padded to two
 * digits and integral values get no ".0"): with the shortest digits
 * d1 d2 ... dn and decimal exponent x (value = d1.d2...dn * 10^x),
 * positional notation when -4 <= x < 16, otherwise scientific notation
 * "d1.d2...dne+x" / "d1e-x" with no padding of the exponent.  Integral
 * values in positional notation carry no fraction ("3", "-120").
 * Special values: "inf", "-inf", "nan" (whatever the sign); negative zero
 * is "-0".  Examples: 2.5 -> "2.5", -1.25 -> "-1.25", 1e-300 -> "1e-300",
 * 0.0001 -> "0.0001", 0.00001 -> "1e-5" (Python: "1e-05"), 1e16 ->
 * "1e+16", 123.0 -> "123" (Python: "123.0").  The float version applies
 * the same rules to its own shortest digits: 1e15f -> "1000000000000000".
 */
int ts_fmt_double(char *buf, double v);
int ts_fmt_float(char *buf, float v);

/*
 * printf("%.16e", v) in the C locale, the reference writer's style:
 * "1.0000000000000000e+00".  Non-finite values as "inf", "-inf", "nan"
 * (never "-nan").
 */
int ts_fmt_double_e16(char *buf, double v);

/* Decimal integers; return the length written (a NUL follows). */
int ts_fmt_u64(char *buf, uint64_t v);
int ts_fmt_i64(char *buf, int64_t v);
/* v with leading zeros to at least width digits; buf holds
 * max(width + 1, TS_NUMBUF) bytes. */
int ts_fmt_u64_width(char *buf, uint64_t v, int width);

#ifdef __cplusplus
}
#endif

#endif
