/* The chi-squared and proportion tests (stats/chisq), the competency test
   of Gardner et al. 2021 (stats/competency), the bootstrap intervals and
   one-sided exact McNemar (stats/interval) and Kruskal-Wallis
   (stats/ranktest), on inputs small enough to work by hand. Values not
   worked in a comment come from SciPy 1.10.1 (Debian python3-scipy): each
   names the line of tests/ref/make-unit-tests-ref.py's output it is, and
   that script says which call made it. The bootstrap references come
   from the same script's replica of GSL's mt19937, uniform_int and
   quantile (no tells code). Agreement is to 1e-9 relative; tails below
   the smallest double are checked through their log. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/chisq.h"
#include "stats/competency.h"
#include "stats/counts.h"
#include "stats/interval.h"
#include "stats/ranktest.h"

#define REL 1e-9
#define CHECK_REL(got, want) CHECK_NEAR((got), (want), REL * fabs(want))

/* p is 1 exactly, as the modules promise when there is nothing to test. */
#define CHECK_P1(pv) CHECK((pv).p == 1.0 && (pv).log_p == 0.0)

/* ---- chisq ---- */

static void test_gof(void)
{
    test_result r;
    tells_error err;
    tells_error_clear(&err);
    /* e = 20 each: x2 = (100 + 0 + 100) / 20 = 10, 2 df, p = exp(-10 / 2);
       scipy.stats.chisquare([10, 20, 30]): gof1.stat, gof1.p. */
    const double o1[] = {10, 20, 30}, s1[] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    CHECK(chisq_gof(o1, s1, 3, &r, &err) == 0);
    CHECK_REL(r.statistic, 10.0);
    CHECK(r.df == 2);
    CHECK_REL(r.p.p, exp(-5.0));
    CHECK_REL(r.p.p, 0.0067379469990854679);
    CHECK_REL(r.p.log_p, -5.0);
    /* e = 30, 15, 15: x2 = 0 + 25/15 + 25/15 = 10/3, p = exp(-5/3);
       chisquare([30, 10, 20], f_exp=[30, 15, 15]): gof2. */
    const double o2[] = {30, 10, 20}, s2[] = {0.5, 0.25, 0.25};
    CHECK(chisq_gof(o2, s2, 3, &r, &err) == 0);
    CHECK_REL(r.statistic, 10.0 / 3);
    CHECK(r.df == 2);
    CHECK_REL(r.p.p, 0.1888756028375618);
    /* A cell expected empty and empty is left out: 1 df; x2 = 25/10 +
       25/10 = 5; chisquare([5, 15], f_exp=[10, 10]): gof3. */
    const double o3[] = {5, 0, 15}, s3[] = {0.5, 0, 0.5};
    CHECK(chisq_gof(o3, s3, 3, &r, &err) == 0);
    CHECK_REL(r.statistic, 5.0);
    CHECK(r.df == 1);
    CHECK_REL(r.p.p, 0.025347318677468325);
    /* ... but counts in it are a data error. */
    const double o4[] = {5, 1, 15};
    CHECK(chisq_gof(o4, s3, 3, &r, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "1 observations in a cell expected to be empty");
    /* One cell, or no counts at all: no test, statistic 0, p 1. */
    const double o5[] = {7}, s5[] = {1};
    CHECK(chisq_gof(o5, s5, 1, &r, &err) == 0);
    CHECK(r.statistic == 0 && isnan(r.df));
    CHECK_P1(r.p);
    const double o6[] = {0, 0}, s6[] = {0.5, 0.5};
    CHECK(chisq_gof(o6, s6, 2, &r, &err) == 0);
    CHECK(r.statistic == 0 && isnan(r.df));
    CHECK_P1(r.p);
    /* x2 = 2 * 1000^2 / 1000 = 2000 on 1 df: p = 2 Phi(-sqrt 2000), about
       1e-436, below the smallest double: kept as its log (gof_tiny.log_p:
       log 2 + scipy.special.log_ndtr(-sqrt(2000))). */
    const double o7[] = {2000, 0};
    CHECK(chisq_gof(o7, s6, 2, &r, &err) == 0);
    CHECK_REL(r.statistic, 2000.0);
    CHECK(r.p.p == 0);
    CHECK_REL(r.p.log_p, -1004.0267419589522);
}

/* Small expected counts (tests/data/heur-ref.tsv, by
   tests/ref/make-heur-ref.py: brute force in fractions). Three pairs in
   one of three even classes: chi-squared 6, p = e^-3 = 0.0498; exact, the
   three outcomes as unlikely, 3/27. */
static void test_gof_small(void)
{
    static const uint64_t three[3] = {3, 0, 0}, mixed[3] = {5, 1, 0};
    static const double even[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    tells_error err;
    tells_error_clear(&err);
    gof_result g;
    CHECK(gof_test(three, even, 3, 1, &g, &err) == 0);
    CHECK(g.method == GOF_EXACT);
    CHECK_NEAR(g.test.statistic, 6.0, 1e-12);
    CHECK_REL(g.test.p.p, 1.0 / 9);
    CHECK_STR(gof_method_name(g.method), "exact");
    test_result chi;
    double o3[3] = {3, 0, 0};
    CHECK(chisq_gof(o3, even, 3, &chi, &err) == 0);
    CHECK_REL(chi.p.p, exp(-3.0));
    pvalue p;
    CHECK(multinomial_exact(mixed, even, 3, &p, &err) == 0);
    CHECK_REL(p.p, 0.053497942386831275);
    /* 5 expected in each of three: chi-squared, 4.8 with 2 df. */
    static const uint64_t fifteen[3] = {9, 3, 3};
    CHECK(gof_test(fifteen, even, 3, 1, &g, &err) == 0);
    CHECK(g.method == GOF_CHI2);
    CHECK_NEAR(g.test.statistic, 4.8, 1e-12);
    CHECK_REL(g.test.p.p, exp(-2.4));
    CHECK_STR(gof_method_name(g.method), "chi2");
    /* A cell with no share and pairs: a data error. */
    static const double half[3] = {0.5, 0.5, 0};
    CHECK(multinomial_exact(three + 0, half, 3, &p, &err) == 0);
    static const uint64_t in_empty[3] = {1, 0, 2};
    CHECK(multinomial_exact(in_empty, half, 3, &p, &err) == -1);
    CHECK_STR(err.msg, "2 observations in a cell expected to be empty");

    /* The outcomes counted: C(n + k - 1, k - 1). */
    CHECK(multinomial_outcomes(3, 3) == 10.0);
    CHECK_REL(multinomial_outcomes(40, 12), 47626016970.0);
    /* Monte Carlo: seeded, so the same p twice; within 0.005 of the
       exact 1/9 (its standard error at 100,000 draws: 0.001). */
    pvalue a, b;
    CHECK(multinomial_monte_carlo(three, even, 3, 100000, 7, &a, &err) == 0);
    CHECK(multinomial_monte_carlo(three, even, 3, 100000, 7, &b, &err) == 0);
    CHECK(a.p == b.p && fabs(a.p - 1.0 / 9) < 0.005);
    CHECK(multinomial_monte_carlo(mixed, even, 3, 100000, 7, &a, &err) == 0);
    CHECK(fabs(a.p - 0.053497942386831275) < 0.005);
    /* Twelve even classes, 40 pairs: too many outcomes to enumerate. */
    uint64_t twelve[12] = {8, 4, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2};
    double share12[12];
    for (int c = 0; c < 12; c++)
        share12[c] = 1.0 / 12;
    CHECK(gof_test(twelve, share12, 12, 3, &g, &err) == 0);
    CHECK(g.method == GOF_MONTE_CARLO && g.test.p.p > 0.1 && g.test.p.p <= 1);
    CHECK_STR(gof_method_name(g.method), "monte-carlo");
}

static void test_homogeneity(void)
{
    test_result r;
    /* ta = tb = 60, every column 40: e = 20 in each cell; x2 = 2 (100 + 0
       + 100) / 20 = 20, 2 df, p = exp(-10);
       scipy.stats.chi2_contingency([a, b], correction=False): hom1. */
    const double a1[] = {10, 20, 30}, b1[] = {30, 20, 10};
    CHECK(chisq_homogeneity(a1, b1, 3, &r) == 0);
    CHECK_REL(r.statistic, 20.0);
    CHECK(r.df == 2);
    CHECK_REL(r.p.p, exp(-10.0));
    CHECK_REL(r.p.p, 4.5399929762484861e-05);
    /* 2 x 2: e = 15 each, x2 = 4 * 25 / 15 = 20/3, 1 df, without Yates's
       correction (hom2; with it, SciPy's default, 5.4 and 0.0201). */
    const double a2[] = {10, 20}, b2[] = {20, 10};
    CHECK(chisq_homogeneity(a2, b2, 2, &r) == 0);
    CHECK_REL(r.statistic, 20.0 / 3);
    CHECK(r.df == 1);
    CHECK_REL(r.p.p, 0.0098232745075192349);
    /* An empty column is left out: the same table. */
    const double a3[] = {10, 0, 20}, b3[] = {20, 0, 10};
    CHECK(chisq_homogeneity(a3, b3, 3, &r) == 0);
    CHECK_REL(r.statistic, 20.0 / 3);
    CHECK(r.df == 1);
    CHECK_REL(r.p.p, 0.0098232745075192349);
    /* Unequal rows, an empty column: chi2_contingency([[5, 15, 30], [40,
       10, 5]], correction=False): hom3. */
    const double a4[] = {5, 0, 15, 30}, b4[] = {40, 0, 10, 5};
    CHECK(chisq_homogeneity(a4, b4, 4, &r) == 0);
    CHECK_REL(r.statistic, 45.945454545454531);
    CHECK(r.df == 2);
    CHECK_REL(r.p.p, 1.0545600410128066e-10);
    /* An empty row (SciPy raises ValueError: an expected frequency is
       0): statistic 0, no df, p 1, as chisq.h promises. */
    const double zero[] = {0, 0, 0};
    CHECK(chisq_homogeneity(a1, zero, 3, &r) == 0);
    CHECK(r.statistic == 0 && isnan(r.df));
    CHECK_P1(r.p);
    CHECK(chisq_homogeneity(zero, zero, 3, &r) == 0);
    CHECK(r.statistic == 0 && isnan(r.df));
    CHECK_P1(r.p);
    /* One column with counts: nothing to compare. */
    const double a5[] = {5, 0}, b5[] = {7, 0};
    CHECK(chisq_homogeneity(a5, b5, 2, &r) == 0);
    CHECK(r.statistic == 0 && isnan(r.df));
    CHECK_P1(r.p);
    /* No columns at all. */
    CHECK(chisq_homogeneity(a5, b5, 0, &r) == 0);
    CHECK_P1(r.p);
    /* Complete separation: e = 500 in each cell, x2 = 4 * 500^2 / 500 =
       2000, 1 df: gof_tiny.log_p again. */
    const double a6[] = {1000, 0}, b6[] = {0, 1000};
    CHECK(chisq_homogeneity(a6, b6, 2, &r) == 0);
    CHECK_REL(r.statistic, 2000.0);
    CHECK(r.p.p == 0);
    CHECK_REL(r.p.log_p, -1004.0267419589522);
}

static void test_proportion(void)
{
    test_result r;
    /* Pooled p = 50/100, se = sqrt(0.25 (1/50 + 1/50)) = 0.1, z = (0.6 -
       0.4) / 0.1 = 2; scipy.stats.norm.sf(2): prop1.p. */
    proportion_greater(30, 50, 20, 50, &r);
    CHECK_REL(r.statistic, 2.0);
    CHECK(isnan(r.df));
    CHECK_REL(r.p.p, 0.022750131948179195);
    /* Pooled 42/100, z = (0.3 - 0.5) / sqrt(0.42 0.58 (1/40 + 1/60)) <
       0: the one-sided p is above 1/2 (prop2). */
    proportion_greater(12, 40, 30, 60, &r);
    CHECK_REL(r.statistic, -1.9851666679418605);
    CHECK_REL(r.p.p, 0.9764370342845019);
    /* No variance (none or all right on both sides): z 0, p 1. */
    proportion_greater(0, 10, 0, 10, &r);
    CHECK(r.statistic == 0);
    CHECK_P1(r.p);
    proportion_greater(10, 10, 20, 20, &r);
    CHECK(r.statistic == 0);
    CHECK_P1(r.p);
    /* se = sqrt(0.25 * 2/1000), z = 1 / se = sqrt(2000): p = Phi(-sqrt
       2000) ~ 4.5e-437, from its log (prop_tiny.log_p:
       scipy.special.log_ndtr(-sqrt(2000))). */
    proportion_greater(1000, 1000, 0, 1000, &r);
    CHECK_REL(r.statistic, sqrt(2000.0));
    CHECK(r.p.p == 0);
    CHECK_REL(r.p.log_p, -1004.7198891395121);
}

/* ---- competency ---- */

static void add(token_counts *tc, const char *label, const char *text)
{
    CHECK(counts_add(tc, label, strlen(label), text, strlen(text), "", 0) == 0);
}

static const competency_row *find_row(const competency_table *t, const token_counts *tc,
                                      const char *cls, const char *tok)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(vocab_str(tc->classes, t->rows[i].class_id), cls) == 0 &&
            strcmp(vocab_str(tc->tokens, t->rows[i].token), tok) == 0)
            return &t->rows[i];
    return NULL;
}

/* The row for cls and tok has n, p_hat, z and p as given. */
static void check_row(const competency_table *t, const token_counts *tc, const char *cls,
                      const char *tok, uint64_t n, double p_hat, double z, double p)
{
    const competency_row *r = find_row(t, tc, cls, tok);
    CHECK(r != NULL);
    if (!r) {
        fprintf(stderr, "  no row %s %s\n", cls, tok);
        return;
    }
    CHECK(r->n == n);
    CHECK_NEAR(r->p_hat, p_hat, 1e-15);
    CHECK_NEAR(r->z, z, 1e-12);
    CHECK_REL(r->p.p, p);
    CHECK(!r->significant);
}

/* The tokens of the table's rows, "class:token ..." in their order. */
static void rows_order(const competency_table *t, const token_counts *tc, char *buf,
                       size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < t->n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s:%s", i ? " " : "",
                                 vocab_str(tc->classes, t->rows[i].class_id),
                                 vocab_str(tc->tokens, t->rows[i].token));
}

static char *written(const competency_table *t, const token_counts *tc, size_t top,
                     bool only_significant, int digits)
{
    char *buf = NULL;
    size_t size;
    FILE *fp = open_memstream(&buf, &size);
    CHECK(fp != NULL);
    if (!fp)
        return NULL;
    CHECK(competency_write(fp, t, tc, top, only_significant, digits) == 0);
    fclose(fp);
    return buf;
}

static void check_text(char *got, const char *want)
{
    CHECK_STR(got ? got : "(null)", want);
    free(got);
}

/* Six examples of a, four of b (examples holding a token, whatever its
   count in them):
       x: a 4, b 1 (n 5)   y: a 2, b 2 (n 4)   z: a 1, b 2 (n 3)   w: a 1 (n 1)
   With p0 = 1/2, z = (p_hat - 1/2) / sqrt(1/4 / n) = 2 sqrt(n) (p_hat - 1/2):
       a: x 2 sqrt5 (0.8 - 0.5) = 3/sqrt5, w 2 (1 - 0.5) = 1, y 0,
          z 2 sqrt3 (1/3 - 1/2) = -1/sqrt3
       b: z 1/sqrt3, y 0, w -1, x -3/sqrt5
   p = P(Z >= z), scipy.stats.norm.sf (comp.*.p); m = 4 tokens x 2 classes
   = 8 pairs, the threshold 0.01 / 8. */
static void hand_corpus(token_counts *tc)
{
    CHECK(counts_init(tc, FIELD_HYPOTHESIS) == 0);
    add(tc, "a", "x y");
    add(tc, "a", "x y x");   /* x twice: one example */
    add(tc, "a", "x");
    add(tc, "a", "x");
    add(tc, "a", "z");
    add(tc, "a", "w");
    add(tc, "b", "x");
    add(tc, "b", "y");
    add(tc, "b", "y z");
    add(tc, "b", "z");
}

static void test_competency_hand(void)
{
    token_counts tc;
    hand_corpus(&tc);
    competency_options o;
    competency_options_default(&o);
    CHECK(!o.class_prior && o.min_count == 1 && o.alpha == 0.01 && o.top == 0);
    competency_table t;
    tells_error err;
    tells_error_clear(&err);
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 8 && t.tested == 8 && t.significant == 0);
    CHECK_REL(t.threshold, 0.01 / 8);
    double s5 = sqrt(5.0), s3 = sqrt(3.0);
    check_row(&t, &tc, "a", "x", 5, 0.8, 3 / s5, 0.089856247439499881);
    check_row(&t, &tc, "a", "w", 1, 1.0, 1.0, 0.15865525393145707);
    check_row(&t, &tc, "a", "y", 4, 0.5, 0.0, 0.5);
    check_row(&t, &tc, "a", "z", 3, 1.0 / 3, -1 / s3, 0.71814856917461345);
    check_row(&t, &tc, "b", "z", 3, 2.0 / 3, 1 / s3, 0.28185143082538655);
    check_row(&t, &tc, "b", "y", 4, 0.5, 0.0, 0.5);
    check_row(&t, &tc, "b", "w", 1, 0.0, -1.0, 0.84134474606854293);
    check_row(&t, &tc, "b", "x", 5, 0.2, -3 / s5, 0.91014375256050006);
    const competency_row *r = find_row(&t, &tc, "a", "x");
    CHECK(r && r->p0 == 0.5);
    char order[256];
    rows_order(&t, &tc, order, sizeof order);
    CHECK_STR(order, "a:x a:w a:y a:z b:z b:y b:w b:x");
    /* The writer: numbers to 6 decimals, p to 3 significant digits. */
    check_text(written(&t, &tc, 0, false, 3),
               "class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n"
               "a\tx\t5\t0.800000\t1.341641\t0.0899\tno\n"
               "a\tw\t1\t1.000000\t1.000000\t0.159\tno\n"
               "a\ty\t4\t0.500000\t0.000000\t0.5\tno\n"
               "a\tz\t3\t0.333333\t-0.577350\t0.718\tno\n"
               "b\tz\t3\t0.666667\t0.577350\t0.282\tno\n"
               "b\ty\t4\t0.500000\t0.000000\t0.5\tno\n"
               "b\tw\t1\t0.000000\t-1.000000\t0.841\tno\n"
               "b\tx\t5\t0.200000\t-1.341641\t0.91\tno\n");
    check_text(written(&t, &tc, 1, false, 3),
               "class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n"
               "a\tx\t5\t0.800000\t1.341641\t0.0899\tno\n"
               "b\tz\t3\t0.666667\t0.577350\t0.282\tno\n");
    check_text(written(&t, &tc, 0, true, 3),
               "class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n");
    competency_table full = t;

    /* A top takes the sparse path (the cells seen, then the absent
       tokens by n): the same first rows and the same count of
       significant pairs as the full table. b's third row is w, absent
       from b: z = -1. */
    for (size_t top = 1; top <= 4; top++) {
        o.top = top;
        CHECK(competency_compute(&tc, &o, &t, &err) == 0);
        CHECK(t.n == 2 * top && t.tested == 8 && t.significant == 0);
        for (size_t i = 0; i < t.n; i++) {
            const competency_row *f = &full.rows[(i / top) * 4 + i % top];
            CHECK(t.rows[i].class_id == f->class_id && t.rows[i].token == f->token);
            CHECK(t.rows[i].z == f->z && t.rows[i].p.p == f->p.p);
        }
        competency_free(&t);
    }
    competency_free(&full);

    /* min_count 2: w is not tested; m = 3 x 2. */
    o.top = 0;
    o.min_count = 2;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 6 && t.tested == 6);
    CHECK_REL(t.threshold, 0.01 / 6);
    CHECK(find_row(&t, &tc, "a", "w") == NULL);
    competency_free(&t);

    /* The class prior: p0 = 6/10 for a, 4/10 for b; z = (p_hat - p0) /
       sqrt(p0 (1 - p0) / n) (prior.*.z, p: norm.sf). */
    o.min_count = 1;
    o.class_prior = true;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 8 && t.significant == 0);
    check_row(&t, &tc, "a", "x", 5, 0.8, 0.91287092917527712, 0.18065521426308934);
    check_row(&t, &tc, "a", "w", 1, 1.0, 0.81649658092772615, 0.20710808912126261);
    check_row(&t, &tc, "a", "y", 4, 0.5, -0.40824829046386296, 0.65845430084519563);
    check_row(&t, &tc, "a", "z", 3, 1.0 / 3, -0.94280904158206336, 0.8271107069244199);
    check_row(&t, &tc, "b", "z", 3, 2.0 / 3, 0.94280904158206313, 0.17288929307558021);
    check_row(&t, &tc, "b", "y", 4, 0.5, 0.40824829046386296, 0.34154569915480437);
    check_row(&t, &tc, "b", "w", 1, 0.0, -0.81649658092772615, 0.79289191087873734);
    check_row(&t, &tc, "b", "x", 5, 0.2, -0.9128709291752769, 0.81934478573691072);
    r = find_row(&t, &tc, "b", "x");
    CHECK(r && fabs(r->p0 - 0.4) < 1e-15);
    rows_order(&t, &tc, order, sizeof order);
    CHECK_STR(order, "a:x a:w a:y a:z b:z b:y b:w b:x");
    competency_free(&t);
    counts_free(&tc);

    /* The critical z of the plot's boundary, p0 + z* sqrt(p0 (1 - p0) / n):
       z* = scipy.stats.norm.isf(threshold) (comp.crit_0.025). */
    CHECK_REL(competency_critical_z(0.025), 1.9599639845400545);
    CHECK_NEAR(competency_critical_z(0.5), 0.0, 1e-15);
}

static void test_competency_significant(void)
{
    /* s in every one of a's 40 examples, t in every one of b's: z = (1 -
       1/2) / sqrt(1/4 / 40) = sqrt 40, p = 1.27e-10 (comp.z_sqrt40.p)
       under 0.01 / 4. */
    token_counts tc;
    CHECK(counts_init(&tc, FIELD_HYPOTHESIS) == 0);
    for (int i = 0; i < 40; i++) {
        add(&tc, "a", "s");
        add(&tc, "b", "t");
    }
    competency_options o;
    competency_options_default(&o);
    competency_table t;
    tells_error err;
    tells_error_clear(&err);
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 4 && t.tested == 4 && t.significant == 2);
    const competency_row *r = find_row(&t, &tc, "a", "s");
    CHECK(r && r->significant && r->n == 40);
    CHECK(r && fabs(r->z - sqrt(40.0)) < 1e-12);
    CHECK(r && fabs(r->p.p - 1.2698142947354283e-10) <= REL * 1.27e-10);
    r = find_row(&t, &tc, "b", "s");
    CHECK(r && !r->significant && r->p_hat == 0);
    check_text(written(&t, &tc, 0, true, 3),
               "class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n"
               "a\ts\t40\t1.000000\t6.324555\t1.27e-10\tyes\n"
               "b\tt\t40\t1.000000\t6.324555\t1.27e-10\tyes\n");
    competency_free(&t);
    /* A top keeps the count of every significant pair. */
    o.top = 1;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 2 && t.significant == 2);
    competency_free(&t);
    counts_free(&tc);

    /* 2000 each: z = sqrt 2000, p = 4.53e-437, below the smallest double,
       kept in its log (comp_tiny.log_p: scipy.special.log_ndtr(-sqrt
       2000)) and significant by it; printed from the log (comp_tiny.p3). */
    CHECK(counts_init(&tc, FIELD_HYPOTHESIS) == 0);
    for (int i = 0; i < 2000; i++) {
        add(&tc, "a", "s");
        add(&tc, "b", "t");
    }
    o.top = 0;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.significant == 2);
    r = find_row(&t, &tc, "b", "t");
    CHECK(r && r->significant && r->p.p == 0);
    CHECK(r && fabs(r->p.log_p - -1004.7198891395121) <= REL * 1004.72);
    check_text(written(&t, &tc, 1, false, 3),
               "class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n"
               "a\ts\t2000\t1.000000\t44.721360\t4.53e-437\tyes\n"
               "b\tt\t2000\t1.000000\t44.721360\t4.53e-437\tyes\n");
    competency_free(&t);
    counts_free(&tc);
}

/* The exact binomial tails (exact.*, exact_tiny.*: scipy.stats.binomtest
   with alternative "greater", and sums of fractions where it underflows):
   P(X >= k), X ~ Binomial(n, p0), k the examples of the class. */
static void test_competency_exact(void)
{
    token_counts tc;
    hand_corpus(&tc);
    competency_options o;
    competency_options_default(&o);
    CHECK(!o.exact);
    o.exact = true;
    competency_table t;
    tells_error err;
    tells_error_clear(&err);
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 8 && t.tested == 8 && t.significant == 0);
    double s5 = sqrt(5.0), s3 = sqrt(3.0);
    /* z as before; p: x in 4 of 5 a examples, 6/32; ... */
    check_row(&t, &tc, "a", "x", 5, 0.8, 3 / s5, 0.1875);
    check_row(&t, &tc, "a", "w", 1, 1.0, 1.0, 0.5);
    check_row(&t, &tc, "a", "y", 4, 0.5, 0.0, 0.6875);
    check_row(&t, &tc, "a", "z", 3, 1.0 / 3, -1 / s3, 0.875);
    check_row(&t, &tc, "b", "z", 3, 2.0 / 3, 1 / s3, 0.5);
    check_row(&t, &tc, "b", "y", 4, 0.5, 0.0, 0.6875);
    check_row(&t, &tc, "b", "w", 1, 0.0, -1.0, 1.0);
    check_row(&t, &tc, "b", "x", 5, 0.2, -3 / s5, 0.96875);
    char order[256];
    rows_order(&t, &tc, order, sizeof order);
    CHECK_STR(order, "a:x a:w a:y a:z b:z b:y b:w b:x");
    competency_free(&t);
    /* With a top: the same rows. With the class prior (p0 = 0.6 and 0.4). */
    o.top = 1;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 2);
    CHECK_REL(t.rows[0].p.p, 0.1875);
    CHECK_REL(t.rows[1].p.p, 0.5);
    competency_free(&t);
    o.top = 0;
    o.class_prior = true;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    const competency_row *r = find_row(&t, &tc, "a", "x");
    CHECK(r && fabs(r->p.p - 0.33695999999999993) <= REL * 0.337);
    r = find_row(&t, &tc, "b", "z");
    CHECK(r && fabs(r->p.p - 0.35200000000000004) <= REL * 0.352);
    competency_free(&t);
    counts_free(&tc);

    /* s in all of a's 40 examples: 2^-40 = 9.09e-13 (exact.s40.p), where
       the normal approximation gives 1.27e-10. */
    CHECK(counts_init(&tc, FIELD_HYPOTHESIS) == 0);
    for (int i = 0; i < 40; i++) {
        add(&tc, "a", "s");
        add(&tc, "b", "t");
    }
    o.class_prior = false;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.significant == 2);
    r = find_row(&t, &tc, "a", "s");
    CHECK(r && r->significant && fabs(r->p.p - 9.0949470177292824e-13) <= REL * 9.09e-13);
    competency_free(&t);
    counts_free(&tc);

    /* Tails below the smallest double, from their log: 2000 of 2000 at
       p0 = 1/3, and 1500 of 2000 at 1/10. */
    pvalue p = stat_binom_sf(2000, 2000, 1.0 / 3);
    CHECK(p.p == 0 && fabs(p.log_p - -2197.2245773362192) <= 1e-9 * 2197.2);
    p = stat_binom_sf(1500, 2000, 0.1);
    CHECK(p.p == 0 && fabs(p.log_p - -2385.7324794147125) <= 1e-9 * 2385.7);
    CHECK(stat_binom_sf(0, 7, 0.3).p == 1.0);
}

static void test_competency_errors(void)
{
    token_counts tc;
    CHECK(counts_init(&tc, FIELD_HYPOTHESIS) == 0);
    competency_options o;
    competency_options_default(&o);
    competency_table t;
    tells_error err;
    tells_error_clear(&err);
    /* No class, then one class: nothing to test. */
    CHECK(competency_compute(&tc, &o, &t, &err) == -1);
    CHECK_STR(err.msg, "one class only: nothing to test");
    CHECK(t.n == 0 && t.rows == NULL);
    add(&tc, "a", "x");
    add(&tc, "a", "y");
    tells_error_clear(&err);
    CHECK(competency_compute(&tc, &o, &t, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "one class only: nothing to test");
    /* Two classes, no token reaching min_count: nothing tested, no rows. */
    add(&tc, "b", "x");
    o.min_count = 5;
    CHECK(competency_compute(&tc, &o, &t, &err) == 0);
    CHECK(t.n == 0 && t.tested == 0 && t.significant == 0);
    CHECK(t.threshold == o.alpha);
    check_text(written(&t, &tc, 0, false, 3),
               "class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n");
    competency_free(&t);
    counts_free(&tc);
}

/* ---- interval ---- */

static void test_mcnemar_greater(void)
{
    /* P(X >= b), X ~ Bin(b + c, 1/2): b 8, c 2: (C(10,8) + C(10,9) +
       C(10,10)) / 2^10 = (45 + 10 + 1) / 1024 (mcn.8_2:
       scipy.stats.binomtest(8, 10, 0.5, alternative='greater')). */
    pvalue p = mcnemar_exact_greater(8, 2);
    CHECK_REL(p.p, 56.0 / 1024);
    CHECK_REL(p.p, 0.0546875);
    /* (20 + 15 + 6 + 1) / 64 (mcn.3_3); 1 / 32 (mcn.5_0); 1 (mcn.0_5). */
    CHECK_REL(mcnemar_exact_greater(3, 3).p, 42.0 / 64);
    CHECK_REL(mcnemar_exact_greater(5, 0).p, 1.0 / 32);
    CHECK_REL(mcnemar_exact_greater(0, 5).p, 1.0);
    CHECK_P1(mcnemar_exact_greater(0, 0));
    CHECK_REL(mcnemar_exact_greater(1100, 900).p, 4.2285447677519058e-06);
    /* 2^-2000, about 1e-602: log p = -2000 log 2. */
    p = mcnemar_exact_greater(2000, 0);
    CHECK(p.p == 0);
    CHECK_REL(p.log_p, -2000 * log(2.0));
}

/* Two-sided: 2 min(P(X >= b), P(X <= b)), capped at 1 (mcn2.*:
   scipy.stats.binomtest(b, b + c).pvalue). Minimum detectable effects:
   Connor's equation solved by SciPy's brentq (mde.*). */
static void test_mcnemar_two_sided_mde(void)
{
    CHECK_REL(mcnemar_exact_two_sided(10, 3).p, 0.09228515625);
    CHECK_REL(mcnemar_exact_two_sided(3, 10).p, 0.09228515625);
    CHECK_P1(mcnemar_exact_two_sided(5, 5));
    CHECK_P1(mcnemar_exact_two_sided(0, 0));
    CHECK_REL(mcnemar_exact_two_sided(0, 7).p, 0.015625);
    CHECK_REL(mcnemar_exact_two_sided(100, 60).p, 0.001953728034064355);
    CHECK_NEAR(mcnemar_exact_two_sided(2000, 2600).p, 9.22122107676968e-19, 1e-9 * 9.2e-19);
    /* 2 x 2^-3000: only its log is kept. */
    pvalue p = mcnemar_exact_two_sided(0, 3000);
    CHECK(p.p == 0);
    CHECK_REL(p.log_p, log(2.0) - 3000 * log(2.0));
    CHECK_NEAR(mcnemar_mde(0.5, 190, 0.05, 0.8), 0.12685304041904, 1e-12);
    CHECK_NEAR(mcnemar_mde(0.3, 9842, 0.05, 0.8), 0.013726406259389649, 1e-12);
    CHECK_NEAR(mcnemar_mde(0.9, 20, 0.05, 0.8), 0.5005834241581627, 1e-12);
    CHECK_NEAR(mcnemar_mde(0.05, 10, 0.05, 0.8), 0.15833172083068203, 1e-12);
    CHECK(isnan(mcnemar_mde(0, 100, 0.05, 0.8)) && isnan(mcnemar_mde(0.5, 0, 0.05, 0.8)));
}

static void test_paired_interval(void)
{
    interval iv;
    tells_error err;
    tells_error_clear(&err);
    /* A always right, B always wrong: every resample is 1; no resample
       is <= 0: p = 2 (0 + 1) / (99 + 1). */
    const unsigned char one[5] = {1, 1, 1, 1, 1}, zero[5] = {0};
    CHECK(paired_diff_interval(one, zero, 5, 99, 1, 0.95, &iv, &err) == 0);
    CHECK(iv.estimate == 1 && iv.low == 1 && iv.high == 1);
    CHECK_REL(iv.p.p, 0.02);
    /* The same predictions: every resample is 0, on both sides: p = 2
       (99 + 1) / 100, at most 1. */
    CHECK(paired_diff_interval(one, one, 5, 99, 1, 0.95, &iv, &err) == 0);
    CHECK(iv.estimate == 0 && iv.low == 0 && iv.high == 0);
    CHECK_P1(iv.p);
    /* Differences 1 0 1 0 0 -1 1 0 1 0: estimate 3/10. A resample's
       difference is (C1 - C2) / 10 with (C0, C1, C2) multinomial over
       (5, 4, 1) / 10, whose exact law (paired_law.*)
       has P(D <= -0.1) = 0.04377, P(D <= 0) = 0.10915, P(D <= 0.5) =
       0.89462, P(D <= 0.6) = 0.96342: with 200,000 resamples (an
       empirical share's standard error 0.0005 there) the 5% and 95%
       quantiles are 0 and 0.6, and p = 2 P(D <= 0) = 0.21830 within
       0.006, four standard errors. */
    const unsigned char a[] = {1, 1, 1, 0, 1, 0, 1, 1, 1, 1};
    const unsigned char b[] = {0, 1, 0, 0, 1, 1, 0, 1, 0, 1};
    CHECK(paired_diff_interval(a, b, 10, 200000, 42, 0.9, &iv, &err) == 0);
    CHECK_NEAR(iv.estimate, 0.3, 1e-15);
    CHECK_NEAR(iv.low, 0, 1e-15);
    CHECK_NEAR(iv.high, 0.6, 1e-15);
    CHECK_NEAR(iv.p.p, 0.2183031248, 0.006);
    /* The same seed, the same interval. */
    interval again;
    CHECK(paired_diff_interval(a, b, 10, 200000, 42, 0.9, &again, &err) == 0);
    CHECK(again.low == iv.low && again.high == iv.high && again.p.p == iv.p.p);
    /* Bad arguments: usage errors. */
    CHECK(paired_diff_interval(a, b, 0, 200, 42, 0.9, &iv, &err) == -1);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "a bootstrap interval needs examples, resamples and a level "
                       "between 0 and 1");
    CHECK(paired_diff_interval(a, b, 10, 0, 42, 0.9, &iv, &err) == -1);
    CHECK(paired_diff_interval(a, b, 10, 200, 42, 0.0, &iv, &err) == -1);
    CHECK(paired_diff_interval(a, b, 10, 200, 42, 1.0, &iv, &err) == -1);
    CHECK(paired_diff_interval(a, b, 10, 200, 42, NAN, &iv, &err) == -1);
    CHECK(err.kind == TELLS_ERR_USAGE);
}

static void test_subset_interval(void)
{
    interval iv;
    tells_error err;
    tells_error_clear(&err);
    /* One example of six in the subset, right: estimate 1 - 4/6 = 1/3.
       The patterns (in, right) count 2, 3, 0, 1; a resample without the
       subset's example (a share (5/6)^6 = 0.335) is skipped, and the
       rest have 1 - (C01 + C11) / 6, whose exact law given C11 > 0
       (subset_law.*) has P(<= 0) = 0.10850, P(<= 1/6)
       = 0.41052, P(<= 1/2) = 0.93967, P(<= 2/3) = 0.99381: with 200,000
       resamples the 2.5% and 97.5% quantiles are 0 and 2/3, and p = 2
       P(<= 0) = 0.21701 within 0.007. */
    const unsigned char c[] = {1, 0, 1, 1, 0, 1}, in[] = {0, 0, 1, 0, 0, 0};
    CHECK(subset_diff_interval(c, in, 6, 200000, 5, 0.95, &iv, &err) == 0);
    CHECK_NEAR(iv.estimate, 1.0 / 3, 1e-15);
    CHECK_NEAR(iv.low, 0, 1e-15);
    CHECK_NEAR(iv.high, 2.0 / 3, 1e-15);
    CHECK_NEAR(iv.p.p, 0.21700879765395895, 0.007);
    /* The same seed, the same interval. */
    interval again;
    CHECK(subset_diff_interval(c, in, 6, 200000, 5, 0.95, &again, &err) == 0);
    CHECK(again.low == iv.low && again.high == iv.high && again.p.p == iv.p.p);
    /* Five of twelve in the subset, four right: 4/5 - 8/12, every
       pattern present (3, 4, 1, 4). The exact law (subset2_law.*) has
       P(<= -2/21) = 0.06637, P(<= -1/12) = 0.11225, P(<= 3/10) =
       0.83699, P(<= 1/3) = 0.92249: with 200,000 resamples the 10% and
       90% quantiles are -1/12 and 1/3 (up to the rounding of the
       differences that make them), and p = 0.48771 within 0.008. */
    const unsigned char c2[] = {1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1};
    const unsigned char in2[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0};
    CHECK(subset_diff_interval(c2, in2, 12, 200000, 9, 0.8, &iv, &err) == 0);
    CHECK_NEAR(iv.estimate, 0.8 - 8.0 / 12, 1e-15);
    CHECK_NEAR(iv.low, -1.0 / 12, 1e-12);
    CHECK_NEAR(iv.high, 1.0 / 3, 1e-12);
    CHECK_NEAR(iv.p.p, 0.48770509116783239, 0.008);
    /* No example in the subset: a data error. */
    const unsigned char none[6] = {0};
    CHECK(subset_diff_interval(c, none, 6, 300, 5, 0.95, &iv, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "no example in the subset");
    /* Its one resample (seed 4) draws the example outside the subset
       twice: none kept (11 of seeds 1 to 39 do so, near the quarter
       expected). */
    const unsigned char c3[] = {1, 0}, in3[] = {1, 0};
    CHECK(subset_diff_interval(c3, in3, 2, 1, 4, 0.95, &iv, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "the subset is too small to resample");
    /* Bad arguments as for paired_diff_interval. */
    CHECK(subset_diff_interval(c, in, 6, 0, 5, 0.95, &iv, &err) == -1);
    CHECK(err.kind == TELLS_ERR_USAGE);
}

/* ---- ranktest ---- */

static void test_kruskal(void)
{
    test_result r;
    tells_error err;
    tells_error_clear(&err);
    /* Groups {1 2 3} {4 5 6} {7 8 9}, given out of order: rank sums 6,
       15, 24; H = 12 / (9 10) (36 + 225 + 576) / 3 - 3 10 = 37.2 - 30 =
       7.2, 2 df, p = exp(-3.6) (kw1: scipy.stats.kruskal). */
    const double x1[] = {9, 1, 5, 2, 7, 4, 3, 8, 6};
    const size_t g1[] = {2, 0, 1, 0, 2, 1, 0, 2, 1};
    CHECK(kruskal_wallis(x1, g1, 9, 3, &r, &err) == 0);
    CHECK_REL(r.statistic, 7.2);
    CHECK(r.df == 2);
    CHECK_REL(r.p.p, exp(-3.6));
    CHECK_REL(r.p.p, 0.027323722447292521);
    /* Ties within and across groups of unequal sizes: {2.5 3 3 7} {3 5 5
       8 9} {1 2.5} (kw2: scipy.stats.kruskal, tie-corrected). */
    const double x2[] = {3, 2.5, 5, 1, 3, 8, 7, 5, 2.5, 3, 9};
    const size_t g2[] = {0, 0, 1, 2, 1, 1, 0, 1, 2, 0, 1};
    CHECK(kruskal_wallis(x2, g2, 11, 3, &r, &err) == 0);
    CHECK_REL(r.statistic, 5.783878504672896);
    CHECK(r.df == 2);
    CHECK_REL(r.p.p, 0.055468540746526629);
    /* {0.5 1.5 1.5} {1.5 3}: ranks 1, 3 3 3, 5; rank sums 7 and 8; H =
       12 / 30 (49/3 + 64/2) - 18 = 4/3, over the correction 1 - (27 -
       3) / (125 - 5) = 0.8: 5/3, 1 df (kw4). */
    const double x4[] = {0.5, 1.5, 1.5, 1.5, 3.0};
    const size_t g4[] = {0, 0, 0, 1, 1};
    CHECK(kruskal_wallis(x4, g4, 5, 2, &r, &err) == 0);
    CHECK_REL(r.statistic, 5.0 / 3);
    CHECK(r.df == 1);
    CHECK_REL(r.p.p, 0.19670560245894339);
    /* Two observations: H = 12 / 6 (1 + 4) - 9 = 1 (kw3: kruskal([1],
       [2]); the chi-squared tail of 1 at 1 df). */
    const double x3[] = {2, 1};
    const size_t g3[] = {1, 0};
    CHECK(kruskal_wallis(x3, g3, 2, 2, &r, &err) == 0);
    CHECK_REL(r.statistic, 1.0);
    CHECK(r.df == 1);
    CHECK_REL(r.p.p, 0.31731050786291115);
    /* An empty group among k = 4 counts in neither H nor df: the same as
       kw1. */
    const size_t g1e[] = {3, 0, 1, 0, 3, 1, 0, 3, 1};
    CHECK(kruskal_wallis(x1, g1e, 9, 4, &r, &err) == 0);
    CHECK_REL(r.statistic, 7.2);
    CHECK(r.df == 2);
    /* Every observation the same (SciPy raises ValueError): H 0, p 1. */
    const double same[] = {4, 4, 4, 4, 4};
    CHECK(kruskal_wallis(same, g4, 5, 2, &r, &err) == 0);
    CHECK(r.statistic == 0 && r.df == 1);
    CHECK_P1(r.p);
    /* Fewer than two groups with observations: usage errors. */
    CHECK(kruskal_wallis(x1, g1, 0, 3, &r, &err) == -1);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "the Kruskal-Wallis test needs two groups with observations, "
                       "not 0");
    CHECK(kruskal_wallis(x3, g3, 1, 2, &r, &err) == -1);
    CHECK_STR(err.msg, "the Kruskal-Wallis test needs two groups with observations, "
                       "not 1");
    const size_t all0[] = {0, 0, 0, 0, 0};
    CHECK(kruskal_wallis(x4, all0, 5, 3, &r, &err) == -1);
    CHECK(err.kind == TELLS_ERR_USAGE);
    /* Three groups of 1000 without overlap: the mean ranks are n apart
       around (N + 1) / 2, so H = 12 / (N (N + 1)) n (n^2 + 0 + n^2) = 8
       n^2 / (3 n + 1) = 8e6 / 3001 (no ties; kw_tiny.stat), and on 2 df p
       = exp(-H / 2), about 1e-579: its log -4e6 / 3001. */
    enum { N = 3000 };
    double *x = malloc(N * sizeof *x);
    size_t *g = malloc(N * sizeof *g);
    CHECK(x && g);
    if (x && g) {
        for (size_t i = 0; i < N; i++) {
            x[i] = (double)((i * 7) % N);   /* a permutation of 0 .. N-1 */
            g[i] = (size_t)x[i] / 1000;
        }
        CHECK(kruskal_wallis(x, g, N, 3, &r, &err) == 0);
        CHECK_REL(r.statistic, 8e6 / 3001);
        CHECK_REL(r.statistic, 2665.7780739753416);
        CHECK(r.df == 2 && r.p.p == 0);
        CHECK_REL(r.p.log_p, -4e6 / 3001);
    }
    /* 3000 observations of five values (the ranks found from each
       value's counts; a test with many ties is ranked without sorting
       every observation), one written -0: H against the formula worked
       here from the counts. */
    if (x && g) {
        double cnt[5][3] = {{0}};
        for (size_t i = 0; i < N; i++) {
            size_t v = i % 3 + (i / 3) % 3;   /* group j: j, j + 1, j + 2 */
            g[i] = i % 3;
            x[i] = v == 0 ? (i % 2 ? -0.0 : 0.0) : (double)v / 4;
            cnt[v][g[i]]++;
        }
        double below = 0, rs[3] = {0}, ng[3] = {0}, ties = 0;
        for (size_t v = 0; v < 5; v++) {
            double t = cnt[v][0] + cnt[v][1] + cnt[v][2];
            for (size_t j = 0; j < 3; j++) {
                rs[j] += cnt[v][j] * (below + (t + 1) / 2);
                ng[j] += cnt[v][j];
            }
            ties += t * t * t - t;
            below += t;
        }
        double h = 0;
        for (size_t j = 0; j < 3; j++)
            h += rs[j] * rs[j] / ng[j];
        h = (12.0 / (N * (N + 1.0)) * h - 3.0 * (N + 1)) / (1 - ties / ((double)N * N * N - N));
        CHECK(kruskal_wallis(x, g, N, 3, &r, &err) == 0);
        CHECK_REL(r.statistic, h);
        CHECK(r.statistic > 1 && r.df == 2);
    }
    free(x);
    free(g);
}

int main(void)
{
    test_gof();
    test_gof_small();
    test_homogeneity();
    test_proportion();
    test_competency_hand();
    test_competency_significant();
    test_competency_exact();
    test_competency_errors();
    test_mcnemar_greater();
    test_mcnemar_two_sided_mde();
    test_paired_interval();
    test_subset_interval();
    test_kruskal();
    CHECK_DONE();
}
