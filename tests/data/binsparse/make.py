#!/usr/bin/python3
"""Write the .bsp.h5 files of this folder with h5py, laid out as
binsparse's C reference (GraphBLAS/binsparse-reference-c, commit 3535d4b:
src/write_tensor.c, src/write_matrix.c, include/binsparse/hdf5_wrapper.h)
writes them: the descriptor as the root's string attribute 'binsparse'
(variable-length UTF-8; older versions: fixed-length), cJSON's tabbed
printing, little-endian standard types, chunks of 1 MiB capped at the
array's size.  Run from this folder: python3 make.py
"""
import json

import h5py
import numpy as np


def arr(f, name, a):
    chunk = max(1, min(len(a), (1 << 20) // a.dtype.itemsize))
    f.create_dataset(name, data=a, chunks=(chunk,) if len(a) else None)


def write(path, desc, arrays, fixed=False):
    with h5py.File(path, "w", track_order=True) as f:
        for name, a in arrays:
            arr(f, name, a)
        text = json.dumps(desc, indent="\t")
        if fixed:
            f.attrs.create("binsparse", np.bytes_(text))
        else:
            f.attrs["binsparse"] = text


# A tensor as bsp_write_tensor writes one: no "format", a custom sparse
# level over an element level, the transpose always.
write("ref_tensor.bsp.h5", {"binsparse": {
    "custom": {"transpose": [0, 1, 2], "level": {
        "level_desc": "sparse", "rank": 3,
        "level": {"level_desc": "element"}}},
    "version": "0.1", "shape": [4, 3, 2], "number_of_stored_values": 4,
    "data_types": {"values": "float64", "indices_0": "uint64",
                   "indices_1": "uint64", "indices_2": "uint64"}}},
    [("values", np.array([2.5, -1.25, 1e-300, 0.1], "<f8")),
     ("indices_0", np.array([0, 0, 1, 3], "<u8")),
     ("indices_1", np.array([0, 2, 1, 0], "<u8")),
     ("indices_2", np.array([0, 1, 0, 1], "<u8"))])

# A tensor stored by modes 2, 3, 1 (transpose), iso values of 2.5.
write("ref_transposed_iso.bsp.h5", {"binsparse": {
    "custom": {"transpose": [1, 2, 0], "level": {
        "level_desc": "sparse", "rank": 3,
        "level": {"level_desc": "element"}}},
    "version": "0.1", "shape": [4, 3, 2], "number_of_stored_values": 3,
    "data_types": {"values": "iso[float32]", "indices_0": "uint8",
                   "indices_1": "uint8", "indices_2": "uint8"}}},
    [("values", np.array([2.5], "<f4")),
     ("indices_0", np.array([0, 1, 2], "<u1")),
     ("indices_1", np.array([1, 0, 1], "<u1")),
     ("indices_2", np.array([3, 2, 0], "<u1"))])

# A matrix as older versions of bsp_write_matrix wrote it: "format":
# "COO", a fixed-length string, narrow types, version 0.1.0.
write("ref_matrix_fixed.bsp.h5", {"binsparse": {
    "version": "0.1.0", "format": "COO", "shape": [3, 5],
    "number_of_stored_values": 3,
    "data_types": {"indices_0": "uint16", "indices_1": "int32",
                   "values": "int8"}}},
    [("indices_0", np.array([0, 1, 2], "<u2")),
     ("indices_1", np.array([4, 0, 2], "<i4")),
     ("values", np.array([-7, 1, 127], "<i1"))], fixed=True)
