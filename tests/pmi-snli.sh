#!/bin/sh
# On SNLI dev, tells-pmi finds the artifacts Gururangan et al. (2018)
# report, and every value agrees with an independent awk computation.
. "${top_srcdir:-.}/tests/init.sh"

what="prep snli"
run tells-prep -q -t whitespace -o "$tmp/snli.tsv" \
    --split dev "$corpora/snli/snli_1.0_dev.jsonl"
expect 0 ""

what="pmi snli top"
run tells-pmi --smoothing 100 --min-count 5 "$tmp/snli.tsv"
expect 0 ""
head -n 1 "$tmp/out" | grep -qx 'class	token	pmi	count	class_share' ||
    fail "$what: bad header"
[ "$(grep -c '^contradiction	' "$tmp/out")" = 15 ] || fail "$what: not 15 rows"
for tok in sleeping nobody cat; do
    grep -q "^contradiction	$tok	" "$tmp/out" || fail "$what: $tok not in contradiction top 15"
done
for tok in outdoors outside; do
    grep -q "^entailment	$tok	" "$tmp/out" || fail "$what: $tok not in entailment top 15"
done

# compare OPTIONS AWKVARS: every row of tells-pmi --all against the
# reference: same rows, counts equal, pmi and class_share within 1e-6.
compare() {
    what="pmi vs reference ($1)"
    run tells-pmi --all $1 "$tmp/snli.tsv"
    expect 0 ""
    # shellcheck disable=SC2086
    awk $2 -f "$top_srcdir/tests/pmi-reference.awk" "$tmp/snli.tsv" >"$tmp/ref"
    [ "$(wc -l <"$tmp/ref")" -gt 1000 ] || fail "$what: reference too small"
    awk -F '\t' 'NR == FNR { ref[$1 "\t" $2] = $0; n++; next }
        FNR == 1 { next }
        {
            key = $1 "\t" $2
            if (!(key in ref)) { print "extra row " key; bad++; next }
            split(ref[key], r, "\t")
            d1 = $3 - r[3]; if (d1 < 0) d1 = -d1
            d2 = $5 - r[5]; if (d2 < 0) d2 = -d2
            if (d1 > 1e-6 || d2 > 1e-6 || $4 != r[4]) { print "differs " $0 " / " ref[key]; bad++ }
            m++
        }
        END { if (m != n) { print m " rows, reference has " n; bad++ } exit bad > 0 }' \
        "$tmp/ref" "$tmp/out" >"$tmp/cmp" || { fail "$what"; head "$tmp/cmp" >&2; }
}
compare "--smoothing 100 --min-count 5" "-v k=100 -v mincount=5 -v field=hypothesis"
compare "--smoothing 50 --min-count 3 --binary --field both" \
    "-v k=50 -v mincount=3 -v binary=1 -v field=both"
compare "--smoothing 0.5 --min-count 1 --field premise" \
    "-v k=0.5 -v mincount=1 -v field=premise"
finish
