/*
 * sums.c - the SHA-256 digests of the files an archive holds, its
 * SHA256SUMS manifest, made as the files are written.  The writer
 * reads each file into one of a few buffers and hands it here; a
 * thread of its own hashes the buffers in turn while the writer goes
 * on with the tar stream and its compression, so that hashing does not
 * lengthen the copy loop.  A buffer is handed out again only once it is
 * hashed.  Where no thread can be started the hashing is done in the
 * writer's loop: slower, the same digests.
 *
 * The same buffers may go to a second reader, the tap, as they are
 * hashed: the files of a bundle being packed, read by the checks of its
 * entries on a thread of their own (watch.c), so that the checks read
 * what is packed, as it is packed, without reading it again.  A buffer
 * is then handed out again once both are done with it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive_int.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define NSLOT	4

struct sumfile {
	char		*path;
	unsigned char	 d[TS_SHA256_LEN];
};

/*
 * What a slot holds: n bytes of buf, a file's start or its end (f), or,
 * for the tap alone, the end of what it was to see.  A slot is free
 * again once the hasher and, when it was handed to it, the tap are
 * done with it.
 */
enum { EV_DATA, EV_BEGIN, EV_END, EV_STOP };

struct slot {
	char		*buf;
	size_t		 n;
	int		 ev;
	struct sumfile	*f;
	bool		 full;		/* handed over, not yet free */
	bool		 hashed, tapped;
};

struct ts_sums {
	struct slot	 slot[NSLOT];
	size_t		 w, r, t;	/* the writer's slot, the hasher's, the
					 * tap's */
	size_t		 tpos;		/* read so far of the tap's slot */
	struct sumfile	**f;
	size_t		 nf;
	struct ts_sha256 h;
	bool		 open;		/* h holds a digest begun */
	bool		 failed;	/* libcrypto failed: */
	int		 err;		/* ... its errno (EIO, ELIBACC) */
	bool		 quit;
	bool		 threaded;
	bool		 tap;		/* slots handed now go to the tap */
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
};

/* A digest failed: the first error kept. */
static void
fail(struct ts_sums *s)
{
	if (!s->failed)
		s->err = errno != 0 ? errno : EIO;
	s->failed = true;
}

/* One slot's work, on the hasher's side. */
static void
consume(struct ts_sums *s, struct slot *sl)
{
	if (sl->ev == EV_BEGIN || sl->ev == EV_STOP)
		return;		/* the tap's */
	if (!s->open) {
		if (!s->failed && ts_sha256_init(&s->h) != 0)
			fail(s);
		s->open = true;
	}
	if (sl->ev == EV_DATA) {
		if (!s->failed && ts_sha256_update(&s->h, sl->buf, sl->n) != 0)
			fail(s);
		return;
	}
	if (s->failed)
		ts_sha256_free(&s->h);
	else if (ts_sha256_final(&s->h, sl->f->d) != 0)
		fail(s);
	s->open = false;
}

/* Slot sl is done with by one of its readers (under the lock). */
static void
release(struct ts_sums *s, struct slot *sl)
{
	if (sl->hashed && sl->tapped)
		sl->full = false;
	pthread_cond_broadcast(&s->cv);
}

static void *
hasher(void *arg)
{
	struct ts_sums *s = arg;
	struct slot *sl;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		sl = &s->slot[s->r];
		while (!(sl->full && !sl->hashed) && !s->quit)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->quit)
			break;
		pthread_mutex_unlock(&s->mu);
		consume(s, sl);
		pthread_mutex_lock(&s->mu);
		sl->hashed = true;
		s->r = (s->r + 1) % NSLOT;
		release(s, sl);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

struct ts_sums *
ts_sums_new(size_t bufsize)
{
	struct ts_sums *s = ts_xcalloc(1, sizeof(*s));
	int i;

	for (i = 0; i < NSLOT; i++)
		s->slot[i].buf = ts_xmalloc(bufsize);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->threaded = pthread_create(&s->th, NULL, hasher, s) == 0;
	return s;
}

/* The writer's next slot, once its readers are done with it. */
static struct slot *
next_slot(struct ts_sums *s)
{
	struct slot *sl = &s->slot[s->w];

	pthread_mutex_lock(&s->mu);
	while (sl->full)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	return sl;
}

/* Hand the writer's slot over, and move on to the next. */
static void
hand(struct ts_sums *s, struct slot *sl, int ev, size_t n,
    struct sumfile *f)
{
	sl->ev = ev;
	sl->n = n;
	sl->f = f;
	s->w = (s->w + 1) % NSLOT;
	if (!s->threaded)
		consume(s, sl);
	pthread_mutex_lock(&s->mu);
	sl->hashed = !s->threaded;
	sl->tapped = !s->tap;
	sl->full = true;
	release(s, sl);
	pthread_mutex_unlock(&s->mu);
}

char *
ts_sums_buf(struct ts_sums *s)
{
	return next_slot(s)->buf;
}

void
ts_sums_put(struct ts_sums *s, size_t n)
{
	hand(s, &s->slot[s->w], EV_DATA, n, NULL);
}

void
ts_sums_begin(struct ts_sums *s, const char *path)
{
	struct sumfile *f = ts_xcalloc(1, sizeof(*f));

	f->path = ts_xstrdup(path);
	s->f = ts_xreallocarray(s->f, s->nf + 1, sizeof(*s->f));
	s->f[s->nf++] = f;
	if (s->tap)
		hand(s, next_slot(s), EV_BEGIN, 0, f);
}

void
ts_sums_end(struct ts_sums *s)
{
	hand(s, next_slot(s), EV_END, 0, s->f[s->nf - 1]);
}

/* ---- the tap: a second reader of what is handed over ---- */

void
ts_sums_tap_start(struct ts_sums *s)
{
	s->t = s->w;
	s->tpos = 0;
	s->tap = true;
}

void
ts_sums_tap_stop(struct ts_sums *s)
{
	hand(s, next_slot(s), EV_STOP, 0, NULL);
	s->tap = false;
}

void
ts_sums_tap_cancel(struct ts_sums *s)
{
	s->tap = false;
}

/* The tap's next slot, once it is handed over. */
static struct slot *
tap_wait(struct ts_sums *s)
{
	struct slot *sl = &s->slot[s->t];

	pthread_mutex_lock(&s->mu);
	while (!(sl->full && !sl->tapped))
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	return sl;
}

static void
tap_done(struct ts_sums *s, struct slot *sl)
{
	pthread_mutex_lock(&s->mu);
	sl->tapped = true;
	s->t = (s->t + 1) % NSLOT;
	s->tpos = 0;
	release(s, sl);
	pthread_mutex_unlock(&s->mu);
}

int
ts_sums_tap_next(struct ts_sums *s, const char **path)
{
	struct slot *sl;
	int ev;

	for (;;) {
		sl = tap_wait(s);
		ev = sl->ev;
		if (ev == EV_BEGIN)
			*path = sl->f->path;
		tap_done(s, sl);
		if (ev == EV_BEGIN)
			return 1;
		if (ev == EV_STOP)
			return 0;
	}
}

long
ts_sums_tap_read(struct ts_sums *s, void *buf, size_t n)
{
	struct slot *sl = tap_wait(s);
	size_t k;

	switch (sl->ev) {
	case EV_DATA:
		k = sl->n - s->tpos < n ? sl->n - s->tpos : n;
		memcpy(buf, sl->buf + s->tpos, k);
		s->tpos += k;
		if (s->tpos == sl->n)
			tap_done(s, sl);
		return (long)k;
	case EV_END:
		tap_done(s, sl);
		return 0;
	default:
		/* The writer gave the file up before its end. */
		errno = ECANCELED;
		return -1;
	}
}

/* Wait until every slot handed over is hashed. */
static void
drain(struct ts_sums *s)
{
	size_t i;

	pthread_mutex_lock(&s->mu);
	for (i = 0; i < NSLOT; i++)
		while (s->slot[i].full && !s->slot[i].hashed)
			pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

static int
bypath(const void *a, const void *b)
{
	/* strcmp orders as unsigned char: sort(1) in the C locale. */
	return strcmp((*(struct sumfile *const *)a)->path,
	    (*(struct sumfile *const *)b)->path);
}

char *
ts_sums_text(struct ts_sums *s, size_t *len)
{
	struct ts_strbuf b = { NULL, 0, 0 };
	size_t i;

	drain(s);
	if (s->failed) {
		errno = s->err;
		return NULL;
	}
	if (s->nf > 1)
		qsort(s->f, s->nf, sizeof(*s->f), bypath);
	b.cap = 128 * (s->nf + 1);
	b.s = ts_xmalloc(b.cap);
	b.s[0] = '\0';
	for (i = 0; i < s->nf; i++)
		ts_manifest_line(&b, s->f[i]->d, s->f[i]->path);
	*len = b.n;
	return b.s;
}

void
ts_sums_free(struct ts_sums *s)
{
	size_t i;

	if (s == NULL)
		return;
	if (s->threaded) {
		pthread_mutex_lock(&s->mu);
		s->quit = true;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->th, NULL);
	}
	if (s->open)
		ts_sha256_free(&s->h);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	for (i = 0; i < NSLOT; i++)
		free(s->slot[i].buf);
	for (i = 0; i < s->nf; i++) {
		free(s->f[i]->path);
		free(s->f[i]);
	}
	free(s->f);
	free(s);
}
