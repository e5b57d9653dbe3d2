#!/bin/sh
# --redact and tells-leaks. A synthetic corpus with planted text: a unique
# phrase in a premise, another in a hypothesis and in a batch, a token in
# the neutral hypotheses of fewer than 10 premises (withheld) and one in
# more (shown). The redacted study passes its own leak check and
# tells-leaks, holds none of the planted text, names the frequent token and
# withholds the rare one, and has every number, row and figure of the
# study without --redact; keyed ids are HMAC-SHA256 as Python computes
# them; every redacting program's output passes tells-leaks; the leak
# check finds text however it is written (markup, entities, split by
# inline tags, NumPy strings) and says where it came from.
. "${top_srcdir:-.}/tests/init.sh"

tells-synth --seed 11 --premises 240 --plant xylophonist=neutral:25 \
    --plant quokka=neutral:150 -o "$tmp/c" >/dev/null
# A unique phrase in the premise of line 3, another in the hypothesis of
# line 7; the batch repeats the corpus's first rows with a third.
awk 'NR == 3 { sub(/"sentence1": "/, "&Zorblax quintessential marmalade fjord. ") }
     NR == 7 { sub(/"sentence2": "/, "&The theremin of Okonkwo hums softly. ") } { print }' \
    "$tmp/c/train.jsonl" >"$tmp/c/t" && mv "$tmp/c/t" "$tmp/c/train.jsonl"
# Its neutral hypotheses (of 20 premises) all say "nimbus": a token of
# the batch alone, frequent enough to be named.
head -n 60 "$tmp/c/dev.jsonl" | sed -e 's/"pairID": "synth-/"pairID": "batch-/' \
    -e '5s/"sentence2": "/&Purple walrus sings opera tonight. /' \
    -e '/"gold_label": "neutral"/s/"sentence2": "/&Nimbus. /' >"$tmp/batch.jsonl"
corpus="--split train $tmp/c/train.jsonl --split dev $tmp/c/dev.jsonl --split test $tmp/c/test.jsonl"
inputs="$tmp/c/train.jsonl $tmp/c/dev.jsonl $tmp/c/test.jsonl $tmp/batch.jsonl"
premises_with() {   # the premises of the corpus whose group has the word
    cat "$tmp/c/train.jsonl" "$tmp/c/dev.jsonl" "$tmp/c/test.jsonl" | grep -i "$1" |
        sed 's/.*"sentence1": "\([^"]*\)".*/\1/' | sort -u | wc -l | tr -d ' '
}
n_rare=$(premises_with xylophonist)
n_freq=$(premises_with quokka)
[ "$n_rare" -ge 5 ] && [ "$n_rare" -lt 10 ] || fail "setup: xylophonist in $n_rare premises"
[ "$n_freq" -ge 10 ] || fail "setup: quokka in $n_freq premises"

what="the study without --redact leaks, and tells-leaks says where"
run tells-study -q -o "$tmp/open" --batch "$tmp/batch.jsonl" $corpus
expect 0 ""
run tells-leaks "$tmp/open" $inputs
[ "$status" = 1 ] || fail "$what: exit $status"
grep -q "^tells-leaks: $tmp/open/prepared.tsv:2: '.*' is corpus text ($tmp/c/train.jsonl:1)\$" \
    "$tmp/err" || fail "$what: $(cat "$tmp/err")"
grep -q "^tells-leaks: $tmp/open/batch.tsv:" "$tmp/err" || fail "$what: batch.tsv not found"
grep -q "^tells-leaks: [0-9]* of [0-9]* files hold corpus text\$" "$tmp/err" ||
    fail "$what: no count"

what="the redacted study"
run tells-study -q --redact -o "$tmp/shared" --batch "$tmp/batch.jsonl" $corpus
expect 0 ""
for f in prepared.tsv batch.tsv heur-pairs.tsv hypothesis.npy; do
    [ ! -e "$tmp/shared/$f" ] || fail "$what: $f is in the folder"
done
run tells-leaks "$tmp/shared" $inputs
expect 0 ""
[ "$(cat "$tmp/out")" = "tells-leaks: $tmp/shared: $(find "$tmp/shared" -type f | wc -l | tr -d ' ') files, no corpus text (4-word runs, words of fewer than 10 premises)" ] ||
    fail "$what: $(cat "$tmp/out")"
for w in zorblax marmalade theremin okonkwo walrus xylophonist "$tmp"; do
    ! grep -rqi "$w" "$tmp/shared" || fail "$what: '$w' is in $(grep -rli "$w" "$tmp/shared")"
done
grep -q "quokka" "$tmp/shared/competency.tsv" || fail "$what: quokka withheld"
grep -q "^batch.jsonl	token:nimbus	" "$tmp/shared/audit.tsv" ||
    fail "$what: the batch's token nimbus is not named"

grep -q "^neutral	quokka	" "$tmp/open/competency.tsv" || fail "$what: quokka not tested"
grep -q "^neutral	xylophonist	" "$tmp/open/competency.tsv" ||
    fail "$what: xylophonist not in the open study's competency table"
grep -q "^neutral	\[withheld\]	" "$tmp/shared/competency.tsv" ||
    fail "$what: no withheld row"
# The same numbers: every table and summary row, token names aside.
mask() {   # token names out of a table: its token column, token:W
    awk -F'\t' -v OFS='\t' -v col="$2" '{ if (col) $col = "T"; print }' "$1" |
        sed 's/token:[^:	,]*/token:T/g' | LC_ALL=C sort
}
for f in summary.tsv competency.tsv pmi.tsv logodds.tsv audit.tsv flags.tsv pvi.tsv \
    baseline.tsv partitions.tsv carto.tsv aflite.tsv heur.tsv pairs.tsv; do
    case $f in competency.tsv|pmi.tsv|logodds.tsv) col=2 ;; *) col=0 ;; esac
    mask "$tmp/open/$f" $col >"$tmp/a"
    mask "$tmp/shared/$f" $col >"$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "$what: $f differs from the open study's: $(diff "$tmp/a" "$tmp/b" | head -4)"
done
[ "$(cd "$tmp/open/figures" && ls *.svg)" = "$(cd "$tmp/shared/figures" && ls *.svg)" ] ||
    fail "$what: not the same figures"
grep -q '<p class="redacted"><strong>Redacted for sharing.</strong>' "$tmp/shared/report.html" ||
    fail "$what: the page does not say it is redacted"
grep -q 'at least 10 different premises (K = 10)' "$tmp/shared/report.html" ||
    fail "$what: the page does not give K"
grep -q '"cwd": null' "$tmp/shared/run.json" || fail "$what: run.json has the folder"
grep -q '"path": "train.jsonl"' "$tmp/shared/run.json" || fail "$what: a path is not cut"
grep -q '"command": "tells-study -q --redact -o shared --batch batch.jsonl --split train train.jsonl' \
    "$tmp/shared/run.json" || fail "$what: $(grep command "$tmp/shared/run.json")"
grep -q '"min_examples": 10' "$tmp/shared/run.json" || fail "$what: run.json lacks K"

what="the redacted page in Chromium: the banner and every figure, drawn"
chromium=$(command -v chromium || command -v chromium-browser || :)
if [ -n "$chromium" ]; then
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/chrome" --dump-dom "file://$tmp/shared/report.html" \
        >"$tmp/dom.html" 2>>"$tmp/chrome.log" || fail "$what: chromium failed"
    grep -q 'class="redacted"><strong>Redacted for sharing.</strong>' "$tmp/dom.html" ||
        fail "$what: no banner in the DOM"
    figs=$(grep -o '<figure id="fig-[a-z-]*"' "$tmp/open/report.html" | sed 's/.*"fig-//; s/"//')
    [ "$(echo "$figs" | wc -l)" -ge 13 ] || fail "$what: the open study has $(echo "$figs" | wc -l) figures"
    for fig in $figs; do
        figure_drawn "$tmp/dom.html" "$fig" ||
            fail "$what: figure $fig is missing or empty"
    done
else
    echo "redact.sh: chromium missing: the page's check in a browser skipped" >&2
fi

what="--min-examples 20 withholds quokka too"
run tells-study -q --redact --min-examples 20 --no-figures -o "$tmp/k20" $corpus
expect 0 ""
if [ "$n_freq" -lt 20 ]; then
    ! grep -q quokka "$tmp/k20/competency.tsv" || fail "$what: quokka shown"
fi
run tells-leaks -k 20 "$tmp/k20" $inputs
expect 0 ""

what="a leak the study makes is caught before the folder is written"
run tells-study -q --redact --name "zorblax quintessential marmalade fjord" --no-figures \
    -o "$tmp/named" $corpus
expect 1 "tells-study: the redacted study failed its leak check: report.html, line 5: 'zorblax quintessential marmalade fjord' is corpus text ($tmp/c/train.jsonl:3); the folder was not written (please report this)"
[ ! -e "$tmp/named" ] || fail "$what: the folder was written"

what="--id-key: ids are HMAC-SHA256 of the key, 96 bits in hex"
head -c 32 /dev/urandom >"$tmp/key"
printf 'short' >"$tmp/short"
run tells-study -q --redact --id-key "$tmp/key" --no-figures -o "$tmp/keyed" $corpus
expect 0 ""
grep -q '"keyed_ids": true' "$tmp/keyed/run.json" || fail "$what: run.json"
! grep -rq 'synth-' "$tmp/keyed" || fail "$what: an id of the corpus is in $(grep -rl synth- "$tmp/keyed")"
python3 -c '
import hmac, hashlib, sys, json
key = open(sys.argv[1], "rb").read()
for path in sys.argv[2:]:
    for line in open(path):
        i = json.loads(line)["pairID"]
        print(hmac.new(key, i.encode(), hashlib.sha256).hexdigest()[:24])
' "$tmp/key" "$tmp/c/train.jsonl" "$tmp/c/dev.jsonl" "$tmp/c/test.jsonl" | sort >"$tmp/want-ids"
tail -n +2 "$tmp/keyed/folds.tsv" | cut -f1 | sort >"$tmp/got-ids"
cmp -s "$tmp/want-ids" "$tmp/got-ids" || fail "$what: the ids are not Python's HMAC"
run tells-prep -q --id-key "$tmp/key" --split train "$tmp/c/train.jsonl"
expect 0 ""
cut -f1 "$tmp/out" | tail -n +2 | sort >"$tmp/prep-ids"
[ "$(wc -l <"$tmp/prep-ids")" = "$(wc -l <"$tmp/c/train.jsonl")" ] ||
    fail "$what: tells-prep wrote $(wc -l <"$tmp/prep-ids") ids"
[ "$(comm -23 "$tmp/prep-ids" "$tmp/got-ids" | wc -l)" = 0 ] || fail "$what: tells-prep's ids differ"
run tells-prep -q --id-key "$tmp/short" --split train "$tmp/c/train.jsonl"
expect 1 "tells-prep: $tmp/short: a key needs at least 16 bytes, this file has 5 (make one with: head -c 32 /dev/urandom > FILE)"
run tells-study -q --id-key "$tmp/short" -o "$tmp/x" $corpus
expect 1 "tells-study: $tmp/short: a key needs at least 16 bytes, this file has 5 (make one with: head -c 32 /dev/urandom > FILE)"
[ ! -e "$tmp/x" ] || fail "$what: a folder after a bad key"

what="usage errors"
run tells-study --min-examples 5 -o "$tmp/x" $corpus
expect 2 "tells-study: --min-examples is the least a token shown under --redact needs
Try 'tells-study --help' for more information."
run tells-study --redact --folds-only -o "$tmp/x" $corpus
expect 2 "tells-study: --folds-only writes the prepared corpus for models of your own; --redact is for a study to share
Try 'tells-study --help' for more information."
run tells-study --redact --keep-vectors -o "$tmp/x" $corpus
expect 2 "tells-study: --keep-vectors keeps the corpus's words: not with --redact
Try 'tells-study --help' for more information."
run tells-study --redact -o "$tmp/x"
expect 2 "tells-study: --redact needs a corpus (the bundled ones are public)
Try 'tells-study --help' for more information."
run tells-study --id-key "$tmp/key" -o "$tmp/x" "$tmp/open/prepared.tsv"
expect 2 "tells-study: --id-key needs the corpus as distributed (--split NAME FILE): a prepared TSV keeps its ids; tells-prep --id-key makes one
Try 'tells-study --help' for more information."
run tells-pmi --redact --from-counts "$tmp/open/prepared.tsv"
expect 2 "tells-pmi: --redact needs one prepared FILE with its header (its premises decide what is shown), and writes no counts
Try 'tells-pmi --help' for more information."
run tells-run --redact -t "$data/run/templates.tsv" --fill ade="$data/run/ade.txt" \
    --fill drug="$data/run/drug.txt" --emit-cases "$tmp/x"
expect 2 "tells-run: --emit-cases writes the cases' text: not with --redact
Try 'tells-run --help' for more information."
run tells-leaks "$tmp/shared"
expect 2 "tells-leaks: missing CORPUS after '$tmp/shared'
Try 'tells-leaks --help' for more information."

what="every redacting program"
p=$tmp/open/prepared.tsv
mkdir "$tmp/progs"
run tells-pmi --redact --measure z --all "$p" -o "$tmp/progs/z.tsv"
expect 0 ""
grep -q '^neutral	\[withheld\]	' "$tmp/progs/z.tsv" || fail "$what: tells-pmi withholds nothing"
grep -q '^neutral	quokka	' "$tmp/progs/z.tsv" || fail "$what: tells-pmi withholds quokka"
# Tied rows: a withheld token after the shown ones, not in its place by
# name (banana, in 4 premises, would sort between apple and cherry).
awk 'BEGIN { OFS = "\t"; print "id", "split", "label", "premise", "hypothesis"
    for (i = 1; i <= 12; i++) {
        print "a" i, "t", "entailment", "p" i, "apple is here"
        print "c" i, "t", "entailment", "p" i, "cherry is here"
        print "n" i, "t", "neutral", "p" i, "is here" }
    for (i = 1; i <= 4; i++) for (j = 1; j <= 3; j++)
        print "b" i "-" j, "t", "entailment", "q" i, "banana is here" }' >"$tmp/ties.tsv"
run tells-pmi --redact --measure z --exact --all "$tmp/ties.tsv"
expect 0 ""
[ "$(awk -F'\t' '$1 == "entailment" && $3 == 12 { printf "%s ", $2 }' "$tmp/out")" = "apple cherry [withheld] " ] ||
    fail "$what: tied rows: $(awk -F'\t' '$1 == "entailment" { printf "%s ", $2 }' "$tmp/out")"
run tells-pmi --redact "$p" -o "$tmp/progs/pmi.tsv"
expect 0 ""
run tells-pvi -q --redact --tokens "$tmp/progs/pvi-tokens.tsv" --min-count 3 "$p" \
    -o "$tmp/progs/pvi.tsv"
expect 0 ""
grep -q '	\[withheld\]	' "$tmp/progs/pvi-tokens.tsv" || fail "$what: tells-pvi withholds nothing"
run tells-heur --redact --pairs "$tmp/progs/pairs.tsv" "$p" -o "$tmp/progs/heur.tsv"
expect 0 ""
[ "$(head -n 1 "$tmp/progs/pairs.tsv")" = "id	split	label	heuristic" ] ||
    fail "$what: tells-heur --pairs: $(head -n 1 "$tmp/progs/pairs.tsv")"
run tells-concepts --redact "$p" -o "$tmp/progs/concepts.tsv"
expect 0 ""
[ "$(head -n 1 "$tmp/progs/concepts.tsv")" = "descriptor	tree_numbers	examples	premises" ] ||
    fail "$what: tells-concepts: $(head -n 1 "$tmp/progs/concepts.tsv")"
awk -F'\t' 'NR > 1 && $4 < 10 { bad = 1 } END { exit bad }' "$tmp/progs/concepts.tsv" ||
    fail "$what: tells-concepts shows a descriptor of fewer than 10 premises"
tells-prep -q -o "$tmp/b.tsv" --split new "$tmp/batch.jsonl"
run tells-audit -q --redact --reference "$p" --flags "$tmp/progs/flags.tsv" "$tmp/b.tsv" \
    -o "$tmp/progs/audit.tsv"
expect 0 ""
grep -q "	token:nimbus	" "$tmp/progs/audit.tsv" || fail "$what: tells-audit withholds nimbus"
# At K = 25 nimbus (20 premises) is withheld, and still flags its rows.
run tells-audit -q --reference "$p" --flags "$tmp/open-flags.tsv" "$tmp/b.tsv"
run tells-audit -q --redact --min-examples 25 --reference "$p" --flags "$tmp/progs/flags25.tsv" \
    "$tmp/b.tsv"
expect 0 ""
grep -q "	token:\[withheld\]	" "$tmp/out" || fail "$what: tells-audit -k 25 names nimbus"
n_open=$(grep -c "token:nimbus" "$tmp/open-flags.tsv")
n_shut=$(grep -c "token:\[withheld\]" "$tmp/progs/flags25.tsv")
[ "$n_open" -gt 0 ] && [ "$n_open" = "$n_shut" ] ||
    fail "$what: nimbus flags $n_open rows, withheld $n_shut"
small="-t $data/run/templates.tsv --fill ade=$data/run/ade.txt --fill drug=$data/run/drug.txt --tokenizer none"
run tells-run $small --redact --model-cmd "$data/run/model.sh" --classes 0,1 \
    --failures "$tmp/progs/failures.csv"
expect 0 ""
[ "$(head -n 1 "$tmp/progs/failures.csv")" = 'case,template,capability,label,type,expected,predicted,"p_0","p_1"' ] ||
    fail "$what: tells-run --failures: $(head -n 1 "$tmp/progs/failures.csv")"
run tells-run $small --redact --by-template --model-cmd "$data/run/model.sh" --classes 0,1
expect 0 ""
[ "$(head -n 1 "$tmp/out")" = "template	capability	label	type	base	cases	passed	pass_rate" ] ||
    fail "$what: tells-run --by-template: $(head -n 1 "$tmp/out")"
run tells-leaks "$tmp/progs" $inputs
expect 0 ""

what="the leak check reads markup, entities, inline tags and NumPy strings"
# -k 1: every word of the corpus may appear, so that only runs are found.
mkdir "$tmp/l"
printf '<p>a <b>purple walrus</b> sings&#32;opera</p>\n' >"$tmp/l/a.html"
printf '<svg><text title="Purple walrus sings opera">x</text></svg>\n' >"$tmp/l/b.svg"
printf '<html><style>purple walrus sings opera</style></html>\n' >"$tmp/l/c.html"
printf '<html><p>p 0.5 q 1 2 3 4</p><p>purple walrus</p><p>sings opera</p></html>\n' >"$tmp/l/g.html"
python3 -c '
import sys
s = "purple walrus sings opera"
sys.stdout.buffer.write(b"\x93NUMPY\x01\x00" + "".join(c + "\0\0\0" for c in s).encode())
' >"$tmp/l/d.npy"
printf 'token\tn\nzorblax\t1\n' >"$tmp/l/e.tsv"
printf 'purple walrus\tsings opera\n' >"$tmp/l/f.tsv"
run tells-leaks -k 1 "$tmp/l" $inputs
expect 1 "tells-leaks: $tmp/l/a.html:1: 'purple walrus sings opera' is corpus text ($tmp/batch.jsonl:5)
tells-leaks: $tmp/l/b.svg:1: 'purple walrus sings opera' is corpus text ($tmp/batch.jsonl:5)
tells-leaks: $tmp/l/c.html:1: 'purple walrus sings opera' is corpus text ($tmp/batch.jsonl:5)
tells-leaks: $tmp/l/d.npy:1: 'purple walrus sings opera' is corpus text ($tmp/batch.jsonl:5)
tells-leaks: 4 of 7 files hold corpus text"
run tells-leaks "$tmp/l/e.tsv" $inputs
expect 1 "tells-leaks: $tmp/l/e.tsv:2: 'zorblax' is a corpus word of 1 premise, fewer than 10
tells-leaks: 1 of 1 file holds corpus text"
run tells-leaks -q -k 1 "$tmp/l/g.html" $inputs
expect 0 ""
run tells-leaks -k 1 "$tmp/l/f.tsv" $inputs
expect 0 ""
expect_out_text "tells-leaks: $tmp/l/f.tsv: 1 file, no corpus text (4-word runs, words of fewer than 1 premises)"
run tells-leaks -k 1 -n 2 "$tmp/l/f.tsv" $inputs
expect 1 "tells-leaks: $tmp/l/f.tsv:1: 'purple walrus' is corpus text ($tmp/batch.jsonl:5)
tells-leaks: 1 of 1 file holds corpus text"
run tells-leaks "$tmp/l" "$tmp/missing.jsonl"
expect 1 "tells-leaks: $tmp/missing.jsonl: cannot open: No such file or directory"
run tells-leaks --premise-field text "$tmp/l" "$tmp/c/dev.jsonl"
expect 1 "tells-leaks: $tmp/c/dev.jsonl:1: missing field 'text'"
run tells-leaks --skip-invalid --premise-field text "$tmp/l" "$tmp/c/dev.jsonl"
expect 1 "tells-leaks: $tmp/c/dev.jsonl: no example read: nothing to check against (are the field names right?)"
run tells-leaks --allow zorblax "$tmp/l/e.tsv" $inputs
expect 0 ""

finish
