/*
 * npz_array.c - the arrays of an .npz tensor (npz.h): a member's .npy
 * header read and checked before anything is allocated from it, its
 * items converted as they stream by, each bad item reported at its
 * byte offset in the member (the writing is npz_write.c's).
 */
#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/npz.h"
#include "util/path.h"
#include "util/xalloc.h"

#define IN_BUF	(1u << 20)	/* a member read */

void
ts_npz_in_diag(const struct ts_npz_in *in, uint64_t off, const char *fmt,
    ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ts_diag_off(in->d, TS_SEV_ERROR, in->file, (int64_t)off, TS_RULE_NONE,
	    "member '%s': %s", in->member, msg);
}

/* ---- a member read ahead ---- */

#define RA_SLOTS	3
#define RA_SZ		((size_t)1 << 18)

struct slot {
	unsigned char	*buf;
	long		 r;		/* bytes, 0 at the end, -1 an error */
	struct ts_npy_err e;
	bool		 full;
};

struct ts_npz_ahead {
	struct ts_zip	*z;
	struct slot	 s[RA_SLOTS];
	int		 fill, take;	/* the thread's slot, the reader's */
	size_t		 at;		/* taken of the reader's slot */
	bool		 quit, done;	/* done: the end or an error read */
	pthread_t	 tid;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
};

static void *
ahead_main(void *arg)
{
	struct ts_npz_ahead *a = arg;
	struct slot *sl;
	long r;

	pthread_mutex_lock(&a->mu);
	while (!a->done) {
		sl = &a->s[a->fill];
		while (sl->full && !a->quit)
			pthread_cond_wait(&a->cv, &a->mu);
		if (a->quit)
			break;
		pthread_mutex_unlock(&a->mu);
		r = ts_zip_read(a->z, sl->buf, RA_SZ, &sl->e);
		pthread_mutex_lock(&a->mu);
		sl->r = r;
		sl->full = true;
		a->done = r <= 0;
		a->fill = (a->fill + 1) % RA_SLOTS;
		pthread_cond_broadcast(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

void
ts_npz_in_ahead(struct ts_npz_in *in)
{
	struct ts_npz_ahead *a = ts_xcalloc(1, sizeof(*a));
	int i;

	a->z = in->z;
	for (i = 0; i < RA_SLOTS; i++)
		a->s[i].buf = ts_xmalloc(RA_SZ);
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	if (pthread_create(&a->tid, NULL, ahead_main, a) != 0) {
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->cv);
		for (i = 0; i < RA_SLOTS; i++)
			free(a->s[i].buf);
		free(a);
		return;
	}
	in->ra = a;
}

static void
ahead_end(struct ts_npz_in *in)
{
	struct ts_npz_ahead *a = in->ra;
	int i;

	if (a == NULL)
		return;
	pthread_mutex_lock(&a->mu);
	a->quit = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->tid, NULL);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	for (i = 0; i < RA_SLOTS; i++)
		free(a->s[i].buf);
	free(a);
	in->ra = NULL;
}

/* Up to n bytes from what was read ahead, as ts_zip_read gives them. */
static long
ahead_read(struct ts_npz_ahead *a, void *p, size_t n, struct ts_npy_err *e)
{
	struct slot *sl = &a->s[a->take];
	long r;

	pthread_mutex_lock(&a->mu);
	while (!sl->full)
		pthread_cond_wait(&a->cv, &a->mu);
	pthread_mutex_unlock(&a->mu);
	if (sl->r <= 0) {
		*e = sl->e;
		return sl->r;	/* left full: the end, or the error, again */
	}
	r = (long)((size_t)sl->r - a->at < n ? (size_t)sl->r - a->at : n);
	memcpy(p, sl->buf + a->at, (size_t)r);
	a->at += (size_t)r;
	if (a->at == (size_t)sl->r) {
		pthread_mutex_lock(&a->mu);
		sl->full = false;
		a->take = (a->take + 1) % RA_SLOTS;
		a->at = 0;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
	}
	return r;
}

/*
 * The member read to its end once its items are: libarchive checks its
 * CRC-32 only there (a member whose bytes were changed was read as it
 * was).  Bytes past what the shape holds are let be, as numpy lets them
 * be, but read, for the check.  0, or -1 reported.
 */
static int
read_end(struct ts_npz_in *in)
{
	struct ts_npy_err e;
	unsigned char scratch[4096];
	long r;

	while ((r = in->ra != NULL ? ahead_read(in->ra, scratch,
	    sizeof(scratch), &e) : ts_zip_read(in->z, scratch,
	    sizeof(scratch), &e)) > 0)
		continue;
	if (r < 0) {
		ts_npz_in_diag(in, e.off, "%s", e.msg);
		return -1;
	}
	return 0;
}

/* Exactly n bytes of the member into p; 0, or -1 reported. */
static int
readn(struct ts_npz_in *in, void *p, size_t n, const char *what)
{
	struct ts_npy_err e;
	size_t got = 0;
	long r;

	while (got < n) {
		r = in->ra != NULL ? ahead_read(in->ra, (char *)p + got,
		    n - got, &e) : ts_zip_read(in->z, (char *)p + got, n - got,
		    &e);
		if (r < 0) {
			ts_npz_in_diag(in, e.off, "%s", e.msg);
			return -1;
		}
		if (r == 0) {
			ts_npz_in_diag(in, in->off + got, "the member ends in "
			    "%s", what);
			return -1;
		}
		got += (size_t)r;
	}
	in->off += n;
	return in->off == in->a.data_off + in->a.bytes && in->a.data_off > 0 &&
	    !in->unchecked ? read_end(in) : 0;
}

int
ts_npz_in_open(struct ts_npz_in *in, struct ts_source *src,
    const char *member, uint64_t skip, const char *file, struct ts_diags *d)
{
	unsigned char pre[TS_NPY_PREFIX], *h;
	struct ts_npy_err e;
	uint64_t total, left;
	size_t n;

	memset(in, 0, sizeof(*in));
	in->member = ts_xstrdup(member);
	in->file = file;
	in->d = d;
	/* A reader that starts past the member's first row leaves its
	 * check to the one that reads it all (ts_npz_in_open's doc). */
	in->unchecked = skip > 0;
	if ((in->z = ts_zip_open(src, member, !in->unchecked, &e)) ==
	    NULL) {
		ts_diag_off(d, TS_SEV_ERROR, file, (int64_t)e.off,
		    TS_RULE_NONE, "%s", e.msg);
		return -1;
	}
	/* The prefix: 10 bytes for 1.0, 12 for the others. */
	if (readn(in, pre, 10, "its .npy header") != 0)
		return -1;
	if (pre[6] >= 2 && pre[6] <= 3 && readn(in, pre + 10, 2,
	    "its .npy header") != 0)
		return -1;
	if (ts_npy_prefix(pre, in->off, &total, &e) != 0) {
		ts_npz_in_diag(in, e.off, "%s", e.msg);
		return -1;
	}
	h = ts_xmalloc((size_t)total);
	memcpy(h, pre, (size_t)in->off);
	if (readn(in, h + in->off, (size_t)(total - in->off),
	    "its .npy header") != 0) {
		free(h);
		return -1;
	}
	if (ts_npy_parse(h, (size_t)total, &in->a, &e) != 0) {
		free(h);
		ts_npz_in_diag(in, e.off, "%s", e.msg);
		return -1;
	}
	free(h);
	in->cap = IN_BUF;
	in->buf = ts_xmalloc(in->cap);
	for (left = skip * in->a.itemsize; left > 0; left -= n) {
		n = left < in->cap ? (size_t)left : in->cap;
		if (readn(in, in->buf, n, "its data") != 0)
			return -1;
	}
	return 0;
}

void
ts_npz_in_close(struct ts_npz_in *in)
{
	ahead_end(in);
	ts_zip_close(in->z);
	free(in->member);
	free(in->buf);
	memset(in, 0, sizeof(*in));
}

int
ts_npz_in_raw(struct ts_npz_in *in, size_t n)
{
	size_t bytes;

	if (n > SIZE_MAX / in->a.itemsize)
		return -1;
	bytes = n * in->a.itemsize;
	if (bytes > in->cap) {
		in->buf = ts_xrealloc(in->buf, bytes);
		in->cap = bytes;
	}
	return readn(in, in->buf, bytes, "its data (fewer items than its "
	    "shape says)");
}

bool
ts_npz_is_int(enum ts_npy_type t)
{
	return t >= TS_NPY_INT8 && t <= TS_NPY_UINT64;
}

int
ts_npz_vtype(enum ts_npy_type t)
{
	switch (t) {
	case TS_NPY_BOOL:
		return -2;
	case TS_NPY_INT8: case TS_NPY_INT16: case TS_NPY_INT32:
	case TS_NPY_UINT8: case TS_NPY_UINT16:
		return TS_VTYPE_INT32;
	case TS_NPY_INT64: case TS_NPY_UINT32: case TS_NPY_UINT64:
		return TS_VTYPE_INT64;
	case TS_NPY_FLOAT32:
		return TS_VTYPE_FLOAT32;
	case TS_NPY_FLOAT64:
		return TS_VTYPE_FLOAT64;
	default:
		return -1;
	}
}

/* Item p of an integer type: its bits, and whether it is negative. */
static uint64_t
ld_int(const unsigned char *p, enum ts_npy_type t, bool big, bool *neg)
{
	size_t sz = ts_npy_type_size(t), k;
	uint64_t v = 0;

	for (k = 0; k < sz; k++)
		v |= (uint64_t)p[big ? sz - 1 - k : k] << (8 * k);
	*neg = false;
	if (t >= TS_NPY_INT8 && t <= TS_NPY_INT64 && (v >> (8 * sz - 1) & 1)) {
		*neg = true;
		if (sz < 8)
			v |= ~UINT64_C(0) << (8 * sz);
	}
	return v;
}

static double
ld_float(const unsigned char *p, enum ts_npy_type t, bool big)
{
	unsigned char q[8];
	size_t sz = t == TS_NPY_FLOAT32 ? 4 : 8, k;
	float f;
	double g;

	for (k = 0; k < sz; k++)
		q[k] = p[big == ts_host_little() ? sz - 1 - k : k];
	if (sz == 4) {
		memcpy(&f, q, 4);
		return f;
	}
	memcpy(&g, q, 8);
	return g;
}

int
ts_npz_in_index(struct ts_npz_in *in, uint64_t *c, size_t stride,
    size_t n)
{
	const uint64_t off = in->off;
	const size_t sz = in->a.itemsize;
	const unsigned char *p;
	size_t i;
	bool neg;

	if (ts_npz_in_raw(in, n) != 0)
		return -1;
	p = in->buf;
	/* The common cases as plain loads. */
	if (!in->a.big && ts_host_little() && (in->a.type == TS_NPY_INT64 ||
	    in->a.type == TS_NPY_UINT64)) {
		for (i = 0; i < n; i++) {
			memcpy(&c[i * stride], p + i * 8, 8);
			if (in->a.type == TS_NPY_INT64 && (int64_t)c[i *
			    stride] < 0)
				goto negative;
		}
		return 0;
	}
	if (!in->a.big && ts_host_little() && (in->a.type == TS_NPY_INT32 ||
	    in->a.type == TS_NPY_UINT32)) {
		for (i = 0; i < n; i++) {
			uint32_t v;

			memcpy(&v, p + i * 4, 4);
			if (in->a.type == TS_NPY_INT32 && (int32_t)v < 0)
				goto negative;
			c[i * stride] = v;
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		c[i * stride] = ld_int(p + i * sz, in->a.type, in->a.big, &neg);
		if (neg)
			goto negative;
	}
	return 0;
negative:
	ts_npz_in_diag(in, off + i * sz, "index %lld is negative",
	    (long long)(int64_t)ld_int(p + i * sz, in->a.type, in->a.big,
	    &neg));
	return -1;
}

int
ts_npz_in_values(struct ts_npz_in *in, double *f, int64_t *iv, bool is_int,
    size_t n)
{
	const uint64_t off = in->off;
	const size_t sz = in->a.itemsize;
	const enum ts_npy_type t = in->a.type;
	const unsigned char *p;
	uint64_t v;
	size_t i;
	bool neg;

	if (ts_npz_in_raw(in, n) != 0)
		return -1;
	p = in->buf;
	if (t == TS_NPY_BOOL) {
		for (i = 0; i < n; i++)
			if (p[i] != 1) {
				ts_npz_in_diag(in, off + i, "a boolean array "
				    "of values (a tensor without values) "
				    "holds %s", p[i] == 0 ? "False" :
				    "a byte that is no boolean");
				return -1;
			}
		return 0;
	}
	if (t == TS_NPY_FLOAT32 || t == TS_NPY_FLOAT64) {
		if (!in->a.big && ts_host_little() && t == TS_NPY_FLOAT64 &&
		    !is_int) {
			memcpy(f, p, n * 8);
			return 0;
		}
		for (i = 0; i < n; i++)
			f[i] = ld_float(p + i * sz, t, in->a.big);
		return 0;
	}
	for (i = 0; i < n; i++) {
		v = ld_int(p + i * sz, t, in->a.big, &neg);
		if (t == TS_NPY_UINT64 && v > (uint64_t)INT64_MAX) {
			ts_npz_in_diag(in, off + i * sz, "value %llu is beyond "
			    "int64, the widest integer type",
			    (unsigned long long)v);
			return -1;
		}
		iv[i] = (int64_t)v;
	}
	return 0;
}

unsigned char *
ts_npz_slurp(struct ts_source *src, const char *member, struct ts_npy *a,
    size_t max, const char *file, struct ts_diags *d)
{
	struct ts_npz_in in;
	unsigned char *p;

	if (ts_npz_in_open(&in, src, member, 0, file, d) != 0) {
		ts_npz_in_close(&in);
		return NULL;
	}
	*a = in.a;
	if (in.a.bytes > max) {
		ts_npz_in_diag(&in, in.a.data_off, "an array of %llu bytes "
		    "where at most %zu are read", (unsigned long long)
		    in.a.bytes, max);
		ts_npz_in_close(&in);
		return NULL;
	}
	p = ts_xmalloc((size_t)in.a.bytes + 1);
	if (in.a.count > 0 && ts_npz_in_raw(&in, (size_t)in.a.count) != 0) {
		free(p);
		ts_npz_in_close(&in);
		return NULL;
	}
	memcpy(p, in.buf, (size_t)in.a.bytes);
	ts_npz_in_close(&in);
	return p;
}

void
ts_npz_iso_fill(const struct ts_npz_rd *r, struct ts_batch *b, size_t n)
{
	size_t i;

	if (!b->has_values)
		return;
	for (i = 0; i < n; i++)
		if (b->is_int)
			b->ival[i] = r->isoi;
		else
			b->fval[i] = r->isof;
}
