#!/bin/sh
# Bad input to tells-pmi: file and line named, exit 1, outputs untouched;
# with several threads the line is the file's, not the thread's.
. "${top_srcdir:-.}/tests/init.sh"

H='id	split	label	premise	hypothesis'
printf 'old table\n' >"$tmp/keep.tsv"

# bad NAME CONTENT MESSAGE: CONTENT (printf format) fails with MESSAGE.
bad() {
    what=$1
    printf "$2" >"$tmp/in.tsv"
    run tells-pmi -o "$tmp/keep.tsv" "$tmp/in.tsv"
    expect 1 "tells-pmi: $tmp/in.tsv$3"
    [ "$(cat "$tmp/keep.tsv")" = "old table" ] || fail "$what: output changed"
}
bad "no header" '1\td\te\ta b\tc\n' \
    ":1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)"
bad "empty file" '' ": empty input: expected a prepared TSV header"
bad "four columns" "$H\n1\td\te\ta b\tc\n2\td\te\ta b\n" ":3: expected 5 tab-separated columns, found 4"
bad "six columns" "$H\n1\td\te\ta b\tc\tx\n" ":2: expected 5 tab-separated columns, found 6"
bad "empty hypothesis" "$H\n1\td\te\ta b\t\n" ":2: empty hypothesis"
bad "empty label" "$H\n1\td\t\ta b\tc\n" ":2: empty label"
bad "invalid UTF-8" "$H\n1\td\te\ta b\tc\377\n" ":2: invalid UTF-8"
# "header only" has no line to name:
what="header only"
printf '%s\n' "$H" >"$tmp/in.tsv"
run tells-pmi "$tmp/in.tsv"
expect 1 "tells-pmi: $tmp/in.tsv: no examples in the input"

what="CRLF and no final newline are fine"
printf "$H\r\n1\td\te\ta b\tc\r\n2\td\tn\ta\tc d" >"$tmp/crlf.tsv"
printf "$H\n1\td\te\ta b\tc\n2\td\tn\ta\tc d\n" >"$tmp/lf.tsv"
tells-pmi --min-count 1 "$tmp/lf.tsv" >"$tmp/lf.out" || fail "$what: lf"
run tells-pmi --min-count 1 "$tmp/crlf.tsv"
expect 0 ""
expect_out "$tmp/lf.out"

what="a carriage return inside a row or a column name"
printf "$H\n1\td\te\ta b\tc\r\r\n" >"$tmp/cr.tsv"
run tells-pmi --min-count 1 "$tmp/cr.tsv"
expect 1 "tells-pmi: $tmp/cr.tsv:2: a carriage return inside the row"
printf "$H\tx\r\r\n1\td\te\ta b\tc\ty\n" >"$tmp/cr.tsv"
run tells-pmi --min-count 1 "$tmp/cr.tsv"
expect 1 "tells-pmi: $tmp/cr.tsv:1: a control character in the name of column 6"

what="a byte-order mark at a row's start"
printf "$H\n\357\273\2771\td\te\ta b\tc\n" >"$tmp/bom.tsv"
run tells-pmi --min-count 1 "$tmp/bom.tsv"
expect 1 "tells-pmi: $tmp/bom.tsv:2: a byte-order mark at the start of the row"

what="error in the second thread's range"
tells-prep -q -t whitespace -o "$tmp/snli.tsv" --split dev "$corpora/snli/snli_1.0_dev.jsonl"
{ cat "$tmp/snli.tsv"; for i in 1 2 3; do tail -n +2 "$tmp/snli.tsv"; done; } >"$tmp/big.tsv"
lines=$(wc -l <"$tmp/big.tsv")
[ "$(wc -c <"$tmp/big.tsv")" -gt 5000000 ] || fail "$what: file too small to split"
bad_line=$((lines - 100))
sed "${bad_line}s/	[^	]*\$//" "$tmp/big.tsv" >"$tmp/bad.tsv"
for j in 1 2 3; do
    run tells-pmi -j $j "$tmp/bad.tsv"
    expect 1 "tells-pmi: $tmp/bad.tsv:$bad_line: expected 5 tab-separated columns, found 4"
done
what="threads give the same table"
tells-pmi -j 1 --all "$tmp/big.tsv" >"$tmp/one" || fail "$what: -j 1"
for j in 2 3 7; do
    run tells-pmi -j $j --all "$tmp/big.tsv"
    expect 0 ""
    expect_out "$tmp/one"
done

what="missing file"
run tells-pmi "$tmp/nope.tsv"
expect 1 "tells-pmi: $tmp/nope.tsv: cannot open: No such file or directory"

# Usage errors
for args in "--field title|invalid field 'title' (hypothesis, premise or both)" \
    "--top 0|invalid value '0' for --top (expected an integer >= 1)" \
    "--smoothing -1|invalid value '-1' for --smoothing (expected a number >= 0)" \
    "--smoothing nan|invalid value 'nan' for --smoothing (expected a number >= 0)" \
    "--min-count x|invalid value 'x' for --min-count (expected an integer >= 0)" \
    "--smoothing 0 --min-count 0|--smoothing 0 needs --min-count of at least 1 (an unseen token would have PMI -inf)" \
    "--smoothing 1e-400|invalid value '1e-400' for --smoothing (too small for a double: the smallest above 0 is 4.94066e-324)" \
    "--smoothing 1e400|invalid value '1e400' for --smoothing (too large for a double: at most 1.79769e+308)" \
    "--measure logodds --prior-scale -1|invalid value '-1' for --prior-scale (expected a number > 0)" \
    "--measure logodds --prior-scale 0|invalid value '0' for --prior-scale (expected a number > 0)" \
    "--measure z --alpha nan|invalid value 'nan' for --alpha (expected a number > 0 and < 1)" \
    "--measure z --alpha 1|invalid value '1' for --alpha (expected a number > 0 and < 1)" \
    "--min-count 99999999999999999999|invalid value '99999999999999999999' for --min-count (expected an integer from 0 to 9223372036854775807)"; do
    opts=${args%%|*}
    what="tells-pmi $opts"
    # shellcheck disable=SC2086
    run tells-pmi $opts "$tmp/lf.tsv"
    expect 2 "tells-pmi: ${args#*|}
Try 'tells-pmi --help' for more information."
done
# A number below the normal doubles is a number (strtod flags it ERANGE).
what="--smoothing 1e-320"
run tells-pmi --smoothing 1e-320 "$tmp/lf.tsv"
expect 0 ""
finish
