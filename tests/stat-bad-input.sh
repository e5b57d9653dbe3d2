#!/bin/sh
# Bad input to tells-stat: one line naming file and line, exit 1, an -o
# file left as it was; usage errors exit 2 with the Try line.
. "${top_srcdir:-.}/tests/init.sh"

H='id\tgold\tpredicted\n'
printf "${H}1\te\te\n2\tn\tc\n3\tc\tc\n" >"$tmp/good.tsv"
printf 'old table\n' >"$tmp/keep.tsv"

# bad NAME ARGS CONTENT MESSAGE: tells-stat ARGS fails on CONTENT (printf
# format) with "tells-stat: MESSAGE"; '@' in ARGS and MESSAGE stands for
# the file of CONTENT.
bad() {
    what=$1
    # shellcheck disable=SC2059
    printf "$3" >"$tmp/in"
    args=$(printf '%s' "$2" | sed "s|@|$tmp/in|g")
    # shellcheck disable=SC2086
    run tells-stat -o "$tmp/keep.tsv" $args
    expect 1 "tells-stat: $(printf '%s' "$4" | sed "s|@|$tmp/in|g")"
    [ "$(cat "$tmp/keep.tsv")" = "old table" ] || fail "$what: output changed"
}

# ---- prediction files ----
bad "empty file" "metrics @" '' \
    "@: empty input: expected a header naming the columns id, gold and predicted"
bad "missing column" "metrics @" 'id\tgold\tprediction\n1\te\te\n' \
    "@:1: no 'predicted' column in the header (a prediction file needs id, gold and predicted)"
bad "missing id column" "mcnemar @ $tmp/good.tsv" 'gold\tpredicted\ne\te\n' \
    "@:1: no 'id' column in the header (a prediction file needs id, gold and predicted)"
bad "column twice" "metrics @" 'id\tgold\tpredicted\tgold\n1\te\te\te\n' \
    "@:1: duplicate column 'gold' (columns 2 and 4)"
bad "header only" "metrics @" "$H" "@: no examples"
bad "short row" "metrics @" "${H}1\te\te\n2\te\n" \
    "@:3: expected 3 tab-separated columns, found 2"
bad "long row" "metrics @" "${H}1\te\te\tx\n" \
    "@:2: expected 3 tab-separated columns, found 4"
bad "blank line" "metrics @" "${H}1\te\te\n\n2\te\te\n" \
    "@:3: expected 3 tab-separated columns, found 1"
bad "empty id" "metrics @" "${H}\te\te\n" "@:2: empty id"
bad "empty gold" "metrics @" "${H}1\t\te\n" "@:2: empty gold label"
bad "empty predicted" "metrics @" "${H}1\te\t\n" "@:2: empty predicted label"
bad "duplicate id" "metrics @" "${H}1\te\te\n2\te\te\n1\tn\tn\n" \
    "@:4: duplicate id '1' (first on line 2)"
bad "invalid UTF-8" "metrics @" "${H}1\te\te\377\n" "@:2: invalid UTF-8"
bad "empty label in a set" "metrics --multi-label @" "${H}1\ta,,b\ta\n" \
    "@:2: empty label in the gold set 'a,,b'"
bad "trailing comma in a set" "metrics --multi-label @" "${H}1\ta\ta,\n" \
    "@:2: empty label in the predicted set 'a,'"

# Systems joined by id: the second file is compared with the first.
bad "an id not in the first file" "mcnemar $tmp/good.tsv @" \
    "${H}1\te\te\n2\tn\tn\n3\tc\tc\n4\tc\tc\n" "@:5: id '4' is not in $tmp/good.tsv"
bad "an id missing" "bootstrap $tmp/good.tsv @" "${H}1\te\te\n3\tc\tc\n" \
    "@: id '2' of $tmp/good.tsv (line 3) is missing (1 missing in all)"
bad "different id sets" "metrics $tmp/good.tsv @" "${H}1\te\te\nx\tn\tn\n3\tc\tc\n" \
    "@:3: id 'x' is not in $tmp/good.tsv"
bad "duplicate id in the second file" "metrics $tmp/good.tsv @" \
    "${H}1\te\te\n2\tn\tn\n1\te\te\n" "@:4: duplicate id '1' (first on line 2)"
bad "gold mismatch" "permutation $tmp/good.tsv @" "${H}3\tc\tc\n2\te\tn\n1\te\te\n" \
    "@:3: gold label 'e' of id '2' differs from 'n' in $tmp/good.tsv"
printf "${H}1\ta,b\ta\n2\t\tc\n" >"$tmp/ml.tsv"
bad "gold set mismatch" "metrics --multi-label $tmp/ml.tsv @" "${H}1\tb,a\ta\n2\tc\tc\n" \
    "@:3: gold label 'c' of id '2' differs from '' in $tmp/ml.tsv"
bad "gold sets in another order match" "metrics --multi-label $tmp/ml.tsv @" \
    "${H}1\tb,a\ta\n2\t\tc\n3\t\t\n" "@:4: id '3' is not in $tmp/ml.tsv"

what="missing file"
run tells-stat metrics "$tmp/nope.tsv"
expect 1 "tells-stat: $tmp/nope.tsv: cannot open: No such file or directory"

# ---- numbers (welch, friedman --scores) ----
printf '0.5\n0.6\n0.7\n' >"$tmp/n.txt"
bad "malformed number" "welch @ $tmp/n.txt" '0.5\n0,6\n' "@:2: malformed number '0,6'"
bad "number with a space" "welch $tmp/n.txt @" '0.5\n 0.6\n' "@:2: malformed number ' 0.6'"
bad "trailing text" "welch $tmp/n.txt @" '0.5\n0.6x\n' "@:2: malformed number '0.6x'"
bad "NaN" "welch @ $tmp/n.txt" '0.5\nNaN\n0.7\n' "@:2: not a finite number 'NaN'"
bad "infinity" "welch @ $tmp/n.txt" '0.5\n-inf\n' "@:2: not a finite number '-inf'"
bad "overflow" "welch @ $tmp/n.txt" '0.5\n1e999\n' "@:2: not a finite number '1e999'"
bad "empty numbers file" "welch @ $tmp/n.txt" '' "@: no numbers"
bad "blank lines only" "welch @ $tmp/n.txt" '\n\n' "@: no numbers"
bad "one number" "welch $tmp/n.txt @" '0.5\n' \
    "@: need at least 2 numbers for a variance, found 1"
printf '1\n1\n' >"$tmp/ones.txt"
bad "zero variances" "welch $tmp/ones.txt @" '2\n2\n2\n' \
    "both samples have zero variance: the t statistic is undefined"
bad "no such column" "welch -c acc @ $tmp/n.txt" 'seed\tf1\n1\t0.5\n' \
    "@:1: no 'acc' column in the header"
bad "empty file with --column" "welch -c acc @ $tmp/n.txt" '' \
    "@: empty input: expected a header naming the column 'acc'"
bad "column count" "welch -c acc @ $tmp/n.txt" 'seed\tacc\n1\t0.5\n2\n' \
    "@:3: expected 2 tab-separated columns, found 1"
bad "NaN in a column" "welch -c acc @ $tmp/n.txt" 'seed\tacc\n1\t0.5\n2\tnan\n' \
    "@:3: not a finite number 'nan'"
bad "empty cell" "welch -c acc @ $tmp/n.txt" 'seed\tacc\n1\t\n' \
    "@:2: malformed number ''"
bad "friedman --scores: lengths differ" "friedman --scores $tmp/n.txt $tmp/n.txt @" \
    '1\n2\n' "@: 2 numbers, but $tmp/n.txt has 3 (line j of every file is block j)"

# ---- p-values (fdr) ----
P='test\tp_value\n'
bad "fdr: no p_value column" "fdr @" 'test\tp\na\t0.1\n' "@:1: no 'p_value' column in the header"
bad "fdr: empty file" "fdr @" '' "@: empty input: expected a header naming the column 'p_value'"
bad "fdr: malformed" "fdr @" "${P}a\t0.1\nb\tabc\n" "@:3: malformed p-value 'abc'"
bad "fdr: above 1" "fdr @" "${P}a\t1.5\n" "@:2: p-value '1.5' is not in [0, 1]"
bad "fdr: negative" "fdr @" "${P}a\t-0.1\n" "@:2: p-value '-0.1' is not in [0, 1]"
bad "fdr: NaN" "fdr @" "${P}a\tnan\n" "@:2: p-value 'nan' is not in [0, 1]"
bad "fdr: empty cell" "fdr @" "${P}a\t\n" "@:2: malformed p-value ''"
bad "fdr: column count" "fdr @" "${P}a\t0.1\tx\n" "@:2: expected 2 tab-separated columns, found 3"
bad "fdr: no p-values" "fdr @" "${P}a\t-\n" "@: no p-values"
bad "fdr: header only" "fdr --column q @" 'q\n' "@: no p-values"

# ---- contrast groups ----
bad "groups: empty" "contrast --groups @ $tmp/good.tsv" '' \
    "@: empty input: expected a header 'original<TAB>contrast'"
bad "groups: header" "contrast --groups @ $tmp/good.tsv" 'id\tcontrast\n1\t2\n' \
    "@:1: the header must start with 'original<TAB>contrast'"
bad "groups: no contrast" "contrast --groups @ $tmp/good.tsv" 'original\tcontrast\n1\t2\n3\n' \
    "@:3: expected an original id and at least one contrast id"
bad "groups: unknown id" "contrast --groups @ $tmp/good.tsv" 'original\tcontrast\n1\t2\t9\n' \
    "@:2: id '9' is not in $tmp/good.tsv"
bad "groups: empty id" "contrast --groups @ $tmp/good.tsv" 'original\tcontrast\n1\t\n' \
    "@:2: empty id"
bad "groups: none" "contrast --groups @ $tmp/good.tsv" 'original\tcontrast\n' "@: no groups"

what="CRLF groups and predictions are fine"
printf 'original\tcontrast\r\n1\t2\r\n' >"$tmp/g.tsv"
printf 'id\tgold\tpredicted\r\n1\te\te\r\n2\tn\tc\r\n3\tc\tc\r\n' >"$tmp/crlf.tsv"
run tells-stat contrast --groups "$tmp/g.tsv" "$tmp/crlf.tsv"
expect 0 ""
expect_out_text "system	metric	class	value	support
$tmp/crlf.tsv	consistency	-	0.000000	1
$tmp/crlf.tsv	original_accuracy	-	1.000000	1
$tmp/crlf.tsv	contrast_accuracy	-	0.000000	1"
what="CRLF numbers and p-values are fine"
printf '0.5\r\n0.7\r\n' >"$tmp/crlf.txt"
run tells-stat welch "$tmp/crlf.txt" "$tmp/n.txt"
expect 0 ""
printf 'test\tp_value\r\na\t0.5\r\n' >"$tmp/crlf-p.tsv"
run tells-stat fdr "$tmp/crlf-p.tsv"
expect 0 ""
expect_out_text "test	p_value	p_adjusted	reject	fdr
a	0.5	0.5	no	benjamini-hochberg m=1 alpha=0.05"

# ---- usage errors ----
printf 'seed\tx\n1\t2\n' >"$tmp/s.tsv"
g=$tmp/good.tsv
for args in \
    "|missing command (metrics, mcnemar, bootstrap, permutation, friedman, welch, fdr or contrast)" \
    "frobnicate $g|unknown command 'frobnicate' (metrics, mcnemar, bootstrap, permutation, friedman, welch, fdr or contrast)" \
    "metrics|metrics needs at least 1 file (got 0)" \
    "mcnemar $g|mcnemar compares exactly 2 files (got 1)" \
    "bootstrap $g $g $g|bootstrap compares exactly 2 files (got 3)" \
    "friedman $g $g|friedman needs at least 3 files (got 2)" \
    "welch $g|welch compares exactly 2 files (got 1)" \
    "welch -c x -c x $g $g $g|welch takes at most 2 files (got 3)" \
    "fdr $g $g|fdr takes at most 1 file (got 2)" \
    "contrast $g|contrast needs --groups FILE" \
    "bootstrap --samples 0 $g $g|invalid value '0' for --samples (expected an integer from 1 to 100000000)" \
    "bootstrap --seed -1 $g $g|invalid value '-1' for --seed (expected an integer from 0 to 4294967295)" \
    "permutation --seed 4294967296 $g $g|invalid value '4294967296' for --seed (expected an integer from 0 to 4294967295)" \
    "bootstrap --metric f1 $g $g|invalid metric 'f1' (accuracy, macro_f1 or micro_f1)" \
    "welch --alternative two $g $g|invalid alternative 'two' (two-sided, greater or less)" \
    "fdr --alpha 0|invalid value '0' for --alpha (expected a number > 0 and <= 1)" \
    "fdr --alpha 1.5|invalid value '1.5' for --alpha (expected a number > 0 and <= 1)" \
    "fdr --alpha x|invalid value 'x' for --alpha (expected a number >= 0)" \
    "mcnemar --digits 0 $g $g|invalid value '0' for --digits (expected an integer from 1 to 17)" \
    "mcnemar --samples 10 $g $g|--samples does not apply to mcnemar" \
    "metrics --metric accuracy $g|--metric does not apply to metrics" \
    "metrics --digits 3 $g|--digits does not apply to metrics" \
    "welch --multi-label $g $g|--multi-label does not apply to welch" \
    "bootstrap --details $g $g|--details does not apply to bootstrap" \
    "fdr --groups $g|--groups does not apply to fdr" \
    "friedman -c x $g $g $g|--column needs friedman --scores" \
    "friedman --scores --multi-label $g $g $g|--multi-label does not apply to friedman --scores" \
    "friedman --scores -c x -c x $g $g $g|friedman --scores reads one --column" \
    "fdr -c a -c b|fdr reads one --column" \
    "welch -c a -c b -c c $g|--column given more than twice"; do
    opts=${args%%|*}
    what="tells-stat $opts"
    # shellcheck disable=SC2086
    run tells-stat $opts
    expect 2 "tells-stat: ${args#*|}
Try 'tells-stat --help' for more information."
    [ -s "$tmp/out" ] && fail "$what: wrote to stdout"
done
finish
