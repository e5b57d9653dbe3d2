#!/bin/sh
# Bad input to tells-prep: one clear line naming file and line, exit 1,
# and an existing output file left as it was.
. "${top_srcdir:-.}/tests/init.sh"

good='{"sentence1": "A man.", "sentence2": "A person.", "gold_label": "entailment", "pairID": "g1"}'
printf 'id\tsplit\tlabel\tpremise\thypothesis\nold\tgood\tdata\there\tkeep\n' >"$tmp/keep.tsv"
cp "$tmp/keep.tsv" "$tmp/keep.orig"

# bad NAME LINE2 MESSAGE: a JSONL file whose second line is LINE2 fails
# with MESSAGE, with and without -o, leaving -o's file untouched.
bad() {
    what=$1
    printf '%s\n%s\n' "$good" "$2" >"$tmp/in.jsonl"
    run tells-prep -q --split s "$tmp/in.jsonl"
    expect 1 "tells-prep: $tmp/in.jsonl:2: $3"
    run tells-prep -q -o "$tmp/keep.tsv" --split s "$tmp/in.jsonl"
    expect 1 "tells-prep: $tmp/in.jsonl:2: $3"
    cmp -s "$tmp/keep.tsv" "$tmp/keep.orig" || fail "$what: output file changed"
    ls -a "$tmp" | grep -q '^\.keep\.tsv\.' && fail "$what: temporary file left behind"
}

bad "malformed JSON" '{"sentence1": "a", "sentence2": "b" "gold_label": "e"}' \
    "malformed JSON: after key and value, inside map, I expect ',' or '}' (byte 39)"
bad "truncated JSON" '{"sentence1": "a", "sentence2": "b", "gold_' \
    "malformed JSON: the record does not end on its line"
bad "trailing garbage" '{"sentence1": "a", "sentence2": "b", "gold_label": "e"} x' \
    "malformed JSON: lexical error: invalid char in json text (byte 58)"
bad "trailing comma" '{"sentence1": "a", "sentence2": "b", "gold_label": "e",}' \
    "malformed JSON: invalid object key (must be a string) (byte 57)"
bad "two records on a line" '{"a": 1} {"b": 2}' "more than one JSON value on the line"
bad "a number" '3' "expected a JSON object"
bad "NUL in text" '{"sentence1": "a\u0000b", "sentence2": "b", "gold_label": "e"}' \
    "field 'sentence1' contains a NUL character"
bad "not an object" '["a", "b", "e"]' "expected a JSON object"
bad "missing field" '{"sentence1": "a", "gold_label": "e"}' "missing field 'sentence2'"
bad "non-string label" '{"sentence1": "a", "sentence2": "b", "gold_label": 1}' \
    "field 'gold_label' is not a string"
bad "null premise" '{"sentence1": null, "sentence2": "b", "gold_label": "e"}' \
    "field 'sentence1' is not a string"
bad "bad id type" '{"sentence1": "a", "sentence2": "b", "gold_label": "e", "pairID": [1]}' \
    "field 'pairID' is not a string or integer"
bad "fractional id" '{"sentence1": "a", "sentence2": "b", "gold_label": "e", "pairID": 1.5}' \
    "field 'pairID' is not a string or integer"
bad "duplicate key" '{"sentence1": "a", "sentence2": "b", "gold_label": "e", "gold_label": "n"}' \
    "duplicate key 'gold_label'"
bad "invalid UTF-8" "$(printf '{"sentence1": "caf\351", "sentence2": "b", "gold_label": "e"}')" \
    "invalid UTF-8 (byte 19)"
bad "empty hypothesis" '{"sentence1": "a", "sentence2": "", "gold_label": "e"}' \
    "empty hypothesis (no tokens)"
bad "punctuation-only hypothesis" '{"sentence1": "a", "sentence2": " ... ", "gold_label": "e"}' \
    "empty hypothesis (no tokens)"
bad "empty premise" '{"sentence1": "  ", "sentence2": "b", "gold_label": "e"}' \
    "empty premise (no tokens)"
bad "label with a tab" '{"sentence1": "a", "sentence2": "b", "gold_label": "e\tx"}' \
    "label contains a tab or line break"
bad "id with a newline" '{"sentence1": "a", "sentence2": "b", "gold_label": "e", "pairID": "a\nb"}' \
    "id contains a tab, line break or NUL"
bad "label of spaces" '{"sentence1": "a", "sentence2": "b", "gold_label": "  "}' \
    "label of spaces only"
bad "id with a byte-order mark" '{"sentence1": "a", "sentence2": "b", "gold_label": "e", "pairID": "\ufeffx"}' \
    "id starts with a byte-order mark"
bad "empty id" '{"sentence1": "a", "sentence2": "b", "gold_label": "e", "pairID": ""}' \
    "empty id"
bad "duplicate id" '{"sentence1": "a", "sentence2": "b", "gold_label": "e", "pairID": "g1"}' \
    "duplicate id 'g1' (first at $tmp/in.jsonl:1)"

what="unknown label"
printf '%s\n%s\n' "$good" '{"sentence1": "a", "sentence2": "b", "gold_label": "entails"}' >"$tmp/in.jsonl"
run tells-prep -q --labels entailment,neutral,contradiction --split s "$tmp/in.jsonl"
expect 1 "tells-prep: $tmp/in.jsonl:2: unknown label 'entails'"

what="skip invalid records and count them"
printf '%s\n%s\n%s\n' '{"sentence1": "a", "sentence2": ""' "$good" \
    '{"sentence1": "a", "sentence2": "", "gold_label": "e"}' >"$tmp/in.jsonl"
run tells-prep --skip-invalid --split s "$tmp/in.jsonl"
expect 0 "tells-prep: $tmp/in.jsonl: 1 example, 0 skipped without a gold label
tells-prep: $tmp/in.jsonl: 2 invalid records skipped"
expect_out_text "id	split	label	premise	hypothesis
g1	s	entailment	a man	a person"

what="very long line within the limit"
long=$(awk 'BEGIN { for (i = 0; i < 30000; i++) printf "word%d ", i % 50 }')
printf '{"sentence1": "%s", "sentence2": "b", "gold_label": "e"}\n' "$long" >"$tmp/long.jsonl"
run tells-prep -q --split s "$tmp/long.jsonl"
expect 0 ""
[ "$(sed -n 2p "$tmp/out" | cut -f 4 | wc -w)" = 30000 ] || fail "$what: tokens lost"
what="line over --max-line"
run tells-prep -q --max-line 100000 --split s "$tmp/long.jsonl"
expect 1 "tells-prep: $tmp/long.jsonl:1: line longer than 100000 bytes"

# No examples: one error, and no output (the old -o file kept).
what="empty input"
: >"$tmp/empty.jsonl"
run tells-prep --split s "$tmp/empty.jsonl"
expect 1 "tells-prep: $tmp/empty.jsonl: no examples in the input"
what="empty input, -o kept"
run tells-prep -o "$tmp/keep.tsv" --split s "$tmp/empty.jsonl"
expect 1 "tells-prep: $tmp/empty.jsonl: no examples in the input"
cmp -s "$tmp/keep.tsv" "$tmp/keep.orig" || fail "$what: output file changed"
what="blank lines only"
printf '\n  \n\t\n\r\n' >"$tmp/blank.jsonl"
run tells-prep --split s "$tmp/blank.jsonl"
expect 1 "tells-prep: $tmp/blank.jsonl: no examples in the input"
what="one empty input among good ones"
printf '%s\n' "$good" >"$tmp/good.jsonl"
run tells-prep -q --split a "$tmp/good.jsonl" --split b "$tmp/empty.jsonl"
expect 1 "tells-prep: $tmp/empty.jsonl: no examples in the input"
what="every record without a gold label"
printf '%s\n' '{"sentence1": "a", "sentence2": "b", "gold_label": "-"}' >"$tmp/unlabeled.jsonl"
run tells-prep --split a "$tmp/good.jsonl" --split s "$tmp/unlabeled.jsonl"
expect 1 "tells-prep: $tmp/good.jsonl: 1 example, 0 skipped without a gold label
tells-prep: $tmp/unlabeled.jsonl: 0 examples, 1 skipped without a gold label
tells-prep: $tmp/unlabeled.jsonl: no examples left: 1 skipped without a gold label, 0 invalid"
what="every record invalid and skipped"
printf '%s\n%s\n' '{"sentence1": "a"}' '{"sentence1": "a", "sentence2": "b", "gold_label": ""}' \
    >"$tmp/invalid.jsonl"
run tells-prep -q --skip-invalid -o "$tmp/keep.tsv" --split a "$tmp/invalid.jsonl"
expect 1 "tells-prep: $tmp/invalid.jsonl: no examples left: 1 skipped without a gold label, 1 invalid"
cmp -s "$tmp/keep.tsv" "$tmp/keep.orig" || fail "$what: output file changed"

what="missing file"
run tells-prep --split s "$tmp/nope.jsonl"
expect 1 "tells-prep: $tmp/nope.jsonl: cannot open: No such file or directory"

# CSV and TSV
what="CSV unknown column"
printf 'premise,hypothesis,label\na,b,e\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 1 "tells-prep: $tmp/c.csv:1: no column named 'gold_label' in the header"
what="CSV short row"
printf 'sentence1,sentence2,gold_label\na,b,e\na,b\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 1 "tells-prep: $tmp/c.csv:3: expected 3 columns, found 2"
what="CSV stray quote"
printf 'sentence1,sentence2,gold_label\na,b,e\na,b"c,e\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 1 "tells-prep: $tmp/c.csv:3: malformed CSV: a quote inside an unquoted field, or a quoted field that does not end"
what="CSV unterminated quote"
printf 'sentence1,sentence2,gold_label\na,b,e\n"a,b,e\nx,y,z\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 1 "tells-prep: $tmp/c.csv:3: malformed CSV: a quote inside an unquoted field, or a quoted field that does not end"
what="CSV invalid UTF-8"
printf 'sentence1,sentence2,gold_label\na,b,e\na,b\377,e\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 1 "tells-prep: $tmp/c.csv:3: invalid UTF-8"
what="TSV NUL byte"
printf 'sentence1\tsentence2\tgold_label\na\tb\000\te\n' >"$tmp/c.tsv"
run tells-prep -q --split s "$tmp/c.tsv"
expect 1 "tells-prep: $tmp/c.tsv:2: NUL byte in input"
what="CSV empty"
: >"$tmp/e.csv"
run tells-prep -q --split s "$tmp/e.csv"
expect 1 "tells-prep: $tmp/e.csv: empty input: expected a header row"
what="CSV blank lines only"
printf '\n\r\n\n' >"$tmp/e.csv"
run tells-prep -q --split s "$tmp/e.csv"
expect 1 "tells-prep: $tmp/e.csv: empty input: expected a header row"
what="CSV header only"
printf 'sentence1,sentence2,gold_label\n' >"$tmp/h.csv"
run tells-prep -q --split s "$tmp/h.csv"
expect 1 "tells-prep: $tmp/h.csv: no examples in the input"
what="TSV header and blank lines"
printf 'sentence1\tsentence2\tgold_label\n\n\n' >"$tmp/h.tsv"
run tells-prep -q --split s "$tmp/h.tsv"
expect 1 "tells-prep: $tmp/h.tsv: no examples in the input"
what="CSV column named twice"
printf 'sentence1,gold_label,sentence2,gold_label\na,e,b,n\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 1 "tells-prep: $tmp/c.csv:1: duplicate column 'gold_label' (columns 2 and 4)"
what="TSV column named twice, not one of the fields"
printf 'x\tsentence1\tsentence2\tgold_label\tx\na\tb\tc\te\tf\n' >"$tmp/c.tsv"
run tells-prep -q --split s "$tmp/c.tsv"
expect 1 "tells-prep: $tmp/c.tsv:1: duplicate column 'x' (columns 1 and 5)"
what="CSV unnamed columns may repeat"
printf ',sentence1,,sentence2,gold_label\n0,a,x,b,e\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
s0	s	e	a	b"
what="CSV single-text corpus with an unnamed column: no premise taken from it"
printf ',text,label\n0,a b,e\n' >"$tmp/c.csv"
run tells-prep -q --premise-field '' --hypothesis-field text --label-field label --split s "$tmp/c.csv"
expect 0 ""
expect_out_text "id	split	label	premise	hypothesis
s0	s	e	-	a b"
what="CSV header with invalid UTF-8"
printf 'sentence1,sentence2,gold_label,\300\257\na,b,e,x\n' >"$tmp/c.csv"
run tells-prep -q --split s "$tmp/c.csv"
expect 1 "tells-prep: $tmp/c.csv:1: invalid UTF-8"

# Usage errors
what="no input"
run tells-prep
expect 2 "tells-prep: no input: give at least one --split NAME FILE
Try 'tells-prep --help' for more information."
what="split without file"
run tells-prep --split train
expect 2 "tells-prep: option '--split' needs a NAME and a FILE
Try 'tells-prep --help' for more information."
what="stray operand"
run tells-prep --split a "$tmp/in.jsonl" extra.jsonl
expect 2 "tells-prep: unexpected argument 'extra.jsonl' (inputs are given as --split NAME FILE)
Try 'tells-prep --help' for more information."
what="bad format"
run tells-prep --format xml --split a x
expect 2 "tells-prep: invalid format 'xml' (jsonl, csv, tsv or auto)
Try 'tells-prep --help' for more information."
what="bad tokenizer"
run tells-prep -t spacy --split a x
expect 2 "tells-prep: invalid tokenizer 'spacy' (default or whitespace)
Try 'tells-prep --help' for more information."
what="bad max-line"
run tells-prep --max-line 0 --split a x
expect 2 "tells-prep: invalid value '0' for --max-line (expected an integer from 1 to 1099511627776)
Try 'tells-prep --help' for more information."

# Lexicons
what="MeSH file with two columns"
printf 'Tree Number\tDesc Ui\tTerm\nA01\tD001829\tBody Regions\nA01.111\tD059925\n' >"$tmp/mesh.txt"
run tells-prep --mesh "$tmp/mesh.txt" --split s "$tmp/one.jsonl"
expect 1 "tells-prep: $tmp/mesh.txt:3: expected 3 tab-separated columns (tree number, descriptor, term)"
what="MeSH duplicate tree number"
printf 'A01\tD001829\tBody Regions\nA01\tD059925\tLandmarks\n' >"$tmp/mesh.txt"
run tells-prep --mesh "$tmp/mesh.txt" --split s "$tmp/one.jsonl"
expect 1 "tells-prep: $tmp/mesh.txt:2: tree number A01 already given on line 1"
what="MeSH empty term"
printf 'A01\tD001829\t\n' >"$tmp/mesh.txt"
run tells-prep --mesh "$tmp/mesh.txt" --split s "$tmp/one.jsonl"
expect 1 "tells-prep: $tmp/mesh.txt:1: empty term"
what="MeSH bad tree number"
printf 'A01.\tD001829\tX\n' >"$tmp/mesh.txt"
run tells-prep --mesh "$tmp/mesh.txt" --split s "$tmp/one.jsonl"
expect 1 "tells-prep: $tmp/mesh.txt:1: malformed tree number 'A01.'"
what="phrase file with invalid UTF-8"
printf 'heart failure\nbad \377 phrase\n' >"$tmp/ph.txt"
run tells-prep --phrases "$tmp/ph.txt" --split s "$tmp/one.jsonl"
expect 1 "tells-prep: $tmp/ph.txt:2: invalid UTF-8"
# stdin is read once: two splits from '-' are a usage error, not an empty
# second split.
what="two splits from stdin"
printf '%s\n' "$good" >"$tmp/one.jsonl"
run tells-prep -q -o "$tmp/keep.tsv" --format jsonl --split a - --split b - <"$tmp/one.jsonl"
expect 2 "tells-prep: stdin: already read for another input ('-' can stand for one input only)
Try 'tells-prep --help' for more information."
cmp -s "$tmp/keep.tsv" "$tmp/keep.orig" || fail "$what: output changed"
finish
