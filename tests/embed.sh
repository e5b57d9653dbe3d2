#!/bin/sh
# tells-embed: averages of token vectors from .vec, GloVe and fastText .bin
# files, checked number by number against awk over the vector file; the
# .npy header NumPy writes; OOV tokens as zeros or skipped; premise, pair
# sum and pair concat; vectors trained on the corpus, deterministically.
. "${top_srcdir:-.}/tests/init.sh"

vec=$corpora/vectors/toy-model.vec
bin=$corpora/vectors/toy-model.bin

# npy_values FILE: the numbers of a little-endian float32 .npy, one a line.
npy_values() {
    hlen=$(od -An -tu2 -j8 -N2 "$1" | tr -d ' ')
    od -An -v -tf4 -j $((10 + hlen)) "$1" | tr -s ' ' '\n' | sed '/^$/d'
}
npy_header() {
    hlen=$(od -An -tu2 -j8 -N2 "$1" | tr -d ' ')
    dd if="$1" bs=1 skip=10 count="$hlen" 2>/dev/null | sed 's/ *$//'
}

H='id	split	label	premise	hypothesis'
{
    echo "$H"
    printf 'a\tt\tentailment\tproperty of the society\tthe society is anarchist\n'
    printf 'b\tt\tneutral\tthe term\tthe zzzunknown\n'
    printf 'c\tt\tcontradiction\tan anarchist\tsociety society\n'
    printf 'd\tt\tcontradiction\tzzzunknown\tqqqother\n'
} >"$tmp/in.tsv"

# expected FIELD MODE: the averages awk computes from the .vec file, one
# number a line; MODE zero (OOV as a zero vector) or skip.
expected() {
    awk -v field="$1" -v mode="$2" '
        NR == FNR { if (FNR > 1) { w = $1; for (k = 2; k <= NF; k++) v[w, k - 1] = $k; has[w] = 1 }
                    dim = NF - 1; next }
        FNR == 1 { next }
        { split($0, f, "\t"); n = split(f[field], t, " "); c = 0
          for (k = 1; k <= dim; k++) s[k] = 0
          for (i = 1; i <= n; i++) {
              if (has[t[i]]) { c++; for (k = 1; k <= dim; k++) s[k] += v[t[i], k] }
              else if (mode == "zero") c++ }
          for (k = 1; k <= dim; k++) printf "%.9g\n", (c ? s[k] / c : 0) }' "$vec" "$tmp/in.tsv"
}
# same FILE1 FILE2 TOL: the numbers agree to TOL.
same() {
    paste "$1" "$2" | awk -v tol="$3" '{ d = $1 - $2; if (d < 0) d = -d; if (d > tol) bad++ }
        END { if (NR == 0 || bad) exit 1 }'
}

what="hypothesis, .vec, OOV as zero"
run tells-embed -v "$vec" -o "$tmp/h.npy" "$tmp/in.tsv"
expect 0 ""
[ "$(npy_header "$tmp/h.npy")" = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 5), }" ] ||
    fail "$what: header $(npy_header "$tmp/h.npy")"
[ $(($(stat -c %s "$tmp/h.npy") % 64)) = $((4 * 5 * 4 % 64)) ] || fail "$what: header not padded to 64"
npy_values "$tmp/h.npy" >"$tmp/got"
expected 5 zero >"$tmp/want"
same "$tmp/got" "$tmp/want" 1e-6 || fail "$what: values differ from awk's"
# row d has no known token: a zero vector
[ "$(tail -n 5 "$tmp/got" | sort -u)" = "0" ] || fail "$what: row d is not zero"

what="--skip-oov"
run tells-embed -v "$vec" --skip-oov -o "$tmp/s.npy" "$tmp/in.tsv"
expect 0 ""
npy_values "$tmp/s.npy" >"$tmp/got"
expected 5 skip >"$tmp/want"
same "$tmp/got" "$tmp/want" 1e-6 || fail "$what: values differ"
cmp -s "$tmp/s.npy" "$tmp/h.npy" && fail "$what: no different from OOV as zero"

what="--input premise"
run tells-embed -v "$vec" --input premise -o "$tmp/p.npy" "$tmp/in.tsv"
expect 0 ""
npy_values "$tmp/p.npy" >"$tmp/got"
expected 4 zero >"$tmp/want"
same "$tmp/got" "$tmp/want" 1e-6 || fail "$what: values differ"

what="--input pair: premise mean plus hypothesis mean"
run tells-embed -v "$vec" --input pair -o "$tmp/pair.npy" "$tmp/in.tsv"
expect 0 ""
npy_values "$tmp/pair.npy" >"$tmp/got"
paste "$tmp/want" "$(expected 5 zero >"$tmp/wh"; echo "$tmp/wh")" | awk '{ printf "%.9g\n", $1 + $2 }' >"$tmp/wsum"
same "$tmp/got" "$tmp/wsum" 2e-6 || fail "$what: values differ"
what="--pair concat: the two means side by side"
run tells-embed -v "$vec" --input pair --pair concat -o "$tmp/cat.npy" "$tmp/in.tsv"
expect 0 ""
[ "$(npy_header "$tmp/cat.npy")" = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 10), }" ] ||
    fail "$what: header"
npy_values "$tmp/cat.npy" >"$tmp/got"
awk 'NR == FNR { p[FNR] = $1; next } { h[FNR] = $1 }
     END { for (r = 0; r < 4; r++) { for (k = 1; k <= 5; k++) print p[r * 5 + k]
                                     for (k = 1; k <= 5; k++) print h[r * 5 + k] } }' \
    "$tmp/want" "$tmp/wh" >"$tmp/wcat"
same "$tmp/got" "$tmp/wcat" 1e-6 || fail "$what: values differ"

what="a .vec without its header line, and with CRLF line ends"
tail -n +2 "$vec" >"$tmp/nohead.vec"
run tells-embed -v "$tmp/nohead.vec" -o "$tmp/nh.npy" "$tmp/in.tsv"
expect 0 ""
cmp -s "$tmp/nh.npy" "$tmp/h.npy" || fail "$what: differs"
sed 's/$/\r/' "$vec" >"$tmp/crlf.vec"
run tells-embed -v "$tmp/crlf.vec" -o "$tmp/crlf.npy" "$tmp/in.tsv"
expect 0 ""
cmp -s "$tmp/crlf.npy" "$tmp/h.npy" || fail "$what: CRLF differs"
what="a word listed twice: the first vector wins"
{ cat "$vec"; echo "society 9 9 9 9 9"; } | sed '1s/^22 /23 /' >"$tmp/twice.vec"
run tells-embed -v "$tmp/twice.vec" -o "$tmp/tw.npy" "$tmp/in.tsv"
expect 0 ""
cmp -s "$tmp/tw.npy" "$tmp/h.npy" || fail "$what: differs"

what="fastText .bin: known words as in the .vec"
run tells-embed -v "$bin" -o "$tmp/b.npy" "$tmp/in.tsv"
expect 0 ""
npy_values "$tmp/b.npy" | head -n 5 >"$tmp/got"
expected 5 zero | head -n 5 >"$tmp/w5"
same "$tmp/got" "$tmp/w5" 1e-5 || fail "$what: row a differs from the .vec's"
what="fastText .bin: unknown words get character n-gram vectors"
run tells-embed --progress -v "$bin" -o "$tmp/b.npy" "$tmp/in.tsv"
expect 0 "tells-embed: reading the vectors of 6 token types from $bin
tells-embed: 4 rows x 5: 0 of 9 tokens (0 of 6 types) without a vector, 0 empty texts"
[ "$(npy_values "$tmp/b.npy" | tail -n 5 | sort -u)" = "0" ] && fail "$what: row d is zero"
run tells-embed --progress -v "$vec" -o "$tmp/h2.npy" "$tmp/in.tsv"
expect 0 "tells-embed: reading the vectors of 6 token types from $vec
tells-embed: 4 rows x 5: 2 of 9 tokens (2 of 6 types) without a vector, 0 empty texts"
run tells-embed --progress --skip-oov -v "$vec" -o "$tmp/h2.npy" "$tmp/in.tsv"
expect 0 "tells-embed: reading the vectors of 6 token types from $vec
tells-embed: 4 rows x 5: 2 of 9 tokens (2 of 6 types) without a vector, 1 empty texts"

what="GloVe text, 100 dimensions"
printf '%s\nx\tt\tneutral\tthe\tthe , .\n' "$H" >"$tmp/g.tsv"
run tells-embed -v "$corpora/vectors/glove.6B.100d.sample.txt" -o "$tmp/g.npy" "$tmp/g.tsv"
expect 0 ""
[ "$(npy_header "$tmp/g.npy")" = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 100), }" ] ||
    fail "$what: header"
head -n 3 "$corpora/vectors/glove.6B.100d.sample.txt" |
    awk '{ for (k = 2; k <= NF; k++) s[k] += $k } END { for (k = 2; k <= 101; k++) printf "%.9g\n", s[k] / 3 }' \
    >"$tmp/want"
npy_values "$tmp/g.npy" >"$tmp/got"
same "$tmp/got" "$tmp/want" 1e-6 || fail "$what: values differ"

what="stdin in, stdout out"
tells-embed -v "$vec" - <"$tmp/in.tsv" >"$tmp/stdout.npy" 2>"$tmp/err" || fail "$what: failed"
cmp -s "$tmp/stdout.npy" "$tmp/h.npy" || fail "$what: differs"

what="--train-vectors: trained on the corpus, the same bytes twice"
tells-prep -q --split train "$corpora/synthetic/dev.jsonl" -o "$tmp/synth.tsv"
run tells-embed --train-vectors "$tmp/v1.bin" --dim 20 --seed 3 -o "$tmp/t1.npy" "$tmp/synth.tsv"
expect 0 ""
run tells-embed --train-vectors "$tmp/v2.bin" --dim 20 --seed 3 -o "$tmp/t2.npy" "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/t1.npy" "$tmp/t2.npy" || fail "$what: two runs differ"
[ "$(npy_header "$tmp/t1.npy")" = "{'descr': '<f4', 'fortran_order': False, 'shape': (450, 20), }" ] ||
    fail "$what: header $(npy_header "$tmp/t1.npy")"
run tells-embed -v "$tmp/v1.bin" -o "$tmp/t3.npy" "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/t1.npy" "$tmp/t3.npy" || fail "$what: the saved vectors give other numbers"

# --parts: models of DIM/N side by side, joined into one of DIM; the
# same bytes on one thread and on three (tests/unit/test-ftshim.c checks
# the joined numbers).
what="--parts"
run tells-embed --train-vectors "$tmp/p1.bin" --dim 20 --parts 2 --seed 3 -o "$tmp/p1.npy" "$tmp/synth.tsv"
expect 0 ""
run tells-embed --train-vectors "$tmp/p3.bin" --dim 20 --parts 2 --threads 3 --seed 3 -o "$tmp/p3.npy" \
    "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/p1.npy" "$tmp/p3.npy" && cmp -s "$tmp/p1.bin" "$tmp/p3.bin" ||
    fail "$what: one thread and three differ"
[ "$(npy_header "$tmp/p1.npy")" = "{'descr': '<f4', 'fortran_order': False, 'shape': (450, 20), }" ] ||
    fail "$what: header $(npy_header "$tmp/p1.npy")"
# fastText's .bin: magic, version, then dim as 32-bit integers.
[ "$(od -An -t d4 -j 8 -N 4 "$tmp/p1.bin" | tr -d ' ')" = 20 ] ||
    fail "$what: the joined model's dimension is $(od -An -t d4 -j 8 -N 4 "$tmp/p1.bin")"
cmp -s "$tmp/p1.npy" "$tmp/t1.npy" && fail "$what: the same numbers as one model"
run tells-embed -v "$tmp/p1.bin" -o "$tmp/p4.npy" "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/p1.npy" "$tmp/p4.npy" || fail "$what: the saved model gives other numbers"
run tells-embed --train-vectors "$tmp/p5.bin" --parts 3 -o "$tmp/p5.npy" "$tmp/synth.tsv"
expect 2 "tells-embed: --dim 100 is not a multiple of --parts 3
Try 'tells-embed --help' for more information."
run tells-embed -v "$tmp/p1.bin" --parts 2 -o "$tmp/p5.npy" "$tmp/synth.tsv"
expect 2 "tells-embed: --parts needs --train-vectors
Try 'tells-embed --help' for more information."
run tells-embed --train-vectors "$tmp/p5.bin" --parts 9 -o "$tmp/p5.npy" "$tmp/synth.tsv"
expect 2 "tells-embed: invalid value '9' for --parts (expected an integer from 1 to 8)
Try 'tells-embed --help' for more information."
[ -e "$tmp/p5.bin" ] || [ -e "$tmp/p5.npy" ] && fail "$what: a usage error wrote a file"

# --centres: all is fastText's training (the same bytes as without it);
# input trains only the averaged texts' words as centres: other vectors,
# the same bytes on one thread and three, and other again for premises
# (tests/unit/test-ftshim.c checks that the other words' rows stay as
# drawn).
what="--centres"
run tells-embed --train-vectors "$tmp/c1.bin" --dim 20 --parts 2 --seed 3 --centres all \
    -o "$tmp/c1.npy" "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/p1.bin" "$tmp/c1.bin" || fail "$what all: not fastText's own training"
run tells-embed --train-vectors "$tmp/c2.bin" --dim 20 --parts 2 --seed 3 --centres input \
    -o "$tmp/c2.npy" "$tmp/synth.tsv"
expect 0 ""
run tells-embed --train-vectors "$tmp/c3.bin" --dim 20 --parts 2 --threads 3 --seed 3 \
    --centres input -o "$tmp/c3.npy" "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/c2.bin" "$tmp/c3.bin" && cmp -s "$tmp/c2.npy" "$tmp/c3.npy" ||
    fail "$what input: one thread and three differ"
cmp -s "$tmp/c1.npy" "$tmp/c2.npy" && fail "$what input: the same vectors as all"
# One model with centres trains on one thread, whatever --threads says.
run tells-embed --train-vectors "$tmp/c6.bin" --dim 20 --seed 3 --centres input \
    -o "$tmp/c6.npy" "$tmp/synth.tsv"
expect 0 ""
run tells-embed --train-vectors "$tmp/c7.bin" --dim 20 --threads 3 --seed 3 --centres input \
    -o "$tmp/c7.npy" "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/c6.bin" "$tmp/c7.bin" || fail "$what input: --threads 3 changed one model"
run tells-embed --train-vectors "$tmp/c4.bin" --dim 20 --parts 2 --seed 3 --centres input \
    --input premise -o "$tmp/c4.npy" "$tmp/synth.tsv"
expect 0 ""
cmp -s "$tmp/c2.bin" "$tmp/c4.bin" && fail "$what input: premises trained as hypotheses"
run tells-embed -v "$tmp/c2.bin" --centres input -o "$tmp/c5.npy" "$tmp/synth.tsv"
expect 2 "tells-embed: --centres needs --train-vectors
Try 'tells-embed --help' for more information."
run tells-embed --train-vectors "$tmp/c5.bin" --centres some -o "$tmp/c5.npy" "$tmp/synth.tsv"
expect 2 "tells-embed: invalid --centres 'some' (input or all)
Try 'tells-embed --help' for more information."
[ -e "$tmp/c5.bin" ] || [ -e "$tmp/c5.npy" ] && fail "$what: a usage error wrote a file"
finish
