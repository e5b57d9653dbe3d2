#!/bin/sh
# tells-len: lengths by class (n, mean, median, sample sd) checked against
# values worked out by hand; inputs from files, stdin and several files
# give the same table; bad input fails with one line naming file and line
# and leaves an -o file as it was.
. "${top_srcdir:-.}/tests/init.sh"

head='id\tsplit\tlabel\tpremise\thypothesis\n'
# Row            premise tokens  hypothesis tokens
# 1 neutral             3              4
# 2 entailment          2              1
# 3 neutral             1              2
# 4 contradiction       4              3
# 5 entailment          3              3
# 6 neutral             5              6
rows='1\tdev\tneutral\ta b c\tw x y z\n'
rows=$rows'2\tdev\tentailment\ta b\tw\n'
rows=$rows'3\ttrain\tneutral\ta\tw x\n'
rows=$rows'4\tdev\tcontradiction\ta b c d\tw x y\n'
rows=$rows'5\ttest\tentailment\ta b c\tw x y\n'
rows=$rows'6\tdev\tneutral\ta b c d e\tw x y z v u\n'
# shellcheck disable=SC2059
printf "$head$rows" >"$tmp/a.tsv"
# shellcheck disable=SC2059
printf "$rows" >"$tmp/a.nohead"
# The same rows in two files (3 rows each), with and without a header.
sed -n '2,4p' "$tmp/a.tsv" >"$tmp/part1.nohead"
sed -n '5,7p' "$tmp/a.tsv" >"$tmp/part2.nohead"
{ sed -n 1p "$tmp/a.tsv"; cat "$tmp/part1.nohead"; } >"$tmp/part1.tsv"
{ sed -n 1p "$tmp/a.tsv"; cat "$tmp/part2.nohead"; } >"$tmp/part2.tsv"

# Hypothesis (the default):
#   contradiction 3         mean 3, median 3, sd 0 (one value)
#   entailment    1 3       mean 2, median 2, sd sqrt((1+1)/1) = 1.414214
#   neutral       4 2 6     mean 4, median 4, sd sqrt((0+4+4)/2) = 2
#   all 1 2 3 3 4 6         mean 19/6 = 3.166667, median (3+3)/2 = 3,
#                           sd sqrt((75 - 19^2/6)/5) = 1.722401
printf 'class\tn\tmean\tmedian\tsd
contradiction\t1\t3.000000\t3.000000\t0.000000
entailment\t2\t2.000000\t2.000000\t1.414214
neutral\t3\t4.000000\t4.000000\t2.000000
all\t6\t3.166667\t3.000000\t1.722401
' >"$tmp/hyp.expected"
# Premise:
#   contradiction 4         mean 4, median 4, sd 0
#   entailment    2 3       mean 2.5, median 2.5, sd sqrt(0.5) = 0.707107
#   neutral       3 1 5     mean 3, median 3, sd sqrt((0+4+4)/2) = 2
#   all 1 2 3 3 4 5         mean 3, median 3, sd sqrt((4+1+0+0+1+4)/5) = 1.414214
printf 'class\tn\tmean\tmedian\tsd
contradiction\t1\t4.000000\t4.000000\t0.000000
entailment\t2\t2.500000\t2.500000\t0.707107
neutral\t3\t3.000000\t3.000000\t2.000000
all\t6\t3.000000\t3.000000\t1.414214
' >"$tmp/prem.expected"
# Both (premise + hypothesis per row: 7 3 3 7 6 11):
#   contradiction 7         mean 7, median 7, sd 0
#   entailment    3 6       mean 4.5, median 4.5, sd sqrt(4.5) = 2.121320
#   neutral       7 3 11    mean 7, median 7, sd sqrt((0+16+16)/2) = 4
#   all 3 3 6 7 7 11        mean 37/6 = 6.166667, median (6+7)/2 = 6.5,
#                           sd sqrt((273 - 37^2/6)/5) = 2.994439
printf 'class\tn\tmean\tmedian\tsd
contradiction\t1\t7.000000\t7.000000\t0.000000
entailment\t2\t4.500000\t4.500000\t2.121320
neutral\t3\t7.000000\t7.000000\t4.000000
all\t6\t6.166667\t6.500000\t2.994439
' >"$tmp/both.expected"

what="hypothesis lengths (default field)"
run tells-len "$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="--field hypothesis"
run tells-len --field hypothesis "$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="--field premise"
run tells-len --field premise "$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/prem.expected"

what="-F premise"
run tells-len -F premise "$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/prem.expected"

what="--field both"
run tells-len --field both "$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/both.expected"

what="--field=both"
run tells-len --field=both "$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/both.expected"

# Classes come out in byte order (upper case before '_' before lower
# case), whatever order they first appear in; 'all' comes last.
what="classes in byte order"
printf 'id\tsplit\tlabel\tpremise\thypothesis
1\ts\tb\tp\tone
2\ts\ta\tp\tone two
3\ts\tB\tp\tone two three
4\ts\t_x\tp\tone two three four
5\ts\tb\tp\tone two three four five
' >"$tmp/order.tsv"
run tells-len "$tmp/order.tsv"
expect 0 ""
expect_out_text "class	n	mean	median	sd
B	1	3.000000	3.000000	0.000000
_x	1	4.000000	4.000000	0.000000
a	1	2.000000	2.000000	0.000000
b	2	3.000000	3.000000	2.828427
all	5	3.000000	3.000000	1.581139"

what="a single example"
printf 'id\tsplit\tlabel\tpremise\thypothesis\nx\ts\tneutral\tp q\tr s t\n' >"$tmp/one.tsv"
run tells-len "$tmp/one.tsv"
expect 0 ""
expect_out_text "class	n	mean	median	sd
neutral	1	3.000000	3.000000	0.000000
all	1	3.000000	3.000000	0.000000"

# Extra columns after the five are allowed (and ignored).
what="extra columns"
sed '1s/$/	source	score/; 2,$s/$/	web	0.5/' "$tmp/a.tsv" >"$tmp/extra.tsv"
run tells-len "$tmp/extra.tsv"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="stdin"
run tells-len <"$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="stdin as '-'"
run tells-len -F both - <"$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/both.expected"

what="several files"
run tells-len "$tmp/part1.tsv" "$tmp/part2.tsv"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="several files in the other order"
run tells-len -F both "$tmp/part2.tsv" "$tmp/part1.tsv"
expect 0 ""
expect_out "$tmp/both.expected"

what="a file and stdin"
run tells-len -F premise "$tmp/part1.tsv" - <"$tmp/part2.tsv"
expect 0 ""
expect_out "$tmp/prem.expected"

what="--no-header"
run tells-len --no-header "$tmp/a.nohead"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="--no-header, several files"
run tells-len --no-header -F both "$tmp/part1.nohead" "$tmp/part2.nohead"
expect 0 ""
expect_out "$tmp/both.expected"

what="--no-header, stdin"
run tells-len --no-header -F premise <"$tmp/a.nohead"
expect 0 ""
expect_out "$tmp/prem.expected"

# The header line has five columns, so with --no-header it is a row of
# class 'label' whose hypothesis 'hypothesis' is one token. all: 1 1 2 3 3
# 4 6, mean 20/7 = 2.857143, median 3, sd sqrt((76 - 20^2/7)/6) = 1.772811.
what="a header read as data with --no-header"
run tells-len --no-header "$tmp/a.tsv"
expect 0 ""
expect_out_text "class	n	mean	median	sd
contradiction	1	3.000000	3.000000	0.000000
entailment	2	2.000000	2.000000	1.414214
label	1	1.000000	1.000000	0.000000
neutral	3	4.000000	4.000000	2.000000
all	7	2.857143	3.000000	1.772811"

# Line ends: CRLF, and no newline after the last line, read as clean LF.
what="CRLF line ends"
awk '{ printf "%s\r\n", $0 }' "$tmp/a.tsv" >"$tmp/crlf.tsv"
run tells-len -F both "$tmp/crlf.tsv"
expect 0 ""
expect_out "$tmp/both.expected"

what="no final newline"
printf '%s' "$(cat "$tmp/a.tsv")" >"$tmp/nofinal.tsv"
run tells-len -F both "$tmp/nofinal.tsv"
expect 0 ""
expect_out "$tmp/both.expected"

what="CRLF and no final newline"
printf '%s' "$(cat "$tmp/crlf.tsv")" >"$tmp/crlf-nofinal.tsv"
run tells-len "$tmp/crlf-nofinal.tsv"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="CRLF, --no-header"
awk '{ printf "%s\r\n", $0 }' "$tmp/a.nohead" >"$tmp/crlf.nohead"
run tells-len --no-header -F premise "$tmp/crlf.nohead"
expect 0 ""
expect_out "$tmp/prem.expected"

# -o writes the same bytes, atomically: nothing on stdout, no temporary
# file left, an existing file replaced.
what="-o"
mkdir "$tmp/o"
run tells-len -F both -o "$tmp/o/len.tsv" "$tmp/a.tsv"
expect 0 ""
[ -s "$tmp/out" ] && fail "$what: something on stdout"
cmp -s "$tmp/o/len.tsv" "$tmp/both.expected" || fail "$what: output file differs"
[ "$(ls -a "$tmp/o" | grep -v '^\.\.*$')" = len.tsv ] ||
    fail "$what: folder holds $(ls -a "$tmp/o" | tr '\n' ' ')"

what="--output replaces an existing file"
run tells-len --output "$tmp/o/len.tsv" "$tmp/a.tsv"
expect 0 ""
cmp -s "$tmp/o/len.tsv" "$tmp/hyp.expected" || fail "$what: output file differs"
[ "$(ls -a "$tmp/o" | grep -v '^\.\.*$')" = len.tsv ] ||
    fail "$what: folder holds $(ls -a "$tmp/o" | tr '\n' ' ')"

what="-o -: stdout"
run tells-len -o - "$tmp/a.tsv"
expect 0 ""
expect_out "$tmp/hyp.expected"

what="-o in a missing folder"
run tells-len -o "$tmp/nowhere/len.tsv" "$tmp/a.tsv"
expect 1 "tells-len: $tmp/nowhere/len.tsv: cannot create: No such file or directory"

# bad NAME FILE MESSAGE: FILE is refused with MESSAGE (exit 1, nothing on
# stdout); with -o an existing good file stays as it was and no temporary
# file is left next to it.
cp "$tmp/o/len.tsv" "$tmp/o/len.orig"
bad() {
    what=$1
    run tells-len "$2"
    expect 1 "tells-len: $3"
    [ -s "$tmp/out" ] && fail "$what: something on stdout"
    run tells-len -o "$tmp/o/len.tsv" "$2"
    expect 1 "tells-len: $3"
    cmp -s "$tmp/o/len.tsv" "$tmp/o/len.orig" || fail "$what: -o file changed"
    ls -a "$tmp/o" | grep -q '^\.len\.tsv\.' && fail "$what: temporary file left behind"
}

printf '%b' "$rows" >"$tmp/nohead.tsv"
bad "missing header" "$tmp/nohead.tsv" "$tmp/nohead.tsv:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)"

printf 'id\tsplit\tlabel\tpremise\n1\ts\tn\tp\n' >"$tmp/short-header.tsv"
bad "header without hypothesis" "$tmp/short-header.tsv" "$tmp/short-header.tsv:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)"

printf 'id\tsplit\tlabel\tpremise\thypotheses\n1\ts\tn\tp\th\n' >"$tmp/misspelt-header.tsv"
bad "misspelt header" "$tmp/misspelt-header.tsv" "$tmp/misspelt-header.tsv:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)"

# shellcheck disable=SC2059
printf "$head"'1\ts\tn\tp\th\n2\ts\tn\tp\n3\ts\tn\tp\th\n' >"$tmp/four.tsv"
bad "row with 4 columns" "$tmp/four.tsv" "$tmp/four.tsv:3: expected 5 tab-separated columns, found 4"

# shellcheck disable=SC2059
printf "$head"'1\ts\tn\tp\th\n2\ts\tn\tp\th\tx\n' >"$tmp/six.tsv"
bad "row with 6 columns" "$tmp/six.tsv" "$tmp/six.tsv:3: expected 5 tab-separated columns, found 6"

printf 'id\tsplit\tlabel\tpremise\thypothesis\tsource\n1\ts\tn\tp\th\tweb\n2\ts\tn\tp\th\n' >"$tmp/extra-missing.tsv"
bad "row missing the extra column" "$tmp/extra-missing.tsv" "$tmp/extra-missing.tsv:3: expected 6 tab-separated columns, found 5"

# shellcheck disable=SC2059
printf "$head"'1\ts\tn\tp\th\n2\ts\tn\tp\t\n' >"$tmp/empty-hyp.tsv"
bad "empty hypothesis" "$tmp/empty-hyp.tsv" "$tmp/empty-hyp.tsv:3: empty hypothesis"

# shellcheck disable=SC2059
printf "$head"'1\ts\tn\t\th\n' >"$tmp/empty-prem.tsv"
bad "empty premise" "$tmp/empty-prem.tsv" "$tmp/empty-prem.tsv:2: empty premise"

# shellcheck disable=SC2059
printf "$head"'1\ts\t\tp\th\n' >"$tmp/empty-label.tsv"
bad "empty label" "$tmp/empty-label.tsv" "$tmp/empty-label.tsv:2: empty label"

# shellcheck disable=SC2059
printf "$head"'1\ts\tn\tp\th\n2\ts\tn\tcaf\351\th\n' >"$tmp/latin1.tsv"
bad "invalid UTF-8" "$tmp/latin1.tsv" "$tmp/latin1.tsv:3: invalid UTF-8"

# shellcheck disable=SC2059
printf "$head"'1\ts\tn\tp\th\n\n2\ts\tn\tp\th\n' >"$tmp/blank.tsv"
bad "blank line" "$tmp/blank.tsv" "$tmp/blank.tsv:3: expected 5 tab-separated columns, found 1"

: >"$tmp/empty.tsv"
bad "empty file" "$tmp/empty.tsv" "$tmp/empty.tsv: empty input: expected a prepared TSV header"

sed -n 1p "$tmp/a.tsv" >"$tmp/header-only.tsv"
bad "header only" "$tmp/header-only.tsv" "$tmp/header-only.tsv: no examples in the input"

bad "nonexistent file" "$tmp/missing.tsv" "$tmp/missing.tsv: cannot open: No such file or directory"

what="empty file with --no-header"
run tells-len --no-header "$tmp/empty.tsv"
expect 1 "tells-len: $tmp/empty.tsv: no examples in the input"

what="empty stdin"
run tells-len <"$tmp/empty.tsv"
expect 1 "tells-len: stdin: empty input: expected a prepared TSV header"

what="bad stdin names stdin"
run tells-len <"$tmp/four.tsv"
expect 1 "tells-len: stdin:3: expected 5 tab-separated columns, found 4"

# A bad second file fails the run: no table from the first one alone.
what="good file then bad file"
run tells-len "$tmp/a.tsv" "$tmp/four.tsv"
expect 1 "tells-len: $tmp/four.tsv:3: expected 5 tab-separated columns, found 4"
[ -s "$tmp/out" ] && fail "$what: something on stdout"

what="good file then missing file, -o"
run tells-len -o "$tmp/o/len.tsv" "$tmp/a.tsv" "$tmp/missing.tsv"
expect 1 "tells-len: $tmp/missing.tsv: cannot open: No such file or directory"
cmp -s "$tmp/o/len.tsv" "$tmp/o/len.orig" || fail "$what: -o file changed"
ls -a "$tmp/o" | grep -q '^\.len\.tsv\.' && fail "$what: temporary file left behind"

# Usage errors: exit 2, the problem and the Try line, nothing on stdout.
what="100,000 classes, one per example, in 256 MB of address space (issue 23)"
awk 'BEGIN {
    print "id\tsplit\tlabel\tpremise\thypothesis"
    for (i = 0; i < 100000; i++) {
        h = "w"
        for (j = 0; j < i % 7; j++) h = h " w"
        printf "%d\ttrain\tc%d\tp\t%s\n", i, i, h
    }
}' >"$tmp/own.tsv"
{
    printf 'class\tn\tmean\tmedian\tsd\n'
    awk -F '\t' 'NR > 1 { n = split($5, w, " "); printf "%s\t1\t%d.000000\t%d.000000\t0.000000\n", $3, n, n }' \
        "$tmp/own.tsv" | sort
    # all: lengths 1 to 7 in turn, median 4
    awk -F '\t' 'NR > 1 { n = split($5, w, " "); s += n; q += n * n; k++ }
        END { m = s / k; printf "all\t%d\t%.6f\t4.000000\t%.6f\n", k, m, sqrt((q - k * m * m) / (k - 1)) }' \
        "$tmp/own.tsv"
} >"$tmp/own.want"
limit=262144
asan_build && limit=unlimited   # its shadow memory needs terabytes of address space
run sh -c 'ulimit -v "$2" 2>/dev/null; exec tells-len "$1"' sh "$tmp/own.tsv" "$limit"
expect 0 ""
expect_out "$tmp/own.want"

usage() {
    what=$1
    shift
    run tells-len "$@"
    expect 2 "$what
Try 'tells-len --help' for more information."
    [ -s "$tmp/out" ] && fail "$what: something on stdout"
}
usage "tells-len: invalid field 'hypo' (hypothesis, premise or both)" --field hypo "$tmp/a.tsv"
usage "tells-len: invalid field 'Premise' (hypothesis, premise or both)" -F Premise "$tmp/a.tsv"
usage "tells-len: invalid field '' (hypothesis, premise or both)" --field= "$tmp/a.tsv"
usage "tells-len: option requires an argument -- 'F'" -F
usage "tells-len: option '--field' requires an argument" --field
usage "tells-len: unrecognized option '--bogus'" --bogus "$tmp/a.tsv"
finish
