#!/usr/bin/python3
"""Prints the reference values of the V-information's one-sided
one-sample t-test written as literals into tests/unit/test-pvi.c: sd, t
and p = P(T >= t) with n - 1 degrees of freedom, for the PVIs of its
leave-one-out (loo.*) and three-fold (k3.*) cases and of its corpus far
above 0 (tiny.*, p below the smallest double, printed with its natural
log).

Not run by make check: it needs mpmath only (Debian's python3-mpmath),
40 digits; P(T >= t) = I_x(df / 2, 1 / 2) / 2, x = df / (df + t^2), for
t > 0 (1 minus it for t < 0), by mpmath.betainc. No tells code is used.
"""
from mpmath import betainc, fsum, log, mp, mpf, nstr, sqrt

mp.dps = 40


def ttest(prefix, x):
    n = len(x)
    mean = fsum(x) / n
    sd = sqrt(fsum((v - mean) ** 2 for v in x) / (n - 1))
    t = mean / (sd / sqrt(n))
    df = n - 1
    tail = betainc(mpf(df) / 2, mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2
    p = tail if t > 0 else 1 - tail
    for name, v in (("mean", mean), ("sd", sd), ("t", t), ("p", p), ("log_p", log(p))):
        print(prefix + "." + name, nstr(v, 17))


def log2(v):
    return log(mpf(v), 2)


# Six examples, labels pos neg pos neg pos neg, p_gold 0.8 0.4 0.1 1 0.5
# 0.25. Leave one out: g_null 2/5 for every one.
l5 = log2(5)
loo = [mpf(1), mpf(0), mpf(-2), l5 - 1, l5 - 2, l5 - 3]
ttest("loo.all", loo)
ttest("loo.class0", loo[0::2])
ttest("loo.class1", loo[1::2])
# Three folds by row, seed 4: g_null 1/4 1/4 1/2 1/4 1/4 1/2 (the ref
# script's k3.p_null).
k3 = [log2(mpf("0.8") / mpf("0.25")), log2(mpf("0.4") / mpf("0.25")),
      log2(mpf("0.1") / mpf("0.5")), log2(4), log2(2), log2(mpf("0.25") / mpf("0.5"))]
ttest("k3.all", k3)
ttest("k3.class0", k3[0::2])
ttest("k3.class1", k3[1::2])
# 1,000 examples, pos and neg in turn, left out one at a time (g_null
# 499/999), p_gold 0.9 0.9 0.8 0.8 and again.
tiny = [log2(mpf("0.9") * 999 / 499) if i % 4 < 2 else log2(mpf("0.8") * 999 / 499)
        for i in range(1000)]
ttest("tiny.all", tiny)
