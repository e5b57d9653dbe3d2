#!/bin/sh
# Counts are mergeable: --emit-counts on shards and --from-counts over them
# give a table byte-identical to one run over the whole corpus; damaged
# counts files are refused.
. "${top_srcdir:-.}/tests/init.sh"

tells-prep -q -t whitespace -o "$tmp/snli.tsv" --split dev "$corpora/snli/snli_1.0_dev.jsonl" ||
    fail "prep"
for opts in "--all" "--all --binary --field both" "--top 20 --smoothing 100"; do
    what="shards ($opts)"
    # shellcheck disable=SC2086
    tells-pmi $opts "$tmp/snli.tsv" >"$tmp/whole" || fail "$what: whole"
    rm -f "$tmp"/shard.*
    tail -n +2 "$tmp/snli.tsv" | (cd "$tmp" && split -l 3000 - shard.)
    [ "$(ls "$tmp"/shard.* | wc -l)" = 4 ] || fail "$what: expected 4 shards"
    field=hypothesis
    case $opts in *both*) field=both ;; esac
    for s in "$tmp"/shard.*; do
        tells-pmi --no-header --emit-counts --field $field -o "$s.counts" "$s" ||
            fail "$what: emit $s"
    done
    # shellcheck disable=SC2086
    run tells-pmi --from-counts $opts "$tmp"/shard.*.counts
    expect 0 ""
    expect_out "$tmp/whole"
done

# Through a pipe, the header kept on the first shard only.
what="counts from stdin"
tells-pmi --emit-counts "$tmp/snli.tsv" >"$tmp/all.counts"
run sh -c "tells-pmi --from-counts - <'$tmp/all.counts'"
expect 0 ""
tells-pmi "$tmp/snli.tsv" >"$tmp/whole"
expect_out "$tmp/whole"

what="truncated counts"
head -n 100 "$tmp/all.counts" >"$tmp/trunc.counts"
run tells-pmi --from-counts "$tmp/trunc.counts"
expect 1 "tells-pmi: $tmp/trunc.counts:100: truncated counts file"

what="counts for another field"
run tells-pmi --from-counts --field premise "$tmp/all.counts"
expect 1 "tells-pmi: $tmp/all.counts:2: counts are for field 'hypothesis', not 'premise'"

what="not a counts file"
run tells-pmi --from-counts "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/snli.tsv:1: not a tells counts file (made by tells-pmi --emit-counts)"

what="corrupt row"
sed '10s/	[0-9]*	/	x	/' "$tmp/all.counts" >"$tmp/bad.counts"
run tells-pmi --from-counts "$tmp/bad.counts"
expect 1 "tells-pmi: $tmp/bad.counts:10: malformed counts row"

# Numbers that do not fit, or that contradict each other: each counts
# file on its own, and the sums over several files, must fit in 64 bits,
# and a token is in no more examples of a class than the class has.
# counts NAME EXAMPLES ROW...: a counts file of class e with EXAMPLES
# examples and the rows given (token<TAB>class<TAB>count<TAB>docs).
counts() {
    name=$1 examples=$2
    shift 2
    {
        printf 'tells-counts\t1\nfield\thypothesis\nexamples\te\t%s\n' "$examples"
        printf 'token\tclass\tcount\tdocs\n'
        for row in "$@"; do printf '%s\n' "$row"; done
        printf 'end\t%s\n' $#
    } >"$tmp/$name.counts"
}
max=18446744073709551615
half=9223372036854775808
counts ok 2 "a	e	3	2" "b	e	1	1"
counts count 2 "a	e	18446744073709551616	1"
counts docs 2 "a	e	18446744073709551616000	1"
counts examples 100000000000000000000000 "a	e	3	2"
counts over-examples 2 "a	e	3	3"
counts over-count 5 "a	e	2	3"
counts no-docs 5 "a	e	2	0"
counts twice 5 "a	e	2	1" "b	e	1	1" "a	e	1	1"
counts max 2 "a	e	$max	1"
counts half 2 "a	e	$half	1"
counts half2 2 "b	e	$half	1"
counts max-examples $max "a	e	1	1"
what="counts that do not fit"
run tells-pmi --from-counts "$tmp/count.counts"
expect 1 "tells-pmi: $tmp/count.counts:5: count 18446744073709551616 is larger than $max"
sed 's/^a	e	[0-9]*	1$/a	e	1	18446744073709551616000/' "$tmp/docs.counts" >"$tmp/docs2.counts"
run tells-pmi --from-counts "$tmp/docs2.counts"
expect 1 "tells-pmi: $tmp/docs2.counts:5: docs 18446744073709551616000 is larger than $max"
run tells-pmi --from-counts "$tmp/examples.counts"
expect 1 "tells-pmi: $tmp/examples.counts:3: examples 100000000000000000000000 is larger than $max"
what="more docs than examples or than the count, a count in no example"
run tells-pmi --from-counts "$tmp/over-examples.counts"
expect 1 "tells-pmi: $tmp/over-examples.counts:5: docs 3 is more than the 2 examples of class 'e'"
run tells-pmi --from-counts "$tmp/over-count.counts"
expect 1 "tells-pmi: $tmp/over-count.counts:5: docs 3 is more than count 2"
run tells-pmi --from-counts "$tmp/no-docs.counts"
expect 1 "tells-pmi: $tmp/no-docs.counts:5: count 2 in no example (docs 0)"
what="a row or an examples line twice"
run tells-pmi --from-counts "$tmp/twice.counts"
expect 1 "tells-pmi: $tmp/twice.counts:7: token 'a' of class 'e' listed twice (first on line 5)"
sed '3p' "$tmp/ok.counts" >"$tmp/ex-twice.counts"
run tells-pmi --from-counts "$tmp/ex-twice.counts"
expect 1 "tells-pmi: $tmp/ex-twice.counts:4: examples of class 'e' given twice (first on line 3)"
what="sums over files that do not fit"
run tells-pmi --from-counts --min-count 1 "$tmp/max.counts"
expect 0 ""
run tells-pmi --from-counts "$tmp/ok.counts" "$tmp/max.counts"
expect 1 "tells-pmi: $tmp/max.counts:5: the counts add up to more than $max"
run tells-pmi --from-counts "$tmp/half.counts" "$tmp/half2.counts"
expect 1 "tells-pmi: $tmp/half2.counts:5: the counts add up to more than $max"
cat "$tmp/half.counts" "$tmp/half2.counts" >"$tmp/halves.counts"
run tells-pmi --from-counts "$tmp/halves.counts"
expect 1 "tells-pmi: $tmp/halves.counts:11: the counts add up to more than $max"
run tells-pmi --from-counts "$tmp/max-examples.counts" "$tmp/ok.counts"
expect 1 "tells-pmi: $tmp/ok.counts:3: the examples add up to more than $max"
what="a concatenated file's rows need its own examples line"
{ cat "$tmp/ok.counts"; sed 3d "$tmp/ok.counts"; } >"$tmp/no-ex.counts"
run tells-pmi --from-counts "$tmp/no-ex.counts"
expect 1 "tells-pmi: $tmp/no-ex.counts:11: class 'e' has no examples line"

what="emit and from"
run tells-pmi --emit-counts --from-counts "$tmp/all.counts"
expect 2 "tells-pmi: --emit-counts and --from-counts cannot be combined
Try 'tells-pmi --help' for more information."
finish
