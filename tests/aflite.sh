#!/bin/sh
# tells-aflite: the first round agrees with scikit-learn split for split
# (tests/data/aflite-ref.tsv, from tests/ref/aflite_ref.py fixtures), equal
# scores at the cut in the reference's hash order; every round removes the
# top k scores at or above tau and stops as defined; the same examples go
# in the same rounds whatever the order of the rows; the same seed gives the same bytes whatever the
# threads, and the same partitions with --cold-start; duplicated rows keep
# their own ids; the id files carry sha256sum checksums.
. "${top_srcdir:-.}/tests/init.sh"

x=$data/aflite-x.npy
tsv=$data/aflite.tsv
N=600

# --- against scikit-learn, the same first-round training parts ---
what="first round against scikit-learn"
run tells-aflite -e "$x" -n 8 -m 240 -k 50 --rounds 1 --seed 5 --splits "$data/aflite-splits.txt" \
    --scores "$tmp/s1.tsv" "$tsv"
expect 0 ""
expect_out_text "round	examples	at_tau	removed	remaining
1	600	378	50	550"
# Every example: the same score and times held out (one in a hundred may
# differ where a prediction sits on a decision boundary).
paste "$data/aflite-ref.tsv" "$tmp/s1.tsv" | awk -F'\t' '
    NR > 1 { n++; if ($2 == $7 && $3 == $8 && $4 == $9) same++ }
    END { if (n != 600 || same < 0.99 * n) { print same " of " n " agree"; exit 1 } }' ||
    fail "$what: $(paste "$data/aflite-ref.tsv" "$tmp/s1.tsv" | awk -F'\t' 'NR > 1 && $3 != $8' | head -3)"
# The removed ones are the reference's too: 378 reach tau, all of them 1,
# so which 50 go is decided by the hash of (id, seed, round) alone.
cmp -s "$data/aflite-ref.tsv" "$tmp/s1.tsv" || fail "$what: scores file differs from the reference's"

# --- a whole run and its invariants ---
what="a whole run"
run tells-aflite -e "$x" -n 8 -m 240 -k 50 --seed 7 --easy "$tmp/easy.ids" \
    --difficult "$tmp/difficult.ids" --scores "$tmp/scores.tsv" --write-splits "$tmp/splits" "$tsv"
expect 0 ""
cp "$tmp/out" "$tmp/rounds.tsv"
# Rounds chain, remove at most k and only what reaches tau, and stop when
# fewer than k were removed or fewer than m remain.
awk -F'\t' -v k=50 -v m=240 -v n=$N '
    NR == 1 { next }
    { if ($1 != NR - 1) print "round " $1 " out of order"
      if ($2 != (NR == 2 ? n : prev)) print "round " $1 ": starts with " $2
      if ($4 > k || $4 > $3 || $5 != $2 - $4) print "round " $1 ": " $0
      if (stopped) print "round " $1 " after the stop"
      if ($4 < k || $5 < m) stopped = 1
      prev = $5; removed += $4 }
    END { if (!stopped && prev > m) print "no stop"; print removed > "/dev/stderr" }
' "$tmp/rounds.tsv" >"$tmp/bad" 2>"$tmp/removed"
[ -s "$tmp/bad" ] && fail "$what: $(cat "$tmp/bad")"
[ "$(wc -l <"$tmp/easy.ids")" = "$(cat "$tmp/removed")" ] || fail "$what: easy count"
# easy and difficult: every id once, each in input order.
tail -n +2 "$tsv" | cut -f1 >"$tmp/all.ids"
sort "$tmp/easy.ids" "$tmp/difficult.ids" >"$tmp/both"
sort "$tmp/all.ids" | cmp -s - "$tmp/both" || fail "$what: easy and difficult do not partition the ids"
grep -Fxf "$tmp/easy.ids" "$tmp/all.ids" | cmp -s - "$tmp/easy.ids" || fail "$what: easy not in input order"
grep -Fxf "$tmp/difficult.ids" "$tmp/all.ids" | cmp -s - "$tmp/difficult.ids" ||
    fail "$what: difficult not in input order"
(cd "$tmp" && sha256sum -c --quiet easy.ids.sha256 difficult.ids.sha256) || fail "$what: checksums"
[ "$(cut -d' ' -f3 "$tmp/easy.ids.sha256")" = "easy.ids" ] || fail "$what: checksum file names a path"
# Scores: a line per example per round; a round removes the best scores at
# or above tau (which of equal ones: test-aflite and the reference above);
# removed_in_round is the round that removed the example, or '-'.
[ "$(($(wc -l <"$tmp/scores.tsv") - 1))" = "$(awk 'NR > 1 { s += $2 } END { print s }' "$tmp/rounds.tsv")" ] ||
    fail "$what: scores lines"
awk -F'\t' -v tau=0.75 '
    FILENAME ~ /easy.ids$/ { easy[$1] = 1; next }
    FNR == 1 { next }
    { r = $1; pos[r]++
      if ($5 != "-" && !($1 <= $5)) print "example " $2 " scored after its removal"
      if (($5 != "-") != ($2 in easy)) print "example " $2 ": removed_in_round " $5 " but easy is " ($2 in easy)
      if ($5 == r) { if ($3 + 0 < tau) print $2 " removed below tau"
                     if (r in lowrem) { if ($3 + 0 > lowrem[r] + 0) print $2 " removed after a lower score" }
                     lowrem[r] = $3 }
      else if ($3 + 0 >= tau) kept[r, pos[r]] = $3 }
    END { for (key in kept) { split(key, p, SUBSEP)
            # a kept example at or above tau beats no removed one
            if (kept[key] + 0 > lowrem[p[1]] + 0)
                print "round " p[1] ": kept " kept[key] " over a removed " lowrem[p[1]] } }
' "$tmp/easy.ids" "$tmp/scores.tsv" >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "$what: $(head -3 "$tmp/bad")"
awk -F'\t' 'NR > 1 && $3 !~ /^[01]\.[0-9][0-9][0-9][0-9][0-9][0-9]$/' "$tmp/scores.tsv" | head -1 >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "$what: score format: $(cat "$tmp/bad")"
[ "$(wc -l <"$tmp/splits")" = 8 ] || fail "$what: --write-splits lines"
[ "$(awk '{ print NF }' "$tmp/splits" | sort -u)" = 240 ] || fail "$what: --write-splits rows per line"

what="the same seed, the same bytes, whatever the threads"
for t in 1 3; do
    run tells-aflite -e "$x" -n 8 -m 240 -k 50 --seed 7 --threads $t --easy "$tmp/e$t" \
        --difficult "$tmp/d$t" --scores "$tmp/s$t" "$tsv"
    expect 0 ""
    expect_out "$tmp/rounds.tsv"
    cmp -s "$tmp/e$t" "$tmp/easy.ids" && cmp -s "$tmp/d$t" "$tmp/difficult.ids" &&
        cmp -s "$tmp/s$t" "$tmp/scores.tsv" || fail "$what: --threads $t differs"
done
what="--cold-start: the same partitions from starts at zero"
run tells-aflite -e "$x" -n 8 -m 240 -k 50 --seed 7 --cold-start --easy "$tmp/ec" \
    --difficult "$tmp/dc" "$tsv"
expect 0 ""
expect_out "$tmp/rounds.tsv"
cmp -s "$tmp/ec" "$tmp/easy.ids" && cmp -s "$tmp/dc" "$tmp/difficult.ids" ||
    fail "$what: other partitions"
what="another seed, other parts"
run tells-aflite -e "$x" -n 8 -m 240 -k 50 --seed 8 --scores "$tmp/s8" "$tsv"
expect 0 ""
cmp -s "$tmp/s8" "$tmp/scores.tsv" && fail "$what: seed 8 gives seed 7's scores"
what="--write-splits then --splits: the first round again"
run tells-aflite -e "$x" -n 8 -m 240 -k 50 --seed 99 --splits "$tmp/splits" --rounds 1 \
    --scores "$tmp/again" "$tsv"
expect 0 ""
[ "$(head -n 2 "$tmp/out")" = "$(head -n 2 "$tmp/rounds.tsv")" ] || fail "$what: round 1 differs"
awk -F'\t' '$1 == 1 { print $2, $3, $4 }' "$tmp/scores.tsv" >"$tmp/r1"
awk -F'\t' 'NR > 1 { print $2, $3, $4 }' "$tmp/again" | cmp -s - "$tmp/r1" || fail "$what: scores differ"

# --- stopping ---
what="--rounds"
run tells-aflite -e "$x" -n 8 -m 240 -k 20 --rounds 2 "$tsv"
expect 0 ""
[ "$(cut -f1 "$tmp/out" | tr '\n' ' ')" = "round 1 2 " ] || fail "$what: $(cat "$tmp/out")"
what="--target"
run tells-aflite -e "$x" -n 8 -m 240 -k 50 --target 520 "$tsv"
expect 0 ""
# 600 -> 550 -> 500 <= 520: two rounds, though every round removed k.
[ "$(cut -f 1,2,4,5 "$tmp/out" | tr '\n\t' '; ')" = "round examples removed remaining;1 600 50 550;2 550 50 500;" ] ||
    fail "$what: $(cat "$tmp/out")"
what="--tau 1: only examples never wrong"
run tells-aflite -e "$x" -n 8 -m 240 -k 50 --tau 1 --scores "$tmp/t1" "$tsv"
expect 0 ""
awk -F'\t' 'NR > 1 && $1 == $5 && $3 != "1.000000"' "$tmp/t1" | head -1 >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "$what: $(cat "$tmp/bad")"
what="--train-frac"
run tells-aflite -e "$x" -n 2 --train-frac 0.25 --rounds 1 --write-splits "$tmp/frac" "$tsv"
expect 0 ""
[ "$(awk '{ print NF }' "$tmp/frac" | sort -u)" = 150 ] || fail "$what: m is not 25% of 600"

# --- duplicated rows keep their own ids ---
what="duplicated rows"
tells-prep -q --split train "$corpora/synthetic/dev.jsonl" -o "$tmp/dev.tsv"
{ cat "$tmp/dev.tsv"; tail -n +2 "$tmp/dev.tsv" | sed 's/^synth-/copy-/'; } >"$tmp/dup.tsv"
tells-embed -q --train-vectors "$tmp/v.bin" --dim 20 --seed 1 -o "$tmp/dup.npy" "$tmp/dup.tsv"
run tells-aflite -e "$tmp/dup.npy" --train-frac 0.4 -k 50 --easy "$tmp/de" --difficult "$tmp/dd" \
    --scores "$tmp/ds" "$tmp/dup.tsv"
expect 0 ""
[ "$(sort "$tmp/de" "$tmp/dd" | uniq | wc -l)" = 900 ] || fail "$what: ids lost or merged"
[ "$(awk -F'\t' '$1 == 1' "$tmp/ds" | wc -l)" = 900 ] || fail "$what: round 1 does not score 900"
# A copy and its original share their embedding, not their fate: scores
# differ between them (they are held out by different models).
awk -F'\t' '$1 == 1 { id = $2; sub(/^copy-/, "synth-", id); if (id in s) { if (s[id] != $3) d++ } else s[id] = $3 }
            END { exit !(d > 0) }' "$tmp/ds" || fail "$what: copies scored as one"
what="--vectors computes the matrix as tells-embed does"
run tells-aflite -v "$tmp/v.bin" --train-frac 0.4 -k 50 --easy "$tmp/ve" "$tmp/dup.tsv"
expect 0 ""
cmp -s "$tmp/ve" "$tmp/de" || fail "$what: other partitions"
# --- the draws follow each example's id, not its place ---
# A part is the m examples whose hash of (id, seed, round, model) is
# smallest: the same ids in whatever order, and an example fewer changes
# each part by at most that one and the next.
parts() {  # parts TSV SPLITS: "model id" for each id of each model's part, sorted
    awk -F'\t' 'FNR == NR { if (FNR > 1) id[FNR - 2] = $1; next }
                { for (i = 1; i <= NF; i++) print FNR, id[$i] }' "$1" FS=' ' "$2" | LC_ALL=C sort
}
what="the same parts by id in reverse order"
run tells-aflite -v "$tmp/v.bin" --train-frac 0.4 -k 50 --rounds 1 --seed 3 \
    --write-splits "$tmp/p-fwd" "$tmp/dup.tsv"
expect 0 ""
{ head -n 1 "$tmp/dup.tsv"; tail -n +2 "$tmp/dup.tsv" | tac; } >"$tmp/rev.tsv"
run tells-aflite -v "$tmp/v.bin" --train-frac 0.4 -k 50 --rounds 1 --seed 3 \
    --write-splits "$tmp/p-rev" "$tmp/rev.tsv"
expect 0 ""
parts "$tmp/dup.tsv" "$tmp/p-fwd" >"$tmp/ids-fwd"
parts "$tmp/rev.tsv" "$tmp/p-rev" >"$tmp/ids-rev"
[ "$(cut -d' ' -f1 "$tmp/ids-fwd" | uniq -c | awk '{ print $1 }' | sort -u)" = 360 ] &&
    [ "$(cut -d' ' -f1 "$tmp/ids-fwd" | sort -u | wc -l)" = 64 ] || fail "$what: not 64 parts of 360"
cmp -s "$tmp/ids-fwd" "$tmp/ids-rev" || fail "$what: the parts differ"
what="the same partitions whatever the order of the rows"
# The rows and the matrix's rows in reverse: every round's cut falls among
# equal scores (more reach tau than k), yet the same examples go in the
# same rounds, with the same scores.
{ head -n 1 "$tsv"; tail -n +2 "$tsv" | tac; } >"$tmp/g-rev.tsv"
python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
h = 10 + int.from_bytes(b[8:10], "little")     # .npy version 1 header
w = (len(b) - h) // int(sys.argv[3])
rows = [b[h + i * w:h + (i + 1) * w] for i in range(int(sys.argv[3]))]
open(sys.argv[2], "wb").write(b[:h] + b"".join(reversed(rows)))' "$x" "$tmp/g-rev.npy" $N
run tells-aflite -e "$x" -n 8 -m 240 -k 30 --seed 3 --scores "$tmp/o-fwd" --easy "$tmp/oe-fwd" "$tsv"
expect 0 ""
cp "$tmp/out" "$tmp/o-rounds"
run tells-aflite -e "$tmp/g-rev.npy" -n 8 -m 240 -k 30 --seed 3 --scores "$tmp/o-rev" \
    --easy "$tmp/oe-rev" "$tmp/g-rev.tsv"
expect 0 ""
expect_out "$tmp/o-rounds"
[ "$(awk -F'\t' 'NR > 1 && $3 > $4' "$tmp/o-rounds" | wc -l)" -ge 3 ] ||
    fail "$what: fewer than 3 rounds had more at tau than they removed"
LC_ALL=C sort "$tmp/oe-rev" >"$tmp/oe-rev.s"
LC_ALL=C sort "$tmp/oe-fwd" | cmp -s - "$tmp/oe-rev.s" || fail "$what: the easy ids differ"
[ "$(wc -l <"$tmp/oe-fwd")" -ge 100 ] || fail "$what: too few removed to tell"
LC_ALL=C sort "$tmp/o-fwd" >"$tmp/o-fwd.s"
LC_ALL=C sort "$tmp/o-rev" | cmp -s - "$tmp/o-fwd.s" || fail "$what: the scores differ"
what="an example fewer: each part keeps all but one"
# -m 360 as before (--train-frac would round 40% of 899 to 360 too)
sed '/^copy-.*/{x;s/^/x/;/^x\{7\}$/{x;d};x}' "$tmp/dup.tsv" >"$tmp/fewer.tsv"
[ "$(($(wc -l <"$tmp/dup.tsv") - $(wc -l <"$tmp/fewer.tsv")))" = 1 ] || fail "$what: no row deleted"
run tells-aflite -v "$tmp/v.bin" -m 360 -k 50 --rounds 1 --seed 3 \
    --write-splits "$tmp/p-fewer" "$tmp/fewer.tsv"
expect 0 ""
parts "$tmp/fewer.tsv" "$tmp/p-fewer" >"$tmp/ids-fewer"
LC_ALL=C comm -23 "$tmp/ids-fwd" "$tmp/ids-fewer" | cut -d' ' -f1 | uniq -c |
    awk '$1 > 1 { print "model " $2 ": " $1 " ids left" } END { if (NR == 0) print "no part changed" }' >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "$what: $(head -3 "$tmp/bad")"
what="another seed, other parts by id"
run tells-aflite -v "$tmp/v.bin" --train-frac 0.4 -k 50 --rounds 1 --seed 4 \
    --write-splits "$tmp/p-4" "$tmp/dup.tsv"
expect 0 ""
parts "$tmp/dup.tsv" "$tmp/p-4" | cmp -s - "$tmp/ids-fwd" && fail "$what: seed 4 gives seed 3's parts"
finish
