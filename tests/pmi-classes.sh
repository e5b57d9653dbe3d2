#!/bin/sh
# Many classes (issue 23): 100,000 examples, each its own class, under a
# 1 GB address-space limit (the dense token x class table of before needed
# 6.5 GB and a classes^2 loop); the top rows agree with an awk computation
# of every token of every class. On 20,000 classes of uneven sizes, every
# measure's --top rows are the first rows of the table of every token.
. "${top_srcdir:-.}/tests/init.sh"

# limited CMD...: CMD with at most 1 GB of address space (when the shell
# can set it, and not under AddressSanitizer).
limited() {
    (asan_build || ulimit -v 1048576 2>/dev/null; "$@")
}

# Deterministic corpora in POSIX awk (Park-Miller's generator).
gen='function rnd() { x = (16807 * x) % 2147483647; return x / 2147483647 }'
awk "$gen"'
BEGIN {
    x = 4242
    print "id\tsplit\tlabel\tpremise\thypothesis"
    for (i = 1; i <= 100000; i++) {
        len = 2 + int(rnd() * 4)
        h = ""
        for (j = 0; j < len; j++) {
            u = rnd()
            h = h (j ? " " : "") "w" int(12 * u * u)
        }
        printf "%d\ttrain\tc%d\tp\t%s\n", i, i, h
    }
}' >"$tmp/own.tsv"

# The top 3 of every class by PMI as the help defines it, every kept
# token computed: class, token, pmi, count, class_share.
awk -F '\t' -v k=50 -v mincount=5 -v top=3 '
FNR == 1 { next }
NR == FNR {
    m = split($5, tok, " ")
    split("", seen)
    for (i = 1; i <= m; i++) {
        total[tok[i]]++
        key = $3 SUBSEP tok[i]
        cnt[key]++
        if (!(tok[i] in seen)) { seen[tok[i]] = 1; docs[key]++ }
    }
    ex[$3]++
    next
}
FNR == 2 {
    nk = 0; grand = 0
    for (w in total) if (total[w] >= mincount) { kept[++nk] = w; grand += total[w] }
    for (key in cnt) { split(key, p, SUBSEP); if (total[p[2]] >= mincount) ctot[p[1]] += cnt[key] }
    nc = 0; for (c in ex) nc++
    S = grand + k * nk * nc
}
!($3 in done) {
    c = $3; done[c] = 1
    sc = ctot[c] + k * nk
    for (j = 1; j <= nk; j++) {
        w = kept[j]; key = c SUBSEP w
        y = (key in cnt) ? cnt[key] : 0
        v[j] = log((y + k) * S / ((total[w] + k * nc) * sc)) / log(2)
        name[j] = w; yy[j] = y; sh[j] = ((key in docs) ? docs[key] : 0) / ex[c]
    }
    for (r = 1; r <= top && r <= nk; r++) {
        b = 0
        for (j = 1; j <= nk; j++)
            if (!(j in used) && (b == 0 || v[j] > v[b] || (v[j] == v[b] && name[j] < name[b])))
                b = j
        used[b] = 1
        printf "%s\t%s\t%.10f\t%d\t%.10f\n", c, name[b], v[b], yy[b], sh[b]
    }
    split("", used)
}' "$tmp/own.tsv" "$tmp/own.tsv" | sort -s -t '	' -k1,1 >"$tmp/ref"

what="100,000 classes: the top 3 by PMI"
run limited tells-pmi --top 3 "$tmp/own.tsv"
expect 0 ""
[ "$(wc -l <"$tmp/ref")" = 300000 ] || fail "$what: the reference has $(wc -l <"$tmp/ref") rows"
# Row by row, in order within each class: tokens and counts equal, PMI
# and class_share within 1e-6.
tail -n +2 "$tmp/out" | sort -s -t '	' -k1,1 | paste "$tmp/ref" - | awk -F '\t' '
    { d1 = $3 - $8; d2 = $5 - $10 }
    $1 != $6 || $2 != $7 || $4 != $9 || d1 > 1e-6 || -d1 > 1e-6 || d2 > 1e-6 || -d2 > 1e-6 {
        if (bad++ < 5) print "differs: " $0
    }
    END { exit bad > 0 }' >"$tmp/cmp" || { fail "$what"; head -n 5 "$tmp/cmp" >&2; }

# 20,000 classes of uneven sizes (so that their token totals differ: a
# third of the rows in three large classes, one of them of three tokens
# only), tokens of uneven counts, eight of them only in the small classes,
# and a background prior that lacks one token.
awk "$gen"'
BEGIN {
    x = 777
    print "id\tsplit\tlabel\tpremise\thypothesis"
    for (i = 1; i <= 40000; i++) {
        u = rnd()
        c = "k" (int(20000 * rnd()) % 20000)
        if (i <= 20000)
            c = "k" (i - 1)
        else if (u < 0.4)
            c = "big"
        else if (u < 0.55)
            c = "mid"
        else if (u < 0.75)
            c = "narrow"
        len = 1 + int(rnd() * 5)
        h = ""
        for (j = 0; j < len; j++) {
            u = rnd()
            h = h (j ? " " : "") "t" int(30 * u * u * u)
        }
        if (c == "narrow")
            h = "t1 t" int(1 + 3 * rnd())
        if (i <= 20000 && rnd() < 0.3)
            h = h " r" int(8 * rnd() * rnd())
        printf "%d\ttrain\t%s\tp\t%s\n", i, c, h
    }
}' >"$tmp/uneven.tsv"
awk 'BEGIN {
    print "token\tcount"
    for (i = 1; i < 30; i++) printf "t%d\t%d\n", i, 1 + (i * 37) % 101
    for (i = 0; i < 8; i++) printf "r%d\t%d\n", i, 10 ^ (i % 5)
}' >"$tmp/prior.tsv"

# first N: the first N rows of each class of a table.
first() {
    awk -F '\t' -v n="$1" 'NR == 1 { print; next } $1 != p { p = $1; k = 0 } ++k <= n'
}

for opts in "" "--binary --smoothing 0 --min-count 1" "--smoothing 0.001 --min-count 1" \
    "--measure z" "--measure z --class-prior --min-count 1" \
    "--measure logodds" "--measure logodds --binary" \
    "--measure logodds --prior $tmp/prior.tsv" \
    "--measure logodds --prior $tmp/prior.tsv --prior-scale 0.01 --min-count 1" \
    "--measure pmi-published --min-count 1"; do
    what="20,000 classes: --top 4 $opts"
    # shellcheck disable=SC2086
    run limited tells-pmi --top 100 $opts "$tmp/uneven.tsv"
    expect 0 ""
    first 4 <"$tmp/out" >"$tmp/want"
    [ "$(wc -l <"$tmp/want")" -gt 20000 ] || fail "$what: $(wc -l <"$tmp/want") rows"
    # shellcheck disable=SC2086
    run limited tells-pmi --top 4 $opts "$tmp/uneven.tsv"
    expect 0 ""
    expect_out "$tmp/want"
done
finish
