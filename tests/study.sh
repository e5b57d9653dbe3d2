#!/bin/sh
# The main job, tells-study without a corpus, runs on the bundled corpora;
# the README's tables from it (the <!-- study CORPUS FILE COLUMNS -->
# blocks) are what it produces, and its verdicts are what the corpora
# should give.
. "${top_srcdir:-.}/tests/init.sh"

what="tells-study (bundled corpora)"
run tells-study -o "$tmp/study"
expect 0 ""
# The verdicts of each corpus, and last where the tables are.
[ "$(tail -n 1 "$tmp/out")" = "tells-study: tables written under $tmp/study/" ] ||
    fail "$what: last line $(tail -n 1 "$tmp/out")"
grep -q "^tells-study: $tmp/study/snli/summary.tsv, $tmp/study/snli/report.html\$" "$tmp/out" ||
    fail "$what: the SNLI study's files not named"
for f in snli/pmi.tsv snli/len.tsv snli/baseline.tsv synthetic/pmi.tsv synthetic/len.tsv \
    synthetic/baseline.tsv synthetic/predictions.tsv synthetic/audit.tsv synthetic/flags.tsv \
    snli/heur.tsv snli/heur-pairs.tsv synthetic/heur.tsv synthetic/heur-pairs.tsv \
    snli/hypothesis.npy snli/aflite.tsv snli/easy.ids snli/difficult.ids snli/partitions.tsv \
    synthetic/hypothesis.npy synthetic/aflite.tsv synthetic/easy.ids synthetic/difficult.ids \
    synthetic/partitions.tsv snli/summary.tsv snli/report.html synthetic/summary.tsv \
    synthetic/report.html snli/competency.tsv snli/pair-baseline.tsv ade/capabilities.tsv \
    ade/report.html; do
    [ -s "$tmp/study/$f" ] || fail "$what: no $f"
done
for c in snli synthetic; do
    for f in logodds.tsv pvi.tsv pvi-summary.tsv low-pvi.ids high-pvi.ids carto.tsv \
        carto-easy.ids carto-ambiguous.ids carto-hard.ids compare-partitions.tsv; do
        [ -s "$tmp/study/$c/$f" ] || fail "$what: no $c/$f"
    done
done

# PVI's g_x is partitions.tsv's cross-validated model: tells-pvi with the
# study's seed and its choice of settings (--tune) writes the same pvi.tsv, and its accuracy is the full one.
what="the study's PVI"
run tells-pvi -q --tune --seed 1 "$tmp/study/synthetic/prepared.tsv"
expect 0 ""
expect_out "$tmp/study/synthetic/pvi.tsv"
for c in synthetic snli; do
    awk -F'\t' 'NR == FNR { if ($1 == "fasttext" && $4 == "full") full = $8; next }
        $1 == "cartography" { if (index($10, sprintf("accuracy_full=%.6f", full)) == 0)
                                  print "partitions " full ", " $10 }' \
        "$tmp/study/$c/partitions.tsv" "$tmp/study/$c/summary.tsv" >"$tmp/bad"
    [ -s "$tmp/bad" ] && fail "$what on $c: $(cat "$tmp/bad")"
done
# On the synthetic corpus the examples with a planted token have higher
# PVI and are easy-to-learn far more often.
awk -F'\t' 'FILENAME ~ /KEY/ { if ($1 == "token") tok[$2] = $3; next }
    FILENAME ~ /prepared/ { if (FNR > 1) { n = split($5, w, " "); a = 0
        for (i = 1; i <= n; i++) if (tok[w[i]] == $3) a = 1; planted[$1] = a }; next }
    FILENAME ~ /ids$/ { easy[$1] = 1; next }
    FNR > 1 { a = planted[$1]; tot[a]++; pvi[a] += $3; if ($1 in easy) e[a]++ }
    END { if (!(pvi[1] / tot[1] > pvi[0] / tot[0] + 1 && e[1] / tot[1] >= 3 * e[0] / tot[0]))
              printf "planted: PVI %.3f, %.3f easy; others: PVI %.3f, %.3f easy\n",
                  pvi[1] / tot[1], e[1] / tot[1], pvi[0] / tot[0], e[0] / tot[0] }' \
    "$corpora/synthetic/KEY.tsv" "$tmp/study/synthetic/prepared.tsv" \
    "$tmp/study/synthetic/carto-easy.ids" "$tmp/study/synthetic/pvi.tsv" \
    >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "PVI and cartography on the synthetic corpus: $(cat "$tmp/bad")"

# AFLite on the synthetic corpus: hypotheses that carry a token planted for
# their class land in the easy partition far more often than the others,
# and hypothesis-only accuracy on the difficult partition is far below the
# full set's; on SNLI dev too.
s=$tmp/study/synthetic
awk -F'\t' 'FILENAME ~ /KEY/ { if ($1 == "token") tok[$2] = $3; next }
    FILENAME ~ /ids$/ { easy[$1] = 1; next }
    FNR > 1 { n = split($5, w, " "); a = 0; for (i = 1; i <= n; i++) if (tok[w[i]] == $3) a = 1
              tot[a]++; if ($1 in easy) e[a]++ }
    END { r1 = e[1] / tot[1]; r0 = e[0] / tot[0]
          if (!(r1 >= 1.5 * r0)) printf "planted %.3f easy, others %.3f\n", r1, r0 }' \
    "$corpora/synthetic/KEY.tsv" "$s/easy.ids" "$s/prepared.tsv" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "AFLite on the synthetic corpus: $(cat "$tmp/bad")"
for c in synthetic snli; do
    awk -F'\t' '$1 == "fasttext" { acc[$4] = $8 }
        END { if (!(acc["difficult"] <= acc["full"] - 0.1 && acc["easy"] >= acc["full"] + 0.1))
                  print "full " acc["full"] ", easy " acc["easy"] ", difficult " acc["difficult"] }' \
        "$tmp/study/$c/partitions.tsv" >"$tmp/bad"
    [ -s "$tmp/bad" ] && fail "AFLite on $c: $(cat "$tmp/bad")"
done

# Verdicts: SNLI dev and the synthetic corpus have hypothesis-only
# shortcuts, the premise helps on SNLI, the planted tokens and heuristics
# show, and the audited batch's planted token is found. AFLite's
# partitions are described, not tested (defined on the rows they score).
verdict() {
    awk -F'\t' -v c="$2" -v s="$3" '$1 == c { found = 1; if ($9 != s) print c ": significant " $9 }
        END { if (!found) print c ": no row" }' "$tmp/study/$1/summary.tsv" >"$tmp/bad"
    [ -s "$tmp/bad" ] && fail "$1 verdict $(cat "$tmp/bad")"
}
verdict snli hypothesis_only yes
verdict snli token:nobody:contradiction yes
verdict snli token:sleeping:contradiction yes
verdict snli aflite -
verdict synthetic aflite -
verdict snli v_information yes
verdict synthetic v_information yes
verdict synthetic hypothesis_only yes
verdict synthetic token:healthy:contradiction yes
verdict synthetic heuristic:hypernym yes
verdict synthetic audit:batch.jsonl:token:stat yes
verdict synthetic audit:batch.jsonl:heuristic:hypernym yes
verdict synthetic audit:batch.jsonl:label_balance no
# One q per test, that of its family, named in detail: the primary checks
# (the tested rows but token: and audit:) one family; a token row's q is
# min(1, m p) of its own family; an audit row's q is audit.tsv's, in the
# audit's family. The report gives each q with its family.
for c in snli synthetic; do
    awk -F'\t' 'NR == FNR { if (FNR > 1) q["audit:" $1 ":" $2] = $8; next }
        FNR == 1 || $7 == "-" { next }
        $1 ~ /^audit:/ { if (q[$1] != $8) print $1 ": q " $8 ", in audit.tsv " q[$1]
                         if ($10 !~ / family=audit\([0-9]+\)$/) print $1 ": " $10; next }
        $1 ~ /^token:/ { if ($10 !~ / family=tokens\([0-9]+,bonferroni\)$/) print $1 ": " $10
                         next }
        { m++; if (!match($10, / family=primary\([0-9]+\)$/)) print $1 ": " $10
          else fam = substr($10, RSTART + 16, RLENGTH - 17) }
        END { if (fam != m) print "primary family " fam " for " m " tested rows" }' \
        "$tmp/study/synthetic/audit.tsv" "$tmp/study/$c/summary.tsv" >"$tmp/bad"
    [ -s "$tmp/bad" ] && fail "families of $c: $(cat "$tmp/bad")"
    grep -q ' primary checks)\.</li>' "$tmp/study/$c/report.html" ||
        fail "$c: no q over the primary checks in the report"
done
# The V-information is tested by a t-test, its p no resampling floor.
awk -F'\t' '$1 == "v_information" { if ($10 !~ /^test=one_sample_t alternative=greater df=4499 / ||
                                            !($7 + 0 < 1e-100)) print $7 " " $10 }' \
    "$tmp/study/synthetic/summary.tsv" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "synthetic v_information: $(cat "$tmp/bad")"
head -n 1 "$tmp/study/snli/summary.tsv" >"$tmp/got"
printf 'check\tvalue\treference\teffect\tci_low\tci_high\tp_value\tq_value\tsignificant\tdetail\n' \
    >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "summary.tsv header: $(cat "$tmp/got")"

# The length verdict is Kruskal-Wallis as SciPy computes it on SNLI dev
# (tests/ref/make-study-ref.py).
awk -F'\t' 'NR == FNR { if (FNR == 2) { h = $1; p = $2 }; next }
    $1 == "length" { d = $2 - h; if (d < 0) d = -d; r = $7 / p - 1; if (r < 0) r = -r
                     if (d > 1e-5 || r > 5e-3) print "H " $2 " p " $7 " vs " h " " p }' \
    "$data/kruskal-ref.tsv" "$tmp/study/snli/summary.tsv" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "SNLI length: $(cat "$tmp/bad")"

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
