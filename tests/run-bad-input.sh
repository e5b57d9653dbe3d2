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
expect 1 "tells-run: model command 'head -n 2 | sed 's/.*/1/'': exited with status 0 after answering 2 of 20 cases"
check_kept

what="a model that answers too few lines"
run tells-run $small --model-cmd "sed -u -n '1{p;q}'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: model command 'sed -u -n '1{p;q}'': exited with status 0 after answering 1 of 20 cases"
check_kept

what="a model that fails"
run tells-run $small --model-cmd "exit 3" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: model command 'exit 3': exited with status 3 after answering 0 of 20 cases"
check_kept

what="an unknown label"
run tells-run $small --model-cmd "sed -u 's/.*/maybe/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: model command 'sed -u 's/.*/maybe/'': answer 1: unknown label 'maybe'"
check_kept

what="NaN and too few probabilities"
run tells-run $small --model-cmd "sed -u 's/.*/1 nan nan/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: model command 'sed -u 's/.*/1 nan nan/'': answer 1: probability 'nan' is not a number in [0, 1]"
run tells-run $small --model-cmd "sed -u 's/.*/1 0.5/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: model command 'sed -u 's/.*/1 0.5/'': answer 1: 1 probabilities for 2 classes"
check_kept

what="probabilities that do not sum to 1"
for answer in "1 0.9 0.9|the probabilities sum to 1.8, not 1 (tolerance 0.01)" \
    "1 0 0|the probabilities sum to 0, not 1 (tolerance 0.01)" \
    "1 0.2 0.789|the probabilities sum to 0.989, not 1 (tolerance 0.01)"; do
    run tells-run $small --model-cmd "sed -u 's/.*/${answer%%|*}/'" --classes 0,1 -o "$tmp/report"
    expect 1 "tells-run: model command 'sed -u 's/.*/${answer%%|*}/'': answer 1: ${answer#*|}"
    check_kept
done
what="probabilities printed with 3 decimals are fine"
run tells-run $small --model-cmd "sed -u 's/.*/1 0.4 0.599/'" --classes 0,1
expect 0 ""

what="a NUL byte in an answer"
run tells-run $small --model-cmd "sed -u 's/.*/0\\x00garbage/'" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: model command 'sed -u 's/.*/0\\x00garbage/'': answer 1 of 20 contains a NUL byte"
check_kept

# Models that hang, answer too little or too much, or fail: each is
# killed within --timeout, and tells-run ends (timeout 30 turns a hang
# into a failure) with one line naming the command, the cases answered
# over the run, how it ended and its last stderr line.
PATH="$d:$PATH"
bad() {
    mode=$1
    shift
    run timeout 30 tells-run $small --model-cmd "bad-model.sh $mode" --classes 0,1 --timeout 1 \
        -o "$tmp/report" "$@"
}

what="a model that never answers"
bad sleep
expect 1 "tells-run: model command 'bad-model.sh sleep': no answer within 1 s after answering 0 of 20 cases; if it holds back what it writes to a pipe, it answers only when its buffer fills: tells runs it under stdbuf -oL with PYTHONUNBUFFERED=1, which covers sed, grep and Python, but not mawk (give it -W interactive) or a program with buffers of its own (have it flush each line)"
check_kept

what="a model that never answers, after a message on stderr (passed on)"
bad loading
expect 1 "loading weights
tells-run: model command 'bad-model.sh loading': no answer within 1 s after answering 0 of 20 cases (stderr: 'loading weights'); if it holds back what it writes to a pipe, it answers only when its buffer fills: tells runs it under stdbuf -oL with PYTHONUNBUFFERED=1, which covers sed, grep and Python, but not mawk (give it -W interactive) or a program with buffers of its own (have it flush each line)"
check_kept

what="a model that reads all its input first: fine in one batch, not in several"
bad read-all
expect 0 ""
echo "good data" >"$tmp/report"
bad read-all --batch 8
expect 1 "tells-run: model command 'bad-model.sh read-all': no answer within 1 s after answering 0 of 20 cases; if it holds back what it writes to a pipe, it answers only when its buffer fills: tells runs it under stdbuf -oL with PYTHONUNBUFFERED=1, which covers sed, grep and Python, but not mawk (give it -W interactive) or a program with buffers of its own (have it flush each line)"
check_kept

what="a model that answers every second line and exits"
bad every-second
expect 1 "tells-run: model command 'bad-model.sh every-second': exited with status 0 after answering 10 of 20 cases"
check_kept
bad every-second --batch 8
expect 1 "tells-run: model command 'bad-model.sh every-second': no answer within 1 s after answering 4 of 20 cases"
check_kept

what="a model that answers twice per case"
bad too-many
expect 1 "tells-run: model command 'bad-model.sh too-many': printed more lines than the 20 cases it was given"
check_kept

what="a model that answers with a 2 MB line"
bad long-line
expect 1 "tells-run: model command 'bad-model.sh long-line': answer 1 of 20 is longer than 1048576 bytes"
check_kept

what="a model that fails with a message"
echo "old cases" >"$tmp/old-cases"
bad fail --emit-cases "$tmp/old-cases"
expect 1 "KeyError: 'drug'
tells-run: model command 'bad-model.sh fail': exited with status 3 after answering 0 of 20 cases (stderr: 'KeyError: 'drug'')"
check_kept
[ "$(cat "$tmp/old-cases")" = "old cases" ] || fail "$what: --emit-cases was replaced"

what="a model's long stderr lines are passed on whole"
long=$(head -c 10000 /dev/zero | tr '\0' e)
run tells-run $small --model-cmd "head -c 10000 /dev/zero | tr '\\0' e >&2; echo >&2; \
sed -u 's/.*/1 0.4 0.6/'" --classes 0,1 -o "$tmp/out.tsv"
expect 0 "$long"
shown=$(printf '%.160s' "$long")
run tells-run $small --model-cmd "head -c 10000 /dev/zero | tr '\\0' e >&2; exit 3" \
    --classes 0,1 -o "$tmp/report"
expect 1 "$long
tells-run: model command 'head -c 10000 /dev/zero | tr '\\0' e >&2; exit 3': exited with status 3 after answering 0 of 20 cases (stderr: '$shown...')"
check_kept

what="a model that does not exit after its input ends"
bad linger
expect 1 "tells-run: model command 'bad-model.sh linger': did not exit within 1 s of the end of its input"
check_kept

what="a model's children die with it"
run timeout 30 tells-run $small --model-cmd "sleep 1000 & echo \$! >'$tmp/child'; wait" --classes 0,1 \
    --timeout 1 -o "$tmp/report"
[ "$status" = 1 ] || fail "$what: exit $status"
child=$(cat "$tmp/child")
sleep 0.2
if [ -n "$child" ] && [ -e "/proc/$child" ] && ! grep -q '^State:.*Z' "/proc/$child/status"; then
    kill "$child" 2>/dev/null
    fail "$what: process $child is still running"
fi
check_kept

what="counts over the run: held-out rows, then the cases"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n' >"$tmp/h.tsv"
for i in 1 2 3; do printf 'h%s\ttest\t1\t-\tfine\n' $i; done >>"$tmp/h.tsv"
run timeout 30 tells-run $small --eval "$tmp/h.tsv" --model-cmd "bad-model.sh every-second" \
    --classes 0,1 --timeout 1 -o "$tmp/report"
expect 1 "tells-run: model command 'bad-model.sh every-second': no answer within 1 s after answering 1 of 23 cases"
check_kept

what="a before model that never answers"
run timeout 30 tells-run -q --tree "$d/tree.csv" --model-cmd "$d/model.sh" \
    --before-model-cmd "bad-model.sh loading" --classes 0,1 --timeout 1 -o "$tmp/report"
expect 1 "loading weights
tells-run: model command 'bad-model.sh loading': no answer within 1 s after answering 0 of 6 cases (stderr: 'loading weights'); if it holds back what it writes to a pipe, it answers only when its buffer fills: tells runs it under stdbuf -oL with PYTHONUNBUFFERED=1, which covers sed, grep and Python, but not mawk (give it -W interactive) or a program with buffers of its own (have it flush each line)"
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
what="predictions: a NUL byte, probabilities that are no distribution"
{ head -n 2 "$tmp/answers"; printf '0\000garbage\n'; tail -n +4 "$tmp/answers"; } >"$tmp/nul"
run tells-run $small --predictions "$tmp/nul" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: $tmp/nul:3: NUL byte in input"
check_kept
sed '2s/.*/1 0.9 0.9/' "$tmp/answers" >"$tmp/sum"
run tells-run $small --predictions "$tmp/sum" --classes 0,1 -o "$tmp/report"
expect 1 "tells-run: $tmp/sum:2: the probabilities sum to 1.8, not 1 (tolerance 0.01)"
check_kept

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

what="placeholder syntax: FILE:LINE:COLUMN, the column in characters of the field"
syntax() {
    printf 'name\tcapability\tlabel\tpremise\ttemplate\nt\tNeg\t0\t%s\t%s\n' "$1" "$2" \
        >"$tmp/syntax.tsv"
    run tells-run -t "$tmp/syntax.tsv" --fill ade=$d/ade.txt --fill drug=$d/drug.txt \
        --emit-cases "$tmp/report"
    expect 1 "tells-run: $tmp/syntax.tsv:2:$3"
    check_kept
}
syntax 'I had {ade}.' 'no {ade on {drug}' "4: '{' without a closing '}'"
syntax 'I had {ade}.' 'no {ade} on drug}' "17: '}' without an opening '{'"
syntax 'I had {ade}.' 'no {} on {drug}' "4: empty placeholder '{}'"
syntax 'I had {ade}.' 'no {{ade}} on {drug}' "4: '{{' (braces only enclose placeholders: {name} or {a:name})"
syntax 'I had {ade}.' 'no {a:} on {drug}' "4: '{a:}' without a placeholder name"
syntax 'I had {ade}.' 'no {an:ade} on {drug}' "5: unknown prefix 'an:' (only {a:name}, for the article)"
syntax 'I had {ade}.' 'no {2ade} on {drug}' "5: bad placeholder name '2ade' (letters, digits and '_', not starting with a digit)"
syntax 'I had {ade}.' 'no {ade drug}' "5: bad placeholder name 'ade drug' (letters, digits and '_', not starting with a digit)"
syntax 'I had {ade}.' 'no {a{ade}}' "6: '{' inside a placeholder"
syntax 'Éé {ade' 'no {ade} on {drug}' "4: '{' without a closing '}' in the premise"
printf ',capability,label,template\n0,Neg,0,"two\nlines {x"\n' >"$tmp/multi.csv"
run tells-run -t "$tmp/multi.csv" --emit-cases "$tmp/report"
expect 1 "tells-run: $tmp/multi.csv:2:11: '{' without a closing '}'"

what="the number of cases, counted before expansion"
seq 60 >"$tmp/sixty.txt"
printf 'name\tcapability\tlabel\ttemplate\nsmall\tNeg\t0\t{a}\nbig\tNeg\t0\t{a}{b}{c}{d}{e}{f}{g}{h}\n' \
    >"$tmp/big.tsv"
eight=
for p in a b c d e f g h; do eight="$eight --fill $p=$tmp/sixty.txt"; done
run timeout 30 tells-run -t "$tmp/big.tsv" $eight --emit-cases "$tmp/report"
expect 1 "tells-run: $tmp/big.tsv: the templates would make 167961600000060 cases, more than the limit of 5000000; template 'big' on line 3 makes 167961600000000 (raise --max-cases, or draw fewer values with --sample)"
check_kept
run tells-run $small --max-cases 19 --emit-cases "$tmp/report"
expect 1 "tells-run: $d/templates.tsv: the templates would make 20 cases, more than the limit of 19; template 'neg1' on line 2 makes 4 (raise --max-cases, or draw fewer values with --sample)"
check_kept
run tells-run $small --max-cases 20 --emit-cases "$tmp/c"
expect 0 ""
run tells-run $small --sample drug=1 --max-cases 10 --emit-cases "$tmp/c"
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
expect 2 "tells-run: --model and --model-cmd: give one model (runs of several seeds are pooled with --tree)
Try 'tells-run --help' for more information."
run tells-run $small --sample drug=5 --emit-cases "$tmp/c"
expect 2 "tells-run: --sample drug=5: only 2 values in $d/drug.txt
Try 'tells-run --help' for more information."
run tells-run $small --fill nonsense --emit-cases "$tmp/c"
expect 2 "tells-run: --fill: expected [CAPABILITY:]NAME=FILE, not 'nonsense'
Try 'tells-run --help' for more information."
run tells-run $small --fill x=@moon --emit-cases "$tmp/c"
expect 2 "tells-run: --fill: unknown generator '@moon' (@time, @time-pairs or @time-pairs:duration)
Try 'tells-run --help' for more information."
run tells-run $small --tokenizer odd --emit-cases "$tmp/c"
expect 2 "tells-run: invalid --tokenizer 'odd' (default, whitespace or none)
Try 'tells-run --help' for more information."
run tells-run $small --model-cmd cat --eval x.tsv --partition easy=x.ids --eval-output "$tmp/eo"
[ "$status" = 1 ] || fail "$what: a missing id file: exit $status"
for name in "a	b" full; do
    run tells-run --eval x.tsv -m x.bin --partition "$name=x.ids"
    expect 2 "tells-run: invalid partition name '$name'
Try 'tells-run --help' for more information."
done
run tells-run $small --max-cases 0 --emit-cases "$tmp/c"
expect 2 "tells-run: invalid value '0' for --max-cases (expected an integer >= 1)
Try 'tells-run --help' for more information."
# Beyond long's range: the message gives the upper bound it passed.
for n in 18446744073709551615 9223372036854775808; do
    run tells-run $small --max-cases $n --emit-cases "$tmp/c"
    expect 2 "tells-run: invalid value '$n' for --max-cases (expected an integer from 1 to 9223372036854775807)
Try 'tells-run --help' for more information."
done
for args in "--fail-under 1.5|invalid value '1.5' for --fail-under (expected a number from 0 to 1)" \
    "--threshold -0.1|invalid value '-0.1' for --threshold (expected a number from 0 to 1)" \
    "--alpha 1|invalid value '1' for --alpha (expected a number > 0 and < 1)" \
    "--alpha 0|invalid value '0' for --alpha (expected a number > 0 and < 1)"; do
    what="tells-run ${args%%|*}"
    # shellcheck disable=SC2086
    run tells-run $small ${args%%|*} --emit-cases "$tmp/c"
    expect 2 "tells-run: ${args#*|}
Try 'tells-run --help' for more information."
done
run tells-run $small --timeout -1 --model-cmd cat
expect 2 "tells-run: invalid value '-1' for --timeout (expected a number >= 0)
Try 'tells-run --help' for more information."
run tells-run --bogus
expect 2 "tells-run: unrecognized option '--bogus'
Try 'tells-run --help' for more information."
run tells-run $small --model-cmd '' --classes 0,1
expect 2 "tells-run: --model-cmd: the command is empty
Try 'tells-run --help' for more information."
run tells-run --tree "$d/tree.csv" --model-cmd "$d/model.sh" --before-model-cmd ' ' --classes 0,1
expect 2 "tells-run: --before-model-cmd: the command is empty
Try 'tells-run --help' for more information."
run tells-run $small --model-cmd cat --classes 0,0
expect 2 "tells-run: --classes: class '0' listed twice (items 1 and 2)
Try 'tells-run --help' for more information."
run tells-run $small --model-cmd cat --classes 0,,1
expect 2 "tells-run: --classes: empty class name (item 2)
Try 'tells-run --help' for more information."

what="held-out data without examples"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n' >"$tmp/empty.tsv"
run tells-run --eval "$tmp/empty.tsv" --model-cmd cat --classes 0,1
expect 1 "tells-run: $tmp/empty.tsv: no examples in the input"

# The model runs in a process group of its own, out of reach of a
# terminal's Ctrl-C: a signal that ends tells-run ends the model too.
n=0
for sig in INT TERM; do
    what="SIG$sig ends the model"
    n=$((n + 1))
    # A sleep of a length no other process has, to find it by.
    marker="9$$$n"
    env --default-signal="$sig" tells-run $small --model-cmd "exec sleep $marker" \
        --classes 0,1 --timeout 0 -o "$tmp/report" 2>/dev/null &
    pid=$!
    n=0
    i=0
    until pgrep -x -f "sleep $marker" >/dev/null || [ $i -ge 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ $i -lt 100 ] || fail "$what: the model did not start"
    kill -s "$sig" $pid
    status=0
    wait $pid || status=$?
    [ "$status" = $((128 + $(kill -l "$sig"))) ] || fail "$what: exit status $status"
    i=0
    while pgrep -x -f "sleep $marker" >/dev/null && [ $i -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    pgrep -x -f "sleep $marker" >/dev/null && fail "$what: the model is still running"
    pkill -x -f "sleep $marker"
done

finish
