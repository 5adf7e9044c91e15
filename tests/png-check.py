#!/usr/bin/python3
"""Read an 8-bit greyscale PNG as ts-stat writes it, with zlib alone.

usage: png-check.py FILE          prints "W H", then each chunk's type,
                                  then each text chunk as KEY=VALUE
       png-check.py FILE diag N   prints "diagonal" when, in a picture
                                  of N x N bins (inside its frame), the
                                  bins of the diagonal are dark and no
                                  other pixel is; else what is not
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


def main():
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
