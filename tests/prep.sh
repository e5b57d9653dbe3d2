#!/bin/sh
# tells-prep on well-formed input: fields, tokenisers, ids, splits,
# skipped labels, phrase and MeSH merging, CSV and TSV, line ends.
. "${top_srcdir:-.}/tests/init.sh"

cat >"$tmp/a.jsonl" <<'END'
{"sentence1": "The X-ray showed a 1.5 cm mass.", "sentence2": "Patient's CXR is normal.", "gold_label": "contradiction", "pairID": "p1"}
{"sentence1": "No fever.", "sentence2": "He has pneumonia!", "gold_label": "-", "pairID": "p2"}

{"sentence1": "Known heart failure, on furosemide.", "sentence2": "The patient has congestive heart failure.", "gold_label": "entailment"}
{"sentence1": "Café au lait spots.", "sentence2": "Skin: NORMAL.", "gold_label": "neutral", "pairID": 17}
{"sentence1": "x", "sentence2": "y", "gold_label": "", "pairID": "p5"}
END

what="default tokenizer"
run tells-prep --split train "$tmp/a.jsonl"
expect 0 "tells-prep: $tmp/a.jsonl: 3 examples, 2 skipped without a gold label"
expect_out_text "id	split	label	premise	hypothesis
p1	train	contradiction	the x-ray showed a 1.5 cm mass	patient's cxr is normal
train2	train	entailment	known heart failure on furosemide	the patient has congestive heart failure
17	train	neutral	café au lait spots	skin normal"

what="keep case and punctuation"
run tells-prep -q --keep-case --keep-punct --split s "$tmp/a.jsonl"
expect 0 ""
sed -n 2p "$tmp/out" >"$tmp/line"
printf 'p1\ts\tcontradiction\tThe X-ray showed a 1.5 cm mass .\tPatient'"'"'s CXR is normal .\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/line" || fail "$what: $(cat "$tmp/line")"

what="whitespace tokenizer"
run tells-prep -q -t whitespace --split s "$tmp/a.jsonl"
expect 0 ""
sed -n 3p "$tmp/out" | grep -qx 's2	s	entailment	known heart failure, on furosemide.	the patient has congestive heart failure.' ||
    fail "$what: $(sed -n 3p "$tmp/out")"

what="phrases and MeSH"
printf '# a comment\ncongestive heart failure\tlearned\nCafé au lait spots\n' >"$tmp/phrases"
run tells-prep -q --phrases "$tmp/phrases" --mesh "$corpora/mesh/mtrees2017.txt" \
    --split s "$tmp/a.jsonl"
expect 0 ""
cut -f 4,5 "$tmp/out" >"$tmp/texts"
printf '%s\n' 'premise	hypothesis' \
    'the x-ray showed a 1.5 cm mass	patient'"'"'s cxr is normal' \
    'known heart_failure on furosemide	the patient has congestive_heart_failure' \
    'café_au_lait_spots	skin normal' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/texts" || { fail "$what"; diff "$tmp/want" "$tmp/texts" >&2; }

what="several splits, positional ids per split, output file"
printf '{"sentence1": "a b", "sentence2": "c", "gold_label": "e"}\n' >"$tmp/one.jsonl"
run tells-prep -q -o "$tmp/out.tsv" --split train "$tmp/one.jsonl" \
    --split dev "$tmp/a.jsonl" --split train "$tmp/one.jsonl.copy" 2>/dev/null
expect 1 "tells-prep: $tmp/one.jsonl.copy: cannot open: No such file or directory"
[ -e "$tmp/out.tsv" ] && fail "$what: output left behind after a failure"
printf '{"sentence1": "a b", "sentence2": "c", "gold_label": "e", "pairID": null}\n' >"$tmp/one.jsonl.copy"
run tells-prep -q -o "$tmp/out.tsv" --split train "$tmp/one.jsonl" \
    --split dev "$tmp/a.jsonl" --split train "$tmp/one.jsonl.copy"
expect 0 ""
cut -f 1,2 "$tmp/out.tsv" | tr '\t\n' '  ' >"$tmp/ids"
[ "$(cat "$tmp/ids")" = "id split train0 train p1 dev dev2 dev 17 dev train1 train " ] ||
    fail "$what: $(cat "$tmp/ids")"

what="CRLF and no final newline give the same output"
tells-prep -q --split s "$tmp/a.jsonl" >"$tmp/lf.tsv"
sed 's/$/\r/' "$tmp/a.jsonl" | head -c -2 >"$tmp/crlf.jsonl"
run tells-prep -q --split s "$tmp/crlf.jsonl"
expect 0 ""
expect_out "$tmp/lf.tsv"

what="CSV with quotes, embedded newline and CRLF"
printf 'pairID,sentence1,sentence2,gold_label,extra\r\n1,"A, b","say ""hi""",e,x\r\n2,"multi\nline",w,n,y\n,p,q,c,z' >"$tmp/c.csv"
run tells-prep -q --split t "$tmp/c.csv"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
1	t	e	a b	say hi
2	t	n	multi line	w
t2	t	c	p	q"

what="TSV with other column names and a literal quote"
printf 'hyp\tprem\tlabel\n5" tall\tHe is tall\tentailment\n' >"$tmp/d.txt"
run tells-prep -q -f tsv --premise-field prem --hypothesis-field hyp \
    --label-field label --split t "$tmp/d.txt"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
t0	t	entailment	he is tall	5 tall"

what="JSONL from stdin with other field names"
run sh -c "printf '{\"p\": \"A\", \"h\": \"B\", \"y\": \"yes\", \"k\": \"id-1\"}' |
    tells-prep -q --premise-field p --hypothesis-field h --label-field y --id-field k --split x -"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
id-1	x	yes	a	b"

what="allowed labels"
run tells-prep -q --labels contradiction,entailment,neutral --split s "$tmp/a.jsonl"
expect 0 ""
finish
