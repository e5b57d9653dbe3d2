#!/bin/sh
# tells-baseline --majority-from eval on partitions: the majority class of
# each evaluated set, as the MedNLI reference code computes it (issue 16's
# worked example), and partitions given as the study's .npy id files.
. "${top_srcdir:-.}/tests/init.sh"

# dev: 150 rows of each class, so that its majority is contradiction (the
# first in byte order); easy: neutral 65, contradiction 25, entailment 4;
# difficult: entailment 146, contradiction 35, neutral 35.
{
    printf 'id\tsplit\tlabel\tpremise\thypothesis\n'
    printf 't1\ttrain\tcontradiction\tp\tx\nt2\ttrain\tentailment\tp\ty\n'
    printf 't3\ttrain\tneutral\tp\tz\n'
    i=1
    while [ $i -le 150 ]; do
        printf 'c%s\tdev\tcontradiction\tp\tx\ne%s\tdev\tentailment\tp\ty\n' $i $i
        printf 'n%s\tdev\tneutral\tp\tz\n' $i
        i=$((i + 1))
    done
} >"$tmp/maj.tsv"
seq_ids() { i=$2; while [ $i -le $3 ]; do echo "$1$i"; i=$((i + 1)); done; }
{ seq_ids n 1 65; seq_ids c 1 25; seq_ids e 1 4; } >"$tmp/easy.ids"
{ seq_ids e 5 150; seq_ids c 26 60; seq_ids n 66 100; } >"$tmp/difficult.ids"

want="model	input	split	partition	n	micro_f1	macro_f1	accuracy	change_micro_f1	change_macro_f1	change_accuracy
majority	hypothesis	dev	full	450	0.333333	0.166667	0.333333	0.000000	0.000000	0.000000
majority	hypothesis	dev	easy	94	0.691489	0.272537	0.691489	0.358156	0.105870	0.358156
majority	hypothesis	dev	difficult	216	0.675926	0.268877	0.675926	0.342593	0.102210	0.342593"

what="each partition's own majority: 65/94 on easy, not 25/94"
run tells-baseline --model majority --majority-from eval --partition easy="$tmp/easy.ids" \
    --partition difficult="$tmp/difficult.ids" "$tmp/maj.tsv"
expect 0 ""
expect_out_text "$want"

what="the same from the .npy id files NumPy wrote ('<U10', versions 1.0 and 2.0)"
run tells-baseline --model majority --majority-from eval \
    --partition easy="$data/majority-easy.npy" --partition difficult="$data/majority-difficult.npy" \
    "$tmp/maj.tsv"
expect 0 ""
expect_out_text "$want"

what="--majority-from train keeps the training split's label on partitions"
run tells-baseline --model majority --partition easy="$data/majority-easy.npy" "$tmp/maj.tsv"
expect 0 ""
expect_out_text "model	input	split	partition	n	micro_f1	macro_f1	accuracy	change_micro_f1	change_macro_f1	change_accuracy
majority	hypothesis	dev	full	450	0.333333	0.166667	0.333333	0.000000	0.000000	0.000000
majority	hypothesis	dev	easy	94	0.265957	0.140056	0.265957	-0.067376	-0.026611	-0.067376"

what="with folds, each fold's rows of the partition"
# (one premise for all: the folds deal rows)
run tells-baseline --model majority --majority-from eval --train dev --folds 3 --group-by none \
    --partition easy="$data/majority-easy.npy" "$tmp/maj.tsv"
expect 0 ""
awk -F '\t' '$4 == "easy" && $8 != "0.691489" { exit 1 }' "$tmp/out" ||
    fail "$what: $(cat "$tmp/out")"

what="a damaged .npy id file"
head -c 100 "$data/majority-easy.npy" >"$tmp/cut.npy"
run tells-baseline --model majority --partition easy="$tmp/cut.npy" "$tmp/maj.tsv"
expect 1 "tells-baseline: $tmp/cut.npy: truncated .npy header"
run tells-baseline --model majority --partition easy="$data/npy-f4.npy" "$tmp/maj.tsv"
expect 1 "tells-baseline: $data/npy-f4.npy: unsupported .npy data type '<f4' (strings, '<U' or '|S', expected)"

finish
