/* Log-odds, PMI as the MedNLI code computes it, scikit-learn's words,
   cartography's statistics and regions, on inputs small enough to check
   by hand. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model/carto.h"
#include "stats/counts.h"
#include "stats/logodds.h"
#include "stats/pmi.h"

static void add(token_counts *tc, const char *label, const char *text)
{
    CHECK(counts_add(tc, label, strlen(label), text, strlen(text), "", 0) == 0);
}

static const logodds_row *find_row(const logodds_table *t, const token_counts *tc,
                                   const char *cls, const char *tok)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(vocab_str(tc->classes, t->rows[i].class_id), cls) == 0 &&
            strcmp(vocab_str(tc->tokens, t->rows[i].token), tok) == 0)
            return &t->rows[i];
    return NULL;
}

static void test_logodds(void)
{
    token_counts tc;
    CHECK(counts_init(&tc, FIELD_HYPOTHESIS) == 0);
    add(&tc, "a", "x x y");
    add(&tc, "b", "y z");
    logodds_options o = {.min_count = 1, .prior_scale = 1};
    logodds_table t;
    CHECK(logodds_compute(&tc, &o, &t, NULL) == 0);
    CHECK(t.n == 6);
    /* x in a: y = 2, a_w = 2, n^a = 3, a_0 = 5, rest: y = 0, n = 2. */
    const logodds_row *r = find_row(&t, &tc, "a", "x");
    CHECK(r != NULL);
    if (r) {
        double d = log(4.0 / (3 + 5 - 2 - 2)) - log(2.0 / (2 + 5 - 0 - 2));
        double v = 1.0 / 4 + 1.0 / 2;
        CHECK_NEAR(r->delta, d, 1e-12);
        CHECK_NEAR(r->var, v, 1e-12);
        CHECK_NEAR(r->z, d / sqrt(v), 1e-12);
        CHECK(r->count == 2);
    }
    /* Sorted by z within each class: a's first row is x. */
    CHECK(strcmp(vocab_str(tc.tokens, t.rows[0].token), "x") == 0);
    logodds_free(&t);
    /* A prior without z: z is not ranked. */
    logodds_prior p = {0};
    p.tokens = vocab_new();
    CHECK(vocab_intern(p.tokens, "x", 1) == 0 && vocab_intern(p.tokens, "y", 1) == 1);
    double counts[2] = {10, 30};
    p.count = counts;
    p.total = 40;
    o.prior = &p;
    o.prior_scale = 0.5;
    CHECK(logodds_compute(&tc, &o, &t, NULL) == 0);
    CHECK(t.n == 4);
    r = find_row(&t, &tc, "b", "y");
    CHECK(r != NULL);
    if (r) {
        double a = 15, a0 = 20;
        double d = log((1 + a) / (2 + a0 - 1 - a)) - log((1 + a) / (3 + a0 - 1 - a));
        CHECK_NEAR(r->delta, d, 1e-12);
    }
    CHECK(find_row(&t, &tc, "a", "z") == NULL);
    logodds_free(&t);
    vocab_free(p.tokens);
    counts_free(&tc);
}

static void test_published(void)
{
    token_counts tc;
    CHECK(counts_init(&tc, FIELD_HYPOTHESIS) == 0);
    tc.analyzer = COUNTS_TOKENS_WORDS;
    add(&tc, "a", "The Dog's dog , x");
    add(&tc, "a", "dog ran");
    add(&tc, "b", "cat-like CAT");
    /* Words: the, dog (x2: "dog's" gives dog), ran, cat, like, cat; "s",
       "x" and "," are no words. */
    CHECK(vocab_find(tc.tokens, "dog", 3) >= 0);
    CHECK(vocab_find(tc.tokens, "the", 3) >= 0);
    CHECK(vocab_find(tc.tokens, "x", 1) < 0);
    CHECK(vocab_find(tc.tokens, "s", 1) < 0);
    CHECK(vocab_find(tc.tokens, "Dog", 3) < 0);
    CHECK(pmi_stop_word("the") && pmi_stop_word("yourselves") && !pmi_stop_word("dog"));
    pmi_table t;
    CHECK(pmi_published_compute(&tc, 1.0, 1, &t) == 0);
    /* Class a keeps dog (3 in 2 examples) and ran (1), not "the": S_a =
       (3 + 1) + (1 + 1) = 6; the corpus: the 1, dog 3, ran 1, cat 2,
       like 1: S = 8 + 5 = 13; p(a) = 2/3. */
    CHECK(t.nclasses == 2 && t.classes[0].n == 2);
    if (t.nclasses == 2 && t.classes[0].n == 2) {
        const pmi_entry *e = &t.classes[0].entries[0];
        CHECK(strcmp(vocab_str(tc.tokens, e->token), "dog") == 0);
        CHECK(e->count == 3);
        CHECK_NEAR(e->class_share, 4.0 / 6, 1e-12);
        CHECK_NEAR(e->pmi, log2((4.0 / 6) / ((4.0 / 13) * (2.0 / 3))), 1e-12);
    }
    pmi_free(&t);
    /* min_df 2: only dog is in two examples of a. */
    CHECK(pmi_published_compute(&tc, 1.0, 2, &t) == 0);
    CHECK(t.classes[0].n == 1 && t.classes[1].n == 0);
    pmi_free(&t);
    counts_free(&tc);
}

static void test_carto(void)
{
    /* Three examples, four epochs, written by hand as a predictions TSV. */
    char path[] = "/tmp/test-measures.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    static const double p[4][3] = {
        {0.2, 0.6, 0.5}, {0.7, 0.7, 0.4}, {0.3, 0.8, 0.6}, {0.9, 0.9, 0.6}};
    carto_dynamics d;
    CHECK(carto_dynamics_init(&d, NULL) == 0);
    for (int e = 0; e < 4; e++) {
        FILE *fp = fopen(path, "w");
        CHECK(fp != NULL);
        if (!fp)
            break;
        fputs("id\tgold\tp_x\tp_y\n", fp);
        for (int i = 0; i < 3; i++)
            fprintf(fp, "e%d\tx\t%.17g\t%.17g\n", i, p[e][i], 1 - p[e][i]);
        fclose(fp);
        tells_error err;
        tells_error_clear(&err);
        CHECK(carto_read_epoch(&d, path, &err) == 0);
    }
    remove(path);
    CHECK(d.n == 3 && d.epochs == 4);
    carto_stats s;
    CHECK(carto_compute(&d, &s, NULL) == 0);
    /* Example 0: 0.2 0.7 0.3 0.9: mean 0.525; right, wrong... : right at
       epochs 1 and 3 (p > 0.5): correctness 0.5, forgotten once. */
    CHECK_NEAR(s.confidence[0], 0.525, 1e-12);
    double m = 0.525, v = ((0.2 - m) * (0.2 - m) + (0.7 - m) * (0.7 - m) +
                           (0.3 - m) * (0.3 - m) + (0.9 - m) * (0.9 - m)) / 4;
    CHECK_NEAR(s.variability[0], sqrt(v), 1e-12);
    CHECK_NEAR(s.correctness[0], 0.5, 1e-12);
    CHECK(s.forgetfulness[0] == 1);
    /* Example 2: 0.5 (a tie: the first class, x, is predicted), 0.4, 0.6,
       0.6: right, wrong, right, right. */
    CHECK_NEAR(s.correctness[2], 0.75, 1e-12);
    CHECK(s.forgetfulness[2] == 1);
    /* The regions partition the examples. floor(0.33 * 3) + 1 = 1
       example is ambiguous: the most variable, example 0 (0.2 to 0.9);
       of the other two, the more confident (example 1, 0.75) is easy to
       learn and example 2 (0.525) hard. The code's selection took
       example 0 as ambiguous and as hard (the least confident: 0.525
       for both 0 and 2, a tie, the first in input order) and left
       example 2 in no region. */
    unsigned char in[3];
    CHECK(carto_select(&d, &s, CARTO_AMBIGUOUS, 0.33, in, NULL) == 1);
    CHECK(in[0] && !in[1] && !in[2]);
    CHECK(carto_select(&d, &s, CARTO_EASY, 0.33, in, NULL) == 1);
    CHECK(in[1] && !in[0] && !in[2]);
    CHECK(carto_select(&d, &s, CARTO_HARD, 0.33, in, NULL) == 1);
    CHECK(in[2] && !in[0] && !in[1]);
    carto_stats_free(&s);
    carto_dynamics_free(&d);
}

/* Examples with equal statistics: the regions go by id, whatever the
   order of the rows. Six examples over two epochs (binary fractions, so
   that the ties are exact), read in two orders. b, d and f are equally
   variable (0.375) for two ambiguous places: b and d, by id; of the
   others, e (0.75) and then a, c and f equally confident (0.4375) for
   the last easy place: a. The code's selection broke ties by the order
   of the rows. */
static void test_carto_ties(void)
{
    static const char *const ids[6] = {"c", "a", "b", "f", "e", "d"};
    static const double p[6][2] = {{0.4375, 0.4375}, {0.4375, 0.4375}, {0.125, 0.875},
                                   {0.0625, 0.8125}, {0.75, 0.75}, {0.125, 0.875}};
    static const size_t orders[2][6] = {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}};
    static const carto_region want[6] = {CARTO_HARD, CARTO_EASY, CARTO_AMBIGUOUS,
                                         CARTO_HARD, CARTO_EASY, CARTO_AMBIGUOUS};
    char path[] = "/tmp/test-measures.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    for (int o = 0; o < 2; o++) {
        carto_dynamics d;
        CHECK(carto_dynamics_init(&d, NULL) == 0);
        for (int e = 0; e < 2; e++) {
            FILE *fp = fopen(path, "w");
            CHECK(fp != NULL);
            if (!fp)
                break;
            fputs("id\tgold\tp_x\tp_y\n", fp);
            for (int i = 0; i < 6; i++) {
                size_t r = orders[o][i];
                fprintf(fp, "%s\tx\t%.17g\t%.17g\n", ids[r], p[r][e], 1 - p[r][e]);
            }
            fclose(fp);
            CHECK(carto_read_epoch(&d, path, NULL) == 0);
        }
        carto_stats s;
        CHECK(carto_compute(&d, &s, NULL) == 0);
        for (int r = 0; r < 3; r++) {
            unsigned char in[6];
            CHECK(carto_select(&d, &s, (carto_region)r, 0.33, in, NULL) == 2);
            for (size_t i = 0; i < 6; i++)
                CHECK(in[i] == (want[orders[o][i]] == (carto_region)r));
        }
        carto_stats_free(&s);
        carto_dynamics_free(&d);
    }
    remove(path);
}

int main(void)
{
    test_logodds();
    test_published();
    test_carto();
    test_carto_ties();
    CHECK_DONE();
}
