#!/bin/sh
# Cross-validation folds: the hypotheses of a premise share a fold by
# default (tells-baseline, tells-pvi; the study and the audit use the same
# deal), so a model cannot learn a premise's other labels from its
# siblings; the folds follow the examples in any row order and are written
# with the predictions; --group-by none deals rows; errors.
. "${top_srcdir:-.}/tests/init.sh"

# 300 premises, each with an entailment, a neutral and a contradiction
# whose hypotheses share the premise's tag and nothing else that tells the
# label: a hypothesis-only model has nothing to learn (a third right).
# Dealt by row, a test row's two siblings sit in training with the other
# two labels, and the model learns the tag backwards.
awk 'BEGIN { OFS = "\t"; print "id", "split", "label", "premise", "hypothesis"
             split("entailment neutral contradiction", L, " ")
             split("red green blue gray pink", W, " ")
             for (p = 0; p < 300; p++) for (j = 1; j <= 3; j++)
                 print "p" p "-" j, "train", L[j], "premise number " p " is here",
                       "tag" p " " W[(p * 7 + j * 3) % 5 + 1] " thing" }' >"$tmp/leak.tsv"
ft="--folds 5 --epoch 25 --lr 0.5 --dim 20 --bucket 10000 --model fasttext"

what="grouped by premise (the default): at chance"
# shellcheck disable=SC2086
run tells-baseline -q $ft --predictions "$tmp/pg.tsv" "$tmp/leak.tsv"
expect 0 ""
acc=$(awk -F'\t' 'NR == 2 { print $7 }' "$tmp/out")
awk -v a="$acc" 'BEGIN { exit !(a > 0.28 && a < 0.39) }' || fail "$what: accuracy $acc"
what="--group-by none: the leak, learnt backwards"
# shellcheck disable=SC2086
run tells-baseline -q $ft --group-by none --predictions "$tmp/pn.tsv" "$tmp/leak.tsv"
expect 0 ""
acc=$(awk -F'\t' 'NR == 2 { print $7 }' "$tmp/out")
awk -v a="$acc" 'BEGIN { exit !(a < 0.2) }' || fail "$what: accuracy $acc"

what="the folds in the predictions"
[ "$(head -n 1 "$tmp/pg.tsv")" = "id	split	gold	predicted	p_contradiction	p_entailment	p_neutral	fold" ] ||
    fail "$what: header $(head -n 1 "$tmp/pg.tsv")"
# A premise's three share a fold; five folds of 180 (60 premises each:
# the deal gives each premise to the smallest fold).
awk -F'\t' 'NR > 1 { p = $1; sub(/-[0-9]$/, "", p)
                     if (p in f && f[p] != $8) print "premise " p " in folds " f[p] " and " $8
                     f[p] = $8; n[$8]++ }
            END { for (k = 1; k <= 5; k++) if (n[k] != 180) print "fold " k ": " n[k] " rows" }' \
    "$tmp/pg.tsv" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "$what: $(head -3 "$tmp/bad")"
# By row: the siblings are spread.
awk -F'\t' 'NR > 1 { p = $1; sub(/-[0-9]$/, "", p); if (p in f && f[p] != $8) split_ = 1; f[p] = $8 }
            END { exit !split_ }' "$tmp/pn.tsv" || fail "$what: --group-by none kept premises together"

what="the same folds and predictions in any row order"
{ head -n 1 "$tmp/leak.tsv"; tail -n +2 "$tmp/leak.tsv" | tac; } >"$tmp/rev.tsv"
# shellcheck disable=SC2086
run tells-baseline -q $ft --predictions "$tmp/pr.tsv" "$tmp/rev.tsv"
expect 0 ""
cut -f1,8 "$tmp/pg.tsv" | LC_ALL=C sort >"$tmp/fg"
cut -f1,8 "$tmp/pr.tsv" | LC_ALL=C sort | cmp -s - "$tmp/fg" || fail "$what: other folds"

what="tells-pvi deals the same folds"
run tells-pvi -q --epoch 1 --dim 5 --bucket 1000 "$tmp/leak.tsv"
expect 0 ""
[ "$(head -n 1 "$tmp/out")" = "id	gold	pvi	p_gold	p_null	predicted	fold" ] ||
    fail "$what: header $(head -n 1 "$tmp/out")"
cut -f1,7 "$tmp/out" | LC_ALL=C sort | cmp -s - "$tmp/fg" || fail "$what: other folds"

what="too few premises for the folds"
head -n 13 "$tmp/leak.tsv" >"$tmp/four.tsv"
run tells-baseline --folds 5 "$tmp/four.tsv"
expect 1 "tells-baseline: $tmp/four.tsv: 4 premises cannot make 5 folds"
run tells-pvi "$tmp/four.tsv"
expect 1 "tells-pvi: $tmp/four.tsv: 4 premises cannot make 5 folds"
run tells-baseline --folds 5 --group-by none --model majority "$tmp/four.tsv"
expect 0 ""

what="usage"
run tells-baseline --folds 5 --group-by row "$tmp/four.tsv"
expect 2 "tells-baseline: invalid value 'row' for --group-by (expected premise or none)
Try 'tells-baseline --help' for more information."
run tells-baseline --group-by none "$tmp/four.tsv"
expect 2 "tells-baseline: --group-by needs --folds
Try 'tells-baseline --help' for more information."
run tells-pvi --group-by "" "$tmp/four.tsv"
expect 2 "tells-pvi: invalid value '' for --group-by (expected premise or none)
Try 'tells-pvi --help' for more information."
finish
