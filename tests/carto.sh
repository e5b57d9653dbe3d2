#!/bin/sh
# tells-carto: the statistics and regions of tests/ref/make-carto-ref.py
# (NumPy, from the definitions) to 1e-6, from the cartography code's JSON
# lines and from tells predictions TSVs; its own training deterministic,
# with the synthetic corpus's planted examples mostly easy-to-learn; the
# regions a partition, whatever the order of the rows; the region files
# as tells-baseline partitions; bad dynamics.
. "${top_srcdir:-.}/tests/init.sh"
dyn=$data/carto

compare() {  # OUT: against carto-ref.tsv
    paste "$1" "$data/carto-ref.tsv" | awk -F'\t' '
        NR == 1 { next }
        { if ($1 != $7 || $2 != $8 || $6 != $12) { print "row " NR ": " $0; bad++ }
          for (i = 3; i <= 5; i++) { d = $i - $(i + 6); if (d < 0) d = -d
              if (d > 1e-6) { print "row " NR " column " i ": " $i " vs " $(i + 6); bad++ } } }
        END { exit bad > 0 }'
}

for format in jsonl tsv; do
    what="dynamics as $format"
    if [ $format = jsonl ]; then
        set -- "$dyn/dynamics_epoch_0.jsonl" "$dyn/dynamics_epoch_1.jsonl" \
            "$dyn/dynamics_epoch_2.jsonl" "$dyn/dynamics_epoch_3.jsonl" "$dyn/dynamics_epoch_4.jsonl"
    else
        set -- "$dyn/epoch-0.tsv" "$dyn/epoch-1.tsv" "$dyn/epoch-2.tsv" "$dyn/epoch-3.tsv" \
            "$dyn/epoch-4.tsv"
    fi
    run tells-carto --easy "$tmp/easy.ids" --ambiguous "$tmp/ambiguous.ids" --hard "$tmp/hard.ids" "$@"
    expect 0 ""
    [ "$(head -n 1 "$tmp/out")" = "$(printf 'id\tgold\tconfidence\tvariability\tcorrectness\tforgetfulness')" ] ||
        fail "$what: header"
    [ "$(wc -l <"$tmp/out")" = 151 ] || fail "$what: $(wc -l <"$tmp/out") lines"
    compare "$tmp/out" >"$tmp/diff" || fail "$what differs from the reference: $(head -n 3 "$tmp/diff")"
    # Every example in exactly one region (the code's selection left 28
    # of these 150 in none).
    tail -n +2 "$tmp/out" | cut -f 1 | sort >"$tmp/all.ids"
    sort "$tmp/easy.ids" "$tmp/ambiguous.ids" "$tmp/hard.ids" | cmp -s - "$tmp/all.ids" ||
        fail "$what: the regions do not partition the examples"
    for r in easy ambiguous hard; do
        cmp -s "$tmp/$r.ids" "$data/carto-$r.ids" || fail "$what: $r region differs"
        (cd "$tmp" && sha256sum -c --quiet "$r.ids.sha256") || fail "$what: $r checksum"
    done
done

what="the regions whatever the order of the rows"
for e in 0 1 2 3 4; do
    { head -n 1 "$dyn/epoch-$e.tsv"; tail -n +2 "$dyn/epoch-$e.tsv" | sort -r; } >"$tmp/rev-$e.tsv"
done
run tells-carto --easy "$tmp/easy-rev.ids" --ambiguous "$tmp/ambiguous-rev.ids" \
    --hard "$tmp/hard-rev.ids" "$tmp"/rev-?.tsv
expect 0 ""
for r in easy ambiguous hard; do
    sort "$data/carto-$r.ids" >"$tmp/$r-sorted"
    sort "$tmp/$r-rev.ids" | cmp -s - "$tmp/$r-sorted" || fail "$what: $r region differs"
done

what="--fraction"
run tells-carto --fraction 0.1 --easy "$tmp/easy10.ids" --ambiguous "$tmp/amb10.ids" \
    --hard "$tmp/hard10.ids" "$dyn"/epoch-?.tsv
expect 0 ""
# floor(0.1 150) + 1 = 16 ambiguous; the other 134 halved by confidence.
[ "$(wc -l <"$tmp/amb10.ids")" = 16 ] || fail "$what: $(wc -l <"$tmp/amb10.ids") ambiguous, expected 16"
[ "$(wc -l <"$tmp/easy10.ids")" = 67 ] || fail "$what: $(wc -l <"$tmp/easy10.ids") easy, expected 67"
[ "$(wc -l <"$tmp/hard10.ids")" = 67 ] || fail "$what: $(wc -l <"$tmp/hard10.ids") hard, expected 67"

what="its own training on the synthetic corpus"
syn=$corpora/synthetic
tells-prep -q -o "$tmp/syn.tsv" --split train "$syn/train.jsonl" --split dev "$syn/dev.jsonl" \
    --split test "$syn/test.jsonl" || fail "$what: prep"
tells-embed -q --train-vectors "$tmp/vec.bin" --dim 50 -o "$tmp/syn.npy" "$tmp/syn.tsv" ||
    fail "$what: embed"
run tells-carto --train "$tmp/syn.tsv" --embeddings "$tmp/syn.npy" --seed 4 --easy "$tmp/syn-easy.ids"
expect 0 ""
cp "$tmp/out" "$tmp/syn-carto"
[ "$(wc -l <"$tmp/out")" = 4501 ] || fail "$what: $(wc -l <"$tmp/out") lines"
awk -F'\t' 'FILENAME ~ /KEY/ { if ($1 == "token") plant[$2] = $3; next }
    FILENAME ~ /syn.tsv/ { if (FNR > 1) { n = split($5, t, " "); p = 0
        for (i = 1; i <= n; i++) if ((t[i] in plant) && plant[t[i]] == $3) p = 1; planted[$1] = p }; next }
    FILENAME ~ /ids$/ { easy[$1] = 1; next }
    FNR > 1 { if (planted[$1]) { n1++; e1 += easy[$1] } else { n0++; e0 += easy[$1] } }
    END { printf "planted %d: %.3f easy, others %d: %.3f easy\n", n1, e1 / n1, n0, e0 / n0
          exit !(e1 / n1 > 3 * e0 / n0) }' "$syn/KEY.tsv" "$tmp/syn.tsv" "$tmp/syn-easy.ids" \
    "$tmp/out" >"$tmp/planted" || fail "$what: $(cat "$tmp/planted")"
what="its own training: the same seed, the same bytes"
run tells-carto --train "$tmp/syn.tsv" --embeddings "$tmp/syn.npy" --seed 4
expect 0 ""
expect_out "$tmp/syn-carto"
what="its own training from word vectors"
run tells-carto --train "$tmp/syn.tsv" --vectors "$tmp/vec.bin" --seed 4
expect 0 ""
expect_out "$tmp/syn-carto"

what="the regions as tells-baseline partitions"
run tells-baseline --train train --eval test --model fasttext --partition "easy=$tmp/syn-easy.ids" \
    "$tmp/syn.tsv"
expect 0 ""
grep -q "^fasttext	hypothesis	test	easy	" "$tmp/out" || fail "$what: $(cat "$tmp/out")"

what="the regions and PVI's id files as tells-run partitions"
tells-carto --train "$tmp/syn.tsv" --embeddings "$tmp/syn.npy" --seed 4 --hard "$tmp/syn-hard.ids" \
    --ambiguous "$tmp/syn-ambiguous.ids" >/dev/null || fail "$what: carto"
tells-pvi -q --folds 3 --low "$tmp/syn-low.ids" -o "$tmp/syn-pvi.tsv" "$tmp/syn.tsv" || fail "$what: pvi"
tells-baseline -q --train train --eval test --model fasttext --save-model "$tmp/syn.bin" \
    "$tmp/syn.tsv" >"$tmp/syn-baseline.tsv" || fail "$what: model"
run tells-run --eval "$tmp/syn.tsv" --eval-split test --model "$tmp/syn.bin" \
    --partition carto-easy="$tmp/syn-easy.ids" --partition carto-ambiguous="$tmp/syn-ambiguous.ids" \
    --partition carto-hard="$tmp/syn-hard.ids" --partition low-pvi="$tmp/syn-low.ids"
expect 0 ""
[ "$(cut -f 1 "$tmp/out" | tr '\n' ' ')" = "partition full carto-easy carto-ambiguous carto-hard low-pvi " ] ||
    fail "$what: $(cat "$tmp/out")"
# The easy region is scored far above the hard one.
awk -F'\t' '$1 == "carto-easy" { e = $3 } $1 == "carto-hard" { h = $3 }
    END { exit !(e > h + 0.2) }' "$tmp/out" || fail "$what: easy vs hard: $(cat "$tmp/out")"

# Bad dynamics: one clear error each.
cp "$dyn"/dynamics_epoch_?.jsonl "$tmp/"
e0=$tmp/dynamics_epoch_0.jsonl e1=$tmp/dynamics_epoch_1.jsonl e2=$tmp/dynamics_epoch_2.jsonl
what="an example missing from an epoch"
sed 5d "$dyn/dynamics_epoch_1.jsonl" >"$e1"
run tells-carto "$e0" "$e1"
id=$(sed -n 5p "$dyn/dynamics_epoch_1.jsonl" | sed 's/.*"guid":\([0-9]*\).*/\1/')
first=$(awk -v id="$id" '{ if (index($0, "\"guid\":" id ",")) { print NR - 1; exit } }' "$e0")
[ -n "$first" ] || fail "$what: setup"
expect 1 "tells-carto: $e1: 1 example of the first epoch ($e0) is missing, the first '$(sed -n "$((first + 1))p" "$e0" | sed 's/.*"guid":\([0-9]*\).*/\1/')': every epoch must hold the same examples"
what="an example only in a later epoch"
cp "$dyn/dynamics_epoch_1.jsonl" "$e1"
echo '{"guid":7,"logits_epoch_1":[0.1,0.2,0.3],"gold":0}' >>"$e1"
run tells-carto "$e0" "$e1"
expect 1 "tells-carto: $e1:151: id '7' is not in the first epoch ($e0): every epoch must hold the same examples"
what="a missing epoch"
run tells-carto "$e0" "$e2"
expect 1 "tells-carto: $e2:1: logits_epoch_2 where logits_epoch_1 was expected (is an epoch missing?)"
what="logits of the wrong width"
sed '3s/"logits_epoch_1":\[\([^],]*\),/"logits_epoch_1":[/' "$dyn/dynamics_epoch_1.jsonl" >"$e1"
run tells-carto "$e0" "$e1"
expect 1 "tells-carto: $e1:3: 2 logits, expected 3 as in the first line of $e0"
what="a NaN logit"
sed '4s/"logits_epoch_1":\[[^],]*,/"logits_epoch_1":[NaN,/' "$dyn/dynamics_epoch_1.jsonl" >"$e1"
run tells-carto "$e0" "$e1"
expect 1 "tells-carto: $e1:4: non-finite logit (NaN or Infinity)"
what="an unknown gold label"
sed '2s/"gold":[0-9]*/"gold":3/' "$dyn/dynamics_epoch_1.jsonl" >"$e1"
run tells-carto "$e0" "$e1"
expect 1 "tells-carto: $e1:2: gold label 3 is not a class index below 3"
what="a gold label that changes"
sed '2s/"gold":\([0-9]\)/"gold":\1X/; 2s/"gold":0X/"gold":1/; 2s/"gold":1X/"gold":2/; 2s/"gold":2X/"gold":0/' \
    "$dyn/dynamics_epoch_1.jsonl" >"$e1"
id=$(sed -n 2p "$e1" | sed 's/.*"guid":\([0-9]*\).*/\1/')
run tells-carto "$e0" "$e1"
expect 1 "tells-carto: $e1:2: gold label of '$id' differs from the first epoch's"
what="a duplicate id"
sed -n 1p "$dyn/dynamics_epoch_0.jsonl" >>"$e0"
run tells-carto "$e0"
expect 1 "tells-carto: $e0:151: duplicate id '$(sed -n 1p "$e0" | sed 's/.*"guid":\([0-9]*\).*/\1/')' (first on line 1)"
cp "$dyn/dynamics_epoch_0.jsonl" "$e0"
what="not JSON"
printf '{"guid": 1, "logits_epoch_0": [1, 2], "gold": 0\n' >"$tmp/bad.jsonl"
run tells-carto "$tmp/bad.jsonl"
[ "$status" = 1 ] && grep -q "^tells-carto: $tmp/bad.jsonl:1: invalid JSON: " "$tmp/err" ||
    fail "$what: $status $(cat "$tmp/err")"
what="TSV: an unknown gold label"
sed '3s/^\([0-9]*\)	train	[0-9]/\1	train	x/' "$dyn/epoch-1.tsv" >"$tmp/e1.tsv"
run tells-carto "$dyn/epoch-0.tsv" "$tmp/e1.tsv"
expect 1 "tells-carto: $tmp/e1.tsv:3: unknown gold label 'x' (no p_x column)"
what="TSV: NaN"
sed '3s/	[^	]*$/	nan/' "$dyn/epoch-1.tsv" >"$tmp/e1.tsv"
run tells-carto "$dyn/epoch-0.tsv" "$tmp/e1.tsv"
expect 1 "tells-carto: $tmp/e1.tsv:3: invalid probability 'nan' for class 2 (expected a number from 0 to 1)"
what="TSV: probabilities that are no distribution"
sed '3s/	[^	]*	[^	]*	[^	]*$/	0.9	0.9	0.9/' "$dyn/epoch-1.tsv" >"$tmp/e1.tsv"
run tells-carto "$dyn/epoch-0.tsv" "$tmp/e1.tsv"
expect 1 "tells-carto: $tmp/e1.tsv:3: the probabilities sum to 2.7, not 1 (tolerance 0.01)"
sed '4s/	[^	]*	[^	]*	[^	]*$/	0	0	0/' "$dyn/epoch-1.tsv" >"$tmp/e1.tsv"
run tells-carto "$dyn/epoch-0.tsv" "$tmp/e1.tsv"
expect 1 "tells-carto: $tmp/e1.tsv:4: the probabilities sum to 0, not 1 (tolerance 0.01)"
what="TSV: probabilities printed with 3 decimals are fine"
awk -F '\t' -v OFS='\t' 'NR > 1 { $5 = sprintf("%.3f", $5); $6 = sprintf("%.3f", $6);
    $7 = sprintf("%.3f", $7) } { print }' "$dyn/epoch-1.tsv" >"$tmp/e1.tsv"
run tells-carto "$dyn/epoch-0.tsv" "$tmp/e1.tsv"
expect 0 ""
what="JSON: a key twice, or two epochs in a line"
for key in 'guid":[0-9]*' 'gold":[0-9]*' 'logits_epoch_1":[^]]*]'; do
    sed "3s/\"\($key\)/\"\1,\"\1/" "$dyn/dynamics_epoch_1.jsonl" >"$e1"
    run tells-carto "$e0" "$e1"
    expect 1 "tells-carto: $e1:3: duplicate key '${key%%\"*}'"
done
sed '3s/"logits_epoch_1":\([^]]*]\)/"logits_epoch_1":\1,"logits_epoch_2":\1/' \
    "$dyn/dynamics_epoch_1.jsonl" >"$e1"
run tells-carto "$e0" "$e1"
expect 1 "tells-carto: $e1:3: two keys 'logits_epoch_1' and 'logits_epoch_2' (one epoch per file)"
what="JSON: epoch numbers that do not fit"
printf '{"guid": "a", "logits_epoch_9223372036854775808": [1, 2], "gold": 1}\n' >"$tmp/big.jsonl"
run tells-carto "$tmp/big.jsonl"
expect 1 "tells-carto: $tmp/big.jsonl:1: epoch of key 'logits_epoch_9223372036854775808' is larger than 9223372036854775807"
printf '{"guid": "a", "logits_epoch_9223372036854775807": [1, 2], "gold": 1}\n' >"$tmp/last.jsonl"
printf '{"guid": "a", "logits_epoch_0": [1, 2], "gold": 1}\n' >"$tmp/next.jsonl"
run tells-carto "$tmp/last.jsonl" "$tmp/next.jsonl"
expect 1 "tells-carto: $tmp/next.jsonl:1: logits_epoch_0 where logits_epoch_9223372036854775808 was expected (is an epoch missing?)"
what="TSV: other classes"
sed '1s/p_2/p_two/' "$dyn/epoch-1.tsv" >"$tmp/e1.tsv"
run tells-carto "$dyn/epoch-0.tsv" "$tmp/e1.tsv"
expect 1 "tells-carto: $tmp/e1.tsv:1: the classes (p_ columns) differ from those of $dyn/epoch-0.tsv"
what="formats mixed"
run tells-carto "$dyn/epoch-0.tsv" "$dyn/dynamics_epoch_1.jsonl"
expect 1 "tells-carto: $dyn/dynamics_epoch_1.jsonl:1: not in the format of the first epoch ($dyn/epoch-0.tsv)"
what="not dynamics"
run tells-carto "$tmp/syn.tsv"
expect 1 "tells-carto: $tmp/syn.tsv:1: not training dynamics: the header needs columns id, gold and p_CLASS for each class"
what="empty epoch"
: >"$tmp/empty.jsonl"
run tells-carto "$tmp/empty.jsonl"
expect 1 "tells-carto: $tmp/empty.jsonl: no examples"
what="embeddings of another corpus"
head -n 101 "$tmp/syn.tsv" >"$tmp/small.tsv"
run tells-carto --train "$tmp/small.tsv" --embeddings "$tmp/syn.npy"
expect 1 "tells-carto: $tmp/syn.npy: 4500 rows, but $tmp/small.tsv has 100 examples"
what="bad options"
run tells-carto
expect 2 "tells-carto: no epoch files (or --train)
Try 'tells-carto --help' for more information."
run tells-carto --train "$tmp/syn.tsv"
expect 2 "tells-carto: --train needs --embeddings or --vectors (one of them)
Try 'tells-carto --help' for more information."
run tells-carto --epochs 3 "$e0"
expect 2 "tells-carto: --embeddings, --vectors, --epochs, --batch, --lr and --seed go with --train
Try 'tells-carto --help' for more information."
run tells-carto --fraction 1 "$e0"
expect 2 "tells-carto: invalid value '1' for --fraction (expected a number > 0 and < 1)
Try 'tells-carto --help' for more information."
finish
