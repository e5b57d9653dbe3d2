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
bad "variance overflows" "welch $tmp/n.txt @" '0.8\n4e300\n7499\n' \
    "values too large: their variance overflows a double"
bad "paired variance overflows" "paired-t $tmp/n.txt @" '0.8\n4e300\n-4e300\n' \
    "values too large: their variance overflows a double"
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

# ---- paired tests (wilcoxon, paired-t) ----
bad "wilcoxon: lengths differ" "wilcoxon $tmp/n.txt @" '0.5\n0.6\n' \
    "@: 2 numbers, but $tmp/n.txt has 3 (pair j is line j of both)"
bad "paired-t: lengths differ" "paired-t $tmp/n.txt @" '0.5\n0.6\n0.7\n0.8\n' \
    "@: 4 numbers, but $tmp/n.txt has 3 (pair j is line j of both)"
bad "wilcoxon: NaN" "wilcoxon $tmp/n.txt @" '0.5\nnan\n0.7\n' "@:2: not a finite number 'nan'"
bad "paired-t: NaN" "paired-t @ $tmp/n.txt" 'NaN\n0.6\n0.7\n' "@:1: not a finite number 'NaN'"
bad "wilcoxon: every difference zero" "wilcoxon $tmp/n.txt @" '0.5\n0.6\n0.7\n' \
    "every difference is zero: the signed-rank test is undefined"
bad "wilcoxon: no numbers" "wilcoxon @ $tmp/n.txt" '\n' "@: no numbers"
bad "paired-t: one pair" "paired-t @ @" '0.5\n' \
    "@: need at least 2 numbers for a variance, found 1"
printf '1\n2\n3\n' >"$tmp/i.txt"
bad "paired-t: constant differences" "paired-t $tmp/i.txt @" '2\n3\n4\n' \
    "the differences have no variance: the t statistic is undefined"
bad "wilcoxon: a missing column" "wilcoxon -c x -c y @" 'x\tz\n1\t2\n' \
    "@:1: no 'y' column in the header"

# ---- cochran: prediction files as for friedman ----
bad "cochran: gold mismatch" "cochran $tmp/good.tsv $tmp/good.tsv @" \
    "${H}1\te\te\n2\te\tn\n3\tc\tc\n" \
    "@:3: gold label 'e' of id '2' differs from 'n' in $tmp/good.tsv"
bad "cochran: an id missing" "cochran $tmp/good.tsv @ $tmp/good.tsv" "${H}1\te\te\n" \
    "@: id '2' of $tmp/good.tsv (line 3) is missing (2 missing in all)"

# ---- --labels ----
bad "a gold label outside --labels" "metrics --labels e,n @" "${H}1\te\te\n2\tc\tn\n" \
    "@:3: gold label 'c' is not one of --labels"
bad "a predicted label outside --labels" "metrics --labels e,n @" "${H}1\te\tx\n" \
    "@:2: predicted label 'x' is not one of --labels"
bad "a set's label outside --labels" "metrics --multi-label -l a,b @" "${H}1\ta\ta,c\n" \
    "@:2: predicted label 'c' is not one of --labels"
# badlabels NAME CONTENT MESSAGE: --labels @FILE with FILE holding CONTENT.
badlabels() {
    what=$1
    # shellcheck disable=SC2059
    printf "$2" >"$tmp/labs"
    run tells-stat -o "$tmp/keep.tsv" metrics --labels "@$tmp/labs" "$tmp/good.tsv"
    expect 1 "tells-stat: $tmp/labs$3"
    [ "$(cat "$tmp/keep.tsv")" = "old table" ] || fail "$what: output changed"
}
badlabels "labels file: empty" '' ": no labels"
badlabels "labels file: blank lines only" '\n\n' ": no labels"
badlabels "labels file: repeated" 'e\n\nn\ne\n' ":4: label 'e' repeated (first on line 1)"
badlabels "labels file: a tab" 'e\tn\n' ":1: a label cannot hold a tab"
badlabels "labels file: invalid UTF-8" 'e\n\377\n' ":2: invalid UTF-8"
printf 'a,b\nc\n' >"$tmp/comma.txt"
what="labels file: missing"
run tells-stat metrics --labels "@$tmp/nope.txt" "$tmp/good.tsv"
expect 1 "tells-stat: $tmp/nope.txt: cannot open: No such file or directory"

# ---- normalized-failure: tables of tells-run ----
R='capability\tlabel\ttype\tplaceholders\ttemplates\tcases\tpassed\tpass_rate\n'
printf "${R}Neg\t0\tMFT\ta\t1\t4\t4\t1\nArt\t1\tMFT\ta\t1\t4\t2\t.5\n" >"$tmp/run.tsv"
bad "normalized-failure: empty" "normalized-failure $tmp/run.tsv @" '' \
    "@: empty input: expected a table of tells-run"
bad "normalized-failure: no counts" "normalized-failure $tmp/run.tsv @" 'capability\tpass_rate\nNeg\t1\n' \
    "@:1: no cases and passed columns, nor tests and failures (a table of tells-run)"
bad "normalized-failure: no test column" "normalized-failure $tmp/run.tsv @" 'cases\tpassed\n4\t4\n' \
    "@:1: no column before cases names the test"
bad "normalized-failure: other test columns" "normalized-failure $tmp/run.tsv @" \
    'topic\ttests\tfailures\n/a\t4\t1\n' \
    "@:1: its tests are named by other columns than those of $tmp/run.tsv"
bad "normalized-failure: a test missing" "normalized-failure $tmp/run.tsv @" \
    "${R}Art\t1\tMFT\ta\t1\t4\t2\t.5\n" \
    "@: test 'Neg / 0 / MFT / a' of $tmp/run.tsv (line 2) is missing (1 missing in all)"
bad "normalized-failure: a test not in the first" "normalized-failure $tmp/run.tsv @" \
    "${R}Neg\t0\tMFT\ta\t1\t4\t4\t1\nArt\t0\tMFT\ta\t1\t4\t2\t.5\n" \
    "@:3: test 'Art / 0 / MFT / a' is not in $tmp/run.tsv"
bad "normalized-failure: a test twice" "normalized-failure @ $tmp/run.tsv" \
    "${R}Neg\t0\tMFT\ta\t1\t4\t4\t1\nNeg\t0\tMFT\ta\t1\t4\t2\t.5\n" \
    "@:3: test 'Neg / 0 / MFT / a' repeated (first on line 2)"
bad "normalized-failure: malformed count" "normalized-failure $tmp/run.tsv @" \
    "${R}Neg\t0\tMFT\ta\t1\t4x\t4\t1\n" "@:2: malformed count '4x' in column cases"
bad "normalized-failure: negative count" "normalized-failure $tmp/run.tsv @" \
    "${R}Neg\t0\tMFT\ta\t1\t4\t-1\t1\n" "@:2: malformed count '-1' in column passed"
bad "normalized-failure: passed above cases" "normalized-failure $tmp/run.tsv @" \
    "${R}Neg\t0\tMFT\ta\t1\t4\t5\t1\n" "@:2: passed 5 is more than cases 4"
bad "normalized-failure: no cases" "normalized-failure $tmp/run.tsv @" \
    "${R}Neg\t0\tMFT\ta\t1\t0\t0\t1\n" "@:2: test 'Neg / 0 / MFT / a' has no cases"
bad "normalized-failure: row width" "normalized-failure $tmp/run.tsv @" \
    "${R}Neg\t0\tMFT\ta\t1\t4\n" "@:2: expected 8 tab-separated columns, found 6"
bad "normalized-failure: header only" "normalized-failure @ $tmp/run.tsv" "${R}" "@: no tests"
bad "normalized-failure: failures above tests" "normalized-failure x=@ y=@" \
    'topic\ttests\tfailures\n/a\t2\t3\n' "@:2: failures 3 is more than tests 2"

# ---- seeds ----
printf 'system\tmetric\tclass\tvalue\tsupport\n' >"$tmp/mh"
bad "seeds: malformed value" "seeds @" "$(cat "$tmp/mh")\ns1\taccuracy\t-\tx\t8\n" \
    "@:2: malformed value 'x'"
bad "seeds: a metric twice" "seeds @" \
    "$(cat "$tmp/mh")\ns1\taccuracy\t-\t0.5\t8\ns1\taccuracy\t-\t0.6\t8\n" \
    "@:3: metric accuracy of class - repeated for system s1"
bad "seeds: no metrics" "seeds @" "$(cat "$tmp/mh")\n" "@: no metrics"
bad "seeds: short row" "seeds @" "$(cat "$tmp/mh")\ns1\taccuracy\n" \
    "@:2: expected 5 tab-separated columns, found 2"
bad "seeds: malformed number" "seeds @" '0.5\n0,6\n' "@:2: malformed number '0,6'"
bad "seeds: infinity" "seeds @" '0.5\ninf\n' "@:2: not a finite number 'inf'"
bad "seeds: two columns" "seeds @" '0.5\t1\n' "@:1: expected 1 tab-separated columns, found 2"
bad "seeds: no numbers" "seeds @" '' "@: no numbers"
bad "seeds: no such column" "seeds -c acc @" 'seed\tf1\n1\t0.5\n' \
    "@:1: no 'acc' column in the header"

# ---- usage errors ----
printf 'seed\tx\n1\t2\n' >"$tmp/s.tsv"
g=$tmp/good.tsv
for args in \
    "|missing command (metrics, mcnemar, bootstrap, permutation, cochran, friedman, welch, wilcoxon, paired-t, fdr, contrast, normalized-failure or seeds)" \
    "frobnicate $g|unknown command 'frobnicate' (metrics, mcnemar, bootstrap, permutation, cochran, friedman, welch, wilcoxon, paired-t, fdr, contrast, normalized-failure or seeds)" \
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
    "fdr --alpha x|invalid value 'x' for --alpha (expected a number > 0 and <= 1)" \
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
    "welch -c a -c b -c c $g|--column given more than twice" \
    "wilcoxon $g|wilcoxon compares exactly 2 files (got 1)" \
    "paired-t $g $g $g|paired-t compares exactly 2 files (got 3)" \
    "cochran $g $g|cochran needs at least 3 files (got 2)" \
    "normalized-failure $g|normalized-failure needs at least 2 files (got 1)" \
    "normalized-failure a=$g a=$g|normalized failure rates compare at least 2 models, not 1" \
    "seeds|seeds needs at least 1 file (got 0)" \
    "seeds -c a -c b $g|seeds reads one --column" \
    "welch --labels a,b $g $g|--labels does not apply to welch" \
    "metrics --labels a,,b $g|--labels: empty label in the list" \
    "metrics --labels a,b,a $g|--labels: label 'a' given twice" \
    "metrics --multi-label --labels @$tmp/comma.txt $g|--labels: label 'a,b' holds a comma, which separates the labels of a set" \
    "mcnemar --nemenyi $g $g|--nemenyi does not apply to mcnemar" \
    "friedman --alpha 0.1 $g $g $g|--alpha needs friedman --nemenyi" \
    "wilcoxon --no-tie-correction $g $g|--no-tie-correction does not apply to wilcoxon" \
    "paired-t --no-continuity-correction $g $g|--no-continuity-correction does not apply to paired-t" \
    "seeds --alternative less $g|--alternative does not apply to seeds" \
    "normalized-failure -c x $g $g|--column does not apply to normalized-failure"; do
    opts=${args%%|*}
    what="tells-stat $opts"
    # shellcheck disable=SC2086
    run tells-stat $opts
    expect 2 "tells-stat: ${args#*|}
Try 'tells-stat --help' for more information."
    [ -s "$tmp/out" ] && fail "$what: wrote to stdout"
done

# stdin is read once: '-' for two inputs (or for one and the --labels or
# --groups file) is a usage error, not an empty second input. Each CONTENT
# is good for the first reading.
printf '1\n2\n4\n' >"$tmp/n.txt"
printf 'e\nn\nc\n' >"$tmp/labels.txt"
for args in "metrics - -|$g" "mcnemar - -|$g" "bootstrap - -|$g" "cochran $g - -|$g" \
    "wilcoxon - -|$tmp/n.txt" "paired-t - -|$tmp/n.txt" "welch - -|$tmp/n.txt" \
    "friedman --scores $tmp/n.txt - -|$tmp/n.txt" "metrics --labels @- -|$tmp/labels.txt" \
    "contrast --groups - -|$g" "normalized-failure a=- b=-|$tmp/run.tsv" \
    "seeds - -|$tmp/n.txt"; do
    opts=${args%%|*}
    what="tells-stat $opts"
    # shellcheck disable=SC2086
    run tells-stat -o "$tmp/keep.tsv" $opts <"${args#*|}"
    expect 2 "tells-stat: stdin: already read for another input ('-' can stand for one input only)
Try 'tells-stat --help' for more information."
    [ "$(cat "$tmp/keep.tsv")" = "old table" ] || fail "$what: output changed"
done

# A model's name is a cell of the normalized-failure table: with a tab or
# a line end (given as NAME=, or the name of a file that is its own model)
# it would break the row, and is refused as a split name is.
badname() {
    what="normalized-failure: model name $2"
    run tells-stat -o "$tmp/keep.tsv" normalized-failure "$1" z="$tmp/run.tsv"
    expect 2 "tells-stat: invalid model name '$2' (a tab or line end would break the table's columns)
Try 'tells-stat --help' for more information."
    [ "$(cat "$tmp/keep.tsv")" = "old table" ] || fail "$what: output changed"
}
tab=$(printf '\t')
cr=$(printf '\r')
badname "x${tab}y=$tmp/run.tsv" "x${tab}y"
badname "x
y=$tmp/run.tsv" 'x\ny'
badname "x${cr}y=$tmp/run.tsv" 'x\ry'
cp "$tmp/run.tsv" "$tmp/a${tab}b.tsv"
badname "$tmp/a${tab}b.tsv" "$tmp/a${tab}b.tsv"
finish
