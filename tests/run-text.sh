#!/bin/sh
# tells-run: the text a model reads. A model process (--model-cmd), the
# cases of --emit-cases and those of --predictions get the text as
# written; a fastText model (trained on prepared text) gets it prepared;
# --model-text and --tokenizer choose.
. "${top_srcdir:-.}/tests/init.sh"

printf 'capability\tlabel\ttemplate\n' >"$tmp/t.tsv"
printf "Negation\t1\tThat's not true, I took {drug} and experienced {ade}.\n" >>"$tmp/t.tsv"
echo Zoloft >"$tmp/drug.txt"
echo 'incredible sweet tooth' >"$tmp/ade.txt"
fills="--fill drug=$tmp/drug.txt --fill ade=$tmp/ade.txt"
raw="That's not true, I took Zoloft and experienced incredible sweet tooth."
prepared="that's not true i took zoloft and experienced incredible sweet tooth"

what="--model-cmd reads the text as written"
run tells-run -t "$tmp/t.tsv" $fills --model-cmd "tee '$tmp/seen' | sed -u 's/.*/1/'" --classes 0,1
expect 0 ""
[ "$(cat "$tmp/seen")" = "$raw" ] || fail "$what: $(cat "$tmp/seen")"

what="--emit-cases writes the text as written"
run tells-run -t "$tmp/t.tsv" $fills --emit-cases "$tmp/cases"
expect 0 ""
[ "$(cat "$tmp/cases")" = "$raw" ] || fail "$what: $(cat "$tmp/cases")"
echo 1 >"$tmp/answers"
run tells-run -t "$tmp/t.tsv" $fills --emit-cases "$tmp/cases2" --predictions "$tmp/answers" \
    --classes 0,1
expect 0 ""
cmp -s "$tmp/cases" "$tmp/cases2" || fail "$what: with --predictions: $(cat "$tmp/cases2")"

what="--model-text prepared, or a tokenizer, for a model trained on prepared text"
for opt in "--model-text prepared" "--tokenizer default"; do
    run tells-run -t "$tmp/t.tsv" $fills $opt --model-cmd "tee '$tmp/seen' | sed -u 's/.*/1/'" \
        --classes 0,1
    expect 0 ""
    [ "$(cat "$tmp/seen")" = "$prepared" ] || fail "$what ($opt): $(cat "$tmp/seen")"
done
run tells-run -t "$tmp/t.tsv" $fills --tokenizer whitespace --emit-cases "$tmp/cases"
[ "$(cat "$tmp/cases")" = "that's not true, i took zoloft and experienced incredible sweet tooth." ] ||
    fail "$what (whitespace): $(cat "$tmp/cases")"
run tells-run -t "$tmp/t.tsv" $fills --model-text raw --tokenizer none --emit-cases "$tmp/cases"
expect 0 ""
[ "$(cat "$tmp/cases")" = "$raw" ] || fail "$what (none): $(cat "$tmp/cases")"
run tells-run -t "$tmp/t.tsv" $fills --model-text raw --tokenizer default --emit-cases "$tmp/cases"
expect 2 "tells-run: --model-text raw and --tokenizer default or whitespace: give one
Try 'tells-run --help' for more information."
run tells-run -t "$tmp/t.tsv" $fills --model-text cased --emit-cases "$tmp/cases"
expect 2 "tells-run: invalid --model-text 'cased' (raw or prepared)
Try 'tells-run --help' for more information."

what="test trees: a model process reads each input as written"
printf 'topic,input,output,label\n/a,"Not bad, Really!",1,pass\n' >"$tmp/tree.csv"
run tells-run --tree "$tmp/tree.csv" --model-cmd "tee '$tmp/seen' | sed -u 's/.*/1/'" --classes 0,1
expect 0 ""
[ "$(cat "$tmp/seen")" = "Not bad, Really!" ] || fail "$what: $(cat "$tmp/seen")"

what="@time-pairs:duration relates spans across units (2 days, 3 weeks)"
printf 'capability\tlabel\ttemplate\nT\t0\tafter {s}, not {l}\n' >"$tmp/time.tsv"
run tells-run -t "$tmp/time.tsv" --pairs s,l=@time-pairs:duration --emit-cases "$tmp/cases"
expect 0 ""
[ "$(wc -l <"$tmp/cases")" = 2772 ] || fail "$what: $(wc -l <"$tmp/cases") cases"
grep -qx 'after 2 days, not 3 weeks' "$tmp/cases" || fail "$what: no 2 days, 3 weeks"
grep -q 'after 7 days, not 1 week$' "$tmp/cases" && fail "$what: equal spans paired"
run tells-run -t "$tmp/time.tsv" --pairs s,l=@time-pairs --emit-cases "$tmp/cases"
[ "$(wc -l <"$tmp/cases")" = 900 ] || fail "$what: @time-pairs changed"
grep -q 'after 2 days, not 3 weeks' "$tmp/cases" && fail "$what: @time-pairs across units"

finish
