#!/bin/sh
# Every program answers --help (with an example) and --version, and
# refuses an unknown option with the usual hint and exit status 2.
. "${top_srcdir:-.}/tests/init.sh"

# Every program built: src/tells-* and tools/tells-synth.
progs=
for f in "$top_builddir"/src/tells-* "$top_builddir/tools/tells-synth"; do
    case $f in *.c|*.cc|*.o|*.h) continue ;; esac
    [ -f "$f" ] && [ -x "$f" ] && progs="$progs ${f##*/}"
done
[ "$(echo $progs | wc -w)" -ge 17 ] || fail "only found:$progs"
for prog in $progs; do
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
