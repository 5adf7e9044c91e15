#!/usr/bin/python3
"""Read an 8-bit greyscale PNG as ts-stat writes it, with zlib alone.

usage: png-check.py FILE          prints "W H", then each chunk's type,
                                  then each text chunk as KEY=VALUE
       png-check.py FILE diag N   prints "diagonal" when, in a picture
                                  of N x N bins (inside its frame), the
                                  bins of the diagonal are dark and no
                                  other pixel is; else what is not
       png-check.py labels FILE...
                                  prints, a line a file, "FILE:" and the
                                  text drawn in black, each run of
                                  glyphs a word, top to bottom and left
                                  to right; a glyph not of ts-stat's
                                  font is "?", one cut by an edge is not
                                  read
"""

import struct
import sys
import zlib


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
    return w, h, rows


# ts-stat's 3x5 font (src/ts-stat/plot.c), each row three bits, drawn
# two pixels a dot, a glyph every eight pixels.
FONT = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7),
    "3": (7, 1, 3, 1, 7), "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7),
    "6": (7, 4, 7, 5, 7), "7": (7, 1, 1, 2, 2), "8": (7, 5, 7, 5, 7),
    "9": (7, 5, 7, 1, 7), "K": (5, 6, 4, 6, 5), "M": (5, 7, 7, 5, 5),
    "G": (7, 4, 5, 5, 7), "T": (7, 2, 2, 2, 2), "P": (6, 5, 6, 4, 4),
    "E": (7, 4, 6, 4, 7),
}


def labels(w, h, rows):
    """The glyphs: the 8-connected groups of black pixels whose box is a
    glyph's, 6 x 10, inside the picture; then runs of them a pitch
    apart."""
    seen = set()
    found = []
    for y in range(h):
        for x in range(w):
            if rows[y][x] != 0 or (x, y) in seen:
                continue
            todo, comp = [(x, y)], []
            seen.add((x, y))
            while todo:
                cx, cy = todo.pop()
                comp.append((cx, cy))
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        nx, ny = cx + dx, cy + dy
                        if 0 <= nx < w and 0 <= ny < h and \
                                rows[ny][nx] == 0 and (nx, ny) not in seen:
                            seen.add((nx, ny))
                            todo.append((nx, ny))
            xs = [p[0] for p in comp]
            ys = [p[1] for p in comp]
            x0, y0 = min(xs), min(ys)
            if max(xs) - x0 != 5 or max(ys) - y0 != 9 or x0 == 0 or \
                    y0 == 0 or x0 + 6 >= w or y0 + 10 >= h:
                continue
            bits = tuple(sum((rows[y0 + 2 * r][x0 + 2 * c] == 0) << (2 - c)
                             for c in range(3)) for r in range(5))
            ch = [k for k, v in FONT.items() if v == bits]
            found.append((y0, x0, ch[0] if ch else "?"))
    found.sort()
    runs = []
    for y0, x0, ch in found:
        if runs and runs[-1][1] == y0 and runs[-1][2] + 8 == x0:
            runs[-1][2] = x0
            runs[-1][3] += ch
        else:
            runs.append([x0, y0, x0, ch])
    return [text for _, _, _, text in runs]


def main():
    if sys.argv[1] == "labels":
        for f in sys.argv[2:]:
            w, h, rows = pixels(open(f, "rb").read())
            print(" ".join([f + ":"] + labels(w, h, rows)))
        return 0
    data = open(sys.argv[1], "rb").read()
    if len(sys.argv) == 2:
        w, h, _ = pixels(data)
        print(w, h)
        for kind, body in chunks(data):
            print(kind)
            if kind == "tEXt":
                k, v = body.split(b"\0", 1)
                print("%s=%s" % (k.decode("latin-1"), v.decode("latin-1")))
        return 0
    w, h, rows = pixels(data)
    n = int(sys.argv[3])
    # Inside the frame of one pixel; n bins a side.
    iw, ih = w - 2, h - 2
    off = on = total = 0
    for y in range(ih):
        for x in range(iw):
            dark = rows[y + 1][x + 1] < 255
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
