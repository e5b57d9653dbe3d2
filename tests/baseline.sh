#!/bin/sh
# tells-baseline: majority numbers checked by hand, fastText deterministic
# for a seed, far above majority where artifacts are planted (SNLI,
# synthetic) and at chance where they are not; partitions and files.
. "${top_srcdir:-.}/tests/init.sh"

H='id	split	label	premise	hypothesis'
printf '%s\n' "$H" 't1	train	a	p	x y' 't2	train	a	p	x' 't3	train	b	p	y' \
    'd1	dev	a	p	x' 'd2	dev	b	p	y' 'd3	dev	b	p	y y' 'd4	dev	c	p	z' >"$tmp/small.tsv"

what="majority from train"
run tells-baseline --model majority "$tmp/small.tsv"
expect 0 ""
# All predicted a: accuracy 1/4; F1(a) = 2 (1/4)(1) / (5/4) = 0.4; macro
# over a, b, c = 0.4 / 3.
expect_out_text "model	input	split	n	micro_f1	macro_f1	accuracy
majority	hypothesis	dev	4	0.250000	0.133333	0.250000"

what="majority from eval, details, partition"
printf 'd2\nd4\nnot-there\n' >"$tmp/part.ids"
run tells-baseline --model majority --majority-from eval --details \
    --partition hard="$tmp/part.ids" "$tmp/small.tsv"
expect 0 "tells-baseline: $tmp/part.ids: 1 of 3 ids not found in $tmp/small.tsv"
# All predicted b: accuracy 2/4; F1(b) = 2 (1/2)(1) / (3/2) = 2/3; macro /3.
# On d2, d4: accuracy 1/2; F1(b) = 2/3 over b, c: 1/3.
expect_out_text "model	input	split	partition	n	micro_f1	macro_f1	accuracy	change_micro_f1	change_macro_f1	change_accuracy
majority	hypothesis	dev	full	4	0.500000	0.222222	0.500000	0.000000	0.000000	0.000000
majority	hypothesis	dev	hard	2	0.500000	0.333333	0.500000	0.000000	0.111111	0.000000

# confusion: majority hypothesis dev (rows gold, columns predicted)
gold	a	b	c
a	0	1	0
b	0	2	0
c	0	1	0

# per-class: majority hypothesis dev
class	precision	recall	f1	support
a	0.000000	0.000000	0.000000	1
b	0.500000	1.000000	0.666667	2
c	0.000000	0.000000	0.000000	1"

what="synthetic corpus: planted artifacts are learnt"
syn=$corpora/synthetic
tells-prep -q -o "$tmp/syn.tsv" --split train "$syn/train.jsonl" --split dev "$syn/dev.jsonl" \
    --split test "$syn/test.jsonl"
run tells-baseline --seed 1 --predictions "$tmp/p1.tsv" --save-model "$tmp/m.bin" "$tmp/syn.tsv"
expect 0 ""
awk -F '\t' '$1 == "majority" && $3 == "test" { m = $7 } $1 == "fasttext" && $3 == "test" { f = $7 }
    END { if (!(m < 0.34 && f > m + 0.25)) { print "majority " m ", fasttext " f; exit 1 } }' \
    "$tmp/out" || fail "$what: fastText not far above majority"

what="same seed, one thread: same predictions"
run tells-baseline --seed 1 --predictions "$tmp/p2.tsv" "$tmp/syn.tsv"
expect 0 ""
cmp -s "$tmp/p1.tsv" "$tmp/p2.tsv" || fail "$what"
head -n 1 "$tmp/p1.tsv" | grep -qx 'id	split	gold	predicted	p_contradiction	p_entailment	p_neutral' ||
    fail "predictions header: $(head -n 1 "$tmp/p1.tsv")"
[ "$(wc -l <"$tmp/p1.tsv")" = 901 ] || fail "predictions: not one row per dev and test example"
awk -F '\t' 'NR > 1 { s = $5 + $6 + $7; if (s < 0.99 || s > 1.01) bad = 1 } END { exit bad }' \
    "$tmp/p1.tsv" || fail "predictions: probabilities do not sum to 1"

what="the saved model predicts what tells-baseline predicted"
if command -v fasttext >/dev/null 2>&1; then
    awk -F '\t' 'NR > 1 && $2 == "test"' "$tmp/p1.tsv" | cut -f 4 >"$tmp/ours"
    awk -F '\t' '$2 == "test" { print $5 }' "$tmp/syn.tsv" | fasttext predict "$tmp/m.bin" - |
        sed 's/^__label__//' >"$tmp/theirs"
    cmp -s "$tmp/ours" "$tmp/theirs" || fail "$what"
fi

what="synthetic corpus without artifacts: at chance"
tells-synth --no-artifacts -o "$tmp/flat"
tells-prep -q -o "$tmp/flat.tsv" --split train "$tmp/flat/train.jsonl" \
    --split dev "$tmp/flat/dev.jsonl" --split test "$tmp/flat/test.jsonl"
run tells-baseline --model fasttext --seed 1 --eval dev,test "$tmp/flat.tsv"
expect 0 ""
awk -F '\t' 'NR > 1 && $7 > 0.42 { print; bad = 1 } END { exit bad }' "$tmp/out" ||
    fail "$what: accuracy above chance"

what="SNLI dev, 5-fold cross-validation: fastText beats majority"
tells-prep -q -t whitespace -o "$tmp/snli.tsv" --split dev "$corpora/snli/snli_1.0_dev.jsonl"
run tells-baseline --train dev --folds 5 "$tmp/snli.tsv"
expect 0 ""
awk -F '\t' '$1 == "majority" { m = $7 } $1 == "fasttext" { f = $7 }
    END { if (!(f > m + 0.12)) { print "majority " m ", fasttext " f; exit 1 } }' "$tmp/out" ||
    fail "$what"

what="SICK train to test, both models with details"
tells-prep -q -o "$tmp/sick.tsv" --split train "$corpora/sick/sick_train.jsonl" \
    --split test "$corpora/sick/sick_test.jsonl"
run tells-baseline --seed 1 --details "$tmp/sick.tsv"
expect 0 ""
for m in majority fasttext; do
    grep -q "^$m	hypothesis	test	4906	" "$tmp/out" || fail "$what: no $m row"
    grep -qx "# confusion: $m hypothesis test (rows gold, columns predicted)" "$tmp/out" ||
        fail "$what: no $m confusion matrix"
    grep -qx "# per-class: $m hypothesis test" "$tmp/out" || fail "$what: no $m per-class block"
done
# The confusion matrix of each model adds up to the test split.
awk -F '\t' '/^# confusion/ { c = 1; next } c && $1 == "gold" { next }
    c && NF == 4 { s += $2 + $3 + $4; next } { c = 0 } END { exit s != 2 * 4906 }' "$tmp/out" ||
    fail "$what: confusion matrices do not add up"

what="premise and hypothesis"
run tells-baseline --input pair --model fasttext --eval dev "$tmp/syn.tsv"
expect 0 ""
grep -q '^fasttext	pair	dev	450	' "$tmp/out" || fail "$what: $(cat "$tmp/out")"

# Bad input
what="no training split"
run tells-baseline --train nope "$tmp/small.tsv"
expect 1 "tells-baseline: $tmp/small.tsv: no split named 'nope' to train on"
what="no such eval split"
run tells-baseline --eval dev,tset "$tmp/small.tsv"
expect 1 "tells-baseline: $tmp/small.tsv: no split named 'tset'"
what="nothing to evaluate"
grep -v '	dev	' "$tmp/small.tsv" >"$tmp/trainonly.tsv"
run tells-baseline "$tmp/trainonly.tsv"
expect 1 "tells-baseline: $tmp/trainonly.tsv: no split to evaluate on besides 'train' (use --folds for cross-validation)"
what="too many folds"
run tells-baseline --folds 5 "$tmp/small.tsv"
expect 1 "tells-baseline: $tmp/small.tsv: 3 examples cannot make 5 folds"
what="label with a space"
printf '%s\n' "$H" 't1	train	not entailed	p	x' 't2	train	a	p	y' 'd1	dev	a	p	x' >"$tmp/space.tsv"
run tells-baseline --model fasttext "$tmp/space.tsv"
expect 1 "tells-baseline: $tmp/space.tsv: label 'not entailed' contains a space, which fastText labels cannot"
what="header only"
printf '%s\n' "$H" >"$tmp/header.tsv"
run tells-baseline "$tmp/header.tsv"
expect 1 "tells-baseline: $tmp/header.tsv: no examples in the input"
what="blank lines only"
printf '\n \n' >"$tmp/blank.tsv"
run tells-baseline "$tmp/blank.tsv"
expect 1 "tells-baseline: $tmp/blank.tsv: empty input: expected a prepared TSV header"
what="an id twice"
printf '%s\n' "$H" 't1	train	a	p	x' 't2	train	b	p	y' 't1	dev	a	p	x' >"$tmp/dup.tsv"
run tells-baseline --model majority "$tmp/dup.tsv"
expect 1 "tells-baseline: $tmp/dup.tsv:4: duplicate id 't1' (first on line 2)"
what="a training split of one example"
printf '%s\n' "$H" 't1	train	a	p	x' 'd1	dev	a	p	x' 'd2	dev	b	p	y' >"$tmp/one.tsv"
run tells-baseline --model majority "$tmp/one.tsv"
expect 1 "tells-baseline: $tmp/one.tsv: split 'train' has one example: too few to train on"
what="a training split of one class"
printf '%s\n' "$H" 't1	train	a	p	x' 't2	train	a	p	y' 'd1	dev	b	p	x' >"$tmp/oneclass.tsv"
run tells-baseline --model fasttext "$tmp/oneclass.tsv"
expect 1 "tells-baseline: $tmp/oneclass.tsv: split 'train' has examples of one class only ('a'): nothing to learn"
run tells-baseline --train train --folds 2 "$tmp/oneclass.tsv"
expect 1 "tells-baseline: $tmp/oneclass.tsv: split 'train' has examples of one class only ('a'): nothing to learn"
what="a partition that matches no row"
printf 'zz\nyy\n' >"$tmp/nomatch.ids"
run tells-baseline --model majority --partition odd="$tmp/nomatch.ids" "$tmp/small.tsv"
expect 1 "tells-baseline: $tmp/nomatch.ids: partition 'odd' has no row of split 'dev' (evaluate on the splits it covers with --eval)"
what="a partition without rows of one evaluated split"
printf '%s\n' "$H" 't1	train	a	p	x' 't2	train	b	p	y' 'd1	dev	a	p	x' 'e1	test	b	p	y' >"$tmp/three.tsv"
printf 'd1\n' >"$tmp/dev.ids"
run tells-baseline --model majority --partition devonly="$tmp/dev.ids" "$tmp/three.tsv"
expect 1 "tells-baseline: $tmp/dev.ids: partition 'devonly' has no row of split 'test' (evaluate on the splits it covers with --eval)"
run tells-baseline --model majority --eval dev --partition devonly="$tmp/dev.ids" "$tmp/three.tsv"
expect 0 ""
run tells-baseline --model majority --train dev --folds 2 --partition odd="$tmp/nomatch.ids" "$tmp/small.tsv"
expect 1 "tells-baseline: $tmp/nomatch.ids: partition 'odd' has no row of split 'dev'"
what="ids of a partition not in the data: counted, unless -q"
printf 'd1\nzz\n' >"$tmp/some.ids"
run tells-baseline -q --model majority --eval dev --partition p="$tmp/some.ids" "$tmp/three.tsv"
expect 0 ""
what="missing partition file"
run tells-baseline --model majority --partition easy="$tmp/none.ids" "$tmp/small.tsv"
expect 1 "tells-baseline: $tmp/none.ids: cannot open: No such file or directory"
what="not a prepared TSV"
run tells-baseline "$syn/KEY.tsv"
expect 1 "tells-baseline: $syn/KEY.tsv:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis'"
what="an unwritable model path leaves no output behind"
printf 'old\n' >"$tmp/table"
run tells-baseline --model fasttext --save-model "$tmp/no/such/dir/m.bin" -o "$tmp/table2" "$tmp/small.tsv"
expect 1 "tells-baseline: $tmp/no/such/dir/m.bin: cannot create: No such file or directory"
[ -e "$tmp/table2" ] && fail "$what: table written"

for args in "--partition easy|invalid partition 'easy' (expected NAME=IDFILE)" \
    "--model svm|invalid model 'svm' (majority, fasttext or both)" \
    "--input premises|invalid input 'premises' (hypothesis, pair, pair-features or premise)" \
    "--folds 1|invalid value '1' for --folds (expected an integer from 2 to 1000)" \
    "--folds 3 --eval dev|--folds and --eval cannot be combined" \
    "--model majority --save-model m.bin|--save-model needs the fasttext model"; do
    what="tells-baseline ${args%%|*}"
    # shellcheck disable=SC2086
    run tells-baseline ${args%%|*} "$tmp/small.tsv"
    expect 2 "tells-baseline: ${args#*|}
Try 'tells-baseline --help' for more information."
done
run tells-baseline
expect 2 "tells-baseline: no input file (use - for stdin)
Try 'tells-baseline --help' for more information."
finish
