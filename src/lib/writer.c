/*
 * writer.c - the streaming encoder: batches of entries to TensorSuite
 * text or binary, assembled in one large buffer and written with
 * write(2), so a failed write is seen and reported.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"

#define WBUFSZ	(1u << 20)

struct ts_writer {
	int			 fd;
	struct ts_layout	 lay;
	int			 order;
	int			 fmt;
	char			*buf;
	size_t			 len;
	bool			 swap;
	int			 err;	/* first errno seen */
};

static int
wflush(struct ts_writer *w)
{
	size_t off = 0;

	while (off < w->len) {
		ssize_t n = write(w->fd, w->buf + off, w->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (w->err == 0)
				w->err = errno;
			w->len = 0;
			return -1;
		}
		off += (size_t)n;
	}
	w->len = 0;
	return 0;
}

/* Make room for n more bytes. */
static inline int
need(struct ts_writer *w, size_t n)
{
	if (w->len + n > WBUFSZ)
		return wflush(w);
	return 0;
}

static void
puts_w(struct ts_writer *w, const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		size_t k = n < WBUFSZ - w->len ? n : WBUFSZ - w->len;

		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
		if (w->len == WBUFSZ)
			wflush(w);
	}
}

static void
putu_w(struct ts_writer *w, uint64_t v, char sep)
{
	need(w, TS_NUMBUF + 1);
	w->len += (size_t)ts_fmt_u64(w->buf + w->len, v);
	w->buf[w->len++] = sep;
}

static bool
host_little(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

struct ts_writer *
ts_writer_open(int fd, const char *name, const struct ts_header *h,
    const struct ts_layout *l, int fmt)
{
	struct ts_writer *w = ts_xcalloc(1, sizeof(*w));
	int i;
	uint64_t k;

	w->fd = fd;
	w->lay = *l;
	w->order = h->order;
	w->fmt = fmt;
	w->buf = ts_xmalloc(WBUFSZ);
	w->swap = (l->endian == TS_END_BIG) == host_little();
	if (l->block)
		w->lay.values = 0;
	puts_w(w, l->kind == TS_TEXT ? "%%TensorSuite-TNS\n" :
	    "%%TensorSuite-TNSB\n");
	puts_w(w, "% version: " TS_FORMAT "\n% name: ");
	puts_w(w, name);
	puts_w(w, "\n");
	putu_w(w, (uint64_t)h->order, ' ');
	for (i = 0; i < h->order; i++)
		putu_w(w, h->dims[i], ' ');
	putu_w(w, h->nnz, '\n');
	if (l->block) {
		for (i = 0; i < h->order; i++)
			putu_w(w, h->parts[i], ' ');
		putu_w(w, h->nnz_block, '\n');
		for (i = 0; i < h->order; i++)
			for (k = 0; k < h->parts[i]; k++)
				putu_w(w, h->extents[i][k],
				    k + 1 == h->parts[i] ? '\n' : ' ');
	}
	return w;
}

static inline void
st32(char *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static inline void
st64(char *p, uint64_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static void
put_text(struct ts_writer *w, const struct ts_batch *b)
{
	const uint64_t base = (uint64_t)w->lay.base;
	const int order = w->order;
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;
		char *p;

		need(w, (size_t)(order + 1) * (TS_NUMBUF + 1));
		p = w->buf + w->len;
		for (k = 0; k < order; k++) {
			p += ts_fmt_u64(p, c[k] + base);
			*p++ = ' ';
		}
		if (w->lay.values) {
			switch (w->lay.vtype) {
			case TS_FLOAT64:
				p += w->fmt == TS_FMT_E16 ?
				    ts_fmt_double_e16(p, b->fval[i]) :
				    ts_fmt_double(p, b->fval[i]);
				break;
			case TS_FLOAT32:
				p += w->fmt == TS_FMT_E16 ?
				    ts_fmt_double_e16(p, b->fval[i]) :
				    ts_fmt_float(p, (float)b->fval[i]);
				break;
			case TS_INT32:
			case TS_INT64:
				p += ts_fmt_i64(p, b->ival[i]);
				break;
			}
			*p++ = '\n';
		} else
			p[-1] = '\n';
		w->len = (size_t)(p - w->buf);
	}
}

static void
put_binary(struct ts_writer *w, const struct ts_batch *b)
{
	const uint64_t base = (uint64_t)w->lay.base;
	const size_t isz = ts_itype_size(w->lay.itype);
	const int order = w->order;
	const size_t rs = (size_t)order * isz + (w->lay.values ?
	    ts_vtype_size(w->lay.vtype) : 0);
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;
		char *p;

		need(w, rs);
		p = w->buf + w->len;
		for (k = 0; k < order; k++, p += isz) {
			if (isz == 8)
				st64(p, c[k] + base, w->swap);
			else
				st32(p, (uint32_t)(c[k] + base), w->swap);
		}
		if (w->lay.values) {
			switch (w->lay.vtype) {
			case TS_FLOAT32: {
				float f = (float)b->fval[i];
				uint32_t u;

				memcpy(&u, &f, 4);
				st32(p, u, w->swap);
				break;
			}
			case TS_FLOAT64: {
				uint64_t u;

				memcpy(&u, &b->fval[i], 8);
				st64(p, u, w->swap);
				break;
			}
			case TS_INT32:
				st32(p, (uint32_t)b->ival[i], w->swap);
				break;
			case TS_INT64:
				st64(p, (uint64_t)b->ival[i], w->swap);
				break;
			}
		}
		w->len += rs;
	}
}

int
ts_writer_put(struct ts_writer *w, const struct ts_batch *b)
{
	if (w->lay.kind == TS_TEXT)
		put_text(w, b);
	else
		put_binary(w, b);
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

int
ts_writer_close(struct ts_writer *w)
{
	int err;

	wflush(w);
	err = w->err;
	free(w->buf);
	free(w);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
