#!/bin/sh
# The synthetic ADE corpus: --help and --version, the same bytes for the
# same options, 80/10/10 splits of well-formed JSON lines, about 35% of
# label 1, and usage errors with exit status 2.
. "${top_srcdir:-.}/tests/init.sh"
prog=tells-synth-ade
try="Try '$prog --help' for more information."

what="--help"
run $prog --help
expect 0 ""
head -n 1 "$tmp/out" | grep -q "^Usage: $prog -o DIR" || fail "$what: no usage line"
grep -q '\[3000\]' "$tmp/out" || fail "$what: default --size not shown"
grep -q "^  $prog .*-o " "$tmp/out" || fail "$what: no example"

what="--version"
run $prog --version
expect 0 ""
expect_out_text "$prog (tells) 0.1"

what="determinism"
run $prog --size 500 -o "$tmp/a"
expect 0 ""
[ -s "$tmp/out" ] && fail "$what: output on stdout"
run $prog --seed 1 --size 500 -o "$tmp/b"
expect 0 ""
for f in train.jsonl dev.jsonl test.jsonl; do
    cmp -s "$tmp/a/$f" "$tmp/b/$f" || fail "$what: $f differs between two runs"
done
run $prog --seed 2 --size 500 -o "$tmp/c"
expect 0 ""
cmp -s "$tmp/a/train.jsonl" "$tmp/c/train.jsonl" && fail "$what: --seed 2 gives the same train.jsonl"
# Written atomically: only the three files, no temporary left behind.
[ "$(ls -A "$tmp/a" | tr '\n' ' ')" = "dev.jsonl test.jsonl train.jsonl " ] ||
    fail "$what: unexpected files: $(ls -A "$tmp/a" | tr '\n' ' ')"

what="splits of --size 500"
for sl in train:400 dev:50 test:50; do
    s=${sl%%:*} n=${sl#*:}
    got=$(wc -l <"$tmp/a/$s.jsonl" | tr -d ' ')
    [ "$got" = "$n" ] || fail "$what: $s has $got lines, expected $n"
done

what="JSON lines"
for s in train dev test; do
    f=$tmp/a/$s.jsonl
    # id, text and label in that order; the text escapes '"' and '\'.
    bad=$(grep -E -v -c '^\{"id": "ade-'$s'-[0-9]+", "text": "([^"\\]|\\["\\])+", "label": "[01]"\}$' "$f")
    [ "$bad" = 0 ] || fail "$what: $bad malformed line(s) in $s.jsonl"
    # ids count 0, 1, 2, ... within each split.
    awk -v s="$s" 'index($0, "{\"id\": \"ade-" s "-" NR - 1 "\", ") != 1 { bad = 1 }
        END { exit bad }' "$f" || fail "$what: $s ids are not ade-$s-0, 1, 2, ..."
    grep -q '[^ -~]' "$f" && fail "$what: $s.jsonl is not printable ASCII"
done

# share FILE...: the share of label-1 lines, to 3 decimals.
share() {
    cat "$@" | awk '/"label": "1"}$/ { one++ } END { printf "%.3f\n", one / NR }'
}
what="label-1 share"
s=$(share "$tmp/a/train.jsonl" "$tmp/a/dev.jsonl" "$tmp/a/test.jsonl")
awk -v s="$s" 'BEGIN { exit !(s >= 0.25 && s <= 0.45) }' ||
    fail "$what: $s with --size 500, expected 0.25 to 0.45"

what="defaults"
run $prog -o "$tmp/d"
expect 0 ""
[ "$(cat "$tmp/d/train.jsonl" "$tmp/d/dev.jsonl" "$tmp/d/test.jsonl" | wc -l | tr -d ' ')" = 3000 ] ||
    fail "$what: --size is not 3000"
cmp -s "$tmp/d/test.jsonl" "$tmp/a/test.jsonl" && fail "$what: --size 3000 gives the test split of --size 500"
s=$(share "$tmp/d/train.jsonl" "$tmp/d/dev.jsonl" "$tmp/d/test.jsonl")
awk -v s="$s" 'BEGIN { exit !(s >= 0.25 && s <= 0.45) }' ||
    fail "$what: label-1 share $s, expected 0.25 to 0.45"
run $prog --seed 1 --size 3000 -o "$tmp/e"
expect 0 ""
cmp -s "$tmp/d/train.jsonl" "$tmp/e/train.jsonl" || fail "$what: not --seed 1 --size 3000"
what="the bundled posts"
for f in train.jsonl dev.jsonl test.jsonl; do
    cmp -s "$tmp/d/$f" "$corpora/ade-posts/$f" || fail "$what: $f differs from corpora/ade-posts"
done

what="bad options"
run $prog --no-such-option -o "$tmp/q"
expect 2 "$prog: unrecognized option '--no-such-option'
$try"
run $prog --size x -o "$tmp/q"
expect 2 "$prog: invalid --size value 'x'
$try"
run $prog --size '' -o "$tmp/q"
expect 2 "$prog: invalid --size value ''
$try"
run $prog --size 29 -o "$tmp/q"
expect 2 "$prog: --size must be between 30 and 1000000, not '29'
$try"
run $prog --size 1000001 -o "$tmp/q"
expect 2 "$prog: --size must be between 30 and 1000000, not '1000001'
$try"
run $prog --seed -1 -o "$tmp/q"
expect 2 "$prog: invalid --seed value '-1'
$try"
run $prog --size 500
expect 2 "$prog: missing required option --output
$try"
run $prog -o "$tmp/q" extra
expect 2 "$prog: unexpected argument; use -o DIR for the output
$try"
[ -e "$tmp/q" ] && fail "$what: output made after a usage error"
finish
