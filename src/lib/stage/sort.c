/*
 * sort.c - sort entries by their coordinates in a mode priority order: in
 * memory, or, past a memory limit, as sorted runs spilled to a temporary
 * file and merged.
 *
 * Records.  ts_sorter_add turns each entry into a record of 64-bit words:
 * the key, then the value's bits (when there are values), or with
 * keep_text one word for the value's text instead (the value is parsed
 * from it again when asked for; sums keep both): the text's digits and
 * how they were written (see tc_pack()), or, for a text that is not a
 * plain short number, its offset in an arena (a 32-bit length, then the
 * bytes).  The key is the coordinates in priority order, bit-
 * packed with each field as wide as the largest coordinate seen so far in
 * its mode, least significant word first: an order-3 tensor with
 * dimensions below 2000 needs 33 bits, so a record with a value takes 16
 * bytes instead of 32.  When a batch brings a coordinate wider than its
 * field, the records in memory are repacked; fields only widen, one bit
 * at least each time, so this is rare (a few times per mode for sorted
 * input, where it happens while there is little to repack).
 *
 * In memory.  An LSD radix sort, stable by construction, over only the
 * key bits that vary (the OR and AND of all keys are kept as records
 * come): in each key word, the span from the lowest to the highest bit
 * that varies is cut into equal digits of at most RADIX_BITS bits, so
 * that 33 varying bits take 3 passes.  Past a few MiB, passes over an
 * array far larger than the caches are what cost, so the most
 * significant digit goes first: one pass splits the array into buckets
 * of about BUCKET_RECS records, and the LSD passes then sort each bucket
 * while it sits in one core's cache.  With threads, a pass over the
 * whole array is split: thread t scatters its own slice to offsets from
 * a prefix sum over all threads' counts (which keeps it stable), and
 * counts the next pass's digits by destination slice as it writes;
 * then the threads take buckets as they become free.  That takes a
 * second array as large as the records; the last sort of a tensor that
 * never spilled does without it (radix_inplace(): the MSD pass in
 * chunks, in place), which halves the memory of a sort in memory.
 *
 * Spilling.  Records, the radix sort's second array and the arena are
 * kept within mem_limit; past it, the records in memory are sorted and
 * appended as a run to a temporary file, unlinked as soon as it is
 * created so nothing is left behind.  A run is the sorted records as
 * they are in memory, each text that is in the arena following its
 * record; with threads, a run without such texts is written by a thread
 * of its own while the next entries come.  A run
 * keeps the packing in force when it was written and is repacked to the
 * final one as it is read.  The merge reads each run through its own
 * buffer and takes the smallest key from a binary heap, ties going to
 * the older run, which keeps the sort stable.  When buffers for all runs
 * would not fit in mem_limit, groups of consecutive runs are first
 * merged into longer runs in a second file (ping-pong between the two).
 *
 * Duplicates.  Equal keys come out in input order, so FIRST, LAST and SUM
 * look at one group of equal keys at a time.  The count must be known
 * before the first entry is delivered (text headers start with nnz), so
 * for every policy but KEEP the final merge runs twice: once in
 * ts_sorter_finish to count (which also finds a repeated tuple or an
 * overflow before anything is written), then again to deliver.  That
 * reads the runs twice but writes nothing more.  In memory, the sorted
 * array is compacted in place instead.
 */
#include <sys/types.h>
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "num/digits.h"
#include "format/scan.h"
#include "util/bigmem.h"

#define RADIX_BITS	11		/* 2048 buckets: counts fit in L1 */
#define MAXPASS		(TS_MAXORDER * 8)
#define MAXTHREADS	16
#define PAR_MIN		((size_t)1 << 16)	/* fewer records: 1 thread */
#define MIN_LIMIT	((size_t)64 << 10)
#define MERGE_MINBUF	((size_t)16 << 10)
#define MERGE_MAXBUF	((size_t)4 << 20)
#define SPILL_BUF	((size_t)1 << 20)
#define SLICE_SHIFT	40		/* see rs_split() */
#define HYBRID_MIN	((size_t)1 << 20)	/* bytes: MSD pass first */
#define BUCKET_RECS	((size_t)16384)	/* per bucket after it */
#define TC_SHIFT	7		/* see tc_pack() */
#define TC_ARENA	((1u << TC_SHIFT) - 1)
#define TC_NLAY		TC_ARENA
#define TC_HASH		256		/* > 2 * TC_NLAY */

enum { S_ADD, S_MEM, S_MERGE, S_FAIL };

/* How a key is packed: field j (priority j) has w[j] bits at bit sh[j]. */
struct layout {
	int		 nw;		/* key words, >= 1 */
	uint8_t		 w[TS_MAXORDER];
	uint16_t	 sh[TS_MAXORDER];
	uint64_t	 mask[TS_MAXORDER];
};

/* A sorted run in temporary file f, bytes [off, end); its keys are
 * packed by layout li of the sorter's (few) layouts. */
struct run {
	int		 f, li;
	uint64_t	 off, end, n;
};

/* A run being read: a buffer over the file and its current record. */
struct src {
	const struct run *run;
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
struct hnode {
	uint64_t	 k;
	int		 i;
};

struct merger {
	struct src	*v;
	int		 k, hn;
	struct hnode	*heap;
	uint64_t	*keys;		/* k * nw */
	int		 nw;
};

/* A run being written by a thread of its own while entries come. */
struct bgwrite {
	pthread_t	 tid;
	bool		 active;
	int		 fd, err;
	const void	*buf;
	size_t		 len;
	uint64_t	 off;
};

/* One group of equal keys, combined by the duplicates policy. */
struct stage {
	uint64_t	 key[TS_MAXORDER];
	uint64_t	 val;
	uint64_t	 tw;		/* text word; when TC_ARENA, txt */
	char		*txt;
	uint32_t	 tlen;
	size_t		 tcap;
};

struct ts_sorter {
	struct ts_sort_opts o;
	int		 d, rw;
	bool		 hv, kt;	/* values; their texts (a record word) */
	int		 vw;		/* a value word: 0 or 1 */
	bool		 novals;	/* fval/ival left unset (texts_only) */
	size_t		 limit;		/* 0: none */
	int		 nt;		/* threads */
	struct layout	 L;
	uint64_t	 seen[TS_MAXORDER];	/* OR of coordinates, by prio */
	uint64_t	 kor[TS_MAXORDER], kand[TS_MAXORDER];
	uint64_t	*rec, *tmp;
	size_t		 n, recsz, tmpsz;	/* records; mapped bytes */
	char		*arena;
	size_t		 alen, asz;
	uint64_t	 total;
	int		 fd[2];
	char		*path[2];	/* when unlink failed */
	uint64_t	 fend[2];
	struct run	*runs;
	size_t		 nruns, caprun;
	struct layout	*lays;		/* of the runs */
	int		 nlays;
	struct bgwrite	 bg;
	pthread_t	 pf_tid;	/* prefault(): a thread of its own */
	bool		 pf_active, pf_done;
	int		 state, err;
	uint64_t	 count, pos;
	struct merger	 m;
	struct stage	 g;
	bool		 hasdup;
	uint64_t	 dup[TS_MAXORDER];
	char		*obuf;		/* text of the last batch */
	size_t		 ocap;
	uint64_t	*tc;		/* a batch's text words */
	size_t		 tccap;
	uint64_t	 tlay[TC_NLAY];	/* how coded texts are written */
	uint8_t		 thash[TC_HASH];	/* 1 + index in tlay */
	unsigned	 ntlay, tlast;
};

static inline uint64_t
dbits(double x)
{
	uint64_t v;

	memcpy(&v, &x, 8);
	return v;
}

/* ---- keys ---- */

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

/* Place the fields, the last priority at bit 0. */
static void
layout_finish(struct layout *L, int d)
{
	int j, off = 0;

	for (j = d - 1; j >= 0; j--) {
		L->sh[j] = L->w[j] != 0 ? (uint16_t)off : 0;
		L->mask[j] = L->w[j] >= 64 ? ~(uint64_t)0 :
		    ((uint64_t)1 << L->w[j]) - 1;
		off += L->w[j];
	}
	L->nw = off == 0 ? 1 : (off + 63) / 64;
}

static bool
layout_eq(const struct layout *a, const struct layout *b, int d)
{
	return a->nw == b->nw && memcmp(a->w, b->w, (size_t)d) == 0;
}

/* Pack coordinates given in priority order (cp) into key[0 .. nw). */
static inline void
pack(const struct layout *L, int d, const uint64_t *cp, uint64_t *key)
{
	int j;

	memset(key, 0, (size_t)L->nw * 8);
	for (j = 0; j < d; j++) {
		unsigned s = L->sh[j], wi = s >> 6, o = s & 63;

		if (L->w[j] == 0)
			continue;
		key[wi] |= cp[j] << o;
		if (o != 0 && o + L->w[j] > 64)
			key[wi + 1] |= cp[j] >> (64 - o);
	}
}

static inline uint64_t
field(const struct layout *L, int j, const uint64_t *key)
{
	unsigned s = L->sh[j], wi = s >> 6, o = s & 63;
	uint64_t v;

	if (L->w[j] == 0)
		return 0;
	v = key[wi] >> o;
	if (o != 0 && o + L->w[j] > 64)
		v |= key[wi + 1] << (64 - o);
	return v & L->mask[j];
}

/* Coordinates in the original mode order from a key. */
static inline void
unpack(const struct layout *L, int d, const int *prio, const uint64_t *key,
    uint64_t *c)
{
	int j;

	if (L->nw == 1) {
		uint64_t k = key[0];

		for (j = 0; j < d; j++)
			c[prio[j]] = (k >> L->sh[j]) & L->mask[j];
		return;
	}
	for (j = 0; j < d; j++)
		c[prio[j]] = field(L, j, key);
}

static void
repack_key(const struct layout *from, const struct layout *to, int d,
    const uint64_t *in, uint64_t *out)
{
	uint64_t cp[TS_MAXORDER];
	int j;

	for (j = 0; j < d; j++)
		cp[j] = field(from, j, in);
	pack(to, d, cp, out);
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

/* ---- values ---- */

/* acc += v by the value type; -1 with errno ERANGE on int64 overflow
 * (checked at every step, in input order). */
static int
sum_val(const struct ts_sorter *s, uint64_t *acc, uint64_t v)
{
	if (s->o.is_int) {
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

static int
fmt_val(const struct ts_sorter *s, char *buf, uint64_t v)
{
	double x;

	if (s->o.is_int)
		return ts_fmt_i64(buf, (int64_t)v);
	memcpy(&x, &v, 8);
	return ts_fmt_double(buf, x);
}

/*
 * Value texts.  With keep_text, a value's text is kept in one record
 * word rather than as bytes in the arena whenever it is a plain decimal
 * literal of at most 17 significant digits, as the shortest text of any
 * float64 is: the word holds the digits as an integer, shifted left by
 * TC_SHIFT bits, and below them the index of how they were written in a
 * small table of the sorter's.  How they were written is a word of its
 * own (the table holds TC_NLAY of them; a file rarely needs more than
 * a few dozen):
 *
 *	bits 1-2	sign: none, '-', '+'
 *	bits 3-8	digit characters, leading zeros included
 *	bits 9-14	of which after the '.'
 *	bit 15		a '.'
 *	bit 16		an exponent; bit 17: its marker is 'E', not 'e'
 *	bits 18-19	the exponent's sign: none, '-', '+'
 *	bits 20-23	the exponent's digit characters (1 to 9)
 *	bits 32-63	the exponent's value
 *
 * The text then costs no arena bytes, and is written out again from the
 * record itself, byte for byte, with no scattered reads of an arena.
 * Anything else (inf, nan, more digits, other bytes, a table full) goes
 * to the arena: index TC_ARENA, and the word holds the offset.
 */
#define TC_DOT		((uint64_t)1 << 15)
#define TC_EXP		((uint64_t)1 << 16)
#define TC_EXPUP	((uint64_t)1 << 17)
#define TC_MAXDIG	40
#define TC_MAXLEN	(1 + TC_MAXDIG + 1 + 2 + 9)

/*
 * Code the text [p, p + len): its digits in *w, how they are written in
 * *lay.  false when it cannot be.
 */
static bool
tc_pack(const char *p, uint32_t len, bool is_int, uint64_t *w,
    uint64_t *lay)
{
	const char *e = p + len, *s, *f;
	uint64_t l = 0, ev = 0, x = 0;
	int nd, sig, nf = 0, ed = 0;

	if (len > TC_MAXLEN)
		return false;
	if (p != e && (*p == '-' || *p == '+'))
		l |= (uint64_t)(*p++ == '-' ? 1 : 2) << 1;
	s = p;
	while (p != e && *p == '0')	/* leading zeros add nothing */
		p++;
	f = p;
	p = ts_scan_digits(p, e, &x);	/* past 19 digits x is junk, */
	sig = (int)(p - f);		/* but then sig says so */
	nd = (int)(p - s);
	if (p != e && *p == '.' && !is_int) {
		const char *q = ++p;

		l |= TC_DOT;
		if (sig == 0)
			while (p != e && *p == '0')
				p++;
		f = p;
		p = ts_scan_digits(p, e, &x);
		sig += (int)(p - f);
		nf = (int)(p - q);
		nd += nf;
	}
	/* At most 17 significant digits keep x below 2^57. */
	if (sig > 17 || nd == 0 || nd > TC_MAXDIG)
		return false;
	if (p != e && (*p == 'e' || *p == 'E') && !is_int) {
		l |= TC_EXP | (*p == 'E' ? TC_EXPUP : 0);
		if (++p != e && (*p == '-' || *p == '+'))
			l |= (uint64_t)(*p++ == '-' ? 1 : 2) << 18;
		for (; p != e && ts_isdigit(*p); p++, ed++) {
			if (ed == 9)
				return false;
			ev = ev * 10 + (uint64_t)(*p - '0');
		}
		if (ed == 0)
			return false;
	}
	if (p != e)
		return false;
	*w = x;
	*lay = l | (uint64_t)nd << 3 | (uint64_t)nf << 9 |
	    (uint64_t)ed << 20 | ev << 32;
	return true;
}

/* Write the text of digits w written as lay to buf (TC_MAXLEN + 1). */
static int
tc_text(uint64_t w, uint64_t lay, char *buf)
{
	const int nd = (int)(lay >> 3) & 63, nf = (int)(lay >> 9) & 63;
	int sg = (int)(lay >> 1) & 3;
	char *p = buf;

	if (sg != 0)
		*p++ = sg == 1 ? '-' : '+';
	ts_fmt_u64_width(p, w, nd);
	if (lay & TC_DOT) {
		memmove(p + nd - nf + 1, p + nd - nf, (size_t)nf);
		p[nd - nf] = '.';
		p++;
	}
	p += nd;
	if (lay & TC_EXP) {
		*p++ = (lay & TC_EXPUP) ? 'E' : 'e';
		if ((sg = (int)(lay >> 18) & 3) != 0)
			*p++ = sg == 1 ? '-' : '+';
		p += ts_fmt_u64_width(p, lay >> 32, (int)(lay >> 20) & 15);
	}
	return (int)(p - buf);
}

/* The index of lay in the sorter's table, added if new; TC_ARENA when
 * the table is full. */
static unsigned
tc_index(struct ts_sorter *s, uint64_t lay)
{
	unsigned h;

	if (s->tlay[s->tlast] == lay && s->ntlay != 0)
		return s->tlast;
	h = (unsigned)((lay * 0x9E3779B97F4A7C15u) >> 56);
	for (;; h = (h + 1) % TC_HASH) {
		unsigned i = s->thash[h];

		if (i == 0)
			break;
		if (s->tlay[i - 1] == lay)
			return s->tlast = i - 1;
	}
	if (s->ntlay == TC_NLAY)
		return TC_ARENA;
	s->tlay[s->ntlay] = lay;
	s->thash[h] = (uint8_t)++s->ntlay;
	return s->tlast = s->ntlay - 1;
}

/* The text word of [p, p + len), or TC_ARENA when it must go there. */
static uint64_t
tc_word(struct ts_sorter *s, const char *p, uint32_t len)
{
	uint64_t w, lay;

	if (!tc_pack(p, len, s->o.is_int, &w, &lay))
		return TC_ARENA;
	return w << TC_SHIFT | tc_index(s, lay);
}

/* Append a text to the arena; returns its offset. */
static uint64_t
arena_put(struct ts_sorter *s, const char *t, uint32_t len)
{
	size_t need = s->alen + 4 + len;
	uint64_t off = s->alen;

	if (need > s->asz) {
		size_t nsz = ts_big_round(need > 2 * s->asz ? need :
		    2 * s->asz);

		s->arena = ts_big_grow(s->arena, s->asz, nsz);
		s->asz = nsz;
	}
	memcpy(s->arena + s->alen, &len, 4);
	if (len != 0)
		memcpy(s->arena + s->alen + 4, t, len);
	s->alen = need;
	return off;
}

/* The text at offset off of the arena, and its length. */
static inline const char *
arena_get(const struct ts_sorter *s, uint64_t off, uint32_t *len)
{
	memcpy(len, s->arena + off, 4);
	return s->arena + off + 4;
}

/* The text word of a text: coded, or in the arena. */
static uint64_t
text_put(struct ts_sorter *s, const char *txt, uint32_t len)
{
	uint64_t t = tc_word(s, txt, len);

	if ((t & TC_ARENA) == TC_ARENA)
		t = arena_put(s, txt, len) << TC_SHIFT | TC_ARENA;
	return t;
}

/* The text of record r: in the arena, or written to buf. */
static const char *
rec_text(const struct ts_sorter *s, const uint64_t *r, char *buf,
    uint32_t *len)
{
	const uint64_t t = r[s->L.nw + s->vw];
	const unsigned li = (unsigned)t & TC_ARENA;

	if (li == TC_ARENA)
		return arena_get(s, t >> TC_SHIFT, len);
	*len = (uint32_t)tc_text(t >> TC_SHIFT, s->tlay[li], buf);
	return buf;
}

/*
 * The value of a text, as the reader parsed it (keep_text promises that
 * each value is what its text says).
 */
static uint64_t
text_val(const struct ts_sorter *s, const char *t, uint32_t len)
{
	const char *p = t, *e = t + len;
	uint64_t v = 0;

	if (s->o.is_int) {
		bool neg = p != e && *p == '-';

		p += p != e && (*p == '-' || *p == '+');
		(void)parse_u64(&p, e, &v);
		return neg ? 0 - v : v;
	}
	if (s->o.is_float32) {
		float f = 0;
		double x;

		(void)ts_parse_float(p, e, &f);
		x = f;
		memcpy(&v, &x, 8);
	} else {
		double x = 0;

		(void)ts_parse_double(p, e, &x);
		memcpy(&v, &x, 8);
	}
	return v;
}

/* The value of record r (its text at txt, from rec_text). */
static inline uint64_t
rec_val(const struct ts_sorter *s, const uint64_t *r, const char *txt,
    uint32_t len)
{
	return s->vw ? r[s->L.nw] : text_val(s, txt, len);
}

/* ---- prefaulting ---- */

/*
 * The first write to a page of fresh memory costs more than anything
 * else the sorter does with it: the kernel must find and clear the page
 * (and on a virtual machine the host may have to back it first).  When
 * the caller says how many entries to expect, the record array is mapped
 * for them at once, and a thread of its own makes its pages present
 * (MADV_POPULATE_WRITE, which leaves their contents alone) while the
 * caller is still reading and parsing: the clearing moves to an
 * otherwise idle core.
 */
#define PF_CHUNK	((size_t)32 << 20)

static void *
pf_main(void *arg)
{
#ifdef MADV_POPULATE_WRITE
	const struct ts_sorter *s = arg;
	char *a = (char *)s->rec;
	size_t off, k;

	for (off = 0; off < s->recsz; off += k) {
		k = s->recsz - off < PF_CHUNK ? s->recsz - off : PF_CHUNK;
		if (madvise(a + off, k, MADV_POPULATE_WRITE) != 0)
			return NULL;	/* a hint: give up */
	}
#else
	(void)arg;
#endif
	return NULL;
}

/* Wait for the prefault thread: before the array moves or is sorted. */
static void
pf_join(struct ts_sorter *s)
{
	if (s->pf_active) {
		pthread_join(s->pf_tid, NULL);
		s->pf_active = false;
	}
}

/* ---- radix sort ---- */

struct pass {
	int		 word, shift;
	uint64_t	 mask;
};

struct barrier {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 n, waiting;
	unsigned	 gen;
};

struct rsort {
	uint64_t	*a, *b;		/* source and target of pass 0 */
	size_t		 n;
	int		 rw, kw, nt, np;	/* record, key words */
	int		 npar;		/* passes over the whole array */
	struct pass	 p[MAXPASS];
	uint64_t	 mul;		/* slice of index i: i * mul >> 40 */
	size_t		 lo[MAXTHREADS + 1];
	size_t		 nb;		/* buckets of the widest pass */
	size_t		*cnt;		/* [nt][nb]: this pass, by slice */
	size_t		*off;		/* [nt][nb] */
	size_t		*nh;		/* [nt][nt][nb]: next pass */
	size_t		*bstart;	/* [nb + 1]: buckets of the MSD pass */
	atomic_size_t	 nextb;		/* next bucket to take */
	struct barrier	 bar;
	pthread_mutex_t	 gmu;
	pthread_cond_t	 gcv;
	int		 go;		/* 0 wait, 1 run, -1 quit */
};

struct rs_arg {
	struct rsort	*r;
	int		 t;
};

static void
bar_wait(struct barrier *b)
{
	unsigned gen;

	if (b->n <= 1)
		return;
	pthread_mutex_lock(&b->mu);
	gen = b->gen;
	if (++b->waiting == b->n) {
		b->waiting = 0;
		b->gen++;
		pthread_cond_broadcast(&b->cv);
	} else
		while (gen == b->gen)
			pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
}

/*
 * Cut [0, n) into nt slices.  Destination indices are mapped to slices
 * with a multiply and a shift rather than a division, in the scatter's
 * inner loop; the slice bounds are whatever that map gives, which is
 * within one index per 2^40 / n of an even split.
 */
static void
rs_split(struct rsort *r, int nt)
{
	int t;

	r->nt = nt;
	r->mul = ((uint64_t)nt << SLICE_SHIFT) / r->n;
	r->lo[0] = 0;
	for (t = 1; t < nt; t++) {
		uint64_t x = ((uint64_t)t << SLICE_SHIFT) + r->mul - 1;

		r->lo[t] = r->mul == 0 ? r->n : (size_t)(x / r->mul);
		if (r->lo[t] > r->n)
			r->lo[t] = r->n;
	}
	r->lo[nt] = r->n;
}

/* Move records [lo, hi) of src to dst by digit P; with NEXT, count the
 * next pass's digit N of each record by the slice it lands in. */
static inline __attribute__((always_inline)) void
scatter(const uint64_t *restrict src, uint64_t *restrict dst, size_t lo,
    size_t hi, const int rw, const struct pass *P, const bool next,
    const struct pass *N, size_t *restrict off, size_t *restrict nh,
    uint64_t mul, size_t nb)
{
	const int pw = P->word, ps = P->shift;
	const uint64_t pm = P->mask;
	const int nwd = next ? N->word : 0, ns = next ? N->shift : 0;
	const uint64_t nm = next ? N->mask : 0;
	size_t i, j;
	int w;

	for (i = lo; i < hi; i++) {
		const uint64_t *s = src + i * (size_t)rw;
		uint64_t *q;

		j = off[(s[pw] >> ps) & pm]++;
		q = dst + j * (size_t)rw;
		for (w = 0; w < rw; w++)
			q[w] = s[w];
		if (next)
			nh[((j * mul) >> SLICE_SHIFT) * nb +
			    ((s[nwd] >> ns) & nm)]++;
	}
}

static void
rs_scatter(const struct rsort *r, const uint64_t *src, uint64_t *dst,
    size_t lo, size_t hi, const struct pass *P, const struct pass *N,
    size_t *off, size_t *nh)
{
	const uint64_t mul = r->mul;
	const size_t nb = r->nb;

#define SC(RW, NX)	scatter(src, dst, lo, hi, RW, P, NX, N, off, nh, \
			    mul, nb)
	if (N != NULL)
		switch (r->rw) {
		case 1: SC(1, true); break;
		case 2: SC(2, true); break;
		case 3: SC(3, true); break;
		case 4: SC(4, true); break;
		default: SC(r->rw, true); break;
		}
	else
		switch (r->rw) {
		case 1: SC(1, false); break;
		case 2: SC(2, false); break;
		case 3: SC(3, false); break;
		case 4: SC(4, false); break;
		default: SC(r->rw, false); break;
		}
#undef SC
}

/* Stable insertion sort of records [lo, hi) of a by key: for the tiny
 * buckets, where counting would cost more than it saves. */
static void
rs_insert(const struct rsort *r, int nw, uint64_t *a, size_t lo, size_t hi)
{
	const size_t rw = (size_t)r->rw;
	uint64_t x[TS_MAXORDER + 2];
	size_t i, j;

	for (i = lo + 1; i < hi; i++) {
		if (keycmp(a + (i - 1) * rw, a + i * rw, nw) <= 0)
			continue;
		memcpy(x, a + i * rw, rw * 8);
		for (j = i; j > lo && keycmp(a + (j - 1) * rw, x, nw) > 0; j--)
			memcpy(a + j * rw, a + (j - 1) * rw, rw * 8);
		memcpy(a + j * rw, x, rw * 8);
	}
}

/*
 * Sort bucket [lo, hi) of src (the MSD pass has put it there) on the
 * remaining digits, ending in tgt (src or dst).  The bucket is small
 * enough to stay in this core's cache for all its passes.
 */
static void
rs_bucket(const struct rsort *r, int nw, size_t *cnt, size_t *off,
    uint64_t *src, uint64_t *dst, uint64_t *tgt, size_t lo, size_t hi)
{
	const size_t rw = (size_t)r->rw;
	size_t i, b, run;
	uint64_t *x;
	int p;

	if (hi - lo <= 32)
		rs_insert(r, nw, src, lo, hi);
	else
		for (p = 0; p < r->np - 1; p++) {
			const struct pass *P = &r->p[p];

			memset(cnt, 0, (P->mask + 1) * sizeof(*cnt));
			for (i = lo; i < hi; i++)
				cnt[(src[i * rw + P->word] >> P->shift) &
				    P->mask]++;
			run = lo;
			for (b = 0; b <= P->mask; b++) {
				if (cnt[b] == hi - lo)
					break;	/* one digit: nothing to do */
				off[b] = run;
				run += cnt[b];
			}
			if (b <= P->mask)
				continue;
			rs_scatter(r, src, dst, lo, hi, P, NULL, off, NULL);
			x = src;
			src = dst;
			dst = x;
		}
	if (src != tgt)
		memcpy(tgt + lo * rw, src + lo * rw, (hi - lo) * rw * 8);
}

/* Thread t's share of the sort. */
static void
rs_work(struct rsort *r, int t)
{
	const size_t nb = r->nb;
	const int nt = r->nt, rw = r->rw;
	size_t *mine = r->cnt + (size_t)t * nb, *off = r->off + (size_t)t * nb;
	size_t *nh = r->nh + (size_t)t * (size_t)nt * nb;
	size_t i, b, run, lo = r->lo[t], hi = r->lo[t + 1];
	uint64_t *src = r->a, *dst = r->b, *x;
	const struct pass *P = &r->p[r->np - r->npar];
	int p, u;

	memset(mine, 0, nb * sizeof(*mine));
	for (i = lo; i < hi; i++)
		mine[(src[i * (size_t)rw + P->word] >> P->shift) & P->mask]++;
	for (p = r->np - r->npar; p < r->np; p++) {
		const struct pass *N = p + 1 < r->np ? &r->p[p + 1] : NULL;

		P = &r->p[p];
		bar_wait(&r->bar);
		/* Bucket b of slice t goes after bucket b of slices < t. */
		run = 0;
		for (b = 0; b <= P->mask; b++)
			for (u = 0; u < nt; u++) {
				if (u == t)
					off[b] = run;
				run += r->cnt[(size_t)u * nb + b];
			}
		if (t == 0 && r->bstart != NULL) {
			memcpy(r->bstart, off, (P->mask + 1) * sizeof(*off));
			r->bstart[P->mask + 1] = r->n;
		}
		if (N != NULL)
			memset(nh, 0, (size_t)nt * nb * sizeof(*nh));
		rs_scatter(r, src, dst, r->lo[t], r->lo[t + 1], P, N, off, nh);
		bar_wait(&r->bar);
		if (N != NULL)
			for (b = 0; b <= N->mask; b++) {
				size_t sum = 0;

				for (u = 0; u < nt; u++)
					sum += r->nh[((size_t)u * nt + t) *
					    nb + b];
				mine[b] = sum;
			}
		x = src;
		src = dst;
		dst = x;
	}
	if (r->bstart != NULL) {
		/* The rest, bucket by bucket, whoever is free first. */
		const size_t nbk = r->p[r->np - 1].mask + 1;
		uint64_t *tgt = r->np % 2 != 0 ? r->b : r->a;

		while ((b = atomic_fetch_add(&r->nextb, 1)) < nbk)
			if (r->bstart[b + 1] > r->bstart[b])
				rs_bucket(r, r->kw, mine, off, src, dst, tgt,
				    r->bstart[b], r->bstart[b + 1]);
	}
}

static void *
rs_main(void *arg)
{
	struct rs_arg *a = arg;
	struct rsort *r = a->r;
	int go;

	pthread_mutex_lock(&r->gmu);
	while (r->go == 0)
		pthread_cond_wait(&r->gcv, &r->gmu);
	go = r->go;
	pthread_mutex_unlock(&r->gmu);
	if (go > 0)
		rs_work(r, a->t);
	return NULL;
}

/* Digits of at most RADIX_BITS over the bits that vary, per key word,
 * lowest first; with msd > 0, the top msd of them form the last digit
 * on their own. */
static int
rs_plan(const struct ts_sorter *s, struct pass *P, int msd)
{
	int w, top = -1, np = 0;

	for (w = 0; w < s->L.nw; w++)
		if ((s->kor[w] ^ s->kand[w]) != 0)
			top = w;
	for (w = 0; w <= top; w++) {
		uint64_t diff = s->kor[w] ^ s->kand[w];
		int lo, hi, mlo = 64, span, k, bits, i;

		if (diff == 0)
			continue;
		lo = __builtin_ctzll(diff);
		hi = 63 - __builtin_clzll(diff);
		if (w == top && msd > 0) {
			mlo = hi - msd + 1 > lo ? hi - msd + 1 : lo;
			hi = mlo - 1;
		}
		span = hi - lo + 1;
		k = span > 0 ? (span + RADIX_BITS - 1) / RADIX_BITS : 0;
		bits = k > 0 ? (span + k - 1) / k : 0;
		for (i = 0; i < k; i++) {
			int sh = lo + i * bits;
			int nb = bits < hi + 1 - sh ? bits : hi + 1 - sh;

			P[np].word = w;
			P[np].shift = sh;
			P[np].mask = ((uint64_t)1 << nb) - 1;
			np++;
		}
		if (mlo < 64) {
			hi = 63 - __builtin_clzll(diff);
			P[np].word = w;
			P[np].shift = mlo;
			P[np].mask = ((uint64_t)1 << (hi - mlo + 1)) - 1;
			np++;
		}
	}
	return np;
}

/*
 * Sort s->rec[0 .. n) (the result may swap rec and tmp).  Small arrays
 * get a plain LSD sort.  Larger ones first get one MSD pass over the
 * whole array, by as many top bits as make buckets of about
 * BUCKET_RECS records, and then an LSD sort of each bucket on the
 * other digits: all but one pass then run in cache, which is what
 * bounds a radix sort once the array is much larger than the caches.
 */
static void
radix_sort(struct ts_sorter *s)
{
	struct rsort *r;
	struct rs_arg args[MAXTHREADS];
	pthread_t tid[MAXTHREADS];
	size_t need = s->n * (size_t)s->rw * 8, nb = 0;
	int nt, t, made = 1, i, msd = 0;
	void *x;

	pf_join(s);
	if (s->n < 2)
		return;
	r = ts_xcalloc(1, sizeof(*r));
	if (need > HYBRID_MIN)
		for (msd = 1; msd < RADIX_BITS &&
		    s->n >> (msd + 1) >= BUCKET_RECS; msd++)
			;
	r->np = rs_plan(s, r->p, msd);
	if (r->np == 0) {
		free(r);
		return;
	}
	if (need > s->tmpsz) {
		ts_big_unmap(s->tmp, s->tmpsz);
		s->tmpsz = ts_big_round(need);
		s->tmp = ts_big_map(s->tmpsz);
	}
	for (i = 0; i < r->np; i++)
		if (r->p[i].mask + 1 > nb)
			nb = r->p[i].mask + 1;
	r->a = s->rec;
	r->b = s->tmp;
	r->n = s->n;
	r->rw = s->rw;
	r->kw = s->L.nw;
	r->nb = nb;
	r->npar = msd > 0 && r->np > 1 ? 1 : r->np;
	if (r->npar == 1 && r->np > 1)
		r->bstart = ts_xcalloc(r->p[r->np - 1].mask + 2,
		    sizeof(size_t));
	atomic_init(&r->nextb, 0);
	nt = s->n >= PAR_MIN ? s->nt : 1;
	rs_split(r, nt);
	r->cnt = ts_xcalloc((size_t)nt * nb, sizeof(size_t));
	r->off = ts_xcalloc((size_t)nt * nb, sizeof(size_t));
	r->nh = ts_xcalloc((size_t)nt * nt * nb, sizeof(size_t));
	if (nt > 1) {
		pthread_mutex_init(&r->gmu, NULL);
		pthread_cond_init(&r->gcv, NULL);
		pthread_mutex_init(&r->bar.mu, NULL);
		pthread_cond_init(&r->bar.cv, NULL);
		r->bar.n = nt;
		for (t = 1; t < nt; t++) {
			args[t].r = r;
			args[t].t = t;
			if (pthread_create(&tid[t], NULL, rs_main,
			    &args[t]) != 0)
				break;
			made++;
		}
		pthread_mutex_lock(&r->gmu);
		r->go = made == nt ? 1 : -1;
		pthread_cond_broadcast(&r->gcv);
		pthread_mutex_unlock(&r->gmu);
		if (made != nt) {
			/* No threads to be had: do it alone. */
			for (t = 1; t < made; t++)
				pthread_join(tid[t], NULL);
			made = 1;
			r->bar.n = 1;
			rs_split(r, 1);
		}
	}
	rs_work(r, 0);
	for (t = 1; t < made; t++)
		pthread_join(tid[t], NULL);
	if (nt > 1) {
		pthread_mutex_destroy(&r->gmu);
		pthread_cond_destroy(&r->gcv);
		pthread_mutex_destroy(&r->bar.mu);
		pthread_cond_destroy(&r->bar.cv);
	}
	if (r->np % 2 != 0) {
		size_t sz = s->recsz;

		x = s->rec;
		s->rec = s->tmp;
		s->tmp = x;
		s->recsz = s->tmpsz;
		s->tmpsz = sz;
	}
	free(r->bstart);
	free(r->cnt);
	free(r->off);
	free(r->nh);
	free(r);
}

/* ---- records in memory ---- */

static void
reset_bounds(struct ts_sorter *s)
{
	int w;

	for (w = 0; w < TS_MAXORDER; w++) {
		s->kor[w] = 0;
		s->kand[w] = ~(uint64_t)0;
	}
}

/* Room for n records of the current width, growing by doubling up to
 * the share of the memory limit that records may take (half of what
 * the text leaves: the radix sort needs a second array). */
static void
rec_reserve(struct ts_sorter *s, size_t n)
{
	size_t need = n * (size_t)s->rw * 8, nsz, cap;

	if (need <= s->recsz)
		return;
	pf_join(s);
	nsz = s->recsz == 0 ? (size_t)256 << 10 : 2 * s->recsz;
	cap = s->limit > s->alen ? (s->limit - s->alen) / 2 : 0;
	if (s->limit != 0 && nsz > cap)
		nsz = cap;
	if (nsz < need)
		nsz = need;
	nsz = ts_big_round(nsz);
	s->rec = ts_big_grow(s->rec, s->recsz, nsz);
	s->recsz = nsz;
}

/* Switch to a wider packing, repacking the records in memory. */
static void
relayout(struct ts_sorter *s, const struct layout *NL)
{
	struct layout OL = s->L;
	const int orw = s->rw, extra = s->vw + s->kt;
	const int nrw = NL->nw + extra;
	uint64_t tk[TS_MAXORDER], nk[TS_MAXORDER], ex[2];
	size_t i, k, n = s->n;
	int w;

	s->L = *NL;
	reset_bounds(s);
	pf_join(s);
	if (nrw != orw && n != 0) {
		/* Grow first; the repacking below moves records up. */
		size_t oldsz = s->recsz;
		size_t need = n * (size_t)nrw * 8;

		if (need > oldsz) {
			size_t nsz = ts_big_round(need > 2 * oldsz ? need :
			    2 * oldsz);

			s->rec = ts_big_grow(s->rec, oldsz, nsz);
			s->recsz = nsz;
		}
	}
	s->rw = nrw;
	for (k = 0; k < n; k++) {
		/* Wider records: back to front, so nothing unread is
		 * overwritten. */
		const uint64_t *r;
		uint64_t *q;

		i = nrw > orw ? n - 1 - k : k;
		r = s->rec + i * (size_t)orw;
		memcpy(tk, r, (size_t)OL.nw * 8);
		memcpy(ex, r + OL.nw, (size_t)extra * 8);
		repack_key(&OL, NL, s->d, tk, nk);
		q = s->rec + i * (size_t)nrw;
		memcpy(q, nk, (size_t)NL->nw * 8);
		memcpy(q + NL->nw, ex, (size_t)extra * 8);
		for (w = 0; w < NL->nw; w++) {
			s->kor[w] |= nk[w];
			s->kand[w] &= nk[w];
		}
	}
}

/*
 * The final sort of what is in memory, in place: no second array, so
 * the memory of a sort that never spills is the records and a few MiB.
 *
 * The most significant digit first, stably, in chunks of CHUNK records:
 * each record is copied to the partial chunk of its bucket (in a small
 * area of their own), and a partial chunk that fills up is written to
 * the next chunk slot of the record array, at the front, where every
 * record has already been read (after k chunks, at least k * CHUNK
 * records have).  Then bucket by bucket, in key order: its chunks are
 * gathered into a buffer, the chunks of later buckets in the slots that
 * its final place overlaps are moved to free slots past that place
 * (there are always enough: the later buckets' full chunks hold at most
 * the records past it), and the bucket, sorted on the other digits in
 * cache, is written to its place.  The result is the array sorted, as
 * radix_sort() leaves it.
 *
 * Returns 0, or -1 (with nothing moved) when the array is small or one
 * bucket holds a large share of it: radix_sort() then does it.
 */
#define CHUNK		((size_t)256)
#define FREE_SLOT	UINT32_MAX

/* A max-heap of free slot numbers. */
struct slots {
	uint32_t	*v;
	size_t		 n;
};

static void
slot_push(struct slots *h, uint32_t k)
{
	size_t i = h->n++, up;

	while (i > 0 && h->v[up = (i - 1) / 2] < k) {
		h->v[i] = h->v[up];
		i = up;
	}
	h->v[i] = k;
}

static uint32_t
slot_pop(struct slots *h)
{
	uint32_t top = h->v[0], x = h->v[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->v[c + 1] > h->v[c])
			c++;
		if (h->v[c] <= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n > 0)
		h->v[i] = x;
	return top;
}

static int
radix_inplace(struct ts_sorter *s)
{
	const size_t n = s->n, rw = (size_t)s->rw, cb = CHUNK * rw * 8;
	struct rsort r;
	struct slots heap;
	const struct pass *M;
	size_t nbk, b, i, k, nslot, nlist, maxc, used = 0;
	size_t *cnt, *start, *fill, *lstart, *lcount;
	uint32_t *owner, *opos, *list;
	uint64_t *part, *bufa, *bufb, *scratch;
	int msd;

	if (n * rw * 8 <= HYBRID_MIN || n / CHUNK >= FREE_SLOT)
		return -1;
	memset(&r, 0, sizeof(r));
	for (msd = 1; msd < RADIX_BITS && n >> (msd + 1) >= BUCKET_RECS;
	    msd++)
		;
	r.np = rs_plan(s, r.p, msd);
	if (r.np == 0)
		return 0;	/* every key the same: sorted */
	M = &r.p[r.np - 1];
	nbk = (size_t)M->mask + 1;
	cnt = ts_xcalloc(nbk + 1, sizeof(*cnt));
	for (i = 0; i < n; i++)
		cnt[(s->rec[i * rw + (size_t)M->word] >> M->shift) &
		    M->mask]++;
	maxc = 0;
	for (b = 0; b < nbk; b++)
		if (cnt[b] > maxc)
			maxc = cnt[b];
	/* A bucket is sorted in two buffers of its size: when one holds
	 * much of the array, the second array costs less. */
	if (maxc > n / 2) {
		free(cnt);
		return -1;
	}
	pf_join(s);
	nslot = (n + CHUNK - 1) / CHUNK;
	rec_reserve(s, nslot * CHUNK);
	start = ts_xcalloc(nbk + 1, sizeof(*start));
	fill = ts_xcalloc(nbk, sizeof(*fill));
	lstart = ts_xcalloc(nbk + 1, sizeof(*lstart));
	lcount = ts_xcalloc(nbk, sizeof(*lcount));
	for (b = 0; b < nbk; b++) {
		start[b + 1] = start[b] + cnt[b];
		lstart[b + 1] = lstart[b] + cnt[b] / CHUNK;
	}
	nlist = lstart[nbk];
	list = ts_xreallocarray(NULL, nlist + 1, sizeof(*list));
	owner = ts_xreallocarray(NULL, nslot, sizeof(*owner));
	opos = ts_xreallocarray(NULL, nslot, sizeof(*opos));
	part = ts_xreallocarray(NULL, nbk * CHUNK, rw * 8);

	/* Distribute. */
	for (i = 0; i < n; i++) {
		const uint64_t *q = s->rec + i * rw;

		b = (q[M->word] >> M->shift) & M->mask;
		memcpy(part + (b * CHUNK + fill[b]) * rw, q, rw * 8);
		if (++fill[b] == CHUNK) {
			k = used++;
			memcpy(s->rec + k * CHUNK * rw, part + b * CHUNK * rw,
			    cb);
			owner[k] = (uint32_t)b;
			opos[k] = (uint32_t)lcount[b];
			list[lstart[b] + lcount[b]++] = (uint32_t)k;
			fill[b] = 0;
		}
	}
	heap.v = ts_xreallocarray(NULL, nslot, sizeof(*heap.v));
	heap.n = 0;
	for (k = used; k < nslot; k++) {
		owner[k] = FREE_SLOT;
		slot_push(&heap, (uint32_t)k);
	}

	/* Place, bucket by bucket. */
	scratch = ts_xreallocarray(NULL, 2 * (maxc > 0 ? maxc : 1), rw * 8);
	bufa = scratch;
	bufb = scratch + maxc * rw;
	r.rw = s->rw;
	r.kw = s->L.nw;
	for (b = 0; b < nbk; b++) {
		const size_t m = cnt[b], lo = start[b], hi = start[b + 1];
		uint64_t *a = bufa;

		if (m == 0)
			continue;
		for (i = 0; i < lcount[b]; i++) {
			k = list[lstart[b] + i];
			memcpy(a, s->rec + k * CHUNK * rw, cb);
			a += CHUNK * rw;
			owner[k] = FREE_SLOT;
			slot_push(&heap, (uint32_t)k);
		}
		memcpy(a, part + b * CHUNK * rw, fill[b] * rw * 8);
		/* Move later buckets' chunks out of [lo, hi). */
		for (k = lo / CHUNK; k * CHUNK < hi; k++) {
			uint32_t t, o;

			if (owner[k] == FREE_SLOT)
				continue;
			t = slot_pop(&heap);
			o = owner[k];
			memcpy(s->rec + (size_t)t * CHUNK * rw,
			    s->rec + k * CHUNK * rw, cb);
			owner[t] = o;
			opos[t] = opos[k];
			list[lstart[o] + opos[k]] = t;
			owner[k] = FREE_SLOT;
		}
		if (m > 1) {
			size_t c[(size_t)1 << RADIX_BITS];
			size_t off[(size_t)1 << RADIX_BITS];

			rs_bucket(&r, r.kw, c, off, bufa, bufb, bufa, 0, m);
		}
		memcpy(s->rec + lo * rw, bufa, m * rw * 8);
	}
	free(scratch);
	free(heap.v);
	free(part);
	free(opos);
	free(owner);
	free(list);
	free(lcount);
	free(lstart);
	free(fill);
	free(start);
	free(cnt);
	return 0;
}

/* ---- temporary files ---- */

static int
tmp_open(struct ts_sorter *s, int i)
{
	const char *dir = s->o.tmpdir;
	char *path;
	int fd, e;

	if (dir == NULL || *dir == '\0') {
		dir = getenv("TMPDIR");
		if (dir == NULL || *dir == '\0')
			dir = "/tmp";
	}
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

/* A buffered writer appending to temporary file f. */
struct wbuf {
	struct ts_sorter *s;
	int		 f;
	char		*buf;
	size_t		 len, cap;
};

static int
wb_flush(struct wbuf *w)
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
wb_room(struct wbuf *w, size_t n)
{
	if (w->len + n <= w->cap)
		return 0;
	if (wb_flush(w) < 0)
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
static int
wb_record(struct wbuf *w, const uint64_t *key, uint64_t val, uint64_t tw,
    const char *txt, uint32_t tlen)
{
	const struct ts_sorter *s = w->s;
	size_t kb = (size_t)s->L.nw * 8;
	bool inl = s->kt && (tw & TC_ARENA) == TC_ARENA;
	char *p;

	if (wb_room(w, kb + (size_t)(s->vw + s->kt) * 8 + (inl ? 4 +
	    (size_t)tlen : 0)) < 0)
		return -1;
	p = w->buf + w->len;
	memcpy(p, key, kb);
	p += kb;
	if (s->vw) {
		memcpy(p, &val, 8);
		p += 8;
	}
	if (s->kt) {
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

/* The index of the current layout among those of the runs. */
static int
run_layout(struct ts_sorter *s)
{
	if (s->nlays == 0 || !layout_eq(&s->lays[s->nlays - 1], &s->L, s->d)) {
		s->lays = ts_xreallocarray(s->lays, (size_t)s->nlays + 1,
		    sizeof(*s->lays));
		s->lays[s->nlays++] = s->L;
	}
	return s->nlays - 1;
}

static struct run *
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
	struct bgwrite *w = arg;

	w->err = pwrite_all(w->fd, w->buf, w->len, w->off) < 0 ? errno : 0;
	return NULL;
}

/* Wait for the run being written; -1 with errno when that failed. */
static int
bg_wait(struct ts_sorter *s)
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
static int
spill(struct ts_sorter *s)
{
	struct run *r;
	uint64_t off;

	if (s->n == 0)
		return 0;
	pf_join(s);
	if (bg_wait(s) < 0)
		return -1;
	if (s->fd[0] < 0 && tmp_open(s, 0) < 0)
		return -1;
	radix_sort(s);
	off = s->fend[0];
	if (!s->kt || s->alen == 0) {
		/* No text in the arena: the file format is the record
		 * array itself. */
		size_t nb = s->n * (size_t)s->rw * 8, sz;
		uint64_t *x;

		s->fend[0] += nb;
		s->bg.fd = s->fd[0];
		s->bg.buf = s->rec;
		s->bg.len = nb;
		s->bg.off = off;
		if (s->nt > 1 && pthread_create(&s->bg.tid, NULL, bg_main,
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
		struct wbuf w = { s, 0, ts_xmalloc(SPILL_BUF), 0, SPILL_BUF };
		size_t i;
		int rc = 0;

		for (i = 0; i < s->n && rc == 0; i++) {
			const uint64_t *q = s->rec + i * (size_t)s->rw;
			const uint64_t t = q[s->L.nw + s->vw];
			const char *a = NULL;
			uint32_t len = 0;

			if ((t & TC_ARENA) == TC_ARENA)
				a = arena_get(s, t >> TC_SHIFT, &len);
			rc = wb_record(&w, q, s->vw ? q[s->L.nw] : 0, t, a,
			    len);
		}
		if (rc == 0)
			rc = wb_flush(&w);
		free(w.buf);
		if (rc < 0)
			return -1;
	}
	r = new_run(s);
	r->f = 0;
	r->off = off;
	r->end = s->fend[0];
	r->n = s->n;
	r->li = run_layout(s);
	s->n = 0;
	s->alen = 0;
	reset_bounds(s);
	return 0;
}

/* ---- merging runs ---- */

/* Make need bytes available at v->buf + v->at. */
static int
src_fill(struct src *v, size_t need)
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
src_next_slow(const struct ts_sorter *s, struct src *v)
{
	const struct layout *RL = &s->lays[v->run->li];
	size_t kb = (size_t)RL->nw * 8;
	size_t fixed = kb + (size_t)(s->vw + s->kt) * 8;
	const char *p;

	if (v->left == 0)
		return 0;
	if (src_fill(v, fixed) < 0)
		return -1;
	p = v->buf + v->at;
	if (v->conv) {
		uint64_t tk[TS_MAXORDER];

		memcpy(tk, p, kb);
		repack_key(RL, &s->L, s->d, tk, v->key);
	} else if (kb == 8)
		memcpy(v->key, p, 8);	/* a load, not a call */
	else
		memcpy(v->key, p, kb);
	p += kb;
	if (s->vw) {
		memcpy(&v->val, p, 8);
		p += 8;
	}
	if (s->kt)
		memcpy(&v->tw, p, 8);
	v->at += fixed;
	if (s->kt && (v->tw & TC_ARENA) == TC_ARENA) {
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
src_next(const struct ts_sorter *s, struct src *v)
{
	const size_t rs = 8 + (size_t)(s->vw + s->kt) * 8;

	if (v->left != 0 && !v->conv && s->L.nw == 1 &&
	    v->len - v->at >= rs) {
		const char *p = v->buf + v->at;

		if (s->kt) {
			memcpy(&v->tw, p + rs - 8, 8);
			if ((v->tw & TC_ARENA) == TC_ARENA)
				return src_next_slow(s, v);
		}
		memcpy(v->key, p, 8);
		if (s->vw)
			memcpy(&v->val, p + 8, 8);
		v->at += rs;
		v->left--;
		return 1;
	}
	return src_next_slow(s, v);
}

/* Is node a before node b: smaller key, or equal and an older run? */
static inline bool
hless(const struct merger *m, struct hnode a, struct hnode b)
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
	struct hnode x = m->heap[i];
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

static void
merger_open(struct ts_sorter *s, struct merger *m, const struct run *runs,
    int k)
{
	size_t bs = merge_buf(s, (size_t)k);
	int i;

	memset(m, 0, sizeof(*m));
	m->k = k;
	m->nw = s->L.nw;
	m->v = ts_xcalloc((size_t)k, sizeof(*m->v));
	m->heap = ts_xcalloc((size_t)k, sizeof(*m->heap));
	m->keys = ts_xcalloc((size_t)k * (size_t)m->nw, 8);
	for (i = 0; i < k; i++) {
		struct src *v = &m->v[i];

		v->run = &runs[i];
		v->fd = s->fd[runs[i].f];
		v->cap = bs;
		v->buf = ts_xmalloc(bs);
		v->key = m->keys + (size_t)i * (size_t)m->nw;
		v->conv = !layout_eq(&s->lays[runs[i].li], &s->L, s->d);
	}
}

/* (Re)start reading every run from its beginning. */
static int
merger_start(const struct ts_sorter *s, struct merger *m)
{
	int i, r;

	m->hn = 0;
	for (i = 0; i < m->k; i++) {
		struct src *v = &m->v[i];

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

static inline struct src *
merger_top(struct merger *m)
{
	return m->hn > 0 ? &m->v[m->heap[0].i] : NULL;
}

/* Past the top record. */
static int
merger_pop(const struct ts_sorter *s, struct merger *m)
{
	struct src *v = &m->v[m->heap[0].i];
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

static void
merger_close(struct merger *m)
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
merge_into(struct ts_sorter *s, const struct run *runs, int k, int out,
    struct run *res)
{
	struct merger m;
	struct wbuf w;
	struct src *t;
	int rc = -1;

	merger_open(s, &m, runs, k);
	w.s = s;
	w.f = out;
	w.cap = merge_buf(s, (size_t)k);
	w.buf = ts_xmalloc(w.cap);
	w.len = 0;
	res->f = out;
	res->off = s->fend[out];
	res->n = 0;
	res->li = run_layout(s);
	if (merger_start(s, &m) < 0)
		goto done;
	while ((t = merger_top(&m)) != NULL) {
		if (wb_record(&w, t->key, t->val, t->tw, t->txt, t->tlen) < 0 ||
		    merger_pop(s, &m) < 0)
			goto done;
		res->n++;
	}
	if (wb_flush(&w) < 0)
		goto done;
	res->end = s->fend[out];
	rc = 0;
done:
	free(w.buf);
	merger_close(&m);
	return rc;
}

/*
 * Merge groups of consecutive runs (which keeps ties in input order)
 * until one merge can take them all within the memory limit.
 */
static int
merge_levels(struct ts_sorter *s)
{
	size_t fan = s->limit / MERGE_MINBUF - 1, g, k, nn;
	struct run *next;
	int in = 0, out;

	if (fan < 2)
		fan = 2;
	while (s->nruns > fan) {
		out = 1 - in;
		if (s->fd[out] < 0 && tmp_open(s, out) < 0)
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

/* ---- duplicates ---- */

static void
stage_text(struct stage *g, uint64_t tw, const char *t, uint32_t len)
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
 * Take the next group of equal keys from the merge into s->g, combined
 * by the duplicates policy.  Returns 1, 0 at the end, -1 with errno, or
 * -2 for a repeated tuple under TS_DUP_ERROR (s->g.key holds it).
 */
static int
merge_group(struct ts_sorter *s)
{
	struct merger *m = &s->m;
	struct stage *g = &s->g;
	struct src *t = merger_top(m);
	size_t k = 1;

	if (t == NULL)
		return 0;
	memcpy(g->key, t->key, (size_t)m->nw * 8);
	g->val = t->val;
	if (s->kt)
		stage_text(g, t->tw, t->txt, t->tlen);
	if (merger_pop(s, m) < 0)
		return -1;
	while ((t = merger_top(m)) != NULL && keyeq(t->key, g->key, m->nw)) {
		switch (s->o.dups) {
		case TS_DUP_ERROR:
			return -2;
		case TS_DUP_LAST:
			g->val = t->val;
			if (s->kt)
				stage_text(g, t->tw, t->txt, t->tlen);
			break;
		case TS_DUP_SUM:
			if (s->hv && sum_val(s, &g->val, t->val) < 0)
				return -1;
			break;
		default:
			break;
		}
		k++;
		if (merger_pop(s, m) < 0)
			return -1;
	}
	if (s->o.dups == TS_DUP_SUM && s->kt && k > 1) {
		char buf[TS_NUMBUF];

		stage_text(g, TC_ARENA, buf, (uint32_t)fmt_val(s, buf,
		    g->val));
	}
	return 1;
}

/* Apply the policy to the sorted array in memory, compacting it. */
static int
dedup_mem(struct ts_sorter *s)
{
	const int nw = s->L.nw, rw = s->rw;
	size_t i = 0, j, o = 0;

	while (i < s->n) {
		const uint64_t *r = s->rec + i * (size_t)rw;
		uint64_t *q = s->rec + o * (size_t)rw;

		for (j = i + 1; j < s->n &&
		    keyeq(s->rec + j * (size_t)rw, r, nw); j++)
			;
		if (j - i > 1) {
			switch (s->o.dups) {
			case TS_DUP_ERROR:
				s->hasdup = true;
				unpack(&s->L, s->d, s->o.prio, r, s->dup);
				return -2;
			case TS_DUP_LAST:
				r = s->rec + (j - 1) * (size_t)rw;
				break;
			case TS_DUP_SUM:
				/* Records keep their value word (vw). */
				if (s->hv) {
					uint64_t acc = r[nw];
					size_t u;

					for (u = i + 1; u < j; u++)
						if (sum_val(s, &acc,
						    s->rec[u * (size_t)rw +
						    (size_t)nw]) < 0)
							return -1;
					memmove(q, r, (size_t)rw * 8);
					r = q;
					q[nw] = acc;
					if (s->kt) {
						char buf[TS_NUMBUF];
						int len = fmt_val(s, buf, acc);

						q[nw + 1] = text_put(s, buf,
						    (uint32_t)len);
					}
				}
				break;
			default:
				break;
			}
		}
		if (q != r)
			memmove(q, r, (size_t)rw * 8);
		o++;
		i = j;
	}
	s->n = o;
	return 0;
}

/* ---- the interface ---- */

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
	s->d = o->order;
	s->hv = o->has_values;
	s->kt = o->has_values && o->keep_text;
	/* With its text, a value is kept only when sums need it. */
	s->vw = s->hv && (!s->kt || o->dups == TS_DUP_SUM);
	s->novals = s->kt && !s->vw && o->texts_only;
	s->limit = o->mem_limit;
	if (s->limit != 0 && s->limit < MIN_LIMIT)
		s->limit = MIN_LIMIT;
	s->nt = o->threads < 1 ? 1 : o->threads > MAXTHREADS ? MAXTHREADS :
	    o->threads;
	layout_finish(&s->L, s->d);
	s->rw = s->L.nw + s->vw + s->kt;
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

int
ts_sorter_add(struct ts_sorter *s, const struct ts_batch *b)
{
	const int d = s->d, *prio = s->o.prio;
	uint64_t bor[TS_MAXORDER] = { 0 }, cp[TS_MAXORDER];
	struct layout NL;
	size_t i, bn = b->n, tb = 0, base, cap;
	bool wider = false;
	int j, k, nw, nrw;

	if (s->state != S_ADD)
		return bad_state(s);
	if (bn == 0)
		return 0;
	if (b->order != d) {
		errno = EINVAL;
		return -1;
	}
	/* Widths first: they decide the record size. */
	for (i = 0; i < bn; i++)
		for (k = 0; k < d; k++)
			bor[k] |= b->coords[i * (size_t)d + (size_t)k];
	NL = s->L;
	for (j = 0; j < d; j++) {
		s->seen[j] |= bor[prio[j]];
		if (!fits(s->seen[j], NL.w[j])) {
			NL.w[j] = (uint8_t)bitlen(s->seen[j]);
			wider = true;
		}
	}
	if (wider)
		layout_finish(&NL, d);
	nrw = NL.nw + s->vw + s->kt;
	if (s->kt) {
		/* Code the texts first: those that cannot be go to the
		 * arena, and their bytes count against the limit. */
		if (s->tccap < bn) {
			free(s->tc);
			s->tc = ts_xreallocarray(NULL, bn, 8);
			s->tccap = bn;
		}
		for (i = 0; i < bn; i++) {
			if (b->vtext != NULL) {
				s->tc[i] = tc_word(s, b->vtext[i], b->vlen[i]);
				if ((s->tc[i] & TC_ARENA) == TC_ARENA)
					tb += 4 + (size_t)b->vlen[i];
			} else {
				/* No text to keep (binary input): the
				 * shortest text of the value instead. */
				char buf[TS_NUMBUF];
				int len = fmt_val(s, buf, s->o.is_int ?
				    (uint64_t)b->ival[i] : dbits(b->fval[i]));

				s->tc[i] = tc_word(s, buf, (uint32_t)len);
				if ((s->tc[i] & TC_ARENA) == TC_ARENA)
					tb += 4 + (size_t)len;
			}
		}
	}
	if (s->limit != 0 && s->n != 0 && (s->n + bn) * (size_t)nrw * 16 +
	    s->alen + tb > s->limit && spill(s) < 0)
		return fail(s);
	if (wider)
		relayout(s, &NL);
	if (!s->pf_done && s->o.expect > bn && s->nt > 1 && s->n == 0 &&
	    s->nruns == 0) {
		/* The first batch: map for what is expected, prefault. */
		size_t want = s->o.expect > SIZE_MAX / 64 ? SIZE_MAX / 64 :
		    (size_t)s->o.expect;

		s->pf_done = true;
		if (s->limit != 0 && want > s->limit / ((size_t)nrw * 16))
			want = s->limit / ((size_t)nrw * 16);
		if (want > bn) {
			rec_reserve(s, want);
			s->pf_active = pthread_create(&s->pf_tid, NULL,
			    pf_main, s) == 0;
		}
	}
	rec_reserve(s, s->n + bn);
	if (tb != 0 && s->alen + tb > s->asz) {
		size_t nsz = 2 * s->asz;

		if (nsz < s->alen + tb)
			nsz = s->alen + tb;
		if (nsz < ((size_t)64 << 10))
			nsz = (size_t)64 << 10;
		/* Within what the records leave of the limit. */
		cap = 2 * s->n * (size_t)s->rw * 8 + bn * (size_t)nrw * 16;
		cap = s->limit > cap ? s->limit - cap : 0;
		if (s->limit != 0 && nsz > cap)
			nsz = cap;
		if (nsz < s->alen + tb)
			nsz = s->alen + tb;
		nsz = ts_big_round(nsz);
		s->arena = ts_big_grow(s->arena, s->asz, nsz);
		s->asz = nsz;
	}
	nw = s->L.nw;
	base = s->n * (size_t)s->rw;
	if (nw == 1) {
		/* The common case: one key word. */
		uint64_t kor = s->kor[0], kand = s->kand[0];

		for (i = 0; i < bn; i++) {
			const uint64_t *c = b->coords + i * (size_t)d;
			uint64_t *r = s->rec + base + i * (size_t)s->rw;
			uint64_t key = 0;

			for (j = 0; j < d; j++)
				key |= c[prio[j]] << s->L.sh[j];
			r[0] = key;
			kor |= key;
			kand &= key;
		}
		s->kor[0] = kor;
		s->kand[0] = kand;
	} else
		for (i = 0; i < bn; i++) {
			const uint64_t *c = b->coords + i * (size_t)d;
			uint64_t *r = s->rec + base + i * (size_t)s->rw;
			int w;

			for (j = 0; j < d; j++)
				cp[j] = c[prio[j]];
			pack(&s->L, d, cp, r);
			for (w = 0; w < nw; w++) {
				s->kor[w] |= r[w];
				s->kand[w] &= r[w];
			}
		}
	if (s->vw)
		for (i = 0; i < bn; i++) {
			uint64_t *r = s->rec + base + i * (size_t)s->rw;

			r[nw] = s->o.is_int ? (uint64_t)b->ival[i] :
			    dbits(b->fval[i]);
		}
	if (s->kt)
		for (i = 0; i < bn; i++) {
			uint64_t *t = s->rec + base + i * (size_t)s->rw + nw +
			    s->vw;

			if ((s->tc[i] & TC_ARENA) != TC_ARENA)
				*t = s->tc[i];
			else if (b->vtext != NULL)
				*t = arena_put(s, b->vtext[i], b->vlen[i]) <<
				    TC_SHIFT | TC_ARENA;
			else {
				char buf[TS_NUMBUF];
				int len = fmt_val(s, buf, s->o.is_int ?
				    (uint64_t)b->ival[i] : dbits(b->fval[i]));

				*t = arena_put(s, buf, (uint32_t)len) <<
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
		if (radix_inplace(s) != 0)
			radix_sort(s);
		/* The second array is no longer needed. */
		ts_big_unmap(s->tmp, s->tmpsz);
		s->tmp = NULL;
		s->tmpsz = 0;
		if (s->o.dups != TS_DUP_KEEP) {
			r = dedup_mem(s);
			if (r == -2) {
				s->state = S_FAIL;
				s->err = EINVAL;
				return -2;
			}
			if (r < 0)
				return fail(s);
		}
		s->count = s->n;
		s->pos = 0;
		s->state = S_MEM;
		return 0;
	}
	if (spill(s) < 0 || bg_wait(s) < 0)
		return fail(s);
	/* Everything is on disk: give the memory to the merge buffers. */
	ts_big_unmap(s->rec, s->recsz);
	ts_big_unmap(s->tmp, s->tmpsz);
	ts_big_unmap(s->arena, s->asz);
	s->rec = s->tmp = NULL;
	s->arena = NULL;
	s->recsz = s->tmpsz = s->asz = 0;
	if (merge_levels(s) < 0)
		return fail(s);
	merger_open(s, &s->m, s->runs, (int)s->nruns);
	if (merger_start(s, &s->m) < 0)
		return fail(s);
	if (s->o.dups == TS_DUP_KEEP)
		s->count = s->total;
	else {
		s->count = 0;
		while ((r = merge_group(s)) == 1)
			s->count++;
		if (r == -2) {
			s->hasdup = true;
			unpack(&s->L, s->d, s->o.prio, s->g.key, s->dup);
			s->state = S_FAIL;
			s->err = EINVAL;
			return -2;
		}
		if (r < 0 || merger_start(s, &s->m) < 0)
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

	unpack(&s->L, s->d, s->o.prio, key, b->coords + i * (size_t)s->d);
	if (s->kt) {
		size_t room = (tw & TC_ARENA) == TC_ARENA ? tlen :
		    TC_MAXLEN + 1;

		if (*olen + room > s->ocap) {
			s->ocap = *olen + room > 2 * s->ocap ? *olen + room :
			    2 * s->ocap;
			s->obuf = ts_xrealloc(s->obuf, s->ocap);
		}
		if ((tw & TC_ARENA) != TC_ARENA)
			tlen = (uint32_t)tc_text(tw >> TC_SHIFT,
			    s->tlay[tw & TC_ARENA], s->obuf + *olen);
		else if (tlen != 0)
			memcpy(s->obuf + *olen, txt, tlen);
		if (!s->vw && !s->novals)
			val = text_val(s, s->obuf + *olen, tlen);
		*olen += tlen;
		b->vlen[i] = tlen;
	}
	if (s->hv && !s->novals) {
		if (s->o.is_int)
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
	struct src *t;
	int r;

	if (s->state != S_MEM && s->state != S_MERGE)
		return bad_state(s);
	if (b->order != s->d) {
		errno = EINVAL;
		return -1;
	}
	b->n = 0;
	b->has_values = s->hv;
	b->is_int = s->o.is_int;
	b->keep_text = s->kt;
	if (s->state == S_MEM) {
		const int nw = s->L.nw, rw = s->rw;
		size_t n = s->count - s->pos < b->cap ?
		    (size_t)(s->count - s->pos) : b->cap;
		char *o = s->obuf;

		if (s->kt && s->ocap < n * (TC_MAXLEN + 1)) {
			/* Room for every text of the batch, so that none
			 * moves while the batch is filled. */
			free(s->obuf);
			s->ocap = n * (TC_MAXLEN + 1);
			o = s->obuf = ts_xmalloc(s->ocap);
		}
		for (i = 0; i < n; i++) {
			const uint64_t *q = s->rec + (s->pos + i) * (size_t)rw;
			uint64_t v;

			unpack(&s->L, s->d, s->o.prio, q, b->coords +
			    i * (size_t)s->d);
			if (s->kt) {
				b->vtext[i] = rec_text(s, q, o, &b->vlen[i]);
				if (b->vtext[i] == o)
					o += b->vlen[i];
			}
			if (s->hv && !s->novals) {
				v = s->kt ? rec_val(s, q, b->vtext[i],
				    b->vlen[i]) : q[nw];
				if (s->o.is_int)
					b->ival[i] = (int64_t)v;
				else
					memcpy(&b->fval[i], &v, 8);
			}
		}
		s->pos += n;
		b->n = n;
		return (long)n;
	}
	while (b->n < b->cap) {
		if (s->o.dups == TS_DUP_KEEP) {
			if ((t = merger_top(&s->m)) == NULL)
				break;
			emit(s, b, &olen, t->key, t->val, t->tw, t->txt,
			    t->tlen);
			r = merger_pop(s, &s->m);
		} else {
			r = merge_group(s);
			if (r == 0)
				break;
			if (r == 1)
				emit(s, b, &olen, s->g.key, s->g.val, s->g.tw,
				    s->g.txt, s->g.tlen);
		}
		if (r < 0) {
			if (r == -2)
				errno = EINVAL;	/* not after a count */
			b->n = 0;
			return fail(s);
		}
	}
	if (s->kt) {
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
	bg_wait(s);
	merger_close(&s->m);
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
	free(s->g.txt);
	free(s->obuf);
	free(s->tc);
	free(s);
}
