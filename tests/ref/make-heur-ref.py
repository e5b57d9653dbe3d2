#!/usr/bin/python3
"""Reference numbers for tells-heur's goodness-of-fit test.

Run with Debian's python3 (python3-scipy, python3-mpmath):
    /usr/bin/python3 tests/ref/make-heur-ref.py > tests/data/heur-ref.tsv
make check does not run it; tests/unit/test-concepts.c and tests/heur.sh
hold the numbers it wrote.

Each case is a heuristic's counts per class (classes in byte order) and,
for --expected class-prior, the number of rows of each class. chi2 comes
from scipy.stats.chisquare (f_exp = shares of the rows times the total,
or uniform). test is what tells uses for p: chi2 when every expected
count is at least 5 (Cochran), else exact. For chi2, p is SciPy's and
log_p the natural log of the upper tail from mpmath at 60 digits, which
stays exact where SciPy's p underflows to 0. For exact, p is the exact
multinomial test by brute force in rational arithmetic: the sum of P(x)
over every outcome x of n pairs in the classes with P(x) <= P(observed)
(ties exact here; tells, in floating point, takes a relative 1e-7 as
scipy.stats.binomtest does); for two classes it is checked against
scipy.stats.binomtest's two-sided p.
"""
import math
import sys
from fractions import Fraction

import mpmath
import numpy as np
from scipy.stats import binomtest, chisquare

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
    # expected counts under 5: the exact test
    ("three-in-one", [3, 0, 0], None),
    ("one-pair", [0, 1, 0], None),
    ("four-of-four", [4, 0], None),
    ("small-mixed", [5, 1, 0], None),
    ("small-prior", [7, 3], [30, 70]),
    ("small-prior-three", [1, 4, 2], [50, 30, 20]),
    ("snli-prior-small", [6, 0, 1], [3278, 3329, 3235]),
    ("snli-2017-probable-cause", [0, 3, 1], None),
]


def compositions(n, k):
    """Every outcome of n observations in k cells."""
    if k == 1:
        yield (n,)
        return
    for x in range(n + 1):
        for rest in compositions(n - x, k - 1):
            yield (x,) + rest


def exact_p(counts, share):
    """The exact multinomial goodness-of-fit test, in fractions."""
    n = sum(counts)

    def prob(x):
        p = Fraction(math.factorial(n))
        for xi, si in zip(x, share):
            p = p / math.factorial(xi) * si ** xi
        return p
    pobs = prob(counts)
    return sum(p for p in map(prob, compositions(n, len(counts))) if p <= pobs)


def main():
    out = sys.stdout
    out.write("case\tcounts\trows\tchi2\ttest\tp\tlog_p\n")
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
        fshare = ([Fraction(1, len(counts))] * len(counts) if rows is None
                  else [Fraction(r, sum(rows)) for r in rows])
        if all(n * s >= 5 for s in fshare):
            test, p = "chi2", res.pvalue
        else:
            test, fp = "exact", exact_p(counts, fshare)
            p = float(fp)
            log_p = mpmath.log(mpmath.mpf(fp.numerator) / fp.denominator)
            if len(counts) == 2:
                b = binomtest(counts[0], n, float(fshare[0])).pvalue
                assert abs(b - p) <= 1e-12 * p, (name, b, p)
        out.write("%s\t%s\t%s\t%.17g\t%s\t%.17g\t%s\n" % (
            name, ",".join(map(str, counts)),
            ",".join(map(str, rows)) if rows else "-",
            res.statistic, test, p, mpmath.nstr(log_p, 17)))


if __name__ == "__main__":
    main()
