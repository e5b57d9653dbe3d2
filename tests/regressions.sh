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
finish
