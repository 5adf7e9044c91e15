#!/usr/bin/python3
"""Do two Matrix Market files hold the same matrix, as scipy.io.mmread
reads them?  usage: mtx-same.py A B; exit 0 when they do, 1 when not."""

import sys

import numpy
import scipy.io
import scipy.sparse


def load(path):
    m = scipy.io.mmread(path)
    if not scipy.sparse.issparse(m):
        m = scipy.sparse.coo_matrix(m)
    return m.tocsr()


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    if a.shape != b.shape:
        print("shapes differ: %s, %s" % (a.shape, b.shape))
        return 1
    if a.dtype != b.dtype and not (
            numpy.issubdtype(a.dtype, numpy.number) and
            numpy.issubdtype(b.dtype, numpy.number)):
        print("types differ: %s, %s" % (a.dtype, b.dtype))
        return 1
    # The same stored pattern (explicit zeros included) and the same
    # values, infinities and NaNs too: no subtraction, which inf defeats.
    a.sum_duplicates()
    b.sum_duplicates()
    if not (numpy.array_equal(a.indptr, b.indptr) and
            numpy.array_equal(a.indices, b.indices)):
        print("stored patterns differ")
        return 1
    if not numpy.array_equal(a.data, b.data, equal_nan=True):
        print("%d values differ" % numpy.count_nonzero(a.data != b.data))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
