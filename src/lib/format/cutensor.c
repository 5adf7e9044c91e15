/*
 * cutensor.c - a block bundle as the arrays of cuTENSOR's block-sparse
 * tensor descriptor (SPEC K4): numModes, numSectionsPerMode, extent (the
 * partition lines mode by mode) and nonZeroCoordinates (0-based int32,
 * numModes per block, in file order).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int
ts_cutensor_fill(struct ts_cutensor *ct, const struct ts_header *h,
    const uint64_t *coords, uint64_t nblocks, struct ts_diags *d)
{
	uint64_t total = 0, i;
	size_t k = 0;
	int m;

	memset(ct, 0, sizeof(*ct));
	if (!h->block) {
		ts_diag(d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_K4, "not a block "
		    "tensor: cuTENSOR's block-sparse descriptor holds blocks");
		return -1;
	}
	if (h->order > TS_CUTENSOR_MAXMODES) {
		ts_diag(d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_K4, "order %d: "
		    "cuTENSOR takes at most %d modes", h->order,
		    TS_CUTENSOR_MAXMODES);
		return -1;
	}
	for (m = 0; m < h->order; m++) {
		if (h->parts[m] > INT32_MAX) {
			ts_diag(d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_K4,
			    "mode %d has %llu sections; cuTENSOR takes at "
			    "most 2^31 - 1", m + 1, (unsigned long
			    long)h->parts[m]);
			return -1;
		}
		total += h->parts[m];
	}
	if (nblocks > SIZE_MAX / sizeof(int32_t) / (size_t)h->order) {
		ts_diag(d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_K4, "too many "
		    "blocks");
		return -1;
	}
	ct->num_modes = (uint32_t)h->order;
	ct->num_blocks = nblocks;
	ct->extent = ts_xreallocarray(NULL, (size_t)total, sizeof(int64_t));
	for (m = 0; m < h->order; m++) {
		ct->sections[m] = (uint32_t)h->parts[m];
		for (i = 0; i < h->parts[m]; i++)
			ct->extent[k++] = (int64_t)h->extents[m][i];
	}
	ct->coords = ts_xreallocarray(NULL, (size_t)nblocks * (size_t)h->order,
	    sizeof(int32_t));
	for (i = 0; i < nblocks * (uint64_t)h->order; i++) {
		if (coords[i] > INT32_MAX) {
			ts_diag(d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_K4,
			    "block coordinate %llu does not fit int32",
			    (unsigned long long)coords[i]);
			ts_cutensor_free(ct);
			return -1;
		}
		ct->coords[i] = (int32_t)coords[i];
	}
	return 0;
}

void
ts_cutensor_free(struct ts_cutensor *ct)
{
	free(ct->extent);
	free(ct->coords);
	memset(ct, 0, sizeof(*ct));
}

/* Numbers ten to a line keep the file readable and diffable. */
static void
putarr(struct ts_strbuf *b, const char *key, const int64_t *v, uint64_t n,
    bool last)
{
	uint64_t i;

	ts_sbprintf(b, "  \"%s\": [", key);
	for (i = 0; i < n; i++)
		ts_sbprintf(b, "%s%s%lld", i ? "," : "", i % 10 == 0 ?
		    "\n    " : " ", (long long)v[i]);
	ts_sbprintf(b, "%s]%s\n", n ? "\n  " : "", last ? "" : ",");
}

char *
ts_cutensor_json(const struct ts_cutensor *ct)
{
	int64_t s[TS_CUTENSOR_MAXMODES], *c;
	uint64_t total = 0, i, n = ct->num_blocks * ct->num_modes;
	struct ts_strbuf b;

	b.cap = 1024;
	b.n = 0;
	b.s = ts_xmalloc(b.cap);
	for (i = 0; i < ct->num_modes; i++) {
		s[i] = ct->sections[i];
		total += ct->sections[i];
	}
	c = ts_xreallocarray(NULL, n ? (size_t)n : 1, sizeof(int64_t));
	for (i = 0; i < n; i++)
		c[i] = ct->coords[i];
	ts_sbprintf(&b, "{\n  \"numModes\": %u,\n", ct->num_modes);
	putarr(&b, "numSectionsPerMode", s, ct->num_modes, false);
	putarr(&b, "extent", ct->extent, total, false);
	ts_sbprintf(&b, "  \"numNonZeroBlocks\": %llu,\n",
	    (unsigned long long)ct->num_blocks);
	putarr(&b, "nonZeroCoordinates", c, n, true);
	ts_sbprintf(&b, "}\n");
	free(c);
	return b.s;
}

/* ---- the encoder: every block's coordinates, then the arrays ---- */

struct ctw {
	uint64_t	*all;
	uint64_t	 n, cap;
};

static int
ct_open(struct ts_encoder *enc)
{
	if (!enc->lay.block) {
		ts_diag(enc->d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_NONE, "not "
		    "block-sparse: cuTENSOR's block-sparse descriptor holds "
		    "blocks");
		return -1;
	}
	enc->state = ts_xcalloc(1, sizeof(struct ctw));
	return 0;
}

static int
ct_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	struct ctw *w = enc->state;
	const size_t order = (size_t)enc->h.order;

	if (w->n + b->n > w->cap) {
		w->cap = 2 * (w->n + b->n);
		w->all = ts_xreallocarray(w->all, (size_t)w->cap,
		    order * sizeof(*w->all));
	}
	memcpy(w->all + w->n * order, b->coords, b->n * order *
	    sizeof(*w->all));
	w->n += b->n;
	return 0;
}

static int
ct_close(struct ts_encoder *enc)
{
	struct ctw *w = enc->state;
	struct ts_cutensor ct;
	char *js;
	int rv = 0;

	if (enc->aborted)
		;
	else if (ts_cutensor_fill(&ct, &enc->h, w->all, w->n, enc->d) != 0) {
		errno = EINVAL;
		rv = -1;
	} else {
		js = ts_cutensor_json(&ct);
		ts_outbuf_puts(enc->out, js);
		free(js);
		ts_cutensor_free(&ct);
	}
	free(w->all);
	free(w);
	enc->state = NULL;
	return rv;
}

const struct ts_encoder_ops ts_cutensor_encoder = {
	"cuTENSOR", ct_open, ct_put, ct_close, NULL
};
