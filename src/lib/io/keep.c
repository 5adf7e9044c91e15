/*
 * keep.c - bytes kept until the end of a write, for a format whose file
 * needs them all before it can lay them down (the members of an .npz,
 * the arrays of SPLATT's and FROSTT's binaries, each array whole after
 * the one before): held in memory in chunks while a budget the arrays of
 * one encoder share lasts, the rest appended to a temporary file of the
 * array's own (unlinked at once, so that nothing is left behind even
 * after a kill), and given back in order, once.  Writing a tensor that
 * fits the budget thus costs one copy in memory, not a file written and
 * read again; one that does not stays in bounded memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

struct chunk {
	unsigned char	*p;
	size_t		 len;
};

struct ts_keep {
	struct ts_keep_budget *b;
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
	k->fd = -1;
	return k;
}

uint64_t
ts_keep_size(const struct ts_keep *k)
{
	return k->size;
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
		if (k->fd < 0 && k->b->left >= TS_KEEP_CHUNK) {
			if (k->nheld == k->caph)
				k->held = ts_xreallocarray(k->held, k->caph =
				    k->caph ? 2 * k->caph : 16,
				    sizeof(*k->held));
			k->held[k->nheld].p = k->cur;
			k->held[k->nheld++].len = k->len;
			k->b->left -= TS_KEEP_CHUNK;
			k->cur = NULL;
		} else if (spill(k) != 0)
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

int
ts_keep_drain(struct ts_keep *k, int (*fn)(void *, unsigned char *, size_t),
    void *arg)
{
	size_t i;
	ssize_t got;
	uint64_t off = 0;
	int rv = 0;

	for (i = 0; i < k->nheld; i++) {
		if (rv == 0 && k->held[i].len > 0)
			rv = fn(arg, k->held[i].p, k->held[i].len);
		free(k->held[i].p);
		k->held[i].p = NULL;
		k->b->left += TS_KEEP_CHUNK;
	}
	k->nheld = 0;
	if (rv != 0 || k->cur == NULL)
		return rv;
	if (k->fd < 0) {
		rv = k->len > 0 ? fn(arg, k->cur, k->len) : 0;
		k->len = 0;
		return rv;
	}
	if (k->len > 0 && spill(k) != 0)
		return -1;
	/* The file, read back through the chunk, whole pieces but at its
	 * end. */
	for (;;) {
		if ((got = ts_pread_full(k->fd, k->cur, TS_KEEP_CHUNK,
		    off)) < 0) {
			k->b->err = errno;
			return -1;
		}
		if (got == 0)
			return 0;
		if ((rv = fn(arg, k->cur, (size_t)got)) != 0)
			return rv;
		off += (uint64_t)got;
	}
}

void
ts_keep_free(struct ts_keep *k)
{
	size_t i;

	if (k == NULL)
		return;
	for (i = 0; i < k->nheld; i++) {
		free(k->held[i].p);
		k->b->left += TS_KEEP_CHUNK;
	}
	free(k->held);
	free(k->cur);
	if (k->fd >= 0)
		close(k->fd);
	free(k);
}
