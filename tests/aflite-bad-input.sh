#!/bin/sh
# Bad input to tells-embed and tells-aflite: vector files (wrong dimensions,
# a header that lies, NaN, text, invalid UTF-8, a truncated .bin), .npy
# matrices (rows or values that do not fit, NaN and infinity, truncation),
# split files, impossible settings and options. Each gets one line naming
# the file (and line), exit 1 (2 for usage), and no output is changed.
. "${top_srcdir:-.}/tests/init.sh"

H='id	split	label	premise	hypothesis'
x=$data/aflite-x.npy
tsv=$data/aflite.tsv
printf "$H\na\tt\tentailment\tthe of\tthe society\nb\tt\tneutral\tan\tthe term\n" >"$tmp/t.tsv"
printf 'old matrix\n' >"$tmp/keep.npy"
for f in rounds easy difficult scores splits; do printf 'old %s\n' "$f" >"$tmp/keep.$f"; done

# embed NAME STDERR ARGS...: tells-embed fails with exit 1 and STDERR, and
# the old output stays.
embed() {
    what="tells-embed: $1" msg=$2
    shift 2
    run tells-embed -o "$tmp/keep.npy" "$@"
    expect 1 "tells-embed: $msg"
    [ "$(cat "$tmp/keep.npy")" = "old matrix" ] || fail "$what: output changed"
}
badvec() {
    printf "$2" >"$tmp/bad.vec"
    embed "$1" "$tmp/bad.vec$3" -v "$tmp/bad.vec" "$tmp/t.tsv"
}
badvec "dimensions against the header" '2 5\nthe 1 2 3 4 5\nof 1 2 3 4\n' \
    ":3: 4 numbers, but the header (line 1) gives 5 dimensions"
badvec "dimensions against the first vector" 'the 1 2 3\nof 1 2 3 4\n' \
    ":2: 4 numbers, but the first vector has 3"
badvec "a header that lies" '3 2\nthe 1 2\nof 1 2\n' ":1: the header gives 3 words, the file has 2"
badvec "a header with a minus sign (not a header)" ' -5 3\nthe 1 2 3\n' \
    ":1: expected a word and its numbers separated by single spaces"
badvec "a header with a plus sign (not a header)" '2 +3\nthe 1 2 3\nof 1 2 3\n' \
    ":2: 3 numbers, but the first vector has 1"
badvec "NaN" 'of 1 2 3\nthe 1 nan 3\n' ":2: number 2 is not finite"
badvec "infinity" 'the 1 inf 3\n' ":1: number 2 is not finite"
badvec "out of float range" 'the 1 2 1e50\n' ":1: number 3 is not finite"
badvec "text for a number" 'the 1 2 x\n' ":1: number 3 is not a number"
badvec "a word without numbers" 'the\n' ":1: a word without numbers"
badvec "tabs" 'the\t1 2\n' ":1: expected a word and its numbers separated by single spaces"
badvec "invalid UTF-8" 'th\377 1 2\n' ":1: invalid UTF-8"
badvec "empty file" '' ": no vectors in the file"
embed "the bundled malformed .vec" "$corpora/vectors/pretrained.vec:1: the header gives 3 words, the file has 1" \
    -v "$corpora/vectors/pretrained.vec" "$tmp/t.tsv"
head -c 1000 "$corpora/vectors/toy-model.bin" >"$tmp/trunc.bin"
embed "a truncated .bin" "$tmp/trunc.bin: truncated fastText model (the input matrix claims 122 x 5 numbers, the file has 584 of their 2440 bytes)" -v "$tmp/trunc.bin" "$tmp/t.tsv"
embed "a missing file" "$tmp/nope.vec: cannot open: No such file or directory" -v "$tmp/nope.vec" "$tmp/t.tsv"
printf "$H\na\tt\te\tthe\n" >"$tmp/short.tsv"
embed "a bad prepared TSV" "$tmp/short.tsv:2: expected 5 tab-separated columns, found 4" \
    -v "$corpora/vectors/toy-model.vec" "$tmp/short.tsv"
printf "$H\n" >"$tmp/empty.tsv"
embed "no examples" "$tmp/empty.tsv: no examples in the input" \
    -v "$corpora/vectors/toy-model.vec" "$tmp/empty.tsv"

# aflite NAME STDERR ARGS...: tells-aflite fails with exit 1 and STDERR,
# and none of its outputs changed.
aflite() {
    what="tells-aflite: $1" msg=$2
    shift 2
    run tells-aflite -o "$tmp/keep.rounds" --easy "$tmp/keep.easy" --difficult "$tmp/keep.difficult" \
        --scores "$tmp/keep.scores" --write-splits "$tmp/keep.splits" "$@"
    expect 1 "tells-aflite: $msg"
    for f in rounds easy difficult scores splits; do
        [ "$(cat "$tmp/keep.$f")" = "old $f" ] || fail "$what: $f changed"
    done
    [ -e "$tmp/keep.easy.sha256" ] && fail "$what: a checksum file was written"
    left=$(ls -A "$tmp" | grep '^\.keep' || :)
    [ -n "$left" ] && fail "$what: temporary files left: $left"
}
# A copy of the fixture matrix with the 4 bytes of value number NUM
# replaced by BYTES (octal escapes).
patched() {
    hlen=$(od -An -tu2 -j8 -N2 "$x" | tr -d ' ')
    cp "$x" "$tmp/patched.npy"
    printf "$2" | dd of="$tmp/patched.npy" bs=1 seek=$((10 + hlen + 4 * $1)) conv=notrunc 2>/dev/null
}
patched 35 '\000\000\300\177'
aflite "NaN in the matrix" "$tmp/patched.npy: row 4 (id g-00004), column 3 is NaN" \
    -e "$tmp/patched.npy" -m 240 "$tsv"
patched 8 '\000\000\200\377'
aflite "infinity in the matrix" "$tmp/patched.npy: row 1 (id g-00001), column 0 is infinite" \
    -e "$tmp/patched.npy" -m 240 "$tsv"
head -n 600 "$tsv" >"$tmp/599.tsv"
aflite "rows against the TSV" "$x: 600 rows, but $tmp/599.tsv has 599 examples" -e "$x" -m 240 "$tmp/599.tsv"
head -c 1000 "$x" >"$tmp/trunc.npy"
aflite "a truncated matrix" "$tmp/trunc.npy: the header claims 19200 bytes of data (a 600 x 8 matrix), the file has 872" \
    -e "$tmp/trunc.npy" -m 240 "$tsv"
what="a truncated matrix from a pipe"
run sh -c "cat '$tmp/trunc.npy' | tells-aflite -e - -m 240 '$tsv'"
expect 1 "tells-aflite: stdin: truncated .npy file: 872 of 19200 bytes of data"
what="trailing data from a pipe"
run sh -c "{ cat '$x'; echo x; } | tells-aflite -e - -m 240 '$tsv'"
expect 1 "tells-aflite: stdin: trailing data after the 600 x 8 matrix"
# A header that claims 10^6 x 10^6 values in a file of 6 KB: refused before
# any allocation of that size (which would fail as 'out of memory').
npyhead() {  # SHAPE: a version 1.0 float32 header of 128 bytes
    d="{'descr': '<f4', 'fortran_order': False, 'shape': ($1), }"
    printf '\223NUMPY\001\000\166\000%s' "$d"
    printf '%*s\n' $((117 - ${#d})) ''
}
{ npyhead '1000000, 1000000'; head -c 5936 /dev/zero; } >"$tmp/huge.npy"
aflite "a header that claims too much" "$tmp/huge.npy: the header claims 4000000000000 bytes of data (a 1000000 x 1000000 matrix), the file has 5936" \
    -e "$tmp/huge.npy" -m 240 "$tsv"
what="a header that claims too much, from a pipe"
run sh -c "cat '$tmp/huge.npy' | tells-aflite -e - -m 240 '$tsv'"
expect 1 "tells-aflite: stdin: truncated .npy file: 5936 of 4000000000000 bytes of data"
{ npyhead '4611686018427387904, 4'; head -c 64 /dev/zero; } >"$tmp/overflow.npy"
aflite "rows times columns overflows" "$tmp/overflow.npy: a 4611686018427387904 x 4 matrix is too large" \
    -e "$tmp/overflow.npy" -m 240 "$tsv"
aflite "not a matrix" "$tsv: not a .npy file" -e "$tsv" -m 240 "$tsv"
aflite "m as large as the corpus" "$tsv: the training size m = 600 is not smaller than the 600 examples (give -m or --train-frac)" \
    -e "$x" -m 600 "$tsv"
aflite "the default m on a small corpus" "$tsv: the training size m = 5620 is not smaller than the 600 examples (give -m or --train-frac)" \
    -e "$x" "$tsv"
awk -F'\t' -v OFS='\t' 'NR > 1 { $3 = "entailment" } 1' "$tsv" >"$tmp/one.tsv"
aflite "one class" "$tmp/one.tsv: one class only ('entailment'): nothing to classify" -e "$x" -m 240 "$tmp/one.tsv"
aflite "a vector file that does not fit" "$tmp/bad.vec: no vectors in the file" \
    -v "$tmp/bad.vec" -m 1 "$tmp/t.tsv"
badsplits() {
    printf "$2" >"$tmp/splits.txt"
    aflite "splits: $1" "$tmp/splits.txt$3" -e "$x" -n 2 -m 3 --splits "$tmp/splits.txt" "$tsv"
}
badsplits "too few rows" '0 1 2\n3 4\n' ":2: 2 rows, expected the training size 3"
badsplits "too many rows" '0 1 2 5\n3 4 5\n' ":1: 4 rows, expected the training size 3"
badsplits "a row twice" '0 1 1\n3 4 5\n' ":1: row 1 is given twice"
badsplits "past the last row" '0 1 600\n3 4 5\n' ":1: row 600 is past the last row (600 rows, counted from 0)"
badsplits "past 2^64" '0 1 99999999999999999999\n3 4 5\n' ":1: row 99999999999999999999 is past the last row (600 rows, counted from 0)"
badsplits "not a number" '0 1 x\n3 4 5\n' ":1: expected row numbers separated by spaces"
badsplits "negative" '0 1 -2\n3 4 5\n' ":1: expected row numbers separated by spaces"
badsplits "too few lines" '0 1 2\n' ": 1 lines, expected one for each of the 2 models"
badsplits "too many lines" '0 1 2\n3 4 5\n6 7 8\n' ":3: more than the 2 lines of the 2 models"
# A training part of one class: rows 0, 1, 3 are all of one class?
first=$(awk -F'\t' 'NR > 1 && $3 == "entailment" { printf "%d ", NR - 2; if (++n == 3) exit }' "$tsv")
printf '%s\n0 1 2\n' "$first" >"$tmp/splits.txt"
aflite "a training part of one class" "the training set of model 1 has examples of one class only" \
    -e "$x" -n 2 -m 3 --splits "$tmp/splits.txt" "$tsv"

# --- usage errors ---
for args in "-m 240|give --embeddings FILE.npy or --vectors FILE" \
    "-e $x -v v.vec -m 240|--embeddings and --vectors exclude each other" \
    "-e $x --input pair -m 240|--input, --pair and --skip-oov go with --vectors" \
    "-v v.vec --pair concat -m 240|--pair needs --input pair" \
    "-e $x -m 240 --train-frac 0.4|--train-size and --train-frac exclude each other" \
    "-e $x --train-frac 1|invalid value '1' for --train-frac (expected a number > 0 and < 1)" \
    "-e $x -m 240 --tau 1.5|invalid value '1.5' for --tau (expected a number from 0 to 1)" \
    "-e $x -m 0|invalid value '0' for --train-size (expected an integer >= 1)" \
    "-e $x -m 240 --easy -|--easy needs a file (it writes a checksum file beside it)" \
    "-e $x -m 240 --easy a --difficult a|--easy and --difficult name the same file: a" \
    "-e $x -m 240 --scores a -o a|--scores and --output name the same file: a" \
    "-e $x -m 240 --tol 0|invalid value '0' for --tol (expected a number > 0)" \
    "-e $x -m 240 $tsv $tsv|one prepared TSV only (extra operand '$tsv')" \
    "-e $x -m 240|missing the prepared TSV"; do
    opts=${args%%|*}
    what="tells-aflite $opts"
    case $opts in *"$tsv"*|*"missing"*) set -- ;; *) set -- "$tsv" ;; esac
    case ${args#*|} in "missing the prepared TSV") set -- ;; esac
    # shellcheck disable=SC2086
    run tells-aflite $opts "$@"
    expect 2 "tells-aflite: ${args#*|}
Try 'tells-aflite --help' for more information."
done
for args in "$tmp/t.tsv|give --vectors FILE or --train-vectors FILE" \
    "-v a --train-vectors b $tmp/t.tsv|--vectors and --train-vectors exclude each other" \
    "-v a --pair sum $tmp/t.tsv|--pair needs --input pair" \
    "-v a --input both $tmp/t.tsv|invalid --input 'both' (hypothesis, premise or pair)" \
    "-v a|missing the prepared TSV"; do
    opts=${args%%|*}
    what="tells-embed $opts"
    # shellcheck disable=SC2086
    run tells-embed -o "$tmp/x.npy" $opts
    expect 2 "tells-embed: ${args#*|}
Try 'tells-embed --help' for more information."
done
# stdin is read once: the prepared TSV and the .npy matrix both from '-'
# is a usage error (the matrix's reader claims stdin as the lines' does).
what="tells-aflite: stdin twice"
run tells-aflite -e - -m 100 -k 1 -o "$tmp/keep.rounds" - <"$tsv"
expect 2 "tells-aflite: stdin: already read for another input ('-' can stand for one input only)
Try 'tells-aflite --help' for more information."
[ "$(cat "$tmp/keep.rounds")" = "old rounds" ] || fail "$what: output changed"
finish
