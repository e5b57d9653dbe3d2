#!/usr/bin/python3
"""Reference numbers for the study's new statistics, from their
definitions with SciPy (Debian python3-scipy), on SNLI dev as tells-prep
-t whitespace prepares it (argument 1):

  tests/data/competency-ref.tsv   the competency z-test of every
      hypothesis token in at least 5 hypotheses (Gardner et al. 2021):
      z = (p_hat - p0) / sqrt(p0 (1 - p0) / n), p0 = 1/3, p = P(Z >= z)
  tests/data/competency-exact-ref.tsv   the same pairs with the exact
      tail of tells-pmi --exact: p = P(X >= k), X ~ Binomial(n, p0), k the
      hypotheses of the class (scipy.stats.binomtest, "greater")
  tests/data/kruskal-ref.tsv      Kruskal-Wallis of hypothesis length by
      class (scipy.stats.kruskal)

make check does not run this; it compares tells with the files."""
import math
import sys
from collections import defaultdict

from scipy import stats

rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")][1:]
docs = defaultdict(lambda: defaultdict(int))
lengths = defaultdict(list)
classes = sorted({r[2] for r in rows})
for r in rows:
    toks = r[4].split(" ")
    lengths[r[2]].append(len(toks))
    for t in set(toks):
        docs[t][r[2]] += 1
p0 = 1.0 / len(classes)
tested = [t for t in docs if sum(docs[t].values()) >= 5]
m = len(tested) * len(classes)
out = []
for c in classes:
    for t in tested:
        n = sum(docs[t].values())
        p_hat = docs[t][c] / n
        z = (p_hat - p0) / math.sqrt(p0 * (1 - p0) / n)
        logp = stats.norm.logsf(z)
        exact = math.log(stats.binomtest(docs[t][c], n, p0, alternative="greater").pvalue)
        out.append((c, t, n, p_hat, z, logp, exact))
for name, col in (("competency-ref.tsv", 5), ("competency-exact-ref.tsv", 6)):
    with open("tests/data/" + name, "w", encoding="utf-8") as f:
        f.write("class\ttoken\tn\tp_hat\tz\tlog_p\tsignificant\n")
        for row in out:
            c, t, n, p_hat, z, logp = row[:5] + (row[col],)
            sig = "yes" if logp <= math.log(0.01 / m) else "no"
            f.write(f"{c}\t{t}\t{n}\t{p_hat:.9f}\t{z:.9f}\t{logp:.9f}\t{sig}\n")
h, p = stats.kruskal(*[lengths[c] for c in classes])
with open("tests/data/kruskal-ref.tsv", "w", encoding="utf-8") as f:
    f.write("statistic\tp_value\n")
    f.write(f"{h:.9f}\t{p:.6e}\n")
