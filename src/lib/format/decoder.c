/*
 * decoder.c - bytes to batches of entries, whatever the format: the
 * table of the layout's kind does the work (format.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/sysres.h"
#include "util/xalloc.h"

/* Text is parsed by as many threads as there are CPUs to use, up to 4. */
static int
default_threads(void)
{
	int n = ts_cpus_available();

	return n > 4 ? 4 : n;
}

void
ts_decoder_set_threads(struct ts_decoder *dec, int n)
{
	dec->threads = n < 1 ? 1 : n;
}

void
ts_decoder_value_classes(struct ts_decoder *dec)
{
	dec->classes = true;
}

void
ts_decoder_check_bounds(struct ts_decoder *dec, bool on)
{
	dec->unchecked = !on;
}

/*
 * S1 on what the reader is handed: a coordinate outside the dimensions
 * the header states (the block grid of a block file) ends the read at
 * the first, located, so that no program on the library works on one.
 * A FROSTT file that states no dimensions has none to be outside.
 */
static long
in_range(struct ts_decoder *dec, struct ts_batch *b, long rv)
{
	const struct ts_header *h = &dec->h;
	const uint64_t *lim = h->block ? h->parts : h->dims;
	size_t i;
	int k;

	if (rv <= 0 || dec->unchecked || (!h->block && !h->dims_known) ||
	    !ts_coords_out(b->coords, b->n, lim, h->order))
		return rv;
	for (i = 0; i < b->n; i++)
		for (k = 0; k < h->order; k++)
			if (b->coords[i * (size_t)h->order + (size_t)k] >=
			    lim[k]) {
				ts_bounds_report(dec->d, b, i, k, lim,
				    dec->lay.base, h->block);
				b->n = 0;
				return -1;
			}
	return rv;
}

void
ts_layout_of(const struct ts_meta *m, enum ts_kind kind, struct ts_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->block = m->sparsity == TS_SPARSITY_BLOCK;
	l->values = m->values_provided;
	l->vtype = m->value_type;
	l->itype = m->index_type;
	l->endian = m->endianness;
	l->base = m->index_base;
}

enum ts_kind
ts_sniff(struct ts_source *src)
{
	const char *p;
	long n = ts_source_peek(src, &p, 64);

	return ts_kind_of_bytes(p, n > 0 ? (size_t)n : 0);
}

/* A decoder of ops on src (or on none, named name); it takes state. */
static struct ts_decoder *
decoder_new(const struct ts_decoder_ops *ops, struct ts_source *src,
    const char *name, void *state, const struct ts_layout *lay,
    struct ts_diags *d)
{
	struct ts_decoder *dec;

	dec = ts_xcalloc(1, sizeof(*dec));
	dec->ops = ops;
	dec->src = src;
	dec->d = d;
	dec->file = ts_xstrdup(name);
	dec->lay = *lay;
	dec->h.base = -1;
	dec->threads = default_threads();
	dec->state = state;
	pthread_rwlock_init(&dec->local_lock, NULL);
	if (ops->open(dec) != 0) {
		ts_decoder_close(dec);
		return NULL;
	}
	if (dec->lay.block)
		dec->lay.values = 0;
	return dec;
}

struct ts_decoder *
ts_decoder_open(struct ts_source *src, const struct ts_layout *lay,
    struct ts_diags *d)
{
	const struct ts_decoder_ops *ops = ts_format_decoder(lay->kind);

	if (ops == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return decoder_new(ops, src, ts_source_name(src), NULL, lay, d);
}

struct ts_decoder *
ts_decoder_new(const struct ts_decoder_ops *ops, void *state,
    const char *name, const struct ts_layout *lay, struct ts_diags *d)
{
	return decoder_new(ops, NULL, name, state, lay, d);
}

const struct ts_header *
ts_decoder_header(const struct ts_decoder *dec)
{
	return &dec->h;
}

const struct ts_layout *
ts_decoder_layout(const struct ts_decoder *dec)
{
	return &dec->lay;
}

struct ts_source *
ts_decoder_source(const struct ts_decoder *dec)
{
	return dec->src;
}

long
ts_decoder_next(struct ts_decoder *dec, struct ts_batch *b)
{
	long rv;

	b->n = 0;
	b->first = dec->rows;
	b->file = dec->file;
	b->loc_offset = dec->lay.kind == TS_KIND_BINARY;
	b->loc_step = (unsigned)ts_itype_size(dec->lay.itype);
	b->texts = false;
	b->texts_only = false;
	b->local = b->local_cont = false;
	b->has_values = dec->lay.values > 0;
	b->is_int = ts_vtype_info(dec->lay.vtype)->is_int;
	rv = dec->ops->next(dec, b);
	/* Text tells whether rows hold values at its first row. */
	b->has_values = dec->lay.values > 0;
	if (!b->has_values)
		b->texts = false;
	return in_range(dec, b, rv);
}

const struct ts_meta *
ts_decoder_meta(const struct ts_decoder *dec)
{
	return dec->meta;
}

uint64_t
ts_decoder_rows(const struct ts_decoder *dec)
{
	return dec->rows;
}

uint64_t
ts_decoder_offset(const struct ts_decoder *dec)
{
	return dec->off;
}

void
ts_decoder_close(struct ts_decoder *dec)
{
	if (dec == NULL)
		return;
	if (dec->ops->close != NULL)
		dec->ops->close(dec);
	ts_header_free(&dec->h);
	if (dec->meta != NULL) {
		ts_meta_free(dec->meta);
		free(dec->meta);
	}
	free((char *)dec->file);
	pthread_rwlock_destroy(&dec->local_lock);
	free(dec);
}

void
ts_header_comment(struct ts_header *h, const char *s, size_t len)
{
	size_t n = h->comments_len;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	/* A file's notes, not its bulk: what passes the cap is left. */
	if (n + len + 1 > TS_COMMENTS_MAX)
		return;
	h->comments = ts_xrealloc(h->comments, n + len + 2);
	memcpy(h->comments + n, s, len);
	h->comments[n + len] = '\n';
	h->comments[n + len + 1] = '\0';
	h->comments_len = n + len + 1;
}

void
ts_decoder_set_local(struct ts_decoder *dec, ts_local_fn *fn, void *arg)
{
	pthread_rwlock_wrlock(&dec->local_lock);
	dec->local = fn;
	dec->local_arg = arg;
	pthread_rwlock_unlock(&dec->local_lock);
}
