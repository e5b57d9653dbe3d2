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

what="emit and from"
run tells-pmi --emit-counts --from-counts "$tmp/all.counts"
expect 2 "tells-pmi: --emit-counts and --from-counts cannot be combined
Try 'tells-pmi --help' for more information."
finish
