#!/bin/sh
# tells-pairs: every pair feature and every test of a hand-made corpus
# worked out by hand; the same answers whatever the rows' order; the
# classifier on a corpus where one flag gives the label away; planted
# artifacts (tells-synth --plant-pair) found, and none where none were
# planted; bad input fails with one line, exit 1, nothing written.
. "${top_srcdir:-.}/tests/init.sh"

# Six pairs (words: tokens with a letter or digit, so '.' is none):
# row class  P words                  H words                         overlap  p_ovl  all sub neg num  len
# 1   e      a man walks a dog (5)    a man walks (3)                 3/3      4/5    1   1   0   0    2
# 2   e      two women sit (3)        two women sit (3)               1        1      1   1   0   0    0
# 3   c      a man walks a dog        a man does not walk (5)         2/5      3/5    0   0   1   0    0
# 4   c      two women sit            three women never sit (4)       2/4      2/3    0   0   1   1   -1
# 5   n      a man walks a dog        the man walks his dog to the park (8)  3/8  3/5  0   0   0   0   -3
# 6   n      two women sit            two tired women sit on 2 chairs (7)    3/7  1    0   0   0   1   -4
# ("not", "never": cues the premise lacks; "three" and "2": numbers it lacks.)
printf 'id\tsplit\tlabel\tpremise\thypothesis
1\tdev\tentailment\ta man walks a dog .\ta man walks
2\tdev\tentailment\ttwo women sit .\ttwo women sit
3\tdev\tcontradiction\ta man walks a dog .\ta man does not walk
4\tdev\tcontradiction\ttwo women sit .\tthree women never sit
5\tdev\tneutral\ta man walks a dog .\tthe man walks his dog to the park
6\tdev\tneutral\ttwo women sit .\ttwo tired women sit on 2 chairs
' >"$tmp/hand.tsv"
printf 'id\tsplit\tlabel\toverlap\tpremise_overlap\tall_in_premise\tsubsequence\tnegation\tnumbers\tlength_difference\tnew_concept\tmore_general\tmore_specific
1\tdev\tentailment\t1.000000\t0.800000\t1\t1\t0\t0\t2\t0\t0\t0
2\tdev\tentailment\t1.000000\t1.000000\t1\t1\t0\t0\t0\t0\t0\t0
3\tdev\tcontradiction\t0.400000\t0.600000\t0\t0\t1\t0\t0\t0\t0\t0
4\tdev\tcontradiction\t0.500000\t0.666667\t0\t0\t1\t1\t-1\t0\t0\t0
5\tdev\tneutral\t0.375000\t0.600000\t0\t0\t0\t0\t-3\t0\t0\t0
6\tdev\tneutral\t0.428571\t1.000000\t0\t0\t0\t1\t-4\t0\t0\t0
' >"$tmp/hand-features.expected"
# The tests, two pairs a class:
#  overlap: ranks n 1, c 2, n 3, c 4, e 5.5 5.5; sums c 6, e 11, n 4;
#    H = 12/42 (36 + 121 + 16)/2 - 21 = 3.714286, over the tie correction
#    1 - 6/210: 3.823529; p = exp(-H/2) = 0.148.
#  premise_overlap: 0.6 (c, n) 1.5 1.5, 2/3 (c) 3, 0.8 (e) 4, 1 (e, n)
#    5.5 5.5; sums c 4.5, e 9.5, n 7: H = 1.785714 / (1 - 12/210) =
#    1.893939, p = 0.388.
#  all_in_premise, subsequence (e 2 of 2) and negation (c 2 of 2): the
#    exact test on 2 flagged among 3 classes of 2: the 3 tables with both
#    in one class have P = 1/15 each, the 3 with two classes 4/15: p =
#    3/15 = 0.2; Pearson's X^2 (expected 2/3 and 4/3): 4 + 1 + 1 = 6.
#  numbers (c 1, n 1): P(observed) = 4/15, every table as probable or
#    less: p = 1; X^2 = 1 (e) + 0.25 + 0.25 = 1.5.
#  length_difference: -4 (n) 1, -3 (n) 2, -1 (c) 3, 0 (c, e) 4.5 4.5, 2
#    (e) 6; sums c 7.5, e 10.5, n 3: H = 4.071429 / (1 - 6/210) =
#    4.191176, p = 0.123.
printf 'feature\tkind\ttest\tstatistic\tdf\tp\tcontradiction_mean\tcontradiction_median\tcontradiction_n\tentailment_mean\tentailment_median\tentailment_n\tneutral_mean\tneutral_median\tneutral_n
overlap\tshare\tkruskal_wallis\t3.823529\t2\t0.148\t0.450000\t0.450000\t2\t1.000000\t1.000000\t2\t0.401786\t0.401786\t2
premise_overlap\tshare\tkruskal_wallis\t1.893939\t2\t0.388\t0.633333\t0.633333\t2\t0.900000\t0.900000\t2\t0.800000\t0.800000\t2
all_in_premise\tflag\texact\t6.000000\t2\t0.2\t0.000000\t-\t0\t1.000000\t-\t2\t0.000000\t-\t0
subsequence\tflag\texact\t6.000000\t2\t0.2\t0.000000\t-\t0\t1.000000\t-\t2\t0.000000\t-\t0
negation\tflag\texact\t6.000000\t2\t0.2\t1.000000\t-\t2\t0.000000\t-\t0\t0.000000\t-\t0
numbers\tflag\texact\t1.500000\t2\t1\t0.500000\t-\t1\t0.000000\t-\t0\t0.500000\t-\t1
length_difference\tcount\tkruskal_wallis\t4.191176\t2\t0.123\t-0.500000\t-0.500000\t2\t1.000000\t1.000000\t2\t-3.500000\t-3.500000\t2
new_concept\tflag\t-\t-\t-\t-\t0.000000\t-\t0\t0.000000\t-\t0\t0.000000\t-\t0
more_general\tflag\t-\t-\t-\t-\t0.000000\t-\t0\t0.000000\t-\t0\t0.000000\t-\t0
more_specific\tflag\t-\t-\t-\t-\t0.000000\t-\t0\t0.000000\t-\t0\t0.000000\t-\t0
' >"$tmp/hand-assoc.expected"

what="the hand-made corpus: the tests"
run tells-pairs --no-mesh -f "$tmp/features.tsv" "$tmp/hand.tsv"
expect 0 ""
expect_out "$tmp/hand-assoc.expected"
what="the hand-made corpus: the features"
cmp -s "$tmp/features.tsv" "$tmp/hand-features.expected" ||
    fail "$what: $(diff "$tmp/hand-features.expected" "$tmp/features.tsv")"

what="rows in another order: the same tests"
{ head -n 1 "$tmp/hand.tsv"; tail -n +2 "$tmp/hand.tsv" | sort -r; } >"$tmp/reversed.tsv"
run tells-pairs --no-mesh -o "$tmp/assoc.tsv" "$tmp/reversed.tsv"
expect 0 ""
cmp -s "$tmp/assoc.tsv" "$tmp/hand-assoc.expected" || fail "$what"

what="stdin"
run tells-pairs --no-mesh - <"$tmp/hand.tsv"
expect 0 ""
expect_out "$tmp/hand-assoc.expected"

# The MeSH features, linked as tells-heur links (MeSH 2024, entry terms,
# stems): Lung Diseases (C08.381) is an ancestor of Pneumonia
# (C08.381.677); a fever premise names neither.
what="the MeSH features"
printf 'id\tsplit\tlabel\tpremise\thypothesis
1\tdev\te\tpatient with pneumonia\tpatient with lung diseases
2\tdev\tn\tpatient with lung diseases\tpatient with pneumonia
3\tdev\tc\tpatient with a fever\tpatient with pneumonia
4\tdev\te\tpatient with pneumonia\tpatient with pneumonia
' >"$tmp/mesh.tsv"
run tells-pairs -o /dev/null -f "$tmp/mesh-features.tsv" "$tmp/mesh.tsv"
expect 0 ""
cut -f 1,11-13 "$tmp/mesh-features.tsv" >"$tmp/out"
expect_out_text "id	new_concept	more_general	more_specific
1	1	1	0
2	1	0	1
3	1	0	0
4	0	0	0"
what="--no-mesh with --mesh"
run tells-pairs --no-mesh --mesh "$tmp/x" "$tmp/mesh.tsv"
expect 2 "tells-pairs: --no-mesh excludes --mesh, --terms, --no-terms, --stem and --no-stem
Try 'tells-pairs --help' for more information."

# The classifier: 40 pairs, the 20 contradictions add "not", the 20
# entailments repeat the premise; train (30) and test (10). Every test
# pair right, the majority (15 and 15: the first in byte order) on 5;
# McNemar 5 against 0: p = 2^-5 = 0.03125; mde by Connor 1987.
{
    printf 'id\tsplit\tlabel\tpremise\thypothesis\n'
    i=0
    while [ $i -lt 40 ]; do
        s=train; [ $i -ge 30 ] && s=test
        if [ $((i % 2)) = 0 ]; then
            printf 'r%02d\t%s\tcontradiction\tman %d walks home\tthe man does not walk\n' $i $s $i
        else
            printf 'r%02d\t%s\tentailment\tman %d walks home\tman walks home\n' $i $s $i
        fi
        i=$((i + 1))
    done
} >"$tmp/planted.tsv"
what="the classifier: train on train, scored on test"
run tells-pairs -o /dev/null -c "$tmp/cls.tsv" "$tmp/planted.tsv"
expect 0 ""
# mde: Connor 1987 at psi = 10/10 discordant... here 5/10 = 0.5, n = 10:
# 1.645 sqrt(0.5) + 0.842 sqrt(0.5 - d^2) = d sqrt(10) at d = 0.500689.
printf 'design\tn\taccuracy\tmajority_label\tmajority_accuracy\tonly_model_right\tonly_majority_right\tp\tmde\ttrain_accuracy
train on train, scored on test\t10\t1.000000\tcontradiction\t0.500000\t5\t0\t0.0313\t0.500689\t1.000000
' >"$tmp/cls.expected"
cmp -s "$tmp/cls.tsv" "$tmp/cls.expected" || fail "$what: $(diff "$tmp/cls.expected" "$tmp/cls.tsv")"

what="the classifier: cross-validation, every row scored once"
sed 's/\ttrain\t/\tall\t/; s/\ttest\t/\tall\t/' "$tmp/planted.tsv" >"$tmp/one-split.tsv"
run tells-pairs -o /dev/null -c "$tmp/cls.tsv" --folds 4 "$tmp/one-split.tsv"
expect 0 ""
cut -f 1-3,7 "$tmp/cls.tsv" >"$tmp/out"
expect_out_text "design	n	accuracy	only_majority_right
4-fold cross-validation	40	1.000000	0"

# ---- planted artifacts, and none ----
what="tells-synth --plant-pair: negation and overlap found, leaning as planted"
tells-synth --seed 5 --premises 300 --no-artifacts -o "$tmp/planted" \
        --plant-pair negation=contradiction:500 --plant-pair overlap=entailment:400 >/dev/null ||
    fail "$what: tells-synth failed"
tells-prep -q --split train "$tmp/planted/train.jsonl" --split dev "$tmp/planted/dev.jsonl" \
    --split test "$tmp/planted/test.jsonl" -o "$tmp/synth.tsv" || fail "$what: tells-prep"
[ "$(wc -l <"$tmp/synth.tsv")" = 901 ] || fail "$what: not 900 pairs"
run tells-pairs --no-mesh "$tmp/synth.tsv"
expect 0 ""
# negation: the contradictions' share the highest, p tiny; subsequence:
# the entailments'.
awk -F '\t' 'NR > 1 && ($1 == "negation" || $1 == "subsequence") {
        top = $7 > $10 ? ($7 > $13 ? "contradiction" : "neutral") : ($10 > $13 ? "entailment" : "neutral")
        print $1, top, ($6 + 0 < 1e-10 ? "p<1e-10" : "p=" $6) }' "$tmp/out" >"$tmp/lean"
printf 'subsequence entailment p<1e-10\nnegation contradiction p<1e-10\n' >"$tmp/lean.expected"
cmp -s "$tmp/lean" "$tmp/lean.expected" || fail "$what: $(cat "$tmp/lean")"

# The null: the planted corpus with its labels moved 7 rows on (rows in
# id order), so that no pair is built for its label; class sizes stay.
what="labels moved off their pairs: no feature significant at 0.001"
{
    head -n 1 "$tmp/synth.tsv"
    tail -n +2 "$tmp/synth.tsv" | sort >"$tmp/rows"
    cut -f 3 "$tmp/rows" >"$tmp/labels"
    { tail -n +8 "$tmp/labels"; head -n 7 "$tmp/labels"; } >"$tmp/moved"
    paste "$tmp/moved" "$tmp/rows" | awk -F '\t' -v OFS='\t' '{ $4 = $1; print }' | cut -f 2-
} >"$tmp/null.tsv"
run tells-pairs --no-mesh "$tmp/null.tsv"
expect 0 ""
awk -F '\t' 'NR > 1 && $6 != "-" && $6 + 0 < 0.001 { print $1, $6 }' "$tmp/out" >"$tmp/sig"
[ ! -s "$tmp/sig" ] || fail "$what: $(cat "$tmp/sig")"
[ "$(cut -f 3 "$tmp/null.tsv" | sort | uniq -c)" = "$(cut -f 3 "$tmp/synth.tsv" | sort | uniq -c)" ] ||
    fail "$what: the classes' sizes changed"

# ---- bad input: one line, exit 1 (data) or 2 (usage), nothing written ----
printf 'kept\n' >"$tmp/kept.tsv"
what="a missing input"
run tells-pairs -o "$tmp/kept.tsv" "$tmp/nothere.tsv"
expect 1 "tells-pairs: $tmp/nothere.tsv: cannot open: No such file or directory"
what="a row of 4 columns"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\tdev\te\ta b\n' >"$tmp/short.tsv"
run tells-pairs -o "$tmp/kept.tsv" "$tmp/short.tsv"
expect 1 "tells-pairs: $tmp/short.tsv:2: expected 5 tab-separated columns, found 4"
what="invalid UTF-8 in the corpus"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\tdev\te\ta \377 b\tc\n' >"$tmp/utf.tsv"
run tells-pairs -o "$tmp/kept.tsv" "$tmp/utf.tsv"
expect 1 "tells-pairs: $tmp/utf.tsv:2: invalid UTF-8"
what="invalid UTF-8 in the lexicon"
printf 'no\n\377\n' >"$tmp/cues.txt"
run tells-pairs -o "$tmp/kept.tsv" --negation "$tmp/cues.txt" "$tmp/hand.tsv"
expect 1 "tells-pairs: $tmp/cues.txt:2: invalid UTF-8"
what="a cue given twice"
printf 'no\nnot\nNot\n' >"$tmp/cues.txt"
run tells-pairs -o "$tmp/kept.tsv" --negation "$tmp/cues.txt" "$tmp/hand.tsv"
expect 1 "tells-pairs: $tmp/cues.txt:3: cue 'Not' already given on line 2"
what="a lexicon without a cue"
printf '# none\n' >"$tmp/cues.txt"
run tells-pairs -o "$tmp/kept.tsv" --negation "$tmp/cues.txt" "$tmp/hand.tsv"
expect 1 "tells-pairs: $tmp/cues.txt: no cues"
what="no examples"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n' >"$tmp/empty.tsv"
run tells-pairs -o "$tmp/kept.tsv" "$tmp/empty.tsv"
expect 1 "tells-pairs: $tmp/empty.tsv: no examples in the input"
what="fewer premises than folds"
run tells-pairs -o "$tmp/kept.tsv" -c "$tmp/cls.tsv" "$tmp/hand.tsv"
expect 1 "tells-pairs: $tmp/hand.tsv: 2 premises cannot make 5 folds"
what="a training split without another"
run tells-pairs -o "$tmp/kept.tsv" -c "$tmp/cls.tsv" --train dev "$tmp/hand.tsv"
expect 2 "tells-pairs: a training split 'dev' needs another split to evaluate
Try 'tells-pairs --help' for more information."
what="--eval train: the split that trains"
run tells-pairs -o "$tmp/kept.tsv" -c "$tmp/cls.tsv" --eval train "$tmp/planted.tsv"
expect 2 "tells-pairs: split 'train' cannot both train and be evaluated
Try 'tells-pairs --help' for more information."
what="an output that names the input"
run tells-pairs -f "$tmp/hand.tsv" "$tmp/hand.tsv"
expect 2 "tells-pairs: --features names an input (PREPARED.tsv): $tmp/hand.tsv
Try 'tells-pairs --help' for more information."
what="--folds 1"
run tells-pairs --folds 1 "$tmp/hand.tsv"
expect 2 "tells-pairs: invalid value '1' for --folds (expected an integer from 2 to 1000)
Try 'tells-pairs --help' for more information."
what="two inputs"
run tells-pairs "$tmp/hand.tsv" "$tmp/hand.tsv"
expect 2 "tells-pairs: one prepared TSV is needed, not 2
Try 'tells-pairs --help' for more information."
what="every failure left the output as it was"
[ "$(cat "$tmp/kept.tsv")" = kept ] || fail "$what"

finish
