#!/usr/bin/env python3
"""colbin-check.py FORMAT FILE REF [FILE REF]...: check a SPLATT binary
coordinate file (FORMAT splatt-bin) or a FROSTT binary file (frostt-bin)
against REF, the same tensor as TensorSuite text written 0-based with
--e16 (every value exact as a double); each pair in turn.

An independent reader, written from the formats' documentation, not
from the code that writes them.  SPLATT's src/io.c: an int32 magic 0;
the index and value widths as uint64, each 4 or 8; in indices of that
width the order, the dimensions and nnz; one array of nnz 0-based
indices per mode; the values, float or double.  FROSTT's "Binary
Format" page, version 1: a uint32 version 1; the widths as uint32; the
order and nnz as uint64; the dimensions in indices; the values; one
array of indices per mode (0-based, as TensorSuite reads them).  Both
little-endian.  It checks too that the widths are the ones the format
chooses: 4-byte indices unless a dimension (SPLATT: or nnz) needs 8,
4-byte values unless some value is no float's.
Exit 0 when they agree; else 1, saying where they differ.
"""
import struct
import sys

import numpy as np


WHERE = ""


def fail(msg):
    print("colbin-check: %s%s" % (WHERE, msg), file=sys.stderr)
    sys.exit(1)


def read_ref(path):
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f]
    rows = [ln for ln in lines if not ln.startswith("%")]
    size = [int(x) for x in rows[0].split()]
    order = size[0]
    dims = size[1:1 + order]
    nnz = size[1 + order]
    coords = np.zeros((nnz, order), dtype=np.uint64)
    vals = np.zeros(nnz, dtype=np.float64)
    for i, ln in enumerate(rows[1:1 + nnz]):
        f = ln.split()
        coords[i] = [int(x) for x in f[:order]]
        vals[i] = float(f[order]) if len(f) > order else 1.0
    return order, dims, nnz, coords, vals


def read_splatt(data):
    magic, iw, vw = struct.unpack_from("<iQQ", data, 0)
    if magic != 0:
        fail("magic %d, not 0" % magic)
    if iw not in (4, 8) or vw not in (4, 8):
        fail("widths %d and %d" % (iw, vw))
    it = np.dtype("<u4" if iw == 4 else "<u8")
    vt = np.dtype("<f4" if vw == 4 else "<f8")
    off = 20
    order = int(np.frombuffer(data, it, 1, off)[0])
    off += iw
    dims = [int(x) for x in np.frombuffer(data, it, order, off)]
    off += order * iw
    nnz = int(np.frombuffer(data, it, 1, off)[0])
    off += iw
    coords = np.zeros((nnz, order), dtype=np.uint64)
    for m in range(order):
        coords[:, m] = np.frombuffer(data, it, nnz, off)
        off += nnz * iw
    vals = np.frombuffer(data, vt, nnz, off).astype(np.float64)
    off += nnz * vw
    return iw, vw, order, dims, nnz, coords, vals, off


def read_frostt(data):
    version, iw, vw, order, nnz = struct.unpack_from("<IIIQQ", data, 0)
    if version != 1:
        fail("version %d, not 1" % version)
    if iw not in (4, 8) or vw not in (4, 8):
        fail("widths %d and %d" % (iw, vw))
    it = np.dtype("<u4" if iw == 4 else "<u8")
    vt = np.dtype("<f4" if vw == 4 else "<f8")
    off = 28
    dims = [int(x) for x in np.frombuffer(data, it, order, off)]
    off += order * iw
    vals = np.frombuffer(data, vt, nnz, off).astype(np.float64)
    off += nnz * vw
    coords = np.zeros((nnz, order), dtype=np.uint64)
    for m in range(order):
        coords[:, m] = np.frombuffer(data, it, nnz, off)
        off += nnz * iw
    return iw, vw, order, dims, nnz, coords, vals, off


def check(kind, path, ref):
    global WHERE
    WHERE = path + ": "
    with open(path, "rb") as f:
        data = f.read()
    read = read_splatt if kind == "splatt-bin" else read_frostt
    iw, vw, order, dims, nnz, coords, vals, end = read(data)
    if end != len(data):
        fail("%d bytes, the header says %d" % (len(data), end))
    r_order, r_dims, r_nnz, r_coords, r_vals = read_ref(ref)
    if (order, dims, nnz) != (r_order, r_dims, r_nnz):
        fail("order, dimensions, nnz %r, expected %r" %
             ((order, dims, nnz), (r_order, r_dims, r_nnz)))
    want_iw = 8 if max(dims) > 2**32 - 1 else 4
    if kind == "splatt-bin" and nnz >= 2**32 - 1:
        want_iw = 8
    as32 = r_vals.astype(np.float32).astype(np.float64)
    same = (as32.view(np.uint64) == r_vals.view(np.uint64)) | \
        (np.isnan(r_vals) & np.isnan(as32))
    want_vw = 4 if same.all() else 8
    if (iw, vw) != (want_iw, want_vw):
        fail("widths %d and %d; the format chooses %d and %d" %
             (iw, vw, want_iw, want_vw))
    bad = np.nonzero((coords != r_coords).any(axis=1))[0]
    if len(bad):
        fail("entry %d: coordinates %r, expected %r" %
             (bad[0], list(coords[bad[0]]), list(r_coords[bad[0]])))
    eq = (vals.view(np.uint64) == r_vals.view(np.uint64)) | \
        (np.isnan(vals) & np.isnan(r_vals))
    bad = np.nonzero(~eq)[0]
    if len(bad):
        fail("entry %d: value %r, expected %r" %
             (bad[0], vals[bad[0]], r_vals[bad[0]]))


def main():
    args = sys.argv[1:]
    if len(args) < 3 or len(args) % 2 != 1 or \
            args[0] not in ("splatt-bin", "frostt-bin"):
        fail("usage: colbin-check.py splatt-bin|frostt-bin FILE REF "
             "[FILE REF]...")
    for i in range(1, len(args), 2):
        check(args[0], args[i], args[i + 1])


main()
