#!/bin/sh
# tells-run on bad templates, fill-ins, models and options: one clear
# error line, exit 1 (2 for usage), and no report written or overwritten.
. "${top_srcdir:-.}/tests/init.sh"
d=$data/run
small="-t $d/templates.tsv --fill ade=$d/ade.txt --fill drug=$d/drug.txt --tokenizer none"
echo "good data" >"$tmp/report"

check_kept() {
    [ "$(cat "$tmp/report")" = "good data" ] || fail "$what: the report was overwritten"
    ls "$tmp" | grep -q '^report.*tmp\|^\.report' && fail "$what: a temporary file was left"
}

what="a model process that dies"
run tells-run $small --model-cmd "head -n 2 | sed 's/.*/1/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: the model command exited with status 0 after answering 2 of 20 cases"
check_kept

what="a model that answers too few lines"
run tells-run $small --model-cmd "sed -u -n '1{p;q}'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: the model command exited with status 0 after answering 1 of 20 cases"
check_kept

what="a model that fails"
run tells-run $small --model-cmd "exit 3" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: the model command exited with status 3 after answering 0 of 20 cases"
check_kept

what="an unknown label"
run tells-run $small --model-cmd "sed -u 's/.*/maybe/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: the model command's answer 1: unknown label 'maybe'"
check_kept

what="NaN and too few probabilities"
run tells-run $small --model-cmd "sed -u 's/.*/1 nan nan/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: the model command's answer 1: probability 'nan' is not a number in [0, 1]"
run tells-run $small --model-cmd "sed -u 's/.*/1 0.5/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: the model command's answer 1: 1 probabilities for 2 classes"
check_kept

what="predictions: too few, too many, CRLF"
"$d/model.sh" <"$d/ade.txt" >/dev/null
run tells-run $small --emit-cases "$tmp/cases"
"$d/model.sh" <"$tmp/cases" >"$tmp/answers"
head -n 19 "$tmp/answers" >"$tmp/few"
run tells-run $small --predictions "$tmp/few" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: $tmp/few: 19 predictions for more cases (the cases of --emit-cases, one line each)"
{ cat "$tmp/answers"; echo 1; } >"$tmp/many"
run tells-run $small --predictions "$tmp/many" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: $tmp/many:21: more predictions than the 20 cases"
check_kept
sed 's/$/\r/' "$tmp/answers" >"$tmp/crlf"
run tells-run $small --predictions "$tmp/crlf" --classes 0,1
expect 0 ""
printf '1\n\377\n' >"$tmp/bad-utf8"
run tells-run $small --predictions "$tmp/bad-utf8" --classes 0,1
expect 1 "tells-run: $tmp/bad-utf8:2: invalid UTF-8"

what="malformed templates"
printf ',capability,label,template\n0,Neg,0,"no {ade\n' >"$tmp/t1.csv"
run tells-run -t "$tmp/t1.csv" --fill ade=$d/ade.txt --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t1.csv:2: malformed CSV: a quote inside an unquoted field, or a quoted field that does not end"
printf ',capability,label\n0,Neg,0\n' >"$tmp/t2.csv"
run tells-run -t "$tmp/t2.csv" --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t2.csv:1: no column named 'template' in the header"
printf ',capability,label,template\r\n0,Neg,,I had {ade}.\r\n' >"$tmp/t3.csv"
run tells-run -t "$tmp/t3.csv" --fill ade=$d/ade.txt --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t3.csv:2: an MFT test needs a label"
printf ',capability,label,template\n0,Neg,0,I had {ade}.\n1,Neg,0\n' >"$tmp/t4.csv"
run tells-run -t "$tmp/t4.csv" --fill ade=$d/ade.txt --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t4.csv:3: expected 4 columns, found 3"
printf ',capability,label,template\n0,Neg,0,I had \377.\n' >"$tmp/t5.csv"
run tells-run -t "$tmp/t5.csv" --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t5.csv:2: invalid UTF-8"
printf ',capability,label,template\n' >"$tmp/t6.csv"
run tells-run -t "$tmp/t6.csv" --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t6.csv: no templates"
printf 'capability\tlabel\ttype\tvary\ttemplate\nR\t\tINV\tdose\t{drug} helps\n' >"$tmp/t7.tsv"
run tells-run -t "$tmp/t7.tsv" --fill drug=$d/drug.txt --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t7.tsv:2: 'vary' names {dose}, which the template does not use"
printf ',capability,label,template\n0,Neg,0,I had {rash}.' >"$tmp/t8.csv"
run tells-run -t "$tmp/t8.csv" --fill ade=$d/ade.txt --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/t8.csv:2: no fill-in list for {rash} (give --fill rash=FILE)"
run tells-run -t "$tmp/t8.csv" --fill rash=$d/ade.txt --model-cmd "$d/model.sh" --classes no,yes
expect 1 "tells-run: $tmp/t8.csv:2: label '0' is not a class of the model (map it with --labels)"
run tells-run -t "$tmp/t8.csv" --fill rash=$d/ade.txt --model-cmd "sed -u 's/.*/no/'" \
    --classes no,yes --labels 0=no,1=yes
expect 0 ""

what="bad fill-in lists"
printf 'a\tb\n' >"$tmp/tab.txt"
run tells-run $small --fill drug="$tmp/tab.txt" --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/tab.txt:1: a tab in a value (one value per line)"
: >"$tmp/empty.txt"
run tells-run $small --fill drug="$tmp/empty.txt" --emit-cases "$tmp/c"
expect 1 "tells-run: $tmp/empty.txt: no values"
run tells-run $small --pairs a,b="$d/ade.txt" --emit-cases "$tmp/c"
expect 1 "tells-run: $d/ade.txt:1: expected two tab-separated values"

what="a truncated fastText model"
head -c 1000 "$corpora/vectors/toy-model.bin" >"$tmp/trunc.bin"
run tells-run $small --model "$tmp/trunc.bin" -o "$tmp/report"
[ "$status" = 1 ] || fail "$what: exit $status"
grep -q "^tells-run: $tmp/trunc.bin: " "$tmp/err" || fail "$what: $(cat "$tmp/err")"
check_kept

what="usage errors"
run tells-run
expect 2 "tells-run: nothing to do: give --templates, --tree or --eval
Try 'tells-run --help' for more information."
run tells-run $small
expect 2 "tells-run: no model: give --model, --model-cmd or --predictions
Try 'tells-run --help' for more information."
run tells-run $small --model x.bin --model-cmd cat
expect 2 "tells-run: --model and --model-cmd: give one model
Try 'tells-run --help' for more information."
run tells-run $small --sample drug=5 --emit-cases "$tmp/c"
expect 2 "tells-run: --sample drug=5: only 2 values in $d/drug.txt
Try 'tells-run --help' for more information."
run tells-run $small --fill nonsense --emit-cases "$tmp/c"
expect 2 "tells-run: --fill: expected [CAPABILITY:]NAME=FILE, not 'nonsense'
Try 'tells-run --help' for more information."
run tells-run $small --fill x=@moon --emit-cases "$tmp/c"
expect 2 "tells-run: --fill: unknown generator '@moon' (@time or @time-pairs)
Try 'tells-run --help' for more information."
run tells-run $small --tokenizer odd --emit-cases "$tmp/c"
expect 2 "tells-run: invalid --tokenizer 'odd' (default, whitespace or none)
Try 'tells-run --help' for more information."
run tells-run $small --model-cmd cat --eval x.tsv --partition easy=x.ids
[ "$status" = 1 ] || fail "$what: a missing id file: exit $status"
run tells-run --bogus
expect 2 "tells-run: unrecognized option '--bogus'
Try 'tells-run --help' for more information."

finish
