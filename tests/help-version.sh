#!/bin/sh
# Every program answers --help (with an example) and --version, and
# refuses an unknown option with the usual hint and exit status 2.
. "${top_srcdir:-.}/tests/init.sh"

for prog in tells-prep tells-phrases tells-pmi tells-len tells-split tells-synth; do
    what="$prog --help"
    run "$prog" --help
    expect 0 ""
    head -n 1 "$tmp/out" | grep -q "^Usage: $prog " || fail "$what: no usage line"
    grep -q '^Example' "$tmp/out" || fail "$what: no example"
    grep -q '\[' "$tmp/out" || fail "$what: no defaults in brackets"

    what="$prog --version"
    run "$prog" --version
    expect 0 ""
    head -n 1 "$tmp/out" | grep -qx "$prog (tells) [0-9.]*" || fail "$what: bad first line"

    what="$prog --no-such-option"
    run "$prog" --no-such-option
    expect 2 "$prog: unrecognized option '--no-such-option'
Try '$prog --help' for more information."
    [ -s "$tmp/out" ] && fail "$what: wrote to stdout"
done
finish
