/*
 * sorter.c - the sorter's interface (ts_sorter_*): sort entries by their
 * coordinates in a mode priority order: in memory, or, past a memory
 * limit, as sorted runs spilled to a temporary file and merged.
 *
 * An entry becomes a record as it is added (keys.c, textcode.c,
 * records.c); the records are sorted in memory (radix.c, inplace.c) or
 * spilled as runs (spill.c) to be merged (merge.c); they come out in
 * batches, combined by the duplicates policy (dedup.c).  sort_int.h
 * holds what these files share.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "util/bigmem.h"
#include "sort/sort_int.h"

enum { S_ADD, S_MEM, S_MERGE, S_FAIL };

#define MIN_LIMIT	((size_t)64 << 10)

struct ts_sorter *
ts_sorter_new(const struct ts_sort_opts *o)
{
	struct ts_sorter *s;
	bool used[TS_MAXORDER] = { false };
	int j;

	if (o->order < 1 || o->order > TS_MAXORDER) {
		errno = EINVAL;
		return NULL;
	}
	for (j = 0; j < o->order; j++) {
		if (o->prio[j] < 0 || o->prio[j] >= o->order ||
		    used[o->prio[j]]) {
			errno = EINVAL;
			return NULL;
		}
		used[o->prio[j]] = true;
	}
	s = ts_xcalloc(1, sizeof(*s));
	s->o = *o;
	s->order = o->order;
	s->has_values = o->has_values;
	if ((s->vt = ts_vtype_info(o->vtype)) == NULL) {
		free(s);
		errno = EINVAL;
		return NULL;
	}
	s->is_int = s->vt->is_int;
	s->keep_text = o->has_values && o->keep_text;
	/* With its text, a value is kept only when sums need it. */
	s->val_words = s->has_values && (!s->keep_text || o->dups ==
	    TS_DUP_SUM);
	s->novals = s->keep_text && !s->val_words && o->texts_only;
	s->limit = o->mem_limit;
	if (s->limit != 0 && s->limit < MIN_LIMIT)
		s->limit = MIN_LIMIT;
	s->threads = o->threads < 1 ? 1 : o->threads > MAXTHREADS ?
	    MAXTHREADS : o->threads;
	ts_key_layout_finish(&s->klay, s->order);
	s->rec_words = s->klay.nw + s->val_words + s->keep_text;
	reset_bounds(s);
	s->fd[0] = s->fd[1] = -1;
	s->state = S_ADD;
	return s;
}

static int
fail(struct ts_sorter *s)
{
	s->err = errno;
	s->state = S_FAIL;
	return -1;
}

static int
bad_state(const struct ts_sorter *s)
{
	errno = s->state == S_FAIL && s->err != 0 ? s->err : EINVAL;
	return -1;
}

void
ts_sorter_expect(struct ts_sorter *s, uint64_t n)
{
	if (s->state == S_ADD && s->total == 0)
		s->o.expect = n;
}

/* The OR of each mode's coordinates in bor; spelt out for orders 2 and
 * 3 (GCC leaves a loop of three in memory), the ORs in registers. */
static void
or_coords(const uint64_t *c, size_t n, uint64_t *bor, int d)
{
	size_t i;
	int k;

	if (d == 3) {
		uint64_t o0 = 0, o1 = 0, o2 = 0;

		for (i = 0; i < n; i++, c += 3) {
			o0 |= c[0];
			o1 |= c[1];
			o2 |= c[2];
		}
		bor[0] |= o0;
		bor[1] |= o1;
		bor[2] |= o2;
	} else if (d == 2) {
		uint64_t o0 = 0, o1 = 0;

		for (i = 0; i < n; i++, c += 2) {
			o0 |= c[0];
			o1 |= c[1];
		}
		bor[0] |= o0;
		bor[1] |= o1;
	} else
		for (i = 0; i < n; i++)
			for (k = 0; k < d; k++)
				bor[k] |= c[i * (size_t)d + (size_t)k];
}

/* The one-word keys of n entries into the records from base, and their
 * OR and AND; for order 3 spelt out, its priorities and shifts in
 * registers. */
static void
pack_keys(struct ts_sorter *s, const uint64_t *coords, size_t n, size_t base)
{
	const size_t rw = (size_t)s->rec_words;
	const int d = s->order, *prio = s->o.prio;
	uint64_t kor = s->key_or[0], kand = s->key_and[0], key;
	uint64_t *r = s->rec + base;
	const uint64_t *c = coords;
	size_t i;
	int j;

	if (d == 3) {
		const int p0 = prio[0], p1 = prio[1], p2 = prio[2];
		const unsigned s0 = s->klay.sh[0], s1 = s->klay.sh[1];
		const unsigned s2 = s->klay.sh[2];

		for (i = 0; i < n; i++, r += rw, c += 3) {
			key = c[p0] << s0 | c[p1] << s1 | c[p2] << s2;
			r[0] = key;
			kor |= key;
			kand &= key;
		}
	} else
		for (i = 0; i < n; i++, r += rw, c += d) {
			key = 0;
			for (j = 0; j < d; j++)
				key |= c[prio[j]] << s->klay.sh[j];
			r[0] = key;
			kor |= key;
			kand &= key;
		}
	s->key_or[0] = kor;
	s->key_and[0] = kand;
}

int
ts_sorter_add(struct ts_sorter *s, const struct ts_batch *b)
{
	const int d = s->order, *prio = s->o.prio;
	uint64_t bor[TS_MAXORDER] = { 0 }, cp[TS_MAXORDER];
	struct key_layout NL;
	size_t i, bn = b->n, tb = 0, base, cap;
	bool wider = false;
	int j, nw, nrw;

	if (s->state != S_ADD)
		return bad_state(s);
	if (bn == 0)
		return 0;
	if (b->order != d) {
		errno = EINVAL;
		return -1;
	}
	/* Widths first: they decide the record size. */
	or_coords(b->coords, bn, bor, d);
	NL = s->klay;
	for (j = 0; j < d; j++) {
		s->seen[j] |= bor[prio[j]];
		if (!fits(s->seen[j], NL.w[j])) {
			NL.w[j] = (uint8_t)bitlen(s->seen[j]);
			wider = true;
		}
	}
	if (wider)
		ts_key_layout_finish(&NL, d);
	nrw = NL.nw + s->val_words + s->keep_text;
	if (s->keep_text) {
		uint64_t *tc;

		/* Code the texts first: those that cannot be go to the
		 * arena, and their bytes count against the limit. */
		if (s->tccap < bn) {
			free(s->tc);
			s->tc = ts_xreallocarray(NULL, bn, 8);
			s->tccap = bn;
		}
		/* In a register: ts_tc_word() might change s->tc, for all
		 * the compiler knows. */
		tc = s->tc;
		for (i = 0; i < bn; i++) {
			if (b->texts) {
				tc[i] = ts_tc_word(s, b->vtext[i], b->vlen[i]);
				if ((tc[i] & TC_ARENA) == TC_ARENA)
					tb += 4 + (size_t)b->vlen[i];
			} else {
				/* No text to keep (binary input): the
				 * shortest text of the value instead. */
				char buf[TS_NUMBUF];
				int len = fmt_val(s, buf, s->is_int ?
				    (uint64_t)b->ival[i] : dbits(b->fval[i]));

				tc[i] = ts_tc_word(s, buf, (uint32_t)len);
				if ((tc[i] & TC_ARENA) == TC_ARENA)
					tb += 4 + (size_t)len;
			}
		}
	}
	if (s->limit != 0 && s->n != 0 && (s->n + bn) * (size_t)nrw * 16 +
	    s->alen + tb > s->limit && ts_spill(s) < 0)
		return fail(s);
	if (wider)
		ts_relayout(s, &NL);
	if (!s->pf_done && s->o.expect > bn && s->threads > 1 && s->n == 0 &&
	    s->nruns == 0) {
		/* The first batch: map for what is expected, prefault. */
		size_t want = s->o.expect > SIZE_MAX / 64 ? SIZE_MAX / 64 :
		    (size_t)s->o.expect;

		s->pf_done = true;
		if (s->limit != 0 && want > s->limit / ((size_t)nrw * 16))
			want = s->limit / ((size_t)nrw * 16);
		if (want > bn)
			ts_rec_prefault(s, want);
	}
	ts_rec_reserve(s, s->n + bn);
	if (tb != 0 && s->alen + tb > s->asz) {
		size_t nsz = 2 * s->asz;

		if (nsz < s->alen + tb)
			nsz = s->alen + tb;
		if (nsz < ((size_t)64 << 10))
			nsz = (size_t)64 << 10;
		/* Within what the records leave of the limit. */
		cap = 2 * s->n * (size_t)s->rec_words * 8 + bn *
		    (size_t)nrw * 16;
		cap = s->limit > cap ? s->limit - cap : 0;
		if (s->limit != 0 && nsz > cap)
			nsz = cap;
		if (nsz < s->alen + tb)
			nsz = s->alen + tb;
		nsz = ts_big_round(nsz);
		s->arena = ts_big_grow(s->arena, s->asz, nsz);
		s->asz = nsz;
	}
	nw = s->klay.nw;
	base = s->n * (size_t)s->rec_words;
	if (nw == 1)
		/* The common case: one key word. */
		pack_keys(s, b->coords, bn, base);
	else
		for (i = 0; i < bn; i++) {
			const uint64_t *c = b->coords + i * (size_t)d;
			uint64_t *r = s->rec + base + i * (size_t)s->rec_words;
			int w;

			for (j = 0; j < d; j++)
				cp[j] = c[prio[j]];
			key_pack(&s->klay, d, cp, r);
			for (w = 0; w < nw; w++) {
				s->key_or[w] |= r[w];
				s->key_and[w] &= r[w];
			}
		}
	if (s->val_words)
		for (i = 0; i < bn; i++) {
			uint64_t *r = s->rec + base + i * (size_t)s->rec_words;

			r[nw] = s->is_int ? (uint64_t)b->ival[i] :
			    dbits(b->fval[i]);
		}
	if (s->keep_text)
		for (i = 0; i < bn; i++) {
			uint64_t *t = s->rec + base + i *
			    (size_t)s->rec_words + nw + s->val_words;

			if ((s->tc[i] & TC_ARENA) != TC_ARENA)
				*t = s->tc[i];
			else if (b->texts)
				*t = ts_arena_put(s, b->vtext[i], b->vlen[i]) <<
				    TC_SHIFT | TC_ARENA;
			else {
				char buf[TS_NUMBUF];
				int len = fmt_val(s, buf, s->is_int ?
				    (uint64_t)b->ival[i] : dbits(b->fval[i]));

				*t = ts_arena_put(s, buf, (uint32_t)len) <<
				    TC_SHIFT | TC_ARENA;
			}
		}
	s->n += bn;
	s->total += bn;
	return 0;
}

int
ts_sorter_finish(struct ts_sorter *s)
{
	int r;

	if (s->state != S_ADD)
		return bad_state(s);
	if (s->nruns == 0) {
		if (ts_radix_inplace(s) != 0)
			ts_radix_sort(s);
		/* The second array is no longer needed. */
		ts_big_unmap(s->tmp, s->tmpsz);
		s->tmp = NULL;
		s->tmpsz = 0;
		if (s->o.dups != TS_DUP_KEEP) {
			r = ts_dedup_mem(s);
			if (r == -2) {
				s->state = S_FAIL;
				s->err = EINVAL;
				errno = EEXIST;
				return -1;
			}
			if (r < 0)
				return fail(s);
		}
		s->count = s->n;
		s->pos = 0;
		s->state = S_MEM;
		return 0;
	}
	if (ts_spill(s) < 0 || ts_bg_wait(s) < 0)
		return fail(s);
	/* Everything is on disk: give the memory to the merge buffers. */
	ts_big_unmap(s->rec, s->recsz);
	ts_big_unmap(s->tmp, s->tmpsz);
	ts_big_unmap(s->arena, s->asz);
	s->rec = s->tmp = NULL;
	s->arena = NULL;
	s->recsz = s->tmpsz = s->asz = 0;
	if (ts_merge_levels(s) < 0)
		return fail(s);
	ts_merger_open(s, &s->merger, s->runs, (int)s->nruns);
	if (ts_merger_start(s, &s->merger) < 0)
		return fail(s);
	if (s->o.dups == TS_DUP_KEEP)
		s->count = s->total;
	else {
		s->count = 0;
		while ((r = ts_merge_group(s)) == 1)
			s->count++;
		if (r == -2) {
			s->hasdup = true;
			key_unpack(&s->klay, s->order, s->o.prio, s->group.key,
			    s->dup);
			s->state = S_FAIL;
			s->err = EINVAL;
			errno = EEXIST;
			return -1;
		}
		if (r < 0 || ts_merger_start(s, &s->merger) < 0)
			return fail(s);
	}
	s->state = S_MERGE;
	return 0;
}

const uint64_t *
ts_sorter_dup(const struct ts_sorter *s)
{
	return s->hasdup ? s->dup : NULL;
}

uint64_t
ts_sorter_count(const struct ts_sorter *s)
{
	return s->state == S_MEM || s->state == S_MERGE ? s->count : s->total;
}

/* Entry i of b from a key, a value and a text: coded in tw, or when
 * tw is TC_ARENA, txt (the texts are copied, to obuf). */
static void
emit(struct ts_sorter *s, struct ts_batch *b, size_t *olen,
    const uint64_t *key, uint64_t val, uint64_t tw, const char *txt,
    uint32_t tlen)
{
	size_t i = b->n;

	key_unpack(&s->klay, s->order, s->o.prio, key, b->coords + i *
	    (size_t)s->order);
	if (s->keep_text) {
		size_t room = (tw & TC_ARENA) == TC_ARENA ? tlen :
		    TC_MAXLEN + 1;

		if (*olen + room > s->ocap) {
			s->ocap = *olen + room > 2 * s->ocap ? *olen + room :
			    2 * s->ocap;
			s->obuf = ts_xrealloc(s->obuf, s->ocap);
		}
		if ((tw & TC_ARENA) != TC_ARENA) {
			/* Not in place: the bytes before may be written. */
			char t[TC_TEXT_BEFORE + TC_MAXLEN + 1];

			tlen = (uint32_t)ts_tc_text(tw >> TC_SHIFT,
			    s->text_lays[tw & TC_ARENA], t + TC_TEXT_BEFORE);
			memcpy(s->obuf + *olen, t + TC_TEXT_BEFORE, tlen);
		} else if (tlen != 0)
			memcpy(s->obuf + *olen, txt, tlen);
		if (!s->val_words && !s->novals)
			val = ts_text_val(s, s->obuf + *olen, tlen);
		*olen += tlen;
		b->vlen[i] = tlen;
	}
	if (s->has_values && !s->novals) {
		if (s->is_int)
			b->ival[i] = (int64_t)val;
		else
			memcpy(&b->fval[i], &val, 8);
	}
	b->n++;
}

long
ts_sorter_next(struct ts_sorter *s, struct ts_batch *b)
{
	size_t i, olen = 0;
	struct run_reader *t;
	int r;

	if (s->state != S_MEM && s->state != S_MERGE)
		return bad_state(s);
	if (b->order != s->order) {
		errno = EINVAL;
		return -1;
	}
	b->n = 0;
	b->has_values = s->has_values;
	b->is_int = s->is_int;
	b->texts = s->keep_text;
	b->texts_only = s->novals;
	b->file = NULL;
	b->loc_offset = false;
	if (s->state == S_MEM) {
		const int nw = s->klay.nw, rw = s->rec_words;
		size_t n = s->count - s->pos < b->cap ?
		    (size_t)(s->count - s->pos) : b->cap;
		const size_t tw = (size_t)(nw + s->val_words);
		char *o;

		if (s->keep_text && s->ocap < n * (TC_MAXLEN + 1) +
		    TC_TEXT_BEFORE) {
			/* Room for every text of the batch, so that none
			 * moves while the batch is filled, and for what
			 * writing the first may write over before it. */
			free(s->obuf);
			s->ocap = n * (TC_MAXLEN + 1) + TC_TEXT_BEFORE;
			s->obuf = ts_xmalloc(s->ocap);
		}
		for (i = 0; i < n; i++)
			key_unpack(&s->klay, s->order, s->o.prio, s->rec +
			    (s->pos + i) * (size_t)rw, b->coords + i *
			    (size_t)s->order);
		if (s->keep_text) {
			/* The coded texts end to end, in a run that the
			 * printer copies at once: placed by their lengths,
			 * then written back to front, so that what writing
			 * one writes over before it is texts still to be
			 * written. */
			o = s->obuf + TC_TEXT_BEFORE;
			for (i = 0; i < n; i++) {
				uint64_t x = s->rec[(s->pos + i) * (size_t)rw +
				    tw];
				unsigned li = (unsigned)x & TC_ARENA;

				if (li == TC_ARENA)
					b->vtext[i] = arena_get(s, x >> TC_SHIFT,
					    &b->vlen[i]);
				else {
					b->vtext[i] = o;
					b->vlen[i] = s->text_len[li];
					o += b->vlen[i];
				}
			}
			for (i = n; i-- > 0;) {
				uint64_t x = s->rec[(s->pos + i) * (size_t)rw +
				    tw];
				unsigned li = (unsigned)x & TC_ARENA;

				if (li == TC_ARENA)
					continue;
				o -= b->vlen[i];
				(void)ts_tc_text(x >> TC_SHIFT,
				    s->text_lays[li], o);
			}
		}
		if (s->has_values && !s->novals)
			for (i = 0; i < n; i++) {
				const uint64_t *q = s->rec + (s->pos + i) *
				    (size_t)rw;
				uint64_t v = s->keep_text ? rec_val(s, q,
				    b->vtext[i], b->vlen[i]) : q[nw];

				if (s->is_int)
					b->ival[i] = (int64_t)v;
				else
					memcpy(&b->fval[i], &v, 8);
			}
		s->pos += n;
		b->n = n;
		return (long)n;
	}
	while (b->n < b->cap) {
		if (s->o.dups == TS_DUP_KEEP) {
			if ((t = merger_top(&s->merger)) == NULL)
				break;
			emit(s, b, &olen, t->key, t->val, t->tw, t->txt,
			    t->tlen);
			r = ts_merger_pop(s, &s->merger);
		} else {
			r = ts_merge_group(s);
			if (r == 0)
				break;
			if (r == 1)
				emit(s, b, &olen, s->group.key, s->group.val,
				    s->group.tw, s->group.txt, s->group.tlen);
		}
		if (r < 0) {
			if (r == -2)
				errno = EINVAL;	/* not after a count */
			b->n = 0;
			return fail(s);
		}
	}
	if (s->keep_text) {
		/* obuf may have moved while it grew: point at it now. */
		const char *p = s->obuf;

		for (i = 0; i < b->n; i++) {
			b->vtext[i] = p;
			p += b->vlen[i];
		}
	}
	return (long)b->n;
}

void
ts_sorter_free(struct ts_sorter *s)
{
	int i;

	if (s == NULL)
		return;
	pf_join(s);
	ts_bg_wait(s);
	ts_merger_close(&s->merger);
	ts_big_unmap(s->rec, s->recsz);
	ts_big_unmap(s->tmp, s->tmpsz);
	ts_big_unmap(s->arena, s->asz);
	for (i = 0; i < 2; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		if (s->path[i] != NULL) {
			unlink(s->path[i]);
			free(s->path[i]);
		}
	}
	free(s->runs);
	free(s->lays);
	free(s->group.txt);
	free(s->obuf);
	free(s->tc);
	free(s);
}
