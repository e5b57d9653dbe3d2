#!/bin/sh
# tells-study serves at most 32 classes (issue 23): more is an error as
# soon as the corpus is read, before any step (a split the corpus lacks,
# the next check, would be found next); 100,000 classes, one per example,
# ran until killed.
. "${top_srcdir:-.}/tests/init.sh"

# classes N K: N examples of K classes.
classes() {
    awk -v n="$1" -v k="$2" 'BEGIN {
        print "id\tsplit\tlabel\tpremise\thypothesis"
        for (i = 0; i < n; i++)
            printf "%d\ttrain\tc%d\ta man sleeps\tsomeone w%d sleeps\n", i, i % k, i % 7
    }'
}

what="100,000 classes"
classes 100000 100000 >"$tmp/own.tsv"
run tells-study -q -o "$tmp/study" --eval nosuch "$tmp/own.tsv"
expect 1 "tells-study: $tmp/own.tsv: 100000 classes: the study serves at most 32 (AFLite's models need memory that grows with the square of the classes)"

what="33 classes"
classes 66 33 >"$tmp/33.tsv"
run tells-study -q -o "$tmp/study" --eval nosuch "$tmp/33.tsv"
expect 1 "tells-study: $tmp/33.tsv: 33 classes: the study serves at most 32 (AFLite's models need memory that grows with the square of the classes)"

what="33 classes from a corpus to prepare"
awk -F '\t' 'NR > 1 { printf "{\"pairID\": \"%s\", \"gold_label\": \"%s\", \"sentence1\": \"%s\", \"sentence2\": \"%s\"}\n", $1, $3, $4, $5 }' \
    "$tmp/33.tsv" >"$tmp/33.jsonl"
run tells-study -q -o "$tmp/study" --eval nosuch --split train "$tmp/33.jsonl"
expect 1 "tells-study: 33 classes: the study serves at most 32 (AFLite's models need memory that grows with the square of the classes)"

what="32 classes pass to the next check"
classes 64 32 >"$tmp/32.tsv"
run tells-study -q -o "$tmp/study" --eval nosuch "$tmp/32.tsv"
expect 1 "tells-study: no split named 'nosuch' in the corpus (its splits: train)"
finish
