#!/bin/sh
# The fuzz harnesses (fuzz/) on their seeds (fuzz/seeds) and on the saved
# inputs of past findings (tests/data/fuzz/HARNESS/), through fuzz/replay
# built with the normal compiler: under the sanitizers in a sanitizer
# build. Every input must run without a crash, a sanitizer report, a
# broken promise of the library or a timeout. Inputs of findings not
# fixed yet are listed in tests/data/fuzz/PENDING and skipped (with a
# note); whoever fixes one removes its line.
. "${top_srcdir:-.}/tests/init.sh"
replay=$top_builddir/fuzz/replay
saved=$data/fuzz
FUZZ_TMPDIR=$tmp/files
export FUZZ_TMPDIR
mkdir "$FUZZ_TMPDIR"

# Every harness is in fuzz/replay, and every folder of saved inputs names one.
"$replay" --list | tr _ - | sort >"$tmp/listed"
for f in "$top_srcdir"/fuzz/fuzz-*.c; do
    h=${f##*/fuzz-}
    echo "${h%.c}"
done | sort >"$tmp/sources"
cmp -s "$tmp/listed" "$tmp/sources" ||
    fail "fuzz/replay --list and fuzz/fuzz-*.c differ:" \
        "$(diff "$tmp/listed" "$tmp/sources" | tr '\n' ' ')"
for d in "$saved"/*/; do
    [ -d "$d" ] || continue
    h=$(basename "$d")
    grep -qx "$h" "$tmp/sources" || fail "tests/data/fuzz/$h names no harness"
done

# The pending findings: "HARNESS/FILE  what is wrong" lines.
pending=$tmp/pending
{ [ -f "$saved/PENDING" ] && grep -v '^#' "$saved/PENDING" | awk 'NF { print $1 }'; } |
    sort >"$pending" || :
while read -r p; do
    [ -f "$saved/$p" ] || fail "tests/data/fuzz/PENDING: no file tests/data/fuzz/$p"
done <"$pending"

"$top_srcdir/fuzz/seeds" "$tmp/seeds" || fail "fuzz/seeds failed"
while read -r h; do
    set -- "$tmp/seeds/$h"
    if [ -d "$saved/$h" ]; then
        for f in "$saved/$h"/*; do
            [ -f "$f" ] || continue
            if grep -qx "$h/${f##*/}" "$pending"; then
                echo "pending, not replayed: tests/data/fuzz/$h/${f##*/}"
                continue
            fi
            set -- "$@" "$f"
        done
    fi
    what="replay $h"
    run "$replay" -v "$h" "$@"
    expect 0 ""
    [ "$status" = 0 ] || tail -n 1 "$tmp/out" >&2
done <"$tmp/sources"
finish
