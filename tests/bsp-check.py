#!/usr/bin/python3
"""Binsparse in HDF5, checked by readers that are not ours.

  bsp-check.py same FILE.bsp.h5 BUNDLE
      h5py reads FILE to the arrays numpy reads from BUNDLE's .tnsb
      (coordinates less the index base, every value bit for bit), with
      the descriptor the specification asks for: version 0.1, COO for a
      matrix stored by rows, a custom sparse level over an element level
      otherwise, the transpose the bundle's sort order makes, the data
      types of the metadata, iso values 1 for a tensor without values,
      entries unique and in lexicographic order of the stored levels,
      and the bundle's metadata beside the 'binsparse' key.
  bsp-check.py blocks FILE BUNDLE
      FILE (.bsp.h5 through h5py, .bsp.npz through numpy) holds the
      block tensor BUNDLE, whose partitions are uniform, as the
      specification's levels say: a custom sparse level of rank N (the
      block coordinates of BUNDLE's text data file, 0-based, unique and
      sorted in the order its sort_order gives, which 'transpose' says
      for both halves) over a dense level of rank N over an element
      level; 'shape' the 2N dimensions of the grid then of a block,
      number_of_stored_values every element of the blocks (the
      metadata's nnz), iso values 1, the metadata beside 'binsparse'.
  bsp-check.py bad DIR
      Write into DIR one malformed file of each family the reader must
      refuse (their names say what is wrong), block tensors' levels
      too.
  bsp-check.py narrow DIR
      Write into DIR good files of 4-byte items in small chunks, plain
      (narrow.bsp.h5) and gzip-compressed (narrow-gzip.bsp.h5): int32
      indices, uint32 values beyond int32, float32 values (narrow-f32),
      and a file whose int32 index is negative (narrow-negative).
"""
import json
import os
import sys

import h5py
import numpy as np

VT = {"float32": "<f4", "float64": "<f8", "int32": "<i4", "int64": "<i8"}
IT = {"uint32": "<u4", "uint64": "<u8"}


def tnsb(bundle):
    """The coordinates (0-based, one row an entry) and values of a
    bundle's binary data file, as numpy reads its records."""
    name = os.path.basename(bundle.rstrip("/"))
    meta = json.load(open(os.path.join(bundle, name + "_metadata.json")))
    raw = open(os.path.join(bundle, meta["files"]["binary"]), "rb").read()
    off = 0
    for _ in range(4):      # magic, version, name, size line
        off = raw.index(b"\n", off) + 1
    end = "<" if meta["endianness"] == "little" else ">"
    fields = [("c%d" % k, end + IT[meta["index_type"]][1:])
              for k in range(meta["order"])]
    if meta["values_provided"]:
        fields.append(("v", end + VT[meta["value_type"]][1:]))
    rec = np.frombuffer(raw, dtype=np.dtype(fields), offset=off)
    assert len(rec) == meta["nnz"], (len(rec), meta["nnz"])
    coords = np.stack([rec["c%d" % k].astype(np.uint64) -
                       np.uint64(meta["index_base"])
                       for k in range(meta["order"])], axis=1) \
        if len(rec) else np.zeros((0, meta["order"]), np.uint64)
    values = rec["v"] if meta["values_provided"] else None
    return meta, coords, values


def same(path, bundle):
    meta, coords, values = tnsb(bundle)
    order = meta["order"]
    with h5py.File(path, "r") as f:
        doc = json.loads(f.attrs["binsparse"])
        bs = doc["binsparse"]
        assert bs["version"] == "0.1", bs
        assert bs["shape"] == meta["dimensions"], bs
        assert bs["number_of_stored_values"] == meta["nnz"], bs
        perm = list(range(order))
        if meta["sorted"] == "lexicographic":
            perm = [k - 1 for k in meta["sort_order"]]
        if order == 2 and perm == [0, 1]:
            assert bs["format"] == "COO", bs
        elif order == 2:
            assert bs["format"] == "COOC", bs
        else:
            lv = bs["custom"]["level"]
            assert lv["level_desc"] == "sparse" and lv["rank"] == order
            assert lv["level"]["level_desc"] == "element", lv
            assert bs["custom"].get("transpose", list(range(order))) == \
                perm, bs
        dt = bs["data_types"]
        stored = np.zeros((meta["nnz"], order), np.uint64)
        for k in range(order):
            a = f["indices_%d" % k]
            assert dt["indices_%d" % k] == meta["index_type"], dt
            assert a.dtype == np.dtype(IT[meta["index_type"]]), a.dtype
            assert a.shape == (meta["nnz"],), a.shape
            stored[:, k] = a[:]
        # unique and in lexicographic order of the stored levels
        if meta["nnz"] > 1:
            keys = [stored[:, k] for k in reversed(range(order))]
            idx = np.lexsort(keys)
            assert (idx == np.arange(meta["nnz"])).all(), "not sorted"
            d = np.diff(stored.astype(np.int64), axis=0)
            assert (np.abs(d).sum(axis=1) > 0).all(), "a repeat"
        for k in range(order):
            assert (stored[:, k] == coords[:, perm[k]]).all(), k
        v = f["values"]
        if meta["values_provided"]:
            assert dt["values"] == meta["value_type"], dt
            assert v.dtype == np.dtype(VT[meta["value_type"]]), v.dtype
            a = v[:]
            assert a.shape == values.shape
            assert a.tobytes() == values.astype(a.dtype).tobytes(), \
                "values differ"
        else:
            assert dt["values"] == "iso[%s]" % meta["value_type"], dt
            assert v.shape == (1,) and v[0] == 1, v[:]
        kept = {k: v for k, v in doc.items() if k != "binsparse"}
        name = os.path.basename(bundle.rstrip("/"))
        want = json.load(open(os.path.join(bundle,
                                           name + "_metadata.json")))
        assert kept == want, (kept, want)
    print("same")


def good(f, shape, idx, vals, desc=None):
    """A good little file, then spoilt by the caller."""
    order = len(shape)
    bs = {"version": "0.1", "format": "custom", "shape": shape,
          "number_of_stored_values": len(vals),
          "custom": {"level": {"level_desc": "sparse", "rank": order,
                               "level": {"level_desc": "element"}}},
          "data_types": {"values": "float64"}}
    for k in range(order):
        f["indices_%d" % k] = np.array([t[k] for t in idx], np.uint64)
        bs["data_types"]["indices_%d" % k] = "uint64"
    f["values"] = np.array(vals, np.float64)
    f.attrs["binsparse"] = json.dumps(desc if desc is not None else
                                      {"binsparse": bs})
    return bs


def bad(d):
    idx = [(0, 1, 2), (1, 0, 0), (2, 2, 1)]
    vals = [1.5, -2.0, 3.25]
    shape = [3, 3, 3]

    def mk(name, spoil=None):
        with h5py.File(os.path.join(d, name + ".bsp.h5"), "w") as f:
            bs = good(f, shape, idx, vals)
            if spoil:
                spoil(f, bs)

    def redesc(f, bs):
        f.attrs["binsparse"] = json.dumps({"binsparse": bs})

    open(os.path.join(d, "not-hdf5.bsp.h5"), "w").write(
        "%%TensorSuite-TNS\n")
    with h5py.File(os.path.join(d, "no-attribute.bsp.h5"), "w") as f:
        f["values"] = np.zeros(3)
    mk("attribute-not-string",
       lambda f, bs: f.attrs.__setitem__("binsparse", np.arange(3)))
    mk("descriptor-not-json",
       lambda f, bs: f.attrs.__setitem__("binsparse", '{"binsparse": {'))

    def version(f, bs):
        bs["version"] = "2.0"
        redesc(f, bs)
    mk("descriptor-version", version)

    def missing(f, bs):
        del f["indices_1"]
    mk("missing-dataset", missing)

    def short(f, bs):
        del f["values"]
        f["values"] = np.array(vals[:2], np.float64)
    mk("length-disagrees", short)

    def floats(f, bs):
        del f["indices_2"]
        f["indices_2"] = np.array([t[2] for t in idx], np.float64)
    mk("float-indices", floats)

    def twod(f, bs):
        del f["indices_0"]
        f["indices_0"] = np.zeros((3, 1), np.uint64)
    mk("two-dimensional", twod)

    def negative(f, bs):
        del f["indices_0"]
        f["indices_0"] = np.array([0, -1, 2], np.int64)
        bs["data_types"]["indices_0"] = "int64"
        redesc(f, bs)
    mk("negative-index", negative)

    def beyond(f, bs):
        bs["shape"] = [2, 3, 3]
        redesc(f, bs)
    mk("index-beyond-shape", beyond)
    # A block tensor's levels, spoilt: a sparse level over a dense
    # level of another rank, values that are not iso or not 1, a
    # count of values that is no number of blocks.
    def blocks(bshape, rank=3, count=None, iso="iso[float64]", one=1.0):
        def spoil(f, bs):
            bs["shape"] = shape + bshape
            bs["custom"]["level"]["level"] = {
                "level_desc": "dense", "rank": rank,
                "level": {"level_desc": "element"}}
            bs["number_of_stored_values"] = count if count is not None \
                else len(idx) * int(np.prod(bshape))
            bs["data_types"]["values"] = iso
            if iso.startswith("iso"):
                del f["values"]
                f["values"] = np.array([one])
            redesc(f, bs)
        return spoil
    mk("block-dense-rank", blocks([1, 1, 1], rank=2))
    mk("block-values", blocks([1, 1, 1], iso="float64"))
    mk("block-iso-value", blocks([1, 1, 1], one=2.5))
    mk("block-count", blocks([1, 1, 2], count=7))

    def sparse_sparse(f, bs):
        bs["custom"]["level"]["level"] = {
            "level_desc": "sparse", "rank": 1,
            "level": {"level_desc": "element"}}
        redesc(f, bs)
    mk("sparse-over-sparse", sparse_sparse)
    # a damaged file: its first 4 KiB, signature and all
    mk("whole")
    raw = open(os.path.join(d, "whole.bsp.h5"), "rb").read()
    os.unlink(os.path.join(d, "whole.bsp.h5"))
    open(os.path.join(d, "truncated.bsp.h5"), "wb").write(raw[:1200])


def narrow(d):
    idx = [(0, 1, 2), (1, 0, 0), (2, 2, 1), (2, 2, 2), (4, 0, 1)]
    shape = [5, 3, 3]

    def mk(name, vals, vtype, comp=None, first=0):
        bs = {"version": "0.1", "format": "custom", "shape": shape,
              "number_of_stored_values": len(idx),
              "custom": {"level": {"level_desc": "sparse", "rank": 3,
                                   "level": {"level_desc": "element"}}},
              "data_types": {"values": vtype}}
        with h5py.File(os.path.join(d, name + ".bsp.h5"), "w") as f:
            for k in range(3):
                col = [t[k] for t in idx]
                col[0] = first if k == 0 else col[0]
                f.create_dataset("indices_%d" % k, data=np.array(
                    col, np.int32), chunks=(2,), compression=comp)
                bs["data_types"]["indices_%d" % k] = "int32"
            f.create_dataset("values", data=np.array(vals, vtype),
                             chunks=(2,), compression=comp)
            f.attrs["binsparse"] = json.dumps({"binsparse": bs})

    big = [4000000000, 1, 2147483648, 3, 4294967295]
    mk("narrow", big, "uint32")
    mk("narrow-gzip", big, "uint32", "gzip")
    mk("narrow-f32", [0.1, -2.5, 3e38, 1e-45, 7], "float32")
    mk("narrow-negative", big, "uint32", first=-3)


def blocks(path, bundle):
    name = os.path.basename(bundle.rstrip("/"))
    meta = json.load(open(os.path.join(bundle, name + "_metadata.json")))
    lines = [l.split() for l in open(os.path.join(
        bundle, meta["files"]["text"])) if not l.startswith("%")]
    n = meta["order"]
    grid = [int(x) for x in lines[1][:n]]
    sections = [[int(x) for x in lines[2 + k]] for k in range(n)]
    bshape = [s[0] for s in sections]
    assert all(len(set(s)) == 1 for s in sections), sections
    blk = np.array([[int(x) - meta["index_base"] for x in l]
                    for l in lines[2 + n:]], np.uint64).reshape(-1, n)
    if path.endswith(".npz"):
        z = np.load(path)
        doc = json.loads(str(z["binsparse"].item()))
        arr = {k: z[k] for k in z.files if k != "binsparse"}
    else:
        with h5py.File(path, "r") as f:
            doc = json.loads(f.attrs["binsparse"])
            arr = {k: f[k][:] for k in f}
    bs = doc["binsparse"]
    assert bs["version"] == "0.1" and bs["format"] == "custom", bs
    lv = bs["custom"]["level"]
    assert lv["level_desc"] == "sparse" and lv["rank"] == n, lv
    dn = lv["level"]
    assert dn["level_desc"] == "dense" and dn["rank"] == n, dn
    assert dn["level"] == {"level_desc": "element"}, dn
    assert bs["shape"] == grid + bshape, bs
    assert [g * b for g, b in zip(grid, bshape)] == meta["dimensions"]
    assert bs["number_of_stored_values"] == \
        len(blk) * int(np.prod(bshape)) == meta["nnz"], bs
    perm = [k - 1 for k in meta["sort_order"]] or list(range(n))
    assert bs["custom"].get("transpose", list(range(2 * n))) == \
        perm + [n + p for p in perm], bs
    assert bs["data_types"]["values"] == "iso[%s]" % meta["value_type"]
    assert list(arr["values"]) == [1], arr["values"]
    assert sorted(arr) == ["indices_%d" % k for k in range(n)] + \
        ["values"], sorted(arr)
    # Level k holds mode perm[k]: the blocks, unique, in that order.
    stored = np.stack([arr["indices_%d" % k].astype(np.uint64)
                       for k in range(n)], axis=1)
    keys = [tuple(int(x) for x in row) for row in stored]
    assert keys == sorted(set(keys)), keys
    want = sorted(tuple(int(row[p]) for p in perm) for row in blk)
    assert keys == want, (keys, want)
    attrs = {k: v for k, v in doc.items() if k != "binsparse"}
    assert attrs == meta, (attrs, meta)
    print(len(keys), "blocks of", bshape)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "same":
        same(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "blocks":
        blocks(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "bad":
        bad(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "narrow":
        narrow(sys.argv[2])
    else:
        sys.exit(__doc__)
