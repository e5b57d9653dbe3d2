#!/usr/bin/python3
"""Writes the inputs and reference values of tests/unit/test-stat.c.

Not run by make check: it needs the Debian packages python3-sklearn,
python3-scipy, python3-statsmodels (and python3-mpmath, which they pull in).
Run it from the top of the source tree with /usr/bin/python3:

    /usr/bin/python3 tests/ref/make-stat-ref.py

It writes tests/data/stat-*.tsv (the inputs) and tests/data/stat-ref.tsv,
lines "NAME<TAB>VALUE" (repr of a float, 17 significant digits) that the
unit test compares with tells' own numbers to 1e-9 relative. The first
lines of stat-ref.tsv are comments naming the library versions used.

Every value comes from scikit-learn, SciPy or statsmodels, except where
those underflow: deep tails (p < 1e-300) come from mpmath at 50 digits and
the exact binomial from Python's integers.
"""
import math
import os
import sys
from fractions import Fraction

import mpmath
import numpy as np
import scipy
import scipy.stats
import sklearn
import sklearn.metrics as skm
import statsmodels
from sklearn.preprocessing import MultiLabelBinarizer
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.weightstats import ttest_ind as sm_ttest_ind

DATA = "tests/data"
if not os.path.isdir(DATA):
    sys.exit("run from the top of the tells source tree")
mpmath.mp.dps = 50
rng = np.random.default_rng(20240611)
ref = []


def put(name, value):
    ref.append((name, float(value)))


def write_tsv(path, header, rows):
    with open(os.path.join(DATA, path), "w") as f:
        f.write("\t".join(header) + "\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


# ---- single-label predictions: three NLI systems over 60 examples ----
LABELS = ["contradiction", "entailment", "neutral"]
n = 60
ids = ["ex%02d" % i for i in range(n)]
gold = [LABELS[i] for i in rng.integers(0, 3, n)]


def noisy(gold, keep, choices):
    out = []
    for g in gold:
        out.append(g if rng.random() < keep else choices[rng.integers(0, len(choices))])
    return out


# A never predicts neutral; C sometimes predicts a label that is never gold.
sys_a = [p if p != "neutral" else ("entailment" if i % 2 else "contradiction")
         for i, p in enumerate(noisy(gold, 0.7, LABELS))]
sys_b = noisy(gold, 0.8, LABELS)
sys_c = noisy(gold, 0.5, LABELS + ["unknown"])
multi = {"a": sys_a, "b": sys_b, "c": sys_c}
order = list(range(n))
write_tsv("stat-multi-a.tsv", ["id", "gold", "predicted", "p_entailment"],
          [(ids[i], gold[i], sys_a[i], "%.3f" % rng.random()) for i in order])
# B has its columns in another order and its rows shuffled.
shuffled = list(rng.permutation(n))
write_tsv("stat-multi-b.tsv", ["predicted", "score", "gold", "id"],
          [(sys_b[i], "%.2f" % rng.random(), gold[i], ids[i]) for i in shuffled])
write_tsv("stat-multi-c.tsv", ["id", "gold", "predicted"],
          [(ids[i], gold[i], sys_c[i]) for i in order])


def single_label_refs(prefix, y, p):
    put(prefix + ".accuracy", skm.accuracy_score(y, p))
    for avg in ("macro", "micro"):
        pr, rc, f1, _ = skm.precision_recall_fscore_support(
            y, p, average=avg, zero_division=0)
        put("%s.%s_precision" % (prefix, avg), pr)
        put("%s.%s_recall" % (prefix, avg), rc)
        put("%s.%s_f1" % (prefix, avg), f1)
    labels = sorted(set(y) | set(p))
    pr, rc, f1, sup = skm.precision_recall_fscore_support(
        y, p, labels=labels, average=None, zero_division=0)
    for k, lab in enumerate(labels):
        put("%s.precision.%s" % (prefix, lab), pr[k])
        put("%s.recall.%s" % (prefix, lab), rc[k])
        put("%s.f1.%s" % (prefix, lab), f1[k])
        put("%s.support.%s" % (prefix, lab), sup[k])
    put(prefix + ".kappa", skm.cohen_kappa_score(y, p))
    put(prefix + ".mcc", skm.matthews_corrcoef(y, p))


for s, p in multi.items():
    single_label_refs("multi." + s, gold, p)

# ---- binary: B never predicts entailment (MCC and kappa are 0) ----
nb = 50
bgold = ["entailment" if x else "not_entailment" for x in rng.random(nb) < 0.4]
bin_a = noisy(bgold, 0.75, ["entailment", "not_entailment"])
bin_b = ["not_entailment"] * nb
write_tsv("stat-bin-a.tsv", ["id", "gold", "predicted"],
          [("b%d" % i, bgold[i], bin_a[i]) for i in range(nb)])
write_tsv("stat-bin-b.tsv", ["id", "gold", "predicted"],
          [("b%d" % i, bgold[i], bin_b[i]) for i in range(nb)])
single_label_refs("bin.a", bgold, bin_a)
single_label_refs("bin.b", bgold, bin_b)
# The binary F1 of the positive class, as sklearn's average='binary'.
put("bin.a.binary_f1", skm.f1_score(bgold, bin_a, pos_label="entailment"))

# ---- multi-label: sets over a..e, some empty ----
nm = 40
ML = ["a", "b", "c", "d", "e"]


def random_set(p):
    return sorted(lab for lab in ML[:4] if rng.random() < p)


ml_gold = [random_set(0.4) for _ in range(nm)]
ml_a = [sorted(set(g) ^ ({ML[rng.integers(0, 4)]} if rng.random() < 0.5 else set()))
        for g in ml_gold]
# B also predicts e, a label that is never gold, and writes sets unordered.
ml_b = [sorted(set(random_set(0.3)) | ({"e"} if i % 7 == 0 else set()))
        for i in range(nm)]
write_tsv("stat-ml-a.tsv", ["id", "gold", "predicted"],
          [("m%d" % i, ",".join(ml_gold[i]), ",".join(ml_a[i])) for i in range(nm)])
write_tsv("stat-ml-b.tsv", ["id", "gold", "predicted"],
          [("m%d" % i, ",".join(ml_gold[i]), ",".join(reversed(ml_b[i])))
           for i in range(nm)])
for s, p in (("a", ml_a), ("b", ml_b)):
    prefix = "ml." + s
    classes = sorted(set().union(*ml_gold, *p))
    mlb = MultiLabelBinarizer(classes=classes)
    Y, P = mlb.fit_transform(ml_gold), mlb.transform(p)
    put(prefix + ".subset_accuracy", skm.accuracy_score(Y, P))
    put(prefix + ".hamming_loss", skm.hamming_loss(Y, P))
    for avg in ("macro", "micro"):
        pr, rc, f1, _ = skm.precision_recall_fscore_support(
            Y, P, average=avg, zero_division=0)
        put("%s.%s_precision" % (prefix, avg), pr)
        put("%s.%s_recall" % (prefix, avg), rc)
        put("%s.%s_f1" % (prefix, avg), f1)
    pr, rc, f1, sup = skm.precision_recall_fscore_support(
        Y, P, average=None, zero_division=0)
    for k, lab in enumerate(classes):
        put("%s.precision.%s" % (prefix, lab), pr[k])
        put("%s.recall.%s" % (prefix, lab), rc[k])
        put("%s.f1.%s" % (prefix, lab), f1[k])
        put("%s.support.%s" % (prefix, lab), sup[k])

# ---- McNemar between multi A and B (statsmodels), and a deep tail ----
ca = np.array([x == g for x, g in zip(sys_a, gold)])
cb = np.array([x == g for x, g in zip(sys_b, gold)])
table = [[int(np.sum(ca & cb)), int(np.sum(ca & ~cb))],
         [int(np.sum(~ca & cb)), int(np.sum(~ca & ~cb))]]
assert table[0][1] != table[1][0], "statsmodels' chi2 differs when b == c"
ex = mcnemar(table, exact=True)
put("mcnemar.ab.b", table[0][1])
put("mcnemar.ab.c", table[1][0])
put("mcnemar.ab.exact_stat", ex.statistic)
put("mcnemar.ab.exact_p", ex.pvalue)
assert abs(scipy.stats.binomtest(min(table[0][1], table[1][0]),
                                 table[0][1] + table[1][0]).pvalue - ex.pvalue) < 1e-12
ch = mcnemar(table, exact=False, correction=True)
put("mcnemar.ab.chi2_stat", ch.statistic)
put("mcnemar.ab.chi2_p", ch.pvalue)
# b = 1100, c = 3: exact p = 2 P(X <= 3), X ~ Bin(1103, 1/2), ~1e-323.
b, c = 1100, 3
num = 2 * sum(math.comb(b + c, i) for i in range(c + 1))
put("mcnemar.deep.exact_logp", math.log(num) - (b + c) * math.log(2))
stat = (abs(b - c) - 1) ** 2 / (b + c)
put("mcnemar.deep.chi2_stat", stat)
put("mcnemar.deep.chi2_logp",
    mpmath.log(mpmath.gammainc(0.5, stat / 2, mpmath.inf, regularized=True)))
# A moderate exact case through SciPy, to check GSL's binomial.
put("binom.cdf.12.40", scipy.stats.binom.cdf(12, 40, 0.5))
put("binom.cdf.200.1000", scipy.stats.binom.cdf(200, 1000, 0.5))

# ---- Friedman over examples (correctness of A, B, C) and over scores ----
cc = np.array([x == g for x, g in zip(sys_c, gold)])
blocks = np.column_stack([ca, cb, cc]).astype(float)
fr = scipy.stats.friedmanchisquare(blocks[:, 0], blocks[:, 1], blocks[:, 2])
put("friedman.examples.stat", fr.statistic)
put("friedman.examples.p", fr.pvalue)
ranks = np.apply_along_axis(scipy.stats.rankdata, 1, blocks)
for k, r in enumerate(ranks.mean(axis=0)):
    put("friedman.examples.mean_rank.%d" % k, 3 + 1 - r)  # 1 = best

seeds = {
    "full": [0.8125, 0.8071, 0.8190, 0.8033, 0.8102, 0.8157, 0.8088, 0.8141],
    "hyp": [0.6512, 0.6634, 0.6480, 0.6577, 0.6601, 0.6549, 0.6623, 0.6502],
    "mid": [0.7415, 0.8080, 0.7391, 0.7511, 0.8200, 0.7333, 0.7460, 0.7499],
    "small": [0.8013, 0.8144, 0.7962, 0.8121, 0.8055],
}
write_tsv("stat-seeds.tsv", ["seed", "full", "hyp", "mid"],
          [(i + 1, seeds["full"][i], seeds["hyp"][i], seeds["mid"][i])
           for i in range(8)])
for name in ("full", "hyp", "mid", "small"):
    with open(os.path.join(DATA, "stat-seeds-%s.txt" % name), "w") as f:
        f.write("".join("%s\n" % v for v in seeds[name]))
fr = scipy.stats.friedmanchisquare(seeds["full"], seeds["hyp"], seeds["mid"])
put("friedman.scores.stat", fr.statistic)
put("friedman.scores.p", fr.pvalue)
ranks = np.apply_along_axis(scipy.stats.rankdata, 1,
                            np.column_stack([seeds["full"], seeds["hyp"], seeds["mid"]]))
for k, r in enumerate(ranks.mean(axis=0)):
    put("friedman.scores.mean_rank.%d" % k, 3 + 1 - r)

# ---- Welch: full (8 seeds) against small (5 seeds) and mid ----
for pair in (("full", "small"), ("full", "mid")):
    x, y = seeds[pair[0]], seeds[pair[1]]
    for alt in ("two-sided", "greater", "less"):
        r = scipy.stats.ttest_ind(x, y, equal_var=False, alternative=alt)
        name = "welch.%s-%s.%s" % (pair[0], pair[1], alt)
        put(name + ".t", r.statistic)
        put(name + ".p", r.pvalue)
        smalt = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}[alt]
        t, p, df = sm_ttest_ind(x, y, alternative=smalt, usevar="unequal")
        assert abs(t - r.statistic) < 1e-12 and abs(p - r.pvalue) < 1e-12
        put(name + ".df", df)

# ---- Benjamini-Hochberg (statsmodels fdr_bh) ----
pvals = [0.01, 0.04, 0.03, 0.005, 0.2, 0.5, 0.04, 1.0, 0.0001, 0.9, 2.5e-7,
         0.049, 0.0062, 0.012]
write_tsv("stat-pvalues.tsv", ["test", "p_value"],
          [("t%d" % i, repr(p)) for i, p in enumerate(pvals)])
rej, adj, _, _ = multipletests(pvals, alpha=0.05, method="fdr_bh")
for i, (r, a) in enumerate(zip(rej, adj)):
    put("bh.adj.%d" % i, a)
    put("bh.reject.%d" % i, 1.0 if r else 0.0)

# ---- tails: SciPy where it does not underflow, mpmath where it does ----
for x, df in ((3.84, 1), (30.0, 4), (0.5, 7), (400.0, 3)):
    put("tail.chi2.%g.%g.p" % (x, df), scipy.stats.chi2.sf(x, df))
# (1105, 2) and z = 33 are just above where tells leaves GSL (1e-250).
for x, df in ((1500.0, 3), (3000.0, 1), (5000.0, 10), (1200.0, 2), (1180.0, 5),
              (2.0e6, 1.0e6), (1105.0, 2)):
    # scipy.stats.chi2.logsf underflows to -inf here.
    put("tail.chi2.%g.%g.logp" % (x, df),
        mpmath.log(mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(x) / 2,
                                   mpmath.inf, regularized=True)))
for z in (1.5, 5.0, 40.0, 38.0, 33.0):
    put("tail.norm.%g.logp" % z, scipy.stats.norm.logsf(z))
put("tail.norm.1.5.p", scipy.stats.norm.sf(1.5))
for t, df in ((2.1, 5.0), (-1.3, 12.5), (40.0, 3.0)):
    put("tail.t.%g.%g.p" % (t, df), scipy.stats.t.sf(t, df))
for t, df in ((1e90, 3.0), (100.0, 300.0), (80.0, 500.0), (1e200, 2.0)):
    x = mpmath.mpf(df) / (df + mpmath.mpf(t) ** 2)
    put("tail.t.%g.%g.logp" % (t, df),
        mpmath.log(mpmath.betainc(mpmath.mpf(df) / 2, 0.5, 0, x, regularized=True) / 2))

# ---- contrast sets over multi A: original, then its contrasts ----
groups = [(0, [1, 2]), (3, [4]), (5, [6, 7, 8]), (9, [10]), (11, [12, 13]),
          (14, [15]), (16, [17, 18]), (19, [20])]
with open(os.path.join(DATA, "stat-groups.tsv"), "w") as f:
    f.write("original\tcontrast\n")
    for o, cs in groups:
        f.write("\t".join([ids[o]] + [ids[k] for k in cs]) + "\n")
for s, p in multi.items():
    ok = [p[i] == gold[i] for i in range(n)]
    put("contrast.%s.consistency" % s,
        np.mean([ok[o] and all(ok[k] for k in cs) for o, cs in groups]))
    put("contrast.%s.original_accuracy" % s, np.mean([ok[o] for o, _ in groups]))
    put("contrast.%s.contrast_accuracy" % s,
        np.mean([ok[k] for _, cs in groups for k in cs]))

with open(os.path.join(DATA, "stat-ref.tsv"), "w") as f:
    f.write("# written by tests/ref/make-stat-ref.py with scikit-learn %s, "
            "SciPy %s, statsmodels %s, NumPy %s, mpmath %s\n"
            % (sklearn.__version__, scipy.__version__, statsmodels.__version__,
               np.__version__, mpmath.__version__))
    for name, value in ref:
        f.write("%s\t%r\n" % (name, value))
print("wrote %d reference values" % len(ref))
