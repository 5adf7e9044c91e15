#!/usr/bin/env python3
"""Flip single bits of an archive and hold both readers to one verdict.

Usage: flips.py ARCHIVE ORIG-DIR WORK-DIR [--count N] [--seed S] [--jobs J]

For each of N bits of ARCHIVE (drawn with a fixed seed, without
repeats), a copy with that bit flipped is given to `ts-validate` and to
`ts-pack -x` (both found on PATH).  Each flip must be either reported by
both (exit 1; ts-pack -x then leaves nothing in its directory) or
harmless to what is unpacked (both exit 0, and the bundles ts-pack -x
wrote are those of ORIG-DIR byte for byte: a header field no data
depends on, padding, the end).  Anything else (changed data with exit
0, the two tools disagreeing, another exit status) is printed, one line
a flip, and the exit status is 1.  The last line counts each outcome.
"""

import argparse
import concurrent.futures
import filecmp
import os
import random
import shutil
import subprocess
import sys


def tree(top):
    """The files below top, relative path -> bytes; folders as None."""
    out = {}
    for root, dirs, files in os.walk(top):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), top)] = None
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, top)] = fh.read()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("archive")
    ap.add_argument("orig")
    ap.add_argument("work")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()

    with open(a.archive, "rb") as fh:
        data = fh.read()
    nbits = len(data) * 8
    bits = random.Random(a.seed).sample(range(nbits), min(a.count, nbits))
    # The archive's suffix, which may tell its compression.
    base = os.path.basename(a.archive)
    suffix = base[base.index("."):] if "." in base else ""
    # What ts-pack -x must give when nothing that matters changed.
    want = {k: v for k, v in tree(a.orig).items()}
    os.makedirs(a.work, exist_ok=True)

    def one(i, bit):
        b = bytearray(data)
        b[bit // 8] ^= 1 << (bit % 8)
        path = os.path.join(a.work, "f%d%s" % (i, suffix))
        out = os.path.join(a.work, "u%d" % i)
        with open(path, "wb") as fh:
            fh.write(b)
        os.mkdir(out)
        v = subprocess.run(["ts-validate", "-q", path],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL).returncode
        x = subprocess.run(["ts-pack", "-q", "-x", path, "-C", out],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        got = tree(out)
        what = None
        if v == 1 and x.returncode == 1:
            what = "reported" if not got else \
                "ts-pack -x left %s behind" % sorted(got)
        elif v == 0 and x.returncode == 0:
            what = "harmless" if got == want else \
                "changed data with exit 0: %s" % sorted(
                    k for k in set(got) | set(want)
                    if got.get(k, 0) != want.get(k, 0))
        else:
            what = "ts-validate exits %d, ts-pack -x %d: %s" % (
                v, x.returncode,
                x.stderr.decode(errors="replace").strip()[:200])
        os.unlink(path)
        shutil.rmtree(out)
        return bit, what

    counts = {"reported": 0, "harmless": 0}
    bad = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for bit, what in ex.map(lambda t: one(*t), enumerate(bits)):
            if what in counts:
                counts[what] += 1
            else:
                bad.append((bit, what))
    for bit, what in sorted(bad):
        print("%s: byte %d bit %d: %s" % (base, bit // 8, bit % 8, what))
    print("%s: %d flips: %d reported by both, %d harmless, %d wrong" % (
        base, len(bits), counts["reported"], counts["harmless"], len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
