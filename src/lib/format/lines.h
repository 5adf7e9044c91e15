/*
 * lines.h - what the text decoders share (TensorSuite text and FROSTT in
 * tns_text.c, Matrix Market in mtx_read.c), internal to libtensorsuite:
 * a buffer over a source that holds whole lines, read in large reads and
 * reused, with the line number and file offset of what is unread; the
 * next header line; and the small scanners of fields.
 */
#ifndef TS_LINES_H
#define TS_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorsuite.h"

struct ts_lines {
	struct ts_source *src;
	struct ts_diags	*d;
	const char	*file;		/* for messages */
	char		*buf;		/* [pos, len) is unread */
	size_t		 cap, pos, len;
	bool		 eof, failed;
	uint64_t	 off;		/* file offset of buf[pos] */
	uint64_t	 line;		/* lines consumed */
	/* File offsets [nonl_from, nonl_to) searched and found to hold no
	 * '\n' (ts_lines_lastnl). */
	uint64_t	 nonl_from, nonl_to;
};

void	 ts_lines_init(struct ts_lines *, struct ts_source *,
	    struct ts_diags *, size_t bufsz);
void	 ts_lines_free(struct ts_lines *);
/*
 * Read more after buf[len], keeping [pos, len) and moving it to the
 * front.  The buffer doubles, up to maxcap bytes, only when it is full of
 * one unfinished line; one byte is always left free after what was read,
 * for a sentinel.  Returns the bytes read, 0 at the end, -1 on an error
 * (reported; failed is set): a read error, or a line that would not fit
 * in maxcap bytes (errno EFBIG).
 */
long	 ts_lines_fill(struct ts_lines *, size_t maxcap);
/*
 * The next line: its start and its length without the line end ("\n",
 * or "\r\n", which sets *crlf when crlf is not NULL); a last line
 * without an end is given one.  NULL at the end or after an error.
 */
char	*ts_lines_get(struct ts_lines *, size_t *lenp, bool *crlf,
	    size_t maxcap);
/*
 * The last '\n' of the unread bytes [pos, len), or NULL when they hold
 * none.  Bytes searched before and found to hold none are not searched
 * again, however the buffer moved since, so that a line longer than many
 * reads is found in linear time.
 */
char	*ts_lines_lastnl(struct ts_lines *);

/*
 * The largest dimension or count a data file may state: metadata is
 * JSON, whose integers a reader (jansson) takes up to 2^63-1, so a
 * bundle can state no larger one.
 */
#define TS_DIM_MAX	((uint64_t)INT64_MAX)

/* The 1-based column of field k (0-based) of a line of len bytes. */
static inline uint64_t
fieldcol(const char *s, size_t len, int k)
{
	size_t i = 0;

	for (;;) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (k-- == 0 || i == len)
			return (uint64_t)i + 1;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
	}
}

static inline bool
isdelim(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline const char *
skipws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Parse an unsigned decimal at *pp, before end: 0 ok (*pp moves past
 * it), 1 not a number, 2 overflow. */
static inline int
parse_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp, *s = p;
	uint64_t v = 0;

	while (p < end && (unsigned)(*p - '0') < 10) {
		unsigned dg = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - dg) / 10)
			return 2;
		v = v * 10 + dg;
		p++;
	}
	if (p == s)
		return 1;
	*out = v;
	*pp = p;
	return 0;
}

/* Did a finite literal at p round to infinity (v what it parsed to)? */
static inline bool
overflowed(double v, const char *p)
{
	if (v - v == 0 || v != v)	/* finite, or NaN */
		return false;
	p += *p == '+' || *p == '-';
	return *p != 'i' && *p != 'I';
}

#endif
