#!/bin/sh
# tells-study on corpora no test has seen: a MedNLI-style corpus with
# shortcuts gets significant = yes on hypothesis_only, one without gets no;
# a prepared corpus, new batches and cross-validation; bad input gets one
# clear error; an existing output folder is replaced only when the whole
# study succeeded.
. "${top_srcdir:-.}/tests/init.sh"

tells-synth --seed 5 --premises 400 -o "$tmp/mli" >/dev/null
tells-synth --seed 6 --premises 400 --no-artifacts -o "$tmp/clean" >/dev/null
splits() { echo --split train "$1/train.jsonl" --split dev "$1/dev.jsonl" --split test "$1/test.jsonl"; }
verdict() {
    awk -F'\t' -v c="$2" '$1 == c { print $9 }' "$1/summary.tsv"
}

what="a corpus with shortcuts"
# shellcheck disable=SC2046
run tells-study -o "$tmp/study" --mesh "$corpora/mesh/mtrees2017.txt" $(splits "$tmp/mli")
expect 0 ""
[ "$(verdict "$tmp/study" hypothesis_only)" = yes ] || fail "$what: hypothesis_only $(verdict "$tmp/study" hypothesis_only)"
[ "$(awk -F'\t' '$1 ~ /^token:/ && $9 == "yes"' "$tmp/study/summary.tsv" | wc -l)" -ge 10 ] ||
    fail "$what: fewer than 10 significant tokens"
grep -q 'evaluation=test' "$tmp/study/summary.tsv" || fail "$what: not evaluated on test"
# The printed verdicts: one line per finding, the files last.
grep -q '^hypothesis_only: A fastText model that reads only the hypothesis gets ' "$tmp/out" ||
    fail "$what: no hypothesis_only line printed"
[ "$(tail -n 1 "$tmp/out")" = "tells-study: $tmp/study/summary.tsv, $tmp/study/report.html" ] ||
    fail "$what: last line $(tail -n 1 "$tmp/out")"
for f in summary.tsv report.html prepared.tsv pmi.tsv competency.tsv len.tsv heur.tsv \
    baseline.tsv pair-baseline.tsv easy.ids difficult.ids partitions.tsv heldout.tsv \
    figures/competency.svg figures/competency.gp figures/competency.dat; do
    [ -s "$tmp/study/$f" ] || fail "$what: no $f"
done
ls "$tmp" | grep -q 'study\.\(tmp\|old\)-' && fail "$what: a temporary folder was left"
grep -q 'The hypotheses alone give the label away' "$tmp/study/report.html" ||
    fail "$what: the report's headline does not say so"
# Cartography's own model learns from the hypotheses: its easy region is
# far easier than its hard one for the hypothesis-only model (a model fed
# vectors in the wrong order, or reordered by AFLite, left them alike).
awk -F'\t' '$1 == "cartography" {
        n = split($10, w, " ")
        for (i = 1; i <= n; i++) if (split(w[i], kv, "=") == 2) v[kv[1]] = kv[2]
        ok = $2 > 0.4 && v["accuracy_easy"] > v["accuracy_hard"] + 0.2 }
    END { exit !ok }' "$tmp/study/summary.tsv" ||
    fail "$what: cartography learned nothing: $(grep '^cartography' "$tmp/study/summary.tsv")"

what="a corpus without shortcuts"
# shellcheck disable=SC2046
run tells-study -q -o "$tmp/clean-out" $(splits "$tmp/clean")
expect 0 ""
[ "$(verdict "$tmp/clean-out" hypothesis_only)" = no ] ||
    fail "$what: hypothesis_only $(verdict "$tmp/clean-out" hypothesis_only)"
# A "no" that says what it could have seen: the model's fit of its
# training rows, the settings chosen there, and the smallest gain its test
# finds with 80% power over these examples.
grep '^hypothesis_only	' "$tmp/clean-out/summary.tsv" |
    grep -Eq ' train_accuracy=[01]\.[0-9]{6} epoch=(5|10|25) lr=[0-9.]+ settings=chosen_on_training_rows mde=0\.[0-9]{6} ' ||
    fail "$what: hypothesis_only's detail: $(grep '^hypothesis_only' "$tmp/clean-out/summary.tsv")"
grep -q 'would be found with 80% power' "$tmp/clean-out/report.html" || fail "$what: no minimum detectable effect on the page"
grep -q 'No significant hypothesis-only shortcut' "$tmp/clean-out/report.html" ||
    fail "$what: the report's headline does not say so"

what="a prepared corpus, a batch, and cross-validation over two splits without train"
tells-prep -q -o "$tmp/p.tsv" --split a "$tmp/mli/train.jsonl" --split b "$tmp/mli/dev.jsonl"
run tells-study -q -o "$tmp/cv" --batch "$tmp/clean/test.jsonl" --folds 3 "$tmp/p.tsv"
expect 0 ""
grep -q 'evaluation=cross-validation' "$tmp/cv/summary.tsv" || fail "$what: not cross-validated"
[ ! -e "$tmp/cv/all.tsv" ] && [ -s "$tmp/cv/audit.tsv" ] && [ -s "$tmp/cv/batch.tsv" ] ||
    fail "$what: all.tsv kept, or no audit.tsv or batch.tsv"
grep -q '^audit:test.jsonl:predictability	' "$tmp/cv/summary.tsv" ||
    fail "$what: no audit row named by the batch file"
cmp -s "$tmp/p.tsv" "$tmp/cv/prepared.tsv" || fail "$what: prepared.tsv is not the corpus"

what="the same study whatever the order of the rows"
# The corpus and the batch with their rows reversed: every result is the
# same (the rows are studied in the order of their ids); the files that
# list the corpus's rows (prepared.tsv, folds.tsv, hypothesis.npy) keep
# the input's order.
mkdir "$tmp/rev"
{ head -n 1 "$tmp/p.tsv"; tail -n +2 "$tmp/p.tsv" | tac; } >"$tmp/rev/p.tsv"
tac "$tmp/clean/test.jsonl" >"$tmp/rev/test.jsonl"
run tells-study -q -o "$tmp/cv-rev" --batch "$tmp/rev/test.jsonl" --folds 3 "$tmp/rev/p.tsv"
expect 0 ""
for f in "$tmp"/cv/*.tsv "$tmp"/cv/*.ids; do
    b=${f##*/}
    case $b in
    prepared.tsv | folds.tsv | heur-pairs.tsv | batch.tsv)
        [ "$(sort "$f" | cksum)" = "$(sort "$tmp/cv-rev/$b" | cksum)" ] ||
            fail "$what: $b has other rows" ;;
    *) cmp -s "$f" "$tmp/cv-rev/$b" || fail "$what: $b differs" ;;
    esac
done
cmp -s "$tmp/rev/p.tsv" "$tmp/cv-rev/prepared.tsv" || fail "$what: prepared.tsv is not the corpus"
[ "$(cut -f 1 "$tmp/cv-rev/folds.tsv")" = "$(cut -f 1 "$tmp/rev/p.tsv")" ] ||
    fail "$what: folds.tsv is not in the corpus's order"
python3 - "$tmp/cv" "$tmp/cv-rev" <<'PY' || fail "$what: hypothesis.npy's rows differ by id"
import sys
def rows(d):
    b = open(d + "/hypothesis.npy", "rb").read()
    h = 10 + int.from_bytes(b[8:10], "little")
    ids = [l.split("\t")[0] for l in open(d + "/folds.tsv").read().splitlines()[1:]]
    w = (len(b) - h) // len(ids)
    return b[:h], {i: b[h + k * w:h + (k + 1) * w] for k, i in enumerate(ids)}
sys.exit(rows(sys.argv[1]) != rows(sys.argv[2]))
PY
what="--embeddings in the order of a shuffled corpus"
# hypothesis.npy back as --embeddings (rows in the input's order, put in
# the study's by whole cycles of the permutation): the same vectors, so
# the same AFLite, cartography and hypothesis.npy.
mkdir "$tmp/shuf"
yes | head -c 100000 >"$tmp/random"
{ head -n 1 "$tmp/p.tsv"; tail -n +2 "$tmp/p.tsv" | shuf --random-source="$tmp/random"; } >"$tmp/shuf/p.tsv"
run tells-study -q -o "$tmp/cv-shuf" --folds 3 "$tmp/shuf/p.tsv"
expect 0 ""
run tells-study -q -o "$tmp/cv-emb" --embeddings "$tmp/cv-shuf/hypothesis.npy" --folds 3 "$tmp/shuf/p.tsv"
expect 0 ""
for f in hypothesis.npy aflite.tsv easy.ids difficult.ids carto.tsv; do
    cmp -s "$tmp/cv-shuf/$f" "$tmp/cv-emb/$f" || fail "$what: $f differs"
done
what="--train and --eval"
run tells-study -q -o "$tmp/te" --train b --eval a "$tmp/p.tsv"
expect 0 ""
grep -q 'evaluation=a' "$tmp/te/summary.tsv" || fail "$what: not evaluated on a"

# ---- bad input: one clear error, and nothing in the way of the old folder ----
# $tmp/keep is a folder tells-study made (its .tells-study lists every file).
cp -a "$tmp/te" "$tmp/keep"
sums() { (cd "$1" && find . | sort && find . -type f | sort | xargs cat) | cksum; }
kept=$(sums "$tmp/keep")
H='id	split	label	premise	hypothesis'
bad() {
    what=$1
    shift
    run tells-study -q -o "$tmp/keep" "$@"
    [ "$(sums "$tmp/keep")" = "$kept" ] || fail "$what: the old folder changed"
    ls "$tmp" | grep -q 'keep\.\(tmp\|old\)-' && fail "$what: a temporary folder was left"
}
printf '%s\n1\ta\tyes\tp\th\n2\ta\tyes\tp\tk\n' "$H" >"$tmp/one-class.tsv"
bad "one class" "$tmp/one-class.tsv"
expect 1 "tells-study: $tmp/one-class.tsv: one class only ('yes'): nothing to study"
: >"$tmp/empty.jsonl"
bad "a split without examples" --split train "$tmp/mli/train.jsonl" --split test "$tmp/empty.jsonl"
expect 1 "tells-study: $tmp/empty.jsonl: no examples in the input"
bad "a split the corpus lacks" --eval test "$tmp/p.tsv"
expect 1 "tells-study: no split named 'test' in the corpus (its splits: a, b)"
printf '%s\n1\ta\tx\tp\th\n2\ta\ty\tp\tk\n3\ta\tx\tp\tj\n' "$H" >"$tmp/tiny.tsv"
bad "fewer examples than folds" "$tmp/tiny.tsv"
expect 1 "tells-study: the corpus's 3 examples cannot make 5 folds"
bad "a missing vectors file" --vectors "$tmp/nope.vec" "$tmp/p.tsv"
expect 1 "tells-study: $tmp/nope.vec: cannot open: No such file or directory"
bad "not a prepared TSV" "$tmp/mli/dev.jsonl"
expect 1 "tells-study: $tmp/mli/dev.jsonl:1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis' (--split NAME FILE for a corpus not yet prepared)"
what="an output folder that cannot be made"
echo x >"$tmp/file"
run tells-study -q -o "$tmp/file/out" "$tmp/p.tsv"
expect 1 "tells-study: $tmp/file/out: cannot create a folder beside it: Not a directory"
what="usage"
run tells-study --batch x.jsonl
expect 2 "tells-study: --train, --eval and --batch need a corpus
Try 'tells-study --help' for more information."
run tells-study --split a x.jsonl "$tmp/p.tsv"
expect 2 "tells-study: a prepared TSV '$tmp/p.tsv' and --split: give one corpus
Try 'tells-study --help' for more information."
run tells-study --alpha 1 "$tmp/p.tsv"
expect 2 "tells-study: invalid value '1' for --alpha (expected a number > 0 and < 1)
Try 'tells-study --help' for more information."

# ---- the output folder: tells-study replaces only what it made ----
echo precious >"$tmp/keep/notes"
kept=$(sums "$tmp/keep")
bad "a file tells-study did not write" "$tmp/p.tsv"
expect 1 "tells-study: $tmp/keep: cannot replace it: it holds notes, which tells did not write there"
rm "$tmp/keep/notes"
kept=$(sums "$tmp/keep")
mkdir "$tmp/mine"
echo precious >"$tmp/mine/notes"
ln -s mine "$tmp/to-mine"
for out in "$tmp/mine" "$tmp/mine/" "$tmp/to-mine"; do
    what="a folder tells-study did not make: $out"
    run tells-study -q -o "$out" "$tmp/p.tsv"
    expect 1 "tells-study: ${out%/}: cannot replace it: it is not empty and has no .tells-study, so tells did not make it"
done
[ "$(cat "$tmp/mine/notes")" = precious ] || fail "$what: the folder changed"
what="a file, not a folder"
run tells-study -q -o "$tmp/file" "$tmp/p.tsv"
expect 1 "tells-study: $tmp/file: cannot replace it: not a folder"
what="the corpus inside the output folder"
cp "$tmp/p.tsv" "$tmp/mine/corpus.tsv"
run tells-study -q -o "$tmp/mine" "$tmp/mine/corpus.tsv"
expect 2 "tells-study: --output names a folder holding an input (PREPARED.tsv): $tmp/mine/corpus.tsv
Try 'tells-study --help' for more information."
run tells-study -q -o "$tmp/keep/" "$tmp/keep/prepared.tsv"
expect 2 "tells-study: --output names a folder holding an input (PREPARED.tsv): $tmp/keep/prepared.tsv
Try 'tells-study --help' for more information."
run tells-study -q -o "$tmp" --split a "$tmp/mli/train.jsonl"
expect 2 "tells-study: --output names a folder holding an input (--split a): $tmp/mli/train.jsonl
Try 'tells-study --help' for more information."
[ "$(sums "$tmp/keep")" = "$kept" ] || fail "$what: the old folder changed"
cmp -s "$tmp/p.tsv" "$tmp/mine/corpus.tsv" || fail "$what: the corpus changed"

what="a study folder is replaced when the study succeeds (through a link, with a slash)"
# A file the old study listed goes; the new study's files come.
echo old >"$tmp/keep/gone.tsv"
printf 'f gone.tsv\n' >>"$tmp/keep/.tells-study"
ln -s keep "$tmp/to-keep"
run tells-study -q -o "$tmp/to-keep/" "$tmp/p.tsv"
expect 0 ""
[ -L "$tmp/to-keep" ] || fail "$what: the link was replaced"
[ -e "$tmp/keep/gone.tsv" ] && fail "$what: the old folder's file is still there"
[ -s "$tmp/keep/summary.tsv" ] || fail "$what: no summary.tsv"
grep -q 'evaluation=cross-validation' "$tmp/keep/summary.tsv" || fail "$what: not the new study"
grep -qx 'f summary.tsv' "$tmp/keep/.tells-study" || fail "$what: summary.tsv not listed"
grep -qx 'd figures' "$tmp/keep/.tells-study" || fail "$what: figures/ not listed"
[ "$(stat -c %a "$tmp/keep")" = "$(mkdir "$tmp/plain" && stat -c %a "$tmp/plain")" ] ||
    fail "$what: mode $(stat -c %a "$tmp/keep")"
ls "$tmp" | grep -q 'keep\.\(tmp\|old\)-' && fail "$what: a temporary folder was left"

what="a log the message points to is kept"
printf '#!/bin/sh\necho "line 3: no such font" >&2\nexit 1\n' >"$tmp/badplot"
chmod +x "$tmp/badplot"
kept=$(sums "$tmp/keep")
head -n 121 "$tmp/p.tsv" >"$tmp/small.tsv"
bad "$what" --gnuplot "$tmp/badplot" --folds 2 "$tmp/small.tsv"
expect 1 "tells-study: $tmp/keep.gnuplot.log: gnuplot failed drawing the figures: line 3: no such font"
[ "$(cat "$tmp/keep.gnuplot.log")" = "line 3: no such font" ] || fail "$what: the log"
finish
