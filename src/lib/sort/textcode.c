/*
 * textcode.c - the texts of values, kept with keep_text: coded in
 * one record word, or in the arena.
 *
 * With keep_text, a value's text is kept in one record word rather than
 * as bytes in the arena whenever it is a plain decimal
 * literal of at most 17 significant digits, as the shortest text of any
 * float64 is: the word holds the digits as an integer, shifted left by
 * TC_SHIFT bits, and below them the index of how they were written in a
 * small table of the sorter's.  How they were written is a word of its
 * own (the table holds TC_NLAY of them; a file rarely needs more than
 * a few dozen):
 *
 *	bits 1-2	sign: none, '-', '+'
 *	bits 3-8	digit characters, leading zeros included
 *	bits 9-14	of which after the '.'
 *	bit 15		a '.'
 *	bit 16		an exponent; bit 17: its marker is 'E', not 'e'
 *	bits 18-19	the exponent's sign: none, '-', '+'
 *	bits 20-23	the exponent's digit characters (1 to 9)
 *	bits 32-63	the exponent's value
 *
 * The text then costs no arena bytes, and is written out again from the
 * record itself, byte for byte, with no scattered reads of an arena.
 * Anything else (inf, nan, more digits, other bytes, a table full) goes
 * to the arena: index TC_ARENA, and the word holds the offset.
 */
#include <string.h>

#include "tensorsuite.h"
#include "num/digits.h"
#include "format/lines.h"
#include "util/bigmem.h"
#include "sort/sort_int.h"

#define TC_DOT		((uint64_t)1 << 15)
#define TC_EXP		((uint64_t)1 << 16)
#define TC_EXPUP	((uint64_t)1 << 17)

/*
 * Code the text [p, p + len): its digits in *w, how they are written in
 * *lay.  false when it cannot be.
 */
static bool
tc_pack(const char *p, uint32_t len, bool is_int, uint64_t *w,
    uint64_t *lay)
{
	const char *e = p + len, *s, *f;
	uint64_t l = 0, ev = 0, x = 0;
	int nd, sig, nf = 0, ed = 0;

	if (len > TC_MAXLEN)
		return false;
	if (p != e && (*p == '-' || *p == '+'))
		l |= (uint64_t)(*p++ == '-' ? 1 : 2) << 1;
	s = p;
	while (p != e && *p == '0')	/* leading zeros add nothing */
		p++;
	f = p;
	p = ts_scan_digits(p, e, &x);	/* past 19 digits x is junk, */
	sig = (int)(p - f);		/* but then sig says so */
	nd = (int)(p - s);
	if (p != e && *p == '.' && !is_int) {
		const char *q = ++p;

		l |= TC_DOT;
		if (sig == 0)
			while (p != e && *p == '0')
				p++;
		f = p;
		p = ts_scan_digits(p, e, &x);
		sig += (int)(p - f);
		nf = (int)(p - q);
		nd += nf;
	}
	/* At most 17 significant digits keep x below 2^57. */
	if (sig > 17 || nd == 0 || nd > TC_MAXDIG)
		return false;
	if (p != e && (*p == 'e' || *p == 'E') && !is_int) {
		l |= TC_EXP | (*p == 'E' ? TC_EXPUP : 0);
		if (++p != e && (*p == '-' || *p == '+'))
			l |= (uint64_t)(*p++ == '-' ? 1 : 2) << 18;
		for (; p != e && ts_isdigit(*p); p++, ed++) {
			if (ed == 9)
				return false;
			ev = ev * 10 + (uint64_t)(*p - '0');
		}
		if (ed == 0)
			return false;
	}
	if (p != e)
		return false;
	*w = x;
	*lay = l | (uint64_t)nd << 3 | (uint64_t)nf << 9 |
	    (uint64_t)ed << 20 | ev << 32;
	return true;
}

#if TS_SWAR
/* Eight digits of u < 10^8 at p, leading zeros included. */
static inline void
put8(char *p, uint32_t u)
{
	uint64_t x = (uint64_t)ts_digit_quads[u / 10000] |
	    (uint64_t)ts_digit_quads[u % 10000] << 32;

	x += 0x3030303030303030u;
	memcpy(p, &x, 8);
}

/*
 * The last n <= 24 digits of v < 10^17, leading zeros included, ending
 * at e: whole groups of eight, the first of which may begin up to seven
 * bytes before e - n; a first group of one digit (the 17 digits of most
 * fractions, an integer part "0") is that byte alone.
 */
static inline void
put_tail(char *e, uint64_t v, int n)
{
	if (n == 1) {
		e[-1] = (char)('0' + v % 10);
		return;
	}
	put8(e - 8, (uint32_t)(v % 100000000));
	if (n > 8)
		put8(e - 16, (uint32_t)(v / 100000000 % 100000000));
	if (n == 17)
		e[-17] = (char)('0' + v / 10000000000000000u % 10);
	else if (n > 16)
		put8(e - 24, (uint32_t)(v / 10000000000000000u));
}

/* v = q * 10^n + r, r < 10^n: a division by a constant in each case,
 * the case predicted since a file's values are written alike. */
static inline void
split10(uint64_t v, int n, uint64_t *q, uint64_t *r)
{
#define P(k, d)	case k: *q = v / (d); *r = v % (d); return
	switch (n) {
	case 0: *q = v; *r = 0; return;
	P(1, 10u); P(2, 100u); P(3, 1000u); P(4, 10000u); P(5, 100000u);
	P(6, 1000000u); P(7, 10000000u); P(8, 100000000u);
	P(9, 1000000000u); P(10, 10000000000u); P(11, 100000000000u);
	P(12, 1000000000000u); P(13, 10000000000000u);
	P(14, 100000000000000u); P(15, 1000000000000000u);
	P(16, 10000000000000000u);
	default: *q = 0; *r = v; return;	/* v < 10^17 */
	}
#undef P
}
#endif

/* The length of any text written as lay. */
int
ts_tc_len(uint64_t lay)
{
	int n = ((lay >> 1) & 3) != 0 ? 1 : 0;

	n += (int)(lay >> 3) & 63;
	if (lay & TC_DOT)
		n++;
	if (lay & TC_EXP)
		n += 1 + (((lay >> 18) & 3) != 0 ? 1 : 0) + ((int)(lay >> 20) &
		    15);
	return n;
}

/*
 * Write the text of digits w written as lay to buf, ts_tc_len(lay)
 * bytes; the TC_TEXT_BEFORE bytes before buf may be written over too,
 * but not one byte after the text, so that texts written back to front
 * may lie end to end.
 */
int
ts_tc_text(uint64_t w, uint64_t lay, char *buf)
{
	const int nd = (int)(lay >> 3) & 63, nf = (int)(lay >> 9) & 63;
	int sg = (int)(lay >> 1) & 3;
	char *p = buf + (sg != 0);

#if TS_SWAR
	if (nd <= 24) {
		/* The common case (w < 10^17 always): each part written
		 * right-aligned, by whole groups of digits, from the end,
		 * so that what a group writes before its part is written
		 * over later (the sign last), and no byte written is read
		 * back: the fraction, the integer part, the '.'. */
		uint64_t ip, fp;
		const int ni = nd - nf;

		if (lay & TC_DOT) {
			split10(w, nf, &ip, &fp);
			if (nf > 0)
				put_tail(p + nd + 1, fp, nf);
			if (ni > 0)
				put_tail(p + ni, ip, ni);
			p[ni] = '.';
			p += nd + 1;
		} else {
			put_tail(p + nd, w, nd);
			p += nd;
		}
	} else
#endif
	{
		/* ts_fmt_u64_width() writes past the digits: a copy. */
		char t[TC_MAXDIG + TS_NUMBUF];

		ts_fmt_u64_width(t, w, nd);
		if (lay & TC_DOT) {
			memcpy(p, t, (size_t)(nd - nf));
			p[nd - nf] = '.';
			memcpy(p + nd - nf + 1, t + nd - nf, (size_t)nf);
			p++;
		} else
			memcpy(p, t, (size_t)nd);
		p += nd;
	}
	if (sg != 0)
		buf[0] = sg == 1 ? '-' : '+';
	if (lay & TC_EXP) {
		char t[TS_NUMBUF];
		int ne;

		*p++ = (lay & TC_EXPUP) ? 'E' : 'e';
		if ((sg = (int)(lay >> 18) & 3) != 0)
			*p++ = sg == 1 ? '-' : '+';
		ne = ts_fmt_u64_width(t, lay >> 32, (int)(lay >> 20) & 15);
		memcpy(p, t, (size_t)ne);
		p += ne;
	}
	return (int)(p - buf);
}

/* The index of lay in the sorter's table, added if new; TC_ARENA when
 * the table is full. */
static unsigned
tc_index(struct ts_sorter *s, uint64_t lay)
{
	unsigned h;

	if (s->text_lays[s->text_last] == lay && s->ntext_lays != 0)
		return s->text_last;
	h = (unsigned)((lay * 0x9E3779B97F4A7C15u) >> 56);
	for (;; h = (h + 1) % TC_HASH) {
		unsigned i = s->text_hash[h];

		if (i == 0)
			break;
		if (s->text_lays[i - 1] == lay)
			return s->text_last = i - 1;
	}
	if (s->ntext_lays == TC_NLAY)
		return TC_ARENA;
	s->text_lays[s->ntext_lays] = lay;
	s->text_len[s->ntext_lays] = (uint8_t)ts_tc_len(lay);
	s->text_hash[h] = (uint8_t)++s->ntext_lays;
	return s->text_last = s->ntext_lays - 1;
}

/* The text word of [p, p + len), or TC_ARENA when it must go there. */
uint64_t
ts_tc_word(struct ts_sorter *s, const char *p, uint32_t len)
{
	uint64_t w, lay;

	if (!tc_pack(p, len, s->is_int, &w, &lay))
		return TC_ARENA;
	return w << TC_SHIFT | tc_index(s, lay);
}

/* Append a text to the arena; returns its offset. */
uint64_t
ts_arena_put(struct ts_sorter *s, const char *t, uint32_t len)
{
	size_t need = s->alen + 4 + len;
	uint64_t off = s->alen;

	if (need > s->asz) {
		size_t nsz = ts_big_round(need > 2 * s->asz ? need :
		    2 * s->asz);

		s->arena = ts_big_grow(s->arena, s->asz, nsz);
		s->asz = nsz;
	}
	memcpy(s->arena + s->alen, &len, 4);
	if (len != 0)
		memcpy(s->arena + s->alen + 4, t, len);
	s->alen = need;
	return off;
}

/*
 * The value of a text, as the reader parsed it (keep_text promises that
 * each value is what its text says).
 */
uint64_t
ts_text_val(const struct ts_sorter *s, const char *t, uint32_t len)
{
	uint64_t v = 0;
	double x = 0;
	int64_t i = 0;
	int why;

	(void)s->vt->parse(t, t + len, &x, &i, &why);
	if (s->is_int)
		return (uint64_t)i;
	memcpy(&v, &x, 8);
	return v;
}
