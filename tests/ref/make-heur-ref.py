#!/usr/bin/python3
"""Reference numbers for tells-heur's chi-squared goodness-of-fit test.

Run with Debian's python3 (python3-scipy, python3-mpmath):
    /usr/bin/python3 tests/ref/make-heur-ref.py > tests/data/heur-ref.tsv
make check does not run it; tests/unit/test-concepts.c and tests/heur.sh
hold the numbers it wrote.

Each case is a heuristic's counts per class (classes in byte order) and,
for --expected class-prior, the number of rows of each class. chi2 and p
come from scipy.stats.chisquare (f_exp = shares of the rows times the
total, or uniform); log_p is the natural log of the upper tail from
mpmath at 60 digits, which stays exact where SciPy's p underflows to 0.
"""
import sys

import mpmath
import numpy as np
from scipy.stats import chisquare

mpmath.mp.dps = 60

CASES = [
    # name, counts, rows (None: uniform expectation)
    ("synthetic-hypernym", [41, 400, 31], None),
    ("synthetic-probable-cause", [90, 31, 510], None),
    ("synthetic-everything-fine", [857, 119, 144], None),
    ("snli-everything-fine", [23, 2, 7], None),
    ("snli-prior", [23, 2, 7], [3278, 3329, 3235]),
    ("synthetic-prior", [857, 119, 144], [1500, 1500, 1500]),
    ("unbalanced-prior", [40, 25, 35, 0], [1000, 300, 500, 20]),
    ("near-uniform", [100, 101, 99], None),
    ("two-classes", [60, 40], None),
    ("tiny-p", [3000, 10, 10], None),
    ("tiny-p-four", [5000, 20, 30, 40], None),
    ("tiny-p-prior", [4000, 5, 5], [5000, 4000, 4000]),
]


def main():
    out = sys.stdout
    out.write("case\tcounts\trows\tchi2\tp_scipy\tlog_p_mpmath\n")
    for name, counts, rows in CASES:
        obs = np.array(counts, dtype=float)
        if rows is None:
            res = chisquare(obs)
            share = [mpmath.mpf(1) / len(counts)] * len(counts)
        else:
            r = np.array(rows, dtype=float)
            res = chisquare(obs, f_exp=obs.sum() * r / r.sum())
            share = [mpmath.mpf(x) / sum(rows) for x in rows]
        n = sum(counts)
        x = mpmath.fsum((c - n * s) ** 2 / (n * s) for c, s in zip(counts, share))
        df = len(counts) - 1
        log_p = mpmath.log(mpmath.gammainc(mpmath.mpf(df) / 2, x / 2,
                                           mpmath.inf, regularized=True))
        # SciPy and mpmath must agree on the statistic.
        assert abs(float(x) - res.statistic) <= 1e-12 * float(x) + 1e-300
        out.write("%s\t%s\t%s\t%.17g\t%.17g\t%s\n" % (
            name, ",".join(map(str, counts)),
            ",".join(map(str, rows)) if rows else "-",
            res.statistic, res.pvalue, mpmath.nstr(log_p, 17)))


if __name__ == "__main__":
    main()
