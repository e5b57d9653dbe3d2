#!/bin/sh
# tells-phrases: collocations learned from a small corpus whose counts are
# known, with scores worked out by hand from the formula in --help; a
# second pass grows a three-word phrase; the list round-trips through
# tells-prep --phrases; bad input and bad options are refused.
. "${top_srcdir:-.}/tests/init.sh"

# The corpus: 18 rows, 36 texts (premise and hypothesis are separate
# texts), every filler word (a1, b2, c3...) seen once.
#   rows 1-6   premise 'aN congestive heart failure'  hypothesis 'cN chest pain'
#   rows 7-10  premise 'bN heart failure'             hypothesis 'cN chest pain'
#   rows 11-16 premise 'dN heart'                     hypothesis 'eN pain'
#   rows 17-18 premise 'dN heart'                     hypothesis 'fN congestive'
# N = 24 + 12 + 30 + 16 + 12 + 4 = 98 tokens; n(heart) = 18,
# n(failure) = 10, n(chest) = 10, n(pain) = 16, n(congestive) = 8;
# n(heart failure) = 10, n(chest pain) = 10, n(congestive heart) = 6.
{
    printf 'id\tsplit\tlabel\tpremise\thypothesis\n'
    i=1
    while [ $i -le 18 ]; do
        if [ $i -le 6 ]; then
            printf 'r%d\ttrain\tneutral\ta%d congestive heart failure\tc%d chest pain\n' $i $i $i
        elif [ $i -le 10 ]; then
            printf 'r%d\ttrain\tentailment\tb%d heart failure\tc%d chest pain\n' $i $i $i
        elif [ $i -le 16 ]; then
            printf 'r%d\tdev\tcontradiction\td%d heart\te%d pain\n' $i $i $i
        else
            printf 'r%d\tdev\tcontradiction\td%d heart\tf%d congestive\n' $i $i $i
        fi
        i=$((i + 1))
    done
} >"$tmp/c.tsv"
[ "$(wc -l <"$tmp/c.tsv")" -eq 19 ] || fail "corpus: $(wc -l <"$tmp/c.tsv") lines"
: >"$tmp/nothing"

# With delta 2, pass 1:
#   chest pain        (10 - 2) / (10 * 16) * 98 = 4.9
#   heart failure     (10 - 2) / (18 * 10) * 98 = 784/180 = 4.355556
#   congestive heart  ( 6 - 2) / ( 8 * 18) * 98 = 392/144 = 2.722222
# so with threshold 3 the first two are phrases. Pass 2 runs on the text
# with them merged: N = 98 - 20 = 78, n(heart_failure) = 10, and
#   congestive heart_failure  (6 - 2) / (8 * 10) * 78 = 3.9
printf '# phrase\tcount\tscore
chest pain\t10\t4.900000
heart failure\t10\t4.355556
congestive heart failure\t6\t3.900000
' >"$tmp/scores2.expected"
printf 'chest pain\nheart failure\ncongestive heart failure\n' >"$tmp/phrases2.expected"
printf 'chest pain\nheart failure\n' >"$tmp/phrases1.expected"

what="one pass"
run tells-phrases --threshold 3 --delta 2 "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/phrases1.expected"

what="one pass, --passes 1, short options"
run tells-phrases -t 3 -d 2 -p 1 "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/phrases1.expected"

what="one pass, --scores"
run tells-phrases -t 3 -d 2 --scores "$tmp/c.tsv"
expect 0 ""
expect_out_text "# phrase	count	score
chest pain	10	4.900000
heart failure	10	4.355556"

what="two passes"
run tells-phrases -t 3 -d 2 --passes 2 "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/phrases2.expected"

what="two passes, --scores"
run tells-phrases -t 3 -d 2 --passes 2 --scores "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/scores2.expected"

what="three passes find nothing more"
run tells-phrases -t 3 -d 2 -p 3 --scores "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/scores2.expected"

# Threshold: 4.355556 < 4.5 < 4.9.
what="higher threshold"
run tells-phrases -t 4.5 -d 2 -p 2 "$tmp/c.tsv"
expect 0 ""
expect_out_text "chest pain"

# Threshold 2.7 lets 'congestive heart' (2.722222) in at pass 1; merged
# left to right, it takes 'heart' from 'heart failure' in rows 1-6, so
# pass 2 sees 'congestive_heart failure' (6 times; the 6 'failure' of
# rows 1-6 are left unmerged, n(congestive_heart) = 6, and
# N = 98 - 10 - 6 - 4 = 78):
#   (6 - 2) / (6 * 6) * 78 = 8.666667
what="lower threshold"
run tells-phrases -t 2.7 -d 2 -p 2 --scores "$tmp/c.tsv"
expect 0 ""
expect_out_text "# phrase	count	score
congestive heart failure	6	8.666667
chest pain	10	4.900000
heart failure	10	4.355556
congestive heart	6	2.722222"

# The score must exceed the threshold: with delta 0 'chest pain' scores
# exactly 10 / (10 * 16) * 98 = 6.125 (and 'heart failure' 5.444444).
what="score equal to the threshold"
run tells-phrases -d 0 -t 6.125 "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/nothing"

what="score just above the threshold"
run tells-phrases -d 0 -t 6.12 --scores "$tmp/c.tsv"
expect 0 ""
expect_out_text "# phrase	count	score
chest pain	10	6.125000"

# The defaults (delta 5, threshold 100) find nothing in so small a corpus.
what="defaults"
run tells-phrases "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/nothing"

what="defaults, --scores: the header alone"
run tells-phrases --scores "$tmp/c.tsv"
expect 0 ""
expect_out_text "# phrase	count	score"

# --min-count applies to n(ab) too: 'congestive heart failure' (6) goes
# at 7, both two-word phrases (10) stay until 11.
what="--min-count 7"
run tells-phrases -t 3 -d 2 -p 2 --min-count 7 "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/phrases1.expected"

what="-m 10"
run tells-phrases -t 3 -d 2 -p 2 -m 10 "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/phrases1.expected"

what="-m 11"
run tells-phrases -t 3 -d 2 -p 2 -m 11 "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/nothing"

# --field: premise texts only (N = 24 + 12 + 16 = 52):
#   heart failure (10 - 2) / (18 * 10) * 52 = 2.311111
# hypothesis texts only (N = 30 + 12 + 4 = 46):
#   chest pain    (10 - 2) / (10 * 16) * 46 = 2.3
what="--field premise"
run tells-phrases --field premise -t 2 -d 2 --scores "$tmp/c.tsv"
expect 0 ""
expect_out_text "# phrase	count	score
heart failure	10	2.311111"

what="-F hypothesis"
run tells-phrases -F hypothesis -t 2 -d 2 --scores "$tmp/c.tsv"
expect 0 ""
expect_out_text "# phrase	count	score
chest pain	10	2.300000"

what="-F both"
run tells-phrases -F both -t 3 -d 2 -p 2 --scores "$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/scores2.expected"

# No bigram across texts: 'x y' (premise end, hypothesis start) and
# 'q p' (one row to the next) would count 6 and 5 if texts ran on.
# N = 24; 'p x' and 'y q' score 6 / (6 * 6) * 24 = 4, a tie put in
# phrase order.
what="texts are separate"
i=1
{
    printf 'id\tsplit\tlabel\tpremise\thypothesis\n'
    while [ $i -le 6 ]; do
        printf '%d\ts\tn\tp x\ty q\n' $i
        i=$((i + 1))
    done
} >"$tmp/bound.tsv"
run tells-phrases -t 0 -d 0 -m 5 --scores "$tmp/bound.tsv"
expect 0 ""
expect_out_text "# phrase	count	score
p x	6	4.000000
y q	6	4.000000"

# A '_' in a token (merged by tells-prep) is written as a space.
# N = 18: (6 - 0) / (6 * 6) * 18 = 3.
what="underscores written as spaces"
i=1
{
    printf 'id\tsplit\tlabel\tpremise\thypothesis\n'
    while [ $i -le 6 ]; do
        printf '%d\ts\tn\theart_failure today\tz%d\n' $i $i
        i=$((i + 1))
    done
} >"$tmp/under.tsv"
run tells-phrases -t 0 -d 0 -m 5 --scores "$tmp/under.tsv"
expect 0 ""
expect_out_text "# phrase	count	score
heart failure today	6	3.000000"

# Other ways in: stdin, '-', headerless, CRLF, no final newline, extra
# columns.
what="stdin"
run tells-phrases -t 3 -d 2 -p 2 <"$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/phrases2.expected"

what="stdin as '-'"
run tells-phrases -t 3 -d 2 -p 2 --scores - <"$tmp/c.tsv"
expect 0 ""
expect_out "$tmp/scores2.expected"

what="--no-header"
tail -n +2 "$tmp/c.tsv" >"$tmp/c.nohead"
run tells-phrases --no-header -t 3 -d 2 -p 2 --scores "$tmp/c.nohead"
expect 0 ""
expect_out "$tmp/scores2.expected"

what="CRLF"
awk '{ printf "%s\r\n", $0 }' "$tmp/c.tsv" >"$tmp/crlf.tsv"
run tells-phrases -t 3 -d 2 -p 2 --scores "$tmp/crlf.tsv"
expect 0 ""
expect_out "$tmp/scores2.expected"

what="no final newline"
printf '%s' "$(cat "$tmp/c.tsv")" >"$tmp/nofinal.tsv"
run tells-phrases -t 3 -d 2 -p 2 --scores "$tmp/nofinal.tsv"
expect 0 ""
expect_out "$tmp/scores2.expected"

what="extra columns"
sed '1s/$/	source/; 2,$s/$/	web/' "$tmp/c.tsv" >"$tmp/extra.tsv"
run tells-phrases -t 3 -d 2 -p 2 --scores "$tmp/extra.tsv"
expect 0 ""
expect_out "$tmp/scores2.expected"

# -o: the same bytes, atomically.
mkdir "$tmp/o"
what="-o"
run tells-phrases -t 3 -d 2 -p 2 -o "$tmp/o/phrases.txt" "$tmp/c.tsv"
expect 0 ""
[ -s "$tmp/out" ] && fail "$what: something on stdout"
cmp -s "$tmp/o/phrases.txt" "$tmp/phrases2.expected" || fail "$what: output file differs"
[ "$(ls -a "$tmp/o" | grep -v '^\.\.*$')" = phrases.txt ] ||
    fail "$what: folder holds $(ls -a "$tmp/o" | tr '\n' ' ')"

what="--output replaces a file"
run tells-phrases -t 3 -d 2 -p 2 --scores --output "$tmp/o/phrases.txt" "$tmp/c.tsv"
expect 0 ""
cmp -s "$tmp/o/phrases.txt" "$tmp/scores2.expected" || fail "$what: output file differs"
cp "$tmp/o/phrases.txt" "$tmp/o/phrases.orig"

# Round trip: the corpus as JSONL, through tells-prep, tells-phrases and
# tells-prep --phrases, comes out with the phrases as single tokens
# (longest first: congestive_heart_failure, not congestive heart_failure).
what="round trip"
tail -n +2 "$tmp/c.tsv" | awk -F '\t' '{
    printf "{\"pairID\": \"%s\", \"gold_label\": \"%s\", \"sentence1\": \"%s\", \"sentence2\": \"%s\"}\n", $1, $3, $4, $5
}' >"$tmp/c.jsonl"
# (Rows 11-18 are in the dev split in c.tsv; keep one split here.)
sed 's/	dev	/	train	/' "$tmp/c.tsv" >"$tmp/c-train.tsv"
run tells-prep -q --split train "$tmp/c.jsonl"
expect 0 ""
expect_out "$tmp/c-train.tsv"
run tells-phrases -t 3 -d 2 -p 2 -o "$tmp/learned.txt" "$tmp/c-train.tsv"
expect 0 ""
cmp -s "$tmp/learned.txt" "$tmp/phrases2.expected" || fail "$what: learned phrases differ"
sed 's/congestive heart failure/congestive_heart_failure/; s/ heart failure/ heart_failure/;
     s/chest pain/chest_pain/' "$tmp/c-train.tsv" >"$tmp/merged.expected"
grep -q ' heart failure\|chest pain' "$tmp/merged.expected" &&
    fail "$what: bad expected text"
[ "$(grep -c 'congestive_heart_failure	c[0-9]* chest_pain$' "$tmp/merged.expected")" = 6 ] ||
    fail "$what: bad expected text"
run tells-prep -q --phrases "$tmp/learned.txt" --split train "$tmp/c.jsonl"
expect 0 ""
expect_out "$tmp/merged.expected"

what="round trip with a --scores list"
run tells-prep -q --phrases "$tmp/o/phrases.txt" --split train "$tmp/c.jsonl"
expect 0 ""
expect_out "$tmp/merged.expected"

what="nothing more to learn from merged text"
tells-prep -q --phrases "$tmp/learned.txt" --split train "$tmp/c.jsonl" >"$tmp/merged.tsv"
run tells-phrases -t 3 -d 2 -p 2 "$tmp/merged.tsv"
expect 0 ""
expect_out "$tmp/nothing"

# bad NAME FILE MESSAGE: exit 1 with MESSAGE; with -o the existing file
# stays as it was and no temporary file is left.
bad() {
    what=$1
    run tells-phrases -t 3 -d 2 "$2"
    expect 1 "tells-phrases: $3"
    [ -s "$tmp/out" ] && fail "$what: something on stdout"
    run tells-phrases -t 3 -d 2 -o "$tmp/o/phrases.txt" "$2"
    expect 1 "tells-phrases: $3"
    cmp -s "$tmp/o/phrases.txt" "$tmp/o/phrases.orig" || fail "$what: -o file changed"
    ls -a "$tmp/o" | grep -q '^\.phrases\.txt\.' && fail "$what: temporary file left behind"
}
header_msg="not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)"
bad "JSONL input" "$tmp/c.jsonl" "$tmp/c.jsonl:1: $header_msg"
bad "headerless input" "$tmp/c.nohead" "$tmp/c.nohead:1: $header_msg"
: >"$tmp/empty.tsv"
bad "empty input" "$tmp/empty.tsv" "$tmp/empty.tsv: empty input: expected a prepared TSV header"
bad "missing input" "$tmp/nosuch.tsv" "$tmp/nosuch.tsv: cannot open: No such file or directory"
sed '8s/	c7 chest pain$//' "$tmp/c.tsv" >"$tmp/four.tsv"
bad "row with 4 columns" "$tmp/four.tsv" "$tmp/four.tsv:8: expected 5 tab-separated columns, found 4"
sed '12s/$/	x/' "$tmp/c.tsv" >"$tmp/six.tsv"
bad "row with 6 columns" "$tmp/six.tsv" "$tmp/six.tsv:12: expected 5 tab-separated columns, found 6"
sed '5s/	c4 chest pain$/	/' "$tmp/c.tsv" >"$tmp/nohyp.tsv"
bad "empty hypothesis" "$tmp/nohyp.tsv" "$tmp/nohyp.tsv:5: empty hypothesis"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\ts\tn\tp\tna\357ve\n' >"$tmp/latin1.tsv"
bad "invalid UTF-8" "$tmp/latin1.tsv" "$tmp/latin1.tsv:2: invalid UTF-8"

what="bad stdin"
run tells-phrases <"$tmp/c.nohead"
expect 1 "tells-phrases: stdin:1: $header_msg"

# Usage errors: exit 2, the problem and the Try line, nothing on stdout.
usage() {
    what=$1
    shift
    run tells-phrases "$@"
    expect 2 "$what
Try 'tells-phrases --help' for more information."
    [ -s "$tmp/out" ] && fail "$what: something on stdout"
}
usage "tells-phrases: invalid value '0' for --passes (expected an integer from 1 to 10)" \
    --passes 0 "$tmp/c.tsv"
usage "tells-phrases: invalid value '11' for --passes (expected an integer from 1 to 10)" \
    -p 11 "$tmp/c.tsv"
usage "tells-phrases: invalid value 'two' for --passes (expected an integer from 1 to 10)" \
    --passes two "$tmp/c.tsv"
usage "tells-phrases: invalid value '2x' for --passes (expected an integer from 1 to 10)" \
    --passes=2x "$tmp/c.tsv"
usage "tells-phrases: invalid value '-1' for --passes (expected an integer from 1 to 10)" \
    -p -1 "$tmp/c.tsv"
usage "tells-phrases: invalid value '' for --passes (expected an integer from 1 to 10)" \
    --passes= "$tmp/c.tsv"
usage "tells-phrases: invalid value '-1' for --threshold (expected a number >= 0)" \
    -t -1 "$tmp/c.tsv"
usage "tells-phrases: invalid value 'high' for --threshold (expected a number >= 0)" \
    --threshold high "$tmp/c.tsv"
usage "tells-phrases: invalid value 'inf' for --threshold (expected a number >= 0)" \
    -t inf "$tmp/c.tsv"
usage "tells-phrases: invalid value '-0.5' for --delta (expected a number >= 0)" \
    --delta -0.5 "$tmp/c.tsv"
usage "tells-phrases: invalid value '0' for --min-count (expected an integer >= 1)" \
    -m 0 "$tmp/c.tsv"
usage "tells-phrases: invalid value '2.5' for --min-count (expected an integer >= 1)" \
    --min-count 2.5 "$tmp/c.tsv"
usage "tells-phrases: invalid field 'all' (hypothesis, premise or both)" \
    --field all "$tmp/c.tsv"
usage "tells-phrases: extra operand '$tmp/c.nohead'" "$tmp/c.tsv" "$tmp/c.nohead"
usage "tells-phrases: option requires an argument -- 'p'" -p
usage "tells-phrases: unrecognized option '--scorez'" --scorez "$tmp/c.tsv"
usage "tells-phrases: invalid value '0' for --passes (expected an integer from 1 to 10)" \
    -p 0 -o "$tmp/o/phrases.txt" "$tmp/c.tsv"
cmp -s "$tmp/o/phrases.txt" "$tmp/o/phrases.orig" || fail "usage error: -o file changed"
finish
