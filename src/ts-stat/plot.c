/*
 * plot.c - the pictures of a tensor, drawn into a pixel buffer here and
 * encoded by libpng: for each pair of modes, a spy plot of the tensor
 * projected on their plane (rows: the first mode of the pair, going
 * down from coordinate 1; columns: the second, going right), each pixel
 * shaded by the log of the entries binned into it (a block tensor: of
 * the non-zero blocks over it); and for each mode, a histogram of the
 * entries per slice, log-log (buckets of powers of two, bars by the log
 * of the slices in them).
 *
 * The bytes depend on the input alone: no tIME chunk, fixed zlib level
 * and filter, text chunks that say what the picture shows.  Each file is
 * written beside its place and renamed into it (an existing one only
 * with -f).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <png.h>

#include "stat.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define WHITE	255
#define FRAME	128
#define INK	0

struct image {
	uint32_t	 w, h;
	uint8_t		*px;		/* 8-bit grey, w * h */
};

/* ---- drawing ---- */

static void
image_new(struct image *im, uint32_t w, uint32_t h)
{
	im->w = w;
	im->h = h;
	im->px = ts_xmalloc((size_t)w * h);
	memset(im->px, WHITE, (size_t)w * h);
}

static void
fill(struct image *im, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
    uint8_t v)
{
	uint32_t x, y;

	for (y = y0; y < y1 && y < im->h; y++)
		for (x = x0; x < x1 && x < im->w; x++)
			im->px[(size_t)y * im->w + x] = v;
}

/* A 3x5 font for the digits and the suffixes of counts, each row three
 * bits, the leftmost the highest. */
static const char glyphs[] = "0123456789KMGTPE";
static const uint8_t font[][5] = {
	{ 7, 5, 5, 5, 7 }, { 2, 6, 2, 2, 7 }, { 7, 1, 7, 4, 7 },
	{ 7, 1, 3, 1, 7 }, { 5, 5, 7, 1, 1 }, { 7, 4, 7, 1, 7 },
	{ 7, 4, 7, 5, 7 }, { 7, 1, 1, 2, 2 }, { 7, 5, 7, 5, 7 },
	{ 7, 5, 7, 1, 7 }, { 5, 6, 4, 6, 5 }, { 5, 7, 7, 5, 5 },
	{ 7, 4, 5, 5, 7 }, { 7, 2, 2, 2, 2 }, { 6, 5, 6, 4, 4 },
	{ 7, 4, 6, 4, 7 }
};
#define SCALE	2	/* font pixels a dot */

static uint32_t
text_width(const char *s)
{
	return (uint32_t)strlen(s) * 4 * SCALE;
}

static void
text(struct image *im, uint32_t x, uint32_t y, const char *s)
{
	const char *g;
	int r, c;

	for (; *s != '\0'; s++, x += 4 * SCALE) {
		if ((g = strchr(glyphs, *s)) == NULL)
			continue;
		for (r = 0; r < 5; r++)
			for (c = 0; c < 3; c++)
				if (font[g - glyphs][r] >> (2 - c) & 1)
					fill(im, x + (uint32_t)c * SCALE, y +
					    (uint32_t)r * SCALE, x +
					    (uint32_t)(c + 1) * SCALE, y +
					    (uint32_t)(r + 1) * SCALE, INK);
	}
}

/* The power of two n exactly, in at most four characters, the suffixes
 * binary (K is 2^10, E 2^60): 512, 1K, 64K, 2M, 8E. */
static void
compact(char *buf, size_t len, uint64_t n)
{
	static const char suffix[] = " KMGTPE";
	int i = 0;

	while (n >= 1024 && i < 6 && n % 1024 == 0) {
		n /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)n, suffix[i]);
}

/* ---- encoding ---- */

static void
put(png_structp png, png_bytep data, png_size_t n)
{
	struct ts_strbuf *b = png_get_io_ptr(png);

	if (b->n + n + 1 > b->cap) {
		b->cap = 2 * (b->n + n + 1);
		b->s = ts_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, data, n);
	b->n += n;
}

static void
flush(png_structp png)
{
	(void)png;
}

/* The PNG of im into b: 0, or -1 when libpng failed. */
static int
encode(const struct image *im, png_text *tx, int ntx, struct ts_strbuf *b)
{
	png_structp png;
	png_infop info;
	uint32_t y;

	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL,
	    NULL);
	if (png == NULL || (info = png_create_info_struct(png)) == NULL) {
		png_destroy_write_struct(&png, NULL);
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return -1;
	}
	png_set_write_fn(png, b, put, flush);
	/* Fixed settings: the same pixels give the same bytes. */
	png_set_compression_level(png, 9);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_IHDR(png, info, im->w, im->h, 8, PNG_COLOR_TYPE_GRAY,
	    PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE,
	    PNG_FILTER_TYPE_BASE);
	png_set_text(png, info, tx, ntx);
	png_write_info(png, info);
	for (y = 0; y < im->h; y++)
		png_write_row(png, im->px + (size_t)y * im->w);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	return 0;
}

static void
text_chunk(png_text *t, const char *key, const char *value)
{
	memset(t, 0, sizeof(*t));
	t->compression = PNG_TEXT_COMPRESSION_NONE;
	t->key = (png_charp)key;
	t->text = (png_charp)value;
}

/* Write im to path with its text chunks; the path goes to t->pics. */
static int
save(struct tensor *t, const struct opts *o, const char *path,
    const char *what, const struct image *im, const char *const *kv, int nkv)
{
	png_text tx[8];
	struct ts_strbuf b = { NULL, 0, 0 };
	struct ts_sink *k;
	int i, rv = -1;

	for (i = 0; i < nkv && i < 8; i++)
		text_chunk(&tx[i], kv[2 * i], kv[2 * i + 1]);
	if (encode(im, tx, nkv, &b) != 0) {
		ts_diag_io(t->d, path, "cannot encode the picture (libpng)");
		goto out;
	}
	if ((k = ts_sink_open(path, o->force ? TS_SINK_FORCE : 0)) == NULL) {
		if (errno == EEXIST)
			ts_diag_usage(t->d, "'%s' exists (-f replaces it)",
			    path);
		else
			ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	(void)ts_sink_write(k, b.s, b.n);
	if (ts_sink_commit(k) != 0) {
		ts_diag_io(t->d, path, "%s", strerror(errno));
		goto out;
	}
	t->pics = ts_xreallocarray(t->pics, t->npics + 1, sizeof(*t->pics));
	t->pic_what = ts_xreallocarray(t->pic_what, t->npics + 1,
	    sizeof(*t->pic_what));
	t->pics[t->npics] = ts_xstrdup(path);
	t->pic_what[t->npics++] = ts_xstrdup(what);
	rv = 0;
out:
	free(b.s);
	return rv;
}

/* ---- the pictures ---- */

/* Pixels a bin takes on an axis of n bins: small tensors are drawn
 * large, each side on its own, up to size. */
static uint32_t
zoom(uint32_t n, int size)
{
	return n == 0 ? 1 : n >= (uint32_t)size ? 1 : (uint32_t)size / n;
}

static int
spy(struct tensor *t, const struct opts *o, const struct fe_stats_grid *g)
{
	const struct fe_stats *s = &t->s;
	uint32_t zr = zoom(g->rows, o->size), zc = zoom(g->cols, o->size);
	uint64_t max = 0, v;
	struct image im;
	char *path, *what, modes[32], dims[64], bins[96];
	const char *kv[10];
	size_t i, n = (size_t)g->rows * g->cols;
	uint32_t r, c;
	int rv;

	for (i = 0; i < n; i++)
		if (g->cell[i] > max)
			max = g->cell[i];
	image_new(&im, g->cols * zc + 2, g->rows * zr + 2);
	fill(&im, 0, 0, im.w, 1, FRAME);
	fill(&im, 0, im.h - 1, im.w, im.h, FRAME);
	fill(&im, 0, 0, 1, im.h, FRAME);
	fill(&im, im.w - 1, 0, im.w, im.h, FRAME);
	for (r = 0; r < g->rows; r++)
		for (c = 0; c < g->cols; c++) {
			double shade;

			if ((v = g->cell[(size_t)r * g->cols + c]) == 0)
				continue;
			/* log-scaled: one entry light grey, the most black */
			shade = max > 1 ? log((double)v) / log((double)max) : 1;
			fill(&im, 1 + c * zc, 1 + r * zr, 1 + (c + 1) * zc,
			    1 + (r + 1) * zr, (uint8_t)lround(192 * (1 -
			    shade)));
		}
	snprintf(modes, sizeof(modes), "%d %d", g->a + 1, g->b + 1);
	snprintf(dims, sizeof(dims), "%llu %llu",
	    (unsigned long long)s->dims[g->a],
	    (unsigned long long)s->dims[g->b]);
	snprintf(bins, sizeof(bins), "%u x %u bins of at most %llu x %llu "
	    "coordinates; shade: log of the %s in a bin, at most %llu",
	    g->rows, g->cols, (unsigned long long)g->per_row,
	    (unsigned long long)g->per_col, s->block ? "non-zero blocks" :
	    "entries", (unsigned long long)max);
	path = ts_xasprintf("%s/%s_spy_%d-%d_%llux%llu.png", o->plot, t->name,
	    g->a + 1, g->b + 1, (unsigned long long)s->dims[g->a],
	    (unsigned long long)s->dims[g->b]);
	what = ts_xasprintf("spy plot of modes %d (rows) and %d (columns)",
	    g->a + 1, g->b + 1);
	kv[0] = "Title";
	kv[1] = what;
	kv[2] = "Tensor";
	kv[3] = t->name;
	kv[4] = "Modes";
	kv[5] = modes;
	kv[6] = "Dimensions";
	kv[7] = dims;
	kv[8] = "Bins";
	kv[9] = bins;
	rv = save(t, o, path, what, &im, kv, 5);
	free(path);
	free(what);
	free(im.px);
	return rv;
}

#define HW	420	/* a histogram's size */
#define HH	260
#define ML	48	/* its margins: left (at least), bottom, top, right */
#define MB	24
#define MT	12
#define MR	12

static int
histogram(struct tensor *t, const struct opts *o, int k)
{
	const struct ts_dist *d = &t->s.mode[k].slices;
	const uint32_t ah = HH - MB - MT;
	uint64_t nmax = 0;
	int j, top = 0, step;
	uint32_t bw, x, ml, aw;
	struct image im;
	char *path, *what, mode[16], dim[32], lab[32], ylab[32];
	const char *kv[8];
	int rv;

	for (j = 0; j < FE_STATS_HIST; j++)
		if (d->hist[j] > 0) {
			top = j;
			if (d->hist[j] > nmax)
				nmax = d->hist[j];
		}
	/* The left margin holds the largest bar's count, in full however
	 * wide (20 digits at most). */
	snprintf(ylab, sizeof(ylab), "%llu", (unsigned long long)nmax);
	ml = text_width(ylab) + 8 > ML ? text_width(ylab) + 8 : ML;
	aw = HW - ml - MR;
	bw = aw / (uint32_t)(top + 1);
	image_new(&im, HW, HH);
	for (j = 0; j <= top && nmax > 0; j++) {
		uint32_t h;

		if (d->hist[j] == 0)
			continue;
		h = (uint32_t)lround(ah * log2(1 + (double)d->hist[j]) /
		    log2(1 + (double)nmax));
		x = ml + (uint32_t)j * bw;
		fill(&im, x + 1, HH - MB - h, x + bw - (bw > 2), HH - MB, 96);
	}
	/* Axes, ticks and labels: buckets start at powers of two, whose
	 * labels are four characters at most; one that would run past
	 * the right edge is left out, never cut. */
	fill(&im, ml - 1, MT, ml, HH - MB + 1, INK);
	fill(&im, ml - 1, HH - MB, ml + aw, HH - MB + 1, INK);
	step = 1;
	while ((uint32_t)step * bw < text_width("512K") + 4)
		step *= 2;
	for (j = 0; j <= top; j += step) {
		x = ml + (uint32_t)j * bw;
		fill(&im, x, HH - MB, x + 1, HH - MB + 4, INK);
		compact(lab, sizeof(lab), (uint64_t)1 << j);
		if (x + text_width(lab) <= HW)
			text(&im, x, HH - MB + 7, lab);
	}
	fill(&im, ml - 5, MT, ml - 1, MT + 1, INK);
	text(&im, ml - 6 - text_width(ylab), MT, ylab);
	text(&im, ml - 6 - text_width("1"), HH - MB - 10, "1");
	snprintf(mode, sizeof(mode), "%d", k + 1);
	snprintf(dim, sizeof(dim), "%llu", (unsigned long long)t->s.dims[k]);
	path = ts_xasprintf("%s/%s_slices_%d_%llu.png", o->plot, t->name,
	    k + 1, (unsigned long long)t->s.dims[k]);
	what = ts_xasprintf("histogram of the %s per slice of mode %d, "
	    "log-log", t->s.block ? "non-zero blocks" : "entries", k + 1);
	kv[0] = "Title";
	kv[1] = what;
	kv[2] = "Tensor";
	kv[3] = t->name;
	kv[4] = "Modes";
	kv[5] = mode;
	kv[6] = "Dimensions";
	kv[7] = dim;
	rv = save(t, o, path, what, &im, kv, 4);
	free(path);
	free(what);
	free(im.px);
	return rv;
}

int
plot(struct tensor *t, const struct opts *o)
{
	int i, rv = 0;

	/* The directory is made if need be, not its parents. */
	if (mkdir(o->plot, 0777) != 0 && errno != EEXIST) {
		ts_diag_io(t->d, o->plot, "%s", strerror(errno));
		return -1;
	}

	for (i = 0; i < t->s.ngrid; i++)
		if (spy(t, o, &t->s.grid[i]) != 0)
			rv = -1;
	for (i = 0; i < t->s.order; i++)
		if (t->s.mode[i].slices.known && t->s.mode[i].slices.n > 0 &&
		    histogram(t, o, i) != 0)
			rv = -1;
	return rv;
}
