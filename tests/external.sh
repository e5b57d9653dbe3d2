#!/bin/sh
# A model trained outside tells, in the study: --folds-only writes the
# folds and splits; doc/examples/crossfit trains doc/examples/word-model
# (naive Bayes, in awk) on exactly those and writes its predictions;
# tells-study --hypothesis-predictions scores them. hypothesis_only reports
# that model's accuracy, computed here on its own; PVI equals a computation
# here from the same probabilities; a constant model is flagged; AFLite
# and cartography run on a given .npy (in any order, with its ids), and
# cartography on a given training run's dynamics as tells-carto reads it; bad
# prediction files and matrices get one clear error.
. "${top_srcdir:-.}/tests/init.sh"

examples=$top_srcdir/doc/examples
tells-synth --seed 5 --premises 150 -o "$tmp/mli" >/dev/null
col() {   # col FILE CHECK FIELD: a field of summary.tsv's row CHECK
    awk -F'\t' -v c="$2" -v f="$3" '$1 == c { print $f }' "$1/summary.tsv"
}
# accuracy PREDICTIONS PREPARED: the share of rows whose predicted label
# is the gold one, as summary.tsv prints it.
accuracy() {
    awk -F'\t' 'NR == FNR { if (FNR > 1) gold[$1] = $3; next }
        FNR > 1 { n++; right += $2 == gold[$1] } END { printf "%.6f\n", right / n }' "$2" "$1"
}

# expect_accuracy STUDY CHECK PREDICTIONS PREPARED: the row CHECK's value
# is the accuracy of PREDICTIONS, computed here.
expect_accuracy() {
    want=$(accuracy "$3" "$4")
    [ "$(col "$1" "$2" 2)" = "$want" ] ||
        fail "$what: $2 $(col "$1" "$2" 2), the accuracy of ${3##*/} $want"
}

what="--folds-only"
run tells-study --folds-only -o "$tmp/folds" --split train "$tmp/mli/train.jsonl" \
    --split test "$tmp/mli/test.jsonl"
expect 0 ""
expect_out_text "tells-study: $tmp/folds/folds.tsv, $tmp/folds/prepared.tsv"
[ "$(cd "$tmp/folds" && ls)" = "folds.tsv
prepared.tsv
run.json" ] || fail "$what: the folder holds $(ls "$tmp/folds")"
[ "$(head -n 1 "$tmp/folds/folds.tsv")" = "id	split	role	fold" ] || fail "$what: header"
# Every row once, in the prepared order; role train for train, eval for
# test; folds 1 to 5, the hypotheses of a premise in one.
[ "$(cut -f1,2 "$tmp/folds/folds.tsv")" = "$(cut -f1,2 "$tmp/folds/prepared.tsv" |
    sed '1s/.*/id	split/')" ] || fail "$what: ids or splits differ from prepared.tsv"
[ "$(awk -F'\t' 'NR > 1 && !($2 == "train" && $3 == "train" || $2 == "test" && $3 == "eval")' \
    "$tmp/folds/folds.tsv" | wc -l)" -eq 0 ] || fail "$what: a role is wrong"
[ "$(tail -n +2 "$tmp/folds/folds.tsv" | cut -f4 | sort -u | tr '\n' ' ')" = "1 2 3 4 5 " ] ||
    fail "$what: folds $(tail -n +2 "$tmp/folds/folds.tsv" | cut -f4 | sort -u | tr '\n' ' ')"
paste "$tmp/folds/prepared.tsv" "$tmp/folds/folds.tsv" |
    awk -F'\t' 'NR > 1 { if (($4 in f) && f[$4] != $9) bad++; f[$4] = $9 } END { exit bad > 0 }' ||
    fail "$what: a premise's hypotheses in different folds"

what="the recipe: crossfit with word-model"
run "$examples/crossfit" "$tmp/folds" "$tmp/pred" "$examples/word-model"
expect 0 ""
[ "$(tail -n +2 "$tmp/pred/cv-predictions.tsv" | wc -l)" -eq 405 ] &&
    [ "$(tail -n +2 "$tmp/pred/eval-predictions.tsv" | wc -l)" -eq 45 ] ||
    fail "$what: $(wc -l "$tmp/pred/"*)"

what="crossfit: folds whose columns differ"
# A model whose label columns come out in another order after its first
# prediction: the files would join under fold 1's header with the
# probabilities under the wrong labels.
cat >"$tmp/flip-model" <<'EOF2'
#!/bin/sh
case $1 in
train) : >"$3" ;;
predict)
    n=$(cat "$FLIP_COUNT" 2>/dev/null || echo 0)
    echo $((n + 1)) >"$FLIP_COUNT"
    if [ "$n" -eq 0 ]; then
        printf 'id\tpredicted\tp_contradiction\tp_entailment\tp_neutral\n'
    else
        printf 'id\tpredicted\tp_neutral\tp_entailment\tp_contradiction\n'
    fi
    tail -n +2 "$3" | awk -F'\t' -v OFS='\t' '{ print $1, "entailment", 0.1, 0.6, 0.3 }' ;;
esac
EOF2
chmod +x "$tmp/flip-model"
run env FLIP_COUNT="$tmp/flip-count" "$examples/crossfit" "$tmp/folds" "$tmp/flip" "$tmp/flip-model"
expect 1 "crossfit: fold 2's predictions have other columns than fold 1's: id	predicted	p_neutral	p_entailment	p_contradiction"
[ -e "$tmp/flip/cv-predictions.tsv" ] && fail "$what: predictions written"

# The same model over premise and hypothesis, the premise-aware one.
run "$examples/crossfit" "$tmp/folds" "$tmp/pair" "$examples/word-model" -p
expect 0 ""

what="a study of the given predictions, train and test"
run tells-study -q -o "$tmp/given" --hypothesis-predictions "$tmp/pred/cv-predictions.tsv" \
    --hypothesis-eval-predictions "$tmp/pred/eval-predictions.tsv" --model-name 'NB<b>' \
    --pair-predictions "$tmp/pair/eval-predictions.tsv" "$tmp/folds/prepared.tsv"
expect 0 ""
expect_accuracy "$tmp/given" hypothesis_only "$tmp/pred/eval-predictions.tsv" "$tmp/folds/prepared.tsv"
expect_accuracy "$tmp/given" premise_and_hypothesis "$tmp/pair/eval-predictions.tsv" "$tmp/folds/prepared.tsv"
# Its 2x2 table, counted here.
awk -F'\t' 'FILENAME ~ /prepared/ { if (FNR > 1) g[$1] = $3; next }
    FILENAME ~ /pair/ { if (FNR > 1) p[$1] = ($2 == g[$1]); next }
    FNR > 1 { h = ($2 == g[$1]); both += p[$1] && h; op += p[$1] && !h; oh += h && !p[$1]; ne += !p[$1] && !h }
    END { printf "both_right=%d only_pair_right=%d only_hypothesis_right=%d neither_right=%d\n", both, op, oh, ne }' \
    "$tmp/folds/prepared.tsv" "$tmp/pair/eval-predictions.tsv" "$tmp/pred/eval-predictions.tsv" >"$tmp/table"
col "$tmp/given" premise_and_hypothesis 10 | grep -q "model=given:NB<b> n=45 $(cat "$tmp/table") " ||
    fail "$what: premise_and_hypothesis's detail $(col "$tmp/given" premise_and_hypothesis 10), counted $(cat "$tmp/table")"
grep -q 'NB&lt;b&gt;, premise-aware (predictions given)' "$tmp/given/report.html" ||
    fail "$what: the page does not name the premise-aware model"
col "$tmp/given" hypothesis_only 10 | grep -q ' n=45 .* evaluation=test model=given:NB<b> mde=' ||
    fail "$what: detail $(col "$tmp/given" hypothesis_only 10)"
col "$tmp/given" v_information 10 | grep -q ' null=training_folds_label_shares model=given:NB<b> ' ||
    fail "$what: v_information's detail does not name the model"
grep -q '^model_warning:' "$tmp/given/summary.tsv" && fail "$what: a sound model flagged"
# PVI from the same probabilities, computed here: the gold label's
# probability against its share in the example's training folds.
awk -F'\t' '
    FILENAME ~ /folds.tsv$/ { if (FNR > 1) fold[$1] = $4; next }
    FILENAME ~ /prepared.tsv$/ { if (FNR > 1) { gold[$1] = $3; n[$3]++; nf[fold[$1], $3]++; size[fold[$1]]++; total++ } next }
    FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { y = gold[$1]; k = fold[$1]
      pnull = (n[y] - nf[k, y]) / (total - size[k])
      printf "%s\t%.6f\n", $1, -log(pnull) / log(2) + log($col["p_" y]) / log(2) }' \
    "$tmp/folds/folds.tsv" "$tmp/folds/prepared.tsv" "$tmp/pred/cv-predictions.tsv" |
    sort >"$tmp/pvi-here"
tail -n +2 "$tmp/given/pvi.tsv" | cut -f1,3 | sort >"$tmp/pvi-study"
awk -F'\t' 'NR == FNR { v[$1] = $2; next } { d = v[$1] - $2; if (d < 0) d = -d; if (d > 2e-6 || !($1 in v)) bad++ }
    END { exit bad > 0 || NR != 810 }' "$tmp/pvi-here" "$tmp/pvi-study" ||
    fail "$what: pvi.tsv differs from PVI computed here"
# PVI's folds are folds.tsv's.
[ "$(tail -n +2 "$tmp/given/pvi.tsv" | cut -f1,7)" = "$(tail -n +2 "$tmp/folds/folds.tsv" | cut -f1,4)" ] ||
    fail "$what: pvi.tsv's folds are not folds.tsv's"
grep -q '^given:NB<b>	hypothesis	cv	full	405	' "$tmp/given/partitions.tsv" ||
    fail "$what: partitions.tsv does not score the given model"
grep -q 'NB&lt;b&gt;, hypothesis only (predictions given)' "$tmp/given/report.html" ||
    fail "$what: the page does not name the model (escaped)"
grep -q '<b>' "$tmp/given/report.html" && fail "$what: the model's name as HTML"
cmp -s "$tmp/folds/folds.tsv" "$tmp/given/folds.tsv" || fail "$what: folds.tsv differs"
# run.json records each given file with its checksum.
for f in "hypothesis-predictions $tmp/pred/cv-predictions.tsv" \
    "hypothesis-eval-predictions $tmp/pred/eval-predictions.tsv" \
    "pair-predictions $tmp/pair/eval-predictions.tsv"; do
    sum=$(sha256sum "${f#* }" | cut -d' ' -f1)
    tr -d '\n ' <"$tmp/given/run.json" | grep -q "\"option\":\"${f%% *}\",\"path\":\"${f#* }\",\"bytes\":[0-9]*,\"sha256\":\"$sum\"" ||
        fail "$what: run.json does not record ${f%% *}"
done

what="cross-validated: one file of predictions"
tells-prep -q -o "$tmp/p.tsv" --split a "$tmp/mli/train.jsonl" --split b "$tmp/mli/dev.jsonl"
run tells-study -q --folds-only --folds 3 -o "$tmp/cvfolds" "$tmp/p.tsv"
expect 0 ""
[ "$(tail -n +2 "$tmp/cvfolds/folds.tsv" | cut -f3 | sort -u)" = cv ] || fail "$what: roles"
"$examples/crossfit" "$tmp/cvfolds" "$tmp/cvpred" "$examples/word-model"
[ -e "$tmp/cvpred/eval-predictions.tsv" ] && fail "$what: eval predictions without a training split"
"$examples/crossfit" "$tmp/cvfolds" "$tmp/cvpair" "$examples/word-model" -p
# A null model of its own: every label 1/3, whatever the input.
awk -F'\t' -v OFS='\t' 'NR == 1 { print "id", "predicted", "p_contradiction", "p_entailment", "p_neutral"; next }
    { print $1, "contradiction", "0.3333333333", "0.3333333333", "0.3333333334" }' "$tmp/p.tsv" >"$tmp/null.tsv"
run tells-study -q --folds 3 -o "$tmp/cv" --hypothesis-predictions "$tmp/cvpred/cv-predictions.tsv" \
    --pair-predictions "$tmp/cvpair/cv-predictions.tsv" --null-predictions "$tmp/null.tsv" "$tmp/p.tsv"
expect 0 ""
# PVI against that null: log2(p_gold / (1/3)), computed here.
awk -F'\t' 'FILENAME ~ /p.tsv$/ { if (FNR > 1) gold[$1] = $3; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { y = gold[$1]; q = (y == "neutral") ? 0.3333333334 : 0.3333333333
      printf "%s\t%.6f\t%.6f\n", $1, log($c["p_" y] / q) / log(2), q }' \
    "$tmp/p.tsv" "$tmp/cvpred/cv-predictions.tsv" | sort >"$tmp/pvi-null-here"
tail -n +2 "$tmp/cv/pvi.tsv" | cut -f1,3,5 | sort >"$tmp/pvi-null-study"
awk -F'\t' 'NR == FNR { v[$1] = $2; q[$1] = $3; next }
    { d = v[$1] - $2; if (d < 0) d = -d; if (d > 2e-6 || q[$1] != $3) bad++ }
    END { exit bad > 0 || NR != 810 }' "$tmp/pvi-null-here" "$tmp/pvi-null-study" ||
    fail "$what: PVI against the given null differs from PVI computed here"
col "$tmp/cv" v_information 10 | grep -q ' null=given' ||
    fail "$what: v_information's detail does not say the null was given"
grep -q "against the null model given ($tmp/null.tsv, a model of empty inputs)" "$tmp/cv/report.html" ||
    fail "$what: the PVI section does not say the null was given"
expect_accuracy "$tmp/cv" hypothesis_only "$tmp/cvpred/cv-predictions.tsv" "$tmp/p.tsv"
expect_accuracy "$tmp/cv" premise_and_hypothesis "$tmp/cvpair/cv-predictions.tsv" "$tmp/p.tsv"
# The name defaults to the file's; the baselines' folds are folds.tsv's.
col "$tmp/cv" hypothesis_only 10 | grep -q ' evaluation=cross-validation model=given:cv-predictions.tsv ' ||
    fail "$what: detail $(col "$tmp/cv" hypothesis_only 10)"
[ "$(tail -n +2 "$tmp/cv/predictions.tsv" | awk -F'\t' '{ print $1 "\t" $NF }' | sort)" = \
    "$(tail -n +2 "$tmp/cvfolds/folds.tsv" | cut -f1,4 | sort)" ] ||
    fail "$what: predictions.tsv's folds are not folds.tsv's"

what="a constant model is flagged"
for f in cv eval; do
    awk -F'\t' -v OFS='\t' 'NR == 1 { print "id", "predicted", "p_contradiction", "p_entailment", "p_neutral"; next }
        { print $1, "entailment", 0.2, 0.6, 0.2 }' "$tmp/pred/$f-predictions.tsv" >"$tmp/const-$f.tsv"
done
run tells-study -q -o "$tmp/const" --hypothesis-predictions "$tmp/const-cv.tsv" \
    --hypothesis-eval-predictions "$tmp/const-eval.tsv" --pair-predictions "$tmp/const-eval.tsv" \
    "$tmp/folds/prepared.tsv"
expect 0 ""
grep -q '^model_warning:premise_aware	1.000000	' "$tmp/const/summary.tsv" ||
    fail "$what: no model_warning:premise_aware row"
col "$tmp/const" premise_and_hypothesis 10 | grep -q 'warning=model_warning:hypothesis warning=model_warning:premise_aware' ||
    fail "$what: premise_and_hypothesis does not point to both warnings"
[ "$(col "$tmp/const" model_warning:hypothesis 2)" = 1.000000 ] ||
    fail "$what: no model_warning:hypothesis row"
col "$tmp/const" model_warning:hypothesis 10 | grep -q 'top_label=entailment top_share=1.000000 top_gold_share=0.333333 prob_sd=0.000000 .* one_class=yes constant=yes ' ||
    fail "$what: detail $(col "$tmp/const" model_warning:hypothesis 10)"
[ "$(col "$tmp/const" hypothesis_only 9)" = no ] || fail "$what: hypothesis_only significant"
col "$tmp/const" hypothesis_only 10 | grep -q 'warning=model_warning:hypothesis' ||
    fail "$what: hypothesis_only does not point to the warning"
col "$tmp/const" v_information 10 | grep -q 'warning=model_warning:hypothesis_cv' ||
    fail "$what: v_information does not point to the warning"
grep -q '^model_warning:hypothesis_cv	' "$tmp/const/summary.tsv" || fail "$what: no hypothesis_cv row"
grep -q 'Its model is degenerate (model_warning:hypothesis)' "$tmp/const/report.html" ||
    fail "$what: the page does not say so beside hypothesis_only"
grep -q 'Warning: the hypothesis-only model const-cv.tsv (predictions given) predicts' "$tmp/const/report.html" ||
    fail "$what: the warning is not in the page's verdicts"
grep -q '<p class="headline warned">No significant hypothesis-only shortcut: .* But the model it rests on is degenerate' \
    "$tmp/const/report.html" || fail "$what: the headline gives the all-clear"
grep -q '<p class="headline found">' "$tmp/given/report.html" || fail "$what: the sound model's headline"

what="--embeddings"
# A .npy of 16 numbers per example (float32, written here as NumPy writes
# it), the label planted in every other row; and the same rows shuffled,
# with their ids.
python3 -c '
import csv, random, struct, sys
def save(path, rows):
    n, d = len(rows), len(rows[0])
    h = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (%d, %d), }" % (n, d)
    h += " " * (64 - (10 + len(h) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
        for r in rows:
            f.write(struct.pack("<%df" % d, *r))
prep = list(csv.DictReader(open(sys.argv[1]), delimiter="\t", quoting=csv.QUOTE_NONE))
labels = sorted({r["label"] for r in prep})
rnd = random.Random(0)
rows = []
for i, r in enumerate(prep):
    x = [rnd.gauss(0, 1) for _ in range(16)]
    if i % 2 == 0:
        x[labels.index(r["label"])] += 3
    rows.append(x)
save(sys.argv[2], rows)
perm = list(range(len(prep)))
rnd.shuffle(perm)
save(sys.argv[3], [rows[j] for j in perm])
open(sys.argv[4], "w").write("".join(prep[j]["id"] + "\n" for j in perm))
save(sys.argv[5], rows[:10])
rows[2][1] = float("nan")
save(sys.argv[6], rows)
' "$tmp/folds/prepared.tsv" "$tmp/emb.npy" "$tmp/emb-perm.npy" "$tmp/emb-perm.ids" \
    "$tmp/emb-short.npy" "$tmp/emb-nan.npy"
run tells-study -q -o "$tmp/emb" --embeddings "$tmp/emb.npy" "$tmp/folds/prepared.tsv"
expect 0 ""
cmp -s "$tmp/emb.npy" "$tmp/emb/hypothesis.npy" || fail "$what: hypothesis.npy is not the given matrix"
grep -q 'AFLite finds [0-9.]*% of the examples easy for a linear model over the hypothesis embeddings given (emb.npy)' \
    "$tmp/emb/report.html" || fail "$what: the aflite sentence does not say what it ran over"
grep -q '^cartography	.*	epochs=' "$tmp/emb/summary.tsv" || fail "$what: no cartography"
# The planted rows are the easy ones, mostly: AFLite read the matrix.
[ "$(awk -F'\t' 'NR == FNR { e[$1] = 1; next } FNR > 1 && e[$1] { n++; planted += (FNR % 2 == 0) }
    END { print (planted > 0.7 * n) }' "$tmp/emb/easy.ids" "$tmp/folds/prepared.tsv")" = 1 ] ||
    fail "$what: the easy examples are not the planted ones"
what="--embeddings in another order, with --embeddings-ids"
run tells-study -q -o "$tmp/emb-perm" --embeddings "$tmp/emb-perm.npy" \
    --embeddings-ids "$tmp/emb-perm.ids" "$tmp/folds/prepared.tsv"
expect 0 ""
for f in summary.tsv hypothesis.npy easy.ids difficult.ids aflite.tsv carto.tsv; do
    cmp -s "$tmp/emb/$f" "$tmp/emb-perm/$f" || fail "$what: $f differs"
done
# Bad matrices and id files.
ebad() {   # ebad WHAT MESSAGE ARGS...
    what=$1 msg=$2
    shift 2
    run tells-study -q -o "$tmp/bad" "$@" "$tmp/folds/prepared.tsv"
    expect 1 "$msg"
    [ -e "$tmp/bad" ] && fail "$what: a folder was written"
}
ebad "an embedding matrix of 10 rows" "tells-study: $tmp/emb-short.npy: 10 rows for the corpus's 405 examples (one row per example)" \
    --embeddings "$tmp/emb-short.npy"
ebad "a NaN embedding" "tells-study: $tmp/emb-nan.npy: row 3, column 2 is not a finite number" \
    --embeddings "$tmp/emb-nan.npy"
sed '$d' "$tmp/emb-perm.ids" >"$tmp/ids-short"
ebad "an id file one short" "tells-study: $tmp/ids-short: 404 ids for the 405 rows of $tmp/emb-perm.npy" \
    --embeddings "$tmp/emb-perm.npy" --embeddings-ids "$tmp/ids-short"
first_id=$(head -n 1 "$tmp/emb-perm.ids")
{ sed '$d' "$tmp/emb-perm.ids"; echo "$first_id"; } >"$tmp/ids-dup"
ebad "an id file with an id twice" "tells-study: $tmp/ids-dup:405: id '$first_id' again (first on line 1)" \
    --embeddings "$tmp/emb-perm.npy" --embeddings-ids "$tmp/ids-dup"
{ sed '$d' "$tmp/emb-perm.ids"; echo; } >"$tmp/ids-blank"
ebad "an id file with a blank line" "tells-study: $tmp/ids-blank:405: an empty line (one id per row)" \
    --embeddings "$tmp/emb-perm.npy" --embeddings-ids "$tmp/ids-blank"
last=$(tail -n 1 "$tmp/emb-perm.ids")
{ sed '$d' "$tmp/emb-perm.ids"; echo stranger; } >"$tmp/ids-other"
ebad "an id file with a stranger" "tells-study: $tmp/ids-other: no row for id '$last' (line $(awk -F'\t' -v id="$last" '$1 == id { print NR }' "$tmp/folds/prepared.tsv") of $tmp/folds/prepared.tsv)" \
    --embeddings "$tmp/emb-perm.npy" --embeddings-ids "$tmp/ids-other"
what="--embeddings-ids alone"
run tells-study -o "$tmp/bad" --embeddings-ids "$tmp/emb-perm.ids" "$tmp/folds/prepared.tsv"
expect 2 "tells-study: --embeddings-ids gives the ids of --embeddings' rows
Try 'tells-study --help' for more information."
what="--embeddings and --vectors"
run tells-study -o "$tmp/bad" --embeddings "$tmp/emb.npy" --vectors "$tmp/emb.npy" "$tmp/folds/prepared.tsv"
expect 2 "tells-study: --embeddings replaces the word vectors: no --vectors or --keep-vectors with it
Try 'tells-study --help' for more information."

what="--dynamics"
# A training run of the train rows, 4 epochs (numbered 2, 3, 9, 10 to
# check the order), as tells-baseline's predictions TSV: every other row
# learnt fast and surely, the rest slowly.
mkdir "$tmp/dyn"
for e in 2 3 9 10; do
    awk -F'\t' -v OFS='\t' -v e="$e" 'NR == 1 { print "id", "gold", "p_contradiction", "p_entailment", "p_neutral"; next }
        $2 == "train" {
            q = (NR % 2) ? 0.5 + e / 25 : 0.2 + ((NR * 7 + e * 13) % 50) / 100
            r = (1 - q) / 2
            printf "%s\t%s", $1, $3
            printf "\t%.4f\t%.4f\t%.4f\n", $3 == "contradiction" ? q : r, $3 == "entailment" ? q : r, $3 == "neutral" ? q : r
        }' "$tmp/folds/prepared.tsv" >"$tmp/dyn/epoch_$e.tsv"
done
run tells-study -q -o "$tmp/dynstudy" --dynamics "$tmp/dyn" "$tmp/folds/prepared.tsv"
expect 0 ""
col "$tmp/dynstudy" cartography 10 | grep -q '^epochs=4 .* n=360 dynamics=given$' ||
    fail "$what: cartography's detail $(col "$tmp/dynstudy" cartography 10)"
# The regions are tells-carto's of the same files, in epoch order.
run tells-carto --easy "$tmp/c-easy" --ambiguous "$tmp/c-amb" --hard "$tmp/c-hard" -o "$tmp/c.tsv" \
    "$tmp/dyn/epoch_2.tsv" "$tmp/dyn/epoch_3.tsv" "$tmp/dyn/epoch_9.tsv" "$tmp/dyn/epoch_10.tsv"
expect 0 ""
cmp -s "$tmp/c.tsv" "$tmp/dynstudy/carto.tsv" && cmp -s "$tmp/c-easy" "$tmp/dynstudy/carto-easy.ids" &&
    cmp -s "$tmp/c-amb" "$tmp/dynstudy/carto-ambiguous.ids" && cmp -s "$tmp/c-hard" "$tmp/dynstudy/carto-hard.ids" ||
    fail "$what: the study's cartography differs from tells-carto's"
grep -q '^carto-easy	121	' "$tmp/dynstudy/compare-partitions.tsv" ||
    fail "$what: compare-partitions.tsv: $(grep carto-easy "$tmp/dynstudy/compare-partitions.tsv")"
grep -q "The training run given ($tmp/dyn, 4 epochs, 360 examples)" "$tmp/dynstudy/report.html" ||
    fail "$what: the page does not name the run"
[ "$(grep -c '"option": "dynamics"' "$tmp/dynstudy/run.json")" = 4 ] ||
    fail "$what: run.json does not record the 4 epoch files"
grep -q "every example of the run (the others are in none) in one" "$tmp/dynstudy/report.html" ||
    fail "$what: the page does not say the regions are of the run's examples"
mkdir "$tmp/dyn-bad"
cp "$tmp/dyn/epoch_2.tsv" "$tmp/dyn-bad/last.tsv"
ebad "an epoch file without a number" "tells-study: $tmp/dyn-bad: 'last.tsv' has no epoch number in its name (one file per epoch, such as dynamics_epoch_3.jsonl)" \
    --dynamics "$tmp/dyn-bad"
mv "$tmp/dyn-bad/last.tsv" "$tmp/dyn-bad/e03.tsv"
cp "$tmp/dyn/epoch_3.tsv" "$tmp/dyn-bad/e3.tsv"
ebad "two epoch files of one number" "tells-study: $tmp/dyn-bad: 'e03.tsv' and 'e3.tsv' have the same epoch number (3)" \
    --dynamics "$tmp/dyn-bad"
rm "$tmp/dyn-bad/"*
ebad "an empty run" "tells-study: $tmp/dyn-bad: no epoch files in the folder" --dynamics "$tmp/dyn-bad"
sed '2s/^[^	]*/stranger/' "$tmp/dyn/epoch_2.tsv" >"$tmp/dyn-bad/epoch_2.tsv"
ebad "a stranger in the run" "tells-study: $tmp/dyn-bad/epoch_2.tsv:2: id 'stranger' is not in the corpus" \
    --dynamics "$tmp/dyn-bad"

what="folds whose majority classes differ"
# 20 a and 20 b in two folds: each fold's majority is the other fold's
# commoner class, so the majority model answers differently by fold, and
# the sentence must not say it always answers one class.
{ printf 'id\tsplit\tlabel\tpremise\thypothesis\n'
  i=1
  while [ $i -le 40 ]; do
      l=a; [ $((i % 2)) = 0 ] && l=b
      printf 'r%d\tall\t%s\tpremise number %d\tword%d thing %s\n' $i $l $i $((i % 7)) $l
      i=$((i + 1))
  done; } >"$tmp/two.tsv"
run tells-study -q --no-figures --folds 2 --seed 1 -o "$tmp/two" "$tmp/two.tsv"
expect 0 ""
col "$tmp/two" hypothesis_only 10 | grep -q ' majority_label=per_fold ' ||
    fail "$what: detail $(col "$tmp/two" hypothesis_only 10)"
grep -q "for answering each fold&#39;s most frequent class (the folds&#39; differ):" "$tmp/two/report.html" ||
    fail "$what: the sentence says one class"

# ---- bad predictions: one clear error, exit 1, no folder ----
P=$tmp/folds/prepared.tsv
cv=$tmp/pred/cv-predictions.tsv
ev=$tmp/pred/eval-predictions.tsv
bad() {   # bad WHAT STATUS MESSAGE CV [EVAL]: the study with these files
    what=$1
    run tells-study -q -o "$tmp/bad" --hypothesis-predictions "$4" \
        ${5:+--hypothesis-eval-predictions "$5"} "$P"
    expect "$2" "$3"
    [ -e "$tmp/bad" ] && fail "$what: a folder was written"
}
first=$(sed -n 2p "$cv" | cut -f1)
sed 2d "$cv" >"$tmp/missing.tsv"
bad "a row missing" 1 "tells-study: $tmp/missing.tsv: no prediction for id '$first' (line $(awk -F'\t' -v id="$first" '$1 == id { print NR }' "$P") of $P)" "$tmp/missing.tsv" "$ev"
{ cat "$cv"; sed -n 2p "$cv" | sed 's/^[^	]*/nowhere-1/'; } >"$tmp/extra.tsv"
bad "an id not in the corpus" 1 "tells-study: $tmp/extra.tsv:407: id 'nowhere-1' is not in the corpus" "$tmp/extra.tsv" "$ev"
{ cat "$cv"; sed -n 2p "$cv"; } >"$tmp/dup.tsv"
bad "an id twice" 1 "tells-study: $tmp/dup.tsv:407: duplicate id '$first' (first on line 2)" "$tmp/dup.tsv" "$ev"
sed '3s/	[a-z]*	/	maybe	/' "$cv" >"$tmp/label.tsv"
bad "an unknown label" 1 "tells-study: $tmp/label.tsv:3: unknown label 'maybe' in column predicted" "$tmp/label.tsv" "$ev"
sed '1s/p_neutral/p_other/' "$cv" >"$tmp/col.tsv"
bad "a p_ column of no label" 1 "tells-study: $tmp/col.tsv:1: column p_other: 'other' is not a label of the corpus" "$tmp/col.tsv" "$ev"
cut -f1-4 "$cv" >"$tmp/nop.tsv"
bad "a label without p_" 1 "tells-study: $tmp/nop.tsv:1: no column p_neutral (a probability for each label of the corpus)" "$tmp/nop.tsv" "$ev"
awk -F'\t' -v OFS='\t' 'NR == 4 { $3 = "nan" } 1' "$cv" >"$tmp/nan.tsv"
bad "NaN" 1 "tells-study: $tmp/nan.tsv:4: invalid probability 'nan' in column p_contradiction (expected a number from 0 to 1)" "$tmp/nan.tsv" "$ev"
awk -F'\t' -v OFS='\t' 'NR == 4 { $3 = 0.9; $4 = 0.9; $5 = 0.9 } 1' "$cv" >"$tmp/sum.tsv"
bad "a sum of 2.7" 1 "tells-study: $tmp/sum.tsv:4: the probabilities sum to 2.7, not 1 (tolerance 0.01)" "$tmp/sum.tsv" "$ev"
awk -F'\t' -v OFS='\t' 'NR == 1 { $6 = "gold" } NR == 2 { $6 = "no-such" } NR > 2 { $6 = "x" } 1' "$cv" >"$tmp/gold.tsv"
g=$(awk -F'\t' -v id="$first" '$1 == id { print $3 }' "$P")
bad "a gold label that differs" 1 "tells-study: $tmp/gold.tsv:2: gold 'no-such' differs from the corpus's '$g' for id '$first'" "$tmp/gold.tsv" "$ev"
awk -F'\t' -v OFS='\t' -v id="$first" -v g="$g" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    $1 == id { for (k in c) if (k ~ /^p_/) $c[k] = (k == "p_" g) ? 0 : 0.5 } 1' "$cv" >"$tmp/zero.tsv"
bad "a gold probability of 0" 1 "tells-study: $tmp/zero.tsv:2: p_$g, the gold label's probability, is 0 for id '$first': PVI takes its logarithm (give probabilities before rounding)" "$tmp/zero.tsv" "$ev"
printf 'id\tpredicted\tp_contradiction\tp_entailment\tp_neutral\n\377\tx\t1\t0\t0\n' >"$tmp/utf.tsv"
bad "invalid UTF-8" 1 "tells-study: $tmp/utf.tsv:2: invalid UTF-8" "$tmp/utf.tsv" "$ev"
: >"$tmp/empty.tsv"
bad "an empty file" 1 "tells-study: $tmp/empty.tsv: no predictions in the file" "$tmp/empty.tsv" "$ev"
# The first row of the corpus that the eval file should not hold.
t=$(sed -n 2p "$P" | cut -f1)
bad "an eval file of the wrong split" 1 "tells-study: $cv:$(awk -F'\t' -v id="$t" '$1 == id { print NR }' "$cv"): id '$t' is in split 'train', not the evaluated split 'test'" "$cv" "$cv"
what="a premise-aware file of the wrong split"
run tells-study -q -o "$tmp/bad" --pair-predictions "$cv" "$P"
expect 1 "tells-study: $cv:$(awk -F'\t' -v id="$t" '$1 == id { print NR }' "$cv"): id '$t' is in split 'train', not the evaluated split 'test'"
bad "no eval file with a training split" 1 "tells-study: $cv: the study trains on 'train' and scores 'test': give that model's predictions of 'test' with --hypothesis-eval-predictions too (folds.tsv's role)" "$cv"
what="an eval file when cross-validated"
run tells-study -q --folds 3 -o "$tmp/bad" --hypothesis-predictions "$tmp/cvpred/cv-predictions.tsv" \
    --hypothesis-eval-predictions "$ev" "$tmp/p.tsv"
expect 1 "tells-study: $ev: the study cross-validates (the corpus has no training split and another): --hypothesis-predictions alone gives its model"

# ---- usage ----
what="--hypothesis-eval-predictions alone"
run tells-study -o "$tmp/bad" --hypothesis-eval-predictions "$ev" "$P"
expect 2 "tells-study: --hypothesis-eval-predictions needs --hypothesis-predictions (every example, cross-fitted)
Try 'tells-study --help' for more information."
what="--model-name alone"
run tells-study -o "$tmp/bad" --model-name x "$P"
expect 2 "tells-study: --model-name names the model of --hypothesis-predictions or --pair-predictions
Try 'tells-study --help' for more information."
what="--model-name with a space"
run tells-study -o "$tmp/bad" --model-name 'my model' --hypothesis-predictions "$cv" "$P"
expect 2 "tells-study: --model-name must be a non-empty name without spaces, tabs or line ends
Try 'tells-study --help' for more information."
what="--folds-only with a batch"
run tells-study -o "$tmp/bad" --folds-only --batch "$P" "$P"
expect 2 "tells-study: --folds-only runs no model and audits no batch
Try 'tells-study --help' for more information."
for opt in --keep-vectors "--vector-epochs 3"; do
    what="--folds-only with $opt"
    # shellcheck disable=SC2086
    run tells-study -o "$tmp/bad" --folds-only $opt "$P"
    expect 2 "tells-study: --folds-only runs no model and audits no batch
Try 'tells-study --help' for more information."
done
what="an output folder holding the predictions"
run tells-study -q -o "$tmp/pred" --hypothesis-predictions "$cv" --hypothesis-eval-predictions "$ev" "$P"
expect 2 "tells-study: --output names a folder holding an input (--hypothesis-predictions): $cv
Try 'tells-study --help' for more information."
[ -s "$cv" ] && [ -s "$ev" ] || fail "$what: the predictions were removed"

exit $((failures > 0))
