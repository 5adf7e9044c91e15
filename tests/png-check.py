#!/usr/bin/python3
"""Read an 8-bit greyscale PNG as ts-stat writes it, with zlib and numpy.

usage: png-check.py FILE          prints "W H", then each chunk's type,
                                  then each text chunk as KEY=VALUE
       png-check.py FILE diag N   prints "diagonal" when, in a picture
                                  of N x N bins (inside its frame), the
                                  bins of the diagonal are dark and no
                                  other pixel is; else what is not
       png-check.py frame FILE...
                                  prints, a line a file, "FILE: W H", the
                                  pixels inside the frame of its plot
       png-check.py labels FILE...
                                  prints, a line a file, "FILE:" and the
                                  text drawn in black, each run of
                                  glyphs a word, top to bottom and left
                                  to right; a glyph cut by an edge, or
                                  not of ts-stat's font, is not read
       png-check.py labels-up FILE...
                                  the same of the text turned to read
                                  upwards (an axis's title)
       png-check.py axis FILE     a histogram: "base Y", the row of its
                                  horizontal axis; then "LABEL DY" for
                                  each label left of its vertical axis,
                                  DY the pixels its middle is above the
                                  axis; then "bars H H ...", the height
                                  of each bar, left to right
"""

import struct
import sys
import zlib

import numpy as np

WHITE, INK, FRAME, AXIS, BAR = 255, 0, 128, 96, 160


def chunks(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("not a PNG")
    i = 8
    while i < len(data):
        n, = struct.unpack(">I", data[i:i + 4])
        kind = data[i + 4:i + 8].decode("ascii")
        yield kind, data[i + 8:i + 8 + n]
        i += 12 + n


def pixels(data):
    """The pixels, an array of h rows of w."""
    w = h = 0
    idat = b""
    for kind, body in chunks(data):
        if kind == "IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 0, "not 8-bit grey"
        elif kind == "IDAT":
            idat += body
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(w)
    for y in range(h):
        f = raw[y * (w + 1)]
        line = bytearray(raw[y * (w + 1) + 1:(y + 1) * (w + 1)])
        if f != 0:
            for x in range(w):
                a = line[x - 1] if x else 0
                b = prev[x]
                c = prev[x - 1] if x else 0
                if f == 1:
                    line[x] = (line[x] + a) & 255
                elif f == 2:
                    line[x] = (line[x] + b) & 255
                elif f == 3:
                    line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                    line[x] = (line[x] + pr) & 255
        rows.append(line)
        prev = line
    return np.array(rows, dtype=np.uint8).reshape(h, w)


# ts-stat's font (src/ts-stat/image.c), each glyph six rows of three
# dots, the leftmost the highest bit, a dot two pixels each way, a glyph
# every eight pixels.
FONT = {
    "0": (7, 5, 5, 5, 7, 0), "1": (2, 6, 2, 2, 7, 0), "2": (7, 1, 7, 4, 7, 0),
    "3": (7, 1, 3, 1, 7, 0), "4": (5, 5, 7, 1, 1, 0), "5": (7, 4, 7, 1, 7, 0),
    "6": (7, 4, 7, 5, 7, 0), "7": (7, 1, 1, 2, 2, 0), "8": (7, 5, 7, 5, 7, 0),
    "9": (7, 5, 7, 1, 7, 0), "A": (2, 5, 7, 5, 5, 0), "B": (6, 5, 6, 5, 6, 0),
    "C": (3, 4, 4, 4, 3, 0), "D": (6, 5, 5, 5, 6, 0), "E": (7, 4, 6, 4, 7, 0),
    "F": (7, 4, 6, 4, 4, 0), "G": (7, 4, 5, 5, 7, 0), "H": (5, 5, 7, 5, 5, 0),
    "I": (7, 2, 2, 2, 7, 0), "J": (1, 1, 1, 5, 2, 0), "K": (5, 6, 4, 6, 5, 0),
    "L": (4, 4, 4, 4, 7, 0), "M": (5, 7, 7, 5, 5, 0), "N": (6, 5, 5, 5, 5, 0),
    "O": (2, 5, 5, 5, 2, 0), "P": (6, 5, 6, 4, 4, 0), "Q": (2, 5, 5, 6, 3, 0),
    "R": (6, 5, 6, 5, 5, 0), "S": (3, 4, 2, 1, 6, 0), "T": (7, 2, 2, 2, 2, 0),
    "U": (5, 5, 5, 5, 7, 0), "V": (5, 5, 5, 5, 2, 0), "W": (5, 5, 7, 7, 5, 0),
    "X": (5, 5, 2, 5, 5, 0), "Y": (5, 5, 2, 2, 2, 0), "Z": (7, 1, 2, 4, 7, 0),
    "a": (0, 3, 5, 5, 3, 0), "b": (4, 6, 5, 5, 6, 0), "c": (0, 3, 4, 4, 3, 0),
    "d": (1, 3, 5, 5, 3, 0), "e": (0, 2, 5, 6, 3, 0), "f": (1, 2, 7, 2, 2, 0),
    "g": (0, 3, 5, 3, 1, 6), "h": (4, 6, 5, 5, 5, 0), "i": (2, 0, 6, 2, 7, 0),
    "j": (1, 0, 1, 1, 5, 2), "k": (4, 5, 6, 5, 5, 0), "l": (6, 2, 2, 2, 7, 0),
    "m": (0, 6, 7, 5, 5, 0), "n": (0, 6, 5, 5, 5, 0), "o": (0, 2, 5, 5, 2, 0),
    "p": (0, 6, 5, 5, 6, 4), "q": (0, 3, 5, 5, 3, 1), "r": (0, 5, 6, 4, 4, 0),
    "s": (0, 3, 6, 3, 6, 0), "t": (2, 7, 2, 2, 1, 0), "u": (0, 5, 5, 5, 3, 0),
    "v": (0, 5, 5, 5, 2, 0), "w": (0, 5, 5, 7, 7, 0), "x": (0, 5, 2, 2, 5, 0),
    "y": (0, 5, 5, 3, 1, 6), "z": (0, 7, 1, 6, 7, 0), ".": (0, 0, 0, 0, 2, 0),
    ",": (0, 0, 0, 0, 2, 4), "-": (0, 0, 7, 0, 0, 0), "_": (0, 0, 0, 0, 0, 7),
    ":": (0, 2, 0, 2, 0, 0), "(": (1, 2, 2, 2, 1, 0), ")": (4, 2, 2, 2, 4, 0),
    "/": (1, 1, 2, 4, 4, 0), "%": (5, 1, 2, 4, 5, 0), "+": (0, 2, 7, 2, 0, 0),
    "=": (0, 7, 0, 7, 0, 0), "?": (7, 1, 2, 0, 2, 0),
}
PITCH, GW, GH = 8, 6, 12


def mask(bits):
    """A glyph's 12 x 6 pixels, True where black."""
    m = np.zeros((GH, GW), dtype=bool)
    for r in range(6):
        for c in range(3):
            if bits[r] >> (2 - c) & 1:
                m[2 * r:2 * r + 2, 2 * c:2 * c + 2] = True
    return m


MASKS = {ch: mask(b) for ch, b in FONT.items()}
# Where each glyph's first black pixel (top row, then left) lies.
FIRST = {ch: tuple(int(v) for v in np.argwhere(m)[0]) for ch, m in MASKS.items()}


def glyphs(img):
    """Every glyph drawn whole: (y0, x0, [chars it may be]), a glyph a
    box of its font's pixels exactly, a white pixel round it."""
    h, w = img.shape
    black = img == INK
    done = np.zeros_like(black)
    found = []
    for y, x in np.argwhere(black):
        if done[y, x]:
            continue
        cands = []
        for ch, m in MASKS.items():
            fy, fx = FIRST[ch]
            y0, x0 = y - fy, x - fx
            if y0 < 1 or x0 < 1 or y0 + GH + 1 > h or x0 + GW + 1 > w:
                continue
            box = black[y0:y0 + GH, x0:x0 + GW]
            ring = black[y0 - 1:y0 + GH + 1, x0 - 1:x0 + GW + 1].copy()
            ring[1:-1, 1:-1] = False
            if (box == m).all() and not ring.any():
                cands.append((y0, x0, ch))
        if cands:
            y0, x0, _ = cands[0]
            done[y0:y0 + GH, x0:x0 + GW] |= MASKS[cands[0][2]]
            for c in cands:
                done[c[0]:c[0] + GH, c[1]:c[1] + GW] |= MASKS[c[2]]
            found.append(cands)
        else:
            done[y, x] = True
    # A glyph that may be two ('-' or '_') is the one on the line of
    # its neighbours.
    sure = {(c[0][0], c[0][1]) for c in found if len(c) == 1}
    out = []
    for cands in found:
        pick = cands[0]
        for c in cands:
            if (c[0], c[1] - PITCH) in sure or (c[0], c[1] + PITCH) in sure:
                pick = c
        out.append(pick)
    return sorted(out)


def runs(img):
    """The words: glyphs a pitch apart on a line, (y0, x0, text)."""
    words = []
    for y0, x0, ch in glyphs(img):
        if words and words[-1][0] == y0 and words[-1][2] + PITCH == x0:
            words[-1][2] = x0
            words[-1][3] += ch
        else:
            words.append([y0, x0, x0, ch])
    return [(y0, x0, text) for y0, x0, _, text in words]


def frame(img):
    """The box of the frame's pixels: x0, y0, x1, y1 (inclusive)."""
    ys, xs = np.nonzero(img == FRAME)
    return xs.min(), ys.min(), xs.max(), ys.max()


def main():
    cmd = sys.argv[1]
    if cmd in ("labels", "labels-up"):
        for f in sys.argv[2:]:
            img = pixels(open(f, "rb").read())
            if cmd == "labels-up":
                img = np.rot90(img, k=-1)
            print(" ".join([f + ":"] + [t for _, _, t in runs(img)]))
        return 0
    if cmd == "frame":
        for f in sys.argv[2:]:
            x0, y0, x1, y1 = frame(pixels(open(f, "rb").read()))
            print("%s: %d %d" % (f, x1 - x0 - 1, y1 - y0 - 1))
        return 0
    if cmd == "axis":
        img = pixels(open(sys.argv[2], "rb").read())
        axis = img == AXIS
        # The horizontal axis: the longest row of axis grey.
        base = int(np.argmax(axis.sum(axis=1)))
        # The vertical axis: the column of axis grey from the base up.
        left = int(np.argmax(axis[:base + 1].sum(axis=0)))
        print("base", base)
        # Its labels end a tick and a gap left of it.
        for y0, x0, text in runs(img):
            if x0 + PITCH * len(text) - 2 == left - 8 and y0 < base:
                print(text, base - (y0 + 5))
        heights, x = [], left + 1
        while x < img.shape[1]:
            col = img[:base, x]
            if col[-1] == BAR:
                n = 0
                while n < base and col[base - 1 - n] == BAR:
                    n += 1
                heights.append(n)
                while x < img.shape[1] and img[base - 1, x] == BAR:
                    x += 1
            x += 1
        print("bars", *heights)
        return 0
    data = open(cmd, "rb").read()
    if len(sys.argv) == 2:
        img = pixels(data)
        print(img.shape[1], img.shape[0])
        for kind, body in chunks(data):
            print(kind)
            if kind == "tEXt":
                k, v = body.split(b"\0", 1)
                print("%s=%s" % (k.decode("latin-1"), v.decode("latin-1")))
        return 0
    img = pixels(data)
    n = int(sys.argv[3])
    # Inside the frame; n bins a side.
    x0, y0, x1, y1 = frame(img)
    inner = img[y0 + 1:y1, x0 + 1:x1]
    ih, iw = inner.shape
    off = on = total = 0
    for y in range(ih):
        for x in range(iw):
            dark = inner[y, x] < WHITE
            diag = x * n // iw == y * n // ih
            total += diag
            on += diag and dark
            off += dark and not diag
    if off == 0 and on == total:
        print("diagonal")
        return 0
    print("%d dark pixels off the diagonal, %d of %d on it" % (off, on,
                                                              total))
    return 1


if __name__ == "__main__":
    sys.exit(main())
