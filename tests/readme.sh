#!/bin/sh
# The README's examples are run: in each ```console block, a line starting
# with "$ " is a command (run from the top of the source tree, with
# TMPDIR in the test's own folder) and the
# lines up to the next command or the end of the block are its output.
. "${top_srcdir:-.}/tests/init.sh"

awk -v dir="$tmp" '
    /^```console$/ { inblock = 1; next }
    /^```$/ && inblock { inblock = 0; next }
    !inblock { next }
    /^\$ / { n++; print substr($0, 3) > (dir "/cmd" n); printf "" > (dir "/want" n); next }
    { print > (dir "/want" n) }
' "$top_srcdir/README.md"
n=0
for cmd in "$tmp"/cmd*; do
    n=$((n + 1))
    i=${cmd##*/cmd}
    what="README example $i: $(cat "$cmd")"
    # Temporary folders an example makes (mktemp) go with the test's.
    run env TMPDIR="$tmp" sh -c "cd '$top_srcdir' && $(cat "$cmd")"
    expect 0 ""
    expect_out "$tmp/want$i"
done
[ $n -ge 3 ] || fail "only $n README examples found"

# The README's table of checks is the study's own (each check is defined
# once, with its section of the study).
what="README's table of checks"
awk '/^<!-- checks:/ { on = 1; next } /^<!-- \/checks -->/ { on = 0 }
     on && /^\| `/ { sub(/^\| `/, ""); sub(/` \| /, "\t"); sub(/ \|$/, ""); gsub(/\\\|/, "|"); print }' \
    "$top_srcdir/README.md" >"$tmp/readme-checks"
tells-study --list-checks >"$tmp/checks" || fail "$what: tells-study --list-checks failed"
[ -s "$tmp/checks" ] || fail "$what: no checks listed"
if ! cmp -s "$tmp/checks" "$tmp/readme-checks"; then
    fail "$what: README and tells-study --list-checks differ:"
    diff "$tmp/checks" "$tmp/readme-checks" >&2
fi
finish
