#!/bin/sh
# tells-pmi --measure z: the competency test of Gardner et al. (2021) on
# SNLI dev against a reference computed from the definition with SciPy
# (tests/ref/make-study-ref.py): every token in 5 or more hypotheses,
# z to 1e-6, p-values to their 3 printed digits, the same verdicts; with
# --exact, the exact binomial tails of scipy.stats.binomtest.
. "${top_srcdir:-.}/tests/init.sh"

tells-prep -q -t whitespace -o "$tmp/snli.tsv" --split dev "$corpora/snli/snli_1.0_dev.jsonl"
head_ok() { printf 'class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n' | cmp -s - "$1"; }
# compare REF OUT: every row of OUT against the reference's: n, p_hat and
# z to 1e-6, the printed p (3 digits) against the reference's log p, the
# verdict; as many rows.
compare() {
    awk -F'\t' 'NR == FNR { if (FNR > 1) { ref[$1 "\t" $2] = $0 }; next }
    FNR == 1 { next }
    { key = $1 "\t" $2; seen++
      if (!(key in ref)) { print "not in the reference: " key; bad++; next }
      split(ref[key], r, "\t")
      if ($3 != r[3]) { print key ": n " $3 " vs " r[3]; bad++ }
      d = $4 - r[4]; if (d < 0) d = -d; if (d > 1e-6) { print key ": p_hat " $4 " vs " r[4]; bad++ }
      d = $5 - r[5]; if (d < 0) d = -d; if (d > 1e-6) { print key ": z " $5 " vs " r[5]; bad++ }
      # log of the printed p against the reference log p (3 digits: 5e-3 relative)
      lp = log($6); d = lp - r[6]; if (d < 0) d = -d
      if ($6 > 0 && d > 6e-3) { print key ": p " $6 " vs exp(" r[6] ")"; bad++ }
      if ($7 != r[7]) { print key ": significant " $7 " vs " r[7]; bad++ } }
    END { if (seen != length(ref)) print "rows: " seen " vs " length(ref) " in the reference"
          exit (bad > 0 || seen != length(ref)) }' "$1" "$2"
}

what="--measure z --all"
run tells-pmi --measure z --all "$tmp/snli.tsv"
expect 0 ""
head -n 1 "$tmp/out" >"$tmp/header"
head_ok "$tmp/header" || fail "$what: header $(cat "$tmp/header")"
compare "$data/competency-ref.tsv" "$tmp/out" >"$tmp/diff" ||
    fail "$what differs from the reference: $(head -n 5 "$tmp/diff")"
[ "$(awk -F'\t' '$7 == "yes"' "$tmp/out" | wc -l)" = 64 ] || fail "$what: not 64 significant"

# The exact binomial tail (scipy.stats.binomtest, one-sided): 51 of the
# normal approximation's 64 pairs stay significant, none is added.
what="--measure z --exact --all"
run tells-pmi --measure z --exact --all "$tmp/snli.tsv"
expect 0 ""
head -n 1 "$tmp/out" >"$tmp/header"
head_ok "$tmp/header" || fail "$what: header $(cat "$tmp/header")"
compare "$data/competency-exact-ref.tsv" "$tmp/out" >"$tmp/diff" ||
    fail "$what differs from the reference: $(head -n 5 "$tmp/diff")"
[ "$(awk -F'\t' '$7 == "yes"' "$tmp/out" | wc -l)" = 51 ] || fail "$what: not 51 significant"

what="--measure z, the known SNLI tells"
run tells-pmi --measure z --top 2 "$tmp/snli.tsv"
expect 0 ""
cat >"$tmp/expected" <<'END'
class	token	n	p_hat	z	p_value	significant
contradiction	sleeping	108	0.879630	12.043325	1.05e-33	yes
contradiction	nobody	53	1.000000	10.295630	3.69e-25	yes
entailment	outside	361	0.653740	12.914003	1.88e-38	yes
entailment	there	388	0.634021	12.564268	1.66e-36	yes
neutral	to	846	0.600473	16.482744	2.44e-61	yes
neutral	for	457	0.695842	16.439299	5e-61	yes
END
expect_out "$tmp/expected"
what="--measure z --exact, the known SNLI tells"
run tells-pmi --measure z --exact --top 2 "$tmp/snli.tsv"
expect 0 ""
cat >"$tmp/expected" <<'END'
class	token	n	p_hat	z	p_value	significant
contradiction	sleeping	108	0.879630	12.043325	5.35e-32	yes
contradiction	nobody	53	1.000000	10.295630	5.16e-26	yes
entailment	outside	361	0.653740	12.914003	2.01e-35	yes
entailment	there	388	0.634021	12.564268	1.16e-33	yes
neutral	to	846	0.600473	16.482744	8.47e-57	yes
neutral	for	457	0.695842	16.439299	2.78e-56	yes
END
expect_out "$tmp/expected"

what="bad options"
run tells-pmi --measure odds "$tmp/snli.tsv"
expect 2 "tells-pmi: invalid measure 'odds' (pmi, z, logodds or pmi-published)
Try 'tells-pmi --help' for more information."
run tells-pmi --alpha 0.05 "$tmp/snli.tsv"
expect 2 "tells-pmi: --alpha, --class-prior and --exact go with --measure z
Try 'tells-pmi --help' for more information."
run tells-pmi --exact "$tmp/snli.tsv"
expect 2 "tells-pmi: --alpha, --class-prior and --exact go with --measure z
Try 'tells-pmi --help' for more information."
run tells-pmi --measure z --alpha 2 "$tmp/snli.tsv"
expect 2 "tells-pmi: invalid value '2' for --alpha (expected a number > 0 and < 1)
Try 'tells-pmi --help' for more information."
what="one class"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\ta\tx\tp\th\n' >"$tmp/one.tsv"
run tells-pmi --measure z "$tmp/one.tsv"
expect 1 "tells-pmi: one class only: nothing to test"
finish
