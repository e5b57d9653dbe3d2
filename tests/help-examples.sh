#!/bin/sh
# Every program's --help examples run as written: from the top of the
# source tree after tools/quickstart (study/ holds the main job's
# folders), with the programs on PATH as the README says (src/, and
# tools/ for tells-synth). Each program's block runs as one sh -e script
# in a folder of its own that has the tree's corpora/, tools/ and doc/, and
# study/: the quick start's if this tree has one, else a synthetic-corpus
# study made here the way the main job makes it.
. "${top_srcdir:-.}/tests/init.sh"

study=$top_srcdir/study
if [ ! -s "$study/synthetic/run.json" ]; then
    study=$tmp/study
    mkdir "$study"
    what="the synthetic study the examples use"
    run tells-study -q --no-figures -o "$study/synthetic" \
        --mesh "$corpora/mesh/mtrees2017.txt" --split train "$corpora/synthetic/train.jsonl" \
        --split dev "$corpora/synthetic/dev.jsonl" --split test "$corpora/synthetic/test.jsonl"
    expect 0 ""
fi

progs=
for f in "$top_builddir"/src/tells-* "$top_builddir"/tools/tells-synth*; do
    case $f in *.c|*.cc|*.o|*.h) continue ;; esac
    [ -f "$f" ] && [ -x "$f" ] && progs="$progs ${f##*/}"
done
[ "$(echo $progs | wc -w)" -ge 18 ] || fail "only found:$progs"
n=0
for prog in $progs; do
    "$prog" --help | awk '/^Examples?:$/ { on = 1; next } on && /^$/ { exit } on' \
        >"$tmp/$prog.sh"
    [ -s "$tmp/$prog.sh" ] || { fail "$prog --help: no examples"; continue; }
    dir=$tmp/tree-$prog
    mkdir "$dir"
    ln -s "$top_srcdir/corpora" "$dir/corpora"
    ln -s "$top_builddir/tools" "$dir/tools"
    ln -s "$top_srcdir/doc" "$dir/doc"
    ln -s "$study" "$dir/study"
    what="$prog --help examples"
    start=$(date +%s)
    run env TMPDIR="$tmp" TELLS_DATA="$top_srcdir/corpora" sh -ec "cd '$dir' && . '$tmp/$prog.sh'"
    echo "$prog: $(($(date +%s) - start)) s" >&2
    [ "$status" = 0 ] || fail "$what: exit status $status: $(tail -n 3 "$tmp/err")"
    n=$((n + 1))
done
[ $n -ge 18 ] || fail "only $n programs' examples ran"
finish
