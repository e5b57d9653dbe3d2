#!/usr/bin/env python3
"""Reference quantiles of the range of k standard normals (studentized
range, df = inf) far into the tail for tests/unit/test-stat.c, with mpmath
(SciPy's studentized_range stops far earlier), independently of tells' C
code (GSL, trapezoidal rule in logs): P(R > q) = k * int phi(z)
(Phi(z)^(k-1) - (Phi(z) - Phi(z - q))^(k-1)) dz, the difference taken directly (no
rearrangement) at a working precision of 30 digits more than alpha has
leading zeros, by tanh-sinh quadrature on pieces from -45 to q + 45
(beyond, below 1e-440 of the whole) split at 0, q/2 and q. Input lines
"ALPHA K Q_C ...", Q_C the quantile to check (tells' range_quantile);
the reference is one Newton step on log P(R > q) = log ALPHA from Q_C
(the slope from a second point 1e-7 away), exact to far below Q_C's
error when Q_C is good to 1e-10. For k = 2
also the closed form P(R > q) = erfc(q / 2) (R = sqrt(2) |N(0, 1)|).

    echo '1e-250 3 47.8746784984342' | python3 tests/ref/make-range-tail-ref.py

prints alpha=1e-250 k=3 mpmath=47.87467849843436 C=... rel=...; the
deepest alphas take minutes each (hundreds of digits)."""
import sys
import mpmath as mp


def log_sf(q, k):
    q = mp.mpf(q)
    def f(z):
        a = mp.ncdf(z)
        return mp.npdf(z) * (a ** (k - 1) - (a - mp.ncdf(z - q)) ** (k - 1))
    pts = sorted(set([mp.mpf(-45), mp.mpf(-12), mp.mpf(0), q / 2 - 6, q / 2, q / 2 + 6, q,
                      q + 12, q + 45]))
    return mp.log(k * mp.quad(f, pts))


for line in sys.stdin:
    a, k, qc = line.split()[:3]
    k = int(k)
    mp.mp.dps = 30 + max(0, int(-mp.log10(mp.mpf(a))))
    qc = mp.mpf(qc)
    la = mp.log(mp.mpf(a))
    f0 = log_sf(qc, k) - la
    h = mp.mpf('1e-7')
    slope = (log_sf(qc + h, k) - la - f0) / h
    q = qc - f0 / slope
    closed = ''
    if k == 2:
        qq = mp.findroot(lambda x: mp.log(mp.erfc(x / 2)) - la, q)
        closed = ' closed_form=%s' % mp.nstr(qq, 17)
    print('alpha=%s k=%d mpmath=%s C=%s rel=%s%s'
          % (a, k, mp.nstr(q, 17), mp.nstr(qc, 15), mp.nstr(abs(qc - q) / q, 3), closed),
          flush=True)
