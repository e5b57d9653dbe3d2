#!/usr/bin/env python3
"""Compare two PMI tables (tells-pmi, ref_pmi.py or tests/pmi-reference.awk
output): same (class, token) rows, equal counts, pmi and class_share
within --tol.  A header line, if present, is ignored.  With --order, the
row order must also agree, except between rows whose PMI is tied to
within --tol (floating-point ties may break either way).

usage: cmp_pmi.py [--tol T] [--order] A B     (exit 0 when they agree)
"""
import argparse
import sys


def load(path):
    rows = []
    with open(path, 'rb') as f:
        for line in f:
            cols = line.rstrip(b'\n').split(b'\t')
            if cols[:2] == [b'class', b'token']:
                continue
            rows.append((cols[0], cols[1], float(cols[2]), int(cols[3]),
                         float(cols[4])))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tol', type=float, default=1e-6)
    ap.add_argument('--order', action='store_true')
    ap.add_argument('a')
    ap.add_argument('b')
    args = ap.parse_args()
    # Values printed with 6 decimals may differ by one unit in the last
    # place after rounding; allow for that on top of the tolerance.
    tol = args.tol + 1e-9

    a, b = load(args.a), load(args.b)
    da = {(r[0], r[1]): r for r in a}
    db = {(r[0], r[1]): r for r in b}
    bad = 0

    def complain(msg):
        nonlocal bad
        bad += 1
        if bad <= 10:
            print(msg, file=sys.stderr)

    if len(da) != len(a) or len(db) != len(b):
        complain('duplicate (class, token) rows')
    for key in sorted(da.keys() - db.keys()):
        complain('only in %s: %r' % (args.a, key))
    for key in sorted(db.keys() - da.keys()):
        complain('only in %s: %r' % (args.b, key))
    maxdiff = 0.0
    for key in sorted(da.keys() & db.keys()):
        ra, rb = da[key], db[key]
        d = max(abs(ra[2] - rb[2]), abs(ra[4] - rb[4]))
        maxdiff = max(maxdiff, d)
        if ra[3] != rb[3] or d > tol:
            complain('differ: %r vs %r' % (ra, rb))
    if args.order:
        for i, (ra, rb) in enumerate(zip(a, b)):
            if (ra[0], ra[1]) == (rb[0], rb[1]):
                continue
            if ra[0] != rb[0] or abs(ra[2] - rb[2]) > tol:
                complain('order differs at row %d: %r vs %r' % (i + 1, ra, rb))
    print('%d vs %d rows, max abs diff %.3g, %s'
          % (len(a), len(b), maxdiff, 'agree' if not bad else
             '%d problems' % bad))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
