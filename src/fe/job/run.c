/*
 * run.c - one job from SRC to DST (job.h): what SRC is and what it
 * holds (input.c, import.c), what DST is and its name, then the flow
 * into it (output.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "fe.h"
#include "job/job_int.h"
#include "util/progress.h"
#include "util/sysres.h"
#include "util/path.h"
#include "util/xalloc.h"


void
fe_job_opts_init(struct fe_job_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->in_base = o->out_base = -1;
	o->in_itype = o->out_itype = -1;
	o->in_vtype = o->out_vtype = -1;
	o->in_endian = o->out_endian = -1;
	o->from = o->to = FE_JOB_AUTO;
	o->dups = FE_JOB_AUTO;
	o->expand = -1;
	o->threads = 0;		/* the CPUs it may use (ts_cpus_available) */
	o->program = "tensorsuite";
}

/* The kind a file name says (the formats' table), or FE_JOB_AUTO;
 * *stem gets the length of the name without the suffixes it
 * recognised. */
static int
kind_of_name(const char *name, size_t *stem)
{
	int k = ts_kind_of_path(name, stem);

	return k >= 0 && ts_kind_writable((enum ts_kind)k) ? k : FE_JOB_AUTO;
}

/*
 * What DST is, unless --to says: a stream ('-', a device, a FIFO), of
 * text; a bundle (a directory there, or a name ending in '/' or without
 * a suffix); or a file of the kind its suffix names.  Any other suffix
 * says nothing, and is refused rather than taken for a bundle.
 */
static int
dst_kind(struct fe_job *j)
{
	const char *dst = j->o->dst, *b = ts_basename(dst);
	size_t n = strlen(dst), stem;
	struct stat st;
	bool there = strcmp(dst, "-") != 0 && stat(dst, &st) == 0;
	char kinds[FE_WORDS], sfx[FE_WORDS];

	j->stream = strcmp(dst, "-") == 0 || (there &&
	    !S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode));
	if (j->o->to != FE_JOB_AUTO)
		j->to = j->o->to;
	else if (j->stream)
		j->to = TS_KIND_TEXT;
	else if ((there && S_ISDIR(st.st_mode)) || (n > 0 &&
	    dst[n - 1] == '/') || ts_compress_of(b) >= 0)
		j->to = TS_KIND_BUNDLE;
	else if ((j->to = kind_of_name(b, &stem)) == FE_JOB_AUTO &&
	    strchr(b, '.') == NULL)
		j->to = TS_KIND_BUNDLE;
	/* A bundle named x.tar.zst is written into that archive. */
	j->dst_archive = j->to == TS_KIND_BUNDLE && !j->stream &&
	    !(there && S_ISDIR(st.st_mode)) && ts_compress_of(b) >= 0;
	if (j->to != FE_JOB_AUTO)
		return 0;
	if (fe_job_shared_suffix(j, b, "--to") != 0)
		return -1;
	fe_kind_words(kinds, true, true);
	fe_suffix_words(sfx);
	ts_diag_usage(j->d, "'%s': cannot tell the kind of output from its "
	    "name (%s, possibly then .gz, .zst, .xz or .bz2; no suffix for a "
	    "bundle, .tar.zst for a bundle in an archive): give --to %s",
	    dst, sfx, kinds);
	return -1;
}

/* The i-th kind written that holds unique entries, or NULL. */
static const char *
unique_kind_word(int i)
{
	int k;

	for (k = 0; k < TS_KIND_BUNDLE; k++)
		if (ts_kind_writable((enum ts_kind)k) &&
		    (ts_kind_traits((enum ts_kind)k) & TS_KIND_SORTED) &&
		    i-- == 0)
			return ts_kind_name((enum ts_kind)k);
	return NULL;
}

/*
 * --duplicates says what an output that holds unique entries makes of
 * repeats; any other output keeps them as they come, and would ignore
 * a policy given for it: a usage error, naming the kinds that take one
 * and the tool that merges repeats for any.
 */
static int
dups_apply(struct fe_job *j)
{
	char kinds[FE_WORDS];

	if (j->o->dups == FE_JOB_AUTO ||
	    (ts_kind_traits((enum ts_kind)j->to) & TS_KIND_SORTED))
		return 0;
	ts_diag_usage(j->d, "--duplicates: '%s' is %s, which keeps repeated "
	    "coordinates as they come: a policy is for an output of unique "
	    "entries (--to %s); ts-sort --duplicates merges repeats for any "
	    "output", j->o->dst, j->to == TS_KIND_BUNDLE ? "a bundle" :
	    ts_kind_title((enum ts_kind)j->to), fe_words(kinds, 0,
	    unique_kind_word));
	return -1;
}

int
fe_job_shared_suffix(struct fe_job *j, const char *path, const char *opt)
{
	enum ts_kind v[8];
	char kinds[FE_WORDS];
	const char *w[8];
	int n = ts_kind_suffix_shared(ts_basename(path), v, 8), i;

	if (n == 0)
		return 0;
	for (i = 0; i < n && i < 8; i++)
		w[i] = ts_kind_name(v[i]);
	kinds[0] = '\0';
	for (i = 0; i < n && i < 8; i++)
		snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds),
		    "%s%s %s", i == 0 ? "" : i == n - 1 ? " or " : ", ", opt,
		    w[i]);
	ts_diag_usage(j->d, "'%s': formats that differ share its suffix: "
	    "give %s", path, kinds);
	return -1;
}

static void
setname(struct ts_meta *m, const char *v)
{
	char *old = m->name;

	m->name = ts_xstrdup(v);
	free(old);
}

/* The name a stream carries: the input's (its metadata's, its
 * header's), else SRC's stem; standard input's is "tensor". */
static void
stream_name(struct fe_job *j)
{
	const char *src = j->o->src, *b = ts_basename(src);
	struct ts_meta *m = j->mp;
	size_t n;

	if (m->name != NULL && ts_valid_name(m->name))
		return;
	kind_of_name(b, &n);
	free(m->name);
	m->name = ts_xasprintf("%.*s", (int)n, b);
	if (strcmp(src, "-") == 0 || !ts_valid_name(m->name))
		setname(m, "tensor");
}

/* The name a bundle DST gives: its folder's (--name must agree); of a
 * bundle written nowhere (/dev/null), a stream's. */
static int
bundle_name(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;
	const char *name;
	char *stem = NULL;
	size_t n;

	j->dstdir = ts_xstrdup(o->inplace ? ts_bundle_where(j->bd) : o->dst);
	n = strlen(j->dstdir);
	while (n > 1 && j->dstdir[n - 1] == '/')
		j->dstdir[--n] = '\0';
	if (j->stream && o->name == NULL)
		stream_name(j);
	if (j->stream)
		name = o->name != NULL ? o->name : j->mp->name;
	else if (o->inplace)
		name = ts_bundle_name(j->bd);
	else if (j->dst_archive)
		name = stem = ts_archive_stem(j->dstdir);
	else
		name = ts_basename(j->dstdir);
	if (!ts_valid_name(name) || (o->name != NULL &&
	    strcmp(o->name, name) != 0)) {
		ts_diag_usage(j->d, "'%s': a bundle's name is its %s's name, "
		    "[A-Za-z0-9][A-Za-z0-9._-]*%s", name, j->dst_archive ?
		    "archive" : "folder", o->name ? "; --name must agree" : "");
		free(stem);
		return -1;
	}
	setname(j->mp, name);
	free(stem);
	return 0;
}

/* The name a file DST gives: --name, the input's, or the file's stem;
 * a stream's, as stream_name says. */
static int
file_name(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;
	struct ts_meta *m = j->mp;
	size_t n;

	if (o->name != NULL)
		setname(m, o->name);
	else if (j->stream)
		stream_name(j);
	else if (m->name == NULL) {
		/* Only the known suffixes go: a name may hold dots. */
		const char *b = ts_basename(o->dst);

		kind_of_name(b, &n);
		m->name = ts_xasprintf("%.*s", (int)n, b);
	}
	if (!ts_valid_name(m->name)) {
		ts_diag_usage(j->d, "'%s' is not a valid tensor name "
		    "([A-Za-z0-9][A-Za-z0-9._-]*): give --name", m->name);
		return -1;
	}
	return 0;
}

static int
run(struct fe_job *j)
{
	const struct fe_job_opts *o = j->o;

	/* No DST: the part reads SRC its own way; an archive to its end,
	 * where its manifest is. */
	if (o->dst == NULL)
		return fe_job_input(j) != 0 ||
		    j->part->alone(j->part->arg, j) != 0 ? -1 :
		    j->ar != NULL ? ts_bundles_finish(j->ar) : 0;

	/* DST first: refused before anything is read, and a bundle locked
	 * before its old self is read. */
	if (dst_kind(j) != 0 || dups_apply(j) != 0 ||
	    fe_job_open_output(j) != 0 || fe_job_input(j) != 0)
		return -1;
	if (j->part != NULL && j->part->input != NULL &&
	    j->part->input(j->part->arg, j) != 0)
		return -1;
	if (j->part != NULL && j->part->produce != NULL)
		ts_layout_of(j->mp, TS_KIND_TEXT, &j->in);
	/* A filter to a stream keeps its input's kind. */
	if (j->part != NULL && (j->part->flags & FE_JOB_FILTER) &&
	    o->to == FE_JOB_AUTO && j->stream)
		j->to = j->in.kind == TS_KIND_BINARY ? TS_KIND_BINARY :
		    TS_KIND_TEXT;
	if (!j->meta_known) {
		/* Two passes: a pipe is copied once, to read it twice; a
		 * file, compressed or not, is read again. */
		bool spool = !ts_source_can_rewind(j->src);
		const char *dir = ts_tmpdir(o->tmpdir);

		j->src = ts_source_prepare(j->src, TS_SOURCE_REWIND, o->tmpdir);
		if (j->src == NULL) {
			ts_diag_io(j->d, j->sname, "copying to a temporary "
			    "file in '%s', to read it twice: %s", dir,
			    strerror(errno));
			return -1;
		}
		if (spool)
			ts_diag(j->d, TS_SEV_NOTE, j->sname, 0, 0, TS_RULE_NONE,
			    "copied to a temporary file in '%s', to read it "
			    "twice: %lld bytes", dir, (long
			    long)ts_source_size(j->src));
		if (fe_job_infer(j, j->to != TS_KIND_BUNDLE) != 0)
			return -1;
	}
	if (j->to == TS_KIND_BUNDLE) {
		if (bundle_name(j) != 0)
			return -1;
		fe_job_describe(j);
	} else if (file_name(j) != 0)
		return -1;
	return fe_job_write(j);
}

int
fe_job_run(const struct fe_job_opts *o, struct ts_diags *d)
{
	struct fe_job j;
	int st;

	memset(&j, 0, sizeof(j));
	j.o = o;
	j.d = d;
	j.part = o->part;
	j.sname = strcmp(o->src, "-") == 0 ? "<stdin>" : o->src;
	ts_meta_init(&j.m);
	j.mp = &j.m;
	if (run(&j) != 0 && ts_diags_status(d) == TS_STATUS_OK)
		ts_diag(d, TS_SEV_ERROR, j.sname, 0, 0, TS_RULE_NONE, "failed");
	ts_sink_abort(j.sink);
	ts_bundle_out_abort(j.bo);
	fe_job_input_free(&j);
	ts_meta_free(&j.m);
	json_decref(j.written);
	free(j.dstdir);
	free(j.provenance);
	ts_progress_clear();
	st = ts_diags_status(d);
	return st;
}

/* ---- what a part sees ---- */

const struct fe_job_opts *
fe_job_opts(const struct fe_job *j)
{
	return j->o;
}

struct ts_diags *
fe_job_diags(struct fe_job *j)
{
	return j->d;
}

const char *
fe_job_src_name(const struct fe_job *j)
{
	return j->sname;
}

enum ts_kind
fe_job_from(const struct fe_job *j)
{
	return (enum ts_kind)j->from;
}

bool
fe_job_src_bundle(const struct fe_job *j)
{
	return j->bd != NULL;
}

bool
fe_job_src_archive(const struct fe_job *j)
{
	return j->ar != NULL;
}

struct ts_meta *
fe_job_meta(struct fe_job *j)
{
	return j->mp;
}

bool
fe_job_meta_known(const struct fe_job *j)
{
	return j->meta_known;
}

void
fe_job_sums_seen(struct fe_job *j, unsigned seen)
{
	if (seen & 1)
		j->mp->zeros_allowed = true;
	if ((seen & 2) && j->mp->value_domain == TS_DOMAIN_BINARY)
		j->mp->value_domain = TS_DOMAIN_GENERAL;
}

const struct ts_layout *
fe_job_input_layout(const struct fe_job *j)
{
	return &j->in;
}

int64_t
fe_job_src_size(const struct fe_job *j)
{
	return j->src != NULL ? ts_source_size(j->src) : -1;
}

bool
fe_job_outputs_text(const struct fe_job *j)
{
	return j->out_text;
}

int
fe_job_threads(const struct fe_job *j)
{
	return j->o->threads > 0 ? j->o->threads : ts_cpus_available();
}
