/*
 * hist.c - histograms: for each mode, of the entries per slice, buckets
 * of powers of two; and of the values, by sign and magnitude, NaN and
 * infinities counted beside.  Counts go up by the log of one more than
 * each, from a baseline of zero, which the vertical axis says.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"
#include "plot.h"
#include "util/xalloc.h"

/* ---- numbers as the axes write them ---- */

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

/* m * 10^k (m a digit) as a tick writes it: 0.001 to 9000 in full,
 * else 2e-5, 1e6; negative with a minus. */
static void
decimal(char *buf, size_t len, bool neg, int m, int k)
{
	const char *sg = neg ? "-" : "";

	if (k >= 0 && k <= 3)
		snprintf(buf, len, "%s%d%.*s", sg, m, k, "000");
	else if (k < 0 && k >= -3)
		snprintf(buf, len, "%s0.%.*s%d", sg, -k - 1, "00", m);
	else
		snprintf(buf, len, "%s%de%d", sg, m, k);
}

/* ---- histograms ---- */

#define HW	480	/* a histogram's width */
#define AH	180	/* its bars' height at most */
#define SLOT	40	/* a bar counted beside (NaN, inf) */
#define VBAR	8	/* a bar of the values at least */

/* A histogram: its slots' counts, the ticks under them (at: in slots
 * from the left edge), and the bars counted beside. */
struct xtick {
	double		 at;
	char		 label[32];
	bool		 first;		/* drawn before the others */
};

struct hist {
	const char	*xtitle, *ytitle;
	const uint64_t	*v;
	size_t		 n;
	struct xtick	*xt;
	size_t		 nxt;
	uint64_t	 extra[2];
	const char	*extra_label[2];
	size_t		 nextra;
};

/* The height of count n on a scale whose top is max: log(1 + n), so
 * that zero is the baseline. */
static uint32_t
bar_h(uint64_t n, uint64_t max)
{
	return max == 0 ? 0 : (uint32_t)lround(AH * log1p((double)n) /
	    log1p((double)max));
}

static void
hist_draw(struct image *im, const struct tensor *t, const struct hist *hs)
{
	uint64_t max = 0, n;
	uint32_t ml, aw, maxw, w, y0, bh, lasty;
	char lab[32], **lines, *cap = pic_caption(t);
	size_t i, nl;
	int64_t x, top, base, lo;
	struct { int64_t lo, hi; } *drawn;
	size_t j, nd = 0;
	int pass;
	double sw;

	for (i = 0; i < hs->n; i++)
		if (hs->v[i] > max)
			max = hs->v[i];
	for (i = 0; i < hs->nextra; i++)
		if (hs->extra[i] > max)
			max = hs->extra[i];
	nl = text_wrap(cap, HW - 2 * PAD, &lines);
	/* The left margin holds the largest count, in full however wide
	 * (20 digits at most), and the title turned. */
	snprintf(lab, sizeof(lab), "%llu", (unsigned long long)max);
	maxw = text_width(lab);
	ml = PAD + GLYPH_H + GAP + maxw + GAP + TICK;
	aw = HW - ml - PAD - SLOT / 2 - (hs->nextra > 0 ? (uint32_t)hs->nextra *
	    SLOT + SLOT / 2 : 0);
	top = PAD + (int64_t)nl * LINE + PAD + CAP_H / 2;
	base = top + AH;
	image_new(im, HW, (uint32_t)base + 1 + TICK + GAP + LINE + LINE + PAD);
	pic_caption_draw(im, lines, nl);
	lines_free(lines, nl);
	free(cap);
	sw = hs->n > 0 ? (double)aw / (double)hs->n : aw;
	for (i = 0; i < hs->n; i++) {
		int64_t x0 = ml + (int64_t)floor(i * sw), x1 = ml +
		    (int64_t)floor((i + 1) * sw);

		if ((bh = bar_h(hs->v[i], max)) == 0)
			continue;
		image_fill(im, x0 + 1, base - bh, x1 - (x1 - x0 > 2), base, BAR);
	}
	for (i = 0; i < hs->nextra; i++) {
		x = ml + aw + SLOT / 2 + (int64_t)i * SLOT;
		bh = bar_h(hs->extra[i], max);
		image_fill(im, x + SLOT / 4, base - bh, x + SLOT - SLOT / 4,
		    base, BAR);
		image_fill(im, x, base, x + SLOT, base + 1, AXIS);
		w = text_width(hs->extra_label[i]);
		image_text(im, x + SLOT / 2 - w / 2, base + 1 + TICK + GAP,
		    hs->extra_label[i]);
		snprintf(lab, sizeof(lab), "%llu",
		    (unsigned long long)hs->extra[i]);
		w = text_width(lab);
		/* Its count above it, where it fits in the slot. */
		if (w <= SLOT)
			image_text(im, x + SLOT / 2 - w / 2, base - bh - GAP -
			    CAP_H, lab);
	}
	/* Axes, ticks and labels. */
	image_fill(im, ml - 1, top, ml, base + 1, AXIS);
	image_fill(im, ml - 1, base, ml + aw, base + 1, AXIS);
	/* A label centred on its tick, none cut by an edge, none within
	 * a glyph of one drawn (the first ones drawn first): those left
	 * out. */
	drawn = ts_xcalloc(hs->nxt + 1, sizeof(*drawn));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < hs->nxt; i++) {
			if (hs->xt[i].first != (pass == 0))
				continue;
			x = ml + (int64_t)floor(hs->xt[i].at * sw);
			if (x >= ml + (int64_t)aw)
				x = ml + aw - 1;
			w = text_width(hs->xt[i].label);
			lo = x - w / 2;
			for (j = 0; j < nd; j++)
				if (lo < drawn[j].hi + PITCH &&
				    drawn[j].lo < lo + w + PITCH)
					break;
			if (lo < 0 || lo + w > (int64_t)HW || j < nd)
				continue;
			image_fill(im, x, base + 1, x + 1, base + 1 + TICK,
			    AXIS);
			image_text(im, lo, base + 1 + TICK + GAP,
			    hs->xt[i].label);
			drawn[nd].lo = lo;
			drawn[nd++].hi = lo + w;
		}
	free(drawn);
	w = text_width(hs->xtitle);
	image_text(im, ml + aw / 2 - w / 2, base + 1 + TICK + GAP + LINE,
	    hs->xtitle);
	w = text_width(hs->ytitle);
	image_text_up(im, PAD, base - w < top ? top : base - w, hs->ytitle);
	/* The counts up the side: 0 at the baseline, the largest at the
	 * top, in full; between them the powers of ten a line apart from
	 * both. */
	y0 = (uint32_t)base;
	lasty = y0;
	for (n = 0; ; n = n == 0 ? 1 : n * 10) {
		bool top_one = n >= max;

		if (top_one)
			n = max;
		bh = bar_h(n, max);
		if (n == 0 || top_one || (lasty - (y0 - bh) >= LINE &&
		    (y0 - bh) - (y0 - bar_h(max, max)) >= LINE)) {
			snprintf(lab, sizeof(lab), "%llu",
			    (unsigned long long)n);
			image_fill(im, ml - 1 - TICK, y0 - bh, ml - 1, y0 - bh +
			    1, AXIS);
			image_text(im, ml - 1 - TICK - GAP - text_width(lab),
			    (int64_t)(y0 - bh) - CAP_H / 2, lab);
			lasty = y0 - bh;
		}
		if (top_one || n > UINT64_MAX / 10)
			break;
	}
}

int
pic_slices(struct tensor *t, int k, bool draw)
{
	const struct ts_dist *d = &t->s.mode[k].slices;
	struct xtick xt[FE_STATS_HIST];
	struct image im;
	struct hist hs;
	char *file, *what, mode[16], dim[32], *cap;
	const char *kv[10];
	uint32_t step = 1, bw;
	int j, top = 0, rv;

	file = ts_xasprintf("%s_slices_%d_%llu.png", t->name, k + 1,
	    (unsigned long long)t->s.dims[k]);
	what = ts_xasprintf("histogram of the %s per slice of mode %d, "
	    "log-log", t->s.block ? "non-zero blocks" : "entries", k + 1);
	if (!draw)
		return pic_add(t, file, what, NULL, NULL, 0);
	for (j = 0; j < FE_STATS_HIST; j++)
		if (d->hist[j] > 0)
			top = j;
	memset(xt, 0, sizeof(xt));
	memset(&hs, 0, sizeof(hs));
	hs.v = d->hist;
	hs.n = (size_t)top + 1;
	hs.xtitle = t->s.block ? "non-zero blocks per slice" :
	    "entries per slice";
	hs.ytitle = "slices";
	/* Buckets start at powers of two, whose labels are four
	 * characters at most, as many as have room. */
	bw = (HW - 120) / (uint32_t)hs.n;
	while (step * bw < text_width("512K") + PITCH)
		step *= 2;
	hs.xt = xt;
	for (j = 0; j <= top; j += (int)step) {
		xt[hs.nxt].at = j;
		compact(xt[hs.nxt].label, sizeof(xt[hs.nxt].label),
		    (uint64_t)1 << j);
		hs.nxt++;
	}
	hist_draw(&im, t, &hs);
	snprintf(mode, sizeof(mode), "%d", k + 1);
	snprintf(dim, sizeof(dim), "%llu", (unsigned long long)t->s.dims[k]);
	cap = pic_caption(t);
	kv[0] = "Title";
	kv[1] = what;
	kv[2] = "Tensor";
	kv[3] = t->name;
	kv[4] = "Description";
	kv[5] = cap;
	kv[6] = "Modes";
	kv[7] = mode;
	kv[8] = "Dimensions";
	kv[9] = dim;
	rv = pic_add(t, file, what, &im, kv, 5);
	free(cap);
	image_free(&im);
	return rv;
}

/* ---- the values ---- */

/* A side of the values' histogram: its buckets lo..hi (by magnitude),
 * merged f a slot, from slot at. */
struct vside {
	bool		 on;
	size_t		 lo, hi;	/* buckets, of the side's own */
	size_t		 at, n;		/* slots */
};

static size_t
group(size_t b, size_t f)
{
	return b / f;
}

/* Where magnitude x of a side falls, in slots (negatives: mirrored). */
static double
vpos(const struct vside *sd, size_t f, double x, bool neg)
{
	size_t b = fe_stats_vbucket(x) % FE_STATS_VHALF;
	double lo = fe_stats_vbucket_low(b), hi = fe_stats_vbucket_low(b + 1);
	double g = ((double)b + (x - lo) / (hi - lo)) / (double)f;

	return neg ? (double)sd->at + (double)(group(sd->hi, f) + 1) - g :
	    (double)sd->at + g - (double)group(sd->lo, f);
}

/* The least magnitude of bucket b of a side, b up to FE_STATS_VHALF. */
static double
mag_low(size_t b)
{
	return b >= FE_STATS_VHALF ? HUGE_VAL : fe_stats_vbucket_low(b);
}

/* The ticks of a side: 10^k in its range, or 1, 2 and 5 times them,
 * or every digit, whichever first gives two; in the order drawn. */
static void
vticks(struct hist *hs, const struct vside *sd, size_t f, bool neg)
{
	static const int sets[3][9] = { { 1 }, { 1, 2, 5 },
	    { 1, 2, 3, 4, 5, 6, 7, 8, 9 } };
	static const int nsets[3] = { 1, 3, 9 };
	double lo = mag_low(group(sd->lo, f) * f);
	double hi = mag_low((group(sd->hi, f) + 1) * f);
	size_t first = hs->nxt, j, i;
	int set, k, kl, kh;

	kl = (int)floor(log10(lo > 0 ? lo : 4.9e-324));
	kh = (int)ceil(log10(hi < HUGE_VAL ? hi : DBL_MAX));
	for (set = 0; set < 3; set++) {
		hs->nxt = first;
		for (k = kl; k <= kh; k++)
			for (i = 0; i < (size_t)nsets[set]; i++) {
				double v = sets[set][i] * pow(10, k);

				if (v < lo || v >= hi || hs->nxt - first >= 64)
					continue;
				hs->xt[hs->nxt].at = vpos(sd, f, v, neg);
				decimal(hs->xt[hs->nxt].label,
				    sizeof(hs->xt[hs->nxt].label), neg,
				    sets[set][i], k);
				hs->nxt++;
			}
		if (hs->nxt - first >= 2)
			break;
	}
	for (j = first + 1; j < hs->nxt; j++)
		for (i = j; i > first && hs->xt[i].at < hs->xt[i - 1].at; i--) {
			struct xtick x = hs->xt[i];

			hs->xt[i] = hs->xt[i - 1];
			hs->xt[i - 1] = x;
		}
}

int
pic_values(struct tensor *t, bool draw)
{
	const struct ts_value_stats *vs = &t->s.values;
	const uint64_t *vh = t->s.vhist;
	struct vside neg, pos;
	struct xtick xt[2 * 64 + 1];
	struct image im;
	struct hist hs;
	uint64_t *slot;
	char *file, *what, *cap;
	const char *kv[6];
	size_t b, f = 1, n, zero = SIZE_MAX;
	int rv;

	file = ts_xasprintf("%s_values.png", t->name);
	what = ts_xstrdup("histogram of the values by sign and magnitude, "
	    "log-scaled counts");
	if (!draw)
		return pic_add(t, file, what, NULL, NULL, 0);
	memset(&neg, 0, sizeof(neg));
	memset(&pos, 0, sizeof(pos));
	for (b = 0; vh != NULL && b < 2 * FE_STATS_VHALF; b++) {
		struct vside *sd = b < FE_STATS_VHALF ? &neg : &pos;
		size_t m = b % FE_STATS_VHALF;

		if (vh[b] == 0)
			continue;
		if (!sd->on)
			sd->lo = m;
		sd->on = true;
		sd->hi = m;
	}
	/* Slots: the negatives from the largest magnitude, a zero, the
	 * positives from the least; buckets merged by twos until every
	 * slot is a bar of VBAR pixels at least. */
	for (;;) {
		n = (neg.on ? group(neg.hi, f) - group(neg.lo, f) + 1 : 0) +
		    (pos.on ? group(pos.hi, f) - group(pos.lo, f) + 1 : 0) +
		    (vs->zeros > 0 || (neg.on && pos.on));
		if (n * VBAR <= HW - 120 - 2 * SLOT || f >= FE_STATS_VHALF)
			break;
		f *= 2;
	}
	slot = ts_xcalloc(n ? n : 1, sizeof(*slot));
	memset(xt, 0, sizeof(xt));
	neg.at = 0;
	neg.n = neg.on ? group(neg.hi, f) - group(neg.lo, f) + 1 : 0;
	if (vs->zeros > 0 || (neg.on && pos.on))
		zero = neg.n;
	pos.at = neg.n + (zero != SIZE_MAX);
	pos.n = pos.on ? group(pos.hi, f) - group(pos.lo, f) + 1 : 0;
	for (b = 0; vh != NULL && b < 2 * FE_STATS_VHALF; b++) {
		size_t m = b % FE_STATS_VHALF;

		if (vh[b] == 0)
			continue;
		if (b < FE_STATS_VHALF)
			slot[neg.at + group(neg.hi, f) - group(m, f)] += vh[b];
		else
			slot[pos.at + group(m, f) - group(pos.lo, f)] += vh[b];
	}
	memset(&hs, 0, sizeof(hs));
	hs.v = slot;
	hs.n = n;
	hs.xt = xt;
	hs.xtitle = "value";
	hs.ytitle = "entries";
	if (neg.on)
		vticks(&hs, &neg, f, true);
	if (zero != SIZE_MAX) {
		slot[zero] = vs->zeros;
		xt[hs.nxt].at = (double)zero + 0.5;
		xt[hs.nxt].first = true;
		snprintf(xt[hs.nxt++].label, sizeof(xt[0].label), "0");
	}
	if (pos.on)
		vticks(&hs, &pos, f, false);
	if (!vs->is_int) {
		hs.extra[0] = vs->nans;
		hs.extra_label[0] = "NaN";
		hs.extra[1] = vs->infs;
		hs.extra_label[1] = "inf";
		hs.nextra = 2;
	}
	hist_draw(&im, t, &hs);
	cap = pic_caption(t);
	kv[0] = "Title";
	kv[1] = what;
	kv[2] = "Tensor";
	kv[3] = t->name;
	kv[4] = "Description";
	kv[5] = cap;
	rv = pic_add(t, file, what, &im, kv, 3);
	free(cap);
	free(slot);
	image_free(&im);
	return rv;
}

