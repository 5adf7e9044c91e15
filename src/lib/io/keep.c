/*
 * keep.c - bytes kept until the end of a write, for a format whose file
 * needs them all before it can lay them down (the members of an .npz,
 * the arrays of SPLATT's and FROSTT's binaries, each array whole after
 * the one before): held in memory while a budget the arrays of one
 * encoder share lasts, the rest appended to a temporary file of the
 * array's own (unlinked at once, so that nothing is left behind even
 * after a kill), and given back in order, once.
 *
 * Memory is a memfd(2) where the system has one: the bytes pass through
 * one chunk the array reuses and the kernel copies them into pages of
 * its own, so that holding a tensor costs no page fault a page in the
 * process (on a machine whose page faults are dear, a virtual machine
 * with shadow page tables, 400 MB held in fresh pages of the process
 * took 2 s of the kernel's time, through a memfd 0.1 s).  Without one,
 * the chunks themselves are held.  Either way a tensor that fits the
 * budget costs no file written and read again; one that does not stays
 * in bounded memory.
 */
#if defined(__linux__)
#define _GNU_SOURCE		/* memfd_create(2) */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

#if defined(MFD_CLOEXEC)
#define HAVE_MEMFD	1
#else
#define HAVE_MEMFD	0
#endif

struct chunk {
	unsigned char	*p;
	size_t		 len;
};

struct ts_keep {
	struct ts_keep_budget *b;
	int		 mfd;		/* memory: the first bytes, or -1 */
	uint64_t	 msize;
	bool		 chunks;	/* no memfd: held are the memory */
	struct chunk	*held;		/* full chunks, in order */
	size_t		 nheld, caph;
	unsigned char	*cur;		/* the chunk being filled */
	size_t		 len;
	int		 fd;		/* once past the budget; else -1 */
	uint64_t	 size;
};

struct ts_keep *
ts_keep_new(struct ts_keep_budget *b)
{
	struct ts_keep *k = ts_xcalloc(1, sizeof(*k));

	k->b = b;
	k->mfd = -1;
	k->fd = -1;
	return k;
}

uint64_t
ts_keep_size(const struct ts_keep *k)
{
	return k->size;
}

/* The chunk being filled into memory: 0, or -1 when memory does not
 * take it (no memfd could be made or grown: the file takes it then). */
static int
hold(struct ts_keep *k)
{
#if HAVE_MEMFD
	if (k->mfd < 0 && !k->chunks) {
		k->mfd = memfd_create("tensorsuite-keep", MFD_CLOEXEC);
		k->chunks = k->mfd < 0;
	}
	if (k->mfd >= 0) {
		/* At its offset: a short write is written over. */
		if (ts_pwrite_all(k->mfd, k->cur, k->len, k->msize) != 0)
			return -1;
		k->msize += k->len;
		k->b->left -= k->len < k->b->left ? k->len : k->b->left;
		k->len = 0;
		return 0;
	}
#else
	k->chunks = true;
#endif
	if (k->nheld == k->caph)
		k->held = ts_xreallocarray(k->held, k->caph = k->caph ?
		    2 * k->caph : 16, sizeof(*k->held));
	k->held[k->nheld].p = k->cur;
	k->held[k->nheld++].len = k->len;
	k->b->left -= TS_KEEP_CHUNK;
	k->cur = NULL;
	return 0;
}

/* The chunk being filled, full, to the file (opened the first time). */
static int
spill(struct ts_keep *k)
{
	int e;

	if (k->fd < 0) {
		char *path = ts_xasprintf("%s/tensorsuite.XXXXXX",
		    ts_tmpdir(k->b->tmpdir));

		k->fd = mkstemp(path);
		e = errno;
		if (k->fd >= 0) {
			unlink(path);
			(void)fcntl(k->fd, F_SETFD, FD_CLOEXEC);
		}
		free(path);
		if (k->fd < 0) {
			errno = k->b->err = e;
			return -1;
		}
	}
	if ((e = ts_write_all(k->fd, k->cur, k->len)) != 0) {
		errno = k->b->err = e;
		return -1;
	}
	k->len = 0;
	return 0;
}

unsigned char *
ts_keep_room(struct ts_keep *k, size_t n, size_t *avail)
{
	if (k->cur != NULL && k->len + n > TS_KEEP_CHUNK) {
		/* Once a byte went to the file, the rest follows it. */
		if (k->fd >= 0 || k->b->left < TS_KEEP_CHUNK || hold(k) != 0)
			if (spill(k) != 0)
				return NULL;
	}
	if (k->cur == NULL) {
		k->cur = ts_xmalloc(TS_KEEP_CHUNK);
		k->len = 0;
	}
	*avail = TS_KEEP_CHUNK - k->len;
	return k->cur + k->len;
}

void
ts_keep_commit(struct ts_keep *k, size_t n)
{
	k->len += n;
	k->size += n;
}

int
ts_keep_write(struct ts_keep *k, const void *p, size_t n)
{
	const unsigned char *q = p;
	unsigned char *to;
	size_t avail, m;

	while (n > 0) {
		if ((to = ts_keep_room(k, 1, &avail)) == NULL)
			return -1;
		m = n < avail ? n : avail;
		memcpy(to, q, m);
		ts_keep_commit(k, m);
		q += m;
		n -= m;
	}
	return 0;
}

/* The n bytes of fd from its start, read back through the chunk and
 * given to fn in whole chunks but the last. */
static int
read_back(struct ts_keep *k, int fd, uint64_t n,
    int (*fn)(void *, unsigned char *, size_t), void *arg)
{
	uint64_t off = 0;
	ssize_t got;
	int rv;

	if (k->cur == NULL)
		k->cur = ts_xmalloc(TS_KEEP_CHUNK);
	while (off < n) {
		size_t want = n - off < TS_KEEP_CHUNK ? (size_t)(n - off) :
		    TS_KEEP_CHUNK;

		if ((got = ts_pread_full(fd, k->cur, want, off)) < 0 ||
		    (size_t)got != want) {
			k->b->err = got < 0 ? errno : EIO;
			errno = k->b->err;
			return -1;
		}
		if ((rv = fn(arg, k->cur, want)) != 0)
			return rv;
		off += want;
	}
	return 0;
}

/* The memory given back to the budget. */
static void
release(struct ts_keep *k)
{
	size_t i;

	for (i = 0; i < k->nheld; i++) {
		free(k->held[i].p);
		k->b->left += TS_KEEP_CHUNK;
	}
	k->nheld = 0;
	if (k->mfd >= 0) {
		close(k->mfd);
		k->mfd = -1;
		k->b->left += k->msize;
		k->msize = 0;
	}
}

int
ts_keep_drain(struct ts_keep *k, int (*fn)(void *, unsigned char *, size_t),
    void *arg)
{
	uint64_t fsize;
	size_t i;
	int rv = 0;

	for (i = 0; i < k->nheld && rv == 0; i++)
		if (k->held[i].len > 0)
			rv = fn(arg, k->held[i].p, k->held[i].len);
	/* The chunk's last bytes after the others: into the file when
	 * there is one, else the memfd; given as they are when neither. */
	if (rv == 0 && k->len > 0) {
		if (k->fd >= 0)
			rv = spill(k);
		else if (k->mfd >= 0)
			rv = hold(k) == 0 ? 0 : spill(k);
		else {
			rv = fn(arg, k->cur, k->len);
			k->len = 0;
		}
	}
	fsize = k->size - k->msize;
	for (i = 0; i < k->nheld; i++)
		fsize -= k->held[i].len;
	/* Then read back through the chunk: the memfd's, the file's. */
	if (rv == 0 && k->mfd >= 0)
		rv = read_back(k, k->mfd, k->msize, fn, arg);
	release(k);
	if (rv == 0 && k->fd >= 0)
		rv = read_back(k, k->fd, fsize, fn, arg);
	return rv;
}

void
ts_keep_free(struct ts_keep *k)
{
	if (k == NULL)
		return;
	release(k);
	free(k->held);
	free(k->cur);
	if (k->fd >= 0)
		close(k->fd);
	free(k);
}
