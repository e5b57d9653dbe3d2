#!/bin/sh
# tells-run: template expansion, the three model back-ends, test types,
# reports, the ADE case counts, test trees and partitions.
. "${top_srcdir:-.}/tests/init.sh"
d=$data/run
A=$corpora/ade-templates
E=$A/entities
small="-t $d/templates.tsv --fill ade=$d/ade.txt --fill drug=$d/drug.txt --tokenizer none"

what="expansion order, articles, repeated placeholders"
run tells-run $small --emit-cases "$tmp/cases"
expect 0 ""
head -n 8 "$tmp/cases" >"$tmp/head"
cat >"$tmp/want" <<'END'
I had no headache on zoloft.
I had no headache on effexor.
I had no itch on zoloft.
I had no itch on effexor.
zoloft gave me a headache, headache again.
zoloft gave me an itch, itch again.
effexor gave me a headache, headache again.
effexor gave me an itch, itch again.
END
cmp -s "$tmp/head" "$tmp/want" || fail "$what: $(diff "$tmp/want" "$tmp/head")"
[ "$(wc -l <"$tmp/cases")" = 20 ] || fail "$what: $(wc -l <"$tmp/cases") cases, want 20"

what="MFT, INV and DIR against a deterministic model"
run tells-run $small --model-cmd "$d/model.sh" --classes 0,1
expect 0 ""
expect_out_text "capability	label	type	placeholders	templates	cases	passed	pass_rate
Negation	0	MFT	ade,drug	1	4	4	1.000000
Article	1	MFT	ade,drug	1	4	4	1.000000
Robust	-	INV	ade,drug	1	4	4	1.000000
Robust	-	DIR	ade,drug	2	8	4	0.500000"
cp "$tmp/out" "$tmp/r0"

what="the model's stderr reaches ours, line by line"
run tells-run $small --model-cmd "echo ready >&2; printf 'set ' >&2; exec $d/model.sh" \
    --classes 0,1 --timeout 5
expect 0 "ready
set "
expect_out "$tmp/r0"

what="an INV test fails when one value changes the prediction"
run tells-run $small --model-cmd "sed -u -e '/itch/{s/.*/0/;b' -e '}' -e 's/.*/1/'" --classes 0,1
expect 1 "tells-run: $d/templates.tsv:5: a DIR test needs class probabilities, and the model gave none"
sed 's/caused/made/' "$d/templates.tsv" >"$tmp/t.tsv"
run tells-run -t "$tmp/t.tsv" --fill ade=$d/ade.txt --fill drug=$d/drug.txt --tokenizer none \
    --model-cmd "sed -u -e '/After zoloft/{s/.*/0 0.5 0.5/;b' -e '}' -e '/effexor made/{s/.*/1 0.3 0.7/;b' -e '}' -e 's/.*/1 0.1 0.9/'" \
    --classes 0,1 --by-template
expect 0 ""
# inv: zoloft and effexor disagree; dir: p(1) falls 0.2 > 0.1 from
# zoloft's; dir-down: the same fall is allowed.
awk -F '\t' '$1 ~ /^(inv|dir|dir-down)$/ { print $1, $6, $7 }' "$tmp/out" >"$tmp/got"
printf 'inv 4 0\ndir 4 0\ndir-down 4 4\n' >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want" || fail "$what: $(cat "$tmp/got")"

what="the same report from --model-cmd and --predictions"
run tells-run $small --model-cmd "$d/model.sh" --classes 0,1 --failures "$tmp/f1"
cp "$tmp/out" "$tmp/r1"
"$d/model.sh" <"$tmp/cases" >"$tmp/answers"
run tells-run $small --predictions "$tmp/answers" --classes 0,1 --failures "$tmp/f2"
expect 0 ""
expect_out "$tmp/r1"
cmp -s "$tmp/f1" "$tmp/f2" || fail "$what: failures differ"
grep -c '^[0-9]' "$tmp/f1" | grep -qx 4 || fail "$what: want 4 failing cases"

what="the ADE templates give the study's 11,265 cases, test by test"
ade="--templates $A/templates_all.csv --bases $A/templates_base.csv --fill ade=$E/ades.txt
    --fill PosSent:ade=$E/ades_mild.txt --fill drug=$E/drugs.txt --fill time_entity=@time
    --pairs time_entity_s,time_entity_l=@time-pairs --sample time_entity=7
    --sample time_entity_s=7 --sample-per-base 1 --sample-per-base Beneff=all"
run tells-run $ade --emit-cases "$tmp/ade-cases"
expect 0 ""
[ "$(wc -l <"$tmp/ade-cases")" = 11265 ] || fail "$what: $(wc -l <"$tmp/ade-cases") cases"
run tells-run $ade --model-cmd "sed -u 's/.*/1/'" --classes 0,1
expect 0 ""
cut -f 1-6 "$tmp/out" >"$tmp/counts"
cat >"$tmp/want" <<'END'
capability	label	type	placeholders	templates	cases
TempOrder	0	MFT	ade,drug	14	1050
TempOrder	0	MFT	ade,drug,time_entity	2	1050
TempOrder	0	MFT	ade,drug,time_entity_l,time_entity_s	3	1575
Beneff	0	MFT	drug	24	120
Negation	0	MFT	ade,drug	11	825
TempOrder	1	MFT	ade,drug	12	900
TempOrder	1	MFT	ade,drug,time_entity	2	1050
TempOrder	1	MFT	ade,drug,time_entity_l,time_entity_s	3	1575
PosSent	1	MFT	ade,drug	36	2700
Beneff	1	MFT	drug	24	120
Negation	1	MFT	ade,drug	4	300
END
cmp -s "$tmp/counts" "$tmp/want" || fail "$what: $(diff "$tmp/want" "$tmp/counts")"
# A model that always says ADE passes exactly the label-1 tests.
awk -F '\t' 'NR > 1 && $8 != ($2 == 1 ? "1.000000" : "0.000000")' "$tmp/out" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "$what: $(cat "$tmp/bad")"
run tells-run $ade --seed 2 --emit-cases "$tmp/ade2"
cmp -s "$tmp/ade-cases" "$tmp/ade2" && fail "$what: --seed 2 drew the same cases"
run tells-run $ade --seed 0 --emit-cases "$tmp/ade3"
cmp -s "$tmp/ade-cases" "$tmp/ade3" || fail "$what: the same seed drew other cases"

what="a fastText model, against its predictions made elsewhere"
tells-synth-ade --size 600 -o "$tmp/adec" || fail "$what: synth"
tells-prep -q --premise-field '' --hypothesis-field text --label-field label --id-field id \
    -o "$tmp/ade.tsv" --split train "$tmp/adec/train.jsonl" --split test "$tmp/adec/test.jsonl" ||
    fail "$what: prep"
tells-baseline -q --seed 1 --bucket 10000 --dim 20 --save-model "$tmp/ade.bin" "$tmp/ade.tsv" \
    >/dev/null || fail "$what: train"
run tells-run $ade --model "$tmp/ade.bin" --failures "$tmp/ff"
expect 0 ""
cp "$tmp/out" "$tmp/ft"
# The fastText model reads prepared text; --emit-cases writes the text as
# written unless told.
run tells-run $ade --model-text prepared --emit-cases "$tmp/ade-prepared"
expect 0 ""
fasttext predict "$tmp/ade.bin" "$tmp/ade-prepared" | sed 's/^__label__//' >"$tmp/ft-answers"
run tells-run $ade --predictions "$tmp/ft-answers" --classes 0,1
expect 0 ""
expect_out "$tmp/ft"
[ "$(wc -l <"$tmp/ff")" -gt 1 ] || fail "$what: no failures written"

what="--eval adds held-out recall; --fail-under gates"
run tells-run $ade --model "$tmp/ade.bin" --eval "$tmp/ade.tsv" --eval-split test
expect 0 ""
head -n 1 "$tmp/out" | grep -q '	pass_rate	heldout_recall$' || fail "$what: header"
awk -F '\t' 'NR > 1 && $9 !~ /^[01]\.[0-9][0-9][0-9][0-9][0-9][0-9]$/' "$tmp/out" | grep -q . && fail "$what: recall column"
run tells-run $ade --model-cmd "sed -u 's/.*/1/'" --classes 0,1 --fail-under 0.5 -o "$tmp/gate"
expect 1 "tells-run: 5 tests below --fail-under 0.5"
[ "$(wc -l <"$tmp/gate")" = 12 ] || fail "$what: the report is still written"
run tells-run $ade --model-cmd "sed -u 's/.*/1/'" --classes 0,1 --fail-under 0
expect 0 ""

what="--by-fill"
run tells-run $small --model-cmd "$d/model.sh" --classes 0,1 --by-fill drug
expect 0 ""
expect_out_text "capability	drug	cases	passed	pass_rate
Negation	zoloft	2	2	1.000000
Negation	effexor	2	2	1.000000
Article	zoloft	2	2	1.000000
Article	effexor	2	2	1.000000
Robust	zoloft	6	4	0.666667
Robust	effexor	6	4	0.666667
all	zoloft	10	8	0.800000
all	effexor	10	8	0.800000"

what="test trees (rows whose output changed flipped, as before AdaTest's rule)"
run tells-run --tree "$d/tree.csv" --model-cmd "$d/model.sh" --classes 0,1 --changed-output flip
expect 0 "tells-run: $d/tree.csv: 1 rows skipped (topic markers, or labelled neither pass nor fail)"
expect_out_text "topic	tests	failures	failure_rate	changed
/Negation	3	2	0.666667	0
/Temporal	3	0	0.000000	0
(all)	6	2	0.333333	0"
run tells-run -q --tree "$d/tree.csv" --model-cmd "$d/model.sh" --before-model-cmd "$d/before.sh" \
    --classes 0,1 --threshold 0.5 --alpha 0.1 --changed-output flip --bootstrap 1000
expect 0 ""
expect_out_text "topic	tests	failures_before	failure_rate_before	failures_after	failure_rate_after	change	p_value	q_value	status	changed_before	changed_after
/Negation	3	3	1.000000	2	0.666667	-0.333333	0.55	0.55	-	0	0
/Temporal	3	2	0.666667	0	0.000000	-0.666667	0.028	0.056	fixed	0	0"
run tells-run -q --tree "$d/tree.csv" --model-cmd "$d/before.sh" --before-model-cmd "$d/model.sh" \
    --classes 0,1 --threshold 0.5 --alpha 0.1 --changed-output flip
grep -q '^/Temporal	.*	broken	0	0$' "$tmp/out" || fail "$what: not broken the other way"

what="partitions: full, easy, difficult"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n' >"$tmp/p.tsv"
for i in 1 2 3 4; do printf 'a%s\ttest\t1\t-\tafter zoloft\n' $i; done >>"$tmp/p.tsv"
for i in 1 2 3 4; do printf 'b%s\ttest\t0\t-\tafter rest\n' $i; done >>"$tmp/p.tsv"
printf 'b1\tdev\t0\t-\tcalm\n' | sed 's/^b1/c1/' >>"$tmp/p.tsv"
printf 'a1\na2\nb1\n' >"$tmp/easy.ids"
printf 'a3\nb2\nb3\nb4\nc1\n' >"$tmp/hard.ids"
run tells-run --eval "$tmp/p.tsv" --eval-split test --model-cmd "$d/model.sh" \
    --partition easy="$tmp/easy.ids" --partition difficult="$tmp/hard.ids"
expect 0 ""
expect_out_text "partition	n	accuracy	micro_f1	macro_f1	recall_0	recall_1	change_accuracy	change_micro_f1	change_macro_f1	change_recall_0	change_recall_1
full	8	0.500000	0.500000	0.333333	0.000000	1.000000	0.000000	0.000000	0.000000	0.000000	0.000000
easy	3	0.666667	0.666667	0.400000	0.000000	1.000000	0.166667	0.166667	0.066667	0.000000	0.000000
difficult	4	0.250000	0.250000	0.200000	0.000000	1.000000	-0.250000	-0.250000	-0.133333	0.000000	0.000000"

# Filters that block-buffer a pipe answer case by case all the same:
# the process runs under stdbuf -oL with PYTHONUNBUFFERED=1. Batches of
# 2 cases, so that an answer must come before its process sees the end.
what="a filter that buffers its output (sed without -u)"
run tells-run $small --model-cmd "sed 's/.*/0 0.5 0.5/'" --classes 0,1 --batch 2 --timeout 5
expect 0 ""
if command -v python3 >/dev/null; then
    what="a python script that does not flush"
    run tells-run $small --model-cmd "python3 -c 'import sys
for line in sys.stdin: print(\"0 0.5 0.5\")'" --classes 0,1 --batch 2 --timeout 5
    expect 0 ""
fi
# Without stdbuf on PATH, plain sh: sed then stalls, and the message
# names the cause.
mkdir "$tmp/nostdbuf"
for p in sed sh; do ln -s "$(command -v $p)" "$tmp/nostdbuf/$p"; done
what="a filter that buffers its output, stdbuf not on PATH"
status=0
PATH="$tmp/nostdbuf" "$top_builddir/src/tells-run" $small --model-cmd "sed 's/.*/0 0.5 0.5/'" \
    --classes 0,1 --batch 2 --timeout 1 >"$tmp/out" 2>"$tmp/err" || status=$?
expect 1 "tells-run: model command 'sed 's/.*/0 0.5 0.5/'': no answer within 1 s after answering 0 of 20 cases; if it holds back what it writes to a pipe, it answers only when its buffer fills: tells runs it under stdbuf -oL with PYTHONUNBUFFERED=1, which covers sed, grep and Python, but not mawk (give it -W interactive) or a program with buffers of its own (have it flush each line)"
finish
