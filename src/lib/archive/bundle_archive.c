/*
 * bundle_archive.c - the bundles of a tar archive, read as the stream
 * comes by (SPEC B5): each bundle is a namespace over the members of its
 * folder, so that ts_check_bundle and the tools read it as they read a
 * directory, without unpacking it.
 *
 * A stream goes one way.  A file of the bundle is read straight from it
 * when it is opened as it comes by: the metadata first, the data files
 * after, as ts-pack writes them.  A member that must be passed to reach
 * the one wanted is kept: in memory when small, else copied to a
 * temporary directory, with a note (an archive in another order works,
 * at that cost).  Whether a file is there at all cannot be known before
 * the stream has passed the bundle's last member: stat says EAGAIN
 * rather than read past a large member, and ts_bundle_settle asks again
 * at the end.  A member read once can be read again only by reading the
 * archive again from its start, which a file allows and a pipe does not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "archive/archive_int.h"
#include "io/io.h"
#include "model/model.h"
#include "util/path.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define KEEP_MEM	(1 << 20)	/* a member kept in memory, at most */
#define KEEP_MEM_ALL	(64 << 20)	/* ... and all of them */
#define COPYBUF		(1 << 20)

/* How a member passed by is kept. */
enum { K_MEM, K_FILE, K_GONE };
/* What passing a member does with it. */
enum { P_KEEP, P_LIGHT, P_DROP };

struct kept {
	char		*file;		/* its name in the bundle */
	int64_t		 size;
	int		 how;		/* K_* */
	char		*mem;
	char		*path;		/* K_FILE: where */
	uint64_t	 index;		/* in the archive, to read it again */
};

struct ts_bundles {
	struct ts_archive	*ar;
	char			*path;		/* to read again; NULL: a pipe */
	char			*label;		/* the archive in messages */
	char			*tmpdir;
	struct ts_diags		*d;
	/* The member at hand: read, not yet passed. */
	struct ts_member	 cur;
	bool			 have, ended;
	char			*cb, *cf;	/* its bundle, its file */
	bool			 given;		/* its data is handed out */
	/* The bundle whose members are coming by. */
	char			*bname;
	struct kept		*k;
	size_t			 nk;
	size_t			 memkept;
	char			*spill;		/* the temporary directory */
	uint64_t		 nspill;
	bool			 noted;
	char			**done;		/* bundles passed */
	size_t			 ndone;
	size_t			 count;
	struct ts_folders	 folders;	/* the bundles' folders met */
	bool			 failed;	/* an error of the archive said */
	bool			 split;		/* ts_bundles_split */
};

/* The namespace of one bundle. */
struct bns {
	struct ts_bundles	*bs;
	char			*name;
};

/* ---- what a bundle archive may hold (SPEC B5) ---- */

const char *
ts_member_check(const struct ts_member *m, char **bundle, char **file)
{
	const char *p = m->name, *slash, *why;
	size_t n, pl, in = 0;
	char *b;

	*bundle = *file = NULL;
	if (*p == '\0')
		return "it has no name";
	if (*p == '/')
		return "its path is absolute";
	if (strcmp(p, "..") == 0 || strncmp(p, "../", 3) == 0 ||
	    strstr(p, "/../") != NULL || (strlen(p) >= 3 &&
	    strcmp(p + strlen(p) - 3, "/..") == 0))
		return "its path climbs out with '..'";
	switch (m->type) {
	case TS_MEMBER_SYMLINK:
		return "it is a symbolic link";
	case TS_MEMBER_HARDLINK:
		return "it is a hard link";
	case TS_MEMBER_DEVICE:
		return "it is a device";
	case TS_MEMBER_FIFO:
		return "it is a FIFO";
	case TS_MEMBER_SPARSE:
		return "it is a sparse file; sparse members are not supported";
	case TS_MEMBER_OTHER:
		return "it is not a regular file";
	default:
		break;
	}
	while (p[0] == '.' && p[1] == '/')	/* "./NAME/..." */
		for (p += 2; *p == '/'; p++)
			continue;
	if (*p == '\0' || strcmp(p, ".") == 0)
		return m->type == TS_MEMBER_DIR ? NULL : "it has no name";
	slash = strchr(p, '/');
	n = slash ? (size_t)(slash - p) : strlen(p);
	b = ts_xasprintf("%.*s", (int)n, p);
	if (!ts_valid_name(b)) {
		free(b);
		return "its folder is not a bundle name "
		    "([A-Za-z0-9][A-Za-z0-9._-]*)";
	}
	/* No bundle has it (ts_archive_out_bundle refuses one): a reader
	 * would take its folder for the manifest, -x could not write both. */
	if (strcmp(b, TS_MANIFEST) == 0) {
		free(b);
		return "its folder has the name of the archive's manifest";
	}
	if (slash == NULL || slash[1] == '\0') {
		if (m->type != TS_MEMBER_DIR) {
			free(b);
			return "it is not in a bundle's folder";
		}
		*bundle = b;
		return NULL;
	}
	p = slash + 1;
	n = strlen(p);
	if (m->type == TS_MEMBER_DIR && p[n - 1] == '/')
		n--;
	/* The folder of pictures, and a file directly in it (B6). */
	pl = strlen(TS_BUNDLE_PICTURES);
	if (n > pl && strncmp(p, TS_BUNDLE_PICTURES, pl) == 0 &&
	    p[pl] == '/')
		in = pl + 1;
	if (m->type == TS_MEMBER_DIR && n == pl && strncmp(p,
	    TS_BUNDLE_PICTURES, pl) == 0) {
		*bundle = b;
		return NULL;
	}
	if (memchr(p + in, '/', n - in) != NULL ||
	    m->type == TS_MEMBER_DIR) {
		free(b);
		return "a bundle's files lie directly in its folder, or in "
		    "its folder " TS_BUNDLE_PICTURES;
	}
	if ((why = ts_file_name_refused(p + in, n - in)) != NULL) {
		free(b);
		return why;
	}
	*bundle = b;
	*file = ts_xasprintf("%.*s", (int)n, p);
	return NULL;
}

void
ts_folders_met(struct ts_folders *fs, const char *bundle, const char *member)
{
	struct ts_folder *f = fs->n > 0 ? &fs->v[fs->n - 1] : NULL;
	size_t i;

	/* A bundle's members come together: its entry is the last one. */
	if (f == NULL || strcmp(f->bundle, bundle) != 0)
		for (i = 0, f = NULL; i < fs->n && f == NULL; i++)
			if (strcmp(fs->v[i].bundle, bundle) == 0)
				f = &fs->v[i];
	if (f == NULL) {
		fs->v = ts_xreallocarray(fs->v, fs->n + 1, sizeof(*fs->v));
		f = &fs->v[fs->n++];
		f->bundle = ts_xstrdup(bundle);
		f->folder = NULL;
		f->file = false;
	}
	if (member == NULL)
		f->file = true;
	else if (f->folder == NULL)
		f->folder = ts_member_shown(member);
}

int
ts_folders_end(struct ts_folders *fs, const char *label, const char *verb,
    struct ts_diags *d)
{
	size_t i;
	int rv = 0;

	for (i = 0; i < fs->n; i++) {
		if (!fs->v[i].file && fs->v[i].folder != NULL && d != NULL) {
			ts_diag(d, TS_SEV_ERROR, label, 0, 0, TS_RULE_B5,
			    "member '%s' is %s: its folder holds no file of a "
			    "bundle", fs->v[i].folder, verb);
			rv = -1;
		}
		free(fs->v[i].bundle);
		free(fs->v[i].folder);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
	return rv;
}

/* ---- the bundles, as the stream comes by ---- */

static bool
in_region(struct ts_bundles *bs)
{
	return bs->have && bs->cb != NULL && bs->bname != NULL &&
	    strcmp(bs->cb, bs->bname) == 0;
}

static bool
was_done(struct ts_bundles *bs, const char *b)
{
	size_t i;

	for (i = 0; i < bs->ndone; i++)
		if (strcmp(bs->done[i], b) == 0)
			return true;
	return false;
}

static struct kept *
find_kept(struct ts_bundles *bs, const char *file)
{
	size_t i;

	for (i = 0; i < bs->nk; i++)
		if (strcmp(bs->k[i].file, file) == 0)
			return &bs->k[i];
	return NULL;
}

/* Was bundle b handed out (passed, or the one at hand)? */
static bool
handed(const struct ts_bundles *bs, const char *b)
{
	return b != NULL && ((bs->bname != NULL && strcmp(bs->bname, b) ==
	    0) || was_done((struct ts_bundles *)bs, b));
}

/* Split, the end says only what is about no bundle handed out. */
static bool
archive_own(const char *bundle, void *arg)
{
	return !handed(arg, bundle);
}

/* The next member a bundle may hold into cur; the others are said and
 * skipped.  false at the end (or when the stream fails, said). */
static bool
advance_one(struct ts_bundles *bs)
{
	const char *why;
	char *shown;
	bool mine;
	int r;

	for (;;) {
		free(bs->cb);
		free(bs->cf);
		bs->cb = bs->cf = NULL;
		bs->have = bs->given = false;
		if (bs->ended)
			return false;
		if ((r = ts_archive_next(bs->ar, &bs->cur)) <= 0) {
			bs->ended = true;
			/* The end: the members against the manifest, the
			 * folders against what came in them. */
			if (r == 0) {
				if (bs->split)
					ts_archive_verify_by(bs->ar,
					    archive_own, bs, bs->d);
				else
					ts_archive_verify(bs->ar, bs->d);
				ts_folders_end(&bs->folders, bs->label,
				    "left out", bs->d);
			}
			if (r < 0) {
				if (errno == EIO || errno == ENOMEM)
					ts_diag_io(bs->d, bs->label, "%s",
					    ts_archive_error(bs->ar));
				else
					ts_diag(bs->d, TS_SEV_ERROR, bs->label,
					    0, 0, TS_RULE_B5, "%s",
					    ts_archive_error(bs->ar));
			}
			return false;
		}
		why = ts_member_check(&bs->cur, &bs->cb, &bs->cf);
		if (why != NULL) {
			shown = ts_member_shown(bs->cur.name);
			ts_diag(bs->d, TS_SEV_ERROR, bs->label, 0, 0,
			    TS_RULE_B5, "member '%s' is left out: %s", shown,
			    why);
			free(shown);
			continue;
		}
		ts_folders_met(&bs->folders, bs->cb, bs->cf == NULL ?
		    bs->cur.name : NULL);
		if (bs->cf == NULL)	/* a folder: nothing to read */
			continue;
		mine = bs->bname != NULL && strcmp(bs->cb, bs->bname) == 0;
		if (was_done(bs, bs->cb) || (mine && find_kept(bs, bs->cf) !=
		    NULL)) {
			shown = ts_member_shown(bs->cur.name);
			ts_diag(bs->d, TS_SEV_ERROR, bs->label, 0, 0,
			    TS_RULE_B5, "member '%s' is left out: %s", shown,
			    mine ? "it comes twice" : "it comes apart from "
			    "the rest of its bundle");
			free(shown);
			continue;
		}
		bs->have = true;
		return true;
	}
}

/* The same, remembering that the archive failed when it said an error
 * (ts_bundles_finish tells it, whenever it was said). */
static bool
advance(struct ts_bundles *bs)
{
	size_t errs = ts_diags_errors(bs->d);
	bool r = advance_one(bs);

	if (ts_diags_errors(bs->d) > errs)
		bs->failed = true;
	return r;
}

static void
note_spill(struct ts_bundles *bs)
{
	if (bs->noted)
		return;
	bs->noted = true;
	ts_diag(bs->d, TS_SEV_NOTE, bs->label, 0, 0, TS_RULE_B5, "the members "
	    "of '%s' do not come in the order of a bundle's reading "
	    "(metadata, README, data files): some are kept in a temporary "
	    "directory", bs->bname);
}

/* Copy the current member's data to a file of the spill directory. */
static char *
spill(struct ts_bundles *bs, struct ts_source *src)
{
	const char *dir;
	char *path, *buf;
	uint64_t done = 0;
	long n;
	int fd, e;

	if (bs->spill == NULL) {
		dir = ts_tmpdir(bs->tmpdir);
		bs->spill = ts_xasprintf("%s/tensorsuite.XXXXXX", dir);
		ts_cleanup_add(bs->spill, true);
		if (mkdtemp(bs->spill) == NULL) {
			e = errno;
			ts_cleanup_remove(bs->spill);
			free(bs->spill);
			bs->spill = NULL;
			errno = e;
			return NULL;
		}
	}
	path = ts_xasprintf("%s/%llu", bs->spill,
	    (unsigned long long)bs->nspill++);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1) {
		free(path);
		return NULL;
	}
	buf = ts_xmalloc(COPYBUF);
	while ((n = ts_source_read(src, buf, COPYBUF)) > 0) {
		if ((e = ts_write_all(fd, buf, (size_t)n)) != 0) {
			errno = e;
			n = -1;
			break;
		}
		ts_progress(done += (uint64_t)n, (uint64_t)bs->cur.size, true,
		    "keeping %s", ts_source_name(src));
	}
	e = errno;
	free(buf);
	if (close(fd) != 0 && n == 0) {
		e = errno;
		n = -1;
	}
	if (n < 0) {
		unlink(path);
		free(path);
		errno = e;
		return NULL;
	}
	return path;
}

/* Read the current member whole into memory. */
static char *
slurp(struct ts_source *src, size_t size)
{
	char *mem = ts_xmalloc(size + 1);
	size_t got = 0;
	long n;

	while (got < size && (n = ts_source_read(src, mem + got, size -
	    got)) > 0)
		got += (size_t)n;
	if (got < size) {
		free(mem);
		if (errno == 0)
			errno = EILSEQ;
		return NULL;
	}
	return mem;
}

/* Note the current member among those come by, not kept (yet). */
static struct kept *
note_member(struct ts_bundles *bs)
{
	struct kept *k;

	bs->k = ts_xreallocarray(bs->k, bs->nk + 1, sizeof(*bs->k));
	k = &bs->k[bs->nk++];
	memset(k, 0, sizeof(*k));
	k->file = ts_xstrdup(bs->cf);
	k->size = bs->cur.size;
	k->index = bs->cur.index;
	k->how = K_GONE;
	return k;
}

/*
 * Pass the current member, a file of the bundle coming by, keeping it
 * as mode says: P_KEEP in memory or a file, P_LIGHT in memory when
 * small (else only its name), P_DROP not at all.  -1 when keeping it
 * failed (reported).
 */
static int
pass(struct ts_bundles *bs, int mode)
{
	struct ts_source *src;
	struct kept *k;
	bool small = bs->cur.size >= 0 && bs->cur.size <= KEEP_MEM &&
	    bs->memkept + (size_t)bs->cur.size <= KEEP_MEM_ALL;
	int rv = 0;

	/* Handed out, it was noted then. */
	if (mode == P_DROP || bs->given) {
		advance(bs);
		return 0;
	}
	k = note_member(bs);
	if ((small || mode == P_KEEP) && bs->cur.size >= 0) {
		if ((src = ts_archive_data(bs->ar)) == NULL)
			rv = -1;
		else if (small) {
			if ((k->mem = slurp(src, (size_t)bs->cur.size)) != NULL) {
				k->how = K_MEM;
				bs->memkept += (size_t)bs->cur.size;
			} else
				rv = -1;
		} else {
			note_spill(bs);
			if ((k->path = spill(bs, src)) != NULL)
				k->how = K_FILE;
			else
				rv = -1;
		}
		if (rv != 0 && ts_source_error(src) != NULL)
			ts_diag(bs->d, TS_SEV_ERROR, bs->label, 0, 0,
			    TS_RULE_B5, "%s", ts_source_error(src));
		else if (rv != 0)
			ts_diag_io(bs->d, ts_source_name(src), "cannot keep it: "
			    "%s", strerror(errno));
		if (rv != 0)
			bs->failed = true;
		ts_source_close(src);
	}
	advance(bs);
	return rv;
}

/* Forget what was kept of the last bundle. */
static void
forget(struct ts_bundles *bs)
{
	size_t i;

	for (i = 0; i < bs->nk; i++) {
		if (bs->k[i].path != NULL)
			unlink(bs->k[i].path);
		free(bs->k[i].path);
		free(bs->k[i].mem);
		free(bs->k[i].file);
	}
	free(bs->k);
	bs->k = NULL;
	bs->nk = 0;
	bs->memkept = 0;
}

/* ---- sources of what was kept, or read again ---- */

/* A member read again from the start of the archive, which it owns. */
struct againsrc {
	struct ts_archive	*ar;
	struct ts_source	*src;
	struct ts_source	*self;	/* told why a read of src failed */
};

static long
again_read(void *ctx, void *buf, size_t n)
{
	struct againsrc *g = ctx;
	long r = ts_source_read(g->src, buf, n);

	if (r < 0)
		ts_source_set_error(g->self, ts_source_error(g->src));
	return r;
}

static int
again_close(void *ctx)
{
	struct againsrc *g = ctx;

	ts_source_close(g->src);
	ts_archive_close(g->ar);
	free(g);
	return 0;
}

static const struct ts_source_ops again_ops = { again_read, NULL,
    again_close, NULL };

static struct ts_source *
read_again(struct ts_bundles *bs, const struct kept *k)
{
	struct againsrc *g;
	struct ts_archive *ar;
	struct ts_member m;
	struct ts_source *src;
	int r;

	if (bs->path == NULL) {
		errno = ESPIPE;		/* a pipe is read once */
		return NULL;
	}
	if ((ar = ts_archive_open(bs->path)) == NULL)
		return NULL;
	while ((r = ts_archive_next(ar, &m)) > 0 && m.index < k->index)
		continue;
	if (r <= 0 || (src = ts_archive_data(ar)) == NULL) {
		ts_archive_close(ar);
		errno = r < 0 ? EILSEQ : ENOENT;
		return NULL;
	}
	g = ts_xmalloc(sizeof(*g));
	g->ar = ar;
	g->src = src;
	g->self = ts_source_new(&again_ops, g, ts_source_name(src), k->size);
	return g->self;
}

static struct ts_source *
open_kept(struct ts_bundles *bs, const struct kept *k)
{
	switch (k->how) {
	case K_MEM:
		return ts_source_open_mem(k->mem, (size_t)k->size, k->file);
	case K_FILE:
		return ts_source_open_file(k->path);
	default:
		return read_again(bs, k);
	}
}

/* ---- the namespace of a bundle ---- */

static int
ns_stat(void *ctx, const char *name, struct ts_file_stat *fs)
{
	struct bns *n = ctx;
	struct ts_bundles *bs = n->bs;
	const struct kept *k;

	fs->regular = true;
	if ((k = find_kept(bs, name)) != NULL) {
		fs->size = k->size;
		return 0;
	}
	while (in_region(bs)) {
		if (strcmp(bs->cf, name) == 0) {
			fs->size = bs->cur.size;
			return 0;
		}
		/* Read past small members only: a large one may be a data
		 * file, to be read straight from the stream. */
		if (bs->cur.size > KEEP_MEM || bs->memkept +
		    (size_t)bs->cur.size > KEEP_MEM_ALL) {
			errno = EAGAIN;
			return -1;
		}
		pass(bs, P_LIGHT);
	}
	errno = ENOENT;
	return -1;
}

static struct ts_source *
ns_open(void *ctx, const char *name)
{
	struct bns *n = ctx;
	struct ts_bundles *bs = n->bs;
	const struct kept *k;
	struct ts_source *src;

	if ((k = find_kept(bs, name)) != NULL)
		return open_kept(bs, k);
	while (in_region(bs)) {
		if (strcmp(bs->cf, name) == 0) {
			if ((src = ts_archive_data(bs->ar)) == NULL)
				return NULL;
			/* Read once, from the stream; again, from the start. */
			note_member(bs);
			bs->given = true;
			return src;
		}
		if (pass(bs, P_KEEP) != 0) {
			errno = EIO;
			return NULL;
		}
	}
	errno = ENOENT;
	return NULL;
}

static char *
ns_path(void *ctx, const char *name)
{
	struct bns *n = ctx;

	return ts_xasprintf("%s:%s/%s", n->bs->label, n->name, name);
}

static int
ns_settle(void *ctx)
{
	struct bns *n = ctx;
	struct ts_bundles *bs = n->bs;

	while (in_region(bs))
		pass(bs, bs->given ? P_DROP : P_LIGHT);
	return 0;
}

static int
ns_list(void *ctx, int (*fn)(const char *, void *), void *arg)
{
	struct bns *n = ctx;
	size_t i;
	int rv = 0;

	ns_settle(ctx);
	for (i = 0; i < n->bs->nk && rv == 0; i++)
		rv = fn(n->bs->k[i].file, arg);
	return rv;
}

static void
ns_free(void *ctx)
{
	struct bns *n = ctx;

	free(n->name);
	free(n);
}

static const struct ts_bundle_ns_ops archive_ops = { ns_stat, ns_open,
    ns_path, ns_list, ns_free, ns_settle };

/* ---- the bundles, one after the other ---- */

struct ts_bundles *
ts_bundles_open(const char *path, const char *tmpdir, struct ts_diags *d)
{
	struct ts_bundles *bs;
	struct ts_archive *ar;
	const char *label = strcmp(path, "-") == 0 ? "<stdin>" : path;

	if ((ar = ts_archive_open(path)) == NULL) {
		if (errno == ENOENT || errno == EISDIR || errno == EACCES ||
		    errno == EIO || errno == ELIBACC)
			ts_diag_io(d, label, "%s", strerror(errno));
		else
			ts_diag(d, TS_SEV_ERROR, label, 0, 0, TS_RULE_B5,
			    "not a tar archive%s%s", errno == EILSEQ ? "" :
			    ": ", errno == EILSEQ ? "" : strerror(errno));
		return NULL;
	}
	bs = ts_xcalloc(1, sizeof(*bs));
	bs->ar = ar;
	bs->path = ts_archive_rereadable(ar) ? ts_xstrdup(path) : NULL;
	bs->label = ts_xstrdup(label);
	bs->tmpdir = tmpdir ? ts_xstrdup(tmpdir) : NULL;
	bs->d = d;
	return bs;
}

/* Pass the rest of the last bundle, and forget it. */
static void
finish_bundle(struct ts_bundles *bs)
{
	if (bs->bname == NULL)
		return;
	while (in_region(bs))
		pass(bs, P_DROP);
	forget(bs);
	bs->done = ts_xreallocarray(bs->done, bs->ndone + 1,
	    sizeof(*bs->done));
	bs->done[bs->ndone++] = bs->bname;
	bs->bname = NULL;
}

struct ts_bundle *
ts_bundles_next(struct ts_bundles *bs, const char *name,
    struct ts_diags *bd_d)
{
	struct bns *n;
	char *meta, *where;
	struct ts_bundle *bd;

	for (;;) {
		finish_bundle(bs);
		if (!bs->have && !advance(bs))
			return NULL;
		bs->bname = ts_xstrdup(bs->cb);
		if (name != NULL && strcmp(name, bs->bname) != 0)
			continue;
		break;
	}
	/* Its metadata first: what comes before is kept. */
	meta = ts_xasprintf("%s_metadata.json", bs->bname);
	while (in_region(bs) && strcmp(bs->cf, meta) != 0)
		if (pass(bs, P_KEEP) != 0)
			break;
	free(meta);
	n = ts_xmalloc(sizeof(*n));
	n->bs = bs;
	n->name = ts_xstrdup(bs->bname);
	where = ts_xasprintf("%s:%s", bs->label, bs->bname);
	bd = ts_bundle_open_ns(&archive_ops, n, bs->bname, where, bd_d);
	free(where);
	bs->count++;
	return bd;
}

void
ts_bundles_split(struct ts_bundles *bs)
{
	bs->split = true;
}

struct owned {
	const char	*name;
};

static bool
bundle_own(const char *bundle, void *arg)
{
	return bundle != NULL && strcmp(bundle, ((struct owned *)arg)->name) ==
	    0;
}

int
ts_bundles_verdict(struct ts_bundles *bs, const char *name,
    struct ts_diags *d)
{
	struct owned o = { name };

	if (!bs->split || !bs->ended)
		return 0;
	return ts_archive_verify_by(bs->ar, bundle_own, &o, d);
}

bool
ts_bundles_more(struct ts_bundles *bs)
{
	while (in_region(bs))
		pass(bs, P_DROP);
	return bs->have || advance(bs);
}

int
ts_bundles_finish(struct ts_bundles *bs)
{
	while (in_region(bs))
		pass(bs, P_DROP);
	while (advance(bs))
		continue;
	/* Also what was said before (ts_bundles_more may have read to the
	 * end): a caller commits its output on 0. */
	return bs->failed ? -1 : 0;
}

size_t
ts_bundles_count(const struct ts_bundles *bs)
{
	return bs->count;
}

void
ts_bundles_close(struct ts_bundles *bs)
{
	size_t i;

	if (bs == NULL)
		return;
	forget(bs);
	free(bs->bname);
	for (i = 0; i < bs->ndone; i++)
		free(bs->done[i]);
	free(bs->done);
	free(bs->cb);
	free(bs->cf);
	ts_folders_end(&bs->folders, bs->label, "left out", NULL);
	ts_archive_close(bs->ar);
	if (bs->spill != NULL) {
		ts_rmtree(bs->spill);
		ts_cleanup_remove(bs->spill);
		free(bs->spill);
	}
	free(bs->path);
	free(bs->label);
	free(bs->tmpdir);
	free(bs);
}
