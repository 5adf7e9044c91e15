#!/usr/bin/python3
"""Check ts-stat's figures against an independent computation in numpy.

usage: stats-check.py FILE SKIP < ts-stat --json [--fibers] output

FILE is the tensor's text file (SKIP header lines before the rows: 0 for
FROSTT, 4 for TensorSuite text, 5 + order for a block file).  The JSON
object on standard input is ts-stat's for that file.  Prints one line
per disagreement; exit status 1 when there is any.
"""

import decimal
import itertools
import json
import sys

import numpy as np

bad = []


def same(what, got, want, rel=1e-12):
    if got is None or want is None:
        ok = got is None and want is None
    elif isinstance(want, (bool, str, list)):
        ok = got == want
    else:
        ok = abs(float(got) - float(want)) <= rel * max(1.0, abs(float(want)))
    if not ok:
        bad.append("%s: ts-stat says %r, numpy %r" % (what, got, want))


def ratio(what, got, n, p):
    """A ratio of counts, n / p: the double nearest to the fraction
    (Python's division of integers rounds so), printed as the shortest
    decimal that reads back to it (got is the Decimal of the text)."""
    want = n / p if p else 0.0
    digits = decimal.Decimal(repr(want)).normalize().as_tuple().digits
    if float(got) != want or \
            decimal.Decimal(got).normalize().as_tuple().digits != digits:
        bad.append("%s: ts-stat says %s, the nearest double is %r" %
                   (what, got, want))


def dist(what, got, counts):
    counts = np.asarray(counts, dtype=np.float64)
    same(what + " min", got["min"], int(counts.min()))
    same(what + " max", got["max"], int(counts.max()))
    same(what + " median", got["median"], float(np.median(counts)))
    ratio(what + " mean", got["mean"], int(counts.sum()), len(counts))
    same(what + " std", got["std"], float(counts.std()), 1e-9)


def spread(what, got, counts, members, name):
    """cv and imbalance of the non-empty members; their mean, std, cv
    and imbalance over every member, the empty ones counting 0."""
    c = np.asarray(counts, dtype=np.float64)
    same(what + " cv", got["cv"], c.std() / c.mean(), 1e-9)
    same(what + " imbalance", got["imbalance"], c.max() / c.mean(), 1e-9)
    allc = np.concatenate([c, np.zeros(int(members) - len(c))]) \
        if members < 1e7 else None
    a = got["all"]
    same(what + " all " + name, a[name], members, 1e-12)
    mean = c.sum() / members
    sq = (c * c).sum() / members
    std = np.sqrt(max(sq - mean * mean, 0.0))
    if allc is not None:
        std = allc.std()
    same(what + " all min", a["min"], 0 if members > len(c) else c.min())
    same(what + " all mean", a["mean"], mean, 1e-9)
    same(what + " all max", a["max"], c.max())
    same(what + " all std", a["std"], std, 1e-6)
    same(what + " all cv", a["cv"], std / mean, 1e-6)
    same(what + " all imbalance", a["imbalance"], c.max() / mean, 1e-9)


def csn(what, got, counts):
    """The discrete power law of Clauset, Shalizi and Newman: for each
    x_min among the distinct counts with 10 members or more at or above
    it (at most 500, spread evenly), alpha by maximum likelihood with
    the Hurwitz zeta function, the KS distance at each distinct count;
    the x_min of the least distance."""
    from scipy import optimize, special
    x = np.sort(np.asarray(counts, dtype=np.float64))
    u = np.unique(x)
    step = -(-len(u) // 500) if len(u) > 500 else 1
    best = None
    for i in range(0, len(u) - 1, step):
        t = x[x >= u[i]]
        if len(t) < 10:
            break
        sl = np.log(t).sum()
        r = optimize.minimize_scalar(
            lambda a: a * sl + len(t) * np.log(special.zeta(a, u[i])),
            bounds=(1.000001, 20), method="bounded",
            options={"xatol": 1e-10})
        a = r.x
        tu = u[u >= u[i]]
        emp = np.searchsorted(t, tu, side="right") / len(t)
        fit = 1 - special.zeta(a, tu + 1) / special.zeta(a, u[i])
        d = float(np.abs(emp - fit).max())
        if best is None or d < best[2]:
            best = (a, int(u[i]), d, len(t))
    if best is None:
        bad.append(what + ": ts-stat fits, numpy finds too few counts")
        return
    same(what + " x_min", got["xmin"], best[1])
    same(what + " alpha", got["alpha"], best[0], 1e-5)
    same(what + " ks", got["ks"], best[2], 1e-5)
    same(what + " n", got["n"], best[3])


def main():
    path, skip = sys.argv[1], int(sys.argv[2])
    st = json.load(sys.stdin, parse_float=decimal.Decimal)
    order = st["order"]
    rows = np.loadtxt(path, skiprows=skip, ndmin=2, dtype=np.float64)
    block = st["sparsity_type"] == "block"
    coords = rows[:, :order].astype(np.int64)
    vals = rows[:, order] if rows.shape[1] > order else None
    base = int(coords.min()) if len(coords) and coords.min() == 0 else 1
    base = st["index_base"] if not st["index_base_inferred"] else base
    same("index base", st["index_base"], base)
    c0 = coords - base
    dims = st["dimensions"]
    if st["dimensions_inferred"]:
        same("dimensions", dims, [int(x) + 1 for x in c0.max(axis=0)])
    grid = st["blocks"]["grid"] if block else dims
    if block:
        # The partition lines: each section's extent.
        with open(path) as f:
            lines = f.read().split("\n")
        ext = [[int(x) for x in lines[5 + k].split()] for k in range(order)]
        vol = np.ones(len(c0), dtype=np.int64)
        for k in range(order):
            vol *= np.asarray(ext[k], dtype=np.int64)[c0[:, k]]
        same("blocks", st["blocks"]["count"], len(c0))
        same("elements", st["nnz"], int(vol.sum()))
        same("block size min", st["blocks"]["size_min"], int(vol.min()))
        same("block size max", st["blocks"]["size_max"], int(vol.max()))
        ratio("block size mean", st["blocks"]["size_mean"], int(vol.sum()),
              len(vol))
        ratio("fill", st["blocks"]["fill"], len(c0), int(np.prod(grid,
              dtype=object)))
        nnz = int(vol.sum())
    else:
        nnz = len(c0)
        same("nnz", st["nnz"], nnz)
    p = 1
    for d in dims:
        p *= d
    same("positions", st["positions"], str(p))
    ratio("density", st["density"], nnz, p)
    # Each mode's slices.
    for k in range(order):
        m = st["modes"][k]
        u, cnt = np.unique(c0[:, k], return_counts=True)
        same("mode %d dimension" % (k + 1), m["dimension"], grid[k])
        same("mode %d non-empty" % (k + 1), m["nonempty"], len(u))
        ratio("mode %d share" % (k + 1), m["share"], len(u), grid[k])
        dist("mode %d slices" % (k + 1), m, cnt)
        same("mode %d used" % (k + 1), m["used"],
             [int(coords[:, k].min()), int(coords[:, k].max())])
    # Order and repeats.
    uniq = np.unique(c0, axis=0)
    same("repeats", st["repeats"], len(c0) - len(uniq)
         if st["repeats"] is not None else None)

    def holds(prio):
        # A stable sort in that priority leaves them where they are.
        idx = np.lexsort([c0[:, k] for k in reversed(prio)])
        return bool(np.array_equal(idx, np.arange(len(c0))))

    if st["sorted"] is False:
        for prio in itertools.permutations(range(order)):
            if holds(list(prio)):
                bad.append("sorted: ts-stat says in no order; %s holds" %
                           [x + 1 for x in prio])
    elif st["sorted"] is not None:
        if not holds([x - 1 for x in st["sorted"]]):
            bad.append("sorted: %s does not hold" % st["sorted"])
    # Values.
    v = st["values"]
    if vals is None or block:
        same("values", v, None)
    else:
        fin = vals[~np.isnan(vals)]
        same("value count", v["count"], len(vals))
        same("value min", v["min"], float(fin.min()))
        same("value max", v["max"], float(fin.max()))
        same("value mean", v["mean"], float(fin.mean()))
        same("zeros", v["zeros"], int((vals == 0).sum()))
        same("negatives", v["negatives"], int((vals < 0).sum()))
        same("nan", v["nan"], int(np.isnan(vals).sum()))
        same("inf", v["inf"], int(np.isinf(vals).sum()))
        nd = len(np.unique(vals + 0.0))
        if v["distinct_exact"]:
            same("distinct", v["distinct"], nd)
        else:
            same("distinct (estimate)", v["distinct"], nd, 0.05)
    # Fibers: the other modes fixed.
    if st["fibers"] is not None:
        for k in range(order):
            f = st["fibers"][k]
            others = np.delete(c0, k, axis=1)
            if order == 1:
                cnt = [len(c0)]
            else:
                _, cnt = np.unique(others, axis=0, return_counts=True)
            same("mode %d fibers" % (k + 1), f["fibers"], len(cnt))
            dist("mode %d fibers" % (k + 1), f, cnt)
            nall = float(np.prod([float(d) for j, d in enumerate(grid)
                                  if j != k]))
            spread("mode %d fibers" % (k + 1), f, cnt, nall, "fibers")
            if order == 1:
                same("mode 1 per_slice", f["per_slice"], None)
                continue
            # The fibers in each slice of the first other mode.
            ps = f["per_slice"]
            s = 1 if k == 0 else 0
            same("mode %d per_slice of_mode" % (k + 1), ps["of_mode"], s + 1)
            fib = np.unique(others, axis=0)
            col = s if s < k else s - 1
            _, fcnt = np.unique(fib[:, col], return_counts=True)
            same("mode %d per_slice slices" % (k + 1), ps["slices"],
                 len(fcnt))
            dist("mode %d per_slice" % (k + 1), ps, fcnt)
            spread("mode %d per_slice" % (k + 1), ps, fcnt, float(grid[s]),
                   "slices")
    # The slices' power laws, by Clauset, Shalizi and Newman's method.
    for k in range(order):
        f = st["modes"][k].get("fit")
        if f is not None:
            _, cnt = np.unique(c0[:, k], return_counts=True)
            csn("mode %d fit" % (k + 1), f, cnt)
    for b in bad:
        print("%s: %s" % (path, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
