/*
 * watch.c - a bundle checked as it is packed.  Packing reads every byte
 * of a bundle's files anyway: the writer hands each buffer to the hasher
 * of the manifest (sums.c) and, through its tap, to a watcher on a
 * thread of its own, which sees the bundle as a stream of its files, in
 * the order they are packed, as a bundle of an archive is seen when the
 * archive is read (bundle_archive.c).  So the checks of the entries run
 * on another core, on the bytes that go into the archive, without a
 * second read; the writer waits for them only when they fall behind by
 * the few buffers of the ring.
 *
 * The namespace answers stat and the list from what the writer saw of
 * the bundle being packed, and opens a file by reading on to its start
 * in the stream, passing the files before it.  A file passed is read
 * again from the bundle (the X6 checks name the entries that differ that
 * way): the writer and the watcher then both read the bundle, whose
 * namespace (a directory) no read changes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "archive/archive_int.h"
#include "model/model.h"
#include "util/diag_int.h"
#include "util/progress.h"
#include "util/xalloc.h"

struct ts_pack_watch {
	struct ts_sums		*sums;
	struct ts_bundle	*bd;		/* the bundle being packed */
	char			**names;	/* its files that go in */
	struct ts_file_stat	*fs;		/* ... as the writer saw them */
	bool			*passed;	/* ... come by in the stream */
	size_t			 n;
	size_t			 prefix;	/* of a path in the stream,
						 * "NAME/" */
	bool			 stopped;	/* the tap said its last */
	uint64_t		 gen;		/* of the file the tap is at */
	ts_pack_watcher		*watch;
	void			*arg;
	struct ts_diags		*d;		/* the watcher's */
	int			 rv;
	pthread_t		 th;
};

/* The namespace of the bundle, as the bundle takes it. */
struct fed {
	struct ts_pack_watch	*w;
};

/* A file being read from the tap. */
struct fedsrc {
	struct ts_pack_watch	*w;
	uint64_t		 gen;
	bool			 eof;
};

static long
find(const struct ts_pack_watch *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (strcmp(w->names[i], name) == 0)
			return (long)i;
	return -1;
}

/* The tap at the start of the next file: its index, or -1 at the end. */
static long
next_file(struct ts_pack_watch *w)
{
	const char *path;
	long i;

	while (!w->stopped) {
		if (ts_sums_tap_next(w->sums, &path) == 0) {
			w->stopped = true;
			break;
		}
		w->gen++;
		if (strlen(path) > w->prefix && (i = find(w, path +
		    w->prefix)) >= 0) {
			w->passed[i] = true;
			return i;
		}
	}
	return -1;
}

static long
fed_read(void *ctx, void *buf, size_t n)
{
	struct fedsrc *f = ctx;
	long r;

	if (f->eof)
		return 0;
	/* The stream moved on to another file: this one reads no more. */
	if (f->gen != f->w->gen) {
		errno = ESPIPE;
		return -1;
	}
	if ((r = ts_sums_tap_read(f->w->sums, buf, n)) == 0)
		f->eof = true;
	return r;
}

static int
fed_close(void *ctx)
{
	free(ctx);
	return 0;
}

static const struct ts_source_ops fedsrc_ops = { fed_read, NULL, fed_close,
    NULL };

static int
ns_stat(void *ctx, const char *name, struct ts_file_stat *fs)
{
	struct ts_pack_watch *w = ((struct fed *)ctx)->w;
	long i = find(w, name);

	if (i < 0) {
		errno = ENOENT;
		return -1;
	}
	*fs = w->fs[i];
	return 0;
}

static struct ts_source *
ns_open(void *ctx, const char *name)
{
	struct ts_pack_watch *w = ((struct fed *)ctx)->w;
	struct fedsrc *f;
	char *shown;
	long i = find(w, name), j;
	struct ts_source *src;

	if (i < 0) {
		errno = ENOENT;
		return NULL;
	}
	if (w->passed[i])
		return ts_bundle_open_file(w->bd, name);
	while ((j = next_file(w)) >= 0 && j != i)
		continue;
	if (j < 0) {
		errno = ECANCELED;	/* the packing stopped short of it */
		return NULL;
	}
	f = ts_xmalloc(sizeof(*f));
	f->w = w;
	f->gen = w->gen;
	f->eof = false;
	shown = ts_bundle_path(w->bd, name);
	src = ts_source_new(&fedsrc_ops, f, shown, w->fs[i].size);
	free(shown);
	return src;
}

static char *
ns_path(void *ctx, const char *name)
{
	return ts_bundle_path(((struct fed *)ctx)->w->bd, name);
}

static int
ns_list(void *ctx, int (*fn)(const char *, void *), void *arg)
{
	struct ts_pack_watch *w = ((struct fed *)ctx)->w;
	size_t i;
	int rv = 0;

	for (i = 0; i < w->n && rv == 0; i++)
		rv = fn(w->names[i], arg);
	return rv;
}

static int
ns_settle(void *ctx)
{
	struct ts_pack_watch *w = ((struct fed *)ctx)->w;

	while (next_file(w) >= 0)
		continue;
	return 0;
}

static void
ns_free(void *ctx)
{
	free(ctx);
}

static const struct ts_bundle_ns_ops fed_ops = { ns_stat, ns_open, ns_path,
    ns_list, ns_free, ns_settle };

static void *
watcher(void *arg)
{
	struct ts_pack_watch *w = arg;
	struct ts_diags *quiet = ts_diags_like(w->d);
	struct ts_bundle *bd;
	struct fed *f = ts_xmalloc(sizeof(*f));

	/* The progress line is the writer's. */
	ts_progress_mute_thread();
	f->w = w;
	/* Its metadata was said when the bundle was opened to be packed. */
	bd = ts_bundle_open_ns(&fed_ops, f, ts_bundle_name(w->bd),
	    ts_bundle_where(w->bd), quiet);
	if (bd == NULL) {
		ts_diags_absorb(w->d, quiet, 0);
		w->rv = -1;
	} else
		w->rv = w->watch(bd, w->arg, w->d);
	ts_bundle_free(bd);
	ts_diags_free(quiet);
	/* What it did not read is passed, so that the writer goes on. */
	while (next_file(w) >= 0)
		continue;
	return NULL;
}

struct ts_pack_watch *
ts_pack_watch_start(struct ts_sums *sums, struct ts_bundle *bd,
    const struct ts_bundle_file *v, size_t n, ts_pack_watcher *watch,
    void *arg, const struct ts_diags *like)
{
	struct ts_pack_watch *w = ts_xcalloc(1, sizeof(*w));
	size_t i;

	w->sums = sums;
	w->bd = bd;
	w->names = ts_xcalloc(n ? n : 1, sizeof(*w->names));
	w->fs = ts_xcalloc(n ? n : 1, sizeof(*w->fs));
	w->passed = ts_xcalloc(n ? n : 1, sizeof(*w->passed));
	for (i = 0; i < n; i++)
		if (v[i].left_out == NULL && ts_bundle_stat(bd, v[i].name,
		    &w->fs[w->n]) == 0)
			w->names[w->n++] = ts_xstrdup(v[i].name);
	w->prefix = strlen(ts_bundle_name(bd)) + 1;
	w->watch = watch;
	w->arg = arg;
	w->d = ts_diags_like(like);
	ts_sums_tap_start(sums);
	if (pthread_create(&w->th, NULL, watcher, w) != 0) {
		ts_sums_tap_cancel(sums);
		for (i = 0; i < w->n; i++)
			free(w->names[i]);
		free(w->names);
		free(w->fs);
		free(w->passed);
		ts_diags_free(w->d);
		free(w);
		return NULL;
	}
	return w;
}

int
ts_pack_watch_end(struct ts_pack_watch *w, struct ts_diags *d)
{
	size_t i;
	int rv;

	ts_sums_tap_stop(w->sums);
	pthread_join(w->th, NULL);
	if (d != NULL)
		ts_diags_absorb(d, w->d, 0);
	rv = w->rv;
	for (i = 0; i < w->n; i++)
		free(w->names[i]);
	free(w->names);
	free(w->fs);
	free(w->passed);
	ts_diags_free(w->d);
	free(w);
	return rv;
}
