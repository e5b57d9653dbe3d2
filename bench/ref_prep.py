#!/usr/bin/env python3
"""Reference for `tells-prep --tokenizer whitespace`, for bench/run.

Reads MedNLI/SNLI-style JSONL ({"sentence1", "sentence2", "gold_label",
"pairID"}) and writes the prepared TSV:

    id <TAB> split <TAB> label <TAB> premise <TAB> hypothesis

Text is lowercased (ASCII A-Z and Latin-1 U+00C0..U+00DE except U+00D7,
as tells does) and split on whitespace (ASCII space, tab, newline, CR,
VT, FF and U+00A0); tokens are joined by single spaces.  Examples whose
label is "-" or empty are skipped.

usage: ref_prep.py [--tokenizer whitespace] [-o OUT] --split NAME FILE [--split NAME FILE]...
"""
import argparse
import json
import sys

# Whitespace becomes a plain space; upper case becomes lower case.
TABLE = {ord(c): ' ' for c in '\t\n\r\v\f\u00a0'}
TABLE.update({c: c + 32 for c in range(ord('A'), ord('Z') + 1)})
TABLE.update({c: c + 32 for c in range(0xC0, 0xDF) if c != 0xD7})


def tokens(text):
    return [t for t in text.translate(TABLE).split(' ') if t]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('-o', dest='out', default='-')
    ap.add_argument('--tokenizer', choices=['whitespace'], default='whitespace',
                    help='only the whitespace tokenizer is implemented')
    ap.add_argument('--split', nargs=2, action='append', required=True,
                    metavar=('NAME', 'FILE'))
    args = ap.parse_args()

    out = sys.stdout if args.out == '-' else open(args.out, 'w', encoding='utf-8')
    out.write('id\tsplit\tlabel\tpremise\thypothesis\n')
    for name, path in args.split:
        with open(path, encoding='utf-8') as f:
            for line in f:
                if not line.strip():
                    continue
                ex = json.loads(line)
                label = ex.get('gold_label') or ''
                if label in ('', '-'):
                    continue
                out.write('\t'.join([
                    str(ex['pairID']), name, label,
                    ' '.join(tokens(ex.get('sentence1') or '')),
                    ' '.join(tokens(ex.get('sentence2') or '')),
                ]) + '\n')
    if out is not sys.stdout:
        out.close()


if __name__ == '__main__':
    main()
