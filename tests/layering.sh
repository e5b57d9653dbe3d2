#!/bin/sh
# The library's layers, as lib/README.md states them: a module includes
# headers of its own layer and the layers below, named "layer/module.h";
# never a program's header (src/) or one of a higher layer. Only the
# fastText shim includes fastText's headers, only the model layer BLAS's,
# and the tools/ generators use the base layer alone.
. "${top_srcdir:-.}/tests/init.sh"

# check_includes ROOT FILE LEVEL [OWN...]: every quoted include of FILE (a
# path under ROOT) must name an existing lib/ header of a layer at most
# LEVEL, or be one of the program headers OWN. Prints one line per
# violation.
check_includes() {
    root=$1 file=$2 level=$3
    shift 3
    awk -v file="$file" -v level="$level" -v lib="$root/lib" -v own=" $* " '
    BEGIN {
        n = split("base text stats model analysis study", name, " ")
        for (i = 1; i <= n; i++) rank[name[i]] = i
    }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        inc = $0
        sub(/^[^"]*"/, "", inc)
        sub(/".*$/, "", inc)
        layer = inc
        if (sub(/\/.*$/, "", layer) == 0 || !(layer in rank)) {
            if (index(own, " " inc " ") == 0)
                printf "%s:%d: includes \"%s\", which names no layer\n", file, FNR, inc
            next
        }
        if ((getline line < (lib "/" inc)) < 0) {
            printf "%s:%d: includes \"%s\", which does not exist\n", file, FNR, inc
            next
        }
        close(lib "/" inc)
        if (rank[layer] > level)
            printf "%s:%d: includes \"%s\": layer %s is above this one\n", file, FNR, inc, layer
    }
    /^[ \t]*#[ \t]*include[ \t]*<(cblas|openblas[^>]*)\.h>/ && file !~ /^lib\/model\// {
        printf "%s:%d: calls BLAS outside the model layer\n", file, FNR
    }
    /^[ \t]*#[ \t]*include[ \t]*<fasttext\// && file != "lib/model/ftshim.cc" {
        printf "%s:%d: includes fastText outside lib/model/ftshim.cc\n", file, FNR
    }' "$root/$file"
}

cd "$top_srcdir" || exit 1
: >"$tmp/violations"
checked=0
for layer in base text stats model analysis study; do
    case $layer in
    base) level=1 ;; text) level=2 ;; stats) level=3 ;; model) level=4 ;; analysis) level=5 ;;
    study) level=6 ;;
    esac
    for f in lib/$layer/*.c lib/$layer/*.cc lib/$layer/*.h; do
        [ -f "$f" ] || continue
        check_includes "$top_srcdir" "$f" $level >>"$tmp/violations"
        checked=$((checked + 1))
    done
done
# Anything else in lib/ is outside every layer.
for f in lib/*/*; do
    case ${f#lib/} in
    base/*|text/*|stats/*|model/*|analysis/*|study/*) ;;
    *) echo "$f: not in a layer folder (base, text, stats, model, analysis, study)" >>"$tmp/violations" ;;
    esac
done
# Programs may include any library header and cli.h; the tools only the
# base layer (and their own synth.h).
for f in src/*.c tools/*.c; do
    [ -f "$f" ] || continue
    case $f in
    src/*) check_includes "$top_srcdir" "$f" 6 cli.h ;;
    tools/*) check_includes "$top_srcdir" "$f" 1 cli.h synth.h ;;
    esac >>"$tmp/violations"
    checked=$((checked + 1))
done
if [ -s "$tmp/violations" ]; then
    cat "$tmp/violations" >&2
    fail "$(wc -l <"$tmp/violations") layering violation(s)"
fi
[ "$checked" -ge 50 ] || fail "only $checked files checked: is lib/ there?"

# The check itself catches each kind of violation.
mkdir -p "$tmp/t/lib/base" "$tmp/t/lib/stats" "$tmp/t/lib/text" "$tmp/t/src"
touch "$tmp/t/lib/base/error.h" "$tmp/t/lib/stats/counts.h"
printf '#include "base/error.h"\n#include "stats/counts.h"\n#include "cli.h"\n#include "text/nope.h"\n#include <cblas.h>\n' \
    >"$tmp/t/lib/text/bad.c"
check_includes "$tmp/t" lib/text/bad.c 2 >"$tmp/caught"
cat >"$tmp/expected" <<'EOF'
lib/text/bad.c:2: includes "stats/counts.h": layer stats is above this one
lib/text/bad.c:3: includes "cli.h", which names no layer
lib/text/bad.c:4: includes "text/nope.h", which does not exist
lib/text/bad.c:5: calls BLAS outside the model layer
EOF
cmp -s "$tmp/expected" "$tmp/caught" || {
    fail "the check does not catch a planted violation"
    diff "$tmp/expected" "$tmp/caught" >&2
}
finish
