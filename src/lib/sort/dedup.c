/*
 * dedup.c - the duplicates policies: equal keys combined, in the
 * merge or in the sorted array in memory.
 *
 * Equal keys come out in input order, so FIRST, LAST and SUM look at
 * one group of equal keys at a time.  The count must be known before
 * the first entry is delivered (text headers start with nnz), so for
 * every policy but KEEP the final merge runs twice: once in
 * ts_sorter_finish to count (which also finds a repeated tuple or an
 * overflow before anything is written), then again to deliver.  That
 * reads the runs twice but writes nothing more.  In memory, the sorted
 * array is compacted in place instead.
 */
#include <string.h>

#include "tensorsuite.h"
#include "sort/sort_int.h"

static void
stage_text(struct dup_group *g, uint64_t tw, const char *t, uint32_t len)
{
	g->tw = tw;
	if ((tw & TC_ARENA) != TC_ARENA)
		return;		/* coded: the word says it all */
	if (len > g->tcap) {
		g->tcap = len > 2 * g->tcap ? len : 2 * g->tcap;
		g->txt = ts_xrealloc(g->txt, g->tcap);
	}
	if (len != 0)
		memcpy(g->txt, t, len);
	g->tlen = len;
}

/*
 * Take the next group of equal keys from the merge into s->group, combined
 * by the duplicates policy.  Returns 1, 0 at the end, -1 with errno, or
 * -2 for a repeated tuple under TS_DUP_ERROR (s->group.key holds it).
 */
int
ts_merge_group(struct ts_sorter *s)
{
	struct merger *m = &s->merger;
	struct dup_group *g = &s->group;
	struct run_reader *t = merger_top(m);
	size_t k = 1;

	if (t == NULL)
		return 0;
	memcpy(g->key, t->key, (size_t)m->nw * 8);
	g->val = t->val;
	if (s->keep_text)
		stage_text(g, t->tw, t->txt, t->tlen);
	if (ts_merger_pop(s, m) < 0)
		return -1;
	while ((t = merger_top(m)) != NULL && keyeq(t->key, g->key, m->nw)) {
		switch (s->o.dups) {
		case TS_DUP_ERROR:
			return -2;
		case TS_DUP_LAST:
			g->val = t->val;
			if (s->keep_text)
				stage_text(g, t->tw, t->txt, t->tlen);
			break;
		case TS_DUP_SUM:
			if (s->has_values && sum_val(s, &g->val, t->val) < 0)
				return -1;
			break;
		default:
			break;
		}
		k++;
		if (ts_merger_pop(s, m) < 0)
			return -1;
	}
	if (s->o.dups == TS_DUP_SUM && s->keep_text && k > 1) {
		char buf[TS_NUMBUF];

		stage_text(g, TC_ARENA, buf, (uint32_t)fmt_val(s, buf,
		    g->val));
	}
	return 1;
}

/* Records [from, to) of s moved down to *o, which moves on past them. */
static void
move_span(struct ts_sorter *s, size_t *o, size_t from, size_t to)
{
	const size_t rw = (size_t)s->rec_words;

	if (*o != from && to > from)
		memmove(s->rec + *o * rw, s->rec + from * rw, (to - from) *
		    rw * 8);
	*o += to - from;
}

/*
 * The group of equal keys [g, j) of s combined by the policy into the
 * record at o (at or before g): 0, -1 with errno, -2 under TS_DUP_ERROR.
 */
static int
combine(struct ts_sorter *s, size_t g, size_t j, size_t o)
{
	const int nw = s->klay.nw, rw = s->rec_words;
	const uint64_t *r = s->rec + g * (size_t)rw;
	uint64_t *q = s->rec + o * (size_t)rw, acc;
	char buf[TS_NUMBUF];
	size_t u;

	switch (s->o.dups) {
	case TS_DUP_ERROR:
		s->hasdup = true;
		key_unpack(&s->klay, s->order, s->o.prio, r, s->dup);
		return -2;
	case TS_DUP_LAST:
		r = s->rec + (j - 1) * (size_t)rw;
		break;
	case TS_DUP_SUM:
		/* Records keep their value word (vw). */
		if (!s->has_values)
			break;
		acc = r[nw];
		for (u = g + 1; u < j; u++)
			if (sum_val(s, &acc, s->rec[u * (size_t)rw +
			    (size_t)nw]) < 0)
				return -1;
		if (q != r)
			memmove(q, r, (size_t)rw * 8);
		q[nw] = acc;
		if (s->keep_text)
			q[nw + 1] = text_put(s, buf, (uint32_t)fmt_val(s, buf,
			    acc));
		return 0;
	default:
		break;
	}
	if (q != r)
		memmove(q, r, (size_t)rw * 8);
	return 0;
}

/*
 * Apply the policy to the sorted array in memory, compacting it: the
 * records between two groups of equal keys move down in one piece (the
 * groups are few, or none, in most tensors), each group becomes one.
 */
int
ts_dedup_mem(struct ts_sorter *s)
{
	const int nw = s->klay.nw, rw = s->rec_words;
	const uint64_t *rec = s->rec;
	size_t g, j = 1, o = 0, span = 0;
	int r;

	while (j < s->n) {
		/* The next key equal to the one before it: a group. */
		if (nw == 1)
			while (j < s->n && rec[j * (size_t)rw] !=
			    rec[(j - 1) * (size_t)rw])
				j++;
		else
			while (j < s->n && !keyeq(rec + j * (size_t)rw, rec +
			    (j - 1) * (size_t)rw, nw))
				j++;
		if (j == s->n)
			break;
		g = j - 1;
		while (j < s->n && keyeq(rec + j * (size_t)rw, rec + g *
		    (size_t)rw, nw))
			j++;
		move_span(s, &o, span, g);
		if ((r = combine(s, g, j, o)) != 0)
			return r;
		o++;
		span = j++;
	}
	move_span(s, &o, span, s->n);
	s->n = o;
	return 0;
}
