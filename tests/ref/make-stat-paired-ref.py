#!/usr/bin/python3
"""Writes the inputs and reference values of the paired and rank tests of
tests/unit/test-stat.c (issue 16): Wilcoxon signed-rank, the paired t-test,
Friedman without the tie correction, Nemenyi, Cochran's Q and McNemar
without the continuity correction.

Not run by make check: it needs NumPy and SciPy only (Debian's
python3-scipy). Run it from the top of the source tree:

    /usr/bin/python3 tests/ref/make-stat-paired-ref.py

It writes tests/data/stat-paired-*.tsv and tests/data/stat-demsar.tsv (the
inputs) and tests/data/stat-paired-ref.tsv, lines "NAME<TAB>VALUE" as
make-stat-ref.py writes them; the first line names the versions used.

Sources of the values:
- Wilcoxon: scipy.stats.wilcoxon. Exact regime: method='auto' on samples
  of at most 50 pairs without zeros or ties (SciPy then uses the exact
  distribution). Normal regime: method='approx' with correction=True (and
  False for --no-continuity-correction), on a sample with zeros and tied
  |differences| and on one of 51 pairs; on the tied sample SciPy 1.10's
  method='auto' would use the exact distribution with a truncated R+,
  which tells does not follow (see doc/tells-stat.h2m).
- Paired t: scipy.stats.ttest_rel.
- Friedman: scipy.stats.friedmanchisquare (tie-corrected) and, without
  the correction, Demsar (2006)'s chi^2_F = 12N/(k(k+1)) (sum R_j^2 -
  k(k+1)^2/4) on mean ranks from scipy.stats.rankdata. stat-demsar.tsv is
  constructed to have the mean ranks of Demsar's worked example (section
  3.2.2: 3.143, 2.000, 2.893, 1.964 over N = 14 data sets), for which he
  prints chi^2_F = 9.28 and the Nemenyi CD = 2.569 sqrt(4 5 / (6 14)) = 1.25
  at alpha 0.05 (1.12 at 0.10).
- Nemenyi: q_alpha = scipy.stats.studentized_range.ppf(1 - alpha, k, inf)
  / sqrt(2), checked against Demsar's Table 5 in the unit test; pairwise
  p = studentized_range.sf(|R_a - R_b| / sqrt(k(k+1)/(6N)) sqrt(2), k, inf)
  as scikit-posthocs' posthoc_nemenyi_friedman.
- Cochran's Q and McNemar without correction: the worked example of
  Raschka's mlxtend user guide (evaluate.cochrans_q, example 1; mlxtend
  cites Kuncheva 2004 for the test): three classifiers on 100 examples,
  Q = 7.529 with
  p = 0.023, and McNemar of models 1 and 2 without correction chi^2 =
  5.333, p = 0.021. The script recomputes both from the counts with exact
  fractions and takes p from scipy.stats.chi2.sf.
"""
import os
import sys
from fractions import Fraction

import numpy as np
import scipy
import scipy.stats as st

DATA = "tests/data"
if not os.path.isdir(DATA):
    sys.exit("run from the top of the tells source tree")
rng = np.random.default_rng(20240716)
ref = []


def put(name, value):
    ref.append((name, float(value)))


def write_pairs(name, x, y):
    with open(os.path.join(DATA, "stat-paired-%s.tsv" % name), "w") as f:
        f.write("x\ty\n")
        for a, b in zip(x, y):
            f.write("%r\t%r\n" % (a, b))


def rounded(v, digits):
    return [round(float(a), digits) for a in v]


# ---- Wilcoxon and paired t ----
# exact: 12 pairs, no zeros, no ties in |d| (checked below)
x = rounded(rng.normal(0.80, 0.02, 12), 4)
y = rounded(np.array(x) - rng.normal(0.01, 0.015, 12), 4)
sets = {"exact": (x, y)}
# ties and zeros: 20 pairs of scores on a 0.01 grid
x = rounded(rng.integers(60, 80, 20) / 100, 2)
y = rounded(np.array(x) + rng.integers(-3, 4, 20) / 100, 2)
sets["ties"] = (x, y)
# sizes at the rule's boundary, no ties
for n in (50, 51):
    x = rounded(rng.normal(0.7, 0.05, n), 6)
    y = rounded(np.array(x) - rng.normal(0.005, 0.02, n), 6)
    sets["n%d" % n] = (x, y)

for name, (x, y) in sets.items():
    write_pairs(name, x, y)
    d = np.array(x) - np.array(y)
    zeros = int(np.sum(d == 0))
    nz = np.abs(d[d != 0])
    ties = len(nz) != len(np.unique(nz))
    exact = len(d) <= 50 and zeros == 0 and not ties
    if name == "ties":
        assert zeros > 0 and ties
    elif name == "n51":
        assert not ties and not exact
    else:
        assert exact, name
    put("wilcoxon.%s.exact" % name, 1.0 if exact else 0.0)
    for alt in ("two-sided", "greater", "less"):
        if exact:
            r = st.wilcoxon(x, y, alternative=alt)
            put("wilcoxon.%s.%s.stat" % (name, alt), r.statistic)
            put("wilcoxon.%s.%s.p" % (name, alt), r.pvalue)
        else:
            r = st.wilcoxon(x, y, alternative=alt, method="approx", correction=True)
            put("wilcoxon.%s.%s.stat" % (name, alt), r.statistic)
            put("wilcoxon.%s.%s.p" % (name, alt), r.pvalue)
            put("wilcoxon.%s.%s.z" % (name, alt), r.zstatistic)
            r = st.wilcoxon(x, y, alternative=alt, method="approx", correction=False)
            put("wilcoxon.%s.%s.nocc.p" % (name, alt), r.pvalue)
            put("wilcoxon.%s.%s.nocc.z" % (name, alt), r.zstatistic)
        t = st.ttest_rel(x, y, alternative=alt)
        put("paired_t.%s.%s.t" % (name, alt), t.statistic)
        put("paired_t.%s.%s.p" % (name, alt), t.pvalue)
    put("paired_t.%s.df" % name, len(x) - 1)
    put("wilcoxon.%s.zeros" % name, zeros)

# ---- Demsar's example: ranks (1 best) giving mean ranks 44/14, 28/14,
# 40.5/14, 27.5/14; scores are AUC-like, higher better ----
ranks = [(4, 1, 2.5, 2.5), (2, 1, 4, 3), (1, 4, 3, 2), (4, 1, 3, 2), (3, 2, 4, 1),
         (2, 3, 1, 4), (4, 2, 3, 1), (4, 1, 2, 3), (1, 3, 2, 4), (4, 2, 3, 1),
         (4, 2, 3, 1), (4, 2, 3, 1), (4, 2, 3, 1), (3, 2, 4, 1)]
systems = ["c45", "c45m", "c45cf", "c45mcf"]
scores = [[round(0.95 - 0.01 * i - 0.05 * (r - 1), 4) for r in row]
          for i, row in enumerate(ranks)]
with open(os.path.join(DATA, "stat-demsar.tsv"), "w") as f:
    f.write("\t".join(systems) + "\n")
    for row in scores:
        f.write("\t".join("%r" % v for v in row) + "\n")
S = np.array(scores)
N, k = S.shape
mr = np.mean([st.rankdata(-row) for row in S], axis=0)   # 1 = best
assert np.allclose(mr * N, [44, 28, 40.5, 27.5])
chi2_f = 12 * N / (k * (k + 1)) * (np.sum(mr ** 2) - k * (k + 1) ** 2 / 4)
assert abs(chi2_f - 9.28) < 0.005
put("demsar.friedman.uncorrected.stat", chi2_f)
put("demsar.friedman.uncorrected.p", st.chi2.sf(chi2_f, k - 1))
fr = st.friedmanchisquare(*S.T)
put("demsar.friedman.corrected.stat", fr.statistic)
put("demsar.friedman.corrected.p", fr.pvalue)
for j in range(k):
    put("demsar.mean_rank.%d" % j, mr[j])
se = np.sqrt(k * (k + 1) / (6 * N))
for alpha in (0.05, 0.10):
    q = st.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    put("demsar.nemenyi.cd.%g" % alpha, q * se)
assert abs(ref[-2][1] - 1.25) < 0.005 and abs(ref[-1][1] - 1.12) < 0.005
for a in range(k):
    for b in range(a + 1, k):
        z = abs(mr[a] - mr[b]) / se
        put("demsar.nemenyi.p.%d.%d" % (a, b),
            st.studentized_range.sf(z * np.sqrt(2), k, np.inf))

# ---- the range distribution (infinite df) ----
for kk in (2, 3, 4, 5, 7, 10, 20, 50):
    for alpha in (0.05, 0.10):
        put("range.q.%d.%g" % (kk, alpha),
            st.studentized_range.ppf(1 - alpha, kk, np.inf))
    for q in (0.5, 2.0, 3.5, 6.0):
        put("range.sf.%d.%g" % (kk, q), st.studentized_range.sf(q, kk, np.inf))

# ---- Cochran's Q and McNemar without correction: mlxtend's example ----
y1 = [1] * 16 + [0] * 6 + [0] * 76 + [0, 0]
y2 = [1] * 6 + [0] * 14 + [1, 1] + [0] * 76 + [0, 0]
y3 = [1, 1, 1, 0, 0, 0, 1] + [0] * 13 + [1, 1] + [0] * 76 + [1, 1]
# y_true is all 0: a prediction is correct when it is 0
C = np.array([[int(p == 0) for p in m] for m in (y1, y2, y3)]).T
with open(os.path.join(DATA, "stat-cochran.tsv"), "w") as f:
    f.write("id\tgold\tm1\tm2\tm3\n")
    for i, row in enumerate(zip(y1, y2, y3)):
        f.write("e%d\t0\t%d\t%d\t%d\n" % ((i,) + row))
col = C.sum(axis=0)
row = C.sum(axis=1)
T = int(col.sum())
q = Fraction((3 - 1) * (3 * int(np.sum(col ** 2)) - T * T),
             3 * T - int(np.sum(row ** 2)))
assert abs(float(q) - 7.529) < 0.0005
put("cochran.q", float(q))
put("cochran.p", st.chi2.sf(float(q), 2))
assert abs(ref[-1][1] - 0.023) < 0.0005
b = int(np.sum(C[:, 0] & (1 - C[:, 1])))
c = int(np.sum((1 - C[:, 0]) & C[:, 1]))
m = Fraction((b - c) ** 2, b + c)
assert abs(float(m) - 5.333) < 0.0005
put("mcnemar.uncorrected.b", b)
put("mcnemar.uncorrected.c", c)
put("mcnemar.uncorrected.stat", float(m))
put("mcnemar.uncorrected.p", st.chi2.sf(float(m), 1))
assert abs(ref[-1][1] - 0.021) < 0.0005

with open(os.path.join(DATA, "stat-paired-ref.tsv"), "w") as f:
    f.write("# written by tests/ref/make-stat-paired-ref.py with SciPy %s, NumPy %s\n"
            % (scipy.__version__, np.__version__))
    for name, value in ref:
        f.write("%s\t%r\n" % (name, value))
print("wrote %d reference values" % len(ref))
