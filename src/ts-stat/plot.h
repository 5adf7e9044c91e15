/*
 * plot.h - what the files of ts-stat's pictures share (plot.c, spy.c,
 * hist.c): the margins, the caption, a picture made and added to a
 * tensor's, and each kind of picture.  A kind named (draw false) is
 * added without its bytes.
 */
#ifndef TS_STAT_PLOT_H
#define TS_STAT_PLOT_H

#include <stdbool.h>
#include <stdint.h>

#include "image.h"

#define PAD	6	/* pixels around a picture */
#define TICK	4	/* a tick's length */
#define GAP	4	/* between a label and its tick or axis */

struct tensor;
struct opts;
struct fe_stats_grid;

/* "NAME: D1 x D2, nnz N", malloc'd. */
char	*pic_caption(const struct tensor *);
/* The caption's lines (text_wrap) drawn at the top of a picture. */
void	 pic_caption_draw(struct image *, char **lines, size_t n);
/* An image of the caption over a block of w x h pixels: made, the
 * caption drawn, the block's top left in *x, *y. */
void	 pic_framed(struct image *, const struct tensor *, uint32_t w,
	    uint32_t h, int64_t *x, int64_t *y);
/* Picture file (what it shows: what), both malloc'd and taken, added
 * to t's, with the PNG of im (and its nkv text chunks) unless im is
 * NULL: -1 when it could not be encoded (reported). */
int	 pic_add(struct tensor *t, char *file, char *what,
	    const struct image *im, const char *const *kv, int nkv);

int	 pic_spy(struct tensor *, const struct opts *,
	    const struct fe_stats_grid *, bool draw);
int	 pic_card(struct tensor *, const struct opts *, bool draw);
int	 pic_slices(struct tensor *, int k, bool draw);
int	 pic_values(struct tensor *, bool draw);

#endif
