#!/bin/sh
# Model and vector files as untrusted input: fastText .bin models cut short
# or with fields out of range (which libfasttext would read for ever, abort
# on, or allocate terabytes for) are refused with one line by tells-run
# --model, tells-audit --model and tells-embed --vectors; .vec/GloVe files
# that break their own rules likewise; saving a model onto a full file
# system (as root, in a private mount namespace) is exit 1 with the old
# file kept. Every run has a timeout, so a hang fails the test.
. "${top_srcdir:-.}/tests/init.sh"
d=$data/run
small="-t $d/templates.tsv --fill ade=$d/ade.txt --fill drug=$d/drug.txt --tokenizer none"
toy=$corpora/vectors/toy-model.bin

# le32 N / le64 N: N as little-endian bytes.
le32() {
    printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) \
        $((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"
}
le64() { le32 $(($1 & 4294967295)); le32 $((($1 >> 32) & 4294967295)); }
# patch8/patch32/patch64 FILE OFFSET N: FILE with a field changed.
patch8() {
    printf "$(printf '\\%03o' $(($3 & 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
patch32() { le32 "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
patch64() { le64 "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
int32() { od -An -td4 -j "$2" -N 4 "$1" | tr -d ' '; }
size() { wc -c <"$1" | tr -d ' '; }
# entry_at FILE CUT: the dictionary entry (from 1) that a cut at byte CUT
# falls into; entries start at byte 92: a word, a NUL, 8 + 1 bytes.
entry_at() {
    od -An -v -tu1 -j 92 "$1" | tr -s ' ' '\n' | sed '/^$/d' |
        awk -v cut=$(($2 - 92)) '{ b[NR - 1] = $1 }
            END { p = 0; k = 1; while (1) { while (b[p] != 0) p++; p += 10
                                             if (p > cut) { print k; exit } k++ } }'
}

# A small supervised model (the ADE tweets, 2 labels) and its variants.
tells-synth-ade --size 600 -o "$tmp/adec" || fail "synth"
tells-prep -q --premise-field '' --hypothesis-field text --label-field label --id-field id \
    -o "$tmp/ade.tsv" --split train "$tmp/adec/train.jsonl" --split test "$tmp/adec/test.jsonl" ||
    fail "prep"
timeout 60 tells-baseline -q --seed 1 --bucket 1000 --dim 20 --save-model "$tmp/ade.bin" \
    -o "$tmp/table" "$tmp/ade.tsv" || fail "train"
ade=$tmp/ade.bin
what="the model is sound"
run timeout 20 tells-run $small --model "$ade" -o "$tmp/report"
expect 0 ""
rm -f "$tmp/report"
nwords=$(int32 "$ade" 68)
rows=$((nwords + 1000))
# The input matrix's numbers start after its 16-byte header and end where
# the output matrix's flag (1 byte), header (16) and 2 x 20 floats begin.
numbers=$(($(size "$ade") - 177 - rows * 80))

# bad NAME MESSAGE [EMBED]: $tmp/NAME.bin refused by the three programs
# with "FILE: MESSAGE" (tells-embed, which reads a file without the magic
# number as text, with "FILE[:LINE]: EMBED"), exit 1.
bad() {
    f=$tmp/$1.bin
    what="tells-run --model, $1"
    run timeout 20 tells-run $small --model "$f" -o "$tmp/report"
    expect 1 "tells-run: $f: $2"
    what="tells-audit --model, $1"
    printf 'tells-audit-reference 1\n' >"$f.ref"
    run timeout 20 tells-audit --reference "$tmp/ade.tsv" --model "$f" -o "$tmp/report" \
        "$tmp/ade.tsv"
    expect 1 "tells-audit: $f: $2"
    what="tells-embed --vectors, $1"
    run timeout 20 tells-embed -v "$f" -o "$tmp/x.npy" "$tmp/ade.tsv"
    expect 1 "tells-embed: $f${3:-: $2}"
    [ -e "$tmp/report" ] || [ -e "$tmp/x.npy" ] && fail "$what: an output was written"
}
cut_at() { head -c "$2" "$ade" >"$tmp/$1.bin"; }
variant() { cp "$ade" "$tmp/$1.bin"; }

: >"$tmp/empty.bin"
bad empty "not a fastText .bin model" ": no vectors in the file"
cut_at header 6
bad header "truncated fastText model (the file ends in its version)"
cut_at args 40
bad args "truncated fastText model (the file ends in the arguments)"
cut_at dict-header 80
bad dict-header "truncated fastText model (the file ends in the dictionary's header)"
# Cut short in the dictionary: libfasttext reads for ever.
for at in 92 300 1000; do
    cut_at "dict-$at" $at
    bad "dict-$at" "truncated fastText model (the dictionary claims $((nwords + 2)) entries, \
the file ends in entry $(entry_at "$ade" $at))"
done
cut_at input $((numbers + 1000))
bad input "truncated fastText model (the input matrix claims $rows x 20 numbers, the file has \
1000 of their $((rows * 80)) bytes)"
cut_at output $(($(size "$ade") - 1))
bad output "truncated fastText model (the output matrix claims 2 x 20 numbers, the file has \
159 of their 160 bytes)"
variant longer
printf 'x' >>"$tmp/longer.bin"
bad longer "fastText model with 1 more byte after its output matrix"

# Fields out of range.
variant magic && patch32 "$tmp/magic.bin" 0 12345
bad magic "not a fastText .bin model" ":1: NUL byte in input"
variant version && patch32 "$tmp/version.bin" 4 13
bad version "fastText model format 13 is newer than this libfasttext reads"
# std::length_error in libfasttext
variant dim && patch32 "$tmp/dim.bin" 8 -3
bad dim "fastText model with dim -3 (expected 1 to 10000)"
variant bigbucket && patch32 "$tmp/bigbucket.bin" 40 2000000000
bad bigbucket "fastText model with bucket 2000000000 (expected 0 to 1000000000)"
# Fewer rows than buckets: an assertion in libfasttext (vector.cc:63).
variant bucket && patch32 "$tmp/bucket.bin" 40 2000
bad bucket "fastText model whose input matrix has $rows rows, not the $((nwords + 2000)) of its \
$nwords words and 2000 buckets"
variant loss && patch32 "$tmp/loss.bin" 32 7
bad loss "fastText model with loss 7 (expected 1 to 4)"
variant t && patch64 "$tmp/t.bin" 56 9218868437227405312
bad t "fastText model with t inf (expected a finite number)"
# A word among the labels: an assertion in libfasttext (dictionary.cc:87).
variant words && patch32 "$tmp/words.bin" 68 $((nwords - 1)) && patch32 "$tmp/words.bin" 72 3
bad words "fastText model whose dictionary entry $nwords is a word among its 3 labels"
variant entries && patch32 "$tmp/entries.bin" 64 -1
bad entries "fastText model with a dictionary of -1 entries (expected 1 to 30000000)"
variant ntokens && patch64 "$tmp/ntokens.bin" 76 -5
bad ntokens "fastText model with ntokens -5 (expected 0 or more)"
variant pruned && patch64 "$tmp/pruned.bin" 84 0
bad pruned "fastText model with a pruned dictionary but an input matrix that is not quantized"
variant rows && patch64 "$tmp/rows.bin" $((numbers - 16)) 1000000000000
bad rows "fastText model whose input matrix has 1000000000000 rows, not the $rows of its \
$nwords words and 1000 buckets"
variant columns && patch64 "$tmp/columns.bin" $((numbers - 8)) 21
bad columns "fastText model whose input matrix has 21 columns, not its dim 20"
variant quant && patch8 "$tmp/quant.bin" $((numbers - 17)) 2
bad quant "fastText model with quantization flag 2 (expected 0 or 1)"

what="a folder as a model"
mkdir "$tmp/folder.bin"
run timeout 20 tells-run $small --model "$tmp/folder.bin"
expect 1 "tells-run: $tmp/folder.bin: cannot read: Is a directory"
what="a missing model"
run timeout 20 tells-audit --reference "$tmp/ade.tsv" --model "$tmp/none.bin" "$tmp/ade.tsv"
expect 1 "tells-audit: $tmp/none.bin: cannot open: No such file or directory"
what="a FIFO as a model"
mkfifo "$tmp/fifo.bin"
# A writer that holds the FIFO open until the reader has looked at it.
timeout 5 sh -c 'exec 3>"$1"; sleep 1' sh "$tmp/fifo.bin" &
writer=$!
run timeout 20 tells-run $small --model "$tmp/fifo.bin"
wait $writer
expect 1 "tells-run: $tmp/fifo.bin: a fastText model must be a regular file"

what="a supervised model as vectors: its labels are no words (libfasttext asserts)"
w=$(awk -F '\t' 'NR == 2 { split($5, t, " "); print t[1] }' "$tmp/ade.tsv")
printf 'id\tsplit\tlabel\tpremise\thypothesis\na\tt\tx\tp\t__label__0 __label__1 %s\n' "$w" \
    >"$tmp/labels.tsv"
run timeout 20 tells-embed --progress -v "$ade" -o "$tmp/l.npy" "$tmp/labels.tsv"
expect 0 "tells-embed: reading the vectors of 3 token types from $ade
tells-embed: 1 rows x 20: 2 of 3 tokens (2 of 3 types) without a vector, 0 empty texts"

# The toy word-vector model (character n-grams) as --vectors.
what="toy model, cut in the dictionary"
head -c 300 "$toy" >"$tmp/toy.bin"
run timeout 20 tells-embed -v "$tmp/toy.bin" -o "$tmp/x.npy" "$tmp/ade.tsv"
expect 1 "tells-embed: $tmp/toy.bin: truncated fastText model (the dictionary claims 22 entries, \
the file ends in entry 15)"
what="toy model without buckets for its n-grams: a division by zero in libfasttext"
cp "$toy" "$tmp/toy.bin" && patch32 "$tmp/toy.bin" 40 0
run timeout 20 tells-embed -v "$tmp/toy.bin" -o "$tmp/x.npy" "$tmp/ade.tsv"
expect 1 "tells-embed: $tmp/toy.bin: fastText model with character n-grams (maxn 6) but no \
buckets"
what="toy model with minn above maxn"
cp "$toy" "$tmp/toy.bin" && patch32 "$tmp/toy.bin" 44 7
run timeout 20 tells-embed -v "$tmp/toy.bin" -o "$tmp/x.npy" "$tmp/ade.tsv"
expect 1 "tells-embed: $tmp/toy.bin: fastText model with minn 7 greater than maxn 6"

# ---- .vec and GloVe text ----
vec=$corpora/vectors/toy-model.vec
# badvec NAME MESSAGE: $tmp/NAME.vec refused with "MESSAGE" (which names
# the file), exit 1.
badvec() {
    what="vectors: $1"
    run timeout 20 tells-embed -v "$tmp/$1.vec" -o "$tmp/x.npy" "$tmp/ade.tsv"
    expect 1 "tells-embed: $2"
    [ -e "$tmp/x.npy" ] && fail "$what: an output was written"
}
sed '1s/^22 5$/23 5/' "$vec" >"$tmp/words.vec"
badvec words "$tmp/words.vec:1: the header gives 23 words, the file has 22"
sed '1s/^22 5$/22 6/' "$vec" >"$tmp/dims.vec"
badvec dims "$tmp/dims.vec:2: 5 numbers, but the header (line 1) gives 6 dimensions"
sed '1s/^22 5$/22 100000/' "$vec" >"$tmp/huge.vec"
badvec huge "$tmp/huge.vec:1: the header gives 100000 dimensions (at most 10000)"
awk 'BEGIN { printf "w"; for (i = 0; i < 10001; i++) printf " 0.5"; print "" }' >"$tmp/wide.vec"
badvec wide "$tmp/wide.vec:1: 10001 numbers (at most 10000 dimensions)"
sed '3s/^\([^ ]*\) [^ ]*/\1 nan/' "$vec" >"$tmp/nan.vec"
w3=$(sed -n '3s/ .*//p' "$vec")
printf 'id\tsplit\tlabel\tpremise\thypothesis\na\tt\tx\tp\t%s\n' "$w3" >"$tmp/w3.tsv"
what="vectors: nan in a word the TSV uses"
run timeout 20 tells-embed -v "$tmp/nan.vec" -o "$tmp/x.npy" "$tmp/w3.tsv"
expect 1 "tells-embed: $tmp/nan.vec:3: number 1 is not finite"
sed '3s/^\([^ ]*\) [^ ]*/\1 1e99/' "$vec" >"$tmp/inf.vec"
run timeout 20 tells-embed -v "$tmp/inf.vec" -o "$tmp/x.npy" "$tmp/w3.tsv"
expect 1 "tells-embed: $tmp/inf.vec:3: number 1 is not finite"
sed '3s/^\([^ ]*\) [^ ]*/\1 abc/' "$vec" >"$tmp/text.vec"
run timeout 20 tells-embed -v "$tmp/text.vec" -o "$tmp/x.npy" "$tmp/w3.tsv"
expect 1 "tells-embed: $tmp/text.vec:3: number 1 is not a number"
sed '4s/^/\xff/' "$vec" >"$tmp/utf8.vec"
badvec utf8 "$tmp/utf8.vec:4: invalid UTF-8"
sed '4s/ /\x00 /' "$vec" | tr '\000' '\000' >"$tmp/nul.vec"
badvec nul "$tmp/nul.vec:4: NUL byte in input"
sed '5s/ /\t/' "$vec" >"$tmp/tab.vec"
badvec tab "$tmp/tab.vec:5: expected a word and its numbers separated by single spaces"
{ sed -n '1,2p' "$vec"; echo lonely; } >"$tmp/lonely.vec"
badvec lonely "$tmp/lonely.vec:3: a word without numbers"
{ head -n 2 "$vec"; head -c 4200000 /dev/zero | tr '\000' 'a'; echo; } >"$tmp/long.vec"
badvec long "$tmp/long.vec:3: line longer than 4194304 bytes"
: >"$tmp/none.vec"
badvec none "$tmp/none.vec: no vectors in the file"
head -c 3 "$toy" >"$tmp/short.vec"
badvec short "$tmp/short.vec:1: invalid UTF-8"

# ---- saving onto a full file system ----
# In a private mount namespace, a small tmpfs over $tmp/full is filled up;
# the runs' statuses, messages and what the folder holds afterwards are
# written to $tmp/ff/ for the checks below.
mkdir "$tmp/full" "$tmp/ff"
cat >"$tmp/fullfs.sh" <<'END'
set -u
full=$1 ff=$2 ade=$3 toy=$4
mount -t tmpfs -o size=512k tmpfs "$full" || exit 0
: >"$ff/mounted"
# step NAME CMD...: runs CMD; its status, stderr and the folder's listing.
step() {
    name=$1
    shift
    status=0
    timeout 20 "$@" >"$ff/$name.out" 2>"$ff/$name.err" || status=$?
    echo "$status" >"$ff/$name.status"
    ls -A "$full" >"$ff/$name.ls"
}
cp "$toy" "$full/m.bin"
dd if=/dev/zero of="$full/filler" bs=4096 2>/dev/null
step save tells-baseline -q --seed 1 --bucket 1000 --dim 20 --save-model "$full/m.bin" \
    -o "$ff/table-save" "$ade"
cmp -s "$toy" "$full/m.bin" && : >"$ff/save.kept"
step vectors tells-embed -q --train-vectors "$full/v.bin" --dim 5 --min-count 1 \
    -o "$ff/v.npy" "$ade"
step tmpdir env TMPDIR="$full" tells-baseline -q --seed 1 --bucket 1000 --dim 20 \
    -o "$ff/t2" "$ade"
rm "$full/filler"
step room tells-baseline -q --seed 1 --bucket 1000 --dim 20 --save-model "$full/m.bin" \
    -o "$ff/table-room" "$ade"
cmp -s "$toy" "$full/m.bin" || : >"$ff/room.replaced"
step load tells-embed -q -v "$full/m.bin" -o "$ff/m.npy" "$ade"
END
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    unshare -m sh "$tmp/fullfs.sh" "$tmp/full" "$tmp/ff" "$tmp/ade.tsv" "$toy"
fi
# ff_expect NAME STATUS STDERR LISTING: one step's results.
ff_expect() {
    status=$(cat "$tmp/ff/$1.status")
    cp "$tmp/ff/$1.err" "$tmp/err"
    what="full file system: $1"
    expect "$2" "$3"
    [ "$(tr '\n' ' ' <"$tmp/ff/$1.ls")" = "$4" ] ||
        fail "$what: the folder holds $(tr '\n' ' ' <"$tmp/ff/$1.ls")"
}
if [ -e "$tmp/ff/mounted" ]; then
    full=$tmp/full
    ff_expect save 1 "tells-baseline: $full/m.bin: write error: No space left on device" \
        "filler m.bin "
    [ -e "$tmp/ff/save.kept" ] || fail "full file system: the old model was not kept"
    [ -e "$tmp/ff/table-save" ] && fail "full file system: a table was written"
    ff_expect vectors 1 "tells-embed: $full/v.bin: write error: No space left on device" \
        "filler m.bin "
    [ -e "$tmp/ff/v.npy" ] && fail "full file system: vectors were written"
    sed 's/tells-fasttext\.[A-Za-z0-9]*/tells-fasttext.XXXXXX/' "$tmp/ff/tmpdir.err" \
        >"$tmp/ff/tmpdir.err2" && mv "$tmp/ff/tmpdir.err2" "$tmp/ff/tmpdir.err"
    ff_expect tmpdir 1 "tells-baseline: $full/tells-fasttext.XXXXXX: write error: No space left \
on device" "filler m.bin "
    ff_expect room 0 "" "m.bin "
    [ -e "$tmp/ff/room.replaced" ] || fail "full file system: the model was not replaced"
    ff_expect load 0 "" "m.bin "
else
    echo "model-files.sh: skipped the full file system tests (they need root and unshare -m)" >&2
fi
finish
