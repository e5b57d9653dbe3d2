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
    const char *want[] = {"hypothesis_only", "premise_and_hypothesis", "token:W:CLASS",
                          "length", "heuristic:NAME", "aflite", "audit:BATCH:CHECK",
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
    /* The other 18 pairs tested count in the family. */
    CHECK(s.v.nextra == 18);

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
    CHECK(verdicts_adjust(&s.v, &err) == 0);
    CHECK(s.v.family == 6 + 1 + 18);

    /* baselines, from a state made by hand: 10 evaluated rows, the
       hypothesis-only model right on 7, the majority on 2 of them, the
       pair on 7. Exact McNemar of 5 against 0: p = 2^-5. */
    baselines_state *b = study_state(&s, &section_baselines);
    s.neval = 10;
    s.eval_row = calloc(10, sizeof *s.eval_row);
    for (size_t i = 0; i < 10; i++)
        s.eval_row[i] = 3 * i;   /* class e, the majority's answer */
    static const char *const names[3] = {"majority", "hypothesis", "pair"};
    static const unsigned char right[3][10] = {{1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
                                               {1, 1, 1, 1, 1, 1, 1, 0, 0, 0},
                                               {1, 1, 1, 1, 1, 1, 1, 0, 0, 0}};
    for (int m = 0; m < STUDY_NMODELS; m++) {
        b->model[m].name = names[m];
        b->model[m].right = malloc(10);
        memcpy(b->model[m].right, right[m], 10);
        b->model[m].accuracy = study_mean(right[m], 10);
    }
    b->hyp_only_b = 5;
    b->hyp_vs_majority = (interval){0.5, 0.2, 0.8, pvalue_from_p(1)};
    verdicts vs;
    verdicts_init(&vs, 0.05);
    CHECK(section_baselines.verdicts(&s, b, &vs, &err) == 0);
    CHECK(vs.n == 2);
    CHECK_STR(vs.v[0].check, "hypothesis_only");
    CHECK_NEAR(vs.v[0].p.p, 1.0 / 32, 1e-15);
    CHECK(vs.v[0].direction_ok);
    CHECK_STR(vs.v[0].sentence, "A fastText model that reads only the hypothesis gets 70.0% "
                                "of 5-fold cross-validation over every example right, "
                                "against 20.0% for always answering 'e': +50.0 points (95% "
                                "interval +20.0 to +80.0), p = 0.031 (exact McNemar, "
                                "one-sided).");
    CHECK_STR(vs.v[1].check, "premise_and_hypothesis");
    CHECK_NEAR(vs.v[1].p.p, 1.0, 1e-15);   /* no discordant pair */
    verdicts_free(&vs);

    /* AFLite: the difficult part harder is the way a shortcut points. */
    aflite_state *a = study_state(&s, &section_aflite);
    a->neasy = 12;
    a->accuracy[AFLITE_FULL] = 0.7;
    a->accuracy[AFLITE_DIFFICULT] = 0.5;
    a->difficult_tested = true;
    a->difficult_vs_full = (interval){-0.2, -0.3, -0.1, pvalue_from_p(0.01)};
    verdicts_init(&vs, 0.05);
    CHECK(section_aflite.verdicts(&s, a, &vs, &err) == 0);
    CHECK(vs.n == 1 && vs.v[0].direction_ok && vs.v[0].tested);
    CHECK_NEAR(vs.v[0].value, 0.4, 1e-12);
    a->difficult_vs_full.estimate = 0.1;
    CHECK(section_aflite.verdicts(&s, a, &vs, &err) == 0);
    CHECK(!vs.v[1].direction_ok);
    a->difficult_tested = false;
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
        fprintf(fp, "h%d\tall\t%s\tp\t%s\n", i, i < 30 ? "a" : "b",
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
    const char *made[] = {"corpus.tsv", "prepared.tsv", "heur.tsv", "heur-pairs.tsv"};
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
