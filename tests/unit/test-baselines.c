/* The baseline comparison on a small dataset whose majority-class
   numbers are worked out by hand (as in tests/baseline.sh), its errors
   and their kinds, the predictions file, and the fastText model it keeps. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/baselines.h"
#include "model/baseline.h"
#include "model/pairfeat.h"
#include "check.h"

static const char SMALL[] =
    "id\tsplit\tlabel\tpremise\thypothesis\n"
    "t1\ttrain\ta\tpt1\tx y\n"
    "t2\ttrain\ta\tpt2\tx\n"
    "t3\ttrain\tb\tpt3\ty\n"
    "d1\tdev\ta\tp\tx\n"
    "d2\tdev\tb\tp\ty\n"
    "d3\tdev\tb\tp\ty y\n"
    "d4\tdev\tc\tp\tz\n";

static void load(dataset *d, const char *text)
{
    char path[256];
    tells_error err;
    if (dataset_load(d, check_temp_file(path, sizeof path, text), &err) < 0) {
        fprintf(stderr, "dataset_load: %s\n", err.msg);
        exit(1);
    }
    unlink(path);
}

/* The table (or with predictions the predictions file) of cmp. */
static char *written(comparison *cmp, bool predictions, bool details)
{
    char *buf = NULL;
    size_t size;
    FILE *fp = open_memstream(&buf, &size);
    tells_error err;
    int rc = predictions ? comparison_write_predictions(fp, cmp, &err)
                         : comparison_write_table(fp, cmp, details, &err);
    fclose(fp);
    CHECK(rc == 0);
    return buf;
}

static void check_text(char *got, const char *want)
{
    CHECK_STR(got ? got : "(null)", want);
    free(got);
}

static void majority_config(comparison_config *c)
{
    comparison_config_default(c);
    c->run_fasttext = false;
}

static void test_majority(void)
{
    dataset d;
    load(&d, SMALL);
    comparison_config c;
    majority_config(&c);
    comparison cmp;
    tells_error err;
    CHECK(comparison_run(&cmp, &d, &c, &err) == 0);
    CHECK(cmp.n == 1 && cmp.model == NULL);
    /* All predicted a: accuracy 1/4, F1(a) 0.4, macro over a, b, c. */
    check_text(written(&cmp, false, false),
               "model\tinput\tsplit\tn\tmicro_f1\tmacro_f1\taccuracy\n"
               "majority\thypothesis\tdev\t4\t0.250000\t0.133333\t0.250000\n");
    check_text(written(&cmp, true, false),
               "id\tsplit\tgold\tpredicted\tp_a\tp_b\tp_c\n"
               "d1\tdev\ta\ta\t1.000000\t0.000000\t0.000000\n"
               "d2\tdev\tb\ta\t1.000000\t0.000000\t0.000000\n"
               "d3\tdev\tb\ta\t1.000000\t0.000000\t0.000000\n"
               "d4\tdev\tc\ta\t1.000000\t0.000000\t0.000000\n");
    comparison_free(&cmp);

    /* The same split twice is evaluated twice; a partition adds its rows. */
    char ids[256];
    const char *const eval[] = {"dev", "dev"};
    const comparison_partition part = {"hard", check_temp_file(ids, sizeof ids, "d2\nd4\n")};
    c.eval = eval;
    c.neval = 2;
    c.majority_from_eval = true;
    c.parts = &part;
    c.nparts = 1;
    CHECK(comparison_run(&cmp, &d, &c, &err) == 0);
    CHECK(cmp.n == 2);
    const char *rows =
        "majority\thypothesis\tdev\tfull\t4\t0.500000\t0.222222\t0.500000\t0.000000\t"
        "0.000000\t0.000000\n"
        "majority\thypothesis\tdev\thard\t2\t0.500000\t0.333333\t0.500000\t0.000000\t"
        "0.111111\t0.000000\n";
    char want[1024];
    snprintf(want, sizeof want, "model\tinput\tsplit\tpartition\tn\tmicro_f1\tmacro_f1\t"
             "accuracy\tchange_micro_f1\tchange_macro_f1\tchange_accuracy\n%s%s", rows, rows);
    check_text(written(&cmp, false, false), want);
    comparison_free(&cmp);
    unlink(ids);

    /* Cross-validation: one entry, split "cv", every training row once. */
    majority_config(&c);
    c.folds = 3;
    CHECK(comparison_run(&cmp, &d, &c, &err) == 0);
    CHECK(cmp.n == 1 && strcmp(cmp.entry[0].split, "cv") == 0 && cmp.entry[0].pred.n == 3);
    comparison_free(&cmp);
    dataset_free(&d);
}

static void test_errors(void)
{
    dataset d;
    load(&d, SMALL);
    comparison_config c;
    comparison cmp;
    tells_error err;

    majority_config(&c);
    c.train = "nope";
    CHECK(comparison_run(&cmp, &d, &c, &err) < 0 && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "no split named 'nope' to train on");
    CHECK(cmp.n == 0 && cmp.entry == NULL);

    majority_config(&c);
    const char *const eval[] = {"dev", "tset"};
    c.eval = eval;
    c.neval = 2;
    CHECK(comparison_run(&cmp, &d, &c, &err) < 0 && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "no split named 'tset'");
    /* A list naming nothing is the caller's mistake. */
    c.neval = 0;
    CHECK(comparison_run(&cmp, &d, &c, &err) < 0 && err.kind == TELLS_ERR_USAGE);

    majority_config(&c);
    c.folds = 5;
    CHECK(comparison_run(&cmp, &d, &c, &err) < 0 && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "3 examples cannot make 5 folds");
    CHECK(cmp.n == 0 && cmp.entry == NULL);

    majority_config(&c);
    const comparison_partition part = {"easy", "/nonexistent/easy.ids"};
    c.parts = &part;
    c.nparts = 1;
    CHECK(comparison_run(&cmp, &d, &c, &err) < 0 && err.kind == TELLS_ERR_IO);
    dataset_free(&d);

    /* Nothing to evaluate on: a condition the program may advise on. */
    load(&d, "id\tsplit\tlabel\tpremise\thypothesis\nt1\ttrain\ta\tp\tx\n");
    majority_config(&c);
    CHECK(comparison_run(&cmp, &d, &c, &err) < 0 && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "no split to evaluate on besides 'train'");
    CHECK(err.code == TELLS_E_NO_EVAL_SPLIT);
    CHECK_STR(err.subject, "train");
    dataset_free(&d);
}

static int progress_calls;

static void count_progress(const char *msg, void *user)
{
    CHECK_STR(msg, (const char *)user);
    progress_calls++;
}

/* fastText with a small model: its progress, the model kept after
   cross-validation, and probabilities in the predictions file. */
static void test_fasttext(void)
{
    dataset d;
    load(&d, SMALL);
    comparison_config c;
    comparison_config_default(&c);
    c.run_majority = false;
    c.ft.dim = 10;
    c.ft.bucket = 1000;
    c.progress = count_progress;
    comparison cmp;
    tells_error err;
    /* Three folds of the three rows, said once (the folds may train side
       by side, and the callback is for one thread), and no model on all
       three is trained when none is kept. */
    c.folds = 3;
    c.jobs = 2;
    c.progress_user = "training fastText in 3 folds of 3 examples";
    CHECK(comparison_run(&cmp, &d, &c, &err) == 0);
    CHECK(progress_calls == 1 && cmp.model == NULL);
    comparison_free(&cmp);

    c.folds = 0;
    c.keep_model = true;
    c.progress_user = "training fastText on 3 examples";
    progress_calls = 0;
    CHECK(comparison_run(&cmp, &d, &c, &err) == 0);
    CHECK(progress_calls == 1 && cmp.model != NULL && cmp.n == 1);
    const predictions *p = &cmp.entry[0].pred;
    CHECK(p->n == 4 && p->prob != NULL);
    char *text = written(&cmp, true, false);
    static const char head[] = "id\tsplit\tgold\tpredicted\tp_a\tp_b\tp_c\nd1\tdev\ta\t";
    CHECK(text && strncmp(text, head, strlen(head)) == 0);
    free(text);
    text = written(&cmp, false, true);
    CHECK(text && strstr(text, "\n# confusion: fasttext hypothesis dev (rows gold, columns "
                               "predicted)\ngold\ta\tb\tc\n"));
    CHECK(text && strstr(text, "\n# per-class: fasttext hypothesis dev\nclass\tprecision\t"));
    free(text);
    comparison_free(&cmp);
    dataset_free(&d);
}

/* Folds (model/folds): ten rows, three premises of three hypotheses and
   one of one. By premise, seed 7, three folds: 1 1 1 0 0 0 2 2 2 1
   (grouped.fold of tests/ref/make-unit-tests-ref.py, which deals from
   its own SHA-256 and SplitMix64); by row: 2 1 2 0 1 0 1 0 2 0
   (byrow.fold). The same rows in reverse get the same folds. */
static void test_folds(void)
{
    static const char *const prem = "aaabbbcccd";
    char text[1024];
    int used = snprintf(text, sizeof text, "id\tsplit\tlabel\tpremise\thypothesis\n");
    for (int i = 0; i < 10; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, "r%d\ttrain\t%c\t%c\th%d\n",
                         i, "xyz"[i % 3], prem[i], i);
    dataset d;
    load(&d, text);
    static const size_t grouped[10] = {1, 1, 1, 0, 0, 0, 2, 2, 2, 1};
    static const size_t byrow[10] = {2, 1, 2, 0, 1, 0, 1, 0, 2, 0};
    size_t rows[10], rev[10], fold[10], rfold[10];
    for (size_t i = 0; i < 10; i++) {
        rows[i] = i;
        rev[i] = 9 - i;
    }
    tells_error err;
    for (int g = 0; g < 2; g++) {
        cv_plan plan = {3, 7, g ? GROUP_BY_NONE : GROUP_BY_PREMISE};
        const size_t *want = g ? byrow : grouped;
        CHECK(cv_assign(&d, rows, 10, &plan, fold, &err) == 0);
        CHECK(cv_assign(&d, rev, 10, &plan, rfold, &err) == 0);
        for (size_t i = 0; i < 10; i++) {
            CHECK(fold[i] == want[i]);
            CHECK(rfold[9 - i] == want[i]);
        }
    }
    /* Four premises cannot make five folds; ten rows can. */
    cv_plan five = {5, 7, GROUP_BY_PREMISE};
    CHECK(cv_assign(&d, rows, 10, &five, fold, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "4 premises cannot make 5 folds");
    five.group = GROUP_BY_NONE;
    CHECK(cv_assign(&d, rows, 10, &five, fold, &err) == 0);
    cv_plan one = {1, 7, GROUP_BY_PREMISE};
    CHECK(cv_assign(&d, rows, 10, &one, fold, &err) == -1);
    CHECK(err.kind == TELLS_ERR_USAGE);
    fold_grouping g;
    CHECK(fold_grouping_parse("premise", &g) == 0 && g == GROUP_BY_PREMISE);
    CHECK(fold_grouping_parse("none", &g) == 0 && g == GROUP_BY_NONE);
    CHECK(fold_grouping_parse("row", &g) == -1);
    CHECK(strcmp(fold_grouping_name(GROUP_BY_NONE), "none") == 0);
    dataset_free(&d);
}

/* The premise-aware model's features (model/pairfeat), written out. */
static void test_pair_features(void)
{
    char *buf = NULL;
    size_t cap = 0;
    CHECK(pair_features("a man sleeps", "a man is awake", &buf, &cap) == 0);
    /* Cross pairs only of the words that differ. */
    CHECK_STR(buf, "p:a p:man p:sleeps h:a h:man h:is new:is h:awake new:awake "
                   "x:sleeps|is x:sleeps|awake ov:5 ld:-1");
    /* Every hypothesis token in the premise: no cross pair; the length
       difference clipped. */
    CHECK(pair_features("b a c d e f g h i j k l m n o p q r s t u v w x", "a  b", &buf, &cap) ==
          0);
    CHECK(strstr(buf, "h:a h:b ov:10 allov ld:20") != NULL && !strstr(buf, "x:"));
    /* A word twice makes its pairs once. */
    CHECK(pair_features("x y x", "z z", &buf, &cap) == 0);
    CHECK_STR(buf, "p:x p:y p:x h:z new:z h:z new:z x:x|z x:y|z ov:0 ld:1");
    /* A long premise: at most PAIR_MAX_CROSS pairs, the first in text order. */
    char premise[2000];
    size_t used = 0;
    for (int i = 0; i < 200; i++)
        used += (size_t)sprintf(premise + used, "%sw%d", i ? " " : "", i);
    CHECK(pair_features(premise, "new", &buf, &cap) == 0);
    size_t crosses = 0;
    for (const char *p = buf; (p = strstr(p, " x:")) != NULL; p++)
        crosses++;
    CHECK(crosses == PAIR_MAX_CROSS);
    CHECK(strstr(buf, "x:w127|new ov:") != NULL);
    CHECK(pair_features("", "", &buf, &cap) == 0);
    CHECK_STR(buf, "ov:0 ld:0");
    free(buf);
    baseline_input in;
    CHECK(baseline_input_parse("pair-features", &in) == 0 && in == INPUT_PAIR_FEATURES);
    CHECK(strcmp(baseline_input_name(INPUT_PAIR_FEATURES), "pair-features") == 0);
}

/* The classifiers' dimension (model/ftshim.h): 10 with 3 labels (SMALL),
   the labels less one with 13, and a dim asked for as given. */
static void test_classifier_dim(void)
{
    dataset d;
    tells_error err;
    size_t rows[13];
    ft_train_args a = ft_classifier_args();
    a.bucket = 1000;
    load(&d, SMALL);
    for (size_t i = 0; i < 3; i++)
        rows[i] = i;
    ft_model *m = fasttext_train_rows(&d, rows, 3, INPUT_HYPOTHESIS, &a, &err);
    CHECK(m && ft_dimension(m) == FT_CLASSIFIER_DIM && a.dim == FT_DIM_CLASSIFIER);
    ft_free(m);
    dataset_free(&d);
    char many[2048] = "id\tsplit\tlabel\tpremise\thypothesis\n";
    for (int i = 0; i < 13; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many),
                 "r%d\ttrain\tl%d\tp\tw%d\n", i, i, i);
    load(&d, many);
    for (size_t i = 0; i < 13; i++)
        rows[i] = i;
    m = fasttext_train_rows(&d, rows, 13, INPUT_HYPOTHESIS, &a, &err);
    CHECK(m && ft_dimension(m) == 12);
    ft_free(m);
    a.dim = 4;
    m = fasttext_train_rows(&d, rows, 13, INPUT_HYPOTHESIS, &a, &err);
    CHECK(m && ft_dimension(m) == 4);
    ft_free(m);
    dataset_free(&d);
}

/* Tuning on a sample (baseline_config.tune_rows): 20 premises of three
   hypotheses, capped at 30 rows, are dealt into ceil(5 * 60 / 30) = 10
   folds of two premises, and five of them, 30 rows, tune; uncapped, all
   60 do. Six premises of ten cannot make ten folds: all 60, in five.
   Tuned on a sample, the final fit makes the updates the chosen epochs
   make over the sample, rounded up: ceil(epochs * tune_rows / 60)
   epochs. */
static size_t tuned_rows(const char *corpus, size_t cap)
{
    dataset d;
    load(&d, corpus);
    size_t rows[60];
    for (size_t i = 0; i < d.n; i++)
        rows[i] = i;
    baseline_config c = {.kind = MODEL_FASTTEXT, .input = INPUT_HYPOTHESIS, .tune = true,
                         .tune_rows = cap, .ft = ft_classifier_args()};
    c.ft.bucket = 1000;
    c.ft.seed = 3;
    model_fit fit = {0};
    tells_error err;
    ft_model *m = baseline_train(&d, rows, d.n, &c, &fit, &err);
    CHECK(m != NULL && fit.tuned && fit.train_rows == 60);
    CHECK(fit.tuned_epoch == 5 || fit.tuned_epoch == 10 || fit.tuned_epoch == 25);
    int want = fit.tune_rows < 60 ? (fit.tuned_epoch * (int)fit.tune_rows + 59) / 60
                                  : fit.tuned_epoch;
    CHECK(fit.epoch == want);
    ft_free(m);
    dataset_free(&d);
    return fit.tuned ? fit.tune_rows : 0;
}

static void test_tune_sample(void)
{
    char corpus[2][4096];
    for (int k = 0; k < 2; k++) {
        snprintf(corpus[k], sizeof corpus[k], "id\tsplit\tlabel\tpremise\thypothesis\n");
        for (int i = 0; i < 60; i++)
            snprintf(corpus[k] + strlen(corpus[k]), sizeof corpus[k] - strlen(corpus[k]),
                     "r%d\ttrain\t%c\tpremise %d\tw%d v%d\n", i, "abc"[i % 3],
                     k == 0 ? i / 3 : i / 10, i % 3, i % 7);
    }
    size_t got = tuned_rows(corpus[0], 30);
    CHECK_NEAR((double)got, 30, 0);
    /* One row over the cap of 59: ceil(300 / 59) = 6 folds, the 20
       premises dealt 4 4 3 3 3 3, five folds of 17 premises. */
    got = tuned_rows(corpus[0], 59);
    CHECK_NEAR((double)got, 51, 0);
    got = tuned_rows(corpus[0], 0);
    CHECK_NEAR((double)got, 60, 0);
    got = tuned_rows(corpus[1], 30);
    CHECK_NEAR((double)got, 60, 0);
}

int main(void)
{
    test_tune_sample();
    test_majority();
    test_classifier_dim();
    test_errors();
    test_fasttext();
    test_folds();
    test_pair_features();
    CHECK_DONE();
}
