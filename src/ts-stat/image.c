/*
 * image.c - the canvas of ts-stat's pictures (see image.h): pixels,
 * rectangles, text in a bitmap font drawn here, and PNG bytes through
 * libpng.
 */
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "image.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- pixels ---- */

void
image_new(struct image *im, uint32_t w, uint32_t h)
{
	im->w = w;
	im->h = h;
	im->px = ts_xmalloc((size_t)w * h != 0 ? (size_t)w * h : 1);
	memset(im->px, WHITE, (size_t)w * h);
}

void
image_free(struct image *im)
{
	free(im->px);
	im->px = NULL;
}

void
image_fill(struct image *im, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
    uint8_t v)
{
	int64_t y;

	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 > (int64_t)im->w)
		x1 = im->w;
	if (y1 > (int64_t)im->h)
		y1 = im->h;
	for (y = y0; y < y1 && x0 < x1; y++)
		memset(im->px + (size_t)y * im->w + (size_t)x0, v,
		    (size_t)(x1 - x0));
}

/* ---- the font ---- */

/*
 * Each glyph six rows of three dots, the leftmost the highest bit: five
 * rows for capitals and digits, the sixth for descenders.  No glyph is
 * another moved, but '-' and '_', so that a reader of the pixels that
 * matches them whole tells every other apart (tests/png-check.py holds
 * the same table).
 */
static const char glyphs[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    ".,-_:()/%+=?";
static const uint8_t font[][6] = {
	{ 7, 5, 5, 5, 7, 0 }, { 2, 6, 2, 2, 7, 0 }, { 7, 1, 7, 4, 7, 0 },
	{ 7, 1, 3, 1, 7, 0 }, { 5, 5, 7, 1, 1, 0 }, { 7, 4, 7, 1, 7, 0 },
	{ 7, 4, 7, 5, 7, 0 }, { 7, 1, 1, 2, 2, 0 }, { 7, 5, 7, 5, 7, 0 },
	{ 7, 5, 7, 1, 7, 0 }, { 2, 5, 7, 5, 5, 0 }, { 6, 5, 6, 5, 6, 0 },
	{ 3, 4, 4, 4, 3, 0 }, { 6, 5, 5, 5, 6, 0 }, { 7, 4, 6, 4, 7, 0 },
	{ 7, 4, 6, 4, 4, 0 }, { 7, 4, 5, 5, 7, 0 }, { 5, 5, 7, 5, 5, 0 },
	{ 7, 2, 2, 2, 7, 0 }, { 1, 1, 1, 5, 2, 0 }, { 5, 6, 4, 6, 5, 0 },
	{ 4, 4, 4, 4, 7, 0 }, { 5, 7, 7, 5, 5, 0 }, { 6, 5, 5, 5, 5, 0 },
	{ 2, 5, 5, 5, 2, 0 }, { 6, 5, 6, 4, 4, 0 }, { 2, 5, 5, 6, 3, 0 },
	{ 6, 5, 6, 5, 5, 0 }, { 3, 4, 2, 1, 6, 0 }, { 7, 2, 2, 2, 2, 0 },
	{ 5, 5, 5, 5, 7, 0 }, { 5, 5, 5, 5, 2, 0 }, { 5, 5, 7, 7, 5, 0 },
	{ 5, 5, 2, 5, 5, 0 }, { 5, 5, 2, 2, 2, 0 }, { 7, 1, 2, 4, 7, 0 },
	{ 0, 3, 5, 5, 3, 0 }, { 4, 6, 5, 5, 6, 0 }, { 0, 3, 4, 4, 3, 0 },
	{ 1, 3, 5, 5, 3, 0 }, { 0, 2, 5, 6, 3, 0 }, { 1, 2, 7, 2, 2, 0 },
	{ 0, 3, 5, 3, 1, 6 }, { 4, 6, 5, 5, 5, 0 }, { 2, 0, 6, 2, 7, 0 },
	{ 1, 0, 1, 1, 5, 2 }, { 4, 5, 6, 5, 5, 0 }, { 6, 2, 2, 2, 7, 0 },
	{ 0, 6, 7, 5, 5, 0 }, { 0, 6, 5, 5, 5, 0 }, { 0, 2, 5, 5, 2, 0 },
	{ 0, 6, 5, 5, 6, 4 }, { 0, 3, 5, 5, 3, 1 }, { 0, 5, 6, 4, 4, 0 },
	{ 0, 3, 6, 3, 6, 0 }, { 2, 7, 2, 2, 1, 0 }, { 0, 5, 5, 5, 3, 0 },
	{ 0, 5, 5, 5, 2, 0 }, { 0, 5, 5, 7, 7, 0 }, { 0, 5, 2, 2, 5, 0 },
	{ 0, 5, 5, 3, 1, 6 }, { 0, 7, 1, 6, 7, 0 }, { 0, 0, 0, 0, 2, 0 },
	{ 0, 0, 0, 0, 2, 4 }, { 0, 0, 7, 0, 0, 0 }, { 0, 0, 0, 0, 0, 7 },
	{ 0, 2, 0, 2, 0, 0 }, { 1, 2, 2, 2, 1, 0 }, { 4, 2, 2, 2, 4, 0 },
	{ 1, 1, 2, 4, 4, 0 }, { 5, 1, 2, 4, 5, 0 }, { 0, 2, 7, 2, 0, 0 },
	{ 0, 7, 0, 7, 0, 0 }, { 7, 1, 2, 0, 2, 0 }
};
#define DOT	(GLYPH_W / 3)	/* pixels a dot, each way */

/* The rows of the glyph of c; NULL for a space. */
static const uint8_t *
glyph(char c)
{
	const char *g;

	if (c == ' ')
		return NULL;
	if (c == '\0' || (g = strchr(glyphs, c)) == NULL)
		g = strchr(glyphs, '?');
	return font[g - glyphs];
}

uint32_t
text_width(const char *s)
{
	size_t n = strlen(s);

	return n == 0 ? 0 : (uint32_t)(n * PITCH - (PITCH - GLYPH_W));
}

void
image_text(struct image *im, int64_t x, int64_t y, const char *s)
{
	const uint8_t *g;
	int r, c;

	for (; *s != '\0'; s++, x += PITCH) {
		if ((g = glyph(*s)) == NULL)
			continue;
		for (r = 0; r < 6; r++)
			for (c = 0; c < 3; c++)
				if (g[r] >> (2 - c) & 1)
					image_fill(im, x + c * DOT, y + r * DOT,
					    x + (c + 1) * DOT, y + (r + 1) *
					    DOT, INK);
	}
}

void
image_text_up(struct image *im, int64_t x, int64_t y, const char *s)
{
	const uint8_t *g;
	int64_t base = y + text_width(s);
	int r, c;

	/* Turned: a glyph's row r is the column x + r, its column c the
	 * row up from the bottom. */
	for (; *s != '\0'; s++, base -= PITCH) {
		if ((g = glyph(*s)) == NULL)
			continue;
		for (r = 0; r < 6; r++)
			for (c = 0; c < 3; c++)
				if (g[r] >> (2 - c) & 1)
					image_fill(im, x + r * DOT, base -
					    (c + 1) * DOT, x + (r + 1) * DOT,
					    base - c * DOT, INK);
	}
}

size_t
text_wrap(const char *s, uint32_t width, char ***lines)
{
	size_t per = (width + (PITCH - GLYPH_W)) / PITCH, n = 0, len, cut;

	if (per == 0)
		per = 1;
	*lines = NULL;
	while (*s != '\0') {
		len = strlen(s);
		cut = len;
		if (len > per) {
			/* The last space that leaves a line within the
			 * width, else the width's worth. */
			for (cut = per; cut > 0 && s[cut] != ' '; cut--)
				continue;
			if (cut == 0)
				cut = per;
		}
		*lines = ts_xreallocarray(*lines, n + 1, sizeof(**lines));
		(*lines)[n++] = ts_xasprintf("%.*s", (int)cut, s);
		for (s += cut; *s == ' '; s++)
			continue;
	}
	return n;
}

void
lines_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- PNG ---- */

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

int
image_png(const struct image *im, const char *const *kv, int nkv_, char **out,
    size_t *len)
{
	/* Not in a register a longjmp from libpng would clobber. */
	volatile int nkv = nkv_ > 8 ? 8 : nkv_;
	/* Reached through a pointer set before setjmp, so that a longjmp
	 * from libpng finds what it holds. */
	struct ts_strbuf *b = ts_xcalloc(1, sizeof(*b));
	png_text tx[8];
	png_structp png;
	png_infop info;
	uint32_t y;
	int i;

	*out = NULL;
	*len = 0;
	memset(tx, 0, sizeof(tx));
	for (i = 0; i < nkv; i++) {
		tx[i].compression = PNG_TEXT_COMPRESSION_NONE;
		tx[i].key = (png_charp)kv[2 * i];
		tx[i].text = (png_charp)kv[2 * i + 1];
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL,
	    NULL);
	if (png == NULL || (info = png_create_info_struct(png)) == NULL) {
		png_destroy_write_struct(&png, NULL);
		free(b);
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(b->s);
		free(b);
		return -1;
	}
	png_set_write_fn(png, b, put, flush);
	/* Fixed settings: the same pixels give the same bytes. */
	png_set_compression_level(png, 9);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_IHDR(png, info, im->w, im->h, 8, PNG_COLOR_TYPE_GRAY,
	    PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE,
	    PNG_FILTER_TYPE_BASE);
	png_set_text(png, info, tx, nkv);
	png_write_info(png, info);
	for (y = 0; y < im->h; y++)
		png_write_row(png, im->px + (size_t)y * im->w);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	*out = b->s;
	*len = b->n;
	free(b);
	return 0;
}
