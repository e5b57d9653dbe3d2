#!/bin/sh
# tells-audit does not cry wolf: 20 batches drawn from the reference's own
# distribution (the synthetic generator, 20 seeds); at most one may have a
# significant finding at FDR 0.05.
. "${top_srcdir:-.}/tests/init.sh"
syn=$corpora/synthetic

tells-prep -q -o "$tmp/ref.tsv" --split train "$syn/train.jsonl" --split dev "$syn/dev.jsonl" \
    --split test "$syn/test.jsonl"
files=
for seed in $(seq 201 220); do
    tells-synth --seed $seed --premises 170 --id-prefix "s$seed" -o "$tmp/s$seed" &&
    tells-prep -q -o "$tmp/s$seed.tsv" --split new "$tmp/s$seed/train.jsonl" \
        --split new "$tmp/s$seed/dev.jsonl" --split new "$tmp/s$seed/test.jsonl" ||
        fail "batch $seed"
    files="$files $tmp/s$seed.tsv"
done
what="20 clean batches"
# shellcheck disable=SC2086
run tells-audit --reference "$tmp/ref.tsv" --seed 1 $files
expect 0 ""
[ "$(cut -f 1 "$tmp/out" | sort -u | wc -l)" = 21 ] || fail "$what: not 20 groups"
flagged=$(awk -F '\t' '$9 == "yes" { print $1 }' "$tmp/out" | sort -u | wc -l)
[ "$flagged" -le 1 ] || { fail "$what: $flagged of 20 batches flagged"; grep '	yes	' "$tmp/out" >&2; }
finish
