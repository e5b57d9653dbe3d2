#!/bin/sh
# Sharded counting on a real engine: GNU parallel (Debian's `parallel`)
# counts the shards of SNLI dev, one tells-pmi --emit-counts per shard,
# and tells-pmi --from-counts merges them into the table one pass over the
# whole file gives, byte for byte, for every measure. The README's recipe.
. "${top_srcdir:-.}/tests/init.sh"

if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    echo "GNU parallel is not installed: skipped" >&2
    exit 77
fi
tells-prep -q -t whitespace -o "$tmp/snli.tsv" --split dev "$corpora/snli/snli_1.0_dev.jsonl" ||
    fail "prep"
tail -n +2 "$tmp/snli.tsv" | (cd "$tmp" && split -l 2000 - shard.)
for measure in pmi z logodds pmi-published; do
    what="--measure $measure under GNU parallel"
    rm -f "$tmp"/*.counts
    (cd "$tmp" && ls shard.?? | parallel -j 2 --halt now,fail=1 \
        tells-pmi --measure $measure --no-header --emit-counts -o {}.$measure.counts {}) ||
        fail "$what: the shards"
    run tells-pmi --measure $measure --all --from-counts "$tmp"/shard.*.$measure.counts
    expect 0 ""
    tells-pmi --measure $measure --all "$tmp/snli.tsv" >"$tmp/whole"
    expect_out "$tmp/whole"
done

# The Hadoop Streaming shape (a map-only job, then one merge): each mapper
# reads its split on stdin and emits its counts; the part files, read
# concatenated from one pipe, are merged.
what="mapper and merge"
for s in "$tmp"/shard.??; do
    tells-pmi --measure logodds --no-header --emit-counts - <"$s" >"$s.part" || fail "$what: map"
done
cat "$tmp"/shard.??.part | tells-pmi --measure logodds --all --from-counts - >"$tmp/out" ||
    fail "$what: merge"
tells-pmi --measure logodds --all "$tmp/snli.tsv" >"$tmp/whole"
expect_out "$tmp/whole"
finish
