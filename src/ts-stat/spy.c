/*
 * spy.c - spy plots: for each pair of modes drawn, the tensor projected
 * on their plane (rows: the first mode of the pair, going down;
 * columns: the second, going right), whose bins are squares, so that
 * the picture keeps the tensor's shape, each shaded by the log of the
 * entries binned into it (a block tensor: of the non-zero blocks over
 * it); its modes' titles on its axes, ticks at round coordinates.  And
 * for order 3 and above the card: all of them side by side, smaller.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"
#include "plot.h"
#include "util/xalloc.h"

/* ---- spy plots ---- */

/* A spy plot's panel: its grid, drawn z pixels a bin (or f bins a
 * pixel each way, on a card), its ticks, and where its parts lie. */
struct tick {
	uint64_t	 c;		/* coordinate */
	int64_t		 at;		/* its pixel from the plot's edge */
	char		 label[24];
};

struct panel {
	const struct fe_stats_grid *g;
	uint32_t	 z, f;
	uint32_t	 pw, ph;	/* the plot, inside its frame */
	struct tick	*rt, *ct;	/* rows', columns' ticks */
	size_t		 nrt, nct;
	char		 rtitle[24], ctitle[24];
	/* relative to the panel: the frame's left and top, the size */
	int64_t		 fl, ft;
	uint32_t	 w, h;
};

/* The pixel of bin b's middle along a side drawn at z, or f a pixel. */
static int64_t
bin_px(const struct panel *p, uint32_t b)
{
	return p->f > 1 ? (int64_t)(b / p->f) : (int64_t)b * p->z + p->z / 2;
}

/*
 * The ticks of a side of dim coordinates from base: the first, then the
 * multiples of the least step of 1, 2 or 5 times a power of ten that
 * puts sep pixels between them (the labels' width, or a line).
 */
static size_t
ticks(const struct panel *p, uint64_t base, uint64_t dim, bool across,
    struct tick **out)
{
	static const uint64_t mul[] = { 1, 2, 5 };
	uint64_t step = 1, p10, c, last = base + (dim ? dim - 1 : 0);
	uint32_t nb = across ? p->pw : p->ph, sep;
	double ppc;
	char buf[24];
	size_t n = 0;
	int i;

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)last);
	sep = across ? text_width(buf) + 2 * PITCH : 2 * LINE;
	ppc = dim > 0 ? (double)nb / (double)dim : 1;
	for (p10 = 1; p10 <= UINT64_MAX / 50; p10 *= 10) {
		for (i = 0; i < 3; i++)
			if ((double)(step = mul[i] * p10) * ppc >= sep)
				break;
		if (i < 3)
			break;
	}
	*out = ts_xcalloc(64, sizeof(**out));
	for (c = base; c <= last && n < 64; ) {
		int64_t at = bin_px(p, fe_stats_grid_bin(p->g, c));

		if (n == 0 || (double)(c - (*out)[n - 1].c) * ppc >= sep) {
			(*out)[n].c = c;
			(*out)[n].at = at;
			snprintf((*out)[n].label, sizeof((*out)[n].label),
			    "%llu", (unsigned long long)c);
			n++;
		}
		if (c / step + 1 > last / step)
			break;
		c = (c / step + 1) * step;
	}
	return n;
}

/* Lay out a panel of grid g, each side at most side pixels. */
static void
panel_layout(struct panel *p, const struct tensor *t,
    const struct fe_stats_grid *g, uint32_t side)
{
	const struct fe_stats *s = &t->s;
	uint32_t m = g->rows > g->cols ? g->rows : g->cols, maxw = 0, w;
	int64_t over, lo, hi;
	size_t i;

	memset(p, 0, sizeof(*p));
	p->g = g;
	p->z = 1;
	p->f = 1;
	if (m > side)
		p->f = (m + side - 1) / side;
	else if (m > 0)
		p->z = side / m;
	p->pw = p->f > 1 ? (g->cols + p->f - 1) / p->f : g->cols * p->z;
	p->ph = p->f > 1 ? (g->rows + p->f - 1) / p->f : g->rows * p->z;
	snprintf(p->rtitle, sizeof(p->rtitle), "mode %d", g->a + 1);
	snprintf(p->ctitle, sizeof(p->ctitle), "mode %d", g->b + 1);
	p->nrt = ticks(p, (uint64_t)s->base, s->dims[g->a], false, &p->rt);
	p->nct = ticks(p, (uint64_t)s->base, s->dims[g->b], true, &p->ct);
	for (i = 0; i < p->nrt; i++)
		if ((w = text_width(p->rt[i].label)) > maxw)
			maxw = w;
	/* Left: the rows' title turned, its labels, their ticks. */
	p->fl = GLYPH_H + GAP + maxw + GAP + TICK;
	/* Top: the columns' title, their labels, their ticks. */
	p->ft = 2 * LINE + TICK;
	/* A column label, centred on its tick, must not pass the left. */
	for (i = 0; i < p->nct; i++) {
		lo = p->fl + 1 + p->ct[i].at - text_width(p->ct[i].label) / 2;
		if (lo < 0)
			p->fl -= lo;
	}
	w = (uint32_t)p->fl + 1 + p->pw + 1;
	for (i = 0; i < p->nct; i++) {
		hi = p->fl + 1 + p->ct[i].at + (text_width(p->ct[i].label) +
		    1) / 2;
		if (hi > (int64_t)w)
			w = (uint32_t)hi;
	}
	over = p->fl + 1 + (int64_t)p->pw / 2 + (text_width(p->ctitle) + 1) /
	    2;
	if (over > (int64_t)w)
		w = (uint32_t)over;
	p->w = w;
	/* Down: the plot, a row label below its last row, the rows'
	 * title along it. */
	p->h = (uint32_t)p->ft + 1 + p->ph + 1;
	if (p->nrt > 0 && p->ft + 1 + p->rt[p->nrt - 1].at + CAP_H / 2 + 1 >
	    (int64_t)p->h)
		p->h = (uint32_t)(p->ft + 1 + p->rt[p->nrt - 1].at + CAP_H / 2 +
		    1);
	if (p->ft + 1 + text_width(p->rtitle) > p->h)
		p->h = (uint32_t)p->ft + 1 + text_width(p->rtitle);
}

static void
panel_free(struct panel *p)
{
	free(p->rt);
	free(p->ct);
}

/* The most entries of a pixel of p. */
static uint64_t
panel_max(const struct panel *p, uint64_t *px)
{
	const struct fe_stats_grid *g = p->g;
	uint32_t r, c, pw = p->f > 1 ? p->pw : g->cols;
	uint64_t max = 0;

	for (r = 0; r < g->rows; r++)
		for (c = 0; c < g->cols; c++) {
			uint64_t *v = p->f > 1 ? &px[(size_t)(r / p->f) * pw +
			    c / p->f] : &px[(size_t)r * pw + c];

			*v += g->cell[(size_t)r * g->cols + c];
			if (*v > max)
				max = *v;
		}
	return max;
}

/* Draw p with its top left at (x, y). */
static void
panel_draw(struct image *im, const struct panel *p, int64_t x, int64_t y)
{
	const struct fe_stats_grid *g = p->g;
	const int64_t fl = x + p->fl, ft = y + p->ft;
	uint32_t pw = p->f > 1 ? p->pw : g->cols, ph = p->f > 1 ? p->ph :
	    g->rows, r, c, tw;
	uint64_t *px = ts_xcalloc((size_t)pw * ph != 0 ? (size_t)pw * ph : 1,
	    sizeof(*px)), max = panel_max(p, px);
	size_t i;

	image_fill(im, fl, ft, fl + p->pw + 2, ft + 1, FRAME);
	image_fill(im, fl, ft + p->ph + 1, fl + p->pw + 2, ft + p->ph + 2,
	    FRAME);
	image_fill(im, fl, ft, fl + 1, ft + p->ph + 2, FRAME);
	image_fill(im, fl + p->pw + 1, ft, fl + p->pw + 2, ft + p->ph + 2,
	    FRAME);
	for (r = 0; r < ph; r++)
		for (c = 0; c < pw; c++) {
			uint64_t v = px[(size_t)r * pw + c];
			uint32_t z = p->f > 1 ? 1 : p->z;
			double shade;

			if (v == 0)
				continue;
			/* log-scaled: one entry light, the most dark */
			shade = max > 1 ? log((double)v) / log((double)max) : 1;
			image_fill(im, fl + 1 + c * z, ft + 1 + r * z, fl + 1 +
			    (c + 1) * z, ft + 1 + (r + 1) * z, (uint8_t)(SHADE0 -
			    lround((SHADE0 - SHADE1) * shade)));
		}
	free(px);
	for (i = 0; i < p->nrt; i++) {
		int64_t at = ft + 1 + p->rt[i].at;

		image_fill(im, fl - TICK, at, fl, at + 1, AXIS);
		image_text(im, fl - TICK - GAP - text_width(p->rt[i].label),
		    at - CAP_H / 2, p->rt[i].label);
	}
	for (i = 0; i < p->nct; i++) {
		int64_t at = fl + 1 + p->ct[i].at;

		image_fill(im, at, ft - TICK, at + 1, ft, AXIS);
		image_text(im, at - text_width(p->ct[i].label) / 2, y + LINE,
		    p->ct[i].label);
	}
	tw = text_width(p->ctitle);
	image_text(im, fl + 1 + p->pw / 2 - tw / 2, y, p->ctitle);
	tw = text_width(p->rtitle);
	image_text_up(im, x, p->ph + 2 >= tw ? ft + (p->ph + 2 - tw) / 2 : ft,
	    p->rtitle);
}

int
pic_spy(struct tensor *t, const struct opts *o, const struct fe_stats_grid *g,
    bool draw)
{
	const struct fe_stats *s = &t->s;
	struct image im;
	struct panel p;
	char *file, *what, modes[32], dims[64], bins[128], *cap;
	const char *kv[12];
	int64_t x, y;
	int rv;

	file = ts_xasprintf("%s_spy_%d-%d_%llux%llu.png", t->name, g->a + 1,
	    g->b + 1, (unsigned long long)s->dims[g->a],
	    (unsigned long long)s->dims[g->b]);
	what = ts_xasprintf("spy plot of modes %d (rows) and %d (columns)",
	    g->a + 1, g->b + 1);
	if (!draw)
		return pic_add(t, file, what, NULL, NULL, 0);
	panel_layout(&p, t, g, (uint32_t)o->size);
	pic_framed(&im, t, p.w, p.h, &x, &y);
	panel_draw(&im, &p, x, y);
	snprintf(modes, sizeof(modes), "%d %d", g->a + 1, g->b + 1);
	snprintf(dims, sizeof(dims), "%llu %llu",
	    (unsigned long long)s->dims[g->a],
	    (unsigned long long)s->dims[g->b]);
	snprintf(bins, sizeof(bins), "%u x %u bins of at most %llu x %llu "
	    "coordinates, %u pixels a side; shade: log of the %s in a bin",
	    g->rows, g->cols, (unsigned long long)g->per,
	    (unsigned long long)g->per, p.z, s->block ? "non-zero blocks" :
	    "entries");
	cap = pic_caption(t);
	kv[0] = "Title";
	kv[1] = what;
	kv[2] = "Tensor";
	kv[3] = t->name;
	kv[4] = "Description";
	kv[5] = cap;
	kv[6] = "Modes";
	kv[7] = modes;
	kv[8] = "Dimensions";
	kv[9] = dims;
	kv[10] = "Bins";
	kv[11] = bins;
	rv = pic_add(t, file, what, &im, kv, 6);
	free(cap);
	panel_free(&p);
	image_free(&im);
	return rv;
}

/* Panels a row of a card. */
#define CARD_ROW	3
#define CARD_GAP	16

/* The spy plots of every pair drawn, side by side, at half the size. */
int
pic_card(struct tensor *t, const struct opts *o, bool draw)
{
	const struct fe_stats *s = &t->s;
	struct panel *p;
	struct image im;
	uint32_t side = (uint32_t)o->size / 2 < 16 ? 16 : (uint32_t)o->size /
	    2, w = 0, h = 0, rw, rh;
	char *file, *what, *cap, dims[32];
	const char *kv[8];
	int64_t x, y, cx, cy;
	int i, j, rv;

	file = ts_xasprintf("%s_card.png", t->name);
	what = ts_xstrdup("the spy plots of the pairs of modes, side by side");
	if (!draw)
		return pic_add(t, file, what, NULL, NULL, 0);
	p = ts_xcalloc((size_t)s->ngrid, sizeof(*p));
	for (i = 0; i < s->ngrid; i += CARD_ROW) {
		for (j = i, rw = 0, rh = 0; j < s->ngrid && j < i + CARD_ROW;
		    j++) {
			panel_layout(&p[j], t, &s->grid[j], side);
			rw += p[j].w + (j > i ? CARD_GAP : 0);
			if (p[j].h > rh)
				rh = p[j].h;
		}
		if (rw > w)
			w = rw;
		h += rh + (i > 0 ? CARD_GAP : 0);
	}
	pic_framed(&im, t, w, h, &x, &y);
	for (i = 0, cy = y; i < s->ngrid; i += CARD_ROW) {
		for (j = i, cx = x, rh = 0; j < s->ngrid && j < i + CARD_ROW;
		    j++) {
			panel_draw(&im, &p[j], cx, cy);
			cx += p[j].w + CARD_GAP;
			if (p[j].h > rh)
				rh = p[j].h;
		}
		cy += rh + CARD_GAP;
	}
	for (i = 0; i < s->ngrid; i++)
		panel_free(&p[i]);
	free(p);
	cap = pic_caption(t);
	snprintf(dims, sizeof(dims), "%d modes", s->order);
	kv[0] = "Title";
	kv[1] = what;
	kv[2] = "Tensor";
	kv[3] = t->name;
	kv[4] = "Description";
	kv[5] = cap;
	kv[6] = "Modes";
	kv[7] = dims;
	rv = pic_add(t, file, what, &im, kv, 4);
	free(cap);
	image_free(&im);
	return rv;
}

