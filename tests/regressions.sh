#!/bin/sh
# Fixed bugs stay fixed: each case once failed.
. "${top_srcdir:-.}/tests/init.sh"

H='id	split	label	premise	hypothesis'
printf '%s\n1\tdev\tn\ta\tb c\n2\ttest\te\ta\tb\n' "$H" >"$tmp/a.tsv"

what="-o names a folder: the message names it (was a use after free)"
mkdir "$tmp/d"
for prog in tells-len tells-pmi tells-phrases; do
    run $prog -o "$tmp/d" "$tmp/a.tsv"
    expect 1 "$prog: $tmp/d: cannot write: it is a directory"
done
run tells-split -s dev -o "$tmp/d" "$tmp/a.tsv"
expect 1 "tells-split: $tmp/d: cannot write: it is a directory"

what="NUL byte in a prepared TSV"
printf '%s\n1\tdev\tn\0x\ta\tb\n' "$H" >"$tmp/nul.tsv"
run tells-len "$tmp/nul.tsv"
expect 1 "tells-len: $tmp/nul.tsv:2: NUL byte in input"

what="hypothesis of spaces only"
printf '%s\n1\tdev\tn\ta\t  \n' "$H" >"$tmp/sp.tsv"
run tells-pmi "$tmp/sp.tsv"
expect 1 "tells-pmi: $tmp/sp.tsv:2: empty hypothesis"

what="phrases of very long tokens"
long1=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "x" }')
long2=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "y" }')
{ echo "$H"; for i in 1 2 3 4 5 6 7 8 9 10; do printf '%s\td\tn\t%s %s\tb\n' "$i" "$long1" "$long2"; done; } >"$tmp/long.tsv"
run tells-phrases -t 0 -d 0 "$tmp/long.tsv"
expect 0 ""
expect_out_text "$long1 $long2"

what="--strict still writes --missing"
printf '1\nnope\n' >"$tmp/ids"
run tells-split --strict --missing "$tmp/missing" -k "$tmp/ids" -o "$tmp/kept" "$tmp/a.tsv"
expect 1 "tells-split: $tmp/ids: 1 of 2 ids not found in the input
tells-split: 1 ids not found in the input (--strict)"
[ -e "$tmp/kept" ] && fail "$what: output written"
[ "$(cat "$tmp/missing" 2>/dev/null)" = nope ] || fail "$what: missing list not written"

what="id file from stdin is named stdin"
run sh -c "printf '1\nq\n' | tells-split -k - '$tmp/a.tsv'"
expect 0 "tells-split: stdin: 1 of 2 ids not found in the input"

what="empty split lists"
for opt in -s -x; do
    for list in '' ',' 'a,,b'; do
        run tells-split $opt "$list" "$tmp/a.tsv"
        expect 2 "tells-split: invalid split list '$list'
Try 'tells-split --help' for more information."
    done
done

what="tells-audit flags the rows of a significant token longer than a check's name"
# The flag matched the check's name, which cut a token past 153 bytes.
long=$(awk 'BEGIN { for (i = 0; i < 170; i++) printf "q"; print "" }')
tells-prep -q -o "$tmp/ref.tsv" --split train "$corpora/synthetic/train.jsonl"
tells-prep -q --split new "$corpora/synthetic/dev.jsonl" | head -n 91 |
    awk -F'\t' -v OFS='\t' -v t="$long" 'NR > 1 && $3 == "neutral" { $5 = $5 " " t } { print }' \
    >"$tmp/long-batch.tsv"
run tells-audit -q --reference "$tmp/ref.tsv" --flags "$tmp/long-flags.tsv" "$tmp/long-batch.tsv"
expect 0 ""
grep -q "	token:q*	.*	yes	" "$tmp/out" || fail "$what: the token is not significant"
n_rows=$(awk -F'\t' 'NR > 1 && $3 == "neutral"' "$tmp/long-batch.tsv" | wc -l)
n_flag=$(grep -c "token:qqq" "$tmp/long-flags.tsv")
[ "$n_flag" = "$n_rows" ] || fail "$what: $n_flag of $n_rows rows flagged"
finish
