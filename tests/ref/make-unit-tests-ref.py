#!/usr/bin/python3
"""Prints the reference values written as literals into
tests/unit/test-tests.c (chisq, competency, interval, ranktest) and
tests/unit/test-pvi.c (pvi, evaluate).

Not run by make check: it needs NumPy and SciPy only (Debian's
python3-scipy and python3-numpy; run it with /usr/bin/python3). It prints
"NAME VALUE" lines with 17 significant digits; each test names the line it
took a literal from.

Sources of the values:
- chi-squared: scipy.stats.chisquare (goodness of fit) and
  scipy.stats.chi2_contingency(correction=False) (homogeneity of two rows,
  no Yates correction, as lib/stats/chisq.c computes it); p-values below
  the smallest double from their log: for 1 df, P(X >= x) = 2 Phi(-sqrt x),
  so log p = log 2 + scipy.special.log_ndtr(-sqrt x).
- normal tails (proportion test, competency): scipy.stats.norm.sf, and
  scipy.special.log_ndtr(-z) for log p; the critical z:
  scipy.stats.norm.isf.
- McNemar one-sided exact, and the competency test's exact tails:
  scipy.stats.binomtest(k, n, p, alternative='greater'); tails below the
  smallest double summed exactly with fractions.
- Kruskal-Wallis: scipy.stats.kruskal (tie-corrected).
- Bootstrap intervals of 0/1 outcomes (lib/stats/interval.c): the exact
  law of the resampled statistic, from the multinomial counts of the
  outcome patterns, enumerated with fractions; the test checks the
  interval's ends and p against it with many resamples.
- Bootstrap intervals of means (lib/model/pvi.c): a replica
  of GSL's gsl_rng_mt19937 (its seeding is init_genrand, as NumPy's
  legacy MT19937 seeding), gsl_rng_uniform_int, gsl_ran_shuffle and
  gsl_stats_quantile_from_sorted_data, written from GSL's sources and
  checked against GSL's output; each resample seeded with the low 32
  bits of its SplitMix64 stream (stream(), splitmix.py); no tells code
  is used.
- The folds of cross-fitting (lib/model/folds.c's deal): deal() below,
  SplitMix64 over the first 8 bytes of each group's SHA-256, as
  lib/model/folds.h describes.
"""
import hashlib
import math
from fractions import Fraction

import numpy as np
import scipy
from scipy import special, stats

from splitmix import GAMMA, MASK, mix64, stream   # beside this script

print("# numpy", np.__version__, "scipy", scipy.__version__)


def out(name, value):
    print(name, "%.17g" % value)


# ---- GSL replica ----
class GslMT:
    def __init__(self, seed):
        self.bg = np.random.MT19937(0)
        self.bg._legacy_seeding(seed if seed else 4357)   # gsl: 0 means 4357

    def get(self):
        return int(self.bg.random_raw())

    def uniform_int(self, n):        # gsl_rng_uniform_int, min 0, max 2^32 - 1
        scale = 0xFFFFFFFF // n
        while True:
            k = self.get() // scale
            if k < n:
                return k

    def shuffle(self, a):            # gsl_ran_shuffle
        for i in range(len(a) - 1, 0, -1):
            j = self.uniform_int(i + 1)
            a[i], a[j] = a[j], a[i]


def quantile_sorted(x, f):          # gsl_stats_quantile_from_sorted_data
    index = f * (len(x) - 1)
    lhs = int(index)
    delta = index - lhs
    if lhs == len(x) - 1:
        return x[lhs]
    return (1 - delta) * x[lhs] + delta * x[lhs + 1]


def summarise(stat, level):
    below = sum(1 for s in stat if s <= 0)
    above = sum(1 for s in stat if s >= 0)
    stat = sorted(stat)
    tail = (1.0 - level) / 2.0
    side = min(below, above)
    p = min(1.0, 2.0 * (side + 1.0) / (len(stat) + 1.0))
    return quantile_sorted(stat, tail), quantile_sorted(stat, 1.0 - tail), p


def log_p_chi2_1(x):
    return math.log(2) + special.log_ndtr(-math.sqrt(x))


# ---- chisq ----
r = stats.chisquare([10, 20, 30])
out("gof1.stat", r.statistic); out("gof1.p", r.pvalue)
r = stats.chisquare([30, 10, 20], f_exp=[30, 15, 15])
out("gof2.stat", r.statistic); out("gof2.p", r.pvalue)
r = stats.chisquare([5, 15], f_exp=[10, 10])
out("gof3.stat", r.statistic); out("gof3.p", r.pvalue)
out("gof_tiny.log_p", log_p_chi2_1(2000))

s, p, dof, _ = stats.chi2_contingency([[10, 20, 30], [30, 20, 10]], correction=False)
out("hom1.stat", s); out("hom1.p", p); out("hom1.df", dof)
s, p, dof, _ = stats.chi2_contingency([[10, 20], [20, 10]], correction=False)
out("hom2.stat", s); out("hom2.p", p); out("hom2.df", dof)
s, p, dof, _ = stats.chi2_contingency([[10, 20], [20, 10]], correction=True)
out("hom2.yates_stat", s); out("hom2.yates_p", p)
s, p, dof, _ = stats.chi2_contingency([[5, 15, 30], [40, 10, 5]], correction=False)
out("hom3.stat", s); out("hom3.p", p); out("hom3.df", dof)
try:
    stats.chi2_contingency([[1, 2, 3], [0, 0, 0]], correction=False)
    print("hom_zero_row no error")
except ValueError as e:
    print("# hom_zero_row: SciPy raises ValueError:", e)

out("prop1.p", stats.norm.sf(2.0))
pp = 42 / 100
z = (12 / 40 - 30 / 60) / math.sqrt(pp * (1 - pp) * (1 / 40 + 1 / 60))
out("prop2.z", z); out("prop2.p", stats.norm.sf(z))
out("prop_tiny.log_p", special.log_ndtr(-math.sqrt(2000)))

# ---- competency ----
for name, zz in [("z_3_sqrt5", 3 / math.sqrt(5)), ("z_1", 1.0), ("z_0", 0.0),
                 ("z_m_1_sqrt3", -1 / math.sqrt(3)), ("z_1_sqrt3", 1 / math.sqrt(3)),
                 ("z_m1", -1.0), ("z_m_3_sqrt5", -3 / math.sqrt(5)),
                 ("z_sqrt40", math.sqrt(40))]:
    out("comp." + name + ".p", stats.norm.sf(zz))
    print("comp." + name + ".p3", "%.3g" % stats.norm.sf(zz))
# class prior: p0(a) = 0.6, p0(b) = 0.4
for name, ph, p0, n in [("a.x", 0.8, 0.6, 5), ("a.w", 1.0, 0.6, 1), ("a.y", 0.5, 0.6, 4),
                        ("a.z", 1 / 3, 0.6, 3), ("b.z", 2 / 3, 0.4, 3), ("b.y", 0.5, 0.4, 4),
                        ("b.w", 0.0, 0.4, 1), ("b.x", 0.2, 0.4, 5)]:
    zz = (ph - p0) / math.sqrt(p0 * (1 - p0) / n)
    out("prior." + name + ".z", zz); out("prior." + name + ".p", stats.norm.sf(zz))
lp = special.log_ndtr(-math.sqrt(2000))
out("comp_tiny.log_p", lp)
l10 = lp / math.log(10)
e = math.floor(l10)
print("comp_tiny.p3", "%.2fe%d" % (10 ** (l10 - e), e))
out("comp.crit_0.025", stats.norm.isf(0.025))
# exact tails (tells-pmi --exact): P(X >= k), X ~ Binomial(n, p0)
for name, k, n, p0 in [("a.x", 4, 5, 0.5), ("a.w", 1, 1, 0.5), ("a.y", 2, 4, 0.5),
                       ("a.z", 1, 3, 0.5), ("b.z", 2, 3, 0.5), ("b.w", 0, 1, 0.5),
                       ("b.x", 1, 5, 0.5), ("prior.a.x", 4, 5, 0.6),
                       ("prior.b.z", 2, 3, 0.4), ("s40", 40, 40, 0.5)]:
    out("exact." + name + ".p", stats.binomtest(k, n, p0, alternative="greater").pvalue)
# far tails, exactly with fractions: log P(X >= k) for X ~ Binomial(n, p)
for name, k, n, p in [("1500_2000_1_10", 1500, 2000, Fraction(1, 10)),
                      ("2000_2000_1_3", 2000, 2000, Fraction(1, 3))]:
    tail = sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))
    out("exact_tiny." + name + ".log_p", math.log(tail.numerator) - math.log(tail.denominator))

# ---- interval ----
out("mcn.8_2", stats.binomtest(8, 10, 0.5, alternative="greater").pvalue)
out("mcn.3_3", stats.binomtest(3, 6, 0.5, alternative="greater").pvalue)
out("mcn.5_0", stats.binomtest(5, 5, 0.5, alternative="greater").pvalue)
out("mcn.0_5", stats.binomtest(0, 5, 0.5, alternative="greater").pvalue)
out("mcn.1100_900", stats.binomtest(1100, 2000, 0.5, alternative="greater").pvalue)
out("mcn.2000_0.log_p", -2000 * math.log(2))


def multinomial_law(n, shares):
    """Every count vector of n draws over the shares, with its exact
    probability (fractions)."""
    def rec(k, left):
        if k == len(shares) - 1:
            yield (left,), shares[k] ** left
            return
        for c in range(left + 1):
            for rest, pr in rec(k + 1, left - c):
                yield (c,) + rest, math.comb(left, c) * shares[k] ** c * pr
    yield from rec(0, n)


def bootstrap_law(n, counts, stat):
    """The exact law of a statistic of a bootstrap resample of n examples
    whose outcome patterns count counts: drawing n examples with
    replacement draws the patterns' counts from the multinomial over
    counts / n. Resamples where stat is None are left out (and the law
    renormalised). Returns {value: probability} and the kept share."""
    law = {}
    for c, pr in multinomial_law(n, [Fraction(k, n) for k in counts]):
        v = stat(c)
        if v is not None:
            law[v] = law.get(v, 0) + pr
    kept = sum(law.values())
    return {v: pr / kept for v, pr in law.items()}, kept


def print_law(name, law, kept):
    out(name + ".kept", kept)
    cdf = 0
    for v in sorted(v for v in law if law[v] > 0):
        cdf += law[v]
        out("%s.cdf(%s)" % (name, v), cdf)
    out(name + ".p", min(1, 2 * min(sum(pr for v, pr in law.items() if v <= 0),
                                    sum(pr for v, pr in law.items() if v >= 0))))


# paired_diff_interval: patterns alike, only A right, only B right; the
# percentile interval's ends are the quantiles of this law, its p twice
# the smaller tail at 0, up to the resampling's error.
A = [1, 1, 1, 0, 1, 0, 1, 1, 1, 1]
B = [0, 1, 0, 0, 1, 1, 0, 1, 0, 1]
alike = sum(x == y for x, y in zip(A, B))
only_a = sum(x > y for x, y in zip(A, B))
print_law("paired_law", *bootstrap_law(10, [alike, only_a, 10 - alike - only_a],
                                       lambda c: Fraction(c[1] - c[2], 10)))
# subset_diff_interval: patterns (in, right) = 00, 01, 10, 11; resamples
# without a subset example left out.
C = [1, 0, 1, 1, 0, 1]
IN = [0, 0, 1, 0, 0, 0]
pat = [sum(1 for x, y in zip(IN, C) if (x, y) == k) for k in [(0, 0), (0, 1), (1, 0), (1, 1)]]
print_law("subset_law", *bootstrap_law(
    6, pat, lambda c: None if c[2] + c[3] == 0
    else Fraction(c[3], c[2] + c[3]) - Fraction(c[1] + c[3], 6)))
C2 = [1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1]
IN2 = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0]
pat = [sum(1 for x, y in zip(IN2, C2) if (x, y) == k) for k in [(0, 0), (0, 1), (1, 0), (1, 1)]]
print_law("subset2_law", *bootstrap_law(
    12, pat, lambda c: None if c[2] + c[3] == 0
    else Fraction(c[3], c[2] + c[3]) - Fraction(c[1] + c[3], 12)))

# ---- ranktest ----
r = stats.kruskal([1, 2, 3], [4, 5, 6], [7, 8, 9])
out("kw1.stat", r.statistic); out("kw1.p", r.pvalue)
r = stats.kruskal([2.5, 3, 3, 7], [3, 5, 5, 8, 9], [1, 2.5])
out("kw2.stat", r.statistic); out("kw2.p", r.pvalue)
r = stats.kruskal([1], [2])
out("kw3.stat", r.statistic); out("kw3.p", r.pvalue)
try:
    stats.kruskal([4.0, 4.0], [4.0, 4.0, 4.0])
    print("kw_ties no error")
except ValueError as e:
    print("# kw_ties: SciPy raises ValueError:", e)
r = stats.kruskal([0.5, 1.5, 1.5], [1.5, 3.0])
out("kw4.stat", r.statistic); out("kw4.p", r.pvalue)
r = stats.kruskal(list(range(0, 1000)), list(range(1000, 2000)), list(range(2000, 3000)))
out("kw_tiny.stat", r.statistic); out("kw_tiny.log_p", -r.statistic / 2)
print("# kw_tiny: scipy p", r.pvalue)


# ---- pvi ----
# Six examples: labels pos neg pos neg pos neg; p_gold below.
labels = [0, 1, 0, 1, 0, 1]
pgold = [0.8, 0.4, 0.1, 1.0, 0.5, 0.25]


def pvi_of(p_null):
    return [-math.log2(pn) + math.log2(pg) for pn, pg in zip(p_null, pgold)]


# Resample b of a set (all 0, the classes 1 + their label ids) draws
# from its own generator, seeded with the low 32 bits of stream(seed,
# set, b) (lib/model/pvi.c, boot_task).
def boot(x, seed, set_, samples, level):
    n = len(x)
    mean = sum(x) / n
    stat = []
    for b in range(samples):
        rng = GslMT(stream(seed, set_, b) & 0xFFFFFFFF)
        t = 0.0
        for _ in range(n):
            t += x[rng.uniform_int(n)]
        stat.append(t / n)
    low, high, p = summarise(stat, level)
    return mean, low, high, p


def pvi_summary(prefix, pvi, seed, samples, level):
    for k, v in zip(["mean", "low", "high", "p"], boot(pvi, seed, 0, samples, level)):
        out(prefix + ".all." + k, v)
    for c in (0, 1):
        x = [v for v, l in zip(pvi, labels) if l == c]
        for k, v in zip(["mean", "low", "high", "p"], boot(x, seed, 1 + c, samples, level)):
            out(prefix + ".class%d." % c + k, v)


pvi = pvi_of([0.4] * 6)   # leave-one-out: 2 of the other 5 share the label
pvi_summary("loo", pvi, 11, 500, 0.9)
print("loo.pvi6", " ".join("%.6f" % v for v in pvi))

# The folds' deal (lib/model/folds.c), by id here (--group-by none):
# SplitMix64 streams over SHA-256 keys, groups in hash order, each to the
# fold with the fewest examples.
def text_key(text):
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def deal(texts, k, seed):
    st = stream(seed, 0, MASK - 1)
    keys = [text_key(t) for t in texts]
    order = sorted(range(len(texts)), key=lambda j: (mix64(st + keys[j] * GAMMA), keys[j], j))
    fold, size, j = [0] * len(texts), [0] * k, 0
    while j < len(order):
        e = j
        while e < len(order) and keys[order[e]] == keys[order[j]]:
            e += 1
        f = min(range(k), key=lambda q: (size[q], q))
        for q in order[j:e]:
            fold[q] = f
        size[f] += e - j
        j = e
    return fold


ids6 = ["e1", "e2", "e3", "e4", "e5", "e6"]
fold = deal(ids6, 3, 4)
print("k3.fold", " ".join(str(f) for f in fold))
p_null = []
for i in range(6):
    other = [labels[j] for j in range(6) if fold[j] != fold[i]]
    p_null.append(other.count(labels[i]) / len(other))
print("k3.p_null", " ".join(repr(v) for v in p_null))
pvi_summary("k3", pvi_of(p_null), 4, 100, 0.95)

# Leave one out on five rows, the third of a label of its own: the first
# seed from 1 whose deal puts it in the first fold.
for seed in range(1, 100):
    if deal(["e1", "e2", "e3", "e4", "e5"], 5, seed)[2] == 0:
        print("pvi_odd.seed", seed)
        break

# Premises grouped: nine rows, three premises of three hypotheses and one
# of a single one... (test-baselines' folds): the deal of ten rows.
prem10 = ["a", "a", "a", "b", "b", "b", "c", "c", "c", "d"]
print("grouped.fold", " ".join(str(f) for f in deal(prem10, 3, 7)))
print("byrow.fold", " ".join(str(f) for f in deal(["r%d" % i for i in range(10)], 3, 7)))

# McNemar two-sided, and the minimum detectable effect (Connor 1987).
for b, c in [(10, 3), (3, 10), (5, 5), (0, 7), (100, 60), (2000, 2600)]:
    out("mcn2.%d_%d" % (b, c), stats.binomtest(b, b + c).pvalue)
from scipy.optimize import brentq


def mde(psi, n, a=0.05, pw=0.8):
    za, zb = stats.norm.isf(a), stats.norm.ppf(pw)
    f = lambda d: d * math.sqrt(n) - za * math.sqrt(psi) - zb * math.sqrt(max(psi - d * d, 0))
    if f(math.sqrt(psi)) < 0:
        return math.sqrt(psi)
    return brentq(f, 0, math.sqrt(psi), xtol=1e-15)


for psi, n in [(0.5, 190), (0.3, 9842), (0.9, 20), (0.05, 10)]:
    out("mde.%g_%d" % (psi, n), mde(psi, n))

print("sha256.low", hashlib.sha256(b"e3\ne6\n").hexdigest())
print("sha256.high", hashlib.sha256(b"e1\ne4\n").hexdigest())
