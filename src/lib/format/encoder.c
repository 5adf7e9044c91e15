/*
 * encoder.c - batches of entries to bytes on a sink, whatever the
 * format: the table of the layout's kind does the work (format.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/sysres.h"
#include "util/xalloc.h"

/* Rows are formatted by as many threads as there are CPUs to use, up to
 * 4 (as text is parsed). */
static int
default_threads(void)
{
	int n = ts_cpus_available();

	return n > 4 ? 4 : n < 1 ? 1 : n;
}

void
ts_encoder_set_threads(struct ts_encoder *enc, int n)
{
	enc->threads = n < 1 ? 1 : n;
}

struct ts_encoder *
ts_encoder_open(struct ts_sink *k, const struct ts_header *h,
    const struct ts_layout *lay, const struct ts_encode_opts *o,
    struct ts_diags *d)
{
	const struct ts_encoder_ops *ops = ts_format_encoder(lay->kind);
	struct ts_encoder *enc;
	int m;

	if (ops == NULL || h->order > TS_MAXORDER) {
		errno = EINVAL;
		return NULL;
	}
	/* Never a header the decoders would refuse: no metadata can state
	 * a dimension beyond 2^63-1 (ERANGE). */
	for (m = 0; m < h->order; m++)
		if (h->dims[m] > (uint64_t)INT64_MAX) {
			errno = ERANGE;
			return NULL;
		}
	enc = ts_xcalloc(1, sizeof(*enc));
	enc->ops = ops;
	enc->sink = k;
	enc->d = d;
	enc->h = *h;
	enc->h.version = enc->h.name = NULL;	/* not ours */
	enc->lay = *lay;
	if (lay->block)
		enc->lay.values = 0;
	if (o != NULL)
		enc->o = *o;
	if (enc->o.name == NULL)
		enc->o.name = h->name != NULL ? h->name : "tensor";
	enc->keep.left = enc->o.mem_limit;
	enc->keep.tmpdir = enc->o.tmpdir;
	enc->threads = ops->rows != NULL ? default_threads() : 1;
	enc->pchunk = ts_print_chunk();
	enc->out = ts_outbuf_new(k);
	if (ops->open(enc) != 0) {
		ts_outbuf_close(enc->out);
		free(enc);
		return NULL;
	}
	return enc;
}

/* A failure of the temporary file the arrays went to, said as such
 * (not as the output's): -1. */
static int
keep_failed(struct ts_encoder *enc)
{
	int e = errno;

	if (enc->keep.err != 0) {
		ts_diag_io(enc->d, ts_sink_name(enc->sink), "keeping its "
		    "arrays in a temporary file in '%s': %s",
		    ts_tmpdir(enc->o.tmpdir), strerror(enc->keep.err));
		enc->keep.err = 0;
	}
	errno = e;
	return -1;
}

int
ts_encoder_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	if (enc->ops->put(enc, b) != 0)
		return keep_failed(enc);
	enc->n += b->n;
	return 0;
}

int
ts_encoder_close(struct ts_encoder *enc)
{
	int rv = 0, e = 0;

	if (enc == NULL)
		return 0;
	/* The rows still being formatted, before the format's close frees
	 * what they read. */
	if (ts_print_finish(enc) != 0) {
		rv = -1;
		e = errno;
	}
	if (enc->ops->close(enc) != 0 && rv == 0) {
		rv = keep_failed(enc);
		e = errno;
	}
	/* A header that says another count than the entries that follow
	 * would not read back. */
	if (rv == 0 && (enc->lay.kind == TS_KIND_TEXT || enc->lay.kind ==
	    TS_KIND_BINARY) && enc->n != (enc->lay.block ? enc->h.nnz_block :
	    enc->h.nnz)) {
		rv = -1;
		e = EINVAL;
	}
	if (ts_outbuf_close(enc->out) != 0 && rv == 0) {
		rv = -1;
		e = errno;
	}
	free(enc);
	errno = e;
	return rv;
}

void
ts_encoder_abort(struct ts_encoder *enc)
{
	int e = errno;

	if (enc == NULL)
		return;
	enc->aborted = true;
	ts_print_finish(enc);
	enc->ops->close(enc);
	ts_outbuf_close(enc->out);
	free(enc);
	errno = e;
}
