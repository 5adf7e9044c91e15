/*
 * plot.c - the pictures of a tensor, each of which says what it is: a
 * caption with its name, dimensions and nnz, axes with ticks and
 * titles.  For order 3 and above a card of the spy plots of every pair
 * of modes; for each pair, a spy plot (spy.c); for each mode, a
 * histogram of the entries per slice, and one of the values (hist.c).
 * This file lists them in the order a page shows them, draws what they
 * share (the caption, the frame of a picture, its PNG bytes) and writes
 * them into a directory.
 *
 * The bytes depend on the input alone: no tIME chunk, fixed zlib level
 * and filter, text chunks that say what the picture shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stat.h"
#include "plot.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

char *
pic_caption(const struct tensor *t)
{
	const struct fe_stats *s = &t->s;
	struct ts_strbuf b = { NULL, 0, 0 };
	int k;

	ts_sbprintf(&b, "%s: ", t->name);
	for (k = 0; k < s->order; k++)
		ts_sbprintf(&b, "%s%llu", k ? " x " : "",
		    (unsigned long long)s->dims[k]);
	ts_sbprintf(&b, ", nnz %llu", (unsigned long long)s->elements);
	if (s->block)
		ts_sbprintf(&b, " in %llu blocks", (unsigned long long)s->nnz);
	return b.s;
}

void
pic_caption_draw(struct image *im, char **lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		image_text(im, PAD, PAD + (int64_t)i * LINE, lines[i]);
}

static uint32_t
lines_width(char **lines, size_t n)
{
	uint32_t w = 0, x;
	size_t i;

	for (i = 0; i < n; i++)
		if ((x = text_width(lines[i])) > w)
			w = x;
	return w;
}

/* Save im as picture file of t, with what it shows. */
int
pic_add(struct tensor *t, char *file, char *what, const struct image *im,
    const char *const *kv, int nkv)
{
	struct picture *pc;

	t->pic = ts_xreallocarray(t->pic, t->npic + 1, sizeof(*t->pic));
	pc = &t->pic[t->npic++];
	memset(pc, 0, sizeof(*pc));
	pc->file = file;
	pc->what = what;
	if (im != NULL && image_png(im, kv, nkv, &pc->png, &pc->len) != 0) {
		ts_diag_io(t->d, file, "cannot encode the picture (libpng)");
		return -1;
	}
	return 0;
}

/* The image of a caption over a block of w x h pixels: made, the
 * caption drawn, the block's top left in *x, *y. */
void
pic_framed(struct image *im, const struct tensor *t, uint32_t w, uint32_t h,
    int64_t *x, int64_t *y)
{
	char *cap = pic_caption(t), **lines;
	size_t n = text_wrap(cap, w > 40 * PITCH ? w : 40 * PITCH, &lines);
	uint32_t cw = lines_width(lines, n);

	image_new(im, (w > cw ? w : cw) + 2 * PAD, PAD + (uint32_t)n * LINE +
	    PAD + h + PAD);
	pic_caption_draw(im, lines, n);
	*x = PAD;
	*y = PAD + (int64_t)n * LINE + PAD;
	lines_free(lines, n);
	free(cap);
}

/* ---- all of them ---- */

int
plot(struct tensor *t, const struct opts *o, bool draw)
{
	const struct fe_stats *s = &t->s;
	int a, b, i, rv = 0;

	/* A page shows the card first, then each pair, then the
	 * histograms. */
	if (s->order >= 3 && (!draw || s->ngrid > 0))
		rv |= pic_card(t, o, draw);
	if (draw)
		for (i = 0; i < s->ngrid; i++)
			rv |= pic_spy(t, o, &s->grid[i], true);
	else
		for (a = 0; a < s->order; a++)
			for (b = a + 1; b < s->order; b++)
				if (fe_stats_pair_drawn(s->order, a, b)) {
					struct fe_stats_grid g;

					memset(&g, 0, sizeof(g));
					g.a = a;
					g.b = b;
					rv |= pic_spy(t, o, &g, false);
				}
	for (i = 0; i < s->order; i++)
		if (s->mode[i].slices.known && s->mode[i].slices.n > 0)
			rv |= pic_slices(t, i, draw);
	if (s->has_values && s->values.n > 0)
		rv |= pic_values(t, draw);
	return rv != 0 ? -1 : 0;
}

/* ---- written into a directory ---- */

/*
 * Does the file at path hold the n bytes at p?  Read as a file: never
 * through a link, never anything but a regular file.
 */
bool
same_file(const char *path, const char *p, size_t n)
{
	struct stat st;
	char buf[1 << 16];
	size_t done = 0;
	ssize_t r;
	bool same;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return false;
	same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size == n;
	while (same && (r = read(fd, buf, sizeof(buf))) > 0) {
		same = done + (size_t)r <= n && memcmp(buf, p + done,
		    (size_t)r) == 0;
		done += (size_t)r;
	}
	close(fd);
	return same && done == n;
}

int
plot_write(struct tensor *t, const struct opts *o)
{
	struct ts_sink *k;
	char *dir, *path;
	size_t i;
	int rv = 0;

	/* The directory is made if need be, not its parents; in it, a
	 * folder a tensor. */
	dir = ts_xasprintf("%s/%s", o->plot_dir, t->name);
	if ((mkdir(o->plot_dir, 0777) != 0 && errno != EEXIST) ||
	    (mkdir(dir, 0777) != 0 && errno != EEXIST)) {
		ts_diag_io(t->d, dir, "%s", strerror(errno));
		free(dir);
		return -1;
	}
	for (i = 0; i < t->npic; i++) {
		struct picture *pc = &t->pic[i];

		if (pc->png == NULL)
			continue;
		path = ts_xasprintf("%s/%s", dir, pc->file);
		if (same_file(path, pc->png, pc->len)) {
			pc->path = path;
			continue;
		}
		if ((k = ts_sink_open(path, o->force ? TS_SINK_FORCE : 0)) ==
		    NULL) {
			if (errno == EEXIST)
				ts_diag_usage(t->d, "'%s' exists, another "
				    "picture (-f replaces it)", path);
			else
				ts_diag_io(t->d, path, "%s", strerror(errno));
			free(path);
			rv = -1;
			continue;
		}
		(void)ts_sink_write(k, pc->png, pc->len);
		if (ts_sink_commit(k) != 0) {
			ts_diag_io(t->d, path, "%s", strerror(errno));
			free(path);
			rv = -1;
			continue;
		}
		pc->path = path;
	}
	free(dir);
	return rv;
}

