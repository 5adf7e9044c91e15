# npz-same.py FILE.npz|FILE.bsp.npz BUNDLE|- [FILE.mtx]: numpy.load reads
# FILE's arrays to the entries numpy reads from the TNSB data file of
# BUNDLE, as its metadata describes it (coordinates and the values'
# bits); for a matrix, with FILE.mtx,
# scipy.sparse.load_npz reads FILE to what scipy.io.mmread reads from the
# .mtx.  Exit 0 when equal, 1 with a line saying what differs.
import json
import os
import sys

import numpy as np


def tnsb(bundle):
    name = os.path.basename(bundle.rstrip("/"))
    m = json.load(open(os.path.join(bundle, name + "_metadata.json")))
    raw = open(os.path.join(bundle, m["files"]["binary"]), "rb").read()
    pos = 0
    while raw[pos:pos + 1] == b"%":
        pos = raw.index(b"\n", pos) + 1
    pos = raw.index(b"\n", pos) + 1
    order, dims, nnz = m["order"], m["dimensions"], m["nnz"]
    it = {"uint32": "u4", "uint64": "u8"}[m["index_type"]]
    bo = ">" if m["endianness"] == "big" else "<"
    fields = [("c%d" % k, bo + it) for k in range(order)]
    if m["values_provided"]:
        fields.append(("v", bo + {"float32": "f4", "float64": "f8",
                                  "int32": "i4", "int64": "i8"}[
                                      m["value_type"]]))
    rec = np.frombuffer(raw, dtype=np.dtype(fields), count=nnz, offset=pos)
    base = m["index_base"]
    coords = np.array([rec["c%d" % k].astype(np.int64) - base
                       for k in range(order)]).reshape(order, nnz)
    vals = rec["v"] if m["values_provided"] else None
    return dims, coords, vals


def fail(msg):
    print("npz-same: " + msg)
    sys.exit(1)


def main():
    path, ref = sys.argv[1], sys.argv[2]
    if ref == "-":
        scipy_same(path, sys.argv[3])
        return
    dims, coords, vals = tnsb(ref)
    z = np.load(path, allow_pickle=False)
    if "binsparse" in z.files:
        d = json.loads(str(z["binsparse"].item()))["binsparse"]
        order = len(d["shape"])
        perm = d["format"] == "COOC" and [1, 0] or \
            d.get("custom", {}).get("transpose", list(range(order)))
        got = np.zeros((order, d["number_of_stored_values"]), np.int64)
        for k in range(order):
            got[perm[k]] = z["indices_%d" % k]
        shape = d["shape"]
        gv = z["values"]
        if d["data_types"]["values"].startswith("iso["):
            gv = np.broadcast_to(gv, (got.shape[1],))
    elif "format" in z.files:
        got = np.array([z["row"], z["col"]], np.int64)
        shape, gv = list(z["shape"]), z["data"]
    else:
        got, shape, gv = z["coords"].astype(np.int64), list(z["shape"]), \
            z["data"]
    if list(shape) != list(dims):
        fail("shape %s, not %s" % (shape, dims))
    if not np.array_equal(got, coords):
        fail("coordinates differ")
    if vals is None:
        if not np.all(gv == 1):
            fail("a tensor without values has values other than 1")
    elif gv.dtype.str[1:] != vals.dtype.str[1:] or \
            gv.tobytes() != vals.astype(gv.dtype).tobytes():
        fail("values differ (%s, %s)" % (gv.dtype, vals.dtype))
    if len(sys.argv) > 3:
        scipy_same(path, sys.argv[3])


def scipy_same(path, mtx):
    import scipy.io
    import scipy.sparse
    a = scipy.sparse.load_npz(path)
    b = scipy.io.mmread(mtx)
    if a.shape != b.shape or (a != b).nnz != 0:
        fail("scipy.sparse.load_npz differs from scipy.io.mmread")


main()
