/*
 * input.c - the entries of whatever a path is (ts_input_open): a bundle
 * (its directory, its metadata file, or one in an archive, a file or
 * standard input), whose data file its metadata tells how to read; or a
 * data file, compressed or not, whose first bytes tell its kind.  What a
 * program on the library would otherwise find out for itself, with
 * stat(2) and a look at the file's name and first bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tensorsuite.h"
#include "util/path.h"
#include "util/xalloc.h"

struct ts_input {
	struct ts_bundles	*ar;	/* an archive, or NULL */
	struct ts_bundle	*bd;	/* a bundle, or NULL */
	struct ts_source	*src;
	struct ts_decoder	*dec;
	struct ts_layout	 lay;
};

/* A directory, or a metadata file, is a bundle. */
static bool
is_bundle(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		return false;
	return (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) ||
	    ts_has_suffix(path, "_metadata.json");
}

/* The bundle's data file: the text one when it has one. */
static int
bundle_data(struct ts_input *in, const char *path, struct ts_diags *d)
{
	const struct ts_meta *m = ts_bundle_meta(in->bd);
	const char *f;
	char *p;

	if (m == NULL)
		return -1;	/* its metadata said why */
	in->lay.kind = TS_KIND_TEXT;
	if ((f = ts_bundle_data_file(in->bd, TS_KIND_TEXT)) == NULL) {
		in->lay.kind = TS_KIND_BINARY;
		f = ts_bundle_data_file(in->bd, TS_KIND_BINARY);
	}
	if (f == NULL) {
		ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_B3, "the bundle "
		    "holds no data file its metadata names");
		return -1;
	}
	ts_layout_of(m, in->lay.kind, &in->lay);
	if ((in->src = ts_bundle_open_file(in->bd, f)) == NULL) {
		p = ts_bundle_path(in->bd, f);
		ts_diag_io(d, p, "%s", strerror(errno));
		free(p);
		return -1;
	}
	return 0;
}

struct ts_input *
ts_input_open(const char *path, const char *member, struct ts_diags *d)
{
	struct ts_input *in = ts_xcalloc(1, sizeof(*in));
	size_t errs = ts_diags_errors(d);

	/* A file's own header says the rest; a text file tells whether
	 * it has values from its first row. */
	in->lay.kind = TS_KIND_TEXT;
	in->lay.values = -1;
	in->lay.vtype = TS_VTYPE_FLOAT64;
	in->lay.itype = TS_ITYPE_UINT64;
	in->lay.endian = TS_ENDIAN_LITTLE;
	in->lay.base = 1;
	if (member != NULL || ts_archive_is(path)) {
		if ((in->ar = ts_bundles_open(path, NULL, d)) == NULL)
			goto fail;
		if ((in->bd = ts_bundles_next(in->ar, member, d)) == NULL) {
			if (ts_diags_errors(d) == errs)
				ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_B5,
				    "the archive holds no bundle%s%s%s", member
				    ? " '" : "", member ? member : "", member ?
				    "'" : "");
			goto fail;
		}
	} else if (is_bundle(path) && (in->bd = ts_bundle_open(path, d)) ==
	    NULL)
		goto fail;
	if (in->bd != NULL) {
		if (bundle_data(in, path, d) != 0)
			goto fail;
	} else {
		if ((in->src = ts_source_open(path, TS_SOURCE_DECOMPRESS,
		    NULL)) == NULL) {
			ts_diag_io(d, path, "%s", strerror(errno));
			goto fail;
		}
		in->lay.kind = ts_sniff(in->src);
	}
	if ((in->dec = ts_decoder_open(in->src, &in->lay, d)) == NULL) {
		if (ts_diags_errors(d) == errs)
			ts_diag_io(d, ts_source_name(in->src), "%s",
			    strerror(errno));
		goto fail;
	}
	return in;
fail:
	ts_input_close(in);
	return NULL;
}

struct ts_decoder *
ts_input_decoder(struct ts_input *in)
{
	return in->dec;
}

enum ts_kind
ts_input_kind(const struct ts_input *in)
{
	return in->bd != NULL ? TS_KIND_BUNDLE : in->lay.kind;
}

struct ts_bundle *
ts_input_bundle(struct ts_input *in)
{
	return in->bd;
}

int
ts_input_finish(struct ts_input *in)
{
	return in->ar != NULL ? ts_bundles_finish(in->ar) : 0;
}

void
ts_input_close(struct ts_input *in)
{
	if (in == NULL)
		return;
	ts_decoder_close(in->dec);
	ts_source_close(in->src);
	ts_bundle_free(in->bd);
	ts_bundles_close(in->ar);
	free(in);
}
