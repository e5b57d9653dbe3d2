/* Pair features (text/pairshape), the flag-by-class test (stats/chisq:
   flag_class_test) and the association and classifier of analysis/pairs,
   on pairs and tables small enough to work by hand. Numbers not worked in
   a comment come from tests/ref/make-pairs-ref.py (SciPy 1.10.1, and the
   exact conditional test by brute-force enumeration), each named by its
   line there. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/pairs.h"
#include "check.h"
#include "stats/chisq.h"
#include "text/pairshape.h"

#define REL 1e-9
#define CHECK_REL(got, want) CHECK_NEAR((got), (want), REL * fabs(want))

static char dir[] = "/tmp/tells-unit-pairs.XXXXXX";

static char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
    return path;
}

static pair_shaper *shaper(void)
{
    tells_error err;
    pair_shaper *ps = pair_shaper_load(write_file("cues.txt", "# cues\nno\nnot\ndenies\n"
                                                              "no evidence of\n"),
                                       &err);
    CHECK(ps != NULL);
    return ps;
}

static void features(pair_shaper *ps, const char *p, const char *h, double *x)
{
    CHECK(pair_shape(ps, p, h, x) == 0);
}

/* A pair read in turn (the premise kept from the case before when it is
   the same), and the value one feature must have. */
typedef struct feature_case {
    const char *p, *h;
    pair_feature f;
    double want;
} feature_case;

static void check_cases(pair_shaper *ps, const feature_case *c, size_t n)
{
    double x[PAIR_NFEATURES];
    for (size_t i = 0; i < n; i++) {
        features(ps, c[i].p, c[i].h, x);
        if (x[c[i].f] != c[i].want)
            fprintf(stderr, "P \"%s\", H \"%s\": %s is %g, want %g\n", c[i].p, c[i].h,
                    pair_feature_at(c[i].f)->name, x[c[i].f], c[i].want);
        CHECK(x[c[i].f] == c[i].want);
    }
}

static void test_features(void)
{
    pair_shaper *ps = shaper();
    if (!ps)
        return;
    double x[PAIR_NFEATURES];
    /* The premise's words again, without its '.': overlap 5/5 both ways,
       a run of the premise, no cue, no number, 5 - 5 words. */
    features(ps, "the patient has a fever .", "the patient has a fever", x);
    CHECK(x[PAIR_OVERLAP] == 1 && x[PAIR_PREMISE_OVERLAP] == 1);
    CHECK(x[PAIR_ALL_IN_PREMISE] == 1 && x[PAIR_SUBSEQUENCE] == 1);
    CHECK(x[PAIR_NEGATION] == 0 && x[PAIR_NUMBERS] == 0 && x[PAIR_LENGTH_DIFFERENCE] == 0);
    /* "the patient has no pain" after "the patient denies pain": 3 of H's
       5 words in P (the, patient, pain), 3 of P's 4 in H; "no" is a cue P
       lacks; 4 - 5 = -1. */
    features(ps, "the patient denies pain", "the patient has no pain", x);
    CHECK_NEAR(x[PAIR_OVERLAP], 0.6, 1e-15);
    CHECK_NEAR(x[PAIR_PREMISE_OVERLAP], 0.75, 1e-15);
    CHECK(x[PAIR_ALL_IN_PREMISE] == 0 && x[PAIR_SUBSEQUENCE] == 0);
    CHECK(x[PAIR_NEGATION] == 1 && x[PAIR_LENGTH_DIFFERENCE] == -1);
    /* The premise has "no" inside "no evidence of": "no pneumonia" adds
       no negation; every H word is in P but not as one run. */
    features(ps, "no evidence of pneumonia", "no pneumonia", x);
    CHECK(x[PAIR_NEGATION] == 0 && x[PAIR_ALL_IN_PREMISE] == 1 && x[PAIR_SUBSEQUENCE] == 0);
    /* A cue inside a merged token, capitals folded: "Denies" in
       "Patient_Denies" is "denies"; P has none. */
    features(ps, "patient has chest pain", "Patient_Denies chest pain", x);
    CHECK(x[PAIR_NEGATION] == 1);
    CHECK_NEAR(x[PAIR_OVERLAP], 2.0 / 3.0, 1e-15);
    /* Numbers: 40 with another unit, a number word P lacks, the same
       quantity, a number with no unit after it that P has. */
    static const feature_case numbers[] = {
        {"given 40 mg of aspirin for 2 days", "given 40 kg of aspirin", PAIR_NUMBERS, 1},
        {"given 40 mg of aspirin for 2 days", "given forty mg", PAIR_NUMBERS, 1},
        {"given 40 mg of aspirin for 2 days", "given 40 mg for 2 days", PAIR_NUMBERS, 0},
        {"two women are walking", "Two women walk", PAIR_NUMBERS, 0},
        {"two women are walking", "2 women walk", PAIR_NUMBERS, 1},
    };
    check_cases(ps, numbers, sizeof numbers / sizeof *numbers);
    /* A hypothesis without a word: overlap 0, no flag, 4 - 0 words. */
    features(ps, "two women are walking", ". ,", x);
    CHECK(x[PAIR_OVERLAP] == 0 && x[PAIR_ALL_IN_PREMISE] == 0 && x[PAIR_SUBSEQUENCE] == 0);
    CHECK(x[PAIR_LENGTH_DIFFERENCE] == 4);
    /* After a change of index, the premise is read afresh (an empty
       premise is not taken for the last one). */
    pair_shaper_set_concepts(ps, NULL);
    double z[PAIR_NFEATURES];
    features(ps, "", "two women", z);
    CHECK(z[PAIR_OVERLAP] == 0 && z[PAIR_ALL_IN_PREMISE] == 0 && z[PAIR_LENGTH_DIFFERENCE] == -2);
    /* The same premise twice in a row (kept from the last pair) gives the
       same features as read afresh. */
    double y[PAIR_NFEATURES];
    features(ps, "the man sleeps not", "the man sleeps", x);
    features(ps, "the man sleeps not", "the man sleeps", y);
    CHECK(memcmp(x, y, sizeof x) == 0 && x[PAIR_SUBSEQUENCE] == 1);
    /* The premise's parts are made only when a hypothesis has a cue: a
       kept premise first read for a hypothesis without one still has
       its "not" for the next; a new premise has only its own parts; a
       cue in a merged token of the premise counts. */
    static const feature_case premise_parts[] = {
        {"the man does not sleep", "the man sleeps", PAIR_NEGATION, 0},
        {"the man does not sleep", "the man does not walk", PAIR_NEGATION, 0},
        {"the man does sleep", "the man does not walk", PAIR_NEGATION, 1},
        {"patient has no_fever", "no fever", PAIR_NEGATION, 0},
        {"patient has fever", "no fever", PAIR_NEGATION, 1},
    };
    check_cases(ps, premise_parts, sizeof premise_parts / sizeof *premise_parts);
    pair_shaper_free(ps);

    /* The lexicon's errors name the file and line. */
    tells_error err;
    CHECK(pair_shaper_load(write_file("dup.txt", "no\nnot\nNo\n"), &err) == NULL);
    CHECK_STR(err.msg, "cue 'No' already given on line 1");
    CHECK(strstr(err.file, "dup.txt") != NULL && err.line == 3);
    CHECK(pair_shaper_load(write_file("empty.txt", "# nothing\n\n"), &err) == NULL);
    CHECK(strstr(err.msg, "no cues") != NULL);
    CHECK(pair_shaper_load(write_file("punct.txt", "no\n...\n"), &err) == NULL);
    CHECK_STR(err.msg, "cue '...' has no words");
    CHECK(strstr(err.file, "punct.txt") != NULL && err.line == 2);
    /* No lexicon: negation is never set. */
    ps = pair_shaper_load(NULL, &err);
    CHECK(ps != NULL);
    if (ps) {
        features(ps, "pain", "no pain", x);
        CHECK(x[PAIR_NEGATION] == 0);
        pair_shaper_free(ps);
    }
    /* The bundled lexicon loads. */
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/corpora/lexicons/negation-triggers.txt", top ? top : ".");
    ps = pair_shaper_load(path, &err);
    CHECK(ps != NULL);
    if (ps) {
        features(ps, "the patient has pneumonia", "there is no evidence of pneumonia", x);
        CHECK(x[PAIR_NEGATION] == 1);
        pair_shaper_free(ps);
    }
}

static void test_flag_class(void)
{
    tells_error err;
    gof_result r;
    /* 2 x 2, expected counts 2: Fisher's exact test (fisher22.p), with
       Pearson's statistic kept (fisher22.stat: 2). */
    uint64_t f22[] = {3, 1}, t22[] = {4, 4};
    CHECK(flag_class_test(f22, t22, 2, 1, &r, &err) == 0);
    CHECK(r.method == GOF_EXACT);
    CHECK_REL(r.test.p.p, 0.48571428571428565);
    CHECK_REL(r.test.statistic, 2.0);
    /* 2 x 3: Freeman-Halton (fh23.p, fh23.stat). */
    uint64_t f23[] = {5, 0, 1}, t23[] = {6, 5, 6};
    CHECK(flag_class_test(f23, t23, 3, 1, &r, &err) == 0);
    CHECK(r.method == GOF_EXACT && r.test.df == 2);
    CHECK_REL(r.test.p.p, 0.011797026502908856);
    CHECK_REL(r.test.statistic, 9.7020202020202024);
    /* Expected counts of 20 and 80: Pearson's chi-squared (chi23.*). */
    uint64_t fc[] = {30, 10, 20}, tc[] = {100, 100, 100};
    CHECK(flag_class_test(fc, tc, 3, 1, &r, &err) == 0);
    CHECK(r.method == GOF_CHI2);
    CHECK_REL(r.test.statistic, 12.5);
    CHECK_REL(r.test.p.p, 0.0019304541362277095);
    /* 10 of 13 flagged: the unflagged row, the smaller, is enumerated
       (flip.p). */
    uint64_t ff[] = {4, 3, 3}, tf[] = {4, 4, 5};
    CHECK(flag_class_test(ff, tf, 3, 1, &r, &err) == 0);
    CHECK(r.method == GOF_EXACT);
    CHECK_REL(r.test.p.p, 0.72027972027972031);
    /* A class without examples is left out: the 2 x 2 above. */
    uint64_t f3[] = {3, 0, 1}, t3[] = {4, 0, 4};
    CHECK(flag_class_test(f3, t3, 3, 1, &r, &err) == 0);
    CHECK_REL(r.test.p.p, 0.48571428571428565);
    /* Nothing flagged: nothing to test, p = 1. */
    uint64_t f0[] = {0, 0}, t0[] = {5, 5};
    CHECK(flag_class_test(f0, t0, 2, 1, &r, &err) == 0);
    CHECK(r.test.p.p == 1.0);
    /* More flagged than examples: an error. */
    uint64_t fb[] = {6, 0}, tb[] = {5, 5};
    CHECK(flag_class_test(fb, tb, 2, 1, &r, &err) == -1);
    CHECK_STR(err.msg, "6 flagged of 5 examples");
}

/* A corpus of 40 pairs: the 20 contradictions add "not", the 20
   entailments repeat the premise. Train on 30 (15 of each), score 10. */
static void test_associate_classify(void)
{
    char *text = malloc(8192);
    CHECK(text != NULL);
    if (!text)
        return;
    size_t used = (size_t)snprintf(text, 8192, "id\tsplit\tlabel\tpremise\thypothesis\n");
    for (int i = 0; i < 40; i++) {
        bool c = i % 2 == 0;
        used += (size_t)snprintf(text + used, 8192 - used, "r%02d\t%s\t%s\tman %d walks home"
                                 "\t%s\n", i, i < 30 ? "train" : "test",
                                 c ? "contradiction" : "entailment", i,
                                 c ? "the man does not walk" : "man walks home");
    }
    char *path = write_file("corpus.tsv", text);
    free(text);
    tells_error err;
    dataset d;
    CHECK(dataset_load(&d, path, &err) == 0);
    pair_shaper *ps = shaper();
    double *x = ps ? pairs_compute(&d, ps, &err) : NULL;
    CHECK(x != NULL);
    if (x) {
        size_t order[2] = {0, 1};  /* contradiction first: byte order */
        CHECK(strcmp(vocab_str(d.labels, 0), "contradiction") == 0);
        pair_assoc a[PAIR_NFEATURES];
        CHECK(pairs_associate(&d, NULL, d.n, x, order, 2, 1, a, &err) == 0);
        /* negation: 20 of 20 against 0 of 20, chi-squared 40 on 1 df. */
        CHECK(a[PAIR_NEGATION].tested && a[PAIR_NEGATION].method == GOF_CHI2);
        CHECK_REL(a[PAIR_NEGATION].test.statistic, 40.0);
        CHECK(a[PAIR_NEGATION].flagged[0] == 20 && a[PAIR_NEGATION].flagged[1] == 0);
        CHECK(a[PAIR_NEGATION].mean[0] == 1 && a[PAIR_NEGATION].mean[1] == 0);
        /* overlap: of "the man does not walk", only "man" is in the
           premise ("walk" is not "walks"): 1/5 for contradictions, 1 for
           entailments; Kruskal-Wallis of two tied blocks of 20: ranks 10.5
           and 30.5, H = 29.268 / (1 - 2 (20^3 - 20) / (40^3 - 40)) = 39. */
        CHECK_NEAR(a[PAIR_OVERLAP].mean[0], 0.2, 1e-15);
        CHECK(a[PAIR_OVERLAP].mean[1] == 1 && a[PAIR_OVERLAP].median[1] == 1);
        CHECK_REL(a[PAIR_OVERLAP].test.statistic, 39.0);
        /* numbers: never set, so not tested. */
        CHECK(!a[PAIR_NUMBERS].tested);
        for (size_t f = 0; f < PAIR_NFEATURES; f++)
            pairs_assoc_free(&a[f]);

        /* The classifier, train on train and scored on test: every one of
           the 10 right; the majority (a tie, 15 and 15: the first class,
           contradiction) right on 5; McNemar 5 against 0: p = 2^-5. */
        int part[40];
        size_t models = 0;
        char design[128];
        CHECK(pairs_plan(&d, NULL, NULL, 5, GROUP_BY_PREMISE, 1, part, &models, design,
                         sizeof design, &err) == 0);
        CHECK(models == 1);
        CHECK_STR(design, "train on train, scored on test");
        pair_model m;
        CHECK(pairs_classify(&d, x, part, models, 1, &m, &err) == 0);
        CHECK(m.n == 10 && m.right == 10 && m.majority_right == 5);
        CHECK(m.only_model == 5 && m.only_majority == 0);
        CHECK_REL(m.p.p, 1.0 / 32);
        CHECK(m.train_accuracy == 1);
        CHECK(strcmp(vocab_str(d.labels, m.majority_label), "contradiction") == 0);
        pair_model_free(&m);
        /* Splits named: the other way round; a split the corpus lacks. */
        CHECK(pairs_plan(&d, "test", "train", 5, GROUP_BY_PREMISE, 1, part, &models, design,
                         sizeof design, &err) == 0);
        CHECK_STR(design, "train on test, scored on train");
        CHECK(pairs_plan(&d, "dev", NULL, 5, GROUP_BY_PREMISE, 1, part, &models, design,
                         sizeof design, &err) == -1);
        CHECK_STR(err.msg, "no split named 'dev' in the corpus (its splits: train, test)");
    }
    free(x);
    pair_shaper_free(ps);
    dataset_free(&d);
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    test_features();
    test_flag_class();
    test_associate_classify();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    CHECK_DONE();
}
