#!/usr/bin/python3
"""tsgen1: the values of ts-gen-values(1), computed independently.

usage: tsgen1.py [options] < ROWS

Reads rows of coordinates (in --index-base, default 1) from standard
input and prints each row with the value ts-gen-values gives it, written
as the TensorSuite tools write numbers.  The options are those of
ts-gen-values that choose values; what the metadata would say is given
by --value-type, --value-domain, --explicit-zeros and --symmetric-modes
(all modes for numerical_symmetry full).  Every default is the tool's,
and an option takes the next word as the tool does, whatever it looks
like (--range -5:5).

This is a second implementation of the function that the GENERATOR
section of ts-gen-values(1) states, written from that text in plain
Python integers and floats (IEEE-754 doubles, rounded once per
operation, as the C code's are), so that values can be made or checked
without the toolkit.
"""

import argparse
import math
import struct
import sys

M64 = (1 << 64) - 1
FLT_MAX = 3.4028234663852886e38
GAMMA = 0x9E3779B97F4A7C15
WYP0 = 0xA0761D6478BD642F
TRIES = 64


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def fold(a, b):
    p = a * b
    return (p & M64) ^ (p >> 64)


def f32(x):
    """x rounded to the nearest float32, as C's (float)x: from FLT_MAX
    and half its unit in the last place (2**103) on, an infinity, where
    struct would raise OverflowError."""
    if math.isfinite(x) and abs(x) > FLT_MAX:
        return math.copysign(math.inf if abs(x) >= FLT_MAX + 2.0 ** 103
                             else FLT_MAX, x)
    return struct.unpack("<f", struct.pack("<f", x))[0]


def ln(q):
    m, e = math.frexp(q)
    if m < 0.7071067811865476:
        m *= 2
        e -= 1
    t = (m - 1) / (m + 1)
    s = t * t
    p = 1.0 / 23
    for j in range(21, 0, -2):
        p = p * s + 1.0 / j
    return e * 0.6931471805599453 + 2 * t * p


class Words:
    """The entry's SplitMix64 sequence, seeded with its state h."""

    def __init__(self, h):
        self.s = h

    def word(self):
        self.s = (self.s + GAMMA) & M64
        return mix(self.s)

    def unit(self):
        return (self.word() >> 11) * 2.0 ** -53


def state(seed, coords, groups):
    c = list(coords)
    for g in groups:
        for mode, v in zip(g, sorted(c[k] for k in g)):
            c[mode] = v
    h = mix((seed + GAMMA) & M64)
    for v in c:
        h = fold(h ^ v, WYP0)
    return h


def normal(w):
    for _ in range(TRIES):
        a = 2 * w.unit() - 1
        b = 2 * w.unit() - 1
        q = a * a + b * b
        if 0 < q < 1:
            return a * math.sqrt(-2 * ln(q) / q)
    return 0.0


def to_int(x, lo, hi):
    if not x > lo:
        return lo
    if x >= hi:
        return hi
    a = abs(x)
    v = int(math.floor(a))
    if a - v >= 0.5:        # exact: halves away from 0, as C's round()
        v += 1
    v = -v if x < 0 else v
    return min(max(v, lo), hi)


def value(o, coords):
    w = Words(state(o.seed, coords, o.groups))
    if o.value_domain == "binary":
        return 0 if o.binary_zeros > 0 and w.unit() < o.binary_zeros else 1
    if o.dist == "constant":
        return o.const
    isint = o.value_type in ("int32", "int64")
    for _ in range(TRIES):
        if o.dist == "integers":
            n = o.ihi - o.ilo + 1 - (1 if o.skip0 else 0)
            r = w.word()
            if n < 1 << 64:
                lim = (1 << 64) % n
                tries = 1
                while r < lim and tries < TRIES:
                    r = w.word()
                    tries += 1
                r %= n
            v = o.ilo + r
            if o.skip0 and v >= 0:
                v += 1
            return v if isint else float(v)
        if o.dist == "normal":
            x = o.mean + o.std * normal(w)
            x = o.lo if x < o.lo else o.hi if x > o.hi else x
        else:
            x = o.lo + (o.hi - o.lo) * w.unit()
        if isint:
            v = to_int(x, o.ilo, o.ihi)
            if v != 0 or o.zeros:
                return v
        else:
            if o.value_type == "float32":
                x = f32(x)
            if x != 0 or o.zeros:
                return x
    return o.nonzero


def fmt_float(x, single):
    """The shortest text that reads back to x, laid out as the TensorSuite
    writers lay it out (tsnum.h): positional when the decimal exponent is
    from -4 to 15, else d.ddde+x; integral values without ".0"."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if single:
        for p in range(1, 10):
            s = "%.*e" % (p - 1, x)
            if f32(float(s)) == x:
                break
    else:
        s = "%.*e" % (16, x)
        for p in range(1, 18):
            s = "%.*e" % (p - 1, x)
            if float(s) == x:
                break
    mant, exp = s.split("e")
    exp = int(exp)
    neg = mant.startswith("-")
    digits = mant.lstrip("-").replace(".", "").rstrip("0") or "0"
    if -4 <= exp < 16:
        if exp >= 0:
            ip = digits[: exp + 1].ljust(exp + 1, "0")
            fp = digits[exp + 1:]
        else:
            ip, fp = "0", "0" * (-exp - 1) + digits
        out = ip + ("." + fp if fp else "")
    else:
        out = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        out += "e%s%d" % ("+" if exp >= 0 else "-", abs(exp))
    return ("-" if neg else "") + out


def number(s):
    return int(s) if s.lstrip("+-").isdigit() else float(s)


def resolve(o):
    """The tool's defaults and bounds (ts-gen-values(1), Distributions)."""
    isint = o.value_type in ("int32", "int64")
    nonneg = o.value_domain == "nonnegative"
    o.zeros = o.explicit_zeros == "allowed"
    if o.dist is None:
        o.dist = "integers" if isint else "uniform"
    tmax = {"float32": FLT_MAX,
            "float64": sys.float_info.max,
            "int32": 2 ** 31 - 1, "int64": 2 ** 63 - 1}[o.value_type]
    tmin = -tmax - 1 if isint else -tmax
    if o.range is not None:
        lo, hi = (number(v) for v in o.range.split(":"))
        o.ilo, o.ihi = lo, hi
        o.lo, o.hi = float(lo) + 0.0, float(hi) + 0.0
    elif o.dist == "normal":
        o.ilo, o.ihi = (0 if nonneg else tmin), tmax
        o.lo, o.hi = float(o.ilo), float(o.ihi)
    elif isint or o.dist == "integers":
        o.ilo, o.ihi = (0 if nonneg else -100), 100
        o.lo, o.hi = float(o.ilo), float(o.ihi)
    else:
        o.lo, o.hi = (0.0 if nonneg else -1.0), 1.0
        o.ilo = o.ihi = 0
    o.skip0 = (o.dist == "integers" and not o.zeros and o.ilo <= 0 <=
               o.ihi)
    v = number(o.value) if o.value is not None else 1
    o.const = int(v) if isint else f32(float(v)) if (
        o.value_type == "float32") else float(v) + 0.0
    least = 1 if isint else 2.0 ** -149 if o.value_type == "float32" else (
        2.0 ** -1074)
    lo, hi = (o.ilo, o.ihi) if isint else (o.lo, o.hi)
    closed = isint or o.dist == "normal"
    if lo <= least and (least < hi or (closed and least == hi)):
        o.nonzero = least
    elif lo <= -least and (-least < hi or (closed and -least == hi)):
        o.nonzero = -least
    else:
        o.nonzero = lo
    o.groups = []
    if o.symmetric_modes:
        for g in o.symmetric_modes.split("/"):
            o.groups.append(sorted(int(m) - 1 for m in g.split(",")))


def getopt_args(takes, argv):
    """argv with each "--opt VALUE" of an option in takes (those that
    take a value) written "--opt=VALUE", so that VALUE is the option's
    whatever it looks like, as getopt_long takes it: argparse would take
    "-5:5" or "-1e3" for an option."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            out += argv[i:]
            break
        if a in takes and i + 1 < len(argv):
            out.append(a + "=" + argv[i + 1])
            i += 2
        else:
            out.append(a)
            i += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    takes = set()

    def opt(name, **kw):
        takes.add(name)
        ap.add_argument(name, **kw)

    opt("--seed", type=int, default=0)
    opt("--dist", choices=["uniform", "normal", "constant", "integers"])
    opt("--range")
    opt("--mean", type=float, default=0.0)
    opt("--std", type=float, default=1.0)
    opt("--value")
    opt("--binary-zeros", type=float, default=0.0)
    opt("--value-type", default="float64",
        choices=["float32", "float64", "int32", "int64"])
    opt("--value-domain", default="general",
        choices=["general", "nonnegative", "binary"])
    opt("--explicit-zeros", default="disallowed",
        choices=["allowed", "disallowed"])
    opt("--symmetric-modes",
        help="groups like 1,2/3,4; all modes for "
        "numerical_symmetry full")
    opt("--index-base", type=int, default=1, choices=[0, 1])
    o = ap.parse_args(getopt_args(takes, sys.argv[1:]))
    resolve(o)
    isint = o.value_type in ("int32", "int64")
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        v = value(o, [int(c) - o.index_base for c in f])
        if o.value_domain == "binary" and not isint:
            v = float(v)
        s = str(v) if isint else fmt_float(v, o.value_type == "float32")
        print(" ".join(f + [s]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
