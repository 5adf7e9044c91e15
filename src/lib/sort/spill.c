/*
 * spill.c - what is in memory sorted and appended to a temporary
 * file as a run.
 *
 * Records, the radix sort's second array and the arena are kept within
 * mem_limit; past it, the records in memory are sorted and appended as
 * a run to a temporary file, unlinked as soon as it is created so
 * nothing is left behind.  A run is the sorted records as they are in
 * memory, each text that is in the arena following its record; with
 * threads, a run without such texts is written by a thread of its own
 * while the next entries come.  merge.c reads the runs back.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "sort/sort_int.h"
#include "util/path.h"

#define SPILL_BUF	((size_t)1 << 20)

int
ts_tmp_open(struct ts_sorter *s, int i)
{
	const char *dir = ts_tmpdir(s->o.tmpdir);
	char *path;
	int fd, e;

	path = ts_xasprintf("%s/ts-sort-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0) {
		e = errno;
		free(path);
		errno = e;
		return -1;
	}
	/* Not for child processes of the tool. */
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	/* Unlinked at once: the data lives as long as the descriptor. */
	if (unlink(path) == 0) {
		free(path);
		path = NULL;
	}
	s->fd[i] = fd;
	s->path[i] = path;
	s->fend[i] = 0;
	return 0;
}

static int
pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
	const char *p = buf;

	while (n > 0) {
		size_t chunk = n > ((size_t)1 << 30) ? (size_t)1 << 30 : n;
		ssize_t w = pwrite(fd, p, chunk, (off_t)off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		off += (uint64_t)w;
		n -= (size_t)w;
	}
	return 0;
}

int
ts_wb_flush(struct run_buf *w)
{
	struct ts_sorter *s = w->s;

	if (w->len == 0)
		return 0;
	if (pwrite_all(s->fd[w->f], w->buf, w->len, s->fend[w->f]) < 0)
		return -1;
	s->fend[w->f] += w->len;
	w->len = 0;
	return 0;
}

/* Room for n more bytes at w->buf + w->len. */
static int
wb_room(struct run_buf *w, size_t n)
{
	if (w->len + n <= w->cap)
		return 0;
	if (ts_wb_flush(w) < 0)
		return -1;
	if (n > w->cap) {
		w->cap = n;
		w->buf = ts_xrealloc(w->buf, n);
	}
	return 0;
}

/*
 * Append one record (final packing) in the file format, which is the
 * record in memory (key words, value word, text word) except that a
 * text kept in the arena (text word TC_ARENA) follows it: its 32-bit
 * length, then its bytes.
 */
int
ts_wb_record(struct run_buf *w, const uint64_t *key, uint64_t val, uint64_t tw,
    const char *txt, uint32_t tlen)
{
	const struct ts_sorter *s = w->s;
	size_t kb = (size_t)s->klay.nw * 8;
	bool inl = s->keep_text && (tw & TC_ARENA) == TC_ARENA;
	char *p;

	if (wb_room(w, kb + (size_t)(s->val_words + s->keep_text) * 8 + (inl ? 4
	    + (size_t)tlen : 0)) < 0)
		return -1;
	p = w->buf + w->len;
	memcpy(p, key, kb);
	p += kb;
	if (s->val_words) {
		memcpy(p, &val, 8);
		p += 8;
	}
	if (s->keep_text) {
		if (inl)
			tw = TC_ARENA;
		memcpy(p, &tw, 8);
		p += 8;
	}
	if (inl) {
		memcpy(p, &tlen, 4);
		p += 4;
		if (tlen != 0)
			memcpy(p, txt, tlen);
		p += tlen;
	}
	w->len = (size_t)(p - w->buf);
	return 0;
}

static struct sort_run *
new_run(struct ts_sorter *s)
{
	if (s->nruns == s->caprun) {
		s->caprun = s->caprun ? 2 * s->caprun : 16;
		s->runs = ts_xreallocarray(s->runs, s->caprun,
		    sizeof(*s->runs));
	}
	return &s->runs[s->nruns++];
}

static void *
bg_main(void *arg)
{
	struct run_writer *w = arg;

	w->err = pwrite_all(w->fd, w->buf, w->len, w->off) < 0 ? errno : 0;
	return NULL;
}

/* Wait for the run being written; -1 with errno when that failed. */
int
ts_bg_wait(struct ts_sorter *s)
{
	if (!s->bg.active)
		return 0;
	pthread_join(s->bg.tid, NULL);
	s->bg.active = false;
	if (s->bg.err != 0) {
		errno = s->bg.err;
		return -1;
	}
	return 0;
}

/*
 * Sort what is in memory and append it to file 0 as a run.  With
 * threads and no text, the sorted array is written by a thread of its
 * own while the next entries fill the radix sort's other array, which is
 * free until the next sort: the write overlaps the caller's reading.
 */
int
ts_spill(struct ts_sorter *s)
{
	struct sort_run *r;
	uint64_t off;

	if (s->n == 0)
		return 0;
	pf_join(s);
	if (ts_bg_wait(s) < 0)
		return -1;
	if (s->fd[0] < 0 && ts_tmp_open(s, 0) < 0)
		return -1;
	ts_radix_sort(s);
	off = s->fend[0];
	if (!s->keep_text || s->alen == 0) {
		/* No text in the arena: the file format is the record
		 * array itself. */
		size_t nb = s->n * (size_t)s->rec_words * 8, sz;
		uint64_t *x;

		s->fend[0] += nb;
		s->bg.fd = s->fd[0];
		s->bg.buf = s->rec;
		s->bg.len = nb;
		s->bg.off = off;
		if (s->threads > 1 && pthread_create(&s->bg.tid, NULL, bg_main,
		    &s->bg) == 0) {
			s->bg.active = true;
			x = s->rec;
			s->rec = s->tmp;
			s->tmp = x;
			sz = s->recsz;
			s->recsz = s->tmpsz;
			s->tmpsz = sz;
		} else if (pwrite_all(s->fd[0], s->rec, nb, off) < 0)
			return -1;
	} else {
		struct run_buf w = { s, 0, ts_xmalloc(SPILL_BUF), 0, SPILL_BUF
		    };
		size_t i;
		int rc = 0;

		for (i = 0; i < s->n && rc == 0; i++) {
			const uint64_t *q = s->rec + i * (size_t)s->rec_words;
			const uint64_t t = q[s->klay.nw + s->val_words];
			const char *a = NULL;
			uint32_t len = 0;

			if ((t & TC_ARENA) == TC_ARENA)
				a = arena_get(s, t >> TC_SHIFT, &len);
			rc = ts_wb_record(&w, q, s->val_words ? q[s->klay.nw] :
			    0, t, a, len);
		}
		if (rc == 0)
			rc = ts_wb_flush(&w);
		free(w.buf);
		if (rc < 0)
			return -1;
	}
	r = new_run(s);
	r->f = 0;
	r->off = off;
	r->end = s->fend[0];
	r->n = s->n;
	r->li = ts_run_layout(s);
	s->n = 0;
	s->alen = 0;
	reset_bounds(s);
	return 0;
}
