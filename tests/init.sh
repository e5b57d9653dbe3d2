# Sourced by every shell test: a clean C locale, the built programs first
# on PATH, a private temporary folder, and small assertion helpers that
# count failures instead of stopping at the first one.
set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
PATH="$top_builddir/src:$top_builddir/tools:$PATH"
export PATH top_srcdir top_builddir
corpora=$top_srcdir/corpora
# The MeSH tree file and lexicons of tells-heur and tells-audit.
TELLS_DATA=$corpora
export TELLS_DATA
data=$top_srcdir/tests/data
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tells-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run CMD...: runs CMD with stdout in $tmp/out, stderr in $tmp/err and the
# exit status in $status.
run() {
    status=0
    "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
}

# expect STATUS STDERR: the last run's exit status and exact stderr.
expect() {
    if [ "$status" != "$1" ]; then
        fail "${what:-command}: exit status $status, expected $1 (stderr: $(cat "$tmp/err"))"
    fi
    printf '%s' "$2" >"$tmp/expected-err"
    [ -n "$2" ] && printf '\n' >>"$tmp/expected-err"
    if ! cmp -s "$tmp/expected-err" "$tmp/err"; then
        fail "${what:-command}: stderr differs:"
        diff "$tmp/expected-err" "$tmp/err" >&2 || :
    fi
}

# expect_out FILE: the last run's stdout equals FILE exactly.
expect_out() {
    if ! cmp -s "$1" "$tmp/out"; then
        fail "${what:-command}: stdout differs from $1:"
        diff "$1" "$tmp/out" | head -20 >&2 || :
    fi
}

# expect_out_text TEXT: the last run's stdout equals TEXT plus a newline.
expect_out_text() {
    printf '%s\n' "$1" >"$tmp/expected-out"
    expect_out "$tmp/expected-out"
}

# Whether the programs were built with AddressSanitizer, which reserves
# terabytes of address space for its shadow memory: a limit on address
# space (ulimit -v) cannot be set for them then.
asan_build() {
    grep -q __asan_init "$top_builddir/src/tells-len" 2>/dev/null
}

# figure_drawn DOM ID: the page's <figure id="fig-ID"> holds one <svg> with
# marks in it (5 or more paths, rectangles, polygons, circles or uses).
figure_drawn() {
    awk -v id="fig-$2" '
        index($0, "<figure id=\"" id "\"") { inside = 1 }
        inside { text = text $0 }
        inside && /<\/figure>/ { inside = 0 }
        END { n = gsub(/<path|<rect|<polygon|<circle|<use/, "", text)
              s = gsub(/<svg/, "", text)
              exit !(s == 1 && n >= 5) }' "$1"
}

finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    exit 0
}
