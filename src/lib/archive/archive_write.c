/*
 * archive_write.c - bundles written into a tar archive through
 * libarchive, reproducibly: the same bundles give the same bytes
 * whatever their files' times, owners and modes, the order they were
 * given in, the locale or the time zone.  So every member is dated the
 * bundle's metadata 'time' (midnight UTC), owned by 0/0 with no names,
 * mode 0644 (folders 0755); the format is pax, which is plain ustar
 * unless a name is too long; and the compressors run with fixed options:
 * zstd always with worker threads and jobs of a fixed size (its output
 * is then the same for any number of them) and its content checksum,
 * gzip without a time stamp, xz on one thread.  The archive ends with
 * the manifest SHA256SUMS, the digest of every file as it went in
 * (sums.c), dated the newest of its bundles.
 *
 * A bundle goes in as NAME/, then its metadata, README, text and binary
 * files, then the others by name (SPEC B5), those of its folder of
 * pictures as NAME/pictures/FILE after NAME/pictures/ (B6), so that a
 * reader can check it as it streams by.  The same file holds the bundle writer of an
 * archive (ts_bundle_out_archive): a tool writes the files into a
 * temporary directory beside the archive, in any order, and the commit
 * packs them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "tensorsuite.h"
#include "archive/archive_int.h"
#include "io/io.h"
#include "model/model.h"
#include "util/path.h"
#include "util/lalib.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define COPYBUF	(1 << 20)

struct ts_archive_out {
	struct archive	*a;		/* NULL: hashing only */
	struct ts_sink	*k;
	struct ts_sums	*sums;
	int64_t		 mtime;		/* the newest bundle's */
	bool		 dropping;	/* aborted: nothing more goes out */
	ts_pack_watcher	*watch;		/* checks each bundle as it goes */
	void		*watch_arg;
};

/* ---- names ---- */

static const struct {
	const char	*sfx;
	int		 c;
} compsfx[] = {
	{ ".tar.zst", TS_COMPRESS_ZSTD }, { ".tzst", TS_COMPRESS_ZSTD },
	{ ".tar.gz", TS_COMPRESS_GZIP }, { ".tgz", TS_COMPRESS_GZIP },
	{ ".tar.xz", TS_COMPRESS_XZ }, { ".txz", TS_COMPRESS_XZ },
	{ ".tar", TS_COMPRESS_NONE }, { NULL, 0 }
};

int
ts_compress_of(const char *path)
{
	int i;

	for (i = 0; compsfx[i].sfx != NULL; i++)
		if (ts_has_suffix(path, compsfx[i].sfx) &&
		    strlen(path) > strlen(compsfx[i].sfx))
			return compsfx[i].c;
	return -1;
}

char *
ts_archive_stem(const char *path)
{
	static const char *const more[] = { ".tar.bz2", ".tbz2", NULL };
	const char *b = ts_basename(path);
	size_t n = strlen(b);
	int i;

	for (i = 0; compsfx[i].sfx != NULL; i++)
		if (ts_has_suffix(b, compsfx[i].sfx))
			return ts_xasprintf("%.*s", (int)(n -
			    strlen(compsfx[i].sfx)), b);
	for (i = 0; more[i] != NULL; i++)
		if (ts_has_suffix(b, more[i]))
			return ts_xasprintf("%.*s", (int)(n -
			    strlen(more[i])), b);
	return ts_xstrdup(b);
}

/* ---- the archive ---- */

static la_ssize_t
out_write(struct archive *a, void *ud, const void *buf, size_t n)
{
	struct ts_archive_out *ao = ud;

	/* Failing, not swallowing: the close of an abort then stops at
	 * once instead of padding the member it was in. */
	if (ao->dropping) {
		archive_set_error(a, ECANCELED, "aborted");
		return -1;
	}
	if (ts_sink_write(ao->k, buf, n) != 0) {
		archive_set_error(a, errno, "%s", strerror(errno));
		return -1;
	}
	return (la_ssize_t)n;
}

static const char *const compname[] = { "zstd", "gzip", "xz", NULL };

/*
 * The tar stream goes through a compressing sink (compress.c) rather
 * than a filter of its own archive, so that an archive given up halfway
 * is closed at once, every buffer freed, and the compressor ends the
 * stream it holds without first compressing the padding of the member
 * it was in.
 */
struct ts_archive_out *
ts_archive_out_open(struct ts_sink *k, const struct ts_pack_opts *po)
{
	struct ts_archive_out *ao;
	const char *f = compname[po->compress];
	struct ts_zopts zo = { po->level, po->threads > 0 ? po->threads : 1 };
	int r;

	/* With workers, zstd cuts the input in jobs of a fixed size,
	 * whatever their number: the bytes do not depend on -j.  gzip
	 * writes no time stamp. */
	if (ts_la_load() != 0) {
		ts_sink_abort(k);
		return NULL;
	}
	if (f != NULL && (k = ts_sink_compress_opts(k, f, &zo)) == NULL)
		return NULL;
	ao = ts_xcalloc(1, sizeof(*ao));
	ao->k = k;
	ao->a = archive_write_new();
	archive_write_set_format_pax_restricted(ao->a);
	/* No padding after the end: the bytes are the tar stream's. */
	archive_write_set_bytes_per_block(ao->a, 64 * 1024);
	archive_write_set_bytes_in_last_block(ao->a, 1);
	if (archive_write_open2(ao->a, ao, NULL, out_write, NULL, NULL) !=
	    ARCHIVE_OK) {
		r = archive_errno(ao->a) > 0 ? archive_errno(ao->a) : EIO;
		archive_write_free(ao->a);
		ts_sink_abort(k);
		free(ao);
		errno = r;
		return NULL;
	}
	ao->sums = ts_sums_new(COPYBUF);
	return ao;
}

struct ts_archive_out *
ts_archive_out_hash(void)
{
	struct ts_archive_out *ao = ts_xcalloc(1, sizeof(*ao));

	ao->sums = ts_sums_new(COPYBUF);
	return ao;
}

/* libarchive's failure as a message about the archive. */
static void
outerr(struct ts_archive_out *ao, struct ts_diags *d)
{
	int e = archive_errno(ao->a);
	const char *s = archive_error_string(ao->a);

	ts_diag_io(d, ts_sink_name(ao->k), "%s", s != NULL ? s : strerror(e >
	    0 ? e : EIO));
	errno = e > 0 ? e : EIO;
}

static int
header(struct ts_archive_out *ao, const char *path, bool dir, int64_t size,
    int64_t mtime, struct ts_diags *d)
{
	struct archive_entry *e;
	int r;

	if (ao->a == NULL)
		return 0;
	e = archive_entry_new();
	archive_entry_set_pathname(e, path);
	archive_entry_set_filetype(e, dir ? AE_IFDIR : AE_IFREG);
	archive_entry_set_perm(e, dir ? 0755 : 0644);
	archive_entry_set_size(e, dir ? 0 : size);
	archive_entry_set_mtime(e, (time_t)mtime, 0);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	r = archive_write_header(ao->a, e);
	archive_entry_free(e);
	if (r < ARCHIVE_WARN) {
		outerr(ao, d);
		return -1;
	}
	return 0;
}

/* Midnight UTC of a calendar date "YYYY-MM-DD", in seconds since 1970
 * (days from the civil date, as Howard Hinnant counts them); 0 when it
 * is no such date.  No time zone, no locale. */
static int64_t
date_time(const char *s)
{
	int64_t y, m, dd, era, yoe, doy, doe;

	if (s == NULL || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return 0;
	y = strtol(s, NULL, 10);
	m = strtol(s + 5, NULL, 10);
	dd = strtol(s + 8, NULL, 10);
	if (m < 1 || m > 12 || dd < 1 || dd > 31)
		return 0;
	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + dd - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468) * 86400;
}

/* Copy file f of the bundle into the archive as NAME/FILE. */
static int
put_file(struct ts_archive_out *ao, struct ts_bundle *bd,
    const struct ts_bundle_file *f, int64_t mtime, struct ts_diags *d)
{
	struct ts_file_stat fs;
	struct ts_source *src;
	char *mpath, *buf;
	uint64_t left;
	long r = 0;
	int rv = -1, e = 0;

	if (ts_bundle_stat(bd, f->name, &fs) != 0) {
		ts_diag_io(d, f->shown, "%s", strerror(errno));
		return -1;
	}
	if (!fs.regular || fs.link || fs.size < 0) {
		/* Changed since it was looked at (ts_bundle_files). */
		ts_diag_io(d, f->shown, "the file changed while it was packed");
		errno = EIO;
		return -1;
	}
	if ((src = ts_bundle_open_file(bd, f->name)) == NULL) {
		ts_diag_io(d, f->shown, "%s", strerror(errno));
		return -1;
	}
	mpath = ts_xasprintf("%s/%s", ts_bundle_name(bd), f->name);
	if (header(ao, mpath, false, fs.size, mtime, d) != 0) {
		e = errno;
		goto out;
	}
	ts_sums_begin(ao->sums, mpath);
	left = (uint64_t)fs.size;
	/* Each buffer read is hashed on the hasher's thread while it is
	 * written here. */
	while (left > 0 && (r = ts_source_read(src, buf =
	    ts_sums_buf(ao->sums), left < COPYBUF ? (size_t)left : COPYBUF)) >
	    0) {
		ts_sums_put(ao->sums, (size_t)r);
		if (ao->a != NULL && archive_write_data(ao->a, buf,
		    (size_t)r) != r) {
			outerr(ao, d);
			e = errno;
			goto out;
		}
		left -= (uint64_t)r;
		ts_progress((uint64_t)fs.size - left, (uint64_t)fs.size, true,
		    "packing %s", f->shown);
	}
	if (r < 0) {
		e = errno;
		ts_diag_io(d, f->shown, "%s", strerror(e));
		goto out;
	}
	/* The header said how long it is: it must not change meanwhile. */
	if (left > 0 || ts_source_read(src, ts_sums_buf(ao->sums), 1) != 0) {
		ts_diag_io(d, f->shown, "the file changed while it was packed");
		e = EIO;
		goto out;
	}
	ts_sums_end(ao->sums);
	rv = 0;
out:
	ts_source_close(src);
	free(mpath);
	errno = e;
	return rv;
}

bool
ts_archive_packs(struct ts_bundle *bd, const char *fname)
{
	return ts_bundle_left_out(bd, fname) == NULL;
}

/* What is left out, said; -1 when a file the metadata names is. */
static int
leave_out(const struct ts_bundle_file *v, size_t n, struct ts_diags *d)
{
	const char *why;
	size_t j;
	int rv = 0;

	for (j = 0; j < n; j++) {
		if ((why = v[j].left_out) == NULL)
			continue;
		if (v[j].named) {
			ts_diag(d, TS_SEV_ERROR, v[j].shown, 0, 0, TS_RULE_B5,
			    "%s, which the metadata names: an archive holds %s",
			    why, strcmp(why, "a symbolic link") == 0 ?
			    "no link and never what one points to" :
			    "regular files only");
			rv = -1;
		} else if (strcmp(why, "a symbolic link") == 0)
			ts_diag(d, TS_SEV_WARNING, v[j].shown, 0, 0, TS_RULE_B5,
			    "%s: left out of the archive, which holds no link "
			    "and never what one points to", why);
		else if (strcmp(why, "a folder") == 0)
			ts_diag(d, TS_SEV_WARNING, v[j].shown, 0, 0, TS_RULE_B5,
			    "%s: left out of the archive (a bundle's files "
			    "are at its top)", why);
		else
			ts_diag(d, TS_SEV_WARNING, v[j].shown, 0, 0, TS_RULE_B5,
			    "%s: left out of the archive", why);
	}
	return rv;
}

void
ts_archive_out_watch(struct ts_archive_out *ao, ts_pack_watcher *watch,
    void *arg)
{
	ao->watch = watch;
	ao->watch_arg = arg;
}

int
ts_archive_out_bundle(struct ts_archive_out *ao, struct ts_bundle *bd,
    struct ts_diags *d)
{
	const struct ts_meta *m = ts_bundle_meta(bd);
	struct ts_pack_watch *w = NULL;
	struct ts_bundle_file *v;
	char *dir;
	int64_t mtime = date_time(m != NULL ? m->time : NULL);
	size_t n, j;
	bool pictures = false;
	int rv = -1, rank, seen;

	if (ts_bundle_files(bd, &v, &n) != 0) {
		ts_diag_io(d, ts_bundle_where(bd), "%s", strerror(errno));
		return -1;
	}
	if (leave_out(v, n, d) != 0)
		goto out;
	if (strcmp(ts_bundle_name(bd), TS_MANIFEST) == 0) {
		ts_diag(d, TS_SEV_ERROR, ts_bundle_where(bd), 0, 0, TS_RULE_B5,
		    "a bundle named '%s' cannot go into an archive, whose "
		    "manifest has that name", TS_MANIFEST);
		goto out;
	}
	if (mtime > ao->mtime)
		ao->mtime = mtime;
	/* The watcher reads what is packed, as it is, on another core. */
	if (ao->watch != NULL)
		w = ts_pack_watch_start(ao->sums, bd, v, n, ao->watch,
		    ao->watch_arg, d);
	dir = ts_xasprintf("%s/", ts_bundle_name(bd));
	rv = header(ao, dir, true, 0, mtime, d);
	free(dir);
	/* In the order ts_bundle_files ranks them (SPEC B5); the folder
	 * of pictures (B6) before its first file. */
	for (rank = 0; rank <= 4 && rv == 0; rank++)
		for (j = 0; j < n && rv == 0; j++)
			if (v[j].left_out == NULL && v[j].rank == rank) {
				if (!pictures && strchr(v[j].name, '/') !=
				    NULL) {
					pictures = true;
					dir = ts_xasprintf("%s/%s/",
					    ts_bundle_name(bd),
					    TS_BUNDLE_PICTURES);
					rv = header(ao, dir, true, 0, mtime, d);
					free(dir);
					if (rv != 0)
						break;
				}
				rv = put_file(ao, bd, &v[j], mtime, d);
				if (rank < 4)
					break;
			}
	/* Its verdict, which a failed write makes moot; where it could
	 * not have a thread, read from the bundle once it is packed. */
	if (w != NULL)
		seen = ts_pack_watch_end(w, rv == 0 ? d : NULL);
	else
		seen = ao->watch != NULL && rv == 0 ? ao->watch(bd,
		    ao->watch_arg, d) : 0;
	if (rv == 0 && seen != 0)
		rv = -1;
out:
	ts_bundle_files_free(v, n);
	return rv;
}

static void
out_free(struct ts_archive_out *ao)
{
	if (ao->a != NULL)
		archive_write_free(ao->a);
	ts_sums_free(ao->sums);
	free(ao);
}

char *
ts_archive_out_manifest(struct ts_archive_out *ao)
{
	size_t len;

	return ts_sums_text(ao->sums, &len);
}

/* The manifest, last: 0, or -1 with errno. */
static int
put_manifest(struct ts_archive_out *ao)
{
	struct ts_diags *d = ts_diags_new(1, false);
	size_t len;
	char *text = ts_sums_text(ao->sums, &len);
	int rv = -1, e = errno;

	if (text != NULL && header(ao, TS_MANIFEST, false, (int64_t)len,
	    ao->mtime, d) == 0) {
		if (archive_write_data(ao->a, text, len) == (la_ssize_t)len)
			rv = 0;
		else
			e = archive_errno(ao->a) > 0 ? archive_errno(ao->a) :
			    EIO;
	} else if (text != NULL)
		e = errno;
	free(text);
	ts_diags_free(d);
	errno = e;
	return rv;
}

/*
 * ao given up: nothing of it must appear, so the sink goes first.  The
 * close that frees the archive then writes nothing (out_write fails
 * at once; not archive_write_fail, which leaves libarchive's buffers
 * unfreed).
 */
static void
drop(struct ts_archive_out *ao)
{
	ts_sink_abort(ao->k);
	ao->k = NULL;
	ao->dropping = true;
	out_free(ao);
}

int
ts_archive_out_commit(struct ts_archive_out *ao)
{
	int e;

	if (put_manifest(ao) != 0) {
		e = errno;
		drop(ao);
		errno = e;
		return -1;
	}
	if (archive_write_close(ao->a) != ARCHIVE_OK) {
		e = archive_errno(ao->a) > 0 ? archive_errno(ao->a) : EIO;
		drop(ao);
		errno = e;
		return -1;
	}
	e = ts_sink_commit(ao->k) != 0 ? errno : 0;
	out_free(ao);
	errno = e;
	return e != 0 ? -1 : 0;
}

void
ts_archive_out_abort(struct ts_archive_out *ao)
{
	if (ao != NULL)
		drop(ao);
}

/* ---- a bundle written into an archive of its own ---- */

struct arcout {
	char		*path;		/* the archive */
	char		*tmp;		/* the bundle's files meanwhile */
	char		*shown;		/* ARCHIVE:NAME, naming them */
	char		*name;
	struct ts_sink	*k;		/* the archive, opened at once */
	struct ts_pack_opts po;
};

static void
arc_free(void *ctx)
{
	struct arcout *o = ctx;

	ts_sink_abort(o->k);
	ts_rmtree(o->tmp);
	ts_cleanup_remove(o->tmp);
	free(o->tmp);
	free(o->shown);
	free(o->path);
	free(o->name);
	free(o);
}

static int
arc_commit(void *ctx)
{
	struct arcout *o = ctx;
	struct ts_diags *d = ts_diags_new(1, false);
	struct ts_archive_out *ao;
	struct ts_bundle *bd;
	int rv = -1, e = EIO;

	bd = ts_bundle_open_dir(o->tmp, o->name, o->path, d);
	ao = ts_archive_out_open(o->k, &o->po);
	o->k = NULL;
	if (ao == NULL)
		e = errno;
	else if (ts_archive_out_bundle(ao, bd, d) != 0) {
		e = errno != 0 ? errno : EIO;
		ts_archive_out_abort(ao);
	} else if ((rv = ts_archive_out_commit(ao)) != 0)
		e = errno;
	ts_bundle_free(bd);
	ts_diags_free(d);
	arc_free(o);
	errno = e;
	return rv;
}

struct ts_bundle_out *
ts_bundle_out_archive(const char *path, unsigned flags,
    const struct ts_pack_opts *po)
{
	struct ts_bundle_out *bo;
	struct arcout *o;
	char *parent, *target;
	int e;

	o = ts_xcalloc(1, sizeof(*o));
	/* The archive first: an existing one is refused at once. */
	if ((o->k = ts_sink_open(path, flags & TS_BUNDLE_OUT_FORCE ?
	    TS_SINK_FORCE : 0)) == NULL) {
		free(o);
		return NULL;
	}
	o->po = *po;
	o->path = ts_xstrdup(path);
	o->name = ts_archive_stem(path);
	/* Beside the archive, or what a link to it points to, as the
	 * sink's temporary. */
	target = ts_write_path(path);
	parent = ts_dirname(target);
	/* The sink took what a killed writer left of the archive; its
	 * directory of files goes too. */
	o->tmp = ts_tmpdir_beside(parent, ts_basename(target));
	e = errno;
	free(parent);
	free(target);
	if (o->tmp == NULL) {
		ts_sink_abort(o->k);
		free(o->path);
		free(o->name);
		free(o);
		errno = e;
		return NULL;
	}
	o->shown = ts_xasprintf("%s:%s", o->path, o->name);
	bo = ts_bundle_out_staged(o->tmp, o->shown, o->name, arc_commit,
	    arc_free, o);
	return bo;
}
