/*
 * sort_int.h - what the files of the sorter share: its state, the shape
 * of its records, and the small helpers of its inner loops, inline here
 * so that they are inlined in every file that calls them.
 *
 * The sorter sorts entries by their coordinates in a mode priority
 * order: in memory, or, past a memory limit, as sorted runs spilled to
 * a temporary file and merged.  Its files, in the order an entry meets
 * them:
 *
 *	sorter.c	the interface (ts_sorter_*)
 *	keys.c		coordinates packed into keys, repacked when wider
 *	textcode.c	value texts, coded in a record word or in an arena
 *	records.c	the record array: its growth and its prefaulting
 *	radix.c		the radix sort of what is in memory, threaded
 *	inplace.c	the last sort in memory, without a second array
 *	spill.c		sorted runs appended to temporary files
 *	merge.c		the runs merged
 *	dedup.c		the duplicates policies
 *
 * Records.  ts_sorter_add turns each entry into a record of 64-bit words:
 * the key, then the value's bits (when there are values), or with
 * keep_text one word for the value's text instead (the value is parsed
 * from it again when asked for; sums keep both): the text's digits and
 * how they were written (see tc_pack() in textcode.c), or, for a text
 * that is not a plain short number, its offset in an arena (a 32-bit
 * length, then the bytes).  keys.c says how the key is packed.
 *
 * Internal to libtensorsuite (not installed).
 */
#ifndef TS_SORT_INT_H
#define TS_SORT_INT_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tensorsuite.h"
#include "util/xalloc.h"

#define RADIX_BITS	12		/* 4096 buckets: counts fill L1 */
#define MAXPASS		(TS_MAXORDER * 8)
#define MAXTHREADS	16
#define HYBRID_MIN	((size_t)1 << 20)	/* bytes: MSD pass first */
#define BUCKET_RECS	((size_t)16384)	/* per bucket after it */
#define TC_SHIFT	7		/* see tc_pack() */
#define TC_ARENA	((1u << TC_SHIFT) - 1)
#define TC_NLAY		TC_ARENA
#define TC_HASH		256		/* > 2 * TC_NLAY */
#define TC_MAXDIG	40
#define TC_MAXLEN	(1 + TC_MAXDIG + 1 + 2 + 9)
#define TC_TEXT_BEFORE	8		/* see ts_tc_text() */

/* How a key is packed: field j (priority j) has w[j] bits at bit sh[j]. */
struct key_layout {
	int		 nw;		/* key words, >= 1 */
	uint8_t		 w[TS_MAXORDER];
	uint16_t	 sh[TS_MAXORDER];
	uint64_t	 mask[TS_MAXORDER];
};

/* A sorted run in temporary file f, bytes [off, end); its keys are
 * packed by layout li of the sorter's (few) layouts. */
struct sort_run {
	int		 f, li;
	uint64_t	 off, end, n;
};

/* A run being read: a buffer over the file and its current record. */
struct run_reader {
	const struct sort_run *run;
	int		 fd;
	uint64_t	 pos;		/* file offset of the next read */
	uint64_t	 left;		/* records not yet taken */
	char		*buf;
	size_t		 cap, at, len;	/* unread bytes: buf[at, len) */
	bool		 conv;		/* run's packing is not the final */
	uint64_t	*key;		/* current record, final packing */
	uint64_t	 val;
	uint64_t	 tw;		/* its text word; when TC_ARENA: */
	const char	*txt;		/* in buf: valid until the next read */
	uint32_t	 tlen;
};

/* A heap node: the run, and the most significant word of its key, so
 * that most comparisons need no other memory. */
struct heap_node {
	uint64_t	 k;
	int		 i;
};

struct merger {
	struct run_reader	*v;
	int		 k, hn;
	struct heap_node	*heap;
	uint64_t	*keys;		/* k * nw */
	int		 nw;
};

/* A run being written by a thread of its own while entries come. */
struct run_writer {
	pthread_t	 tid;
	bool		 active;
	int		 fd, err;
	const void	*buf;
	size_t		 len;
	uint64_t	 off;
};

/* One group of equal keys, combined by the duplicates policy. */
struct dup_group {
	uint64_t	 key[TS_MAXORDER];
	uint64_t	 val;
	uint64_t	 tw;		/* text word; when TC_ARENA, txt */
	char		*txt;
	uint32_t	 tlen;
	size_t		 tcap;
};

struct ts_sorter {
	struct ts_sort_opts o;
	int		 order;		/* modes */
	int		 rec_words;	/* 64-bit words a record */
	bool		 has_values;
	const struct ts_vtype_info *vt;	/* of the values */
	bool		 is_int;	/* ... ival, not fval */
	bool		 keep_text;	/* value texts, in a record word */
	int		 val_words;	/* a value word: 0 or 1 */
	bool		 novals;	/* fval/ival left unset (texts_only) */
	size_t		 limit;		/* 0: none */
	int		 threads;
	struct key_layout klay;	/* how keys are packed */
	uint64_t	 seen[TS_MAXORDER];	/* OR of coordinates, by prio */
	/* OR and AND of the keys' words since the last run: the bits
	 * that vary, for the radix passes */
	uint64_t	 key_or[TS_MAXORDER], key_and[TS_MAXORDER];
	uint64_t	*rec, *tmp;
	size_t		 n, recsz, tmpsz;	/* records; mapped bytes */
	char		*arena;
	size_t		 alen, asz;
	uint64_t	 total;
	int		 fd[2];
	char		*path[2];	/* when unlink failed */
	uint64_t	 fend[2];
	struct sort_run	*runs;
	size_t		 nruns, caprun;
	struct key_layout	*lays;		/* of the runs */
	int		 nlays;
	struct run_writer	 bg;
	pthread_t	 pf_tid;	/* pf_main(): a thread of its own */
	bool		 pf_active, pf_done;
	int		 state, err;
	uint64_t	 count, pos;
	struct merger	 merger;
	struct dup_group group;	/* the group of equal keys at hand */
	bool		 hasdup;
	uint64_t	 dup[TS_MAXORDER];
	char		*obuf;		/* text of the last batch */
	size_t		 ocap;
	uint64_t	*tc;		/* a batch's text words */
	size_t		 tccap;
	uint64_t	 text_lays[TC_NLAY];	/* how coded texts are
						 * written */
	uint8_t		 text_len[TC_NLAY];	/* their texts' lengths */
	uint8_t		 text_hash[TC_HASH];	/* 1 + index in text_lays */
	unsigned	 ntext_lays;
	unsigned	 text_last;	/* the last layout coded */
};

/* ---- keys.c: coordinates packed into keys ---- */

void	 ts_key_layout_finish(struct key_layout *, int);
int	 ts_run_layout(struct ts_sorter *);
void	 ts_relayout(struct ts_sorter *, const struct key_layout *);

static inline int
bitlen(uint64_t x)
{
	return x == 0 ? 0 : 64 - __builtin_clzll(x);
}

static inline bool
fits(uint64_t x, int w)
{
	return w >= 64 || (x >> w) == 0;
}

static inline bool
key_layout_eq(const struct key_layout *a, const struct key_layout *b, int d)
{
	return a->nw == b->nw && memcmp(a->w, b->w, (size_t)d) == 0;
}

/* Pack coordinates given in priority order (cp) into key[0 .. nw). */
static inline void
key_pack(const struct key_layout *kl, int d, const uint64_t *cp, uint64_t *key)
{
	int j;

	memset(key, 0, (size_t)kl->nw * 8);
	for (j = 0; j < d; j++) {
		unsigned s = kl->sh[j], wi = s >> 6, o = s & 63;

		if (kl->w[j] == 0)
			continue;
		key[wi] |= cp[j] << o;
		if (o != 0 && o + kl->w[j] > 64)
			key[wi + 1] |= cp[j] >> (64 - o);
	}
}

static inline uint64_t
key_field(const struct key_layout *kl, int j, const uint64_t *key)
{
	unsigned s = kl->sh[j], wi = s >> 6, o = s & 63;
	uint64_t v;

	if (kl->w[j] == 0)
		return 0;
	v = key[wi] >> o;
	if (o != 0 && o + kl->w[j] > 64)
		v |= key[wi + 1] << (64 - o);
	return v & kl->mask[j];
}

/* Coordinates in the original mode order from a key. */
static inline void
key_unpack(const struct key_layout *kl, int d, const int *prio,
    const uint64_t *key, uint64_t *c)
{
	int j;

	if (kl->nw == 1) {
		uint64_t k = key[0];

		for (j = 0; j < d; j++)
			c[prio[j]] = (k >> kl->sh[j]) & kl->mask[j];
		return;
	}
	for (j = 0; j < d; j++)
		c[prio[j]] = key_field(kl, j, key);
}

static inline void
key_repack(const struct key_layout *from, const struct key_layout *to, int d,
    const uint64_t *in, uint64_t *out)
{
	uint64_t cp[TS_MAXORDER];
	int j;

	for (j = 0; j < d; j++)
		cp[j] = key_field(from, j, in);
	key_pack(to, d, cp, out);
}

/* Compare keys, most significant word first. */
static inline int
keycmp(const uint64_t *a, const uint64_t *b, int nw)
{
	int w;

	for (w = nw - 1; w >= 0; w--)
		if (a[w] != b[w])
			return a[w] < b[w] ? -1 : 1;
	return 0;
}

static inline bool
keyeq(const uint64_t *a, const uint64_t *b, int nw)
{
	return nw == 1 ? a[0] == b[0] : memcmp(a, b, (size_t)nw * 8) == 0;
}

static inline void
reset_bounds(struct ts_sorter *s)
{
	int w;

	for (w = 0; w < TS_MAXORDER; w++) {
		s->key_or[w] = 0;
		s->key_and[w] = ~(uint64_t)0;
	}
}

/* ---- textcode.c: values and their texts ---- */

int	 ts_tc_len(uint64_t);
int	 ts_tc_text(uint64_t, uint64_t, char *);
uint64_t ts_tc_word(struct ts_sorter *, const char *, uint32_t);
uint64_t ts_arena_put(struct ts_sorter *, const char *, uint32_t);
uint64_t ts_text_val(const struct ts_sorter *, const char *, uint32_t);

static inline uint64_t
dbits(double x)
{
	uint64_t v;

	memcpy(&v, &x, 8);
	return v;
}

/* acc += v by the value type; -1 with errno ERANGE on int64 overflow
 * (checked at every step, in input order). */
static inline int
sum_val(const struct ts_sorter *s, uint64_t *acc, uint64_t v)
{
	if (s->is_int) {
		int64_t r;

		if (__builtin_add_overflow((int64_t)*acc, (int64_t)v, &r)) {
			errno = ERANGE;
			return -1;
		}
		*acc = (uint64_t)r;
	} else {
		double a, x;

		memcpy(&a, acc, 8);
		memcpy(&x, &v, 8);
		a += x;
		memcpy(acc, &a, 8);
	}
	return 0;
}

static inline int
fmt_val(const struct ts_sorter *s, char *buf, uint64_t v)
{
	double x;

	if (s->is_int)
		return ts_fmt_i64(buf, (int64_t)v);
	memcpy(&x, &v, 8);
	return ts_fmt_double(buf, x);
}

/* The text at offset off of the arena, and its length. */
static inline const char *
arena_get(const struct ts_sorter *s, uint64_t off, uint32_t *len)
{
	memcpy(len, s->arena + off, 4);
	return s->arena + off + 4;
}

/* The text word of a text: coded, or in the arena. */
static inline uint64_t
text_put(struct ts_sorter *s, const char *txt, uint32_t len)
{
	uint64_t t = ts_tc_word(s, txt, len);

	if ((t & TC_ARENA) == TC_ARENA)
		t = ts_arena_put(s, txt, len) << TC_SHIFT | TC_ARENA;
	return t;
}

/* The value of record r (its text at txt). */
static inline uint64_t
rec_val(const struct ts_sorter *s, const uint64_t *r, const char *txt,
    uint32_t len)
{
	return s->val_words ? r[s->klay.nw] : ts_text_val(s, txt, len);
}

/* ---- records.c: the record array ---- */

void	 ts_rec_reserve(struct ts_sorter *, size_t);
void	 ts_rec_prefault(struct ts_sorter *, size_t);

/* Wait for the prefault thread: before the array moves or is sorted. */
static inline void
pf_join(struct ts_sorter *s)
{
	if (s->pf_active) {
		pthread_join(s->pf_tid, NULL);
		s->pf_active = false;
	}
}

/* ---- radix.c and inplace.c: sorting what is in memory ---- */

struct radix_pass {
	int		 word, shift;
	uint64_t	 mask;
};

struct sort_barrier {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 n, waiting;
	unsigned	 gen;
};

struct radix_job {
	uint64_t	*a, *b;		/* source and target of pass 0 */
	size_t		 n;
	int		 rec_words, key_words;
	int		 threads, npass;
	int		 npar;		/* passes over the whole array */
	struct radix_pass	 p[MAXPASS];
	uint64_t	 mul;		/* slice of index i: i * mul >> 40 */
	size_t		 lo[MAXTHREADS + 1];
	size_t		 nb;		/* buckets of the widest pass */
	size_t		*cnt;		/* [nt][nb]: this pass, by slice */
	size_t		*off;		/* [nt][nb] */
	size_t		*nh;		/* [nt][nt][nb]: next pass */
	size_t		*bstart;	/* [nb + 1]: buckets of the MSD pass */
	atomic_size_t	 nextb;		/* next bucket to take */
	struct sort_barrier	 bar;
	pthread_mutex_t	 gmu;
	pthread_cond_t	 gcv;
	int		 go;		/* 0 wait, 1 run, -1 quit */
};

int	 ts_rs_plan(const struct ts_sorter *, struct radix_pass *, int);
void	 ts_rs_bucket(const struct radix_job *, int, size_t *, size_t *,
	    uint64_t *, uint64_t *, uint64_t *, size_t, size_t);
void	 ts_radix_sort(struct ts_sorter *);
int	 ts_radix_inplace(struct ts_sorter *);

/* ---- spill.c: runs written to temporary files ---- */

/* A buffered writer appending to temporary file f. */
struct run_buf {
	struct ts_sorter *s;
	int		 f;
	char		*buf;
	size_t		 len, cap;
};

int	 ts_tmp_open(struct ts_sorter *, int);
int	 ts_wb_flush(struct run_buf *);
int	 ts_wb_record(struct run_buf *, const uint64_t *, uint64_t, uint64_t,
	    const char *, uint32_t);
int	 ts_spill(struct ts_sorter *);
int	 ts_bg_wait(struct ts_sorter *);

/* ---- merge.c: runs merged ---- */

void	 ts_merger_open(struct ts_sorter *, struct merger *,
	    const struct sort_run *, int);
int	 ts_merger_start(const struct ts_sorter *, struct merger *);
int	 ts_merger_pop(const struct ts_sorter *, struct merger *);
void	 ts_merger_close(struct merger *);
int	 ts_merge_levels(struct ts_sorter *);

static inline struct run_reader *
merger_top(struct merger *m)
{
	return m->hn > 0 ? &m->v[m->heap[0].i] : NULL;
}

/* ---- dedup.c: the duplicates policies ---- */

int	 ts_merge_group(struct ts_sorter *);
int	 ts_dedup_mem(struct ts_sorter *);

#endif
