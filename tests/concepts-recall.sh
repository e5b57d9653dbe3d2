#!/bin/sh
# Recall and precision of concept linking on clinical sentences written for
# tells (tests/data/clinical-links.tsv: sentence, descriptors it must link,
# other descriptors that are right). Recall: required descriptors linked /
# required; precision: linked descriptors that are required or right /
# distinct descriptors linked per sentence. The figures are those of the
# manual page and the README; a change of linking must restate them.
. "${top_srcdir:-.}/tests/init.sh"

TELLS_DATA=$corpora
export TELLS_DATA
grep -v '^#' "$data/clinical-links.tsv" >"$tmp/gold"
cut -f 1 "$tmp/gold" >"$tmp/text"
[ "$(wc -l <"$tmp/text")" -ge 60 ] || fail "fewer than 60 sentences"

# score NAME RECALL PRECISION ARGS...: tells-concepts -T ARGS gives these
# figures (in percent, rounded).
score() {
    what=$1 want="$2 $3"
    shift 3
    run tells-concepts -T "$@" "$tmp/text"
    expect 0 ""
    got=$(awk -F'\t' 'FILENAME == ARGV[1] {
            n = split($2, r, ","); for (i = 1; i <= n; i++) { req[FNR, r[i]] = 1; nreq++ }
            n = split($3, a, ","); for (i = 1; i <= n; i++) ok[FNR, a[i]] = 1
            next }
        FNR > 1 && !seen[$1, $6]++ { links++
            if (req[$1, $6]) { found++; right++ } else if (ok[$1, $6]) right++ }
        END { printf "%.0f %.0f", 100 * found / nreq, 100 * right / links }' "$tmp/gold" "$tmp/out")
    [ "$got" = "$want" ] || fail "$what: recall and precision $got, stated $want"
}
score "MeSH 2024 entry terms on stems (the default)" 97 89
score "MeSH 2024 entry terms, exact tokens" 91 95 --no-stem
score "MeSH 2024 headings on stems" 68 76 --no-terms
score "MeSH 2017 headings, exact tokens (before)" 57 75 --mesh "$corpora/mesh/mtrees2017.txt"
finish
