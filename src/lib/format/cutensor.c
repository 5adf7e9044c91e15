/*
 * cutensor.c - a block bundle as the arrays of cuTENSOR's block-sparse
 * tensor descriptor (SPEC K4): numModes, numSectionsPerMode, extent (the
 * partition lines mode by mode) and nonZeroCoordinates (0-based int32,
 * numModes per block, in file order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"

int
ts_cutensor_fill(struct ts_cutensor *ct, const struct ts_header *h,
    const uint64_t *coords, uint64_t nblocks, char *err, size_t errlen)
{
	uint64_t total = 0, i;
	size_t k = 0;
	int m;

	memset(ct, 0, sizeof(*ct));
	if (!h->block) {
		snprintf(err, errlen, "not a block tensor: cuTENSOR's "
		    "block-sparse descriptor holds blocks");
		return -1;
	}
	if (h->order > TS_CUTENSOR_MAXMODES) {
		snprintf(err, errlen, "order %d: cuTENSOR takes at most %d "
		    "modes", h->order, TS_CUTENSOR_MAXMODES);
		return -1;
	}
	for (m = 0; m < h->order; m++) {
		if (h->parts[m] > INT32_MAX) {
			snprintf(err, errlen, "mode %d has %llu sections; "
			    "cuTENSOR takes at most 2^31 - 1", m + 1,
			    (unsigned long long)h->parts[m]);
			return -1;
		}
		total += h->parts[m];
	}
	if (nblocks > SIZE_MAX / sizeof(int32_t) / (size_t)h->order) {
		snprintf(err, errlen, "too many blocks");
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
			snprintf(err, errlen, "block coordinate %llu does not "
			    "fit int32", (unsigned long long)coords[i]);
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
putarr(FILE *fp, const char *key, const int64_t *v, uint64_t n, bool last)
{
	uint64_t i;

	fprintf(fp, "  \"%s\": [", key);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s%lld", i ? "," : "", i % 10 == 0 ?
		    "\n    " : " ", (long long)v[i]);
	fprintf(fp, "%s]%s\n", n ? "\n  " : "", last ? "" : ",");
}

int
ts_cutensor_write_json(const struct ts_cutensor *ct, FILE *fp)
{
	int64_t s[TS_CUTENSOR_MAXMODES], *c;
	uint64_t total = 0, i, n = ct->num_blocks * ct->num_modes;

	for (i = 0; i < ct->num_modes; i++) {
		s[i] = ct->sections[i];
		total += ct->sections[i];
	}
	c = ts_xreallocarray(NULL, n ? (size_t)n : 1, sizeof(int64_t));
	for (i = 0; i < n; i++)
		c[i] = ct->coords[i];
	fprintf(fp, "{\n  \"numModes\": %u,\n", ct->num_modes);
	putarr(fp, "numSectionsPerMode", s, ct->num_modes, false);
	putarr(fp, "extent", ct->extent, total, false);
	fprintf(fp, "  \"numNonZeroBlocks\": %llu,\n",
	    (unsigned long long)ct->num_blocks);
	putarr(fp, "nonZeroCoordinates", c, n, true);
	fputs("}\n", fp);
	free(c);
	return ferror(fp) ? -1 : 0;
}
