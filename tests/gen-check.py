#!/usr/bin/python3
"""Check ts-gen's tensors against their models' laws, in numpy and scipy,
from the data files and ts-stat's JSON (never with the generator's code).

usage: gen-check.py CHECK BUNDLE [ARG...] [< ts-stat --json BUNDLE]
       gen-check.py block DENSITY A [B EINSUM]

BUNDLE is a bundle directory with a binary data file.  CHECK is one of:

  uniform               each mode's slice counts pass a chi-square test
                        against the uniform law
  random LOW HIGH       (a value, or one a mode, comma-separated)
                        each mode's slice degrees: a chi-square test of
                        their histogram against the integers of [LOW, HIGH]
                        each as likely, and (ts-stat's JSON on standard
                        input) their mean and standard deviation within 2 %
                        of (LOW + HIGH) / 2 and (HIGH - LOW) / sqrt(12)
  zipf A1,A2,...        each mode's exponent, recovered by discrete maximum
                        likelihood of the truncated Zipf law, within 0.05
                        of Ak
  kronecker SEED BASE   each mode's slice counts pass a chi-square test
                        against the product over levels of the seed's
                        marginal (SEED a text file of weights, in index
                        base BASE; the dimensions its powers)
  poisson-cp            the planted weights (BUNDLE's factors file) within
                        1% of what the entries' counts give them, each
                        count shared by the components' expected shares
  like ORIG BASE        each mode's non-empty slices' degrees within a
                        Kolmogorov-Smirnov distance of 0.05 of ORIG's (a
                        text file; BASE 0, 1 or auto)
  block DENSITY A [B E] a block bundle (text): ceil(DENSITY x grid) distinct
                        blocks, their elements nnz; with B and the einsum E,
                        each label's partitions the same in A and B

Prints one line per failure; exit status 1 when there is any.
"""

import json
import os
import sys
import warnings

import numpy as np
from scipy import optimize, stats

P_MIN = 1e-3    # a test at this level fails one honest tensor in 1000
bad = []


def load(bundle):
    """The metadata and the coordinates (0-based, n x order) of BUNDLE."""
    name = os.path.basename(os.path.normpath(bundle))
    with open(os.path.join(bundle, name + "_metadata.json")) as f:
        m = json.load(f)
    end = "<" if m["endianness"] == "little" else ">"
    fields = [("c%d" % k, end + ("u4" if m["index_type"] == "uint32"
                                 else "u8")) for k in range(m["order"])]
    if m["values_provided"]:
        vt = {"float32": "f4", "float64": "f8", "int32": "i4",
              "int64": "i8"}[m["value_type"]]
        fields.append(("v", end + vt))
    m["_values"] = None
    path = os.path.join(bundle, m["files"]["binary"])
    with open(path, "rb") as f:
        for _ in range(4):
            f.readline()
        rec = np.fromfile(f, dtype=np.dtype(fields))
    coords = np.stack([rec["c%d" % k].astype(np.int64)
                       for k in range(m["order"])], axis=1)
    if m["values_provided"]:
        m["_values"] = rec["v"].astype(np.float64)
    return m, coords - m["index_base"]


def chi2(what, counts, expected):
    """A chi-square test of counts against expected (same total), the
    cells expected to hold fewer than 5 pooled into one."""
    counts = np.asarray(counts, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if (counts[expected == 0] > 0).any():
        bad.append("%s: counts where none are expected" % what)
        return 0
    small = expected < 5
    counts = np.append(counts[~small], counts[small].sum())
    expected = np.append(expected[~small], expected[small].sum())
    keep = expected > 0
    p = stats.chisquare(counts[keep], expected[keep]).pvalue
    if not p > P_MIN:
        bad.append("%s: chi-square p = %.3g" % (what, p))
    return p


def check_uniform(m, c, args):
    n = len(c)
    for k, d in enumerate(m["dimensions"]):
        chi2("mode %d" % (k + 1), np.bincount(c[:, k], minlength=d),
             np.full(d, n / d))


def per_mode(arg, k):
    v = arg.split(",")
    return v[k] if len(v) > 1 else v[0]


def check_random(m, c, args):
    st = json.load(sys.stdin)
    for k, d in enumerate(m["dimensions"]):
        lo, hi = int(per_mode(args[0], k)), int(per_mode(args[1], k))
        deg = np.bincount(c[:, k], minlength=d)
        # The degrees' histogram in 10 bins of the range (the few that
        # rebalancing pushed out of it in the end bins), against the
        # share of the integers of [lo, hi] in each.
        edges = np.linspace(lo, hi + 1, 11)
        obs, _ = np.histogram(np.clip(deg, lo, hi), bins=edges)
        ints = np.arange(lo, hi + 1)
        share, _ = np.histogram(ints, bins=edges)
        chi2("mode %d degrees" % (k + 1), obs, share / share.sum() * d)
        mode = st["modes"][k]
        for what, got, want in (("mean", mode["mean"], (lo + hi) / 2),
                                ("std", mode["std"],
                                 (hi - lo) / np.sqrt(12))):
            if abs(got - want) > 0.02 * want:
                bad.append("mode %d: ts-stat's %s %g, not within 2%% of %g"
                           % (k + 1, what, got, want))


def zipf_mle(x, d):
    """The exponent a that maximises the likelihood of ranks x (1..d)
    under P(r) proportional to r^-a on 1..d."""
    sl = np.log(x).sum()
    n = len(x)
    r = np.arange(1, d + 1, dtype=np.float64)
    lr = np.log(r)

    def nll(a):
        return a * sl + n * np.log(np.exp(-a * lr).sum())
    return optimize.minimize_scalar(nll, bounds=(0.05, 8),
                                    method="bounded").x


def check_zipf(m, c, args):
    alphas = [float(a) for a in args[0].split(",")]
    for k, d in enumerate(m["dimensions"]):
        a = alphas[k] if len(alphas) > 1 else alphas[0]
        got = zipf_mle(c[:, k] + 1, d)
        if abs(got - a) > 0.05:
            bad.append("mode %d: the exponent's estimate %.4f is not "
                       "within 0.05 of %g" % (k + 1, got, a))


def check_kronecker(m, c, args):
    """Each mode's marginal against the seed's: coordinate x of mode d
    has the probability of the product over levels of the seed's
    marginal at x's digits in base s_d, the first level the most
    significant (args: the seed's text file, its index base)."""
    rows = np.loadtxt(args[0], skiprows=4, ndmin=2)
    with open(args[0]) as f:
        size = [f.readline() for _ in range(4)][3].split()
    order = int(size[0])
    sdim = [int(x) for x in size[1:1 + order]]
    w = np.zeros(sdim)
    for r in rows:
        w[tuple(int(x) - int(args[1]) for x in r[:order])] += r[order]
    n = len(c)
    for k, d in enumerate(m["dimensions"]):
        marg = w.sum(axis=tuple(j for j in range(order) if j != k))
        marg = marg / marg.sum()
        levels = int(round(np.log(d) / np.log(sdim[k])))
        p = np.ones(d)
        x = np.arange(d)
        for t in range(levels):
            p *= marg[(x // sdim[k] ** (levels - 1 - t)) % sdim[k]]
        chi2("mode %d" % (k + 1), np.bincount(c[:, k], minlength=d), n * p)


def check_pcp(m, c, args):
    """The planted weights, recovered from the entries: each entry's
    count shared among the components in proportion to their share of
    its expected count (the factors' file says them), the shares summed
    over the entries, within 1% of the weights' (over their sum)."""
    name = os.path.basename(os.path.normpath(args[0]))
    with open(os.path.join(args[0], m["files"]["factors"])) as f:
        words = f.read().split()
    order = int(words[1])
    dims = [int(x) for x in words[2:2 + order]]
    rank = int(words[2 + order])
    lam = np.array([float(x) for x in words[3 + order:3 + order + rank]])
    pos = 3 + order + rank
    fac = []
    for k in range(order):
        assert words[pos] == "matrix" and words[pos + 1] == "2"
        rows, cols = int(words[pos + 2]), int(words[pos + 3])
        assert rows == dims[k] and cols == rank
        fac.append(np.array([float(x) for x in
                             words[pos + 4:pos + 4 + rows * cols]])
                   .reshape(rows, cols))
        pos += 4 + rows * cols
    x = m["_values"]
    resp = np.tile(lam, (len(c), 1))
    for k in range(order):
        resp *= fac[k][c[:, k]]
    resp /= resp.sum(axis=1, keepdims=True)
    got = (resp * x[:, None]).sum(axis=0) / x.sum()
    want = lam / lam.sum()
    if abs(lam.sum() - x.sum()) > 1e-6 * x.sum():
        bad.append("the weights sum to %g, the counts to %g"
                   % (lam.sum(), x.sum()))
    for r in range(rank):
        if abs(got[r] - want[r]) > 0.01 * want[r]:
            bad.append("component %d: the entries give %.5f, the planted "
                       "weight %.5f" % (r + 1, got[r], want[r]))


def degrees(coords, k):
    """The entries of each non-empty slice of mode k."""
    d = np.bincount(coords[:, k])
    return d[d > 0]


def check_like(m, c, args):
    """Each mode's distribution of the non-empty slices' degrees within
    a Kolmogorov-Smirnov distance of 0.05 of the original's (args: its
    file, FROSTT or TensorSuite text; its index base, or 'auto': 0 when a
    coordinate is 0)."""
    with open(args[0]) as f:
        skip = 4 if f.readline().startswith("%%TensorSuite") else 0
    rows = np.loadtxt(args[0], skiprows=skip, ndmin=2)
    orig = rows[:, :m["order"]].astype(np.int64)
    base = (0 if orig.min() == 0 else 1) if args[1] == "auto" \
        else int(args[1])
    orig -= base
    warnings.simplefilter("ignore", RuntimeWarning)
    for k in range(m["order"]):
        d = stats.ks_2samp(degrees(orig, k), degrees(c, k)).statistic
        if d > 0.05:
            bad.append("mode %d: Kolmogorov-Smirnov distance %.4f" %
                       (k + 1, d))


def block_file(bundle):
    """The metadata, the partition lines and the block coordinates of a
    block bundle's text file."""
    name = os.path.basename(os.path.normpath(bundle))
    with open(os.path.join(bundle, name + "_metadata.json")) as f:
        m = json.load(f)
    with open(os.path.join(bundle, m["files"]["text"])) as f:
        lines = f.read().split("\n")
    order = m["order"]
    parts = [[int(x) for x in lines[5 + k].split()] for k in range(order)]
    rows = [[int(x) for x in r.split()] for r in lines[5 + order:] if r]
    return m, parts, np.array(rows, dtype=np.int64).reshape(-1, order)


def check_block(m, c, args):
    """The grid's density exact (ceil(density x grid) blocks, distinct),
    K3 (the elements the blocks hold are nnz); with a second bundle and
    an einsum A,B->O, a label's partitions the same in both."""
    density = float(args[0])
    bundles = args[1:3] if len(args) > 2 else args[1:2]
    found = {}
    for which, b in enumerate(bundles):
        m, parts, rows = block_file(b)
        grid = int(np.prod([len(p) for p in parts]))
        want = max(1, min(grid, int(np.ceil(density * grid))))
        if m["nnz_block"] != want or len(rows) != want:
            bad.append("%s: %d blocks, not ceil(%g x %d) = %d"
                       % (b, len(rows), density, grid, want))
        if len({tuple(r) for r in rows}) != len(rows):
            bad.append("%s: a block repeats" % b)
        vol = np.ones(len(rows), dtype=np.int64)
        for k, p in enumerate(parts):
            vol *= np.asarray(p, dtype=np.int64)[rows[:, k]]
            if sum(p) != m["dimensions"][k]:
                bad.append("%s: mode %d's partitions do not sum to %d"
                           % (b, k + 1, m["dimensions"][k]))
        if int(vol.sum()) != m["nnz"]:
            bad.append("%s: the blocks hold %d elements, not nnz %d"
                       % (b, int(vol.sum()), m["nnz"]))
        if len(args) > 3:
            labels = args[3].split("->")[0].split(",")[which]
            for k, lab in enumerate(labels):
                if lab in found and found[lab] != parts[k]:
                    bad.append("label %s: A's partitions and B's differ"
                               % lab)
                found[lab] = parts[k]


CHECKS = {"uniform": check_uniform, "random": check_random,
          "zipf": check_zipf, "kronecker": check_kronecker,
          "block": check_block, "poisson-cp": check_pcp,
          "like": check_like}


def main():
    check = sys.argv[1]
    if check == "block":
        check_block(None, None, sys.argv[2:])
    else:
        m, c = load(sys.argv[2])
        CHECKS[check](m, c, sys.argv[2:] if check == "poisson-cp" else
                      sys.argv[3:])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
