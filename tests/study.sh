#!/bin/sh
# The main job runs on the bundled corpora, and the README's tables from it
# (the <!-- study CORPUS FILE COLUMNS --> blocks) are what it produces.
. "${top_srcdir:-.}/tests/init.sh"

what="tools/tells-study"
run "$top_srcdir/tools/tells-study" -q -o "$tmp/study" snli synthetic
expect 0 ""
for f in snli/pmi.tsv snli/len.tsv snli/baseline.tsv synthetic/pmi.tsv synthetic/len.tsv \
    synthetic/baseline.tsv synthetic/predictions.tsv synthetic/audit.tsv synthetic/flags.tsv \
    snli/heur.tsv snli/heur-pairs.tsv synthetic/heur.tsv synthetic/heur-pairs.tsv; do
    [ -s "$tmp/study/$f" ] || fail "$what: no $f"
done

# Each README block under <!-- study CORPUS FILE COLUMNS --> equals those
# columns (cut -f) of that table.
awk -v dir="$tmp" '
    /^<!-- study [a-z]+ [a-z.]+ [0-9-]+ -->$/ { name = $3 "/" $4 " " $5; n++; next }
    name && /^```text$/ { out = dir "/readme" n; print name > (dir "/readme" n ".name"); next }
    out && /^```$/ { out = ""; name = ""; next }
    out { print > out }
' "$top_srcdir/README.md"
found=0
for name in "$tmp"/readme*.name; do
    [ -f "$name" ] || continue
    found=$((found + 1))
    block=${name%.name}
    read -r table columns <"$name"
    what="README table $table"
    cut -f "$columns" "$tmp/study/$table" >"$tmp/got"
    cmp -s "$block" "$tmp/got" || { fail "$what differs from the main job's"; diff "$block" "$tmp/got" >&2; }
done
[ $found -ge 1 ] || fail "no README table to check"
finish
