/*
 * merge.c - the sorted runs that spill.c wrote, merged into one
 * sorted sequence.
 *
 * A run keeps the packing in force when it was written and is repacked
 * to the final one as it is read.  The merge reads each run through its
 * own buffer and takes the smallest key from a binary heap, ties going
 * to the older run, which keeps the sort stable.  When buffers for all
 * runs would not fit in mem_limit, groups of consecutive runs are first
 * merged into longer runs in a second file (ping-pong between the two).
 */
#include <sys/types.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "sort/sort_int.h"

#define MERGE_MINBUF	((size_t)16 << 10)
#define MERGE_MAXBUF	((size_t)4 << 20)

/* Make need bytes available at v->buf + v->at. */
static int
src_fill(struct run_reader *v, size_t need)
{
	size_t have = v->len - v->at;

	if (have >= need)
		return 0;
	memmove(v->buf, v->buf + v->at, have);
	v->len = have;
	v->at = 0;
	if (need > v->cap) {
		v->cap = need > 2 * v->cap ? need : 2 * v->cap;
		v->buf = ts_xrealloc(v->buf, v->cap);
	}
	while (v->len < need) {
		uint64_t rest = v->run->end - v->pos;
		size_t want = v->cap - v->len;
		ssize_t r;

		if (want > rest)
			want = (size_t)rest;
		if (want == 0) {
			errno = EIO;	/* the run is shorter than written */
			return -1;
		}
		r = pread(v->fd, v->buf + v->len, want, (off_t)v->pos);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0) {
			errno = EIO;
			return -1;
		}
		v->len += (size_t)r;
		v->pos += (uint64_t)r;
	}
	return 0;
}

/* Read the next record of a run.  Returns 1, 0 at its end, -1. */
static int
src_next_slow(const struct ts_sorter *s, struct run_reader *v)
{
	const struct key_layout *RL = &s->lays[v->run->li];
	size_t kb = (size_t)RL->nw * 8;
	size_t fixed = kb + (size_t)(s->val_words + s->keep_text) * 8;
	const char *p;

	if (v->left == 0)
		return 0;
	if (src_fill(v, fixed) < 0)
		return -1;
	p = v->buf + v->at;
	if (v->conv) {
		uint64_t tk[TS_MAXORDER];

		memcpy(tk, p, kb);
		key_repack(RL, &s->klay, s->order, tk, v->key);
	} else if (kb == 8)
		memcpy(v->key, p, 8);	/* a load, not a call */
	else
		memcpy(v->key, p, kb);
	p += kb;
	if (s->val_words) {
		memcpy(&v->val, p, 8);
		p += 8;
	}
	if (s->keep_text)
		memcpy(&v->tw, p, 8);
	v->at += fixed;
	if (s->keep_text && (v->tw & TC_ARENA) == TC_ARENA) {
		if (src_fill(v, 4) < 0)
			return -1;
		memcpy(&v->tlen, v->buf + v->at, 4);
		v->at += 4;
		if (src_fill(v, v->tlen) < 0)
			return -1;
		v->txt = v->buf + v->at;
		v->at += v->tlen;
	}
	v->left--;
	return 1;
}

/* The same, inline for the common records: one key word, no text in
 * the arena. */
static inline int
src_next(const struct ts_sorter *s, struct run_reader *v)
{
	const size_t rs = 8 + (size_t)(s->val_words + s->keep_text) * 8;

	if (v->left != 0 && !v->conv && s->klay.nw == 1 &&
	    v->len - v->at >= rs) {
		const char *p = v->buf + v->at;

		if (s->keep_text) {
			memcpy(&v->tw, p + rs - 8, 8);
			if ((v->tw & TC_ARENA) == TC_ARENA)
				return src_next_slow(s, v);
		}
		memcpy(v->key, p, 8);
		if (s->val_words)
			memcpy(&v->val, p + 8, 8);
		v->at += rs;
		v->left--;
		return 1;
	}
	return src_next_slow(s, v);
}

/* Is node a before node b: smaller key, or equal and an older run? */
static inline bool
hless(const struct merger *m, struct heap_node a, struct heap_node b)
{
	int c;

	if (a.k != b.k)
		return a.k < b.k;
	if (m->nw > 1 && (c = keycmp(m->v[a.i].key, m->v[b.i].key,
	    m->nw - 1)) != 0)
		return c < 0;
	return a.i < b.i;
}

static void
sift(struct merger *m, int i)
{
	struct heap_node x = m->heap[i];
	int c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= m->hn)
			break;
		if (c + 1 < m->hn && hless(m, m->heap[c + 1], m->heap[c]))
			c++;
		if (!hless(m, m->heap[c], x))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	m->heap[i] = x;
}

/* Buffer size for merging k runs within the memory limit. */
static size_t
merge_buf(const struct ts_sorter *s, size_t k)
{
	size_t b = s->limit / (k + 1);

	if (b < MERGE_MINBUF)
		b = MERGE_MINBUF;
	if (b > MERGE_MAXBUF)
		b = MERGE_MAXBUF;
	return b;
}

void
ts_merger_open(struct ts_sorter *s, struct merger *m,
    const struct sort_run *runs, int k)
{
	size_t bs = merge_buf(s, (size_t)k);
	int i;

	memset(m, 0, sizeof(*m));
	m->k = k;
	m->nw = s->klay.nw;
	m->v = ts_xcalloc((size_t)k, sizeof(*m->v));
	m->heap = ts_xcalloc((size_t)k, sizeof(*m->heap));
	m->keys = ts_xcalloc((size_t)k * (size_t)m->nw, 8);
	for (i = 0; i < k; i++) {
		struct run_reader *v = &m->v[i];

		v->run = &runs[i];
		v->fd = s->fd[runs[i].f];
		v->cap = bs;
		v->buf = ts_xmalloc(bs);
		v->key = m->keys + (size_t)i * (size_t)m->nw;
		v->conv = !key_layout_eq(&s->lays[runs[i].li], &s->klay,
		    s->order);
	}
}

/* (Re)start reading every run from its beginning. */
int
ts_merger_start(const struct ts_sorter *s, struct merger *m)
{
	int i, r;

	m->hn = 0;
	for (i = 0; i < m->k; i++) {
		struct run_reader *v = &m->v[i];

		v->pos = v->run->off;
		v->left = v->run->n;
		v->at = v->len = 0;
		if ((r = src_next(s, v)) < 0)
			return -1;
		if (r > 0) {
			m->heap[m->hn].k = v->key[m->nw - 1];
			m->heap[m->hn++].i = i;
		}
	}
	for (i = m->hn / 2 - 1; i >= 0; i--)
		sift(m, i);
	return 0;
}

/* Past the top record. */
int
ts_merger_pop(const struct ts_sorter *s, struct merger *m)
{
	struct run_reader *v = &m->v[m->heap[0].i];
	int r = src_next(s, v);

	if (r < 0)
		return -1;
	if (r == 0) {
		if (--m->hn == 0)
			return 0;
		m->heap[0] = m->heap[m->hn];
	} else
		m->heap[0].k = v->key[m->nw - 1];
	sift(m, 0);
	return 0;
}

void
ts_merger_close(struct merger *m)
{
	int i;

	if (m->v != NULL)
		for (i = 0; i < m->k; i++)
			free(m->v[i].buf);
	free(m->v);
	free(m->heap);
	free(m->keys);
	memset(m, 0, sizeof(*m));
}

/* Merge runs[0 .. k) into one run at the end of file out. */
static int
merge_into(struct ts_sorter *s, const struct sort_run *runs, int k, int out,
    struct sort_run *res)
{
	struct merger m;
	struct run_buf w;
	struct run_reader *t;
	int rc = -1;

	ts_merger_open(s, &m, runs, k);
	w.s = s;
	w.f = out;
	w.cap = merge_buf(s, (size_t)k);
	w.buf = ts_xmalloc(w.cap);
	w.len = 0;
	res->f = out;
	res->off = s->fend[out];
	res->n = 0;
	res->li = ts_run_layout(s);
	if (ts_merger_start(s, &m) < 0)
		goto done;
	while ((t = merger_top(&m)) != NULL) {
		if (ts_wb_record(&w, t->key, t->val, t->tw, t->txt,
		    t->tlen) < 0 || ts_merger_pop(s, &m) < 0)
			goto done;
		res->n++;
	}
	if (ts_wb_flush(&w) < 0)
		goto done;
	res->end = s->fend[out];
	rc = 0;
done:
	free(w.buf);
	ts_merger_close(&m);
	return rc;
}

/*
 * Merge groups of consecutive runs (which keeps ties in input order)
 * until one merge can take them all within the memory limit.
 */
int
ts_merge_levels(struct ts_sorter *s)
{
	size_t fan = s->limit / MERGE_MINBUF - 1, g, k, nn;
	struct sort_run *next;
	int in = 0, out;

	if (fan < 2)
		fan = 2;
	while (s->nruns > fan) {
		out = 1 - in;
		if (s->fd[out] < 0 && ts_tmp_open(s, out) < 0)
			return -1;
		if (ftruncate(s->fd[out], 0) < 0)
			return -1;
		s->fend[out] = 0;
		nn = (s->nruns + fan - 1) / fan;
		next = ts_xcalloc(nn, sizeof(*next));
		for (g = 0; g < nn; g++) {
			k = s->nruns - g * fan < fan ? s->nruns - g * fan :
			    fan;
			if (merge_into(s, s->runs + g * fan, (int)k, out,
			    &next[g]) < 0) {
				free(next);
				return -1;
			}
		}
		free(s->runs);
		s->runs = next;
		s->nruns = s->caprun = nn;
		/* The input file's runs are all merged: free the disk. */
		if (ftruncate(s->fd[in], 0) < 0)
			return -1;
		s->fend[in] = 0;
		in = out;
	}
	return 0;
}
