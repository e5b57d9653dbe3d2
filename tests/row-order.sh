#!/bin/sh
# The programs that train or resample read the rows in the order of their
# ids: a corpus (or a prediction file) with its rows reversed gives the
# same numbers for the same seed. Rows may be listed in another order, so
# tables are compared with their lines sorted, and binary files byte for
# byte (the vectors) or row by row by id.
. "${top_srcdir:-.}/tests/init.sh"

tells-synth --seed 5 --premises 150 -o "$tmp/mli" >/dev/null
tells-prep -q -o "$tmp/p.tsv" --split train "$tmp/mli/train.jsonl" \
    --split dev "$tmp/mli/dev.jsonl" --split test "$tmp/mli/test.jsonl"
{ head -n 1 "$tmp/p.tsv"; tail -n +2 "$tmp/p.tsv" | tac; } >"$tmp/r.tsv"
# same_lines A B: the files hold the same lines, in any order.
same_lines() {
    [ "$(sort "$1" | cksum)" = "$(sort "$2" | cksum)" ]
}

for v in p r; do
    mkdir "$tmp/$v"
    tells-baseline --seed 3 --train train --folds 3 --predictions "$tmp/$v/pred.tsv" \
        -o "$tmp/$v/baseline.tsv" "$tmp/$v.tsv" 2>"$tmp/$v/err" ||
        fail "tells-baseline on $v.tsv: $(cat "$tmp/$v/err")"
    # Trained on train, scored on every other split (by name: dev, test).
    tells-baseline --seed 3 --details -o "$tmp/$v/eval.tsv" "$tmp/$v.tsv" 2>"$tmp/$v/err" ||
        fail "tells-baseline --details on $v.tsv: $(cat "$tmp/$v/err")"
    tells-pvi -q --seed 3 --folds 3 --summary "$tmp/$v/pvi-summary.tsv" -o "$tmp/$v/pvi.tsv" \
        "$tmp/$v.tsv" 2>"$tmp/$v/err" || fail "tells-pvi on $v.tsv: $(cat "$tmp/$v/err")"
    tells-embed --train-vectors "$tmp/$v/v.bin" --dim 10 --epoch 2 --threads 1 --seed 3 \
        -o "$tmp/$v/hyp.npy" "$tmp/$v.tsv" 2>"$tmp/$v/err" ||
        fail "tells-embed on $v.tsv: $(cat "$tmp/$v/err")"
    # Cartography over the same vectors (p's), trained for the two orders.
    tells-carto --train "$tmp/$v.tsv" --vectors "$tmp/p/v.bin" --seed 3 \
        -o "$tmp/$v/carto.tsv" 2>"$tmp/$v/err" || fail "tells-carto on $v.tsv: $(cat "$tmp/$v/err")"
done

what="tells-baseline: fastText's training rows"
same_lines "$tmp/p/pred.tsv" "$tmp/r/pred.tsv" || fail "$what: the predictions differ"
same_lines "$tmp/p/baseline.tsv" "$tmp/r/baseline.tsv" || fail "$what: the table differs"
cmp -s "$tmp/p/eval.tsv" "$tmp/r/eval.tsv" || fail "$what: the table of dev and test differs"

what="tells-pvi: the folds' models and the summary's resamples"
same_lines "$tmp/p/pvi.tsv" "$tmp/r/pvi.tsv" || fail "$what: pvi.tsv differs"
cmp -s "$tmp/p/pvi-summary.tsv" "$tmp/r/pvi-summary.tsv" || fail "$what: the summary differs"

what="tells-embed --train-vectors: the text in the order of the ids"
cmp -s "$tmp/p/v.bin" "$tmp/r/v.bin" || fail "$what: the vectors differ"

what="tells-carto --train: the shuffles start from the ids' order"
same_lines "$tmp/p/carto.tsv" "$tmp/r/carto.tsv" || fail "$what: carto.tsv differs"

what="tells-stat: the resamples draw examples by id"
# Two systems' predictions of the test rows, then the same files reversed.
awk -F'\t' 'NR > 1 && $2 == "test" { print $1 "\t" $3 }' "$tmp/p.tsv" >"$tmp/gold"
awk -F'\t' 'BEGIN { print "id\tgold\tpredicted" }
    { print $1 "\t" $2 "\t" (NR % 3 ? $2 : "neutral") }' "$tmp/gold" >"$tmp/a.tsv"
awk -F'\t' 'BEGIN { print "id\tgold\tpredicted" }
    { print $1 "\t" $2 "\t" (NR % 4 ? $2 : "entailment") }' "$tmp/gold" >"$tmp/b.tsv"
for f in a b; do
    mkdir -p "$tmp/rev"
    { head -n 1 "$tmp/$f.tsv"; tail -n +2 "$tmp/$f.tsv" | tac; } >"$tmp/rev/$f.tsv"
done
for c in bootstrap permutation; do
    for m in accuracy macro_f1; do
        fwd=$(cd "$tmp" && tells-stat -n 500 -s 3 -m "$m" "$c" a.tsv b.tsv)
        rev=$(cd "$tmp/rev" && tells-stat -n 500 -s 3 -m "$m" "$c" a.tsv b.tsv)
        [ -n "$fwd" ] && [ "$fwd" = "$rev" ] || fail "$what: $c $m: '$fwd' against '$rev'"
    done
done

finish
