#!/usr/bin/env python3
"""Reference for `tells-pairs -f`, for bench/pairs.  Same feature TSV.

Written from the definitions in `man tells-pairs` (FEATURES) and
lib/text/pairshape.h, standard library only.  Per example of a prepared
TSV (id, split, label, premise P, hypothesis H; tokens joined by spaces):

  words       the tokens with an ASCII letter or digit or a byte >= 0x80
              (a merged token "brain_injury" is one word), compared byte
              for byte
  overlap            of H's words (each occurrence), those P has; 0 if none
  premise_overlap    of P's words (each occurrence), those H has; 0 if none
  all_in_premise     H has a word and P has every word of H
  subsequence        H has a word and H's words are a contiguous run of P's
  negation           a cue of the lexicon is found in H whose words P does
                     not have together and in that order: cues
                     tokenised as tells-prep's default tokenizer does
                     (lowercased, punctuation dropped, ' - . kept between
                     letters or digits, split at '_'); texts split at
                     spaces and at the '_' of merged tokens, ASCII letters
                     lowercased;
                     leftmost-longest non-overlapping matches
  numbers            H has a number (a word with a digit, or a number word)
                     that P lacks; when the token after it is a unit, P
                     must have the same number followed by the same unit
  length_difference  P's words minus H's words
  (new_concept, more_general, more_specific: 0, as tells-pairs --no-mesh
  writes them; MeSH linking is not reproduced here)

Output: id split label and the seven features, shares with 6 decimals,
flags and counts as integers, rows in input order.

usage: ref_pairs.py [--negation FILE] [-o OUT] PREPARED.tsv
(--negation defaults to the source tree's corpora/lexicons/negation-triggers.txt)
"""
import argparse
import os
import re
import sys

# lib/text/pairshape.c: pair_units and the number words.
UNITS = frozenset(x.encode() for x in (
    "mg", "g", "kg", "mcg", "ug", "ng", "ml", "l", "dl", "mmol", "meq", "mmhg", "cm", "mm",
    "m", "km", "in", "ft", "lb", "lbs", "oz", "iu", "units", "unit", "percent", "%",
    "bpm", "degrees", "c", "f", "hours", "hour", "hrs", "hr", "h", "minutes", "minute",
    "min", "mins", "seconds", "days", "day", "weeks", "week", "wk", "months", "month",
    "years", "year", "yrs", "yr", "times", "tablets", "tablet", "doses", "dose"))
NUMBER_WORDS = frozenset(x.encode() for x in (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
    "eighty", "ninety", "hundred", "thousand", "million", "billion", "dozen"))

WORD = re.compile(rb'[A-Za-z0-9\x80-\xff]')
DIGIT = re.compile(rb'[0-9]')
# Latin-1 capitals in UTF-8 (C3 80..C3 9E but not C3 97, the multiplication sign).
LATIN1_UPPER = re.compile(rb'\xc3([\x80-\x96\x98-\x9e])')


def lower(b):
    """ASCII and Latin-1 lowercasing, as tells-prep does."""
    b = b.lower()
    if b'\xc3' in b:
        b = LATIN1_UPPER.sub(lambda m: b'\xc3' + bytes([m.group(1)[0] + 0x20]), b)
    return b


def is_word_byte(c):
    return c >= 0x80 or 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122


def default_tokens(text):
    """tells-prep's default tokenizer, punctuation dropped: runs of letters
    and digits (bytes >= 0x80 count as letters), keeping ' - . between two
    of them; '_' and every other byte separate."""
    toks, cur = [], bytearray()
    n = len(text)
    for i, c in enumerate(text):
        if is_word_byte(c):
            cur.append(c)
        elif (c in b"'-." and cur and i + 1 < n and is_word_byte(text[i + 1])):
            cur.append(c)
        elif cur:
            toks.append(bytes(cur))
            cur = bytearray()
    if cur:
        toks.append(bytes(cur))
    return toks


def load_cues(path):
    """{first token: [cue tuples, longest first]}"""
    cues = {}
    seen = set()
    with open(path, 'rb') as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip(b'\r\n')
            if not line.strip() or line.startswith(b'#'):
                continue
            toks = tuple(default_tokens(lower(line)))
            if not toks:
                sys.exit('%s:%d: a cue without a word' % (path, lineno))
            if toks in seen:
                sys.exit('%s:%d: cue given twice' % (path, lineno))
            seen.add(toks)
            cues.setdefault(toks[0], []).append(toks)
    for v in cues.values():
        v.sort(key=len, reverse=True)
    return cues


def cues_in(tokens, cues):
    """The cue phrases found in a text, leftmost-longest, not overlapping."""
    parts = parts_of(tokens)
    found = set()
    i, n = 0, len(parts)
    while i < n:
        for cue in cues.get(parts[i], ()):
            k = len(cue)
            if tuple(parts[i:i + k]) == cue:
                found.add(cue)
                i += k
                break
        else:
            i += 1
    return found


def parts_of(tokens):
    return [p for t in tokens for p in t.split(b'_') if p]


def has_run(parts, cue):
    """Whether the words of cue occur together, in that order, in parts."""
    k = len(cue)
    return any(tuple(parts[i:i + k]) == cue for i in range(len(parts) - k + 1))


def is_number(w):
    return w in NUMBER_WORDS or DIGIT.search(w) is not None


ASCII_LOWER = bytes.maketrans(b'ABCDEFGHIJKLMNOPQRSTUVWXYZ', b'abcdefghijklmnopqrstuvwxyz')


def features(premise, hypothesis, cues):
    # Words compare with ASCII letters folded (man tells-pairs).
    premise = premise.translate(ASCII_LOWER)
    hypothesis = hypothesis.translate(ASCII_LOWER)
    ptoks = premise.split()
    htoks = hypothesis.split()
    pw = [t for t in ptoks if WORD.search(t)]
    hw = [t for t in htoks if WORD.search(t)]
    pset, hset = set(pw), set(hw)

    overlap = sum(1 for w in hw if w in pset) / len(hw) if hw else 0.0
    premise_overlap = sum(1 for w in pw if w in hset) / len(pw) if pw else 0.0
    all_in = int(bool(hw) and all(w in pset for w in hw))
    subseq = 0
    if hw:
        k = len(hw)
        for i in range(len(pw) - k + 1):
            if pw[i:i + k] == hw:
                subseq = 1
                break

    negation = 0
    if cues:
        pparts = parts_of(ptoks)
        negation = int(any(not has_run(pparts, cue) for cue in cues_in(htoks, cues)))

    # Numbers: P's numbers, and P's (number, unit) pairs.
    pqty = set()
    for i, t in enumerate(ptoks):
        if i + 1 < len(ptoks) and ptoks[i + 1] in UNITS and WORD.search(t) and is_number(t):
            pqty.add((t, ptoks[i + 1]))
    numbers = 0
    for i, t in enumerate(htoks):
        if not WORD.search(t) or not is_number(t):
            continue
        if i + 1 < len(htoks) and htoks[i + 1] in UNITS:
            if (t, htoks[i + 1]) not in pqty:
                numbers = 1
                break
        elif t not in pset:
            numbers = 1
            break

    return (overlap, premise_overlap, all_in, subseq, negation, numbers,
            len(pw) - len(hw))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--negation', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'corpora', 'lexicons',
        'negation-triggers.txt'))
    ap.add_argument('-o', '--output', default='-')
    ap.add_argument('file')
    args = ap.parse_args()
    cues = load_cues(args.negation)
    out = sys.stdout.buffer if args.output == '-' else open(args.output, 'wb')
    out.write(b'id\tsplit\tlabel\toverlap\tpremise_overlap\tall_in_premise\t'
              b'subsequence\tnegation\tnumbers\tlength_difference\t'
              b'new_concept\tmore_general\tmore_specific\n')
    with open(args.file, 'rb') as f:
        next(f, None)
        for line in f:
            cols = line.rstrip(b'\n').split(b'\t')
            ov, pov, a, s, ng, nu, ld = features(cols[3], cols[4], cues)
            # The MeSH features are not computed here: tells-pairs runs
            # with --no-mesh, where they are 0.
            out.write(b'%s\t%s\t%s\t%.6f\t%.6f\t%d\t%d\t%d\t%d\t%d\t0\t0\t0\n'
                      % (cols[0], cols[1], cols[2], ov, pov, a, s, ng, nu, ld))
    out.close()


if __name__ == '__main__':
    main()
