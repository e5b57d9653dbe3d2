#!/bin/sh
# No output may replace an input (lib/base/ioplan.h). Every program runs
# with each output option pointed at each of its inputs, and with each
# pair of its output options pointed at one file: exit 2, the exact
# message, and not a byte of any input changed, nothing created. The
# inputs are files whose content no program would accept: a program that
# read one before checking its outputs would fail otherwise (exit 1).
# Then the ways to name one file twice (links, "..", hard links, standard
# input and output), the files named inside other inputs (a heuristic's
# list), and tells-study's folder.
. "${top_srcdir:-.}/tests/init.sh"

d=$tmp/in
mkdir "$d" "$tmp/new"
n=0
for f in a.tsv b.tsv c1.jsonl c2.jsonl ph.txt mesh.txt terms.tsv syn.txt h.heur \
    k.ids dr.ids e.ids pr.counts v.vec x.npy s.txt e0.tsv e1.tsv m.bin m.bin.ref \
    bm.bin t.csv bases.csv f.txt pp.tsv ev.tsv tree.csv pred.txt bpred.txt g.tsv \
    l.txt r1.tsv r2.tsv ref.tsv; do
    n=$((n + 1))
    printf 'not an input any program reads %d\n' $n >"$d/$f"
done
# The data folder, with the files the programs read by default.
data=$tmp/data
mkdir -p "$data/mesh" "$data/lexicons"
for f in mesh/mtrees2024.txt mesh/desc2024-terms.tsv mesh/mtrees2017.txt \
    lexicons/heuristics-2024.heur lexicons/heuristics.heur; do
    printf 'not data\n' >"$data/$f"
done
TELLS_DATA=$data
export TELLS_DATA

snapshot() { (cd "$tmp" && find in new data | sort && cat in/* data/*/*) | cksum; }
before=$(snapshot)
unchanged() {
    [ "$(snapshot)" = "$before" ] || fail "$what: an input changed or a file appeared"
}

# row PROG 'OUTPUT...' 'ROLE=FILE|ROLE=FILE...' ARG...: ARG... is a run of
# PROG with every input; the outputs are listed in the order PROG checks
# them.
row() {
    prog=$1 outs=$2 ins=$3
    shift 3
    for o in $outs; do
        rest=$ins
        while [ -n "$rest" ]; do
            pair=${rest%%|*}
            case $rest in *'|'*) rest=${rest#*|} ;; *) rest= ;; esac
            role=${pair%%=*} file=${pair#*=}
            what="$prog $o onto $role"
            run "$prog" "$@" "$o" "$file"
            expect 2 "$prog: $o names an input ($role): $file
Try '$prog --help' for more information."
            unchanged
        done
    done
    i=0
    for o1 in $outs; do
        i=$((i + 1))
        j=0
        for o2 in $outs; do
            j=$((j + 1))
            [ $j -gt $i ] || continue
            what="$prog $o1 and $o2 onto one file"
            run "$prog" "$@" "$o1" "$tmp/new/same" "$o2" "$tmp/new/same"
            expect 2 "$prog: $o1 and $o2 name the same file: $tmp/new/same
Try '$prog --help' for more information."
            unchanged
        done
    done
}

row tells-len --output "FILE=$d/a.tsv|FILE=$d/b.tsv" "$d/a.tsv" "$d/b.tsv"
row tells-phrases --output "FILE=$d/a.tsv" "$d/a.tsv"
row tells-split '--output --missing' "FILE=$d/a.tsv|--keep=$d/k.ids|--drop=$d/dr.ids" \
    -k "$d/k.ids" -d "$d/dr.ids" "$d/a.tsv"
row tells-pmi --output "FILE=$d/a.tsv|FILE=$d/b.tsv|--prior=$d/pr.counts" \
    --measure logodds --prior "$d/pr.counts" "$d/a.tsv" "$d/b.tsv"
row tells-prep --output \
    "--split train=$d/c1.jsonl|--split dev=$d/c2.jsonl|--phrases=$d/ph.txt|--mesh=$d/mesh.txt" \
    --split train "$d/c1.jsonl" --split dev "$d/c2.jsonl" --phrases "$d/ph.txt" \
    --mesh "$d/mesh.txt"
row tells-embed --output "FILE=$d/a.tsv|--vectors=$d/v.vec" -v "$d/v.vec" "$d/a.tsv"
row tells-embed '--output --train-vectors' "FILE=$d/a.tsv" \
    --train-vectors "$tmp/new/v.bin" "$d/a.tsv"
row tells-heur '--pairs --output' \
    "FILE=$d/a.tsv|--mesh=$d/mesh.txt|--terms=$d/terms.tsv|the built-in heuristics=$data/lexicons/heuristics.heur|--synonyms=$d/syn.txt|--heuristics=$d/h.heur" \
    --mesh "$d/mesh.txt" --terms "$d/terms.tsv" --synonyms "$d/syn.txt" -H "$d/h.heur" \
    "$d/a.tsv"
row tells-heur --output \
    "FILE=$d/a.tsv|the MeSH tree file=$data/mesh/mtrees2024.txt|the MeSH entry-term file=$data/mesh/desc2024-terms.tsv|the built-in heuristics=$data/lexicons/heuristics-2024.heur" \
    "$d/a.tsv"
row tells-baseline '--save-model --predictions --output' \
    "FILE=$d/a.tsv|--partition=$d/e.ids" --partition "e=$d/e.ids" "$d/a.tsv"
row tells-aflite '--easy --difficult --scores --write-splits --output' \
    "FILE=$d/a.tsv|--embeddings=$d/x.npy|--splits=$d/s.txt" \
    -e "$d/x.npy" --splits "$d/s.txt" -m 2 "$d/a.tsv"
row tells-aflite --output "FILE=$d/a.tsv|--vectors=$d/v.vec" -v "$d/v.vec" -m 2 "$d/a.tsv"
row tells-carto '--output --easy --ambiguous --hard' \
    "EPOCH-FILE=$d/e0.tsv|EPOCH-FILE=$d/e1.tsv" "$d/e0.tsv" "$d/e1.tsv"
row tells-carto --output "--train=$d/a.tsv|--embeddings=$d/x.npy" \
    --train "$d/a.tsv" --embeddings "$d/x.npy"
row tells-carto --output "--train=$d/a.tsv|--vectors=$d/v.vec" \
    --train "$d/a.tsv" --vectors "$d/v.vec"
row tells-pvi '--output --summary --tokens --low --high' "FILE=$d/a.tsv" "$d/a.tsv"
row tells-concepts --output \
    "FILE=$d/a.tsv|--mesh=$d/mesh.txt|--terms=$d/terms.tsv|--synonyms=$d/syn.txt" \
    --mesh "$d/mesh.txt" --terms "$d/terms.tsv" --synonyms "$d/syn.txt" "$d/a.tsv"
row tells-stat --output "FILE=$d/a.tsv|FILE=$d/b.tsv|--labels=$d/l.txt" \
    metrics --labels "@$d/l.txt" "$d/a.tsv" "$d/b.tsv"
row tells-stat --output "FILE=$d/a.tsv|--groups=$d/g.tsv" contrast --groups "$d/g.tsv" "$d/a.tsv"
row tells-stat --output "FILE=$d/r1.tsv|FILE=$d/r2.tsv" \
    normalized-failure "m=$d/r1.tsv" "$d/r2.tsv"
row tells-run '--output --eval-output --failures --emit-cases' \
    "--templates=$d/t.csv|--bases=$d/bases.csv|--fill=$d/f.txt|--pairs=$d/pp.tsv|--eval=$d/ev.tsv|--partition=$d/e.ids|--model=$d/m.bin" \
    --templates "$d/t.csv" --bases "$d/bases.csv" --fill "x=$d/f.txt" --pairs "a,b=$d/pp.tsv" \
    -m "$d/m.bin" --eval "$d/ev.tsv" --partition "e=$d/e.ids" --eval-output "$tmp/new/eo.tsv"
row tells-run --output \
    "--tree=$d/tree.csv|--predictions=$d/pred.txt|--before-predictions=$d/bpred.txt" \
    --tree "$d/tree.csv" --predictions "$d/pred.txt" --before-predictions "$d/bpred.txt"
row tells-run --output "--tree=$d/tree.csv|--model=$d/m.bin|--before-model=$d/bm.bin" \
    --tree "$d/tree.csv" -m "$d/m.bin" --before-model "$d/bm.bin"
row tells-audit '--save-model --flags --output' \
    "--reference=$d/ref.tsv|BATCH=$d/a.tsv|BATCH=$d/b.tsv|--mesh=$d/mesh.txt|--terms=$d/terms.tsv|the built-in heuristics=$data/lexicons/heuristics.heur|--heuristics=$d/h.heur" \
    --reference "$d/ref.tsv" -m "$d/mesh.txt" --terms "$d/terms.tsv" -H "$d/h.heur" \
    "$d/a.tsv" "$d/b.tsv"
row tells-audit '--flags --output' "--reference=$d/ref.tsv|BATCH=$d/a.tsv|--model=$d/m.bin|--model=$d/m.bin.ref" \
    --reference "$d/ref.tsv" --no-heuristics --model "$d/m.bin" "$d/a.tsv"
row tells-study --output \
    "--split train=$d/c1.jsonl|--split test=$d/c2.jsonl|--phrases=$d/ph.txt|--mesh=$d/mesh.txt|--batch=$d/b.tsv|--vectors=$d/v.vec|--heuristics=$d/h.heur" \
    --split train "$d/c1.jsonl" --split test "$d/c2.jsonl" --phrases "$d/ph.txt" \
    --mesh "$d/mesh.txt" --batch "$d/b.tsv" --vectors "$d/v.vec" -H "$d/h.heur"
what="tells-study --output onto PREPARED.tsv"
run tells-study --output "$d/a.tsv" "$d/a.tsv"
expect 2 "tells-study: --output names an input (PREPARED.tsv): $d/a.tsv
Try 'tells-study --help' for more information."
unchanged

# Without a corpus, the bundled ones: their folder is no output folder.
for f in snli/snli_1.0_dev.jsonl ade-templates/templates_all.csv ade-posts/train.jsonl; do
    mkdir -p "$data/${f%/*}"
    printf 'not data\n' >"$data/$f"
done
before=$(snapshot)
what="tells-study onto the bundled corpora"
run tells-study -q -o "$data/ade-templates"
expect 2 "tells-study: --output names a folder holding an input (the bundled corpora): $data/ade-templates/templates_all.csv
Try 'tells-study --help' for more information."
run tells-study -q -o "$data/"
expect 2 "tells-study: --output names a folder holding an input (the MeSH tree file): $data/mesh/mtrees2024.txt
Try 'tells-study --help' for more information."
unchanged

# The files beside an output: an id file's checksum, a model's .ref.
what="an output onto another's checksum"
run tells-pvi --low "$tmp/new/x" --high "$tmp/new/x.sha256" "$d/a.tsv"
expect 2 "tells-pvi: the checksum of --low and --high name the same file: $tmp/new/x.sha256
Try 'tells-pvi --help' for more information."
what="--save-model's .ref onto an input"
run tells-audit --reference "$d/ref.tsv" --no-heuristics --save-model "$d/m.bin" \
    "$d/m.bin.ref"
expect 2 "tells-audit: --save-model names an input (BATCH): $d/m.bin.ref
Try 'tells-audit --help' for more information."
unchanged
for dev in - /dev/null /dev/stdout; do
    what="an id file onto $dev"
    run tells-carto --hard "$dev" "$d/e0.tsv"
    expect 2 "tells-carto: --hard needs a file (it writes a checksum file beside it)
Try 'tells-carto --help' for more information."
done
before=$(snapshot)

# One file by other names: a symbolic link, "..", a hard link, a link to
# a file not there yet.
ln -s in/a.tsv "$tmp/link.tsv"
ln "$d/b.tsv" "$tmp/hard.tsv"
for out in "$tmp/link.tsv" "$tmp/new/../in/a.tsv" "$d/./a.tsv"; do
    what="tells-len -o $out"
    run tells-len -o "$out" "$d/a.tsv"
    expect 2 "tells-len: --output names an input (FILE): $d/a.tsv
Try 'tells-len --help' for more information."
done
what="a hard link"
run tells-len -o "$tmp/hard.tsv" "$d/b.tsv"
expect 2 "tells-len: --output names an input (FILE): $d/b.tsv
Try 'tells-len --help' for more information."
what="two links to one new file"
ln -s new/later "$tmp/l1"
ln -s new/later "$tmp/l2"
run tells-pvi --summary "$tmp/l1" --tokens "$tmp/l2" "$d/a.tsv"
expect 2 "tells-pvi: --summary and --tokens name the same file: $tmp/l2
Try 'tells-pvi --help' for more information."
rm "$tmp/l1" "$tmp/l2"
unchanged
what="standard output onto the input"
tells-len "$d/a.tsv" >>"$d/a.tsv" 2>"$tmp/err" && fail "$what: exit 0"
printf '%s\n' "tells-len: standard output names an input (FILE): $d/a.tsv" \
    "Try 'tells-len --help' for more information." | cmp -s - "$tmp/err" ||
    fail "$what: $(cat "$tmp/err")"
what="-o onto standard input"
tells-len -o "$d/a.tsv" <"$d/a.tsv" >/dev/null 2>"$tmp/err" && fail "$what: exit 0"
printf '%s\n' "tells-len: --output names an input (standard input): $d/a.tsv" \
    "Try 'tells-len --help' for more information." | cmp -s - "$tmp/err" ||
    fail "$what: $(cat "$tmp/err")"
unchanged
what="an input that is not there"
run tells-len -o "$tmp/new/nothere" "$tmp/new/nothere"
expect 1 "tells-len: $tmp/new/nothere: cannot open: No such file or directory"
unchanged
what="devices keep their behaviour"
printf 'id\tsplit\tlabel\tpremise\thypothesis\n1\ta\tx\tp\th\n' >"$tmp/ok.tsv"
run tells-len -o /dev/null "$tmp/ok.tsv"
expect 0 ""
run tells-split -s a -o /dev/stdout --missing /dev/null "$tmp/ok.tsv"
expect 0 ""

# A file named inside another input (a heuristic's list file) is not
# known before that input is read: the atomic output refuses it then.
TELLS_DATA=$corpora
export TELLS_DATA
mkdir "$tmp/h"
cp "$top_srcdir/tests/data/heur-marker.heur" "$top_srcdir/tests/data/heur-marker.txt" "$tmp/h/"
cp "$tmp/h/heur-marker.txt" "$tmp/h/list.orig"
what="an output onto a heuristic's list file"
run tells-heur --no-builtin -H "$tmp/h/heur-marker.heur" -o "$tmp/h/heur-marker.txt" \
    "$tmp/ok.tsv"
expect 2 "tells-heur: $tmp/h/heur-marker.txt: is an input of this run: not replaced
Try 'tells-heur --help' for more information."
cmp -s "$tmp/h/heur-marker.txt" "$tmp/h/list.orig" || fail "$what: the list changed"
what="standard output appended to a heuristic's list file"
tells-heur --no-builtin -H "$tmp/h/heur-marker.heur" "$tmp/ok.tsv" >>"$tmp/h/heur-marker.txt" \
    2>"$tmp/err" && fail "$what: exit 0"
printf '%s\n' "tells-heur: stdout: is an input of this run: not written" \
    "Try 'tells-heur --help' for more information." | cmp -s - "$tmp/err" ||
    fail "$what: $(cat "$tmp/err")"
cmp -s "$tmp/h/heur-marker.txt" "$tmp/h/list.orig" || fail "$what: the list changed"
ls -A "$tmp/h" | grep -q '^\.' && fail "$what: a temporary file was left"
finish
