# Writes the .npz files of this folder with scipy and numpy (see
# SOURCES.md): /usr/bin/python3 make.py, in this folder.
import json
import numpy as np
import scipy.sparse as sp

# scipy.sparse.save_npz of a COO matrix (compressed, its default).
m = sp.coo_matrix((np.array([1.5, -2.0, 1e-300, 7.0]),
                   (np.array([0, 2, 2, 3]), np.array([1, 0, 3, 3]))),
                  shape=(4, 5))
sp.save_npz("scipy-coo.npz", m)
sp.save_npz("scipy-coo-int32.npz", m.astype(np.int32), compressed=False)
sp.save_npz("scipy-csr.npz", m.tocsr())

# pydata/sparse's save_npz: coords (ndim, nnz), data, shape, fill_value,
# through numpy.savez_compressed, as sparse/_io.py writes them.
coords = np.array([[0, 0, 1, 2], [1, 2, 0, 1], [0, 1, 1, 0]])
np.savez_compressed("pydata-coo.npz", coords=coords,
                    data=np.array([1.0, 2.5, -3.0, 0.125], dtype=np.float32),
                    shape=np.array([3, 3, 2]), fill_value=np.float32(0))
# The same coordinates in Fortran order (a transposed (nnz, ndim) array).
np.savez("pydata-coo-fortran.npz", coords=np.asfortranarray(coords),
         data=np.array([4, 5, 6, 7], dtype=np.int64),
         shape=np.array([3, 3, 2]), fill_value=np.int64(0))

# binsparse's Python reference (NPZBinsparseContainer, save_binsparse):
# numpy.savez of the arrays and the bare descriptor as a 0-d str array.
desc = {"version": "0.1", "format": "custom",
        "custom": {"level": {"level_desc": "sparse", "rank": 3,
                             "level": {"level_desc": "element"}},
                   "transpose": [2, 0, 1]},
        "shape": [3, 3, 2], "number_of_stored_values": 4,
        "data_types": {"indices_0": "int64", "indices_1": "int64",
                       "indices_2": "int64", "values": "float64"}}
# levels (mode 2, mode 0, mode 1), sorted and unique
lv = np.array([[0, 0, 1], [0, 2, 1], [1, 0, 2], [1, 1, 0]]).T
np.savez("binsparse-python.bsp.npz", indices_0=lv[0], indices_1=lv[1],
         indices_2=lv[2], values=np.array([1.0, 2.0, 3.0, 4.0]),
         binsparse=np.asarray(json.dumps(desc, indent=2, sort_keys=True)))
