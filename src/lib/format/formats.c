/*
 * formats.c - the formats, one row each: the name options take, what a
 * file of it is called and begins with, what it can hold, and its
 * decoder and encoder.  Everything that depends on a format asks this
 * table (the kinds' names, suffix inference, the sniff of a stream's
 * first bytes, the check that a tensor fits a format, the decoders and
 * encoders picked), so that a new format is a row here and a file of
 * its own for its code.  The rows are in the order of enum ts_kind.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tensorsuite.h"
#include "format/format.h"

/* What a row says of its files. */
struct format {
	const char	*name;		/* --from, --to */
	const char	*title;		/* in messages */
	const char	*suffix[3];	/* before a compression suffix */
	/* its first line, when it has one that tells it (a prefix) */
	const char	*magic;
	bool		 magic_nocase, magic_blanks;
	int		 min_order, max_order;
	bool		 elements;
	int		 blocks;	/* BLOCKS_* below */
	enum ts_rule	 rule;		/* of what it can hold; or none */
	unsigned	 traits;	/* TS_KIND_* below */
	int		 base;		/* its files' own index base, or -1 */
	const struct ts_decoder_ops *dec;	/* NULL: not read */
	const struct ts_encoder_ops *enc;	/* NULL: not written */
};

/* What a row holds of block tensors: none, any, or those whose
 * partitions are uniform (blocks of one shape). */
enum { BLOCKS_NONE, BLOCKS_ANY, BLOCKS_UNIFORM };

static const struct format formats[] = {
	[TS_KIND_TEXT] = { "tns", "TensorSuite text", { ".tns" },
	    "%%TensorSuite-TNS", false, false, 1, TS_MAXORDER, true, true,
	    TS_RULE_NONE, TS_KIND_VALUE_TEXTS, -1,
	    &ts_tns_decoder, &ts_tns_encoder },
	[TS_KIND_BINARY] = { "tnsb", "TensorSuite binary", { ".tnsb" },
	    "%%TensorSuite-TNSB", false, false, 1, TS_MAXORDER, true, true,
	    TS_RULE_NONE, 0, -1, &ts_tnsb_decoder, &ts_tnsb_encoder },
	/* No magic: what no other format's first bytes tell is FROSTT;
	 * its files are .tns too, told from ours by those bytes. */
	[TS_KIND_FROSTT] = { "frostt", "FROSTT", { NULL },
	    NULL, false, false, 1, TS_MAXORDER, true, false, TS_RULE_NONE,
	    TS_KIND_VALUE_TEXTS | TS_KIND_BARE, -1,
	    &ts_frostt_decoder, &ts_frostt_encoder },
	[TS_KIND_MTX] = { "mtx", "Matrix Market", { ".mtx" },
	    "%%MatrixMarket", true, true, 2, 2, true, false, TS_RULE_NONE,
	    TS_KIND_COMMENT | TS_KIND_NAMED, 1,
	    &ts_mtx_decoder, &ts_mtx_encoder },
	/* cuTENSOR's block-sparse descriptor and its arrays (K4). */
	[TS_KIND_CUTENSOR] = { "cutensor", "cuTENSOR's block-sparse "
	    "descriptor", { ".json" }, NULL, false, false, 1, 8, false, true,
	    TS_RULE_K4, 0, 0, NULL, &ts_cutensor_encoder },
	/* scipy's COO matrix, pydata/sparse's COO array (npz.c); a zip
	 * file, read whatever arrays it holds, binsparse's too. */
	[TS_KIND_NPZ] = { "npz", "NumPy .npz", { ".npz" }, "PK\003\004",
	    false, false, 1, TS_MAXORDER, true, false, TS_RULE_NONE,
	    TS_KIND_SORTED | TS_KIND_NAMED | TS_KIND_ATTRS | TS_KIND_KEEPS, 0,
	    &ts_npz_decoder, &ts_npz_encoder },
	/* binsparse 0.1 in NPZ (bsp_npz.c): named by its two-part
	 * suffix, its first bytes those of any .npz. */
	[TS_KIND_BSP_NPZ] = { "binsparse-npz", "binsparse in NPZ",
	    { ".bsp.npz" }, NULL, false, false, 1, TS_MAXORDER, true,
	    BLOCKS_UNIFORM, TS_RULE_NONE, TS_KIND_SORTED | TS_KIND_NAMED |
	    TS_KIND_ATTRS | TS_KIND_KEEPS, 0, &ts_npz_decoder,
	    &ts_bsp_npz_encoder },
	/* binsparse 0.1 (GraphBLAS) in HDF5, as its C reference writes
	 * it: the HDF5 signature first.  .h5 and .hdf5 name it too. */
	[TS_KIND_BSP_H5] = { "binsparse-h5", "binsparse (HDF5)",
	    { ".bsp.h5", ".h5", ".hdf5" }, "\211HDF\r\n\032\n", false, false,
	    1, TS_MAXORDER, true, BLOCKS_UNIFORM, TS_RULE_NONE,
	    TS_KIND_SORTED | TS_KIND_ATTRS, 0,
	    &ts_bsp_h5_decoder, &ts_bsp_h5_encoder },
	/* SPLATT's binary coordinate file: one array per mode, 0-based
	 * (splatt_bin.c).  Its .bin is FROSTT's binary's too: a shared
	 * suffix names neither, and the user says which. */
	[TS_KIND_SPLATT_BIN] = { "splatt-bin", "SPLATT binary", { ".bin" },
	    NULL, false, false, 1, TS_MAXORDER, true, false, TS_RULE_NONE,
	    TS_KIND_KEEPS, 0, &ts_splatt_decoder, &ts_splatt_encoder },
	/* FROSTT's binary format, version 1 (frostt_bin.c). */
	[TS_KIND_FROSTT_BIN] = { "frostt-bin", "FROSTT binary", { ".bin" },
	    NULL, false, false, 1, TS_MAXORDER, true, false, TS_RULE_NONE,
	    TS_KIND_KEEPS, 0, &ts_frostt_bin_decoder,
	    &ts_frostt_bin_encoder },
	/* HiParTI's text (hiparti.c): the order, the dimensions, then
	 * FROSTT's rows; its files are .tns too. */
	[TS_KIND_HIPARTI] = { "hiparti", "HiParTI text", { NULL }, NULL,
	    false, false, 1, TS_MAXORDER, true, false, TS_RULE_NONE,
	    TS_KIND_VALUE_TEXTS, 1, &ts_hiparti_decoder, &ts_hiparti_encoder },
	/* Not one file: the metadata and data files of a folder, or of
	 * an archive's members. */
	[TS_KIND_BUNDLE] = { "bundle", "bundle", { NULL }, NULL, false,
	    false, 1, TS_MAXORDER, true, true, TS_RULE_NONE, 0, -1, NULL,
	    NULL },
};

#define NFORMATS	(sizeof(formats) / sizeof(formats[0]))

_Static_assert(NFORMATS == TS_KIND_BUNDLE + 1,
    "a row for every kind of enum ts_kind");

static const struct format *
row(enum ts_kind k)
{
	return (unsigned)k < NFORMATS ? &formats[k] : NULL;
}

const char *
ts_kind_name(enum ts_kind k)
{
	return row(k) != NULL ? row(k)->name : NULL;
}

int
ts_kind_of_name(const char *s)
{
	size_t k;

	for (k = 0; s != NULL && k < NFORMATS; k++)
		if (strcmp(formats[k].name, s) == 0)
			return (int)k;
	return -1;
}

const char *
ts_kind_title(enum ts_kind k)
{
	return row(k) != NULL ? row(k)->title : NULL;
}

bool
ts_kind_readable(enum ts_kind k)
{
	return row(k) != NULL && (row(k)->dec != NULL || k == TS_KIND_BUNDLE);
}

bool
ts_kind_writable(enum ts_kind k)
{
	return row(k) != NULL && (row(k)->enc != NULL || k == TS_KIND_BUNDLE);
}

unsigned
ts_kind_traits(enum ts_kind k)
{
	return row(k) != NULL ? row(k)->traits : 0;
}

int
ts_kind_base(enum ts_kind k)
{
	return row(k) != NULL ? row(k)->base : -1;
}

enum ts_kind
ts_kind_read_as(enum ts_kind sniffed, const char *path)
{
	int k = ts_kind_of_path(path, NULL);

	/* Bytes no format claims, under a name that decides; or bytes of
	 * a container a name tells more of (x.bsp.npz). */
	if ((sniffed == TS_KIND_FROSTT || (k >= 0 && formats[k].magic ==
	    NULL && formats[k].dec == formats[sniffed].dec)) && k >= 0 &&
	    (formats[k].traits & TS_KIND_NAMED))
		return (enum ts_kind)k;
	return sniffed;
}

const char *
ts_kind_suffix(enum ts_kind k, int i)
{
	return row(k) != NULL && i >= 0 && i < 3 ? row(k)->suffix[i] : NULL;
}

/*
 * The kinds whose suffixes name ends in (under a compression suffix:
 * x.tns.zst), up to max of them into v: how many; *stem (may be NULL)
 * the length of the name without those suffixes.
 */
static int
kinds_of_path(const char *name, size_t *stem, enum ts_kind *v, int max)
{
	size_t n = strlen(name), l, k, best = 0;
	const char *z;
	int i, found = 0;

	if (ts_sink_compression(name) != NULL && (z = strrchr(name, '.')) !=
	    NULL)
		n = (size_t)(z - name);
	if (stem != NULL)
		*stem = n;
	/* The longest suffix of the tail: x.bsp.npz is binsparse's, not
	 * .npz alone. */
	for (k = 0; k < NFORMATS; k++)
		for (i = 0; i < 3 && formats[k].suffix[i] != NULL; i++) {
			l = strlen(formats[k].suffix[i]);
			/* .tnsb before .tns: a suffix is the whole tail;
			 * a longer one outdoes those found before. */
			if (n > l && l >= best && memcmp(name + n - l,
			    formats[k].suffix[i], l) == 0 && name[n - l - 1] !=
			    '/') {
				if (l > best)
					found = 0;
				best = l;
				if (found < max)
					v[found] = (enum ts_kind)k;
				found++;
				break;
			}
		}
	if (stem != NULL && found > 0)
		*stem = n - best;
	return found;
}

int
ts_kind_of_path(const char *name, size_t *stem)
{
	enum ts_kind v[2];

	/* A suffix two formats share names neither. */
	return kinds_of_path(name, stem, v, 2) == 1 ? (int)v[0] : -1;
}

int
ts_kind_suffix_shared(const char *name, enum ts_kind *v, int max)
{
	enum ts_kind w[NFORMATS];
	int n = kinds_of_path(name, NULL, w, (int)NFORMATS), i;

	if (n < 2)
		return 0;
	for (i = 0; i < n && i < max; i++)
		v[i] = w[i];
	return n;
}

enum ts_kind
ts_kind_of_bytes(const char *p, size_t n)
{
	size_t k, i, l;

	/* The longest magic first: %%TensorSuite-TNSB is TNS and more. */
	for (l = 64; l > 0; l--)
		for (k = 0; k < NFORMATS; k++) {
			const struct format *f = &formats[k];

			if (f->magic == NULL || strlen(f->magic) != l)
				continue;
			i = 0;
			while (f->magic_blanks && i < n && (p[i] == ' ' ||
			    p[i] == '\t'))
				i++;
			if (n - i >= l && (f->magic_nocase ?
			    strncasecmp(p + i, f->magic, l) :
			    strncmp(p + i, f->magic, l)) == 0)
				return (enum ts_kind)k;
			/* Matrix Market's banner is seen with one '%' too. */
			if (f->magic_nocase && n - i >= l - 1 &&
			    strncasecmp(p + i, f->magic + 1, l - 1) == 0)
				return (enum ts_kind)k;
		}
	return TS_KIND_FROSTT;
}

const char *
ts_kind_refuses(enum ts_kind k, const struct ts_meta *m,
    const struct ts_header *h, char *buf, size_t n, enum ts_rule *rule)
{
	const struct format *f = row(k);
	const bool block = m->sparsity == TS_SPARSITY_BLOCK;
	uint64_t shape[TS_MAXORDER], e[2];
	int u = -1;

	*rule = f != NULL ? f->rule : TS_RULE_NONE;
	if (f != NULL && block && f->blocks == BLOCKS_UNIFORM && h != NULL &&
	    h->block)
		u = ts_header_uniform(h, shape, e);
	if (f == NULL || (f->enc == NULL && k != TS_KIND_BUNDLE))
		snprintf(buf, n, "%s is not written", f ? f->title : "?");
	else if (block && f->blocks == BLOCKS_NONE)
		snprintf(buf, n, "the tensor is block-sparse: its entries are "
		    "blocks, which %s cannot hold", f->title);
	else if (u >= 0)
		snprintf(buf, n, "the tensor is block-sparse and its "
		    "partitions are not uniform: mode %d has sections of %llu "
		    "and %llu; %s stores blocks of one shape", u + 1,
		    (unsigned long long)e[0], (unsigned long long)e[1],
		    f->title);
	else if (!block && !f->elements)
		snprintf(buf, n, "not block-sparse: %s holds blocks",
		    f->title);
	else if (m->order < f->min_order || m->order > f->max_order)
		if (f->min_order == 2 && f->max_order == 2)
			snprintf(buf, n, "%s holds matrices; this tensor has "
			    "order %d", f->title, m->order);
		else
			snprintf(buf, n, "%s holds tensors of order %d to %d; "
			    "this one has order %d", f->title, f->min_order,
			    f->max_order, m->order);
	else
		return NULL;
	return buf;
}

const struct ts_decoder_ops *
ts_format_decoder(enum ts_kind k)
{
	return row(k) != NULL ? row(k)->dec : NULL;
}

const struct ts_encoder_ops *
ts_format_encoder(enum ts_kind k)
{
	return row(k) != NULL ? row(k)->enc : NULL;
}
