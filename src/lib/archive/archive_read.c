/*
 * archive_read.c - a tar archive read member by member (SPEC B5), through
 * libarchive: ustar, pax or GNU tar, with any compression libarchive
 * undoes (zstd, gzip, xz, bzip2, or none), from a file or standard input.
 *
 * The data of a member is a source (ts_archive_data).  A thread reads it
 * ahead into a few chunks while the caller parses what came before, so
 * that decompression and parsing run on two cores: undoing zstd costs
 * about as much as checking what it gives.  The caller's thread and the
 * read-ahead thread never use libarchive at the same time; the mutex
 * hands it from one to the other.
 *
 * Every regular file's data is hashed (SHA-256) as it streams by, by
 * the read-ahead thread as it reads, or by ts_archive_next for what the
 * caller did not read: each byte once, no second read.  The manifest,
 * SHA256SUMS at the archive's root, is read here and not handed out; at
 * the end, ts_archive_verify says what differs from it (A1).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "tensorsuite.h"
#include "archive/archive_int.h"
#include "io/io.h"
#include "util/path.h"
#include "util/lalib.h"
#include "util/sha256.h"
#include "util/xalloc.h"

#define INBLOCK	(1 << 20)	/* what libarchive reads at a time */
#define CHUNK	(1 << 20)	/* what the read-ahead hands on */
#define NCHUNK	4

enum { W_IDLE, W_RUN, W_QUIT };

/* A regular file met, with its digest. */
struct seen {
	char		*name;		/* as stored */
	unsigned char	 digest[TS_SHA256_LEN];
	bool		 bundle;	/* a file of a bundle, NAME/FILE */
};

/* Is an archive without a manifest an error, not a note? */
static bool require_sums;

struct ts_archive {
	struct archive	*a;
	struct ts_source *in;		/* standard input or gzip, read
					 * through */
	bool		 gzip;		/* in undoes gzip (io/decompress.c) */
	char		*inbuf;
	char		*name;		/* for messages */
	char		*path;		/* to open again; NULL for stdin */
	char		*err;		/* the last error, for messages */
	int		 errnum;
	uint64_t	 index;		/* of the next member */
	char		*mname, *mlink;	/* the current member's, owned */
	int64_t		 msize;
	bool		 ended;
	bool		 given;		/* the current member's data given */
	struct msrc	*data;		/* ... as this source, while open */

	/* The read-ahead thread and what it shares with the caller. */
	pthread_t	 th;
	bool		 th_on;
	pthread_mutex_t	 mu;
	pthread_cond_t	 to_worker, to_reader;
	int		 state;		/* W_* */
	bool		 stop;		/* the caller wants the member no more */
	char		*ring[NCHUNK];
	size_t		 len[NCHUNK];
	size_t		 head, count;	/* the filled chunks */
	size_t		 rpos;		/* read so far of ring[head] */
	bool		 done;		/* the member's data all came */
	int		 derr;		/* errno of a failed read, or 0 */
	char		*dmsg;		/* ... its message */
	char		*prev;		/* the last member's name, shown */
	bool		 broken;	/* failed at its opening: said by the
					 * first ts_archive_next */

	/* What the manifest is checked against, and what it says. */
	struct ts_sha256 mh;		/* the current member's digest */
	bool		 hashing;	/* ... which is a regular file's */
	bool		 mbundle;	/* ... of a bundle (NAME/FILE) */
	bool		 hfail;		/* a digest could not be made: */
	int		 herr;		/* ... the first errno of it */
	char		*drain;		/* what the unread data goes through */
	struct seen	*seen;
	size_t		 nseen;
	struct ts_manifest mf;
	char		*mtext;		/* its bytes, as read */
	size_t		 mlen;
	int		 nman;		/* manifests met */
	char		*after;		/* the first member after it, shown */
	struct ts_diags	*vd;		/* what the checks found */
	char		**owner;	/* ... each about which bundle's
					 * file, or NULL */
	size_t		 nowner;
	bool		 verified;	/* the end was reached: vd is whole */
};

/* A digest of ar's could not be made: the first errno kept. */
static void
hash_failed(struct ts_archive *ar)
{
	if (!ar->hfail)
		ar->herr = errno != 0 ? errno : EIO;
	ar->hfail = true;
}

static void
seterr(struct ts_archive *ar, int e, const char *msg)
{
	free(ar->err);
	ar->err = ts_xstrdup(msg != NULL && *msg != '\0' ? msg : strerror(e));
	ar->errnum = e;
}

/* Does s hold w, in any letter case? */
static bool
holds(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, w, n) == 0)
			return true;
	return false;
}

/*
 * libarchive's message in the words of what is wrong with the archive,
 * rather than of how its reader noticed: a compressed stream or a tar
 * that ends early is truncated; a header whose checksum fails, after a
 * member, most often follows data longer than that member's header says.
 * where is the place: "member 'X'" while its data is read, else NULL (at
 * a header, after the member ar->prev).
 */
static void
explain(struct ts_archive *ar, int e, const char *msg, const char *where)
{
	static const char *const streams[] = { "zstd", "gzip", "bzip2", "xz",
	    "lzma", NULL };
	char *at = NULL, *t;
	int i;

	if (msg == NULL || *msg == '\0') {
		seterr(ar, e, NULL);
		return;
	}
	if (where != NULL)
		at = ts_xstrdup(where);
	else if (ar->prev != NULL)
		at = ts_xasprintf("the header after member '%s'", ar->prev);
	else
		at = ts_xstrdup("its first header");
	if (holds(msg, "truncated") || holds(msg, "no progress is possible")) {
		for (i = 0; streams[i] != NULL; i++)
			if (holds(msg, streams[i]))
				break;
		if (streams[i] != NULL)
			t = ts_xasprintf("the archive is truncated: its %s "
			    "data ends early, %s%s", streams[i][0] == 'l' ? "xz" :
			    streams[i], where != NULL || ar->prev != NULL ?
			    "in " : "before its first member", where != NULL ||
			    ar->prev != NULL ? at : "");
		else
			t = ts_xasprintf("the archive is truncated: it ends in "
			    "the middle of %s", at);
	} else if (holds(msg, "damaged tar archive") && ar->prev != NULL)
		t = ts_xasprintf("%s is damaged (its checksum is wrong): the "
		    "member's data may be longer than its header says", at);
	else if (holds(msg, "damaged tar archive") ||
	    holds(msg, "unrecognized archive format"))
		t = ts_xstrdup("not a tar archive");
	else {
		t = ts_xstrdup(msg);
		if (*t >= 'A' && *t <= 'Z' && (t[1] < 'A' || t[1] > 'Z'))
			*t = (char)(*t - 'A' + 'a');
	}
	seterr(ar, e, t);
	free(t);
	free(at);
}

/* libarchive's error, as errno and a message; corrupt data is EILSEQ. */
static void
laerr(struct ts_archive *ar)
{
	int e = archive_errno(ar->a);

	explain(ar, e > 0 ? e : EILSEQ, archive_error_string(ar->a), NULL);
}

const char *
ts_archive_error(const struct ts_archive *ar)
{
	return ar->err != NULL ? ar->err : "no error";
}

const char *
ts_archive_name(const struct ts_archive *ar)
{
	return ar->name;
}

bool
ts_archive_rereadable(const struct ts_archive *ar)
{
	return ar->path != NULL;
}

const char *
ts_archive_compression(const struct ts_archive *ar)
{
	int i, n = archive_filter_count(ar->a);

	if (ar->gzip)
		return "gzip";
	for (i = 0; i < n; i++)
		switch (archive_filter_code(ar->a, i)) {
		case ARCHIVE_FILTER_ZSTD:
			return "zstd";
		case ARCHIVE_FILTER_GZIP:
			return "gzip";
		case ARCHIVE_FILTER_XZ:
			return "xz";
		case ARCHIVE_FILTER_BZIP2:
			return "bzip2";
		default:
			break;
		}
	return "none";
}

/* libarchive's reads of standard input go through its source, which
 * hands out first what a look at the stream read (ts_archive_is). */
static la_ssize_t
in_fill(struct archive *a, void *ud, const void **out)
{
	struct ts_archive *ar = ud;
	long n = ts_source_read(ar->in, ar->inbuf, INBLOCK);

	if (n < 0) {
		if (ts_source_error(ar->in) != NULL)
			archive_set_error(a, errno, "%s",
			    ts_source_error(ar->in));
		else
			archive_set_error(a, errno, "read error: %s",
			    strerror(errno));
		return -1;
	}
	*out = ar->inbuf;
	return n;
}

/*
 * The archive ended: what follows its end in a gzip stream is read to
 * the stream's end, so that the trailer of its last member, which
 * libarchive may never ask for, is checked.  0, or -1 (said as
 * ts_archive_next's error).
 */
static int
drain_in(struct ts_archive *ar)
{
	long n;

	while ((n = ts_source_read(ar->in, ar->inbuf, INBLOCK)) > 0)
		continue;
	if (n == 0)
		return 0;
	explain(ar, errno == 0 ? EILSEQ : errno, ts_source_error(ar->in),
	    NULL);
	errno = ar->errnum;
	return -1;
}

/* Is the file at path gzip data?  Its source, then, else NULL. */
static struct ts_source *
gzipped(const char *path)
{
	struct ts_source *src = ts_source_open_file(path);
	const char *c;

	if (src == NULL)
		return NULL;
	if ((c = ts_source_compression(src)) != NULL &&
	    strcmp(c, "gzip") == 0)
		return src;
	ts_source_close(src);
	return NULL;
}

struct ts_archive *
ts_archive_open(const char *path)
{
	struct ts_archive *ar;
	struct ts_source *z;
	const char *c;
	struct stat st;
	int r, e;

	if (strcmp(path, "-") != 0) {
		if (stat(path, &st) != 0)
			return NULL;
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return NULL;
		}
	}
	if (ts_la_load() != 0)
		return NULL;
	ar = ts_xcalloc(1, sizeof(*ar));
	ar->a = archive_read_new();
	archive_read_support_filter_all(ar->a);
	archive_read_support_format_tar(ar->a);
	if (strcmp(path, "-") == 0) {
		ar->name = ts_xstrdup("<stdin>");
		ar->in = ts_source_open_file("-");
	} else {
		ar->name = ts_xstrdup(path);
		/* Only a regular file can be read again from its start: a
		 * FIFO or a device is opened once, what was peeked at to
		 * tell its compression read through. */
		if (S_ISREG(st.st_mode)) {
			ar->path = ts_xstrdup(path);
			ar->in = gzipped(path);
		} else
			ar->in = ts_source_open_file(path);
	}
	/* gzip is undone by zlib, which checks each member's trailer. */
	if (ar->in != NULL && (c = ts_source_compression(ar->in)) != NULL &&
	    strcmp(c, "gzip") == 0) {
		if ((z = ts_source_decompress(ar->in)) == NULL)
			ts_source_close(ar->in);
		ar->in = z;
		ar->gzip = z != NULL;
	}
	if (ar->in != NULL) {
		ar->inbuf = ts_xmalloc(INBLOCK);
		r = archive_read_open(ar->a, ar, NULL, in_fill, NULL);
	} else if (strcmp(path, "-") == 0)
		r = ARCHIVE_FATAL;
	else
		r = archive_read_open_filename(ar->a, path, INBLOCK);
	e = ar->in == NULL && strcmp(path, "-") == 0 ? errno :
	    archive_errno(ar->a) > 0 ? archive_errno(ar->a) : EILSEQ;
	if (r != ARCHIVE_OK && (e == EILSEQ || e == EINVAL) &&
	    (strcmp(path, "-") != 0 || ar->in != NULL)) {
		/* Bad data, not a failing system: said as the first member
		 * is asked for, with the words of the other errors. */
		laerr(ar);
		ar->broken = ar->ended = true;
		r = ARCHIVE_OK;
	}
	if (r != ARCHIVE_OK) {
		archive_read_free(ar->a);
		ts_source_close(ar->in);
		free(ar->inbuf);
		free(ar->name);
		free(ar->path);
		free(ar);
		errno = e;
		return NULL;
	}
	pthread_mutex_init(&ar->mu, NULL);
	pthread_cond_init(&ar->to_worker, NULL);
	pthread_cond_init(&ar->to_reader, NULL);
	ar->vd = ts_diags_new(0, false);
	return ar;
}

/* ---- the read-ahead ---- */

static void *
worker(void *arg)
{
	struct ts_archive *ar = arg;
	la_ssize_t r;
	size_t slot;

	pthread_mutex_lock(&ar->mu);
	for (;;) {
		while (ar->state == W_IDLE)
			pthread_cond_wait(&ar->to_worker, &ar->mu);
		if (ar->state == W_QUIT)
			break;
		while (!ar->stop) {
			while (ar->count == NCHUNK && !ar->stop)
				pthread_cond_wait(&ar->to_worker, &ar->mu);
			if (ar->stop)
				break;
			/* A free slot is the worker's alone: read unlocked. */
			slot = (ar->head + ar->count) % NCHUNK;
			pthread_mutex_unlock(&ar->mu);
			r = archive_read_data(ar->a, ar->ring[slot], CHUNK);
			if (r > 0 && ar->hashing && ts_sha256_update(&ar->mh,
			    ar->ring[slot], (size_t)r) != 0)
				hash_failed(ar);
			pthread_mutex_lock(&ar->mu);
			if (r <= 0) {
				if (r < 0) {
					ar->derr = archive_errno(ar->a) > 0 ?
					    archive_errno(ar->a) : EILSEQ;
					free(ar->dmsg);
					ar->dmsg = ts_xstrdup(
					    archive_error_string(ar->a) ?
					    archive_error_string(ar->a) :
					    strerror(ar->derr));
				}
				ar->done = true;
				break;
			}
			ar->len[slot] = (size_t)r;
			ar->count++;
			pthread_cond_signal(&ar->to_reader);
		}
		ar->state = W_IDLE;
		pthread_cond_signal(&ar->to_reader);
	}
	pthread_mutex_unlock(&ar->mu);
	return NULL;
}

/* Start reading the current member's data ahead. */
static int
start(struct ts_archive *ar)
{
	int i;

	if (!ar->th_on) {
		for (i = 0; i < NCHUNK; i++)
			ar->ring[i] = ts_xmalloc(CHUNK);
		ar->state = W_IDLE;
		if (pthread_create(&ar->th, NULL, worker, ar) != 0) {
			for (i = 0; i < NCHUNK; i++) {
				free(ar->ring[i]);
				ar->ring[i] = NULL;
			}
			return -1;
		}
		ar->th_on = true;
	}
	pthread_mutex_lock(&ar->mu);
	ar->head = ar->count = ar->rpos = 0;
	ar->done = ar->stop = false;
	ar->derr = 0;
	ar->state = W_RUN;
	pthread_cond_signal(&ar->to_worker);
	pthread_mutex_unlock(&ar->mu);
	return 0;
}

/* Stop the read-ahead, so that libarchive is the caller's again. */
static void
halt(struct ts_archive *ar)
{
	if (!ar->th_on)
		return;
	pthread_mutex_lock(&ar->mu);
	ar->stop = true;
	pthread_cond_signal(&ar->to_worker);
	while (ar->state == W_RUN)
		pthread_cond_wait(&ar->to_reader, &ar->mu);
	pthread_mutex_unlock(&ar->mu);
}

/* A member's data; once the archive has moved on, it reads no more. */
struct msrc {
	struct ts_archive	*ar;	/* NULL: moved on */
	struct ts_source	*src;	/* its source, told why a read fails */
};

static long
msrc_read(void *ctx, void *buf, size_t n)
{
	struct msrc *ms = ctx;
	struct ts_archive *ar = ms->ar;
	size_t k;

	if (ar == NULL) {
		errno = ESPIPE;
		return -1;
	}
	pthread_mutex_lock(&ar->mu);
	while (ar->count == 0 && !ar->done && ar->state == W_RUN)
		pthread_cond_wait(&ar->to_reader, &ar->mu);
	if (ar->count == 0) {
		int e = ar->derr;

		if (e != 0) {
			char *m = ts_member_shown(ar->mname != NULL ?
			    ar->mname : "");
			char *at = ts_xasprintf("member '%s'", m);

			explain(ar, e, ar->dmsg, at);
			ts_source_set_error(ms->src, ar->err);
			/* Said by the reader of the member: the archive ends
			 * here, without a second word. */
			ar->ended = true;
			free(at);
			free(m);
		}
		pthread_mutex_unlock(&ar->mu);
		if (e != 0) {
			errno = e;
			return -1;
		}
		return 0;
	}
	pthread_mutex_unlock(&ar->mu);
	/* The chunk at head is the reader's until it gives it back. */
	k = ar->len[ar->head] - ar->rpos;
	if (k > n)
		k = n;
	memcpy(buf, ar->ring[ar->head] + ar->rpos, k);
	ar->rpos += k;
	if (ar->rpos == ar->len[ar->head]) {
		pthread_mutex_lock(&ar->mu);
		ar->head = (ar->head + 1) % NCHUNK;
		ar->count--;
		ar->rpos = 0;
		pthread_cond_signal(&ar->to_worker);
		pthread_mutex_unlock(&ar->mu);
	}
	return (long)k;
}

static int
msrc_close(void *ctx)
{
	struct msrc *s = ctx;

	if (s->ar != NULL)
		s->ar->data = NULL;
	free(s);
	return 0;
}

static const struct ts_source_ops msrc_ops = { msrc_read, NULL, msrc_close,
    NULL };

struct ts_source *
ts_archive_data(struct ts_archive *ar)
{
	struct ts_source *src;
	struct msrc *s;
	char *name;

	if (ar->mname == NULL || ar->given) {
		errno = EINVAL;
		return NULL;
	}
	if (start(ar) != 0) {
		errno = EAGAIN;
		return NULL;
	}
	ar->given = true;
	s = ts_xmalloc(sizeof(*s));
	s->ar = ar;
	name = ts_xasprintf("%s:%s", ar->name, ar->mname);
	src = ts_source_new(&msrc_ops, s, name, ar->msize);
	s->src = src;
	ar->data = s;
	free(name);
	return src;
}

/* ---- members ---- */

static enum ts_member_type
mtype(struct archive_entry *e)
{
	if (archive_entry_hardlink(e) != NULL)
		return TS_MEMBER_HARDLINK;
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
		/* Holes and data, as GNU tar -S stores them. */
		return archive_entry_sparse_count(e) > 0 ? TS_MEMBER_SPARSE :
		    TS_MEMBER_FILE;
	case AE_IFDIR:
		return TS_MEMBER_DIR;
	case AE_IFLNK:
		return TS_MEMBER_SYMLINK;
	case AE_IFCHR:
	case AE_IFBLK:
		return TS_MEMBER_DEVICE;
	case AE_IFIFO:
		return TS_MEMBER_FIFO;
	default:
		return TS_MEMBER_OTHER;
	}
}

/* ---- the manifest ---- */

void
ts_archive_require_checksums(bool on)
{
	require_sums = on;
}

/*
 * The current member's digest, ended: what the caller did not read of
 * its data is read now, hashed, and dropped.  -1 when that data cannot
 * be read (said as ts_archive_next's error).
 */
static int
finish_member(struct ts_archive *ar)
{
	unsigned char dg[TS_SHA256_LEN];
	struct seen *sn;
	la_ssize_t r;
	char *shown, *at;
	int e = 0;

	ar->hashing = false;
	if (ar->given && ar->done)
		e = ar->derr;	/* met by the read-ahead, not by the caller */
	else {
		if (ar->drain == NULL)
			ar->drain = ts_xmalloc(CHUNK);
		while ((r = archive_read_data(ar->a, ar->drain, CHUNK)) > 0)
			if (ts_sha256_update(&ar->mh, ar->drain, (size_t)r) !=
			    0)
				hash_failed(ar);
		if (r < 0) {
			e = archive_errno(ar->a) > 0 ? archive_errno(ar->a) :
			    EILSEQ;
			free(ar->dmsg);
			ar->dmsg = ts_xstrdup(archive_error_string(ar->a) ?
			    archive_error_string(ar->a) : strerror(e));
		}
	}
	if (e != 0) {
		ts_sha256_free(&ar->mh);
		shown = ts_member_shown(ar->mname);
		at = ts_xasprintf("member '%s'", shown);
		explain(ar, e, ar->dmsg, at);
		free(at);
		free(shown);
		ar->ended = true;
		errno = ar->errnum;
		return -1;
	}
	if (ts_sha256_final(&ar->mh, dg) != 0) {
		hash_failed(ar);
		return 0;
	}
	ar->seen = ts_xreallocarray(ar->seen, ar->nseen + 1,
	    sizeof(*ar->seen));
	sn = &ar->seen[ar->nseen++];
	sn->name = ts_xstrdup(ar->mname);
	memcpy(sn->digest, dg, sizeof(dg));
	sn->bundle = ar->mbundle;
	return 0;
}

/* The bundle a path of the archive is in (NAME of NAME/FILE, past a
 * leading "./"), malloc'd; NULL when it is in none. */
static char *
bundle_of(const char *path)
{
	const char *p = ts_manifest_path(path), *slash = strchr(p, '/');
	char *b;

	if (slash == NULL)
		return NULL;
	b = ts_xasprintf("%.*s", (int)(slash - p), p);
	if (!ts_valid_name(b)) {
		free(b);
		return NULL;
	}
	return b;
}

/* The messages of vd said since the last call are about path's bundle
 * (path NULL: about none). */
static void
own(struct ts_archive *ar, const char *path)
{
	char *b = path != NULL ? bundle_of(path) : NULL;
	size_t n = ts_diags_len(ar->vd);

	if (ar->nowner < n)
		ar->owner = ts_xreallocarray(ar->owner, n, sizeof(*ar->owner));
	while (ar->nowner < n)
		ar->owner[ar->nowner++] = b != NULL ? ts_xstrdup(b) : NULL;
	free(b);
}

/* The manifest, member e: read whole and parsed.  -1 when its data
 * cannot be read (said as ts_archive_next's error). */
static int
read_manifest(struct ts_archive *ar, struct archive_entry *e)
{
	int64_t size = archive_entry_size(e);
	char *file = ts_xasprintf("%s:%s", ar->name, TS_MANIFEST), *buf;
	size_t got = 0;
	la_ssize_t r = 0;
	int err;

	free(ar->prev);
	ar->prev = ts_xstrdup(TS_MANIFEST);
	if (++ar->nman > 1)
		ts_diag(ar->vd, TS_SEV_ERROR, file, 0, 0, TS_RULE_A1,
		    "the archive holds a second manifest: only the first is "
		    "read");
	else if (size > TS_MANIFEST_MAX)
		ts_diag(ar->vd, TS_SEV_ERROR, file, 0, 0, TS_RULE_A1,
		    "it is larger than %lld MiB: no manifest is", (long
		    long)(TS_MANIFEST_MAX >> 20));
	own(ar, NULL);
	if (ar->nman > 1 || size > TS_MANIFEST_MAX || size < 0) {
		free(file);
		return 0;	/* its data is passed by the next header */
	}
	buf = ts_xmalloc((size_t)size + 1);
	while (got < (size_t)size && (r = archive_read_data(ar->a, buf + got,
	    (size_t)size - got)) > 0)
		got += (size_t)r;
	if (r < 0) {
		err = archive_errno(ar->a) > 0 ? archive_errno(ar->a) : EILSEQ;
		explain(ar, err, archive_error_string(ar->a), "member '"
		    TS_MANIFEST "'");
		free(buf);
		free(file);
		ar->ended = true;
		errno = ar->errnum;
		return -1;
	}
	ts_manifest_parse(&ar->mf, buf, got, file, ar->vd);
	own(ar, NULL);
	ar->mtext = buf;
	ar->mlen = got;
	free(file);
	return 0;
}

const char *
ts_archive_manifest(const struct ts_archive *ar, size_t *len)
{
	*len = ar->mtext != NULL ? ar->mlen : 0;
	return ar->mtext;
}

/* The archive read to its end: what differs from its manifest, into
 * ar->vd. */
static void
verify(struct ts_archive *ar)
{
	struct ts_manifest_entry *me;
	char *file, *shown;
	size_t i;

	ar->verified = true;
	if (ar->nman == 0) {
		ts_diag(ar->vd, require_sums ? TS_SEV_ERROR : TS_SEV_NOTE,
		    ar->name, 0, 0, TS_RULE_A1, "it holds no %s manifest: its "
		    "members %s", TS_MANIFEST, require_sums ? "cannot be "
		    "verified (--require-checksums)" : "could not be "
		    "verified");
		own(ar, NULL);
		return;
	}
	file = ts_xasprintf("%s:%s", ar->name, TS_MANIFEST);
	if (ar->after != NULL)
		ts_diag(ar->vd, TS_SEV_ERROR, file, 0, 0, TS_RULE_A1,
		    "it is not the archive's last member: '%s' comes after it",
		    ar->after);
	own(ar, NULL);
	for (i = 0; i < ar->nseen; i++) {
		const struct seen *sn = &ar->seen[i];
		char *where;

		me = ts_manifest_find(&ar->mf, sn->name);
		if (me == NULL && !sn->bundle)
			continue;
		shown = ts_member_shown(sn->name);
		where = ts_xasprintf("%s:%s", ar->name, shown);
		if (me == NULL)
			ts_diag(ar->vd, TS_SEV_ERROR, where, 0, 0, TS_RULE_A1,
			    "it is not listed in %s: its data cannot be "
			    "verified", TS_MANIFEST);
		else if (memcmp(me->digest, sn->digest, TS_SHA256_LEN) != 0)
			ts_diag(ar->vd, TS_SEV_ERROR, where, 0, 0, TS_RULE_A1,
			    "SHA-256 differs from %s", TS_MANIFEST);
		own(ar, sn->name);
		if (me != NULL)
			me->found = true;
		free(where);
		free(shown);
	}
	for (i = 0; i < ar->mf.n; i++) {
		if (ar->mf.e[i].found)
			continue;
		shown = ts_member_shown(ar->mf.e[i].raw);
		ts_diag(ar->vd, TS_SEV_ERROR, file, ar->mf.e[i].line, 0,
		    TS_RULE_A1, "'%s' is listed, but the archive holds no "
		    "such file", shown);
		own(ar, ar->mf.e[i].path);
		free(shown);
	}
	free(file);
}

int
ts_archive_verify_by(struct ts_archive *ar, bool (*mine)(const char *bundle,
    void *arg), void *arg, struct ts_diags *d)
{
	const struct ts_diag *g;
	size_t i, errs = 0;

	if (!ar->verified)
		return 0;
	if (ar->hfail) {
		if (!mine(NULL, arg))
			return 0;
		errno = ar->herr;
		ts_diag_io(d, ar->name, "cannot compute the SHA-256 of its "
		    "members: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < ts_diags_len(ar->vd); i++) {
		if (!mine(i < ar->nowner ? ar->owner[i] : NULL, arg))
			continue;
		g = ts_diags_at(ar->vd, i);
		ts_diag(d, g->sev, g->file, g->line, g->col, g->rule, "%s",
		    g->msg);
		if (g->sev == TS_SEV_ERROR)
			errs++;
	}
	return errs > 0 ? -1 : 0;
}

static bool
every(const char *bundle, void *arg)
{
	(void)bundle;
	(void)arg;
	return true;
}

int
ts_archive_verify(struct ts_archive *ar, struct ts_diags *d)
{
	int rv = ts_archive_verify_by(ar, every, NULL, d);

	ar->verified = false;	/* told once */
	return rv;
}

int
ts_archive_next(struct ts_archive *ar, struct ts_member *m)
{
	struct archive_entry *e;
	const char *name, *link;
	char *b, *f;
	int r;

	if (ar->data != NULL) {
		/* The member's source, still open, reads no more. */
		ar->data->ar = NULL;
		ar->data = NULL;
	}
	halt(ar);
	if (ar->hashing && !ar->ended && finish_member(ar) != 0)
		return -1;
	if (ar->hashing) {
		ts_sha256_free(&ar->mh);
		ar->hashing = false;
	}
	if (ar->mname != NULL) {
		free(ar->prev);
		ar->prev = ts_member_shown(ar->mname);
	}
	free(ar->mname);
	free(ar->mlink);
	ar->mname = ar->mlink = NULL;
	ar->given = false;
	if (ar->broken) {
		ar->broken = false;
		errno = ar->errnum;
		return -1;
	}
	if (ar->ended)
		return 0;
again:
	r = archive_read_next_header(ar->a, &e);
	if (r == ARCHIVE_EOF) {
		ar->ended = true;
		if (ar->gzip && drain_in(ar) != 0)
			return -1;
		verify(ar);
		return 0;
	}
	/* ARCHIVE_RETRY is a header libarchive could not read (its
	 * checksum is wrong): the archive stops there too. */
	if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
		laerr(ar);
		/* Nothing read yet: unless it was cut short, it is no tar
		 * archive that libarchive knows. */
		if (ar->index == 0 && ar->errnum != EIO &&
		    ar->errnum != ENOMEM && strncmp(ar->err, "the archive is "
		    "truncated", 24) != 0)
			seterr(ar, EILSEQ, "not a tar archive");
		ar->ended = true;
		errno = ar->errnum;
		return -1;
	}
	memset(m, 0, sizeof(*m));
	name = archive_entry_pathname(e);
	if (name != NULL && mtype(e) == TS_MEMBER_FILE &&
	    strcmp(ts_manifest_path(name), TS_MANIFEST) == 0) {
		ar->index++;
		if (read_manifest(ar, e) != 0)
			return -1;
		goto again;
	}
	if (ar->nman > 0 && ar->after == NULL)
		ar->after = ts_member_shown(name != NULL ? name : "");
	ar->mname = ts_xstrdup(name != NULL ? name : "");
	m->name = ar->mname;
	m->type = mtype(e);
	link = archive_entry_hardlink(e);
	if (link == NULL)
		link = archive_entry_symlink(e);
	if (link != NULL)
		ar->mlink = ts_xstrdup(link);
	m->link = ar->mlink;
	m->size = archive_entry_size_is_set(e) ? archive_entry_size(e) : -1;
	ar->msize = m->type == TS_MEMBER_FILE ? m->size : -1;
	m->mtime = archive_entry_mtime_is_set(e) ? archive_entry_mtime(e) : 0;
	m->mode = (unsigned)archive_entry_perm(e);
	m->index = ar->index++;
	if (m->type == TS_MEMBER_FILE) {
		ar->mbundle = ts_member_check(m, &b, &f) == NULL && f != NULL;
		free(b);
		free(f);
		if (ts_sha256_init(&ar->mh) == 0)
			ar->hashing = true;
		else
			hash_failed(ar);
	}
	return 1;
}

int
ts_archive_close(struct ts_archive *ar)
{
	int i;

	if (ar == NULL)
		return 0;
	if (ar->data != NULL)
		ar->data->ar = NULL;
	halt(ar);
	if (ar->th_on) {
		pthread_mutex_lock(&ar->mu);
		ar->state = W_QUIT;
		pthread_cond_signal(&ar->to_worker);
		pthread_mutex_unlock(&ar->mu);
		pthread_join(ar->th, NULL);
	}
	for (i = 0; i < NCHUNK; i++)
		free(ar->ring[i]);
	pthread_mutex_destroy(&ar->mu);
	pthread_cond_destroy(&ar->to_worker);
	pthread_cond_destroy(&ar->to_reader);
	archive_read_free(ar->a);
	ts_source_close(ar->in);
	free(ar->inbuf);
	free(ar->mname);
	free(ar->mlink);
	free(ar->name);
	free(ar->path);
	free(ar->err);
	free(ar->dmsg);
	free(ar->prev);
	if (ar->hashing)
		ts_sha256_free(&ar->mh);
	free(ar->drain);
	for (i = 0; i < (int)ar->nseen; i++)
		free(ar->seen[i].name);
	free(ar->seen);
	ts_manifest_free(&ar->mf);
	free(ar->mtext);
	free(ar->after);
	ts_diags_free(ar->vd);
	for (i = 0; i < (int)ar->nowner; i++)
		free(ar->owner[i]);
	free(ar->owner);
	free(ar);
	return 0;
}

/* ---- what a bundle archive may hold ---- */

char *
ts_member_shown(const char *name)
{
	size_t n = strlen(name), i, o = 0;
	char *s = ts_xmalloc(4 * n + 1);

	/* Control characters would draw on the terminal: octal escapes. */
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c < 0x20 || c == 0x7f || c == '\\')
			o += (size_t)sprintf(s + o, "\\%03o", c);
		else
			s[o++] = (char)c;
	}
	s[o] = '\0';
	return s;
}

/* ---- what names an archive ---- */

static const char *const suffixes[] = { ".tar", ".tar.zst", ".tzst",
    ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", NULL };

/*
 * Is this 512-byte block a tar header?  POSIX ustar (and GNU tar) say
 * "ustar" at offset 257; an old (v7) header says nothing, but its
 * checksum (offset 148: octal, then NUL or space) is the sum of its bytes
 * with the checksum field taken as spaces, unsigned or, as some old tars
 * wrote it, signed.
 */
static bool
tar_header(const unsigned char *h, long n)
{
	unsigned long want = 0, usum = 0;
	long ssum = 0;
	int i, digits = 0;

	if (n < 512)
		return false;
	if (memcmp(h + 257, "ustar", 5) == 0)
		return true;
	for (i = 148; i < 156 && h[i] == ' '; i++)
		continue;
	for (; i < 156 && h[i] >= '0' && h[i] <= '7'; i++, digits++)
		want = want * 8 + (unsigned long)(h[i] - '0');
	if (digits == 0 || (i < 156 && h[i] != ' ' && h[i] != '\0'))
		return false;
	for (i = 0; i < 512; i++) {
		unsigned char c = i >= 148 && i < 156 ? ' ' : h[i];

		usum += c;
		ssum += (signed char)c;
	}
	/* An all-zero block (the end of an archive) sums to 256 only. */
	return h[0] != '\0' && (want == usum || (long)want == ssum);
}

/* What a look at compressed standard input may read, at most: more
 * than one block of any compressor that libarchive undoes. */
#define SNIFFMAX	((uint64_t)16 << 20)

/* Does src start as a tar archive, once undone from its compression?
 * src is left as it was: what the look read is read again. */
static bool
starts_as_tar(struct ts_source *src)
{
	struct ts_source *z;
	const char *p;
	long n;
	bool tar = false;

	ts_source_keep(src);
	if (ts_source_compression(src) == NULL) {
		n = ts_source_peek(src, &p, 512);
		tar = tar_header((const unsigned char *)p, n);
	} else if ((z = ts_source_decompress(ts_source_borrow(src,
	    SNIFFMAX))) != NULL) {
		n = ts_source_peek(z, &p, 512);
		tar = tar_header((const unsigned char *)p, n);
		ts_source_close(z);
	}
	ts_source_replay(src);
	return tar;
}

bool
ts_archive_is(const char *path)
{
	struct ts_source *src;
	struct stat st;
	bool tar;
	int i;

	if (strcmp(path, "-") == 0) {
		/* Standard input keeps what the look read for its reader. */
		if ((src = ts_source_open_file("-")) == NULL)
			return false;
		tar = starts_as_tar(src);
		ts_source_close(src);
		return tar;
	}
	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
		return false;
	for (i = 0; suffixes[i] != NULL; i++)
		if (ts_has_suffix(path, suffixes[i]))
			return true;
	if (!S_ISREG(st.st_mode) || ts_has_suffix(path, "_metadata.json") ||
	    (src = ts_source_open_file(path)) == NULL)
		return false;
	/* A tar header at the start, once undone from its compression:
	 * a compressed data file (x.tns.zst) is no archive. */
	tar = starts_as_tar(src);
	ts_source_close(src);
	return tar;
}
