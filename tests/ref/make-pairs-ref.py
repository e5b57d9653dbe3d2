#!/usr/bin/python3
"""References of tests/unit/test-pairs.c: the flag-by-class test
(stats/chisq.h, flag_class_test) from SciPy 1.10.1 (Debian python3-scipy),
and the exact conditional test by brute force: every 2 x k table with the
observed margins, P(table) the multivariate hypergeometric, p = the sum of
P over the tables no more probable than the observed one (1 + 1e-7).
Run with /usr/bin/python3; it prints NAME VALUE lines."""
import itertools
import math

import scipy
from scipy import stats

print("# scipy", scipy.__version__)


def out(name, value):
    print(name, "%.17g" % value)


def exact(flagged, total):
    r = sum(flagged)
    n = sum(total)

    def prob(x):
        return math.prod(math.comb(c, xi) for c, xi in zip(total, x)) / math.comb(n, r)

    pobs = prob(flagged)
    p = 0.0
    for x in itertools.product(*[range(min(c, r) + 1) for c in total]):
        if sum(x) == r:
            px = prob(x)
            if px <= pobs * (1 + 1e-7):
                p += px
    return p


def chi2(flagged, total):
    table = [flagged, [t - f for t, f in zip(total, flagged)]]
    return stats.chi2_contingency(table, correction=False)


# 2 x 2: Fisher's exact test, two-sided.
out("fisher22.p", stats.fisher_exact([[3, 1], [1, 3]])[1])
out("fisher22.brute", exact([3, 1], [4, 4]))
r = chi2([3, 1], [4, 4])
out("fisher22.stat", r[0])
# 2 x 3 with small expected counts: Freeman-Halton.
out("fh23.p", exact([5, 0, 1], [6, 5, 6]))
r = chi2([5, 0, 1], [6, 5, 6])
out("fh23.stat", r[0])
out("fh23.df", r[2])
# 2 x 3 with large counts: Pearson's chi-squared.
r = chi2([30, 10, 20], [100, 100, 100])
out("chi23.stat", r[0])
out("chi23.p", r[1])
out("chi23.df", r[2])
# The larger row enumerated through the smaller: flagged 10 of 13.
out("flip.p", exact([4, 3, 3], [4, 4, 5]))
