#!/bin/sh
# tells-pmi --measure logodds (Monroe et al. 2008) and --measure
# pmi-published (the MedNLI study's published code) on SNLI dev against
# the references of tests/ref/make-measures-ref.py: every row, in the same
# order, numbers to 1e-6; counts of shards merge to the same bytes; prior
# files and their bad input.
. "${top_srcdir:-.}/tests/init.sh"

tells-prep -q -t whitespace -o "$tmp/snli.tsv" --split dev "$corpora/snli/snli_1.0_dev.jsonl" ||
    fail "prep"

# compare REF OUT COLUMNS: same keys in the same order, the given numeric
# columns within 1e-6, the others equal.
compare() {
    awk -F'\t' -v cols="$3" 'BEGIN { split(cols, num, ","); for (i in num) isnum[num[i]] = 1 }
        NR == FNR { if (FNR > 1) { ref[FNR] = $0 }; nref = FNR; next }
        FNR == 1 { next }
        { split(ref[FNR], r, "\t"); seen++
          if ($1 != r[1] || $2 != r[2]) { print "row " FNR ": " $1 " " $2 " vs " r[1] " " r[2]; bad++; next }
          for (i = 3; i <= NF; i++) {
              if (i in isnum) { d = $i - r[i]; if (d < 0) d = -d
                                if (d > 1e-6) { print $1 " " $2 ": column " i " " $i " vs " r[i]; bad++ } }
              else if ($i != r[i]) { print $1 " " $2 ": column " i " " $i " vs " r[i]; bad++ } } }
        END { if (seen != nref - 1) { print "rows: " seen " vs " nref - 1; bad++ }
              exit bad > 0 }' "$1" "$2"
}

what="--measure logodds --all"
run tells-pmi --measure logodds --all "$tmp/snli.tsv"
expect 0 ""
compare "$data/logodds-ref.tsv" "$tmp/out" 4,5,6 >"$tmp/diff" ||
    fail "$what differs from the reference: $(head -n 5 "$tmp/diff")"

what="--measure logodds, the top tokens"
run tells-pmi --measure logodds --top 2 "$tmp/snli.tsv"
expect 0 ""
cat >"$tmp/expected" <<'END'
class	token	count	delta	var	z
contradiction	sleeping	95	0.748099	0.013191	6.513691
contradiction	nobody	53	0.923436	0.028302	5.489076
entailment	outside	236	0.463511	0.003733	7.586666
entailment	there	247	0.438278	0.003456	7.455735
neutral	to	543	0.335783	0.001508	8.646735
neutral	for	321	0.451981	0.002950	8.321840
END
expect_out "$tmp/expected"

what="--measure pmi-published --all"
run tells-pmi --measure pmi-published --all "$tmp/snli.tsv"
expect 0 ""
# The reference keeps p(w|c); tells prints it as the code's percentage.
awk -F'\t' 'BEGIN { OFS = "\t" } NR > 1 { $5 = sprintf("%.2f%%", 100 * $5) } { print }' \
    "$data/pmi-published-ref.tsv" >"$tmp/published-ref"
compare "$tmp/published-ref" "$tmp/out" 3 >"$tmp/diff" ||
    fail "$what differs from the reference: $(head -n 5 "$tmp/diff")"

what="--measure pmi-published, scikit-learn's words"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n' >"$tmp/words.tsv"
i=0
for h in "The Dog's bone" "dog_house A1 x" "Über dog “quoted”" "dog, dog!" "cats and THE dogs"; do
    i=$((i + 1))
    printf '%s\ttrain\t%s\tp\t%s\n' "$i" "$([ $i -le 3 ] && echo a || echo b)" "$h" >>"$tmp/words.tsv"
done
run tells-pmi --measure pmi-published --min-count 1 --all --smoothing 1 "$tmp/words.tsv"
expect 0 ""
cut -f 1,2,4 "$tmp/out" >"$tmp/words"
cat >"$tmp/expected" <<'END'
class	token	count
a	a1	1
a	bone	1
a	dog_house	1
a	quoted	1
a	über	1
a	dog	2
b	cats	1
b	dogs	1
b	dog	2
END
cmp -s "$tmp/expected" "$tmp/words" || fail "$what: $(diff "$tmp/expected" "$tmp/words")"

for measure in logodds pmi-published; do
    what="$measure from shards"
    tells-pmi --measure $measure --all "$tmp/snli.tsv" >"$tmp/whole" || fail "$what: whole"
    rm -f "$tmp"/shard.*
    tail -n +2 "$tmp/snli.tsv" | (cd "$tmp" && split -l 3000 - shard.)
    for s in "$tmp"/shard.??; do
        tells-pmi --measure $measure --no-header --emit-counts -o "$s.counts" "$s" ||
            fail "$what: emit $s"
    done
    run tells-pmi --measure $measure --all --from-counts "$tmp"/shard.*.counts
    expect 0 ""
    expect_out "$tmp/whole"
done

what="words counts read as token counts"
run tells-pmi --measure logodds --from-counts "$tmp/shard.aa.counts"
expect 1 "tells-pmi: $tmp/shard.aa.counts:7: counts of scikit-learn words (--measure pmi-published), not of prepared tokens"
tells-pmi --emit-counts -o "$tmp/tokens.counts" "$tmp/snli.tsv"
run tells-pmi --measure pmi-published --from-counts "$tmp/tokens.counts"
expect 1 "tells-pmi: $tmp/tokens.counts:6: counts of prepared tokens, not of scikit-learn words (--measure pmi-published)"

what="--prior: the corpus's own counts as a file give the default table"
tells-pmi --measure logodds --all "$tmp/snli.tsv" >"$tmp/default"
run tells-pmi --measure logodds --all --prior "$tmp/tokens.counts" "$tmp/snli.tsv"
expect 0 ""
expect_out "$tmp/default"
awk -F'\t' 'NR > 2 && NF == 4 && $1 != "token" { n[$1] += $3 } END { for (t in n) print t "\t" n[t] }' \
    "$tmp/tokens.counts" | sort | sed '1i token\tcount' >"$tmp/prior.tsv"
run tells-pmi --measure logodds --all --prior "$tmp/prior.tsv" "$tmp/snli.tsv"
expect 0 ""
expect_out "$tmp/default"

what="--prior-scale"
run tells-pmi --measure logodds --top 1 --prior-scale 0.5 "$tmp/snli.tsv"
expect 0 ""
tells-pmi --emit-counts "$tmp/snli.tsv" | awk -F'\t' 'NF == 4 && $1 != "token" { print $2 "\t" $1 "\t" $3 }' |
    sed '1i class\ttoken\tcount' >"$tmp/shard.all"
awk -F'\t' 'NR == FNR { if (FNR > 1) { y[$1 "\t" $2] = $3; tot[$2] += $3; n[$1] += $3; N += $3 }; next }
    FNR > 1 { a = 0.5 * tot[$2]; a0 = 0.5 * N; yc = y[$1 "\t" $2]; yr = tot[$2] - yc
        d = log((yc + a) / (n[$1] + a0 - yc - a)) - log((yr + a) / (N - n[$1] + a0 - yr - a))
        v = 1 / (yc + a) + 1 / (yr + a); z = d / sqrt(v); e = z - $6; if (e < 0) e = -e
        if (e > 1e-5) print $1, $2, z, $6 }' "$tmp/shard.all" "$tmp/out" >"$tmp/diff"
[ -s "$tmp/diff" ] && fail "$what: $(head -n 3 "$tmp/diff")"
[ "$(wc -l <"$tmp/out")" = 4 ] || fail "$what: $(cat "$tmp/out")"

what="prior counts so far apart that the odds overflow (a fuzz finding)"
printf 'man\t1e300\nsleeping\t1e-300\n' >"$tmp/apart.tsv"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\td\te\ta\ta man is sleeping\n2\td\tc\ta\tnobody is sleeping\n3\td\tn\ta\ta man\n' >"$tmp/apart-in.tsv"
run tells-pmi --measure logodds --prior "$tmp/apart.tsv" --min-count 1 "$tmp/apart-in.tsv"
expect 1 "tells-pmi: the log-odds of token 'sleeping' overflow: prior counts too small or too large"

what="prior with a negative count"
printf 'token\tcount\nthe\t10\ndog\t-1\n' >"$tmp/neg.tsv"
run tells-pmi --measure logodds --prior "$tmp/neg.tsv" "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/neg.tsv:3: negative count '-1'"
what="prior with a bad count"
printf 'the\t1e999\n' >"$tmp/bad.tsv"
run tells-pmi --measure logodds --prior "$tmp/bad.tsv" "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/bad.tsv:1: invalid count '1e999'"
what="prior with a token twice"
printf 'the\t1\na\t2\nthe\t3\n' >"$tmp/twice.tsv"
run tells-pmi --measure logodds --prior "$tmp/twice.tsv" "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/twice.tsv:3: token 'the' listed twice (first on line 1)"
what="prior with three columns"
printf 'the\t1\tx\n' >"$tmp/three.tsv"
run tells-pmi --measure logodds --prior "$tmp/three.tsv" "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/three.tsv:1: expected 2 tab-separated columns (token, count)"
what="empty prior"
: >"$tmp/empty.tsv"
run tells-pmi --measure logodds --prior "$tmp/empty.tsv" "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/empty.tsv: no prior counts"
what="prior of zeros"
printf 'the\t0\n' >"$tmp/zero.tsv"
run tells-pmi --measure logodds --prior "$tmp/zero.tsv" "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/zero.tsv: the prior counts sum to 0"
what="missing prior"
run tells-pmi --measure logodds --prior "$tmp/nonexistent" "$tmp/snli.tsv"
expect 1 "tells-pmi: $tmp/nonexistent: cannot open: No such file or directory"

what="bad options"
run tells-pmi --prior "$tmp/prior.tsv" "$tmp/snli.tsv"
expect 2 "tells-pmi: --prior and --prior-scale go with --measure logodds
Try 'tells-pmi --help' for more information."
run tells-pmi --measure logodds --prior-scale 0 "$tmp/snli.tsv"
expect 2 "tells-pmi: invalid value '0' for --prior-scale (expected a number > 0)
Try 'tells-pmi --help' for more information."
run tells-pmi --measure pmi-published --binary "$tmp/snli.tsv"
expect 2 "tells-pmi: --binary does not go with --measure pmi-published (the published code counts occurrences)
Try 'tells-pmi --help' for more information."
finish
