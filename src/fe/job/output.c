/*
 * output.c - DST: a bundle (its data files, README, the other files of
 * a source bundle, the metadata last) or one file (.tns, .tnsb, FROSTT,
 * .mtx, cuTENSOR JSON, or standard output).  Sinks are opened before
 * anything is read, so that an existing or unwritable DST is refused at
 * once; encoders are opened on them when the flow is about to deliver,
 * once the header they write is known; everything appears at the end or
 * nothing does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "fe.h"
#include "job/job_int.h"
#include "readme.h"
#include "io/io.h"
#include "model/model.h"
#include "stage/stage.h"
#include "util/path.h"
#include "util/sysres.h"
#include "util/xalloc.h"
#include "values/genvalues.h"

struct out {
	enum ts_kind		 kind;
	struct ts_layout	 lay;
	struct ts_sink		*sink;
	struct ts_encoder	*enc;
	char			*fname;		/* in a bundle */
};

struct outputs {
	struct fe_job		*j;
	struct out		 v[2];
	int			 n;
	struct ts_bundle_out	*bo;
	struct ts_decoder	*dec;
	struct ts_header	 oh;
	struct ts_encode_opts	 eo;
	char			*comment;
	uint64_t		 want;		/* entries the input holds */
	uint64_t		 stored;	/* ... Matrix Market writes */
	struct ts_flow		*flow;
	/* what the sort of an output of unique entries handed on */
	bool			 sorting;
	struct ts_sort_result	 sr;
};

/* zstd workers for an archive DST, -j's (its bytes do not depend on
 * them), else as many as there are CPUs to use. */
static int
job_cores(const struct fe_job *j)
{
	int n = fe_job_threads(j);

	return n > 64 ? 64 : n;
}

char *
fe_job_today(void)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[16];

	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	return ts_xstrdup(buf);
}

static void
setstr(char **dst, const char *v)
{
	if (v == NULL)
		return;
	free(*dst);
	*dst = ts_xstrdup(v);
}

/* A sink that could not be opened: why, what would do, and what
 * status. */
static void
sink_refused(struct fe_job *j, const char *path, int e)
{
	char kinds[FE_WORDS];

	if (e == EEXIST)
		ts_diag_usage(j->d, "'%s' exists (-f replaces it)", path);
	else if (e == ENOTEMPTY)
		ts_diag_usage(j->d, "'%s' is a directory but not a bundle: a "
		    "bundle goes to a new name, an empty directory, or over a "
		    "bundle with -f", path);
	else if (e == EISDIR)
		ts_diag_usage(j->d, "'%s' is a directory: a %s file cannot "
		    "replace it", path, ts_kind_name(j->to));
	else if (e == ENOTDIR)
		ts_diag_usage(j->d, "'%s' is not a directory, so a bundle "
		    "cannot be written to it: give --to %s", path,
		    fe_kind_words(kinds, true, false));
	else if (e == EOPNOTSUPP)
		ts_diag_usage(j->d, "'%s': this libarchive cannot write %s "
		    "output: give a name without that suffix", path,
		    ts_sink_compression(path));
	else
		ts_diag_io(j->d, path, "%s", strerror(e));
}

/* A bundle DST that could not be opened: the directory a rewrite could
 * not write in is named. */
static void
bundle_refused(struct fe_job *j, const char *dir, int e)
{
	struct stat st;
	char *which;
	bool there = lstat(dir, &st) == 0;

	if ((e == EACCES || e == EPERM || e == EROFS) &&
	    ts_removable(dir, &which) != 0) {
		ts_diag_io(j->d, dir, "cannot be %s: '%s' is not writable "
		    "(%s)%s", there ? "rewritten" : "written", which,
		    strerror(errno), there ? "; the bundle is left as it was" :
		    "");
		free(which);
	} else
		sink_refused(j, dir, e);
}

/*
 * DST, opened before SRC is read: an existing or unwritable DST is
 * refused at once, and a bundle is locked before its old self is read
 * (a rewrite in place), so that two writers of it take turns.  Standard output
 * is opened when written.
 */
int
fe_job_open_output(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;
	unsigned flags = o->force ? TS_BUNDLE_OUT_FORCE : 0;
	char *dir, *shown, *rp = NULL, *sp = NULL;

	if (o->dst == NULL || (j->stream && j->to != TS_KIND_BUNDLE))
		return 0;
	if (j->to != TS_KIND_BUNDLE) {
		if ((j->sink = ts_sink_open(o->dst, (o->force ?
		    TS_SINK_FORCE : 0) | TS_SINK_COMPRESS)) == NULL) {
			sink_refused(j, o->dst, errno);
			return -1;
		}
		return 0;
	}
	if (j->dst_archive) {
		struct ts_pack_opts po = { (enum ts_compress)
		    ts_compress_of(o->dst), -1, job_cores(j) };

		if ((j->bo = ts_bundle_out_archive(o->dst, flags, &po)) ==
		    NULL) {
			sink_refused(j, o->dst, errno);
			return -1;
		}
		return 0;
	}
	dir = shown = (char *)o->dst;
	if (o->inplace) {
		/* SRC's bundle (its directory, or where its metadata is),
		 * by a name that can be exchanged with another ("." cannot). */
		flags |= TS_BUNDLE_OUT_INPLACE;
		if (ts_has_suffix(o->src, "_metadata.json"))
			dir = shown = sp = ts_dirname(o->src);
		if ((rp = realpath(dir, NULL)) != NULL)
			dir = rp;
	}
	if ((j->bo = ts_bundle_out_open(dir, flags)) == NULL &&
	    errno == EWOULDBLOCK) {
		ts_diag(j->d, TS_SEV_NOTE, o->dst, 0, 0, TS_RULE_NONE,
		    "another program is writing this bundle; waiting for it "
		    "to finish");
		j->bo = ts_bundle_out_open(dir, flags | TS_BUNDLE_OUT_WAIT);
	}
	if (j->bo == NULL)
		bundle_refused(j, shown, errno);
	free(rp);
	free(sp);
	return j->bo == NULL ? -1 : 0;
}

/* ---- the bundle's attributes, README and other files ---- */

/* Apply the descriptive flags and the defaults of a new bundle. */
void
fe_job_describe(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;
	struct ts_meta *m = j->mp;
	char *t;

	setstr(&m->version, TS_FORMAT);
	if (m->group == NULL)
		m->group = ts_xstrdup("");
	if (m->id == NULL)
		m->id = ts_xstrdup("0000");
	if (m->time == NULL) {
		t = fe_job_today();
		setstr(&m->time, t);
		free(t);
	}
	if (m->source_type == NULL)
		m->source_type = ts_xstrdup("real");
	if (m->source == NULL)
		m->source = ts_xstrdup(ts_basename(o->src));
	if (m->source_url == NULL)
		m->source_url = ts_xstrdup("");
	setstr(&m->group, o->group);
	setstr(&m->id, o->id);
	setstr(&m->time, o->time);
	setstr(&m->source, o->source);
	setstr(&m->source_url, o->source_url);
	setstr(&m->source_type, o->source_type);
}

/* The data files a bundle or file written names, and their byte
 * order. */
static void
name_files(struct fe_job *j, bool text, bool binary)
{
	const struct fe_job_opts *o = j->o;
	struct ts_meta *m = j->mp;

	if (binary)
		m->endianness = o->out_endian >= 0 ?
		    (enum ts_endian)o->out_endian :
		    m->endianness != TS_ENDIAN_NONE ? m->endianness :
		    TS_ENDIAN_LITTLE;
	else
		m->endianness = TS_ENDIAN_NONE;
	free(m->f_text);
	free(m->f_binary);
	free(m->f_readme);
	m->f_text = text ? ts_xasprintf("%s.tns", m->name) : NULL;
	m->f_binary = binary ? ts_xasprintf("%s.tnsb", m->name) : NULL;
	m->f_readme = ts_xstrdup("README.md");
}

/* The output attributes, with the flags' changes, checked; the data
 * files named, unless the output keeps the attributes as they are
 * (binsparse: a bundle read back from it gets its files back). */
static int
change_attributes(struct fe_job *j, bool text, bool binary, bool files)
{
	const struct fe_job_opts *o = j->o;
	struct ts_meta *m = j->mp;
	int k;

	if (o->out_base >= 0)
		m->index_base = o->out_base;
	if (o->out_itype >= 0)
		m->index_type = (enum ts_itype)o->out_itype;
	if (o->out_vtype >= 0 && m->values_provided)
		m->value_type = (enum ts_vtype)o->out_vtype;
	if (files)
		name_files(j, text, binary);
	for (k = 0; k < m->order; k++)
		if (m->index_type == TS_ITYPE_UINT32 && m->dims[k] - 1 +
		    (uint64_t)m->index_base > UINT32_MAX) {
			ts_diag(j->d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_M4,
			    "--index-type uint32 cannot hold the coordinates "
			    "of mode %d (dimension %llu)", k + 1,
			    (unsigned long long)m->dims[k]);
			return -1;
		}
	return 0;
}

/* The metadata we are about to write, checked by our own checker. */
static char *
meta_selfcheck(struct fe_job *j)
{
	struct ts_diags *chk = ts_diags_new(20, false);
	char *text = ts_meta_canonical(j->mp);
	struct ts_meta m;
	size_t i;

	/* What a reader would refuse, a writer never writes. */
	if (strlen(text) >= TS_META_MAX) {
		ts_diag(j->d, TS_SEV_ERROR, j->bd ? ts_bundle_meta_path(j->bd) :
		    NULL, 0, 0, TS_RULE_M1, "rewritten, the metadata would be "
		    "larger than %u MiB, which no reader takes",
		    TS_META_MAX >> 20);
		free(text);
		ts_diags_free(chk);
		return NULL;
	}
	ts_meta_init(&m);
	ts_meta_parse(&m, text, strlen(text), "metadata", chk);
	ts_meta_free(&m);
	if (ts_diags_errors(chk) > 0) {
		for (i = 0; i < ts_diags_len(chk); i++)
			if (ts_diags_at(chk, i)->sev == TS_SEV_ERROR)
				ts_diag_usage(j->d, "the output metadata would "
				    "be invalid: %s [%s]",
				    ts_diags_at(chk, i)->msg,
				    ts_rule_id(ts_diags_at(chk, i)->rule));
		free(text);
		text = NULL;
	}
	ts_diags_free(chk);
	return text;
}

/*
 * The source bundle's README, at most cap bytes, read as a file of the
 * bundle: a regular file, never through a link (nor a FIFO, which would
 * block); less the Statistics section of ts-stat, whose figures and
 * pictures are of the entries before the rewrite, with a note that says
 * so (*cut).  Malloc'd, or NULL when there is none.
 */
/* The most of a source bundle's README that a rewrite carries. */
#define README_MAX	((size_t)16 << 20)

static char *
source_readme(struct fe_job *j, size_t cap, bool *cut)
{
	const struct ts_meta *m = j->mp;
	struct ts_file_stat fs;
	struct ts_source *src;
	size_t n = 0, size = 1 << 12;
	char *text, *p;
	long r = 1;

	*cut = false;
	if (j->bd == NULL || m->f_readme == NULL || ts_bundle_stat(j->bd,
	    m->f_readme, &fs) != 0)
		return NULL;
	if (!fs.regular || fs.link) {
		p = ts_bundle_path(j->bd, m->f_readme);
		ts_diag(j->d, TS_SEV_NOTE, p, 0, 0, TS_RULE_NONE,
		    "%s: a README is read from a regular file of the bundle "
		    "only; it is not read", fs.link ? "a symbolic link" :
		    "not a regular file");
		free(p);
		return NULL;
	}
	if ((src = ts_bundle_open_file(j->bd, m->f_readme)) == NULL)
		return NULL;
	text = ts_xmalloc(size + 1);
	while (n < cap && (r = ts_source_read(src, text + n, (size - n <
	    cap - n ? size - n : cap - n))) > 0)
		if ((n += (size_t)r) == size && n < cap)
			text = ts_xrealloc(text, (size *= 2) + 1);
	text[n] = '\0';
	if (n == cap && ts_source_read(src, &(char){ 0 }, 1) > 0) {
		p = ts_bundle_path(j->bd, m->f_readme);
		ts_diag(j->d, TS_SEV_WARNING, p, 0, 0, TS_RULE_NONE,
		    "longer than %zu MiB: the new README carries its first "
		    "%zu MiB", cap >> 20, cap >> 20);
		free(p);
	}
	ts_source_close(src);
	/* (Text, not bytes with a NUL among them, which it leaves.) */
	*cut = strlen(text) == n && fe_readme_cut(text);
	if (*cut) {
		p = ts_xasprintf("%s/%s", j->dstdir, m->f_readme);
		ts_diag(j->d, TS_SEV_NOTE, p, 0, 0, TS_RULE_NONE,
		    "the Statistics section ts-stat wrote of the entries "
		    "before this rewrite is left out, with its links to "
		    "pictures: 'ts-stat --readme' writes it anew");
		free(p);
	}
	return text;
}

static char *
readme_text(struct fe_job *j)
{
	const struct ts_meta *m = j->mp;
	bool cut;
	char *old = source_readme(j, README_MAX, &cut), *s;
	char *date = fe_job_today();

	if (j->part != NULL && j->part->produce != NULL)
		s = ts_xasprintf("# %s\n\nGenerated by %s %s on %s.\n\n"
		    "Command:\n\n    %s\n", m->name, j->o->program, TS_VERSION,
		    date, j->o->command ? j->o->command : "");
	else
		s = ts_xasprintf("# %s\n\nWritten by %s %s on %s from `%s` "
		    "(%s).\n\nCommand:\n\n    %s\n%s%s%s", m->name,
		    j->o->program, TS_VERSION, date, j->sname,
		    ts_kind_name(j->src_kind), j->o->command ? j->o->command :
		    "", j->provenance ? j->provenance : "", old && *old ?
		    "\n## README of the source bundle\n\n" : "", old ? old :
		    "");
	if (j->part != NULL && j->part->readme != NULL) {
		char *g = j->part->readme(j->part->arg, j), *t;

		t = ts_xasprintf("%s%s", s, g);
		free(s);
		free(g);
		s = t;
	}
	free(old);
	free(date);
	return s;
}

/* Write text as file fname of the bundle. */
static int
put_file(struct fe_job *j, struct ts_bundle_out *bo, const char *fname,
    const char *text, size_t n)
{
	struct ts_sink *k = ts_bundle_out_file(bo, fname);

	if (k == NULL || ts_sink_write(k, text, n) != 0 ||
	    ts_sink_commit(k) != 0) {
		char *p = ts_xasprintf("%s/%s", j->dstdir, fname);

		if (k != NULL)
			ts_sink_abort(k);
		ts_diag_io(j->d, p, "%s", strerror(errno));
		free(p);
		return -1;
	}
	return 0;
}

int
fe_job_put_file(struct fe_job *j, struct ts_bundle_out *bo, const char *key,
    const char *fname, const char *text, size_t n)
{
	struct ts_meta *m = j->mp;

	if (put_file(j, bo, fname, text, n) != 0)
		return -1;
	if (j->written == NULL)
		j->written = json_object();
	json_object_set_new(j->written, fname, json_true());
	if (key != NULL) {
		if (m->f_other == NULL)
			m->f_other = json_object();
		json_object_set_new(m->f_other, key, json_string(fname));
	}
	return 0;
}

struct auxctx {
	struct fe_job		*j;
	struct ts_bundle_out	*bo;
	const char		*skip[4];
	json_t			*copied;	/* names, as keys */
	bool			 pictures;	/* some were left out */
};

/*
 * The source bundle's folder of pictures is not carried into the
 * rewritten bundle: ts-stat drew them of the entries before (B6).  Said
 * once.
 */
static void
pictures_left_out(struct fe_job *j)
{
	char *p = ts_xasprintf("%s/%s", j->dstdir, TS_BUNDLE_PICTURES);

	ts_diag(j->d, TS_SEV_NOTE, p, 0, 0, TS_RULE_NONE, "the pictures "
	    "ts-stat drew of the entries before this rewrite are left out: "
	    "'ts-stat --plot' draws them anew");
	free(p);
}

/* One other file of the source bundle, copied along. */
static int
copy_one(const char *fname, void *arg)
{
	struct auxctx *c = arg;
	struct ts_file_stat fs;
	struct ts_source *src;
	struct ts_sink *k;
	char buf[1 << 16];
	long r = 0;
	int i;

	/* Hidden files are the directory's, not the bundle's; pictures
	 * of the entries before are not of the new ones. */
	if (fname[0] == '.')
		return 0;
	if (strchr(fname, '/') != NULL) {
		c->pictures = true;
		return 0;
	}
	for (i = 0; i < 4; i++)
		if (c->skip[i] != NULL && strcmp(fname, c->skip[i]) == 0)
			return 0;
	if (ts_bundle_stat(c->j->bd, fname, &fs) != 0 || !fs.regular)
		return 0;
	/* What a link points to may be anyone's: left out, as ts-pack
	 * leaves it out of an archive, and said. */
	if (fs.link) {
		char *p = ts_bundle_path(c->j->bd, fname);

		ts_diag(c->j->d, TS_SEV_WARNING, p, 0, 0, TS_RULE_NONE,
		    "a symbolic link: not copied into the new bundle");
		free(p);
		return 0;
	}
	if ((src = ts_bundle_open_file(c->j->bd, fname)) == NULL ||
	    (k = ts_bundle_out_file(c->bo, fname)) == NULL) {
		ts_source_close(src);
		ts_diag_io(c->j->d, fname, "%s", strerror(errno));
		return -1;
	}
	while ((r = ts_source_read(src, buf, sizeof(buf))) > 0)
		if (ts_sink_write(k, buf, (size_t)r) != 0)
			break;
	ts_source_close(src);
	if (r != 0 || ts_sink_commit(k) != 0) {
		if (r != 0)
			ts_sink_abort(k);
		ts_diag_io(c->j->d, fname, "copying: %s", strerror(errno));
		return -1;
	}
	json_object_set_new(c->copied, fname, json_true());
	return 0;
}

/*
 * A written bundle names only the files it holds (B3): an other entry
 * of 'files' whose file was not copied along goes, with a note.  That
 * is every one when the metadata came from --meta or from beside a bare
 * data file: a job copies a bundle's files only from a bundle SRC,
 * never from where a metadata file happens to lie.
 */
static void
prune_files(struct fe_job *j, json_t *copied)
{
	struct ts_meta *m = j->mp;
	const char *k, *f;
	json_t *v;
	void *tmp;
	char *meta = ts_xasprintf("%s_metadata.json", m->name);

	json_object_foreach_safe((json_t *)m->f_other, tmp, k, v) {
		f = json_string_value(v);
		if (f == NULL || *f == '\0' || json_object_get(copied, f) ||
		    (m->f_text && strcmp(f, m->f_text) == 0) ||
		    (m->f_binary && strcmp(f, m->f_binary) == 0) ||
		    strcmp(f, "README.md") == 0 || strcmp(f, meta) == 0)
			continue;
		ts_diag(j->d, TS_SEV_NOTE, j->sname, 0, 0, TS_RULE_NONE,
		    "'files.%s' names '%s', which the output bundle does not "
		    "hold: left out (%s)", k, f, j->bd == NULL ? "only a "
		    "bundle SRC brings its files along" : "not a regular file "
		    "of its own");
		json_object_del((json_t *)m->f_other, k);
	}
	free(meta);
}

/*
 * The other files of a source bundle (its config, notes, ...) come
 * along: a bundle rewritten must lose nothing.
 */
static int
copy_aux(struct fe_job *j, struct ts_bundle_out *bo)
{
	struct auxctx c;
	char *meta;
	int rv = 0;

	/* The part's own files are there, as the copies are. */
	c.copied = j->written != NULL ? json_copy(j->written) : json_object();
	c.pictures = false;
	if (j->bd != NULL) {
		meta = ts_xasprintf("%s_metadata.json", ts_bundle_name(j->bd));
		c.j = j;
		c.bo = bo;
		c.skip[0] = meta;
		c.skip[1] = ts_bundle_data_file(j->bd, TS_KIND_TEXT);
		c.skip[2] = ts_bundle_data_file(j->bd, TS_KIND_BINARY);
		c.skip[3] = j->mp->f_readme ? j->mp->f_readme : "README.md";
		rv = ts_bundle_list(j->bd, copy_one, &c);
		free(meta);
	}
	if (rv == 0)
		prune_files(j, c.copied);
	if (rv == 0 && c.pictures)
		pictures_left_out(j);
	json_decref(c.copied);
	return rv;
}

/* ---- the flow into the outputs ---- */

/* Once what the headers say is known: the encoders. */
static int
ready(void *arg)
{
	struct outputs *os = arg;
	struct fe_job *j = os->j;
	struct ts_meta *m = j->mp;
	const struct ts_header *h = ts_decoder_header(os->dec);
	int i;

	if (j->part != NULL && j->part->ready != NULL) {
		/* Everything is read: the count is final. */
		if (ts_flow_read(os->flow) != os->want) {
			ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, TS_RULE_X7,
			    "%llu entries read; its header says %llu",
			    (unsigned long long)ts_flow_read(os->flow),
			    (unsigned long long)os->want);
			return -1;
		}
		if (j->part->ready(j->part->arg, j) != 0)
			return -1;
	}
	/* Repeats merged: fewer entries than were read (a block tensor's
	 * blocks, all of one shape, as binsparse holds them). */
	if (os->sorting && h->block && m->sparsity == TS_SPARSITY_BLOCK) {
		uint64_t shape[TS_MAXORDER], e[2], vol = 1;

		if (ts_header_uniform(h, shape, e) < 0) {
			for (i = 0; i < m->order; i++)
				vol *= shape[i];
			m->nnz_block = os->sr.count;
			m->nnz = os->sr.count * vol;
		}
	} else if (os->sorting)
		m->nnz = os->sr.count;
	memset(&os->oh, 0, sizeof(os->oh));
	os->oh.order = m->order;
	memcpy(os->oh.dims, m->dims, sizeof(os->oh.dims));
	os->oh.nnz = os->eo.mtx_sym != 0 ? os->stored : m->nnz;
	os->oh.nnz_block = m->nnz_block;
	/* Blocks not expanded. */
	if (h->block && m->sparsity == TS_SPARSITY_BLOCK) {
		os->oh.block = true;
		memcpy(os->oh.parts, h->parts, sizeof(os->oh.parts));
		memcpy(os->oh.extents, h->extents, sizeof(os->oh.extents));
	}
	for (i = 0; i < os->n; i++) {
		struct out *o = &os->v[i];

		o->enc = ts_encoder_open(o->sink, &os->oh, &o->lay, &os->eo,
		    j->d);
		if (o->enc == NULL) {
			if (ts_diags_errors(j->d) == 0)
				ts_diag_io(j->d, ts_sink_name(o->sink), "%s",
				    strerror(errno));
			return -1;
		}
		ts_flow_output(os->flow, o->enc);
	}
	return 0;
}

/*
 * Why an output of kind k cannot hold the tensor, said (h: its data
 * file's header once read, else NULL); -1 then, else 0.  A block tensor
 * whose elements it could hold: --expand, when the tool has it.
 */
static int
refused(struct fe_job *j, enum ts_kind k, const struct ts_header *h)
{
	struct ts_meta el = *j->mp;
	const char *why, *hint = "";
	enum ts_rule rule, erule;
	char buf[300], ebuf[300];

	if ((why = ts_kind_refuses(k, j->mp, h, buf, sizeof(buf), &rule)) ==
	    NULL)
		return 0;
	el.sparsity = TS_SPARSITY_ELEMENT;
	if (j->o->expand == 0 && j->mp->sparsity == TS_SPARSITY_BLOCK &&
	    ts_kind_refuses(k, &el, NULL, ebuf, sizeof(ebuf), &erule) ==
	    NULL)
		hint = ": --expand writes its elements";
	/* A DST named by its suffix may have meant a bundle. */
	if (j->o->to == FE_JOB_AUTO && !j->stream)
		ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, rule, "%s%s (a DST "
		    "named %s is %s; for a bundle, give a DST without a "
		    "suffix)", why, hint, ts_kind_suffix(k, 0),
		    ts_kind_title(k));
	else
		ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, rule, "%s%s", why,
		    hint);
	return -1;
}

/* -S, else a quarter of the memory the process may use. */
static size_t
mem_limit(const struct fe_job *j)
{
	return j->o->mem_limit > 0 ? j->o->mem_limit :
	    fe_default_size("-S", "25%");
}

/* --duplicates, else repeats refused. */
static enum ts_dup_policy
dup_policy(const struct fe_job *j)
{
	return j->o->dups == FE_JOB_AUTO ? TS_DUP_ERROR :
	    (enum ts_dup_policy)j->o->dups;
}

/*
 * An output that holds unique entries in lexicographic order (binsparse)
 * gets them so: checked as they pass when the attributes say they are
 * sorted (in any order of the modes, which it stores transposed), else
 * sorted by modes 1..N, spilled past a quarter of the memory to the
 * temporary directory.  A repeat is refused, unless a policy
 * (--duplicates) merges repeats: then entries said to be sorted with
 * repeats go through the sort too, which merges them.
 */
static int
sorted_output(struct outputs *os)
{
	struct fe_job *j = os->j;
	struct ts_meta *m = j->mp;
	const bool block = m->sparsity == TS_SPARSITY_BLOCK;
	struct ts_sort_opts so;
	struct ts_stage *st;
	int i, k;

	for (i = 0; i < os->n; i++)
		if (ts_kind_traits(os->v[i].kind) & TS_KIND_SORTED)
			break;
	if (i == os->n)
		return 0;
	if (m->sorted && m->nsort == m->order && (!m->dups_allowed ||
	    dup_policy(j) == TS_DUP_ERROR)) {
		if (m->dups_allowed)
			ts_flow_add(os->flow, ts_stage_order(m->sort_order,
			    m->order, m->index_base, true, j->d));
		return 0;
	}
	memset(&so, 0, sizeof(so));
	so.order = m->order;
	for (k = 0; k < m->order; k++)
		so.prio[k] = k;
	so.has_values = m->values_provided && !block;
	so.vtype = m->value_type;
	/* The sort and the arrays an output keeps to its end share -S. */
	so.mem_limit = mem_limit(j);
	if (ts_kind_traits(os->v[i].kind) & TS_KIND_KEEPS) {
		so.mem_limit /= 2;
		os->eo.mem_limit = so.mem_limit;
	}
	so.tmpdir = j->o->tmpdir;
	/* A block tensor's entries are its blocks. */
	so.expect = block ? m->nnz_block : m->nnz;
	so.threads = fe_job_threads(j);
	so.dups = dup_policy(j);
	if ((st = ts_stage_sort(&so, m->index_base, j->sname, os->dec,
	    &os->sr, j->d)) == NULL)
		return -1;
	ts_flow_add(os->flow, st);
	os->sorting = true;
	/* What the file says of its entries, once they are sorted. */
	m->sorted = true;
	m->nsort = m->order;
	for (k = 0; k < m->order; k++)
		m->sort_order[k] = k;
	m->dups_allowed = false;
	return 0;
}

/* Decode, bound, change types, the part's stages, encode to every
 * output. */
static int
pump(struct outputs *os, const char *label)
{
	struct fe_job *j = os->j;
	struct ts_meta *m = j->mp;
	const struct ts_header *h;
	uint64_t lim[TS_MAXORDER];
	bool block;
	int rv = -1, i;

	if ((os->dec = fe_job_decoder(j, &j->in)) == NULL)
		return -1;
	h = ts_decoder_header(os->dec);
	block = h->block;
	os->want = block ? m->nnz_block : m->nnz;
	memcpy(lim, block ? h->parts : m->dims, sizeof(lim));
	os->flow = ts_flow_new(os->dec, j->d, j->sname);
	ts_flow_name_output(os->flow, label);
	/* What only the data file's header tells (binsparse: blocks of
	 * one shape). */
	for (i = 0; block && i < os->n; i++)
		if (refused(j, os->v[i].kind, h) != 0)
			goto out;
	ts_flow_add(os->flow, block ? ts_stage_block_bounds(h, j->in.base,
	    m->nnz, j->sname, j->d) : ts_stage_bounds(lim, m->order,
	    j->in.base, false, j->d));
	/* --expand: the blocks' elements, in the blocks' order. */
	if (block && j->o->expand == 1)
		ts_flow_add(os->flow, fe_stage_expand(h, m->sort_order,
		    m->sorted && m->nsort == m->order, m->nnz, NULL, j->sname,
		    j->d));
	if (m->values_provided && !block && j->in.vtype != m->value_type &&
	    (j->part == NULL || !(j->part->flags & FE_JOB_VALUES)))
		ts_flow_add(os->flow, ts_stage_convert(j->in.vtype,
		    m->value_type, j->d));
	for (i = 0; i < os->n; i++)
		if (!(ts_kind_traits(os->v[i].kind) & TS_KIND_VALUE_TEXTS))
			break;
	j->out_text = i == os->n;
	if (j->part != NULL && j->part->stages != NULL &&
	    j->part->stages(j->part->arg, j, os->flow, os->dec) != 0)
		goto out;
	if (sorted_output(os) != 0)
		goto out;
	if (ts_flow_run(os->flow, ready, os) != 0)
		goto out;
	if (ts_flow_read(os->flow) != os->want) {
		ts_diag(j->d, TS_SEV_ERROR, j->sname, 0, 0, TS_RULE_X7, "%llu "
		    "entries read; its header says %llu",
		    (unsigned long long)ts_flow_read(os->flow),
		    (unsigned long long)os->want);
		goto out;
	}
	if (os->sorting)
		fe_job_sums_seen(j, os->sr.seen);
	if (j->part != NULL && j->part->done != NULL)
		j->part->done(j->part->arg, j);
	rv = 0;
	for (i = 0; i < os->n; i++) {
		if (ts_encoder_close(os->v[i].enc) != 0) {
			if (ts_diags_errors(j->d) == 0)
				ts_diag_io(j->d, ts_sink_name(os->v[i].sink),
				    "%s", strerror(errno));
			rv = -1;
		}
		os->v[i].enc = NULL;
	}
out:
	for (i = 0; i < os->n; i++) {
		ts_encoder_abort(os->v[i].enc);
		os->v[i].enc = NULL;
	}
	ts_flow_free(os->flow);
	os->flow = NULL;
	ts_decoder_close(os->dec);
	os->dec = NULL;
	return rv;
}

/* Commit (or, after a failure, abort) every sink. */
static int
finish_sinks(struct outputs *os, int rv)
{
	int i;

	for (i = 0; i < os->n; i++) {
		struct ts_sink *k = os->v[i].sink;

		os->v[i].sink = NULL;
		if (k == NULL)
			continue;
		if (rv != 0) {
			ts_sink_abort(k);
			continue;
		}
		if (ts_sink_commit(k) != 0) {
			ts_diag_io(os->j->d, os->v[i].fname ? os->v[i].fname :
			    os->j->o->dst, "%s", strerror(errno));
			rv = -1;
		}
	}
	return rv;
}

static void
layouts(struct outputs *os)
{
	const struct ts_meta *m = os->j->mp;
	int i;

	for (i = 0; i < os->n; i++) {
		struct ts_layout *l = &os->v[i].lay;

		*l = os->j->in;
		l->kind = os->v[i].kind;
		l->base = m->index_base;
		l->itype = m->index_type;
		l->vtype = m->value_type;
		l->endian = m->endianness;
		l->values = m->values_provided;
		/* Blocks, or their elements once expanded. */
		l->block = m->sparsity == TS_SPARSITY_BLOCK;
	}
}

/* A bundle's commit failed: what state it is in. */
static void
commit_failed(struct fe_job *j, int state, int e)
{
	const char *dst = j->o->inplace ? j->dstdir : j->o->dst;

	if (state == TS_COMMIT_LEFT)
		ts_diag_io(j->d, dst, "the new bundle is in place, but what it "
		    "replaced could not be removed (%s): the next writer of "
		    "the bundle removes what is left beside it", strerror(e));
	else if (state == TS_COMMIT_UNSYNCED)
		ts_diag_io(j->d, dst, "the new bundle is in place, but could "
		    "not be written to disk (%s): a crash of the system may "
		    "bring back the old one", strerror(e));
	else if (state == TS_COMMIT_ASIDE)
		ts_diag_io(j->d, dst, "the rewrite stopped with the old bundle "
		    "moved aside (%s): the next writer of the bundle puts it "
		    "in place", strerror(e));
	else
		ts_diag_io(j->d, dst, "%s", strerror(e));
}

/* A value-less binary file is asked for: what it means, once. */
static void
binary_caveat(struct fe_job *j)
{
	if (!j->mp->values_provided && j->mp->sparsity != TS_SPARSITY_BLOCK)
		ts_diag(j->d, TS_SEV_NOTE, strcmp(j->o->dst, "-") == 0 ?
		    "<stdout>" : j->o->dst, 0, 0, TS_RULE_E3, "a binary file "
		    "without values is read by this toolkit only; the "
		    "reference reader expects a value field");
}

static int
write_bundle(struct fe_job *j, bool text, bool binary)
{
	struct outputs os;
	char *mtext = NULL, *readme, *mname;
	bool cut;
	int rv = -1, i, state;

	memset(&os, 0, sizeof(os));
	os.j = j;
	os.eo.valfmt = j->o->e16 ? TS_VALFMT_E16 : TS_VALFMT_SHORTEST;
	os.eo.name = j->mp->name;
	if (change_attributes(j, text, binary, true) != 0 ||
	    (mtext = meta_selfcheck(j)) == NULL)
		return -1;
	free(mtext);
	mtext = NULL;
	if ((os.bo = j->bo) == NULL) {	/* opened before SRC was read */
		ts_diag_usage(j->d, "'%s' cannot be a bundle", j->o->dst);
		return -1;
	}
	j->bo = NULL;
	if (text) {
		os.v[os.n].kind = TS_KIND_TEXT;
		os.v[os.n++].fname = j->mp->f_text;
	}
	if (binary) {
		os.v[os.n].kind = TS_KIND_BINARY;
		os.v[os.n++].fname = j->mp->f_binary;
		binary_caveat(j);
	}
	layouts(&os);
	for (i = 0; i < os.n; i++)
		if ((os.v[i].sink = ts_bundle_out_file(os.bo,
		    os.v[i].fname)) == NULL) {
			ts_diag_io(j->d, j->dstdir, "%s", strerror(errno));
			goto out;
		}
	if (finish_sinks(&os, pump(&os, j->dstdir)) != 0)
		goto out;
	/* Sorting changed what the metadata says, and so may the files
	 * that come along. */
	if (j->part != NULL && j->part->aux != NULL &&
	    j->part->aux(j->part->arg, j, os.bo) != 0)
		goto out;
	if ((!j->o->inplace && copy_aux(j, os.bo) != 0) ||
	    (mtext = meta_selfcheck(j)) == NULL)
		goto out;
	if (!j->o->inplace) {
		readme = readme_text(j);
		i = put_file(j, os.bo, "README.md", readme, strlen(readme));
		free(readme);
		if (i != 0)
			goto out;
	} else {
		struct ts_file_stat fs;

		if ((readme = source_readme(j, SIZE_MAX, &cut)) != NULL) {
			/* Kept, less what the new entries make false. */
			i = cut ? put_file(j, os.bo, j->mp->f_readme, readme,
			    strlen(readme)) : 0;
			free(readme);
			if (i != 0)
				goto out;
		}
		/* So are the pictures of the entries before. */
		if (ts_bundle_stat(j->bd, TS_BUNDLE_PICTURES, &fs) == 0 &&
		    fs.dir && !fs.link && ts_bundle_out_drop(os.bo,
		    TS_BUNDLE_PICTURES) == 0)
			pictures_left_out(j);
	}
	/* Metadata last: a reader that finds it finds the rest. */
	mname = ts_xasprintf("%s_metadata.json", j->mp->name);
	i = put_file(j, os.bo, mname, mtext, strlen(mtext));
	free(mname);
	if (i != 0 || fe_job_input_end(j) != 0)
		goto out;
	/* SRC is read: a rewrite in place must not wait for itself. */
	ts_bundle_unhold(j->bd);
	rv = ts_bundle_out_commit(os.bo, &state);
	os.bo = NULL;
	if (rv != 0)
		commit_failed(j, state, errno);
out:
	finish_sinks(&os, -1);
	ts_bundle_out_abort(os.bo);
	free(mtext);
	return rv;
}

/*
 * SPEC P1: a data file written without its metadata beside it (a pipe,
 * a lone .tns or .tnsb, FROSTT) is 1-based, as a reader without
 * metadata assumes, whatever the base of the tensor: a pipe never moves
 * an entry.  A base the user names is kept, with a word for its reader.
 * Matrix Market and cuTENSOR state their own base.  Only the layout
 * written changes: messages still speak the tensor's base.
 */
static int
lone_base(struct fe_job *j, struct ts_layout *l)
{
	const struct ts_meta *m = j->mp;
	const char *dst = strcmp(j->o->dst, "-") == 0 ? "<stdout>" :
	    j->o->dst;
	int k;

	if (ts_kind_base(j->to) >= 0)
		return 0;
	if (j->o->out_base >= 0) {
		if (j->o->out_base != 1)
			ts_diag(j->d, TS_SEV_WARNING, dst, 0, 0, TS_RULE_P1,
			    "written %d-based without its metadata: its "
			    "reader needs --input-base %d", j->o->out_base,
			    j->o->out_base);
		return 0;
	}
	l->base = 1;
	/* A uint32 coordinate 2^32 - 1 becomes 2^32: a wider index type,
	 * unless the user named this one. */
	for (k = 0; k < m->order && l->itype == TS_ITYPE_UINT32; k++) {
		if (m->dims[k] <= UINT32_MAX)
			continue;
		if (j->o->out_itype >= 0 && j->to == TS_KIND_BINARY) {
			ts_diag(j->d, TS_SEV_ERROR, NULL, 0, 0, TS_RULE_M4,
			    "--index-type uint32 cannot hold the 1-based "
			    "coordinates of mode %d (dimension %llu) of a "
			    "file without its metadata", k + 1,
			    (unsigned long long)m->dims[k]);
			return -1;
		}
		l->itype = TS_ITYPE_UINT64;
		if (j->to == TS_KIND_BINARY)
			ts_diag(j->d, TS_SEV_NOTE, dst, 0, 0, TS_RULE_NONE,
			    "written 1-based, the coordinates of mode %d need "
			    "uint64 indices", k + 1);
	}
	return 0;
}

static int
write_single(struct fe_job *j)
{
	struct ts_meta *m = j->mp;
	struct outputs os;
	const char *dst = j->o->dst;
	int rv;

	memset(&os, 0, sizeof(os));
	os.j = j;
	os.eo.valfmt = j->o->e16 ? TS_VALFMT_E16 : TS_VALFMT_SHORTEST;
	os.eo.name = m->name;
	os.eo.tmpdir = j->o->tmpdir;
	/* Worked out only for an output that keeps arrays: a default that
	 * a tight limit cannot meet is an error only where it is used. */
	if (ts_kind_traits(j->to) & TS_KIND_KEEPS)
		os.eo.mem_limit = mem_limit(j);
	os.eo.meta = m;
	if (refused(j, j->to, NULL) != 0)
		return -1;
	if (change_attributes(j, j->to != TS_KIND_BINARY,
	    j->to == TS_KIND_BINARY, !(ts_kind_traits(j->to) &
	    TS_KIND_ATTRS)) != 0)
		return -1;
	if (ts_kind_traits(j->to) & TS_KIND_COMMENT) {
		os.comment = ts_xasprintf(" written by %s %s from %s",
		    j->o->program, TS_VERSION, j->sname);
		os.eo.comment = os.comment;
	}
	os.v[0].kind = j->to;
	os.n = 1;
	layouts(&os);
	if (lone_base(j, &os.v[0].lay) != 0) {
		free(os.comment);
		return -1;
	}
	if (j->to == TS_KIND_BINARY)
		binary_caveat(j);
	if (j->to == TS_KIND_MTX && fe_job_mtx_symmetry(j, &os.eo.mtx_sym,
	    &os.stored) != 0) {
		free(os.comment);
		return -1;
	}
	if ((os.v[0].sink = j->sink) == NULL &&
	    (os.v[0].sink = ts_sink_open(dst, TS_SINK_COMPRESS |
	    (j->o->force ? TS_SINK_FORCE : 0))) == NULL) {
		sink_refused(j, dst, errno);
		free(os.comment);
		return -1;
	}
	j->sink = NULL;
	rv = pump(&os, strcmp(dst, "-") == 0 ? "<stdout>" : dst);
	if (rv == 0)
		rv = fe_job_input_end(j);
	rv = finish_sinks(&os, rv);
	free(os.comment);
	return rv;
}

static int
write_any(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;
	bool text, binary;

	if (j->to != TS_KIND_BUNDLE)
		return write_single(j);
	text = o->want_text;
	binary = o->want_binary;
	if (!text && !binary) {
		/* The kinds the source has; imports get both. */
		if (j->bd != NULL) {
			text = ts_bundle_data_file(j->bd, TS_KIND_TEXT) != NULL;
			binary = ts_bundle_data_file(j->bd, TS_KIND_BINARY) !=
			    NULL;
		} else if (j->kept && (j->mp->f_text || j->mp->f_binary)) {
			/* Those of the bundle the file was written from. */
			text = j->mp->f_text != NULL;
			binary = j->mp->f_binary != NULL;
		} else {
			/* Imports get both kinds, but a value-less binary
			 * file, which only this toolkit reads (E3), only on
			 * request. */
			text = j->from != TS_KIND_BINARY ||
			    !j->mp->values_provided;
			binary = j->from != TS_KIND_TEXT &&
			    (j->mp->values_provided || j->from ==
			    TS_KIND_BINARY);
		}
	}
	return write_bundle(j, text, binary);
}

/* --expand: a block tensor's elements are written, without values as
 * its blocks are, sorted as they are (pump's expansion). */
static int
expand_attributes(struct fe_job *j)
{
	struct ts_meta *m = j->mp;

	if (m->sparsity != TS_SPARSITY_BLOCK) {
		ts_diag_usage(j->d, "'%s' is not block-sparse: --expand is for "
		    "block tensors", j->sname);
		return -1;
	}
	m->sparsity = TS_SPARSITY_ELEMENT;
	m->ndense = 0;
	return 0;
}

int
fe_job_write(struct fe_job *j)
{
	const struct fe_job_part *p = j->part;
	int rv;

	if (j->o->expand == 1 && expand_attributes(j) != 0)
		return -1;
	if (p != NULL && p->prepare != NULL && p->prepare(p->arg, j) != 0)
		return -1;
	rv = write_any(j);
	if (p != NULL && p->finish != NULL)
		rv = p->finish(p->arg, j, rv);
	return rv;
}
