/* The study's sections (study/core.h) on tiny hand-built inputs: the
   table's check of needs and provides, the checks it lists, and the
   prepare, tokens and lengths sections run on a corpus of 30 examples
   whose answers are known by hand; the baselines' and AFLite's verdicts
   from hand-built states. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "study/core.h"
#include "study/sec-aflite.h"
#include "study/sec-baselines.h"
#include "study/sec-heuristics.h"
#include "study/sec-tokens.h"

extern const study_section section_prepare, section_lengths, section_logodds;

static char dir[] = "/tmp/tells-unit-study.XXXXXX";

static void table(void)
{
    tells_error err;
    CHECK(study_table_check(study_sections, study_nsections, &err) == 0);
    /* AFLite before the baselines it scores its partitions with. */
    const study_section *bad[] = {&section_prepare, &section_aflite, &section_baselines};
    CHECK(study_table_check(bad, 3, &err) == -1);
    CHECK_STR(err.msg, "internal error: the study's section 'aflite' needs the models' "
                       "scores, which no section before it provides");
    /* Every check is listed once, in the order of summary.tsv. */
    const char *want[] = {"hypothesis_only", "premise_and_hypothesis", "bag_of_both",
                          "premise_only", "hypothesis_share", "model_warning:MODEL", "token:W:CLASS",
                          "length", "heuristic:NAME", "pair:FEATURE", "pair:classifier",
                          "aflite", "audit:BATCH:CHECK",
                          "v_information", "cartography", "logodds"};
    size_t n = 0;
    for (; study_check_at(n); n++) {
        const study_check *c = study_check_at(n);
        CHECK(n < sizeof want / sizeof *want && strcmp(c->name, want[n]) == 0);
        CHECK(c->definition && c->definition[0]);
        CHECK(c->list == CHECK_LIST_NONE || (c->yes && c->no));
    }
    CHECK(n == sizeof want / sizeof *want);
    CHECK_STR(study_step_at(0)->name, "prepare");
    CHECK(study_step_at(study_nsections) == NULL);
}

/* A primary check of p 0.01 to share a family with. */
static void row_primary(verdicts *vs)
{
    tells_error err;
    verdict *v = verdicts_add(vs, &err, "hypothesis_only");
    CHECK(v != NULL);
    v->tested = true;
    v->p = pvalue_from_p(0.01);
}

/* summary.tsv of vs. */
static char *summary_text(verdicts *vs)
{
    char *buf = NULL;
    size_t len = 0;
    tells_error err;
    FILE *fp = open_memstream(&buf, &len);
    CHECK(fp && verdicts_write(fp, vs, &err) == 0);
    if (fp)
        fclose(fp);
    return buf;
}

/* A study of DIR/corpus.tsv, its sections' states allocated. */
static void open_study(study *s, study_config *cfg, const char *corpus)
{
    study_config_default(cfg);
    cfg->prepared = corpus;
    cfg->figures = false;
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    s->dir = dir;
    s->sections = study_sections;
    s->nsections = study_nsections;
    s->state = calloc(s->nsections, sizeof *s->state);
    for (size_t i = 0; i < s->nsections; i++)
        s->state[i] = calloc(1, s->sections[i]->state_size + 1);
    verdicts_init(&s->v, cfg->alpha);
}

static int run(study *s, const study_section *sec, tells_error *err)
{
    return sec->run(s, study_state(s, sec), err);
}

static int verdicts_of(study *s, const study_section *sec, tells_error *err)
{
    return sec->verdicts(s, study_state(s, sec), &s->v, err);
}

/* 30 examples, 10 a class: e's hypotheses have 2 tokens, n's 4 and c's
   6, n's alone holding "c d", c's alone "sleeping w x y". */
static void write_corpus(const char *path)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    fputs("id\tsplit\tlabel\tpremise\thypothesis\n", fp);
    for (int i = 0; i < 30; i++)
        fprintf(fp, "x%d\tall\t%s\tp %d\t%s\n", i, i % 3 == 0 ? "e" : i % 3 == 1 ? "n" : "c",
                i, i % 3 == 0 ? "a b" : i % 3 == 1 ? "a b c d" : "a b sleeping w x y");
    fclose(fp);
}

static void sections(void)
{
    char corpus[256];
    snprintf(corpus, sizeof corpus, "%s/corpus.tsv", dir);
    write_corpus(corpus);
    study s;
    study_config cfg;
    open_study(&s, &cfg, corpus);
    tells_error err;
    tells_error_clear(&err);

    /* prepare: the corpus, its classes in byte order, cross-validation. */
    CHECK(run(&s, &section_prepare, &err) == 0);
    CHECK(s.data.n == 30 && s.nclasses == 3);
    CHECK_STR(study_class_name(&s, 0), "c");
    CHECK_STR(study_class_name(&s, 2), "n");
    CHECK(s.cv && s.folds == 5);
    CHECK_STR(s.train, "all");

    /* tokens: the six tokens of one class are its shortcuts. z = (1 -
       1/3) / sqrt(1/3 2/3 / 10) = sqrt(20) for each; p, the exact
       binomial tail, (1/3)^10 (the normal approximation's 3.9e-6). */
    CHECK(run(&s, &section_tokens, &err) == 0);
    CHECK(verdicts_of(&s, &section_tokens, &err) == 0);
    CHECK(s.v.n == 6);
    const verdict *v = verdicts_find(&s.v, "token:sleeping:c");
    CHECK(v != NULL);
    if (v) {
        CHECK_NEAR(v->value, 1.0, 1e-12);
        CHECK_NEAR(v->reference, 1.0 / 3, 1e-12);
        CHECK(strstr(v->detail, "test=competency_exact_binomial n=10 k=10 z=4.472136 "
                                "bonferroni_m=24") != NULL);
        CHECK_NEAR(v->p.p, pow(3.0, -10), 1e-15);
        CHECK_STR(v->sentence, "'sleeping' is in 10 hypotheses, 100% of them c (33% "
                               "expected): z = 4.5, exact binomial p = 1.7e-05.");
    }
    CHECK(verdicts_find(&s.v, "token:a:e") == NULL);
    /* The screen is its own family, the 24 pairs tested: q = 24 p,
       Bonferroni, significant as the competency test found it. */
    if (v) {
        CHECK(v->family == FAMILY_TOKENS && v->family_size == 24);
        CHECK_NEAR(v->q.p, 24 * v->p.p, 1e-12 * 24 * v->p.p);
        CHECK(v->significant);
    }

    /* lengths: ranks 5.5, 15.5, 25.5 by class, ties corrected: H = 29,
       p = exp(-29 / 2) (chi-squared, 2 df). */
    CHECK(run(&s, &section_lengths, &err) == 0);
    CHECK(verdicts_of(&s, &section_lengths, &err) == 0);
    v = verdicts_find(&s.v, "length");
    CHECK(v != NULL);
    if (v) {
        CHECK_NEAR(v->value, 29.0, 1e-9);
        CHECK_NEAR(v->p.p, exp(-14.5), 1e-15);
        CHECK_NEAR(v->effect, 4.0, 1e-12);
        char want[512], p[64];
        pvalue_format(v->p, 2, p, sizeof p);
        snprintf(want, sizeof want, "Hypotheses of class c are longest (6.0 tokens on "
                                    "average) and of class e shortest (2.0): Kruskal-Wallis "
                                    "H = 29.0, p = %s.", p);
        CHECK_STR(v->sentence, want);
        CHECK_STR(v->detail, "test=kruskal_wallis df=2 mean_c=6.000 mean_e=2.000 "
                             "mean_n=4.000");
    }
    /* logodds: a row, untested, naming each class's top token. */
    CHECK(run(&s, &section_logodds, &err) == 0);
    CHECK(verdicts_of(&s, &section_logodds, &err) == 0);
    v = verdicts_find(&s.v, "logodds");
    CHECK(v != NULL && !v->tested);
    if (v) {
        CHECK(strncmp(v->detail, "prior=corpus min_count=5 top_c=", 31) == 0);
        CHECK(strstr(v->sentence, " for c (z = ") && strstr(v->sentence, " for n (z = "));
    }
    /* The primary family is the length check alone: its q is its p, the
       token screens out of it. */
    CHECK(verdicts_adjust(&s.v, &err) == 0);
    CHECK(s.v.family == 1);
    v = verdicts_find(&s.v, "length");
    if (v) {
        CHECK(v->family == FAMILY_PRIMARY && v->family_size == 1);
        CHECK(v->q.p == v->p.p && v->significant);
        CHECK(strstr(v->detail, " family=primary(1)") != NULL);
    }
    v = verdicts_find(&s.v, "token:sleeping:c");
    if (v)
        CHECK(strstr(v->detail, " family=tokens(24,bonferroni)") != NULL);

    /* baselines, from a state made by hand: 10 evaluated rows, the
       hypothesis-only model right on 7, the majority on 2 of them, the
       bag of both on 7, the premise-aware model on 9. Exact McNemar of 5
       against 0: p = 2^-5; two-sided of 2 against 0: 2 x 2^-2. */
    baselines_state *b = study_state(&s, &section_baselines);
    s.neval = 10;
    s.eval_row = calloc(10, sizeof *s.eval_row);
    for (size_t i = 0; i < 10; i++)
        s.eval_row[i] = 3 * i;   /* class e, the majority's answer */
    static const char *const names[STUDY_NMODELS] = {"majority", "hypothesis", "pair",
                                                      "pair-features", "premise"};
    static const unsigned char right[STUDY_NMODELS][10] = {{1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
                                                           {1, 1, 1, 1, 1, 1, 1, 0, 0, 0},
                                                           {1, 1, 1, 1, 1, 1, 1, 0, 0, 0},
                                                           {1, 1, 1, 1, 1, 1, 1, 1, 1, 0},
                                                           {1, 1, 0, 0, 0, 0, 0, 0, 0, 0}};
    for (int m = 0; m < STUDY_NMODELS; m++) {
        b->model[m].name = names[m];
        b->model[m].right = malloc(10);
        memcpy(b->model[m].right, right[m], 10);
        b->model[m].accuracy = study_mean(right[m], 10);
    }
    b->hyp_only_b = 5;
    b->model[STUDY_HYPOTHESIS].fit = (model_fit){.train_accuracy = 0.9, .epoch = 25, .lr = 0.5, .tuned = true, .folds_tuned = 5, .tune_rows = 10, .train_rows = 10, .tuned_epoch = 25};
    b->hyp_vs_majority = (interval){0.5, 0.2, 0.8, pvalue_from_p(1)};
    b->aware_b = 2;
    b->aware_vs_hyp = (interval){0.2, 0, 0.5, pvalue_from_p(1)};
    b->share_ok = true;
    b->share = 0.5 / 0.7;
    b->share_low = 0.4;
    b->share_high = 1;
    verdicts vs;
    verdicts_init(&vs, 0.05);
    CHECK(section_baselines.verdicts(&s, b, &vs, &err) == 0);
    CHECK(vs.n == 5);
    CHECK_STR(vs.v[0].check, "hypothesis_only");
    CHECK_NEAR(vs.v[0].p.p, 1.0 / 32, 1e-15);
    CHECK(vs.v[0].direction_ok);
    CHECK_STR(vs.v[0].sentence, "A fastText model that reads only the hypothesis gets 70.0% "
                                "of every example, each scored by the model of the other "
                                "folds of a 5-fold cross-validation, right, "
                                "against 20.0% for always answering 'e': +50.0 points (95% "
                                "interval +20.0 to +80.0), p = 0.031 (exact McNemar, "
                                "one-sided). It gets 90.0% of its own training examples "
                                "right (25 epochs, learning rate 0.5, chosen on a held-out "
                                "fifth of the training data); with these 10 examples, a "
                                "gain of 50.1 points over the majority class would be "
                                "found with 80% power.");
    /* mde: Connor's equation at psi = 5/10, n = 10 (SciPy: 0.5006888636788823). */
    CHECK(strstr(vs.v[0].detail, " train_accuracy=0.900000 epoch=25 lr=0.5 "
                                 "settings=chosen_on_training_rows mde=0.500689 ") != NULL);
    /* Settings tuned on a sample of a large training split: said so, with
       how many rows and the epochs chosen there (the fit on all of them
       scaled to the rows, model/baseline.h: ceil(25 * 49998 / 480000)
       = 3 epochs). */
    verdicts_free(&vs);
    verdicts_init(&vs, 0.05);
    b->model[STUDY_HYPOTHESIS].fit.tune_rows = 49998;
    b->model[STUDY_HYPOTHESIS].fit.train_rows = 480000;
    b->model[STUDY_HYPOTHESIS].fit.epoch = 3;
    CHECK(section_baselines.verdicts(&s, b, &vs, &err) == 0);
    CHECK(strstr(vs.v[0].sentence, "(3 epochs, learning rate 0.5, 25 epochs chosen on 49998 "
                                    "of them, scaled to all); with these") != NULL);
    CHECK(strstr(vs.v[0].detail, " epoch=3 lr=0.5 settings=chosen_on_sampled_training_rows "
                                 "tune_rows=49998 tuned_epoch=25 mde=") != NULL);
    /* One epoch is one. */
    verdicts_free(&vs);
    verdicts_init(&vs, 0.05);
    b->model[STUDY_HYPOTHESIS].fit.epoch = 1;
    b->model[STUDY_HYPOTHESIS].fit.tuned_epoch = 5;
    CHECK(section_baselines.verdicts(&s, b, &vs, &err) == 0);
    CHECK(strstr(vs.v[0].sentence, "(1 epoch, learning rate 0.5, 5 epochs chosen on 49998 "
                                    "of them, scaled to all); with these") != NULL);
    b->model[STUDY_HYPOTHESIS].fit.epoch = 25;
    b->model[STUDY_HYPOTHESIS].fit.tuned_epoch = 25;
    b->model[STUDY_HYPOTHESIS].fit.tune_rows = 10;
    b->model[STUDY_HYPOTHESIS].fit.train_rows = 10;
    verdicts_free(&vs);
    verdicts_init(&vs, 0.05);
    CHECK(section_baselines.verdicts(&s, b, &vs, &err) == 0);
    CHECK_STR(vs.v[1].check, "premise_and_hypothesis");
    CHECK_NEAR(vs.v[1].p.p, 0.5, 1e-15);
    CHECK(vs.v[1].direction_ok);
    const char *d1 = "test=mcnemar_exact_two_sided model=pair-features n=10 both_right=7 "
                     "only_pair_right=2 only_hypothesis_right=0 neither_right=1 ";
    CHECK(strncmp(vs.v[1].detail, d1, strlen(d1)) == 0);
    CHECK(strstr(vs.v[1].detail, " bag_of_both_accuracy=0.700000") != NULL);
    CHECK_STR(vs.v[2].check, "bag_of_both");
    CHECK(!vs.v[2].tested);
    CHECK_STR(vs.v[3].check, "premise_only");
    CHECK(!vs.v[3].tested && vs.v[3].value == 0.2 && vs.v[3].reference == 0.2);
    CHECK(strstr(vs.v[3].sentence, "Near it, as it should be") != NULL);
    CHECK_STR(vs.v[4].check, "hypothesis_share");
    CHECK(!vs.v[4].tested);
    CHECK_NEAR(vs.v[4].value, 0.5 / 0.7, 1e-15);
    CHECK(strstr(vs.v[4].sentence, "the hypothesis alone gets 71% (95% interval 40% to 100%)"));
    verdicts_free(&vs);
    /* Each model's detail names the chosen epochs when its fit on every
       row took fewer; none when they are the same. */
    for (int m = STUDY_PAIR; m <= STUDY_PREMISE; m++)
        b->model[m].fit = (model_fit){.epoch = 3, .tuned_epoch = 25, .lr = 0.5,
                                      .tuned = true, .tune_rows = 49998, .train_rows = 480000};
    verdicts_init(&vs, 0.05);
    CHECK(section_baselines.verdicts(&s, b, &vs, &err) == 0);
    CHECK(strstr(vs.v[1].detail, " epoch=3 lr=0.5 tuned_epoch=25 bag_of_both_accuracy=") != NULL);
    CHECK(strstr(vs.v[2].detail, " epoch=3 lr=0.5 tuned_epoch=25") != NULL);
    CHECK(strstr(vs.v[3].detail, " epoch=3 lr=0.5 tuned_epoch=25 group_by=") != NULL);
    CHECK(strstr(vs.v[0].detail, "tuned_epoch") == NULL);
    for (int m = STUDY_PAIR; m <= STUDY_PREMISE; m++)
        b->model[m].fit = (model_fit){0};
    verdicts_free(&vs);

    /* AFLite: the difficult partition against the full set is
       described, not tested (the partition was defined on these rows):
       its effect and interval, no p or q, out of the family. */
    aflite_state *a = study_state(&s, &section_aflite);
    a->neasy = 12;
    a->accuracy[AFLITE_FULL] = 0.7;
    a->accuracy[AFLITE_DIFFICULT] = 0.5;
    a->difficult_compared = true;
    a->difficult_vs_full = (interval){-0.2, -0.3, -0.1, pvalue_from_p(0.0004997501249375)};
    verdicts_init(&vs, 0.05);
    row_primary(&vs);
    CHECK(section_aflite.verdicts(&s, a, &vs, &err) == 0);
    CHECK(vs.n == 2 && !vs.v[1].tested);
    CHECK_NEAR(vs.v[1].value, 0.4, 1e-12);
    CHECK_NEAR(vs.v[1].effect, -0.2, 1e-12);
    CHECK_NEAR(vs.v[1].ci_low, -0.3, 1e-12);
    CHECK_NEAR(vs.v[1].ci_high, -0.1, 1e-12);
    CHECK(strstr(vs.v[1].detail, " test=none descriptive=partition_defined_on_these_rows"));
    CHECK_STR(vs.v[1].sentence, "AFLite finds 40.0% of the examples easy for a linear model "
                                "over the averaged hypothesis vectors; on the difficult rest the "
                                "hypothesis-only model gets 50.0% right, against 70.0% on "
                                "all evaluated examples: -20.0 points (95% interval -30.0 to "
                                "-10.0). Not tested: models over the same hypotheses, "
                                "evaluated rows included, defined the partition, so the "
                                "difference holds by construction.");
    CHECK(verdicts_adjust(&vs, &err) == 0);
    CHECK(vs.family == 1);
    char *tsv = summary_text(&vs);
    CHECK(tsv && strstr(tsv, "\naflite\t0.400000\t0.700000\t-0.200000\t-0.300000\t"
                             "-0.100000\t-\t-\t-\teasy=12 ") != NULL);
    free(tsv);
    a->difficult_compared = false;
    CHECK(section_aflite.verdicts(&s, a, &vs, &err) == 0);
    CHECK_STR(vs.v[2].sentence, "AFLite finds 40.0% of the examples easy; no evaluated "
                                "example is difficult.");
    CHECK(!vs.v[2].tested);
    verdicts_free(&vs);

    /* The sections' states freed as the core frees them. */
    study *heap = malloc(sizeof s);
    memcpy(heap, &s, sizeof s);
    study_result_free(heap);
    char path[300];
    const char *made[] = {"corpus.tsv", "prepared.tsv", "pmi.tsv", "competency.tsv",
                          "len.tsv", "logodds.tsv"};
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        CHECK(unlink(path) == 0);
    }
}

/* The heuristics against the corpus's class shares: 30 examples of a, 10
   of b; the marker heuristic holds for 9 of a's and 3 of b's, just the
   corpus's shares. b expects 3 pairs, under 5: the exact test, the
   two-sided binomial, p = 1 (against even classes, chi-squared would
   have said 3 with p 0.083). */
static void heuristics_section(void)
{
    char corpus[256];
    snprintf(corpus, sizeof corpus, "%s/corpus.tsv", dir);
    FILE *fp = fopen(corpus, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fputs("id\tsplit\tlabel\tpremise\thypothesis\n", fp);
    for (int i = 0; i < 40; i++)
        fprintf(fp, "h%d\tall\t%s\tp%d\t%s\n", i, i < 30 ? "a" : "b", i,
                i < 9 || (i >= 30 && i < 33) ? "zzmark" : "other");
    fclose(fp);
    study s;
    study_config cfg;
    open_study(&s, &cfg, corpus);
    char *defs[] = {(char *)data_path("heur-marker.heur")};
    cfg.heur = (heur_sources){.mesh = data_path("heur-tree.txt"), .definitions = defs,
                              .ndefinitions = 1, .general = true};
    tells_error err;
    tells_error_clear(&err);
    CHECK(run(&s, &section_prepare, &err) == 0);
    CHECK(run(&s, &section_heuristics, &err) == 0);
    if (err.msg[0])
        fprintf(stderr, "  %s\n", err.msg);
    CHECK(verdicts_of(&s, &section_heuristics, &err) == 0);
    const verdict *v = verdicts_find(&s.v, "heuristic:marker");
    CHECK(v != NULL);
    if (v) {
        CHECK(v->tested && v->value == 12);
        CHECK_NEAR(v->reference, 0.75, 1e-12);
        CHECK_NEAR(v->effect, 0.0, 1e-12);
        CHECK_NEAR(v->p.p, 1.0, 1e-12);
        CHECK_STR(v->detail, "test=exact_multinomial_class_prior chi2=0.000000 df=1 "
                             "top_class=a top_share=0.750000");
        CHECK_STR(v->sentence, "The marker heuristic holds for 12 pairs, 75% of them a (75% "
                               "of the corpus, if it said nothing of the label): exact "
                               "multinomial p = 1.");
    }
    study *heap = malloc(sizeof s);
    memcpy(heap, &s, sizeof s);
    study_result_free(heap);
    char path[300];
    const char *made[] = {"corpus.tsv", "prepared.tsv", "folds.tsv", "heur.tsv",
                          "heur-pairs.tsv"};
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        CHECK(unlink(path) == 0);
    }
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    table();
    sections();
    heuristics_section();
    CHECK(rmdir(dir) == 0);
    CHECK_DONE();
}
