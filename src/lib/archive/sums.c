/*
 * sums.c - the SHA-256 digests of the files an archive holds, its
 * SHA256SUMS manifest, made as the files are written.  The writer
 * reads each file into one of a few buffers and hands it here; a
 * thread of its own hashes the buffers in turn while the writer goes
 * on with the tar stream and its compression, so that hashing does not
 * lengthen the copy loop.  A buffer is handed out again only once it is
 * hashed.  Where no thread can be started the hashing is done in the
 * writer's loop: slower, the same digests.
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

/* What the hasher is handed: n bytes of buf, or the end of file f. */
struct slot {
	char		*buf;
	size_t		 n;
	struct sumfile	*end;
	bool		 full;
};

struct ts_sums {
	struct slot	 slot[NSLOT];
	size_t		 w, r;		/* the writer's slot, the hasher's */
	struct sumfile	**f;
	size_t		 nf;
	struct ts_sha256 h;
	bool		 open;		/* h holds a digest begun */
	bool		 failed;	/* libcrypto failed: EIO */
	bool		 quit;
	bool		 threaded;
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
};

/* One slot's work, on the hasher's side. */
static void
consume(struct ts_sums *s, struct slot *sl)
{
	if (!s->open) {
		if (ts_sha256_init(&s->h) != 0)
			s->failed = true;
		s->open = true;
	}
	if (sl->end == NULL) {
		if (!s->failed && ts_sha256_update(&s->h, sl->buf, sl->n) != 0)
			s->failed = true;
		return;
	}
	if (s->failed)
		ts_sha256_free(&s->h);
	else if (ts_sha256_final(&s->h, sl->end->d) != 0)
		s->failed = true;
	s->open = false;
}

static void *
hasher(void *arg)
{
	struct ts_sums *s = arg;
	struct slot *sl;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		sl = &s->slot[s->r];
		while (!sl->full && !s->quit)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->quit)
			break;
		pthread_mutex_unlock(&s->mu);
		consume(s, sl);
		pthread_mutex_lock(&s->mu);
		sl->full = false;
		s->r = (s->r + 1) % NSLOT;
		pthread_cond_broadcast(&s->cv);
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

/* The writer's next slot, once the hasher is done with it. */
static struct slot *
next_slot(struct ts_sums *s)
{
	struct slot *sl = &s->slot[s->w];

	if (s->threaded) {
		pthread_mutex_lock(&s->mu);
		while (sl->full)
			pthread_cond_wait(&s->cv, &s->mu);
		pthread_mutex_unlock(&s->mu);
	}
	return sl;
}

/* Hand the writer's slot over, and move on to the next. */
static void
hand(struct ts_sums *s, struct slot *sl)
{
	s->w = (s->w + 1) % NSLOT;
	if (!s->threaded) {
		consume(s, sl);
		return;
	}
	pthread_mutex_lock(&s->mu);
	sl->full = true;
	pthread_cond_broadcast(&s->cv);
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
	struct slot *sl = &s->slot[s->w];

	sl->n = n;
	sl->end = NULL;
	hand(s, sl);
}

void
ts_sums_begin(struct ts_sums *s, const char *path)
{
	struct sumfile *f = ts_xcalloc(1, sizeof(*f));

	f->path = ts_xstrdup(path);
	s->f = ts_xreallocarray(s->f, s->nf + 1, sizeof(*s->f));
	s->f[s->nf++] = f;
}

void
ts_sums_end(struct ts_sums *s)
{
	struct slot *sl = next_slot(s);

	sl->n = 0;
	sl->end = s->f[s->nf - 1];
	hand(s, sl);
}

/* Wait until every slot handed over is hashed. */
static void
drain(struct ts_sums *s)
{
	size_t i;

	if (!s->threaded)
		return;
	pthread_mutex_lock(&s->mu);
	for (i = 0; i < NSLOT; i++)
		while (s->slot[i].full)
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

/* A path as sha256sum writes it: a backslash or a newline in it is
 * escaped, and its line then starts with a backslash. */
static void
line(struct ts_strbuf *b, const struct sumfile *f)
{
	char hex[TS_SHA256_HEX];
	const char *p;
	bool esc = strpbrk(f->path, "\\\n") != NULL;

	ts_sha256_hex(f->d, hex);
	if (!esc) {
		ts_sbprintf(b, "%s  %s\n", hex, f->path);
		return;
	}
	ts_sbprintf(b, "\\%s  ", hex);
	for (p = f->path; *p != '\0'; p++)
		if (*p == '\\')
			ts_sbprintf(b, "\\\\");
		else if (*p == '\n')
			ts_sbprintf(b, "\\n");
		else
			ts_sbprintf(b, "%c", *p);
	ts_sbprintf(b, "\n");
}

char *
ts_sums_text(struct ts_sums *s, size_t *len)
{
	struct ts_strbuf b = { NULL, 0, 0 };
	size_t i;

	drain(s);
	if (s->failed) {
		errno = EIO;
		return NULL;
	}
	if (s->nf > 1)
		qsort(s->f, s->nf, sizeof(*s->f), bypath);
	b.cap = 128 * (s->nf + 1);
	b.s = ts_xmalloc(b.cap);
	b.s[0] = '\0';
	for (i = 0; i < s->nf; i++)
		line(&b, s->f[i]);
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
