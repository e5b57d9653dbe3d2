#!/bin/sh
# Every option that takes an id file also takes the MedNLI study's kind
# of .npy (NumPy's '<U10' strings, tests/data/majority-*.npy from
# tests/ref/make-npy-ids.py): tells-run --partition, tells-split --keep
# and --drop (tells-baseline --partition: tests/baseline-majority.sh).
. "${top_srcdir:-.}/tests/init.sh"

{
    printf 'id\tsplit\tlabel\tpremise\thypothesis\n'
    i=1
    while [ $i -le 150 ]; do
        printf 'c%s\tdev\tcontradiction\tp\tx\ne%s\tdev\tentailment\tp\ty\n' $i $i
        printf 'n%s\tdev\tneutral\tp\tz\n' $i
        i=$((i + 1))
    done
} >"$tmp/d.tsv"
seq_ids() { i=$2; while [ $i -le $3 ]; do echo "$1$i"; i=$((i + 1)); done; }
{ seq_ids n 1 65; seq_ids c 1 25; seq_ids e 1 4; } >"$tmp/easy.ids"
{ seq_ids e 5 150; seq_ids c 26 60; seq_ids n 66 100; } >"$tmp/difficult.ids"

what="tells-run --partition: the .npy and the text id file agree"
run tells-run --eval "$tmp/d.tsv" --model-cmd "sed -u 's/.*/neutral/'" \
    --partition easy="$tmp/easy.ids" --partition difficult="$tmp/difficult.ids"
expect 0 ""
cp "$tmp/out" "$tmp/text-ids"
grep -q '^easy	94	0.691489	' "$tmp/out" || fail "$what: $(cat "$tmp/out")"
run tells-run --eval "$tmp/d.tsv" --model-cmd "sed -u 's/.*/neutral/'" \
    --partition easy="$data/majority-easy.npy" --partition difficult="$data/majority-difficult.npy"
expect 0 ""
expect_out "$tmp/text-ids"

what="tells-split --keep and --drop with .npy id files"
run tells-split --keep "$tmp/easy.ids" "$tmp/d.tsv"
expect 0 ""
cp "$tmp/out" "$tmp/kept"
[ "$(wc -l <"$tmp/kept")" = 95 ] || fail "$what: $(wc -l <"$tmp/kept") lines kept"
run tells-split --keep "$data/majority-easy.npy" "$tmp/d.tsv"
expect 0 ""
expect_out "$tmp/kept"
run tells-split --drop "$data/majority-difficult.npy" "$tmp/d.tsv"
expect 0 ""
[ "$(wc -l <"$tmp/out")" = 235 ] || fail "$what: $(wc -l <"$tmp/out") lines after --drop"
# Ids no row has are counted and written back, as from a text file.
head -n 40 "$tmp/d.tsv" >"$tmp/small.tsv"
run tells-split --keep "$data/majority-easy.npy" --missing "$tmp/missing" "$tmp/small.tsv"
expect 0 "tells-split: $data/majority-easy.npy: 64 of 94 ids not found in the input"
[ "$(wc -l <"$tmp/missing")" = 64 ] || fail "$what: --missing"
head -n 1 "$tmp/missing" | grep -qx n14 || fail "$what: --missing starts $(head -n 1 "$tmp/missing")"

what="a .npy that is not an array of strings"
run tells-split --keep "$data/npy-f4.npy" "$tmp/d.tsv"
expect 1 "tells-split: $data/npy-f4.npy: unsupported .npy data type '<f4' (strings, '<U' or '|S', expected)"
run tells-run --eval "$tmp/d.tsv" --model-cmd cat --partition x="$data/ids-2d.npy"
expect 1 "tells-run: $data/ids-2d.npy: a .npy array of ids has one dimension, not more"

finish
