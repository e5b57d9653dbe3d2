#!/usr/bin/env python3
"""Reference for `tells-pmi`, for bench/run.  Same options and output.

count(w,c) = occurrences of token w in the chosen field of class-c
examples (--binary: each example counts at most once).  Tokens whose
total count is >= --min-count are kept; --smoothing K is added to
count(w,c) for every kept w and every class (all labels in the data).
p(w,c) = smoothed count / sum of smoothed counts; p(w,.) and p(.,c) are
its marginals; PMI = log2 p(w,c) / (p(w,.) p(.,c)).

Output: class, token, pmi, count (raw), class_share (fraction of class-c
examples whose field contains w); classes in byte order, then PMI
descending, then token ascending; --top N rows per class or --all.

usage: ref_pmi.py [--field hypothesis|premise|both] [--binary]
                  [--min-count N] [--smoothing K] [--top N | --all] [FILE|-]
"""
import argparse
import math
import sys
from collections import Counter, defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--field', choices=['hypothesis', 'premise', 'both'],
                    default='hypothesis')
    ap.add_argument('--binary', action='store_true')
    ap.add_argument('--min-count', type=int, default=5)
    ap.add_argument('--smoothing', type=float, default=50)
    which = ap.add_mutually_exclusive_group()
    which.add_argument('--top', type=int, default=15)
    which.add_argument('--all', action='store_true')
    ap.add_argument('--digits', type=int, default=6,
                    help='decimals for pmi and class_share (tells: 6)')
    ap.add_argument('file', nargs='?', default='-')
    args = ap.parse_args()

    # Bytes throughout: tokens and labels are compared in byte order,
    # and bytes.split(b' ') splits exactly where tells does.
    f = sys.stdin.buffer if args.file == '-' else open(args.file, 'rb')
    count = defaultdict(Counter)     # class -> token -> count
    present = defaultdict(Counter)   # class -> token -> examples containing it
    examples = Counter()             # class -> number of examples
    next(f, None)                    # header
    for line in f:
        cols = line.rstrip(b'\n').split(b'\t')
        label, premise, hypothesis = cols[2], cols[3], cols[4]
        if args.field == 'hypothesis':
            toks = hypothesis.split()
        elif args.field == 'premise':
            toks = premise.split()
        else:
            toks = premise.split() + hypothesis.split()
        examples[label] += 1
        uniq = set(toks)
        count[label].update(uniq if args.binary else toks)
        present[label].update(uniq)

    classes = sorted(examples)
    total = Counter()
    for c in classes:
        total.update(count[c])
    kept = [w for w, n in total.items() if n >= args.min_count]
    k = args.smoothing

    # Smoothed counts and their marginals.
    row = {w: total[w] + k * len(classes) for w in kept}
    col = {c: sum(count[c][w] for w in kept) + k * len(kept) for c in classes}
    grand = sum(row.values())

    out = sys.stdout.buffer
    out.write(b'class\ttoken\tpmi\tcount\tclass_share\n')
    for c in classes:
        rows = []
        for w in kept:
            p_wc = (count[c][w] + k) / grand
            p_w = row[w] / grand
            p_c = col[c] / grand
            rows.append((math.log2(p_wc / (p_w * p_c)), w))
        rows.sort(key=lambda r: (-r[0], r[1]))
        if not args.all:
            rows = rows[:args.top]
        for pmi, w in rows:
            text = b'%.*f' % (args.digits, pmi)
            if text.strip(b'-0.') == b'':
                text = text.lstrip(b'-')   # "0.000000", not "-0.000000"
            out.write(b'%s\t%s\t%s\t%d\t%.*f\n' % (
                c, w, text, count[c][w],
                args.digits, present[c][w] / examples[c]))


if __name__ == '__main__':
    main()
