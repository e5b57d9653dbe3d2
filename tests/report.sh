#!/bin/sh
# The study's report as a person sees it: rendered by headless Chromium,
# every figure is in the page and drawn, no text of the corpus makes an
# element (a hypothesis "<img src=x onerror=alert(1)>" or "<script>", a
# class named "<i>contradiction</i>" show as text), the page needs no
# network, and a screenshot of it is not blank.
. "${top_srcdir:-.}/tests/init.sh"

chromium=$(command -v chromium || command -v chromium-browser || :)
if [ -z "$chromium" ] || ! command -v python3 >/dev/null; then
    echo "report.sh: chromium or python3 missing (Debian packages chromium, python3): skipped" >&2
    exit 77
fi
# timeout: a page whose script blocks (an alert) must fail, not hang.
browse() {
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/chrome" "$@" 2>>"$tmp/chrome.log"
}

# A corpus whose contradictions carry markup, as a hostile annotator
# might write it, under a class name that is markup too.
awk -v dir="$tmp" 'BEGIN {
    srand(7)
    split("a man a woman two dogs the child some people", subj, " ")
    for (i = 0; i < 150; i++) {
        c = i % 3
        label = c == 0 ? "entailment" : c == 1 ? "neutral" : "<i>contradiction</i>"
        h = subj[1 + int(rand() * 8)] " " (c == 0 ? "is outside" : c == 1 ? "is tall" : \
            (i % 2 ? "<img src=x onerror=alert(1)> sleeps" : "<script>alert(1)</script> naps"))
        split_ = i < 120 ? "train.jsonl" : "test.jsonl"
        gsub(/"/, "\\\"", h)
        printf "{\"sentence1\": \"a scene number %d\", \"sentence2\": \"%s\", \"gold_label\": \"%s\", \"pairID\": \"x%d\"}\n", i, h, label, i > (dir "/" split_)
    }
}' </dev/null
what="tells-study on a corpus with markup"
run tells-study -q -t whitespace -o "$tmp/study" --split train "$tmp/train.jsonl" \
    --split test "$tmp/test.jsonl"
expect 0 ""
html=$tmp/study/report.html
[ -s "$html" ] || { fail "$what: no report.html"; finish; }

# The page as written: no element it did not make, nothing to fetch.
what="report.html as written"
grep -qi '<script\|<img\|<iframe\|<link\|<object\|<embed' "$html" &&
    fail "$what: it has an element it should not: $(grep -oi '<script[^>]*>\|<img[^>]*>\|<iframe\|<link[^>]*>' "$html" | head -n 3)"
grep -qi 'src=["'"'"']\?https\?:\|href=["'"'"']\?https\?:\|@import\|url(' "$html" &&
    fail "$what: it refers to something on the network"
for text in '&lt;img' 'onerror=alert(1)&gt;' '&lt;script&gt;alert(1)&lt;/script&gt;'; do
    grep -qF "$text" "$html" || fail "$what: the corpus's markup $text is not shown as text"
done

# The page as Chromium builds it.
what="report.html in Chromium (DOM)"
browse --dump-dom "file://$html" >"$tmp/dom.html" || fail "$what: chromium failed"
grep -c . "$tmp/dom.html" >/dev/null || fail "$what: empty DOM"
for el in script img iframe object embed; do
    grep -qi "<$el[ >]" "$tmp/dom.html" && fail "$what: a <$el> element exists"
done
grep -q 'onerror=' "$tmp/dom.html" && ! grep -q 'onerror=alert(1)&gt;' "$tmp/dom.html" &&
    fail "$what: an onerror attribute exists"
grep -q '&lt;i&gt;contradiction&lt;/i&gt;' "$tmp/dom.html" ||
    fail "$what: the class name is not shown as text"
grep -q '<i>contradiction</i>' "$tmp/dom.html" && fail "$what: the class name made an <i> element"
# Every figure, drawn: an <svg> with marks inside each <figure>.
for fig in tokens competency length baselines confusion heuristics aflite-rounds logodds pvi \
    datamap compare-partitions aflite-scores partitions; do
    figure_drawn "$tmp/dom.html" "$fig" ||
        fail "$what: figure $fig is missing or empty"
done
grep -q 'figure not drawn' "$tmp/dom.html" && fail "$what: a figure was not drawn"

what="report.html in Chromium (screenshot)"
browse --window-size=1200,2000 --screenshot="$tmp/shot.png" "file://$html" >/dev/null ||
    fail "$what: chromium failed"
if [ -s "$tmp/shot.png" ]; then
    read -r ink colours <<EOF
$(python3 "$top_srcdir/tests/png-stats.py" "$tmp/shot.png")
EOF
    # Text, tables and coloured figures: well above a blank page's 0 and 1.
    awk -v i="$ink" -v c="$colours" 'BEGIN { exit !(i > 0.03 && c > 50) }' ||
        fail "$what: looks blank (ink $ink, $colours colours)"
else
    fail "$what: no screenshot"
fi

# Without gnuplot the report says so instead of a figure, and the study
# still stands.
what="--no-figures"
run tells-study -q --no-figures -t whitespace -o "$tmp/nofig" --split train "$tmp/train.jsonl" \
    --split test "$tmp/test.jsonl"
expect 0 ""
grep -q 'figure not drawn: figures were not asked for' "$tmp/nofig/report.html" ||
    fail "$what: no note in place of the figures"
what="a gnuplot that is not there"
run tells-study -q --gnuplot "$tmp/no-gnuplot" -t whitespace -o "$tmp/nognu" \
    --split train "$tmp/train.jsonl" --split test "$tmp/test.jsonl"
expect 1 "tells-study: $tmp/no-gnuplot: cannot run it to draw the figures: No such file or directory (install gnuplot, Debian package gnuplot-nox, or give --no-figures)"
[ -e "$tmp/nognu" ] && fail "$what: an output folder was left"
ls "$tmp" | grep -q 'nognu\.tmp-' && fail "$what: a temporary folder was left"
finish
