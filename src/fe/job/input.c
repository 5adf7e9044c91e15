/*
 * input.c - what SRC is: a bundle (its directory or metadata file, or
 * an archive holding it), or a data file or stream whose kind is told
 * by its first bytes (and which is decompressed on the way when it is
 * compressed); where its attributes come from (the bundle's metadata,
 * --meta, the bundle a file sits in, or flags and inference: SPEC
 * section 8); and a source that can be read again when the job needs
 * two passes, so that a pipe or a FIFO is still read only once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tensorsuite.h"
#include "job/job_int.h"
#include "model/model.h"
#include "util/path.h"
#include "util/xalloc.h"

/* Where the attributes of a bare data file come from (SPEC 8). */
static int
find_meta(struct fe_job *j)
{
	const char *src = j->o->src, *b = ts_basename(src);
	struct ts_source *ms;
	char *mp = NULL;
	struct stat st;
	size_t stem;
	int k;

	if (j->o->meta != NULL)
		mp = ts_xstrdup(j->o->meta);
	else if (strcmp(src, "-") != 0 && ((k = ts_kind_of_path(b, &stem)) ==
	    TS_KIND_TEXT || k == TS_KIND_BINARY)) {
		/* A file inside its bundle: NAME/NAME.tns(b). */
		mp = ts_xasprintf("%.*s%.*s_metadata.json", (int)(b - src),
		    src, (int)stem, b);
		if (stat(mp, &st) != 0) {
			free(mp);
			mp = NULL;
		}
	}
	if (mp == NULL)
		return 0;
	/* Never open what is not a file: a FIFO would block. */
	if (stat(mp, &st) == 0 && !S_ISREG(st.st_mode)) {
		ts_diag_io(j->d, mp, "not a regular file");
		free(mp);
		return -1;
	}
	if ((ms = ts_source_open_file(mp)) == NULL) {
		ts_diag_io(j->d, mp, "%s", strerror(errno));
		free(mp);
		return -1;
	}
	ts_meta_read(&j->m, ms, j->d);
	ts_source_close(ms);
	free(mp);
	if (ts_diags_errors(j->d) > 0)
		return -1;
	j->meta_known = true;
	return 0;
}

static void
layout_from_meta(struct fe_job *j)
{
	ts_layout_of(j->mp, j->in.kind, &j->in);
	/* A format's own index base, whatever the tensor's was. */
	if (ts_kind_base(j->in.kind) >= 0)
		j->in.base = ts_kind_base(j->in.kind);
}

/*
 * A file that keeps the attributes beside its entries (binsparse's
 * descriptor) is read at any offset, and twice when its attributes are
 * inferred and then taken from it (fe_job_infer): a stream is spooled
 * first.
 */
static int
spool_attrs(struct fe_job *j)
{
	if (ts_source_size(j->src) < 0 && (j->src = ts_source_spool(j->src,
	    j->o->tmpdir)) == NULL) {
		ts_diag_io(j->d, j->sname, "cannot spool: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* A bare binary stream needs its layout spelled out (SPEC 8). */
static int
layout_from_flags(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;
	char missing[200] = "";

	j->in.values = o->no_values ? 0 : j->from == TS_KIND_BINARY ? 1 : -1;
	j->in.vtype = o->in_vtype >= 0 ? (enum ts_vtype)o->in_vtype :
	    TS_VTYPE_FLOAT64;
	j->in.itype = o->in_itype >= 0 ? (enum ts_itype)o->in_itype :
	    TS_ITYPE_UINT64;
	j->in.endian = o->in_endian >= 0 ? (enum ts_endian)o->in_endian :
	    TS_ENDIAN_LITTLE;
	j->in.base = o->in_base >= 0 ? o->in_base : 1;
	if (j->from == TS_KIND_BINARY) {
		if (o->in_itype < 0)
			strcat(missing, " --input-index-type");
		if (o->in_vtype < 0 && !o->no_values)
			strcat(missing, " --input-value-type (or --no-values)");
		if (o->in_endian < 0)
			strcat(missing, " --input-endian");
		if (o->in_base < 0)
			strcat(missing, " --input-base");
		if (*missing != '\0') {
			ts_diag_usage(j->d, "'%s': a binary data file does "
			    "not describe itself; give --meta FILE or%s",
			    j->sname, missing);
			return -1;
		}
	}
	/* The order of coordinates does not depend on the base. */
	if (j->from == TS_KIND_TEXT && o->in_base < 0 && (j->part == NULL ||
	    !(j->part->flags & FE_JOB_ANY_BASE)))
		ts_diag(j->d, TS_SEV_NOTE, j->sname, 0, 0, TS_RULE_NONE,
		    "no metadata; assuming 1-based coordinates (--input-base "
		    "to change)");
	return 0;
}

/* A bundle SRC: its metadata says it all.  In an archive, it is the
 * one --member names, or the first. */
static int
bundle_input(struct fe_job *j, bool archive)
{
	const struct fe_job_opts *o = j->o;

	if (archive && o->upgrade) {
		ts_diag_usage(j->d, "'%s': --upgrade reads a bundle's "
		    "directory, not an archive", j->sname);
		return -1;
	}
	if (archive) {
		if ((j->ar = ts_bundles_open(o->src, o->tmpdir, j->d)) == NULL)
			return -1;
		j->bd = ts_bundles_next(j->ar, o->member, j->d);
		if (j->bd == NULL && ts_diags_errors(j->d) == 0)
			ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, TS_RULE_B5,
			    "the archive holds no bundle%s%s%s", o->member ?
			    " '" : "", o->member ? o->member : "", o->member ?
			    "'" : "");
	} else if (o->upgrade)
		j->bd = ts_bundle_open_upgraded(o->src, j->d);
	else
		j->bd = ts_bundle_open(o->src, j->d);
	if (j->bd == NULL || ts_diags_errors(j->d) > 0)
		return -1;
	j->mp = ts_bundle_meta(j->bd);
	j->meta_known = true;
	j->data_file = ts_bundle_data_file(j->bd, TS_KIND_TEXT);
	j->from = TS_KIND_TEXT;
	if (j->data_file == NULL) {
		j->data_file = ts_bundle_data_file(j->bd, TS_KIND_BINARY);
		j->from = TS_KIND_BINARY;
	}
	j->in.kind = (enum ts_kind)j->from;
	layout_from_meta(j);
	if ((j->src = ts_bundle_open_file(j->bd, j->data_file)) == NULL) {
		char *p = ts_bundle_path(j->bd, j->data_file);

		ts_diag_io(j->d, p, "%s", strerror(errno));
		free(p);
		return -1;
	}
	return 0;
}

int
fe_job_input(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;
	struct stat st;
	bool archive;

	if (j->part != NULL && j->part->produce != NULL) {
		/* Entries made, not read: the part's input hook says what
		 * they are. */
		j->from = j->src_kind = TS_KIND_TEXT;
		j->in.kind = TS_KIND_TEXT;
		j->meta_known = true;
		return 0;
	}
	j->from = o->from;
	/* An archive: named so, or starting as one, or --member given. */
	archive = (j->from == FE_JOB_AUTO || j->from == TS_KIND_BUNDLE) &&
	    (o->member != NULL || ts_archive_is(o->src));
	if (j->from == FE_JOB_AUTO && strcmp(o->src, "-") != 0 &&
	    ((stat(o->src, &st) == 0 && S_ISDIR(st.st_mode)) ||
	    ts_has_suffix(o->src, "_metadata.json")))
		j->from = TS_KIND_BUNDLE;
	if (archive)
		j->from = TS_KIND_BUNDLE;
	if (j->from != TS_KIND_BUNDLE && o->upgrade) {
		ts_diag_usage(j->d, "'%s': --upgrade reads a bundle (its "
		    "directory or its metadata file)", j->sname);
		return -1;
	}
	if (j->from == TS_KIND_BUNDLE) {
		if (bundle_input(j, archive) != 0)
			return -1;
	} else {
		if (j->from == FE_JOB_AUTO && strcmp(o->src, "-") != 0 &&
		    fe_job_shared_suffix(j, o->src, "--from") != 0)
			return -1;
		if ((j->src = ts_source_open_file(o->src)) == NULL) {
			ts_diag_io(j->d, o->src, "%s", strerror(errno));
			return -1;
		}
		if (ts_source_compression(j->src) != NULL &&
		    (j->src = ts_source_decompress(j->src)) == NULL) {
			if (errno == ELIBACC)
				ts_diag_io(j->d, j->sname, "cannot decompress: "
				    "%s", strerror(errno));
			else
				ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0,
				    TS_RULE_NONE, "cannot decompress: %s",
				    strerror(errno));
			return -1;
		}
		if (j->from == FE_JOB_AUTO)
			j->from = ts_sniff(j->src);
		/* A file named .mtx is Matrix Market, banner or not: its
		 * decoder says what is wrong, instead of FROSTT making an
		 * entry of its size line. */
		if (o->from == FE_JOB_AUTO)
			j->from = ts_kind_read_as((enum ts_kind)j->from,
			    o->src);
		j->in.kind = (enum ts_kind)j->from;
		if ((j->from == TS_KIND_TEXT || j->from == TS_KIND_BINARY ||
		    (ts_kind_traits(j->in.kind) & TS_KIND_ATTRS)) &&
		    find_meta(j) != 0)
			return -1;
		if ((ts_kind_traits(j->in.kind) & TS_KIND_ATTRS) &&
		    spool_attrs(j) != 0)
			return -1;
		if (j->meta_known) {
			layout_from_meta(j);
			/* A stream the tools wrote from a 0-based bundle is
			 * 1-based (SPEC P1): --input-base says so beside
			 * its metadata. */
			if (o->in_base >= 0)
				j->in.base = o->in_base;
		} else if (layout_from_flags(j) != 0)
			return -1;
	}
	j->src_kind = j->bd != NULL ? TS_KIND_BUNDLE : j->from;
	return 0;
}

/*
 * Would a decoder opened with the layout lay read as the spare does,
 * opened with asked and reading as got?  What the inference took from
 * the decoder (values, their type, the base) as it found them, the rest
 * as asked then.
 */
static bool
same_layout(const struct ts_layout *lay, const struct ts_layout *asked,
    const struct ts_layout *got)
{
	return lay->kind == asked->kind && lay->block == asked->block &&
	    lay->itype == asked->itype && lay->endian == asked->endian &&
	    lay->values == got->values && lay->vtype == got->vtype &&
	    lay->base == got->base;
}

struct ts_decoder *
fe_job_decoder(struct fe_job *j, const struct ts_layout *lay)
{
	struct ts_decoder *dec;

	if (j->spare != NULL) {
		/* The inference's, unread: the same file at its first
		 * entry, if it reads it so. */
		dec = j->spare;
		j->spare = NULL;
		if (same_layout(lay, &j->spare_lay, ts_decoder_layout(dec)))
			goto opened;
		ts_decoder_close(dec);
	}
	if (j->part != NULL && j->part->produce != NULL)
		dec = j->part->produce(j->part->arg, j);
	else if (j->used && ts_source_rewind(j->src) != 0) {
		ts_diag_io(j->d, j->sname, "cannot read it again: %s",
		    strerror(errno));
		return NULL;
	} else {
		j->used = true;
		dec = ts_decoder_open(j->src, lay, j->d);
	}
opened:
	/* S1 is the flow's bounds stage's to say (and an import's
	 * dimensions may come from the entries). */
	if (dec != NULL)
		ts_decoder_check_bounds(dec, false);
	if (dec != NULL && j->o->threads > 0)
		ts_decoder_set_threads(dec, j->o->threads);
	return dec;
}

/*
 * Before the output appears: an archive SRC must have held one bundle,
 * unless --member named it, and what it holds must be what its manifest
 * lists.  What is left of the archive is read to see (the bundle can
 * open nothing more).
 */
int
fe_job_input_end(struct fe_job *j)
{
	if (j->ar == NULL)
		return 0;
	if (j->o->member == NULL && ts_bundles_more(j->ar)) {
		ts_diag_usage(j->d, "'%s' holds more than one bundle: name one "
		    "with --member", j->sname);
		return -1;
	}
	return ts_bundles_finish(j->ar);
}

void
fe_job_input_free(struct fe_job *j)
{
	ts_decoder_close(j->spare);
	j->spare = NULL;
	ts_source_close(j->src);
	ts_bundle_free(j->bd);
	ts_bundles_close(j->ar);
	j->src = NULL;
	j->bd = NULL;
	j->ar = NULL;
}
