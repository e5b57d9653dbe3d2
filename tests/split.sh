#!/bin/sh
# tells-split: rows kept or dropped by id file and by split, in input
# order, extra columns and their header kept; ids not found are counted
# (-q, --missing, --strict); bad id files and bad input fail naming file
# and line.
. "${top_srcdir:-.}/tests/init.sh"

in=$tmp/in.tsv
# Ids in no particular order, so that keeping input order differs from
# sorting or following the id file; two extra columns.
printf 'id\tsplit\tlabel\tpremise\thypothesis\tsource\tscore
p7\ttrain\tneutral\ta b\tc d\tweb\t1
a2\tdev\tentailment\ta\tb\tbook\t2
z1\ttest\tcontradiction\tx\ty\tweb\t3
m4\ttrain\tneutral\tp q\tr\tbook\t4
b9\tdev\tneutral\tm\tn\tweb\t5
k3\ttest\tentailment\tk\tl\tweb\t6
' >"$in"
tail -n +2 "$in" >"$tmp/in.nohead"

# rows N...: the header and the Nth data rows of the input, in input order.
rows() {
    script=1p
    for n; do script="$script;$((n + 1))p"; done
    sed -n "$script" "$in"
}

# Id files.
printf 'b9\np7\nz1\n' >"$tmp/three.ids"              # rows 5 1 3
printf 'z1\nq0\np7\nnope\n' >"$tmp/partly.ids"       # rows 3 1; q0, nope absent
printf 'a2\nzz\nk3\n' >"$tmp/drop.ids"               # rows 2 6; zz absent
printf 'z1\r\n\r\n\nz1\nb9\r\nq0\nq0\n\n' >"$tmp/messy.ids"  # rows 3 5; q0 absent
printf 'm4\nk3' >"$tmp/nofinal.ids"                  # rows 4 6, no final newline
printf 'p7\nz1\n' >"$tmp/drop-only.ids"                # rows 1 3
: >"$tmp/empty.ids"

# check NAME EXPECTED-ROWS OPTION...: exit 0, nothing on stderr, exactly
# the header and these rows (a quoted space-separated list) on stdout.
check() {
    what=$1
    # shellcheck disable=SC2086
    rows $2 >"$tmp/expected"
    shift 2
    run tells-split "$@"
    expect 0 ""
    expect_out "$tmp/expected"
}

check "--keep" "1 3 5" --keep "$tmp/three.ids" "$in"
check "-k" "1 3 5" -k "$tmp/three.ids" "$in"
check "--keep=" "1 3 5" --keep="$tmp/three.ids" "$in"
check "--drop" "2 4 6" --drop "$tmp/three.ids" "$in"
check "-d" "2 4 6" -d "$tmp/three.ids" "$in"
check "--split one" "2 5" --split dev "$in"
check "--split two" "2 3 5 6" --split dev,test "$in"
check "-s, list order does not matter" "2 3 5 6" -s test,dev "$in"
check "--exclude-split one" "2 3 5 6" --exclude-split train "$in"
check "-x two" "2 5" -x train,test "$in"
check "--keep and --split" "1" --keep "$tmp/three.ids" --split train "$in"
check "--keep and --exclude-split" "3 5" --keep "$tmp/three.ids" -x train "$in"
check "--drop and --exclude-split" "2 4" --drop "$tmp/three.ids" --exclude-split test "$in"
check "--drop and --split" "4 6" -d "$tmp/three.ids" -s train,test "$in"
check "--keep and --drop" "5" -k "$tmp/three.ids" -d "$tmp/drop-only.ids" "$in"
check "--split and --exclude-split" "1 4" -s train,dev -x dev "$in"
check "everything at once" "3" -k "$tmp/three.ids" -d "$tmp/nofinal.ids" \
    -s test,dev -x dev "$in"
check "--split, all rows" "1 2 3 4 5 6" -s train,dev,test "$in"
check "--within: --drop in one split, the others kept" "1 2 4 5 6" --drop "$tmp/three.ids" \
    --within test "$in"
check "-w: --keep in one split" "1 2 3 5 6" --keep "$tmp/three.ids" -w train "$in"
check "--within and --split" "1 2 5" --keep "$tmp/three.ids" --within train -s train,dev "$in"

# A split the input does not have is an error, naming those it has, and
# no -o output is left (it was an empty table: --help's own example ran
# on a corpus without a test split).
for args in "--split nosuch" "--split train,nosuch" "-x nosuch" "--within nosuch -k $tmp/three.ids"; do
    what="$args: no such split"
    # shellcheck disable=SC2086
    run tells-split $args -o "$tmp/none.tsv" "$in"
    expect 1 "tells-split: $in: no split named 'nosuch' (the input has dev, test, train)"
    [ -e "$tmp/none.tsv" ] && fail "$what: $tmp/none.tsv written"
done
what="--within without an id file"
run tells-split --within train "$in"
expect 2 "tells-split: --within needs --keep or --drop
Try 'tells-split --help' for more information."
what="--within two splits"
run tells-split --within train,dev -k "$tmp/three.ids" "$in"
expect 2 "tells-split: --within takes one split, not 'train,dev'
Try 'tells-split --help' for more information."
check "--keep an empty id file" "" --keep "$tmp/empty.ids" "$in"
check "--drop an empty id file" "1 2 3 4 5 6" --drop "$tmp/empty.ids" "$in"
check "id file without a final newline" "4 6" -k "$tmp/nofinal.ids" "$in"
check "stdin" "2 5" -s dev <"$in"
check "stdin as '-'" "1 3 4 6" -x dev - <"$in"
check "id file on stdin" "1 3 5" -k - "$in" <"$tmp/three.ids"
check "--strict, all found" "1 3 5" --strict --keep "$tmp/three.ids" "$in"

# The same with literal text, to pin the format down (extra columns and
# their header written back as they were).
what="literal output"
run tells-split -k "$tmp/three.ids" -x test "$in"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis	source	score
p7	train	neutral	a b	c d	web	1
b9	dev	neutral	m	n	web	5"

what="five columns only"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\ta\tn\tp\th\n2\tb\tn\tp q\th i\n' >"$tmp/five.tsv"
run tells-split -s b "$tmp/five.tsv"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
2	b	n	p q	h i"

# Names match whole ids and whole split names only.
what="whole names only"
printf 'id\tsplit\tlabel\tpremise\thypothesis
z1\tdev\tn\tp\th
z10\tdevtest\tn\tp\th
z\tde\tn\tp\th
' >"$tmp/names.tsv"
run tells-split -s dev "$tmp/names.tsv"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
z1	dev	n	p	h"
run tells-split -x dev "$tmp/names.tsv"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
z10	devtest	n	p	h
z	de	n	p	h"
run tells-split -k "$tmp/three.ids" "$tmp/names.tsv"
expect 0 "tells-split: $tmp/three.ids: 2 of 3 ids not found in the input"
expect_out_text "id	split	label	premise	hypothesis
z1	dev	n	p	h"

# --no-header: every line is a row, and none is written back.
what="--no-header"
run tells-split --no-header -k "$tmp/three.ids" "$tmp/in.nohead"
expect 0 ""
rows 1 3 5 | tail -n +2 >"$tmp/expected"
expect_out "$tmp/expected"

what="--no-header, stdin, split"
run tells-split --no-header -x dev,test <"$tmp/in.nohead"
expect 0 ""
expect_out_text "p7	train	neutral	a b	c d	web	1
m4	train	neutral	p q	r	book	4"

what="headerless input without --no-header"
run tells-split -s dev "$tmp/in.nohead"
expect 1 "tells-split: $tmp/in.nohead:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)"

# CRLF input and a missing final newline: the same rows, written with LF.
what="CRLF input"
awk '{ printf "%s\r\n", $0 }' "$in" >"$tmp/crlf.tsv"
run tells-split -k "$tmp/three.ids" "$tmp/crlf.tsv"
expect 0 ""
rows 1 3 5 >"$tmp/expected"
expect_out "$tmp/expected"

what="no final newline"
printf '%s' "$(cat "$in")" >"$tmp/nofinal.tsv"
run tells-split -s test "$tmp/nofinal.tsv"
expect 0 ""
rows 3 6 >"$tmp/expected"
expect_out "$tmp/expected"

# Ids not found.
what="ids not found"
run tells-split --keep "$tmp/partly.ids" "$in"
expect 0 "tells-split: $tmp/partly.ids: 2 of 4 ids not found in the input"
rows 1 3 >"$tmp/expected"
expect_out "$tmp/expected"

what="ids not found, -q"
run tells-split -q --keep "$tmp/partly.ids" "$in"
expect 0 ""
expect_out "$tmp/expected"

what="ids not found, --quiet"
run tells-split --quiet --keep "$tmp/partly.ids" "$in"
expect 0 ""
expect_out "$tmp/expected"

what="ids not found in a --drop file"
run tells-split --drop "$tmp/drop.ids" "$in"
expect 0 "tells-split: $tmp/drop.ids: 1 of 3 ids not found in the input"
rows 1 3 4 5 >"$tmp/expected"
expect_out "$tmp/expected"

what="ids not found in both id files"
run tells-split -k "$tmp/partly.ids" -d "$tmp/drop.ids" "$in"
expect 0 "tells-split: $tmp/partly.ids: 2 of 4 ids not found in the input
tells-split: $tmp/drop.ids: 1 of 3 ids not found in the input"
rows 1 3 >"$tmp/expected"
expect_out "$tmp/expected"

# An id whose row the split filter drops was still found in the input.
what="ids found but filtered by split"
run tells-split -k "$tmp/three.ids" -s dev "$in"
expect 0 ""
rows 5 >"$tmp/expected"
expect_out "$tmp/expected"

what="--missing"
run tells-split --keep "$tmp/partly.ids" --missing "$tmp/missing.ids" "$in"
expect 0 "tells-split: $tmp/partly.ids: 2 of 4 ids not found in the input"
rows 1 3 >"$tmp/expected"
expect_out "$tmp/expected"
printf 'q0\nnope\n' | cmp -s - "$tmp/missing.ids" || fail "$what: missing ids differ: $(cat "$tmp/missing.ids")"

what="--missing, -q, both id files"
run tells-split -q -k "$tmp/partly.ids" -d "$tmp/drop.ids" --missing "$tmp/missing.ids" "$in"
expect 0 ""
expect_out "$tmp/expected"
printf 'q0\nnope\nzz\n' | cmp -s - "$tmp/missing.ids" || fail "$what: missing ids differ: $(cat "$tmp/missing.ids")"

what="--missing, none missing"
run tells-split -k "$tmp/three.ids" --missing "$tmp/missing.ids" "$in"
expect 0 ""
if [ ! -f "$tmp/missing.ids" ] || [ -s "$tmp/missing.ids" ]; then
    fail "$what: not an empty file"
fi

what="--missing in a missing folder"
run tells-split -k "$tmp/three.ids" --missing "$tmp/nowhere/missing.ids" -o "$tmp/never.tsv" "$in"
expect 1 "tells-split: $tmp/nowhere/missing.ids: cannot create: No such file or directory"
[ -e "$tmp/never.tsv" ] && fail "$what: -o file written"
ls -a "$tmp" | grep -q '^\.never\.tsv\.' && fail "$what: temporary file left behind"

# Id files: blank lines and CRLF ignored, a repeated id counted once.
what="messy id file"
run tells-split --keep "$tmp/messy.ids" --missing "$tmp/missing.ids" "$in"
expect 0 "tells-split: $tmp/messy.ids: 1 of 3 ids not found in the input"
rows 3 5 >"$tmp/expected"
expect_out "$tmp/expected"
printf 'q0\n' | cmp -s - "$tmp/missing.ids" || fail "$what: missing ids differ: $(cat "$tmp/missing.ids")"

what="messy id file, --drop"
run tells-split -q --drop "$tmp/messy.ids" "$in"
expect 0 ""
rows 1 2 4 6 >"$tmp/expected"
expect_out "$tmp/expected"

# -o writes the same bytes atomically.
mkdir "$tmp/o"
what="-o"
run tells-split -k "$tmp/three.ids" -o "$tmp/o/kept.tsv" "$in"
expect 0 ""
[ -s "$tmp/out" ] && fail "$what: something on stdout"
rows 1 3 5 >"$tmp/expected"
cmp -s "$tmp/o/kept.tsv" "$tmp/expected" || fail "$what: output file differs"
[ "$(ls -a "$tmp/o" | grep -v '^\.\.*$')" = kept.tsv ] ||
    fail "$what: folder holds $(ls -a "$tmp/o" | tr '\n' ' ')"

what="--output replaces a file"
run tells-split -s dev --output "$tmp/o/kept.tsv" "$in"
expect 0 ""
rows 2 5 >"$tmp/expected"
cmp -s "$tmp/o/kept.tsv" "$tmp/expected" || fail "$what: output file differs"
cp "$tmp/o/kept.tsv" "$tmp/o/kept.orig"

# --strict: ids not found fail the run and leave -o as it was.
what="--strict"
run tells-split --strict -k "$tmp/partly.ids" -o "$tmp/o/kept.tsv" "$in"
expect 1 "tells-split: $tmp/partly.ids: 2 of 4 ids not found in the input
tells-split: 2 ids not found in the input (--strict)"
[ -s "$tmp/out" ] && fail "$what: something on stdout"
cmp -s "$tmp/o/kept.tsv" "$tmp/o/kept.orig" || fail "$what: -o file changed"
ls -a "$tmp/o" | grep -q '^\.kept\.tsv\.' && fail "$what: temporary file left behind"

what="--strict -q, both id files"
run tells-split --strict -q -k "$tmp/partly.ids" -d "$tmp/drop.ids" -o "$tmp/o/new.tsv" "$in"
expect 1 "tells-split: 3 ids not found in the input (--strict)"
[ -e "$tmp/o/new.tsv" ] && fail "$what: -o file created"
ls -a "$tmp/o" | grep -q '^\.new\.tsv\.' && fail "$what: temporary file left behind"

what="--strict, repeated missing id counted once"
run tells-split --strict -k "$tmp/messy.ids" "$in"
expect 1 "tells-split: $tmp/messy.ids: 1 of 3 ids not found in the input
tells-split: 1 ids not found in the input (--strict)"

# bad NAME MESSAGE OPTION...: exit 1 with MESSAGE; with -o the existing
# file stays as it was and no temporary file is left.
bad() {
    what=$1
    msg=$2
    shift 2
    run tells-split "$@"
    expect 1 "tells-split: $msg"
    run tells-split -o "$tmp/o/kept.tsv" "$@"
    expect 1 "tells-split: $msg"
    [ -s "$tmp/out" ] && fail "$what: something on stdout"
    cmp -s "$tmp/o/kept.tsv" "$tmp/o/kept.orig" || fail "$what: -o file changed"
    ls -a "$tmp/o" | grep -q '^\.kept\.tsv\.' && fail "$what: temporary file left behind"
}

printf 'p7\nz1\tx\nb9\n' >"$tmp/tab.ids"
bad "id file with a tab" "$tmp/tab.ids:2: an id file has one id per line (found a tab or NUL)" \
    -k "$tmp/tab.ids" "$in"
bad "id file with a tab, --drop" "$tmp/tab.ids:2: an id file has one id per line (found a tab or NUL)" \
    -s dev -d "$tmp/tab.ids" "$in"
printf 'p7\r\nb9\r\n\tz1\r\n' >"$tmp/tab-crlf.ids"
bad "id file with a leading tab" "$tmp/tab-crlf.ids:3: an id file has one id per line (found a tab or NUL)" \
    -k "$tmp/tab-crlf.ids" "$in"
printf 'p7\nz1\000x\n' >"$tmp/nul.ids"
bad "id file with a NUL" "$tmp/nul.ids:2: an id file has one id per line (found a tab or NUL)" \
    -k "$tmp/nul.ids" "$in"
printf 'p7\n\n\ncaf\351\n' >"$tmp/latin1.ids"
bad "id file not UTF-8" "$tmp/latin1.ids:4: invalid UTF-8" -k "$tmp/latin1.ids" "$in"
bad "id file missing" "$tmp/nosuch.ids: cannot open: No such file or directory" \
    -k "$tmp/nosuch.ids" "$in"
bad "input missing" "$tmp/nosuch.tsv: cannot open: No such file or directory" \
    -s dev "$tmp/nosuch.tsv"
bad "headerless input" "$tmp/in.nohead:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)" \
    -s dev "$tmp/in.nohead"
: >"$tmp/empty.tsv"
bad "empty input" "$tmp/empty.tsv: empty input: expected a prepared TSV header" \
    -s dev "$tmp/empty.tsv"
sed '5s/	book	4$//' "$in" >"$tmp/short.tsv"
bad "row without the extra columns" "$tmp/short.tsv:5: expected 7 tab-separated columns, found 5" \
    -s dev "$tmp/short.tsv"
sed '3s/	b	book/	book/' "$in" >"$tmp/six.tsv"
bad "row with 6 columns" "$tmp/six.tsv:3: expected 7 tab-separated columns, found 6" \
    -x test "$tmp/six.tsv"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\ts\tn\tp\n' >"$tmp/four.tsv"
bad "row with 4 columns" "$tmp/four.tsv:2: expected 5 tab-separated columns, found 4" \
    -s s "$tmp/four.tsv"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\ts\tn\tp\t\n' >"$tmp/nohyp.tsv"
bad "empty hypothesis" "$tmp/nohyp.tsv:2: empty hypothesis" -s s "$tmp/nohyp.tsv"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n\ts\tn\tp\th\n' >"$tmp/noid.tsv"
bad "empty id" "$tmp/noid.tsv:2: empty id" -s s "$tmp/noid.tsv"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\ts\tn\tp\tcaf\351\n' >"$tmp/latin1.tsv"
bad "input not UTF-8" "$tmp/latin1.tsv:2: invalid UTF-8" -s s "$tmp/latin1.tsv"

# Usage errors: exit 2, the problem and the Try line, nothing on stdout.
usage() {
    what=$1
    shift
    run tells-split "$@"
    expect 2 "$what
Try 'tells-split --help' for more information."
    [ -s "$tmp/out" ] && fail "$what: something on stdout"
}
nothing="tells-split: nothing to select: give --keep, --drop, --split or --exclude-split"
usage "$nothing" "$in"
usage "$nothing"
usage "$nothing" --strict -q --missing "$tmp/m.ids" -o "$tmp/o/none.tsv" "$in"
[ -e "$tmp/o/none.tsv" ] && fail "usage error wrote -o"
[ -e "$tmp/m.ids" ] && fail "usage error wrote --missing"
usage "tells-split: extra operand '$tmp/in.nohead'" -s dev "$in" "$tmp/in.nohead"
usage "tells-split: option requires an argument -- 'k'" -k
usage "tells-split: option '--split' requires an argument" --split
usage "tells-split: unrecognized option '--keep-split'" --keep-split dev "$in"
finish
