#!/bin/sh
# Text rules shared by every reader: strict UTF-8 (no overlong forms,
# surrogates or code points past U+10FFFF, also none through JSON escapes),
# a leading byte-order mark dropped, inputs without examples refused,
# columns named twice and ids given twice refused where they matter.
. "${top_srcdir:-.}/tests/init.sh"

H='id	split	label	premise	hypothesis'
good='{"sentence1": "A man.", "sentence2": "A person.", "gold_label": "e", "pairID": "g1"}'
printf '%s\n1\ttrain\ta\tp\tx\n2\ttrain\tb\tp\ty\n3\tdev\ta\tp\tx\n4\tdev\tb\tp\ty\n' "$H" \
    >"$tmp/ok.tsv"
printf 'id\tgold\tpredicted\n1\ta\ta\n2\tb\ta\n' >"$tmp/pred.tsv"
vec=$corpora/vectors/toy-model.vec

# ---- invalid UTF-8: an overlong '/', an overlong '/' in three bytes, a
# surrogate, a code point past U+10FFFF ----
for seq in '\300\257' '\340\200\257' '\355\240\200' '\364\220\200\200'; do
    what="JSONL $seq"
    printf '%s\n{"sentence1": "a'"$seq"'b", "sentence2": "c", "gold_label": "e"}\n' "$good" \
        >"$tmp/u.jsonl"
    run tells-prep -q --split s "$tmp/u.jsonl"
    expect 1 "tells-prep: $tmp/u.jsonl:2: invalid UTF-8 (byte 17)"

    what="JSONL key $seq"
    printf '{"sentence1": "a", "x'"$seq"'": 1, "sentence2": "c", "gold_label": "e"}\n' \
        >"$tmp/u.jsonl"
    run tells-prep -q --split s "$tmp/u.jsonl"
    expect 1 "tells-prep: $tmp/u.jsonl:1: invalid UTF-8 (byte 22)"

    what="CSV $seq"
    printf 'sentence1,sentence2,gold_label\na,b,e\n"a'"$seq"'",b,e\n' >"$tmp/u.csv"
    run tells-prep -q --split s "$tmp/u.csv"
    expect 1 "tells-prep: $tmp/u.csv:3: invalid UTF-8"

    what="CSV header $seq"
    printf 'sentence1,sentence2,gold_label,x'"$seq"'\na,b,e,f\n' >"$tmp/u.csv"
    run tells-prep -q --split s "$tmp/u.csv"
    expect 1 "tells-prep: $tmp/u.csv:1: invalid UTF-8"

    what="TSV $seq"
    printf 'sentence1\tsentence2\tgold_label\na\tb'"$seq"'\te\n' >"$tmp/u.tsv"
    run tells-prep -q --split s "$tmp/u.tsv"
    expect 1 "tells-prep: $tmp/u.tsv:2: invalid UTF-8"

    what="prepared TSV $seq"
    printf '%s\n1\ttrain\ta\tp\tx'"$seq"'\n' "$H" >"$tmp/u.tsv"
    run tells-len "$tmp/u.tsv"
    expect 1 "tells-len: $tmp/u.tsv:2: invalid UTF-8"

    what="prepared TSV header $seq"
    printf '%s\tx'"$seq"'\n1\ttrain\ta\tp\tx\tf\n' "$H" >"$tmp/u.tsv"
    run tells-pmi "$tmp/u.tsv"
    expect 1 "tells-pmi: $tmp/u.tsv:1: invalid UTF-8"

    what="id file $seq"
    printf '1\nx'"$seq"'\n' >"$tmp/u.ids"
    run tells-split --keep "$tmp/u.ids" "$tmp/ok.tsv"
    expect 1 "tells-split: $tmp/u.ids:2: invalid UTF-8"

    what="prediction file $seq"
    printf 'id\tgold\tpredicted\n1\ta\ta'"$seq"'\n' >"$tmp/u.pred"
    run tells-stat metrics "$tmp/u.pred"
    expect 1 "tells-stat: $tmp/u.pred:2: invalid UTF-8"

    what="prediction file header $seq"
    printf 'id\tgold\tpredicted\tp_'"$seq"'\n1\ta\ta\t1\n' >"$tmp/u.pred"
    run tells-stat metrics "$tmp/u.pred"
    expect 1 "tells-stat: $tmp/u.pred:1: invalid UTF-8"

    what="p-value file $seq"
    printf 'test\tp_value\nt'"$seq"'\t0.5\n' >"$tmp/u.p"
    run tells-stat fdr "$tmp/u.p"
    expect 1 "tells-stat: $tmp/u.p:2: invalid UTF-8"

    what="number file $seq"
    printf '0.5\n0.6'"$seq"'\n' >"$tmp/u.n"
    run tells-stat welch "$tmp/u.n" "$tmp/u.n"
    expect 1 "tells-stat: $tmp/u.n:2: invalid UTF-8"

    what="contrast groups $seq"
    printf 'original\tcontrast\n1\t2'"$seq"'\n' >"$tmp/u.g"
    run tells-stat contrast --groups "$tmp/u.g" "$tmp/pred.tsv"
    expect 1 "tells-stat: $tmp/u.g:2: invalid UTF-8"
done

what="JSONL NUL byte"
printf '{"sentence1": "a\000b", "sentence2": "c", "gold_label": "e"}\n' >"$tmp/u.jsonl"
run tells-prep -q --split s "$tmp/u.jsonl"
expect 1 "tells-prep: $tmp/u.jsonl:1: NUL byte in input (byte 17)"

# JSON escapes of surrogates must pair up: yajl would make '?' of a lone
# high one, bytes that are no UTF-8 of a lone low one, and U+10000 of two
# high ones.
for esc in '\ud800' '\uDC00' '\ud800\ud800' '\ud800x' '\ud800\u0041' '\udfff\ud800'; do
    what="JSONL escape $esc"
    printf '{"sentence1": "a%sb", "sentence2": "c", "gold_label": "e"}\n' "$esc" >"$tmp/u.jsonl"
    first=$(printf '%s' "$esc" | cut -c 1-6)
    case $esc in '\ud800\ud800'|'\ud800\u0041') first='\ud800' ;; esac
    run tells-prep -q --split s "$tmp/u.jsonl"
    expect 1 "tells-prep: $tmp/u.jsonl:1: unpaired surrogate escape '$first' (byte 17)"
done
what="JSONL escapes that are fine: a pair, an escaped backslash"
printf '{"sentence1": "a\\ud83d\\ude00b \\\\ud800", "sentence2": "c", "gold_label": "e"}\n' \
    >"$tmp/u.jsonl"
run tells-prep -q --keep-case --split s "$tmp/u.jsonl"
expect 0 ""
expect_out_text "$(printf 'id\tsplit\tlabel\tpremise\thypothesis\ns0\ts\te\ta\360\237\230\200b ud800\tc')"
what="JSONL escapes of surrogates skipped with --skip-invalid"
printf '%s\n{"sentence1": "a\\udc00", "sentence2": "c", "gold_label": "e"}\n' "$good" >"$tmp/u.jsonl"
run tells-prep --skip-invalid --split s "$tmp/u.jsonl"
expect 0 "tells-prep: $tmp/u.jsonl: 1 example, 0 skipped without a gold label
tells-prep: $tmp/u.jsonl: 1 invalid record skipped"

# ---- a leading byte-order mark is dropped ----
bom=$(printf '\357\273\277')
what="BOM: JSONL"
printf '%s\n' "$good" >"$tmp/b.jsonl"
tells-prep -q --split s "$tmp/b.jsonl" >"$tmp/want"
printf '%s%s\r\n' "$bom" "$good" >"$tmp/b.jsonl"
run tells-prep -q --split s "$tmp/b.jsonl"
expect 0 ""
expect_out "$tmp/want"
what="BOM: CSV"
printf '%ssentence1,sentence2,gold_label,pairID\r\n"A man.",A person.,e,g1\r\n' "$bom" >"$tmp/b.csv"
run tells-prep -q --split s "$tmp/b.csv"
expect 0 ""
expect_out "$tmp/want"
what="BOM: TSV"
printf '%ssentence1\tsentence2\tgold_label\tpairID\nA man.\tA person.\te\tg1\n' "$bom" >"$tmp/b.tsv"
run tells-prep -q --split s "$tmp/b.tsv"
expect 0 ""
expect_out "$tmp/want"
what="BOM: a file of the mark alone is empty"
printf '%s' "$bom" >"$tmp/b.jsonl"
run tells-prep -q --split s "$tmp/b.jsonl"
expect 1 "tells-prep: $tmp/b.jsonl: no examples in the input"
what="BOM: prepared TSV"
tells-len "$tmp/ok.tsv" >"$tmp/want"
{ printf '%s' "$bom"; cat "$tmp/ok.tsv"; } >"$tmp/b.tsv"
run tells-len "$tmp/b.tsv"
expect 0 ""
expect_out "$tmp/want"
run sh -c "tells-len <'$tmp/b.tsv'"
expect 0 ""
expect_out "$tmp/want"
what="BOM: prepared TSV without a header"
tail -n +2 "$tmp/ok.tsv" | tells-pmi --no-header >"$tmp/want"
{ printf '%s' "$bom"; tail -n +2 "$tmp/ok.tsv"; } >"$tmp/b.tsv"
run tells-pmi --no-header "$tmp/b.tsv"
expect 0 ""
expect_out "$tmp/want"
what="BOM: id file"
printf '%s1\r\n3\n' "$bom" >"$tmp/b.ids"
run tells-split --keep "$tmp/b.ids" "$tmp/ok.tsv"
expect 0 ""
expect_out_text "$H
1	train	a	p	x
3	dev	a	p	x"
what="BOM: prediction file"
tells-stat metrics "$tmp/pred.tsv" >"$tmp/want"
{ printf '%s' "$bom"; cat "$tmp/pred.tsv"; } >"$tmp/b.pred"
run tells-stat metrics "$tmp/b.pred"
expect 0 ""
sed "s|$tmp/pred.tsv|$tmp/b.pred|" "$tmp/want" >"$tmp/want2"
expect_out "$tmp/want2"
what="BOM: number files"
printf '0.5\n0.7\n0.6\n' >"$tmp/n1"
printf '0.4\n0.5\n0.45\n' >"$tmp/n2"
tells-stat welch "$tmp/n1" "$tmp/n2" >"$tmp/want"
printf '%s0.5\n0.7\n0.6\n' "$bom" >"$tmp/n1"
printf '%sacc\n0.4\n0.5\n0.45\n' "$bom" >"$tmp/n3"
run tells-stat welch "$tmp/n1" "$tmp/n2"
expect 0 ""
expect_out "$tmp/want"
run tells-stat welch -c acc "$tmp/n3" "$tmp/n3"
expect 0 ""

# ---- no examples: empty, blank lines only, a header only ----
: >"$tmp/empty.tsv"
printf '\n \n\t\r\n' >"$tmp/blank.tsv"
printf '%s\n' "$H" >"$tmp/header.tsv"
printf '%s\n\n' "$H" >"$tmp/header-blank.tsv"
nohead="empty input: expected a prepared TSV header"
for f in empty blank header; do
    case $f in header) msg="no examples in the input" ;; *) msg=$nohead ;; esac
    for cmd in "tells-pmi" "tells-len" "tells-phrases" "tells-heur" "tells-split -s dev" \
        "tells-baseline" "tells-embed -v $vec" "tells-aflite -v $vec -m 1" \
        "tells-audit --reference $tmp/ok.tsv --folds 2 --group-by none"; do
        what="$cmd, $f"
        # shellcheck disable=SC2086
        run $cmd "$tmp/$f.tsv"
        expect 1 "${cmd%% *}: $tmp/$f.tsv: $msg"
    done
    what="tells-audit, reference $f"
    run tells-audit --reference "$tmp/$f.tsv" "$tmp/ok.tsv"
    expect 1 "tells-audit: $tmp/$f.tsv: $msg"
done
what="a header and a blank line: the blank line is a bad row"
run tells-len "$tmp/header-blank.tsv"
expect 1 "tells-len: $tmp/header-blank.tsv:2: expected 5 tab-separated columns, found 1"
for cmd in "tells-pmi" "tells-len" "tells-phrases" "tells-split -s dev"; do
    what="$cmd --no-header, empty"
    # shellcheck disable=SC2086
    run $cmd --no-header "$tmp/empty.tsv"
    expect 1 "${cmd%% *}: $tmp/empty.tsv: no examples in the input"
done
what="a blank line where the header should be"
{ echo; cat "$tmp/ok.tsv"; } >"$tmp/late.tsv"
run tells-len "$tmp/late.tsv"
expect 1 "tells-len: $tmp/late.tsv:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--no-header for headerless input)"
for f in empty blank; do
    what="prediction file, $f"
    run tells-stat metrics "$tmp/$f.tsv"
    expect 1 "tells-stat: $tmp/$f.tsv: empty input: expected a header naming the columns id, gold and predicted"
    what="p-value file, $f"
    run tells-stat fdr "$tmp/$f.tsv"
    expect 1 "tells-stat: $tmp/$f.tsv: empty input: expected a header naming the column 'p_value'"
    what="contrast groups, $f"
    run tells-stat contrast --groups "$tmp/$f.tsv" "$tmp/pred.tsv"
    expect 1 "tells-stat: $tmp/$f.tsv: empty input: expected a header 'original<TAB>contrast'"
done
what="prediction file, header only"
printf 'id\tgold\tpredicted\n' >"$tmp/h.pred"
run tells-stat metrics "$tmp/h.pred"
expect 1 "tells-stat: $tmp/h.pred: no examples"

# ---- columns named twice ----
what="prepared TSV: a further column twice"
printf '%s\tx\tx\n1\ttrain\ta\tp\tx\tf\tg\n' "$H" >"$tmp/d.tsv"
run tells-len "$tmp/d.tsv"
expect 1 "tells-len: $tmp/d.tsv:1: duplicate column 'x' (columns 6 and 7)"
what="prepared TSV: a further column named like one of the five"
printf '%s\tlabel\n1\ttrain\ta\tp\tx\tf\n' "$H" >"$tmp/d.tsv"
run tells-baseline "$tmp/d.tsv"
expect 1 "tells-baseline: $tmp/d.tsv:1: duplicate column 'label' (columns 3 and 6)"
what="prepared TSV: unnamed further columns may repeat"
printf '%s\t\t\n1\ttrain\ta\tp\tx\tf\tg\n' "$H" >"$tmp/d.tsv"
run tells-len "$tmp/d.tsv"
expect 0 ""
what="prediction file: a further column twice"
printf 'id\tgold\tpredicted\tp_a\tp_a\n1\ta\ta\t1\t1\n' >"$tmp/d.pred"
run tells-stat metrics "$tmp/d.pred"
expect 1 "tells-stat: $tmp/d.pred:1: duplicate column 'p_a' (columns 4 and 5)"
what="p-value file: a column twice"
printf 'test\tp_value\ttest\nt\t0.5\tu\n' >"$tmp/d.p"
run tells-stat fdr "$tmp/d.p"
expect 1 "tells-stat: $tmp/d.p:1: duplicate column 'test' (columns 1 and 3)"
what="number file with a header: a column twice"
printf 'acc\tacc\n0.5\t0.6\n' >"$tmp/d.n"
run tells-stat welch -c acc "$tmp/d.n" "$tmp/d.n"
expect 1 "tells-stat: $tmp/d.n:1: duplicate column 'acc' (columns 1 and 2)"

# ---- ids given twice ----
printf '%s\n1\ttrain\ta\tp\tx\n2\ttrain\tb\tp\ty\n1\tdev\ta\tp\tx\n' "$H" >"$tmp/dup.tsv"
dupmsg="$tmp/dup.tsv:4: duplicate id '1' (first on line 2)"
for cmd in "tells-baseline" "tells-embed -v $vec" "tells-aflite -v $vec -m 1" \
    "tells-audit --reference $tmp/ok.tsv --folds 2 --group-by none" "tells-split --keep $tmp/b.ids" \
    "tells-split --drop $tmp/b.ids"; do
    what="$cmd, an id twice"
    # shellcheck disable=SC2086
    run $cmd "$tmp/dup.tsv"
    expect 1 "${cmd%% *}: $dupmsg"
done
what="tells-audit, an id twice in the reference"
run tells-audit --reference "$tmp/dup.tsv" "$tmp/ok.tsv"
expect 1 "tells-audit: $dupmsg"
what="tells-split by split only: ids do not matter"
run tells-split -s dev "$tmp/dup.tsv"
expect 0 ""
expect_out_text "$H
1	dev	a	p	x"
what="an id file may list an id twice"
printf '1\n1\n' >"$tmp/twice.ids"
run tells-split --keep "$tmp/twice.ids" "$tmp/ok.tsv"
expect 0 ""
expect_out_text "$H
1	train	a	p	x"
finish
