#!/bin/sh
# A study folder says how it was made and keeps only what it found:
# run.json (command, folder, version, seed, threads, inputs with size and
# SHA-256, times, steps, libraries), the same in the report's footer; the
# recorded command run again gives the same summary.tsv, byte for byte.
# No trained vectors and no second copy of the corpus unless asked for
# (--keep-vectors, .vec or .bin).
. "${top_srcdir:-.}/tests/init.sh"

tells-synth --seed 5 --premises 200 -o "$tmp/c" >/dev/null
cd "$tmp" || fail "cd $tmp"
what="a study's run.json"
run tells-study -q -o s1 --seed 7 --no-figures --split train c/train.jsonl --split test c/test.jsonl
expect 0 ""
[ -s s1/run.json ] || fail "$what: no run.json"
python3 - "$tmp" <<'PY' || fail "$what: contents"
import hashlib, json, os, sys
tmp = sys.argv[1]
r = json.load(open(os.path.join(tmp, "s1/run.json")))
want = "tells-study -q -o s1 --seed 7 --no-figures --split train c/train.jsonl --split test c/test.jsonl"
assert r["command"] == want, r["command"]
assert os.path.realpath(r["cwd"]) == os.path.realpath(tmp), r["cwd"]
# --threads by default: the processors online, at most 8.
want_threads = min(max(os.cpu_count() or 1, 1), 8)
assert r["seed"] == 7 and r["threads"] == want_threads, (r["seed"], r["threads"])
assert r["tells"] and r["started"] <= r["ended"] and r["seconds"] >= 0
for name in ("train", "test"):
    i = [x for x in r["inputs"] if x["option"] == "split " + name][0]
    data = open(os.path.join(tmp, "c", name + ".jsonl"), "rb").read()
    assert i["path"] == "c/%s.jsonl" % name and i["bytes"] == len(data), i
    assert i["sha256"] == hashlib.sha256(data).hexdigest(), i
steps = [s["step"] for s in r["steps"]]
assert steps[0] == "prepare" and steps[-1] == "report" and "vectors" in steps, steps
assert all(s["seconds"] >= 0 for s in r["steps"])
libs = r["libraries"]
assert libs["fasttext"] and libs["openblas"] and libs["gsl"], libs
assert libs["gnuplot"] is None, libs   # --no-figures: gnuplot never ran
# The vectors: epochs sized to this small corpus (20), every word trained
# (the hypotheses' words are about half of the tokens: auto).
v = r["vectors"]
assert v["epochs"] == 20 and v["centres"] == "all", v
assert 0.25 <= v["hypothesis_token_share"] < 1, v
PY
grep -q '<h2 id="provenance">How this study was made</h2>' s1/report.html ||
    fail "$what: no provenance in the report's footer"
grep -q "<code>tells-study -q -o s1 --seed 7 --no-figures --split train c/train.jsonl" s1/report.html ||
    fail "$what: the footer does not give the command"
grep -q "$(sha256sum c/train.jsonl | cut -c 1-64)" s1/report.html ||
    fail "$what: the footer does not give the inputs' checksums"

what="the folder keeps only what the study found"
for f in vectors.bin vectors.vec all.tsv hypothesis.bin; do
    [ -e "s1/$f" ] && fail "$what: $f kept"
done
[ -s s1/prepared.tsv ] && [ -s s1/hypothesis.npy ] || fail "$what: prepared.tsv or hypothesis.npy missing"

what="the recorded command, run again"
cp s1/summary.tsv first.tsv
cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["command"])' s1/run.json)
run sh -c "$cmd"
expect 0 ""
cmp -s first.tsv s1/summary.tsv || { fail "$what: summary.tsv differs"; diff first.tsv s1/summary.tsv >&2; }

# The models trained side by side are the models trained in turn: every
# table the same bytes with 1 thread and with 3, on a cross-validated
# corpus (the folds and the tuning in parallel) too.
what="--threads 1 and --threads 3"
for t in 1 3; do
    run tells-study -q -o t$t --seed 7 --no-figures --threads $t --split train c/train.jsonl \
        --split test c/test.jsonl
    expect 0 ""
    run tells-study -q -o cv$t --seed 7 --no-figures --threads $t --split all c/train.jsonl
    expect 0 ""
done
# With 3 threads the vectors train beside the steps before them.
run tells-study --progress -o t3b --seed 7 --no-figures --threads 3 --split train c/train.jsonl \
    --split test c/test.jsonl
[ "$status" = 0 ] || fail "$what: exit status $status: $(tail -n 3 "$tmp/err")"
grep -qx 'tells-study: vectors: started beside the steps before it' "$tmp/err" ||
    fail "$what: the vectors did not start beside the other steps: $(head -n 5 "$tmp/err")"
cmp -s t3b/summary.tsv t1/summary.tsv || fail "$what: summary.tsv differs with the vectors beside"
for d in t cv; do
    for f in "$d"1/*.tsv "$d"1/*.ids; do
        cmp -s "$f" "$d"3/"${f#*/}" || fail "$what: ${f#*/} differs ($d)"
    done
done

what="--keep-vectors"
run tells-study -q -o s2 --seed 7 --no-figures --keep-vectors --split train c/train.jsonl --split test c/test.jsonl
expect 0 ""
[ -e s2/vectors.bin ] && fail "$what: vectors.bin kept"
head -n 1 s2/vectors.vec | grep -Eq '^[0-9]+ 100$' || fail "$what: vectors.vec header: $(head -n 1 s2/vectors.vec)"
n=$(head -n 1 s2/vectors.vec | cut -d ' ' -f 1)
[ "$(tail -n +2 s2/vectors.vec | wc -l)" -eq "$n" ] || fail "$what: vectors.vec does not have $n words"
tail -n +2 s2/vectors.vec | awk 'NF != 101 { bad = 1 } END { exit bad }' || fail "$what: a row without 100 numbers"
# The vectors and what is made of them do not depend on keeping them.
cmp -s s1/hypothesis.npy s2/hypothesis.npy || fail "$what: hypothesis.npy changed"
# The .vec reads back as --vectors: its words' vectors, the same averages
# wherever every hypothesis word has one.
run tells-embed -q -v s2/vectors.vec -o vec.npy s1/prepared.tsv
expect 0 ""
run tells-study -q -o s3 --no-figures --keep-vectors=bin --split train c/train.jsonl --split test c/test.jsonl
expect 0 ""
[ -s s3/vectors.bin ] && [ ! -e s3/vectors.vec ] || fail "--keep-vectors=bin: no vectors.bin, or a .vec"
# The model's epochs (fastText's .bin: magic, version, dim, ws, epoch as
# 32-bit integers): sized to this small corpus (20), or --vector-epochs.
what="--vector-epochs"
[ "$(od -An -t d4 -j 16 -N 4 s3/vectors.bin | tr -d ' ')" = 20 ] ||
    fail "$what: the default epochs are not 20: $(od -An -t d4 -j 16 -N 4 s3/vectors.bin)"
run tells-study -q -o s5 --no-figures --vector-epochs 2 --keep-vectors=bin --split train c/train.jsonl --split test c/test.jsonl
expect 0 ""
[ "$(od -An -t d4 -j 16 -N 4 s5/vectors.bin | tr -d ' ')" = 2 ] ||
    fail "$what 2: the model's epochs are $(od -An -t d4 -j 16 -N 4 s5/vectors.bin)"
cmp -s s3/hypothesis.npy s5/hypothesis.npy && fail "$what 2: the same vectors as 20 epochs"
run tells-study -q -o s4 --vector-epochs 0 c/train.jsonl
expect 2 "tells-study: invalid value '0' for --vector-epochs (expected an integer from 1 to 10000)
Try 'tells-study --help' for more information."
run tells-study -q -o s4 --vector-epochs 3 --vectors s3/vectors.bin c/train.jsonl
expect 2 "tells-study: --vector-epochs sets the epochs of vectors the study trains; with --vectors it trains none
Try 'tells-study --help' for more information."
what="--keep-vectors with --vectors"
run tells-study -q -o s4 --keep-vectors --vectors s3/vectors.bin c/train.jsonl
expect 2 "tells-study: --keep-vectors keeps vectors the study trains; with --vectors it trains none
Try 'tells-study --help' for more information."
# --vector-centres: the words trained as skipgram centres, and so the
# words of vectors.vec. Here the hypotheses' words are about half of the
# text's tokens, so auto trains every word (fastText's own training): the
# same vectors as all, and premises' words in vectors.vec; hypothesis
# trains their words only: other vectors, and no other word kept.
what="--vector-centres"
tail -n +2 s1/prepared.tsv | cut -f 5 | tr ' ' '\n' | LC_ALL=C sort -u >hyp-words
tail -n +2 s2/vectors.vec | cut -d ' ' -f 1 | LC_ALL=C sort -u | LC_ALL=C comm -23 - hyp-words |
    grep -q . || fail "$what auto: vectors.vec has no word of the premises alone"
run tells-study -q -o s6 --seed 7 --no-figures --vector-centres all --split train c/train.jsonl --split test c/test.jsonl
expect 0 ""
cmp -s s2/hypothesis.npy s6/hypothesis.npy || fail "$what all: not the vectors auto trained here"
run tells-study -q -o s7 --seed 7 --no-figures --keep-vectors --vector-centres hypothesis --split train c/train.jsonl --split test c/test.jsonl
expect 0 ""
cmp -s s2/hypothesis.npy s7/hypothesis.npy && fail "$what hypothesis: the same vectors as every word's"
m=$(head -n 1 s7/vectors.vec | cut -d ' ' -f 1)
[ "$m" -gt 0 ] && [ "$m" -lt "$n" ] || fail "$what hypothesis: $m words in vectors.vec, against $n"
tail -n +2 s7/vectors.vec | cut -d ' ' -f 1 | LC_ALL=C sort -u | LC_ALL=C comm -23 - hyp-words |
    grep -q . && fail "$what hypothesis: vectors.vec has words of no hypothesis"
# Premises made long with words of their own (each word again with the
# copy's number, as bench/study's long corpus): the hypotheses' words are
# now under a quarter of the tokens, and auto trains them alone.
mkdir long
python3 - c/train.jsonl >long/train.jsonl <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    w = r["sentence1"].split()
    r["sentence1"] = " ".join(w + ["%s%d" % (x, k) for k in range(1, 8) for x in w])
    print(json.dumps(r))
PY
run tells-study -q -o s8 --seed 7 --no-figures --keep-vectors --split train long/train.jsonl
expect 0 ""
python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["vectors"]
assert v["centres"] == "hypothesis" and v["hypothesis_token_share"] < 0.25, v' s8/run.json ||
    fail "$what auto, long premises: run.json does not say the hypotheses' words were trained"
grep -q "Word vectors: skipgram, [0-9]* epochs; only the hypotheses' words trained, [0-9.]*% of the text's tokens\." s8/report.html ||
    fail "$what auto, long premises: the report's footer does not say how the vectors were trained"
tail -n +2 s8/prepared.tsv | cut -f 5 | tr ' ' '\n' | LC_ALL=C sort -u >long-words
tail -n +2 s8/vectors.vec | cut -d ' ' -f 1 | LC_ALL=C sort -u | LC_ALL=C comm -23 - long-words |
    grep -q . && fail "$what auto, long premises: vectors.vec has words of no hypothesis"
[ "$(head -n 1 s8/vectors.vec | cut -d ' ' -f 1)" -gt 0 ] ||
    fail "$what auto, long premises: vectors.vec has no words"
run tells-study -q -o s6 --vector-centres hypothesis --vectors s3/vectors.bin c/train.jsonl
expect 2 "tells-study: --vector-centres sets how the study trains its vectors; with --vectors it trains none
Try 'tells-study --help' for more information."
run tells-study -q -o s6 --folds-only --vector-centres all --split train c/train.jsonl
expect 2 "tells-study: --folds-only runs no model and audits no batch
Try 'tells-study --help' for more information."
run tells-study -q -o s6 --vector-centres some --split train c/train.jsonl
expect 2 "tells-study: invalid value 'some' for --vector-centres (expected auto, hypothesis or all)
Try 'tells-study --help' for more information."
what="--keep-vectors=txt"
run tells-study -q -o s4 --keep-vectors=txt --split train c/train.jsonl
expect 2 "tells-study: invalid value 'txt' for --keep-vectors (expected vec or bin)
Try 'tells-study --help' for more information."
finish
