/*
 * image.h - what ts-stat draws its pictures on (image.c): an 8-bit grey
 * pixel buffer, rectangles, text in a small bitmap font of its own
 * (ASCII letters, digits and a few signs, 3 x 5 dots with a row below
 * for descenders, each dot 2 x 2 pixels), across or turned a quarter
 * to read upwards, and the buffer as PNG bytes (libpng) that depend on
 * the pixels and text chunks alone.
 */
#ifndef TS_STAT_IMAGE_H
#define TS_STAT_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* The greys, each of one use, so that a reader of the pixels tells
 * them apart: text is the only black. */
#define WHITE	255
#define INK	0	/* text */
#define FRAME	128	/* the frame of a spy plot */
#define AXIS	96	/* axes and ticks */
#define BAR	160	/* a histogram's bars */
#define SHADE0	216	/* a spy plot's bin of one entry ... */
#define SHADE1	40	/* ... and of the most */

/* A glyph: 6 x 12 pixels, one every 8 across; lines 14 apart. */
#define GLYPH_W	6
#define GLYPH_H	12
#define PITCH	8
#define LINE	14
#define CAP_H	10	/* above the descenders */

struct image {
	uint32_t	 w, h;
	uint8_t		*px;		/* w * h, row by row */
};

void	 image_new(struct image *, uint32_t w, uint32_t h);
void	 image_free(struct image *);
/* The pixels [x0, x1) x [y0, y1) set to v, what lies outside the image
 * left out. */
void	 image_fill(struct image *, int64_t x0, int64_t y0, int64_t x1,
	    int64_t y1, uint8_t v);
/* The pixels text takes across (none for an empty one). */
uint32_t text_width(const char *);
/* s with its top left at (x, y); a byte the font lacks is drawn '?'. */
void	 image_text(struct image *, int64_t x, int64_t y, const char *s);
/* s turned a quarter anticlockwise, read upwards: its box has its top
 * left at (x, y), GLYPH_H wide and text_width(s) high. */
void	 image_text_up(struct image *, int64_t x, int64_t y, const char *s);
/*
 * s cut into lines of at most width pixels, at spaces where it can be,
 * else anywhere: *lines (malloc'd, each malloc'd) and their count.
 */
size_t	 text_wrap(const char *s, uint32_t width, char ***lines);
void	 lines_free(char **, size_t);
/*
 * The PNG of im, with the nkv text chunks kv[2i] = kv[2i + 1], into
 * *png (malloc'd) and *len: 0, or -1 when libpng failed.  No time
 * stamp, a fixed compression: the same pixels give the same bytes.
 */
int	 image_png(const struct image *im, const char *const *kv, int nkv,
	    char **png, size_t *len);

#endif
