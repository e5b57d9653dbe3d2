#!/bin/sh
# tells-run --tree as AdaTest defines it: a topic fails above the
# threshold, the paper's defaults (0.2, 5,000 resamples), runs of several
# seeds pooled, subtopics rolled up into their parents, the paper-era
# format with invariance tests, and AdaTest's rule for a row whose output
# the model does not give.
. "${top_srcdir:-.}/tests/init.sh"

# One topic of 100 tests that the model should answer 1; before, the
# first $1 get 0.
make_case() {
    printf 'topic,type,value1,value2\n' >"$tmp/t.csv"
    : >"$tmp/before"
    : >"$tmp/after"
    i=1
    while [ $i -le 100 ]; do
        printf '/A,{} should output {},case %s,1\n' $i >>"$tmp/t.csv"
        if [ $i -le "$1" ]; then echo 0; else echo 1; fi >>"$tmp/before"
        echo 1 >>"$tmp/after"
        i=$((i + 1))
    done
}

what="20 of 100 failing at --threshold 0.2 never failed: not fixed"
make_case 20
run tells-run --tree "$tmp/t.csv" --predictions "$tmp/after" \
    --before-predictions "$tmp/before" --classes 0,1 --threshold 0.2
expect 0 ""
expect_out_text "topic	tests	failures_before	failure_rate_before	failures_after	failure_rate_after	change	p_value	q_value	status	changed_before	changed_after
/A	100	20	0.200000	0	0.000000	-0.200000	0.0002	0.0002	-	0	0"

what="the paper's defaults: threshold 0.2, 5,000 resamples (p = 1/5001)"
run tells-run --tree "$tmp/t.csv" --predictions "$tmp/after" \
    --before-predictions "$tmp/before" --classes 0,1
expect 0 ""
expect_out_text "topic	tests	failures_before	failure_rate_before	failures_after	failure_rate_after	change	p_value	q_value	status	changed_before	changed_after
/A	100	20	0.200000	0	0.000000	-0.200000	0.0002	0.0002	-	0	0"
make_case 21
run tells-run --tree "$tmp/t.csv" --predictions "$tmp/after" \
    --before-predictions "$tmp/before" --classes 0,1
expect 0 ""
grep -q '^/A	100	21	0.210000	0	0.000000	.*	fixed	0	0$' "$tmp/out" ||
    fail "$what: 21 of 100 not fixed: $(cat "$tmp/out")"
run tells-run --tree "$tmp/t.csv" --predictions "$tmp/before" \
    --before-predictions "$tmp/after" --classes 0,1
grep -q '^/A	100	0	0.000000	21	0.210000	.*	broken	0	0$' "$tmp/out" ||
    fail "$what: not broken the other way: $(cat "$tmp/out")"

what="runs of three seeds pooled, before and after"
# Before: seeds fail 21, 30 and 25 of 100; after: 0, 1 and 2.
sed '1,21s/.*/0/' "$tmp/after" >"$tmp/b1"
sed '1,30s/.*/0/' "$tmp/after" >"$tmp/b2"
sed '1,25s/.*/0/' "$tmp/after" >"$tmp/b3"
sed '1s/.*/0/' "$tmp/after" >"$tmp/a2"
sed '1,2s/.*/0/' "$tmp/after" >"$tmp/a3"
run tells-run --tree "$tmp/t.csv" --classes 0,1 \
    --predictions "$tmp/after" --predictions "$tmp/a2" --predictions "$tmp/a3" \
    --before-predictions "$tmp/b1" --before-predictions "$tmp/b2" --before-predictions "$tmp/b3"
expect 0 ""
grep -q '^/A	100	76	0.253333	3	0.010000	-0.243333	0.0002	0.0002	fixed	0	0$' "$tmp/out" ||
    fail "$what: $(cat "$tmp/out")"
run tells-run --tree "$tmp/t.csv" --classes 0,1 --predictions "$tmp/b1" --predictions "$tmp/a3"
expect 0 ""
expect_out_text "topic	tests	failures	failure_rate	changed
/A	100	23	0.115000	0
(all)	100	23	0.115000	0"
run tells-run -t "$tmp/t.csv" --predictions "$tmp/b1" --predictions "$tmp/a3"
expect 2 "tells-run: --predictions and --predictions: give one model (runs of several seeds are pooled with --tree)
Try 'tells-run --help' for more information."

what="subtopics roll up into their parents; invariance tests; the paper's format"
cat >"$tmp/paper.csv" <<'END'
,topic,type,value1,value2,value3,author,description
0,/Negation,topic_marker,,,,,
1,/Negation/Simple,{} should output {},I had no headache on zoloft,0,,anon,
2,/Negation/Simple,{} should not output {},zoloft gave me no itch,1,,anon,
3,/Negation,{} should have the same output as {},no rash from effexor,no rash after zoloft,,anon,
4,/Temporal,{} should have the same output as {},after zoloft I got a headache,I got a headache after zoloft,,anon,
5,/Temporal,{} should be invertable.,x,,,anon,
END
run tells-run --tree "$tmp/paper.csv" --model-cmd "$data/run/model.sh" --classes 0,1
expect 0 "tells-run: $tmp/paper.csv: 2 rows skipped (topic markers, or types other than should output, should not output and should have the same output as)"
# model.sh: 1 for "gave" or "after", else 0. Simple: pass, fail; the
# first invariance test fails (1, 0), the second passes (1, 1).
expect_out_text "topic	tests	failures	failure_rate	changed
/Negation	3	2	0.666667	0
/Negation/Simple	2	1	0.500000	0
/Temporal	1	0	0.000000	0
(all)	4	2	0.500000	0"

what="AdaTest's rule: a row whose output the model does not give is not scored"
run tells-run -q --tree "$data/run/tree.csv" --model-cmd "$data/run/model.sh" --classes 0,1
expect 0 ""
# model.sh answers 0 1 1 1 0 0 for outputs 0 0 1 1 0 1 (labels pass pass
# fail pass pass fail): rows 2 and 6 changed, row 3 fails.
expect_out_text "topic	tests	failures	failure_rate	changed
/Negation	3	1	0.500000	1
/Temporal	3	0	0.000000	1
(all)	6	1	0.250000	2"
run tells-run -q --tree "$data/run/tree.csv" --model-cmd "sed -u 's/.*/0/'" --classes 0,1
expect 0 ""
expect_out_text "topic	tests	failures	failure_rate	changed
/Negation	3	0	0.000000	1
/Temporal	3	0	0.000000	2
(all)	6	0	0.000000	3"
run tells-run -q --tree "$data/run/tree.csv" --model-cmd "sed -u 's/.*/1/'" --classes 0,1
expect 0 ""
expect_out_text "topic	tests	failures	failure_rate	changed
/Negation	3	1	1.000000	2
/Temporal	3	1	0.500000	1
(all)	6	2	0.666667	3"
what="a topic whose every row changed has no rate"
printf 'topic,input,output,label\n/x,a,1,pass\n' >"$tmp/one.csv"
run tells-run --tree "$tmp/one.csv" --model-cmd "sed -u 's/.*/0/'" \
    --before-model-cmd "sed -u 's/.*/1/'" --classes 0,1
expect 0 ""
expect_out_text "topic	tests	failures_before	failure_rate_before	failures_after	failure_rate_after	change	p_value	q_value	status	changed_before	changed_after
/x	1	0	0.000000	0	nan	nan	1	1	-	0	1"

what="bad values"
run tells-run --tree "$tmp/one.csv" --model-cmd cat --changed-output maybe
expect 2 "tells-run: invalid --changed-output 'maybe' (skip or flip)
Try 'tells-run --help' for more information."

finish
