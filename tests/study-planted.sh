#!/bin/sh
# tells-study finds one blatant shortcut in a corpus of 1,900 pairs with
# nothing else planted: "indeed" appended to 40% of the contradiction
# hypotheses (tells-synth --no-artifacts --plant). hypothesis_only is
# significant over the primary checks (the token screens, in a family of
# their own, no longer dilute its q), and its model fits: the epochs and
# learning rate chosen on the training rows, whose fit detail shows.
. "${top_srcdir:-.}/tests/init.sh"

tells-synth --seed 3 --premises 634 --no-artifacts --plant indeed=contradiction:400 \
    -o "$tmp/c" >/dev/null
what="one planted token"
run tells-study -q -o "$tmp/study" --mesh "$corpora/mesh/mtrees2017.txt" --split train "$tmp/c/train.jsonl" \
    --split dev "$tmp/c/dev.jsonl" --split test "$tmp/c/test.jsonl"
expect 0 ""
row=$(grep '^hypothesis_only	' "$tmp/study/summary.tsv")
[ "$(echo "$row" | cut -f 9)" = yes ] || fail "$what: not found: $row"
echo "$row" | grep -Eq ' settings=chosen_on_training_rows mde=0\.[0-9]{6} .* family=primary\([0-9]+\)$' ||
    fail "$what: detail: $row"
# The q of a primary family of a few checks, not of a thousand screens.
echo "$row" | awk -F'\t' '{ exit !($8 < 0.05 && $8 <= 10 * $7) }' || fail "$what: q: $row"
grep -q '^token:indeed:contradiction	' "$tmp/study/summary.tsv" ||
    fail "$what: the planted token is not screened"
finish
