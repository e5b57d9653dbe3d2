#!/bin/sh
# tells-heur: the planted heuristics of the synthetic corpus are found with
# their classes, unplanted ones are not, SNLI dev gives its table, the
# statistic and p-value agree with SciPy and mpmath, and the data folder is
# found through TELLS_DATA.
. "${top_srcdir:-.}/tests/init.sh"

TELLS_DATA=$corpora
export TELLS_DATA
# The synthetic corpus was planted on MeSH 2017: its tests link as earlier
# runs did (--mesh: headings on exact tokens, the built-ins for 2017).
mesh=$corpora/mesh/mtrees2017.txt

# --- the synthetic corpus, MeSH terms merged as the main job does ---
tells-prep -q --mesh "$mesh" -o "$tmp/synth.tsv" \
    --split train "$corpora/synthetic/train.jsonl" \
    --split dev "$corpora/synthetic/dev.jsonl" \
    --split test "$corpora/synthetic/test.jsonl"
what="synthetic corpus"
run tells-heur --mesh "$mesh" --pairs "$tmp/pairs.tsv" "$tmp/synth.tsv"
expect 0 ""
expect_out "$data/heur-synth.out"
cp "$tmp/out" "$tmp/synth.out"
# Each planted heuristic: its class on top and p < 1e-10; the planted
# counts of KEY.tsv are found exactly for two of them (probable-cause also
# counts the token artifact "history of alcohol drinking").
awk -F'\t' -v key="$corpora/synthetic/KEY.tsv" '
    BEGIN { while ((getline l < key) > 0) { split(l, f, "\t")
                if (f[1] == "heuristic") { cls[f[2]] = f[3]; planted[f[2]] = f[5] } } }
    NR == 1 { for (i = 9; i <= NF; i++) col[$i] = i; next }
    $1 in cls { seen++
        split($5, m, "e-"); if (!(m[2] + 0 > 10 || $5 == 0)) print $1 ": p " $5
        if ($7 != cls[$1]) print $1 ": top class " $7 ", planted " cls[$1]
        n = $(col[cls[$1]]); if (n < planted[$1]) print $1 ": " n " < planted " planted[$1]
        if ($1 != "probable-cause" && n != planted[$1]) print $1 ": " n " != " planted[$1] }
    END { if (seen != 3) print "found " seen " of 3 planted heuristics" }
' "$tmp/synth.out" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "planted heuristics: $(cat "$tmp/bad")"

what="--pairs"
[ "$(head -n 1 "$tmp/pairs.tsv")" = "id	split	label	heuristic	premise_concepts	hypothesis_concepts	cues" ] ||
    fail "$what: header"
[ "$(($(wc -l <"$tmp/pairs.tsv") - 1))" = "$(awk -F'\t' 'NR > 1 { s += $2 } END { print s }' "$tmp/synth.out")" ] ||
    fail "$what: not one line per satisfying pair"
grep -F 'synth-00001	train	entailment	hypernym	Gastrointestinal Hemorrhage (D006471 C23.550.414.788)	Hemorrhage (D006470 C23.550.414)	-' \
    "$tmp/pairs.tsv" >/dev/null || fail "$what: synth-00001"
grep -F 'synth-00000	train	contradiction	everything-fine	Vertigo (D014717)	Vertigo (D014717)	no' \
    "$tmp/pairs.tsv" >/dev/null || fail "$what: synth-00000"
grep -F 'synth-00013	train	contradiction	everything-fine	Osteoporosis (D010024)	Osteoporosis (D010024)	does not have' \
    "$tmp/pairs.tsv" >/dev/null || fail "$what: phrase cue"
grep -F 'synth-00008	train	neutral	probable-cause	' "$tmp/pairs.tsv" |
    grep -F 'Alcohol Drinking (D000428 F01.145.317.269)' >/dev/null || fail "$what: merged token"

what="balanced classes: class-prior is uniform"
run tells-heur --mesh "$mesh" --expected class-prior "$tmp/synth.tsv"
expect 0 ""
expect_out "$tmp/synth.out"

what="stdin and two files are one corpus"
head -n 2000 "$tmp/synth.tsv" >"$tmp/a.tsv"
{ head -n 1 "$tmp/synth.tsv"; tail -n +2001 "$tmp/synth.tsv"; } >"$tmp/b.tsv"
run tells-heur --mesh "$mesh" "$tmp/a.tsv" - <"$tmp/b.tsv"
expect 0 ""
expect_out "$tmp/synth.out"

what="--split"
run tells-heur --mesh "$mesh" --split dev --split test "$tmp/synth.tsv"
expect 0 ""
awk -F'\t' 'NR == 1 || $2 != "train"' "$tmp/synth.tsv" | tells-heur --mesh "$mesh" >"$tmp/devtest" ||
    fail "$what: filtered run"
expect_out "$tmp/devtest"

what="--hypernym-direction specific (not planted)"
run tells-heur --mesh "$mesh" --hypernym-direction specific "$tmp/synth.tsv"
expect 0 ""
[ "$(sed -n 2p "$tmp/out")" = "hypernym	0	-	-	-	-	-	-	0	0	0" ] ||
    fail "$what: $(sed -n 2p "$tmp/out")"

# --- controls: nothing planted, nothing found ---
what="control heuristic (premise only)"
run tells-heur --mesh "$mesh" -H "$data/heur-control.heur" "$tmp/synth.tsv"
expect 0 ""
[ "$(tail -n 1 "$tmp/out" | cut -f1-8)" = "symptom-in-premise	4488	0.000000	2	1	chi2	contradiction	0.333333" ] ||
    fail "$what: $(tail -n 1 "$tmp/out")"
what="tells-synth --no-artifacts"
tells-synth --no-artifacts -o "$tmp/na" >/dev/null
tells-prep -q --mesh "$mesh" -o "$tmp/na.tsv" --split train "$tmp/na/train.jsonl" \
    --split dev "$tmp/na/dev.jsonl" --split test "$tmp/na/test.jsonl"
run tells-heur --mesh "$mesh" "$tmp/na.tsv"
expect 0 ""
expect_out "$data/heur-no-artifacts.out"
awk -F'\t' 'NR > 1 && $5 < 0.01 { print $1 " p " $5 }' "$tmp/out" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "$what: significant: $(cat "$tmp/bad")"

# --- SNLI dev ---
what="SNLI dev"
tells-prep -q -t whitespace -o "$tmp/snli.tsv" --split dev "$corpora/snli/snli_1.0_dev.jsonl"
run tells-heur "$tmp/snli.tsv"
expect 0 ""
expect_out "$data/heur-snli.out"
what="SNLI dev, MeSH 2017 headings as before"
run tells-heur --mesh "$mesh" "$tmp/snli.tsv"
expect 0 ""
expect_out "$data/heur-snli-2017.out"

# --- a user heuristic with a built-in's name replaces it, in place ---
what="replacing a built-in"
printf 'F01.145.958.500\tSmoking\n' >"$tmp/smoking.tsv"
printf 'heuristic probable-cause\npremise-tree C D E F\nhypothesis-tree @smoking.tsv\n' >"$tmp/pc.heur"
run tells-heur --mesh "$mesh" -H "$tmp/pc.heur" "$tmp/synth.tsv"
expect 0 ""
[ "$(cut -f1 "$tmp/out" | tr '\n' ' ')" = "heuristic hypernym probable-cause everything-fine " ] ||
    fail "$what: order"
[ "$(sed -n 3p "$tmp/out" | cut -f2)" -lt "$(sed -n 3p "$tmp/synth.out" | cut -f2)" ] ||
    fail "$what: smoking alone should be fewer"
what="--no-builtin"
run tells-heur --mesh "$mesh" --no-builtin -H "$tmp/pc.heur" "$tmp/synth.tsv"
expect 0 ""
[ "$(cut -f1 "$tmp/out" | tr '\n' ' ')" = "heuristic probable-cause " ] || fail "$what"

# --- synonyms: "patient" as Patients is stop-listed for everything-fine ---
what="--synonyms"
printf 'smoker\tD012907\n' >"$tmp/syn.tsv"
run tells-heur --mesh "$mesh" --synonyms "$tmp/syn.tsv" "$tmp/synth.tsv"
expect 0 ""
[ "$(sed -n 3p "$tmp/out" | cut -f2)" -gt "$(sed -n 3p "$tmp/synth.out" | cut -f2)" ] ||
    fail "$what: 'smoker' should add probable-cause pairs"

# --- the statistic against SciPy and mpmath (tests/data/heur-ref.tsv) ---
# Each case becomes a corpus whose hypotheses hold the marker token as often
# as the counts say; the table is compared at 1e-9 relative (chi2 has 6
# decimals, so also 1e-6 absolute), p or, where SciPy gives 0, log p, and
# the test that gave p (exact where a class expects fewer than 5 pairs).
tail -n +2 "$data/heur-ref.tsv" | while IFS='	' read -r name counts rows chi2 test p logp; do
    what="reference $name"
    awk -v counts="$counts" -v rows="$rows" 'BEGIN {
        print "id\tsplit\tlabel\tpremise\thypothesis"
        k = split(counts, c, ","); if (rows != "-") split(rows, r, ",")
        for (i = 1; i <= k; i++) {
            total = rows == "-" ? c[i] + 1 : r[i]
            for (j = 0; j < total; j++)
                printf "%s-%d\ts\tc%d\tp\t%s\n", i, j, i, j < c[i] ? "zzmark" : "other" } }' \
        >"$tmp/ref.tsv"
    expected=uniform
    [ "$rows" = "-" ] || expected=class-prior
    run tells-heur --mesh "$data/heur-tree.txt" --no-builtin -H "$data/heur-marker.heur" \
        --expected $expected --digits 17 "$tmp/ref.tsv"
    expect 0 ""
    tail -n 1 "$tmp/out" | awk -F'\t' -v chi2="$chi2" -v p="$p" -v logp="$logp" -v name="$name" \
        -v test="$test" '
        function rel(a, b) { return b == 0 ? (a < 0 ? -a : a) : ((a - b) < 0 ? b - a : a - b) / (b < 0 ? -b : b) }
        { d = $3 - chi2; d = d < 0 ? -d : d
          if (d > 1e-6 && rel($3, chi2) > 1e-9) print name ": chi2 " $3 " want " chi2
          if ($6 != test) print name ": test " $6 " want " test
          if (p + 0 > 0) { if (rel($5 + 0, p) > 1e-9) print name ": p " $5 " want " p }
          else { split($5, m, "e"); got = log(m[1]) + m[2] * log(10)
                 if (rel(got, logp) > 1e-9) print name ": log p " got " want " logp } }
    ' >"$tmp/bad"
    [ -s "$tmp/bad" ] && fail "$(cat "$tmp/bad")"
done

# Twelve even classes and 40 pairs, a class expecting 3.3 of them: the
# exact test, but C(51, 11) outcomes, so 100,000 draws seeded with --seed:
# the same seed, the same p.
what="the exact test by Monte Carlo"
awk 'BEGIN { print "id\tsplit\tlabel\tpremise\thypothesis"
    k = split("8,4,3,3,3,3,3,3,3,3,2,2", c, ",")
    for (i = 1; i <= k; i++) for (j = 0; j <= c[i]; j++)
        printf "%s-%d\ts\tc%02d\tp\t%s\n", i, j, i, j < c[i] ? "zzmark" : "other" }' >"$tmp/mc.tsv"
run tells-heur --mesh "$data/heur-tree.txt" --no-builtin -H "$data/heur-marker.heur" --seed 5 \
    "$tmp/mc.tsv"
expect 0 ""
cp "$tmp/out" "$tmp/mc.out"
[ "$(tail -n 1 "$tmp/out" | cut -f 1,2,4,6,7)" = "marker	40	11	monte-carlo	c01" ] ||
    fail "$what: $(tail -n 1 "$tmp/out")"
run tells-heur --mesh "$data/heur-tree.txt" --no-builtin -H "$data/heur-marker.heur" --seed 5 \
    "$tmp/mc.tsv"
expect 0 ""
expect_out "$tmp/mc.out"

# --- the data folder ---
what="TELLS_DATA names the folder"
mkdir -p "$tmp/data/mesh" "$tmp/data/lexicons"
cp "$data/heur-tree.txt" "$tmp/data/mesh/mtrees2024.txt"
cp "$corpora/lexicons/"* "$tmp/data/lexicons/"
run env TELLS_DATA="$tmp/data" tells-heur --no-terms --no-stem --no-builtin \
    -H "$tmp/data/lexicons/heuristics.heur" "$tmp/synth.tsv"
expect 0 ""
[ "$(sed -n 2p "$tmp/out" | cut -f2)" -lt "$(sed -n 2p "$tmp/synth.out" | cut -f2)" ] ||
    fail "$what: the small tree file was not used"
what="--mesh wins over TELLS_DATA"
run env TELLS_DATA="$tmp/data" tells-heur --mesh "$mesh" "$tmp/synth.tsv"
expect 0 ""
expect_out "$tmp/synth.out"
what="TELLS_DATA without the files"
mkdir "$tmp/empty"
run env TELLS_DATA="$tmp/empty" tells-heur "$tmp/synth.tsv"
expect 1 "tells-heur: $tmp/empty/mesh/mtrees2024.txt: cannot open: no such file (install tells, set TELLS_DATA to the corpora folder of its source tree, or name the file)"
run env TELLS_DATA="$tmp/empty" tells-heur --mesh "$mesh" "$tmp/synth.tsv"
expect 1 "tells-heur: $tmp/empty/lexicons/heuristics.heur: cannot open: no such file (install tells, set TELLS_DATA to the corpora folder of its source tree, or name the file)"
run env TELLS_DATA="$tmp/empty" tells-heur --mesh "$mesh" --no-builtin -H "$data/heur-control.heur" "$tmp/synth.tsv"
expect 0 ""
what="unset TELLS_DATA: from the build tree, the source tree's corpora"
(unset TELLS_DATA; run tells-heur "$tmp/synth.tsv"; expect 0 ""; exit $failures) ||
    failures=$((failures + 1))
what="unset TELLS_DATA: elsewhere, the installed folder of --help"
pkgdata=$(tells-heur --help | sed -n '/make install filled:$/{n;s/^ *//;p;}')
[ -n "$pkgdata" ] || fail "$what: --help does not name it"
mkdir -p "$tmp/bin"
cp "$top_builddir/src/tells-heur" "$tmp/bin/"
if [ ! -e "$pkgdata/mesh/mtrees2024.txt" ]; then
    (unset TELLS_DATA; run "$tmp/bin/tells-heur" "$tmp/synth.tsv"
     expect 1 "tells-heur: $pkgdata/mesh/mtrees2024.txt: cannot open: no such file (install tells, set TELLS_DATA to the corpora folder of its source tree, or name the file)"
     exit $failures) || failures=$((failures + 1))
fi
run env TELLS_DATA= tells-heur --mesh "$mesh" --no-builtin -H "$data/heur-control.heur" "$tmp/synth.tsv"
expect 0 ""
finish
