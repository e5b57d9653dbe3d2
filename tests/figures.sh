#!/bin/sh
# The study's figures as a person reads them (tests/svg-check.py says what
# is checked): a three-class and a two-class corpus, every figure checked
# in its SVG; then the checker shown to fail on figures drawn the old way
# (a blurred confusion matrix, region names over the data map, no values
# on the bars).
. "${top_srcdir:-.}/tests/init.sh"

if ! command -v python3 >/dev/null || ! command -v gnuplot >/dev/null; then
    echo "figures.sh: python3 or gnuplot missing (Debian packages python3, gnuplot-nox): skipped" >&2
    exit 77
fi
tells-synth -o "$tmp/c" --premises 400 --seed 5 || fail "tells-synth failed"
for s in train test; do
    grep -v '"neutral"' "$tmp/c/$s.jsonl" >"$tmp/c/two-$s.jsonl"
done

for corpus in three two; do
    what="figures of a $corpus-class corpus"
    prefix=
    [ "$corpus" = two ] && prefix=two-
    run tells-study -q -o "$tmp/$corpus" --split train "$tmp/c/${prefix}train.jsonl" \
        --split test "$tmp/c/${prefix}test.jsonl"
    expect 0 ""
    for fig in tokens competency length baselines confusion heuristics aflite-rounds \
        aflite-scores partitions logodds pvi datamap compare-partitions pair-overlap \
        pair-flags; do
        [ -s "$tmp/$corpus/figures/$fig.svg" ] || fail "$what: no $fig.svg"
    done
    python3 "$top_srcdir/tests/svg-check.py" "$tmp/$corpus" >"$tmp/problems" ||
        fail "$what: the checker failed"
    [ -s "$tmp/problems" ] && fail "$what: $(cat "$tmp/problems")"
    # The confusion matrix: one cell per pair of classes.
    k=$(awk 'END { print NR - 1 }' "$tmp/$corpus/figures/confusion.dat")
    [ "$corpus" = two ] && [ "$k" != 4 ] && fail "$what: $k cells in confusion.dat"
    [ "$corpus" = three ] && [ "$k" != 9 ] && fail "$what: $k cells in confusion.dat"
    # The Verdicts list: every pair row once, the classifier's under its
    # own words ("pair:FEATURE" does not name "pair:classifier").
    sed -n '/<h2 id="verdicts">/,/<\/ul>/p' "$tmp/$corpus/report.html" >"$tmp/verdicts"
    n=$(grep -c 'Overlap leans' "$tmp/verdicts")
    [ "$n" = 1 ] || fail "$what: the overlap sentence $n times in the Verdicts list"
    n=$(grep -c 'reads only these 10 pair features' "$tmp/verdicts")
    [ "$n" = 1 ] || fail "$what: the classifier's sentence $n times in the Verdicts list"
    grep 'reads only these 10 pair features' "$tmp/verdicts" | grep -q 'The way the pairs' &&
        fail "$what: the classifier's sentence with a feature's words"
done

# The checker fails on figures drawn as they were: the matrix as a
# smoothed image, the regions' names over the points, bars without
# values.
what="svg-check.py on figures drawn the old way"
cd "$tmp/three/figures" || exit 1
sed -i 's/with boxxyerror.*notitle, \\$/with image notitle, \\/' confusion.gp
sed -i "s/^set title 'easy-to-learn.*/set label 'easy-to-learn' at graph 0.05, graph 0.95 front/" datamap.gp
sed -i '/with labels offset/d; s/pt 0 notitle, \\$/pt 0 notitle/' baselines.gp
gnuplot confusion.gp datamap.gp baselines.gp 2>"$tmp/gp.log" || fail "$what: gnuplot: $(cat "$tmp/gp.log")"
cd "$tmp" || exit 1
python3 "$top_srcdir/tests/svg-check.py" "$tmp/three" >"$tmp/problems"
for problem in "confusion: 1 bordered cells for 3 classes" \
    "datamap: region label 'easy-to-learn' over the data" \
    "baselines: bar majority class has no value printed"; do
    grep -qF "$problem" "$tmp/problems" || fail "$what: not found: $problem (found: $(cat "$tmp/problems"))"
done
finish
