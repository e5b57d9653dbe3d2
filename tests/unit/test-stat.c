/* Metrics and tests against values computed independently: the inputs
   tests/data/stat-*.tsv and the expected values tests/data/stat-ref.tsv
   were written by tests/ref/make-stat-ref.py with scikit-learn, SciPy,
   statsmodels and (for tails below 1e-300) mpmath; the versions are named
   in the first line of stat-ref.tsv. Each value must agree to 1e-9
   relative; the largest relative error seen is printed to the log. */
#include <config.h>

#include <float.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "check.h"
#include "stats/metrics.h"
#include "stats/nemenyi.h"
#include "stats/pairedtest.h"
#include "stats/statreport.h"
#include "stats/stattest.h"

#define REL_TOL 1e-9

static struct ref {
    char name[96];
    double value;
    bool used;
} refs[1024];
static size_t nrefs;
static double max_rel;
static char max_name[96];
static char data[1024];

static void load_ref_file(const char *file)
{
    char path[1200], line[256];
    snprintf(path, sizeof path, "%s/%s", data, file);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    while (fgets(line, sizeof line, fp)) {
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab)
            continue;
        *tab = '\0';
        size_t len = strlen(line);
        if (nrefs == sizeof refs / sizeof refs[0] || len >= sizeof refs[0].name) {
            fprintf(stderr, "too many references or too long a name: %s\n", line);
            exit(1);
        }
        memcpy(refs[nrefs].name, line, len + 1);
        refs[nrefs++].value = strtod(tab + 1, NULL);
    }
    fclose(fp);
}

static void load_refs(void)
{
    const char *top = getenv("top_srcdir");
    snprintf(data, sizeof data, "%s/tests/data", top ? top : ".");
    load_ref_file("stat-ref.tsv");
    CHECK(nrefs > 200);
    /* tests/ref/make-stat-paired-ref.py: the tests of issue 16 */
    load_ref_file("stat-paired-ref.tsv");
    CHECK(nrefs > 350);
}

static const char *path_of(const char *file)
{
    static char buf[4][1200];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", data, file);
    return buf[k];
}

/* The reference value NAME. */
static double ref(const char *name)
{
    for (size_t i = 0; i < nrefs; i++)
        if (strcmp(refs[i].name, name) == 0) {
            refs[i].used = true;
            return refs[i].value;
        }
    fprintf(stderr, "no reference value %s\n", name);
    check_failures++;
    return NAN;
}

/* got agrees with the reference NAME to tol relative (a reference 0
   must be met by 0 within 1e-15). */
static void near_tol(const char *name, double got, double tol)
{
    double want = ref(name);
    double rel = want != 0.0 ? fabs(got - want) / fabs(want) : fabs(got) * 1e6;
    if (!(rel <= tol)) {
        fprintf(stderr, "%s: got %.17g, want %.17g (relative error %.3g)\n", name,
                got, want, rel);
        check_failures++;
    }
    if (tol == REL_TOL && rel > max_rel) {
        max_rel = rel;
        snprintf(max_name, sizeof max_name, "%s", name);
    }
}

static void near(const char *name, double got)
{
    near_tol(name, got, REL_TOL);
}

static void nearf(double got, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void nearf(double got, const char *fmt, ...)
{
    char name[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    near(name, got);
}

static void load(pred_data *d, bool multi, int n, ...)
{
    char *paths[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        paths[i] = (char *)path_of(va_arg(ap, const char *));
    va_end(ap);
    tells_error err;
    tells_error_clear(&err);
    if (pred_load(d, paths, (size_t)n, multi, &err) < 0) {
        fprintf(stderr, "pred_load: %s:%ld: %s\n", err.file, err.line, err.msg);
        exit(1);
    }
}

static void check_metrics(const pred_data *d, const char *prefix,
                          const char *const *sys)
{
    for (size_t s = 0; sys[s]; s++) {
        metrics m;
        CHECK(metrics_compute(d, s, &m, NULL) == 0);
        const char *p = prefix, *y = sys[s];
        if (d->multi_label) {
            nearf(m.accuracy, "%s.%s.subset_accuracy", p, y);
            nearf(m.hamming_loss, "%s.%s.hamming_loss", p, y);
        } else {
            nearf(m.accuracy, "%s.%s.accuracy", p, y);
            nearf(m.kappa, "%s.%s.kappa", p, y);
            nearf(m.mcc, "%s.%s.mcc", p, y);
        }
        nearf(m.macro_precision, "%s.%s.macro_precision", p, y);
        nearf(m.macro_recall, "%s.%s.macro_recall", p, y);
        nearf(m.macro_f1, "%s.%s.macro_f1", p, y);
        nearf(m.micro_precision, "%s.%s.micro_precision", p, y);
        nearf(m.micro_recall, "%s.%s.micro_recall", p, y);
        nearf(m.micro_f1, "%s.%s.micro_f1", p, y);
        for (size_t c = 0; c < m.nclasses; c++) {
            const char *lab = vocab_str(d->labels, m.cls[c].label);
            nearf(m.cls[c].precision, "%s.%s.precision.%s", p, y, lab);
            nearf(m.cls[c].recall, "%s.%s.recall.%s", p, y, lab);
            nearf(m.cls[c].f1, "%s.%s.f1.%s", p, y, lab);
            nearf((double)m.cls[c].support, "%s.%s.support.%s", p, y, lab);
        }
        /* The tally gives the same numbers the bootstrap resamples use. */
        tally t;
        CHECK(tally_init(&t, vocab_size(d->labels)) == 0);
        tally_add_system(&t, d, s);
        CHECK(tally_metric(&t, METRIC_ACCURACY) == m.accuracy);
        CHECK(tally_metric(&t, METRIC_MACRO_F1) == m.macro_f1);
        CHECK(tally_metric(&t, METRIC_MICRO_F1) == m.micro_f1);
        tally_free(&t);
        metrics_free(&m);
    }
}

static void test_metrics(void)
{
    static const char *const abc[] = {"a", "b", "c", NULL}, *const ab[] = {"a", "b", NULL};
    pred_data d;
    /* b has other columns, in another order, and its rows shuffled; a never
       predicts neutral; c predicts a label that is never gold. */
    load(&d, false, 3, "stat-multi-a.tsv", "stat-multi-b.tsv", "stat-multi-c.tsv");
    CHECK(pred_n(&d) == 60 && d.nsys == 3);
    check_metrics(&d, "multi", abc);
    pred_free(&d);

    /* Binary; b only predicts not_entailment: MCC and kappa 0. */
    load(&d, false, 2, "stat-bin-a.tsv", "stat-bin-b.tsv");
    check_metrics(&d, "bin", ab);
    metrics m;
    CHECK(metrics_compute(&d, 0, &m, NULL) == 0);
    for (size_t c = 0; c < m.nclasses; c++)
        if (strcmp(vocab_str(d.labels, m.cls[c].label), "entailment") == 0)
            near("bin.a.binary_f1", m.cls[c].f1);
    metrics_free(&m);
    pred_free(&d);

    load(&d, true, 2, "stat-ml-a.tsv", "stat-ml-b.tsv");
    check_metrics(&d, "ml", ab);
    pred_free(&d);
}

static void test_mcnemar(void)
{
    pred_data d;
    load(&d, false, 2, "stat-multi-a.tsv", "stat-multi-b.tsv");
    long b = 0, c = 0;
    for (size_t i = 0; i < pred_n(&d); i++) {
        bool a_ok = pred_correct(&d, 0, i), b_ok = pred_correct(&d, 1, i);
        b += a_ok && !b_ok;
        c += !a_ok && b_ok;
    }
    pred_free(&d);
    near("mcnemar.ab.b", (double)b);
    near("mcnemar.ab.c", (double)c);
    test_result r;
    mcnemar_exact(b, c, &r);
    near("mcnemar.ab.exact_stat", r.statistic);
    near("mcnemar.ab.exact_p", r.p.p);
    mcnemar_chi2(b, c, &r);
    near("mcnemar.ab.chi2_stat", r.statistic);
    near("mcnemar.ab.chi2_p", r.p.p);
    CHECK(r.df == 1.0);

    /* b = 1100, c = 3: p about 1e-323, its log from the continued fraction */
    mcnemar_exact(1100, 3, &r);
    near("mcnemar.deep.exact_logp", r.p.log_p);
    mcnemar_chi2(1100, 3, &r);
    near("mcnemar.deep.chi2_stat", r.statistic);
    near("mcnemar.deep.chi2_logp", r.p.log_p);
    CHECK(r.p.p < 1e-200);

    near("binom.cdf.12.40", stat_binom_half_cdf(12, 40).p);
    near("binom.cdf.200.1000", stat_binom_half_cdf(200, 1000).p);

    /* Conventions: no discordant pairs, p 1; b = c, the corrected
       statistic floors at 0 (statsmodels gives 1 / (b + c)). */
    mcnemar_exact(0, 0, &r);
    CHECK(r.p.p == 1.0 && r.statistic == 0.0);
    mcnemar_chi2(0, 0, &r);
    CHECK(r.p.p == 1.0 && r.statistic == 0.0);
    mcnemar_chi2(5, 5, &r);
    CHECK(r.p.p == 1.0 && r.statistic == 0.0);
    mcnemar_exact(5, 5, &r);
    CHECK(r.p.p == 1.0);
}

static double *numbers(const char *file, const char *column, size_t *n)
{
    double *v;
    tells_error err;
    if (numbers_read(path_of(file), column, &v, n, &err) < 0) {
        fprintf(stderr, "numbers_read: %s:%ld: %s\n", err.file, err.line, err.msg);
        exit(1);
    }
    return v;
}

static void test_friedman(void)
{
    pred_data d;
    load(&d, false, 3, "stat-multi-a.tsv", "stat-multi-b.tsv", "stat-multi-c.tsv");
    size_t n = pred_n(&d);
    double *scores = malloc(n * 3 * sizeof *scores), rank[3];
    for (size_t i = 0; i < n; i++)
        for (size_t s = 0; s < 3; s++)
            scores[i * 3 + s] = pred_correct(&d, s, i);
    pred_free(&d);
    test_result r;
    CHECK(friedman_test(scores, n, 3, &r, rank, NULL) == 0);
    near("friedman.examples.stat", r.statistic);
    near("friedman.examples.p", r.p.p);
    CHECK(r.df == 2.0);
    for (int s = 0; s < 3; s++)
        nearf(rank[s], "friedman.examples.mean_rank.%d", s);
    free(scores);

    /* Per-seed scores, from files of numbers and from columns of a TSV. */
    static const char *const names[] = {"full", "hyp", "mid"};
    double *col[3], *file[3];
    size_t m = 0;
    for (int s = 0; s < 3; s++) {
        char f[64];
        snprintf(f, sizeof f, "stat-seeds-%s.txt", names[s]);
        file[s] = numbers(f, NULL, &m);
        CHECK(m == 8);
        col[s] = numbers("stat-seeds.tsv", names[s], &m);
        CHECK(m == 8);
        for (size_t i = 0; i < m; i++)
            CHECK(col[s][i] == file[s][i]);
    }
    scores = malloc(m * 3 * sizeof *scores);
    for (size_t i = 0; i < m; i++)
        for (int s = 0; s < 3; s++)
            scores[i * 3 + (size_t)s] = col[s][i];
    CHECK(friedman_test(scores, m, 3, &r, rank, NULL) == 0);
    near("friedman.scores.stat", r.statistic);
    near("friedman.scores.p", r.p.p);
    for (int s = 0; s < 3; s++)
        nearf(rank[s], "friedman.scores.mean_rank.%d", s);
    /* Every block a complete tie: statistic 0, p 1. */
    for (size_t i = 0; i < m * 3; i++)
        scores[i] = (double)(i / 3);
    CHECK(friedman_test(scores, m, 3, &r, rank, NULL) == 0);
    CHECK(r.statistic == 0.0 && r.p.p == 1.0 && rank[0] == 2.0);
    free(scores);
    for (int s = 0; s < 3; s++) {
        free(col[s]);
        free(file[s]);
    }
}

static void test_welch(void)
{
    static const char *const pairs[][2] = {{"full", "small"}, {"full", "mid"}};
    for (int k = 0; k < 2; k++) {
        char fx[64], fy[64];
        snprintf(fx, sizeof fx, "stat-seeds-%s.txt", pairs[k][0]);
        snprintf(fy, sizeof fy, "stat-seeds-%s.txt", pairs[k][1]);
        size_t nx, ny;
        double *x = numbers(fx, NULL, &nx), *y = numbers(fy, NULL, &ny);
        for (int a = ALT_TWO_SIDED; a <= ALT_LESS; a++) {
            test_result r;
            double mx, my;
            CHECK(welch_test(x, nx, y, ny, (alternative)a, &r, &mx, &my, NULL) == 0);
            const char *alt = alternative_name((alternative)a);
            nearf(r.statistic, "welch.%s-%s.%s.t", pairs[k][0], pairs[k][1], alt);
            nearf(r.df, "welch.%s-%s.%s.df", pairs[k][0], pairs[k][1], alt);
            nearf(r.p.p, "welch.%s-%s.%s.p", pairs[k][0], pairs[k][1], alt);
        }
        free(x);
        free(y);
    }
    double same[] = {1, 1, 1}, other[] = {2, 2};
    test_result r;
    double mx, my;
    CHECK(welch_test(same, 3, other, 2, ALT_TWO_SIDED, &r, &mx, &my, NULL) == -1);
}

static void test_bh(void)
{
    p_table t;
    tells_error err;
    CHECK(p_table_read(&t, path_of("stat-pvalues.tsv"), "p_value", &err) == 0);
    CHECK(t.m == t.n && t.n == 14);
    pvalue adj[14];
    bool reject[14];
    CHECK(bh_adjust(t.p, t.m, 0.05, adj, reject, NULL) == 0);
    for (size_t i = 0; i < t.m; i++) {
        nearf(adj[i].p, "bh.adj.%zu", i);
        nearf(reject[i] ? 1.0 : 0.0, "bh.reject.%zu", i);
    }
    p_table_free(&t);

    /* Below the smallest double: adj of 1e-400 is 3e-400 (rank 1 of 3). */
    pvalue p[3];
    CHECK(pvalue_parse("1e-400", &p[0]) == 0);
    CHECK(pvalue_parse("0.04", &p[1]) == 0);
    CHECK(pvalue_parse("0.01", &p[2]) == 0);
    CHECK(bh_adjust(p, 3, 0.05, adj, reject, NULL) == 0);
    CHECK_NEAR(adj[0].log_p, log(3.0) - 400.0 * log(10.0), 1e-9);
    CHECK_NEAR(adj[1].p, 0.04, 1e-15);
    CHECK_NEAR(adj[2].p, 0.015, 1e-15);
    CHECK(reject[0] && reject[1] && reject[2]);
    char buf[64];
    pvalue_format(adj[0], 2, buf, sizeof buf);
    CHECK_STR(buf, "3e-400");
}

static void test_tails(void)
{
    static const double chi2_p[][2] = {{3.84, 1}, {30, 4}, {0.5, 7}, {400, 3}};
    static const double chi2_log[][2] = {{1500, 3}, {3000, 1}, {5000, 10}, {1200, 2},
                                         {1180, 5}, {2e6, 1e6}, {1105, 2}};
    for (size_t i = 0; i < sizeof chi2_p / sizeof chi2_p[0]; i++)
        nearf(stat_chi2_sf(chi2_p[i][0], chi2_p[i][1]).p, "tail.chi2.%g.%g.p",
              chi2_p[i][0], chi2_p[i][1]);
    for (size_t i = 0; i < sizeof chi2_log / sizeof chi2_log[0]; i++)
        nearf(stat_chi2_sf(chi2_log[i][0], chi2_log[i][1]).log_p,
              "tail.chi2.%g.%g.logp", chi2_log[i][0], chi2_log[i][1]);
    static const double z[] = {1.5, 5, 40, 38, 33};
    for (size_t i = 0; i < sizeof z / sizeof z[0]; i++)
        nearf(stat_norm_sf(z[i]).log_p, "tail.norm.%g.logp", z[i]);
    near("tail.norm.1.5.p", stat_norm_sf(1.5).p);
    static const double t_p[][2] = {{2.1, 5}, {-1.3, 12.5}, {40, 3}};
    static const double t_log[][2] = {{1e90, 3}, {100, 300}, {80, 500}, {1e200, 2}};
    for (size_t i = 0; i < sizeof t_p / sizeof t_p[0]; i++)
        nearf(stat_t_sf(t_p[i][0], t_p[i][1]).p, "tail.t.%g.%g.p", t_p[i][0], t_p[i][1]);
    for (size_t i = 0; i < sizeof t_log / sizeof t_log[0]; i++)
        nearf(stat_t_sf(t_log[i][0], t_log[i][1]).log_p, "tail.t.%g.%g.logp",
              t_log[i][0], t_log[i][1]);

    /* The continued fractions agree with GSL where GSL does not underflow. */
    static const double gq[][2] = {{0.5, 30}, {1.5, 40}, {5, 60}, {50, 120}};
    for (size_t i = 0; i < sizeof gq / sizeof gq[0]; i++) {
        double want = log(gsl_sf_gamma_inc_Q(gq[i][0], gq[i][1]));
        CHECK_NEAR(stat_log_gamma_q(gq[i][0], gq[i][1]), want, 1e-12 * fabs(want));
    }
    static const double bi[][3] = {{1.5, 0.5, 0.01}, {150, 0.5, 0.2}, {200, 41, 0.5}};
    for (size_t i = 0; i < sizeof bi / sizeof bi[0]; i++) {
        double want = log(gsl_sf_beta_inc(bi[i][0], bi[i][1], bi[i][2]));
        CHECK_NEAR(stat_log_beta_inc(bi[i][0], bi[i][1], bi[i][2], log(bi[i][2]),
                                     log1p(-bi[i][2])),
                   want, 1e-12 * fabs(want));
    }
}

static void test_contrast(void)
{
    pred_data d;
    load(&d, false, 3, "stat-multi-a.tsv", "stat-multi-b.tsv", "stat-multi-c.tsv");
    contrast_groups g;
    tells_error err;
    CHECK(contrast_load(&g, path_of("stat-groups.tsv"), &d, &err) == 0);
    CHECK(g.ngroups == 8);
    static const char *const sys[] = {"a", "b", "c"};
    for (size_t s = 0; s < 3; s++) {
        contrast_result r;
        contrast_eval(&g, &d, s, &r);
        nearf((double)r.consistent / (double)r.groups, "contrast.%s.consistency", sys[s]);
        nearf((double)r.originals_correct / (double)r.groups,
              "contrast.%s.original_accuracy", sys[s]);
        nearf((double)r.contrasts_correct / (double)r.contrasts,
              "contrast.%s.contrast_accuracy", sys[s]);
    }
    contrast_free(&g);
    pred_free(&d);
}

static void test_resampling(void)
{
    pred_data d;
    load(&d, false, 3, "stat-multi-a.tsv", "stat-multi-b.tsv", "stat-multi-c.tsv");
    typedef int (*test_fn)(const pred_data *, size_t, size_t, metric_kind, size_t,
                           unsigned long, alternative, resample_result *, tells_error *);
    static const test_fn fns[] = {paired_bootstrap, permutation_test};
    for (int f = 0; f < 2; f++)
        for (int k = METRIC_ACCURACY; k <= METRIC_MICRO_F1; k++) {
            resample_result r1, r2, r3;
            /* The same seed gives the same resamples. */
            CHECK(fns[f](&d, 1, 2, (metric_kind)k, 2000, 7, ALT_TWO_SIDED, &r1, NULL) == 0);
            CHECK(fns[f](&d, 1, 2, (metric_kind)k, 2000, 7, ALT_TWO_SIDED, &r2, NULL) == 0);
            CHECK(r1.count == r2.count && r1.p.p == r2.p.p && r1.delta == r2.delta);
            CHECK(r1.p.p == ((double)r1.count + 1.0) / 2001.0);
            /* b (accuracy 0.88) is clearly better than a (0.57). */
            CHECK(fns[f](&d, 1, 0, (metric_kind)k, 2000, 3, ALT_TWO_SIDED, &r3, NULL) == 0);
            CHECK(r3.delta > 0.25 && r3.p.p < 0.01);
            CHECK(fns[f](&d, 1, 0, (metric_kind)k, 2000, 3, ALT_GREATER, &r3, NULL) == 0);
            CHECK(r3.p.p < 0.01);
            CHECK(fns[f](&d, 1, 0, (metric_kind)k, 2000, 3, ALT_LESS, &r3, NULL) == 0);
            CHECK(r3.p.p > 0.99);
            CHECK(fns[f](&d, 0, 1, (metric_kind)k, 2000, 3, ALT_LESS, &r3, NULL) == 0);
            CHECK(r3.delta < -0.25 && r3.p.p < 0.01);
            /* A system against itself: every resample ties, p = 1. */
            CHECK(fns[f](&d, 0, 0, (metric_kind)k, 500, 1, ALT_TWO_SIDED, &r3, NULL) == 0);
            CHECK(r3.delta == 0.0 && r3.count == 500 && r3.p.p == 1.0);
        }
    resample_result r;
    CHECK(paired_bootstrap(&d, 1, 2, METRIC_ACCURACY, 2000, 7, ALT_TWO_SIDED, &r, NULL) == 0);
    metrics m;
    CHECK(metrics_compute(&d, 1, &m, NULL) == 0);
    CHECK(r.a_value == m.accuracy);
    metrics_free(&m);
    pred_free(&d);

    load(&d, true, 2, "stat-ml-a.tsv", "stat-ml-b.tsv");
    resample_result r1, r2;
    CHECK(permutation_test(&d, 0, 1, METRIC_MACRO_F1, 1000, 2, ALT_TWO_SIDED, &r1, NULL) == 0);
    CHECK(permutation_test(&d, 0, 1, METRIC_MACRO_F1, 1000, 2, ALT_TWO_SIDED, &r2, NULL) == 0);
    CHECK(r1.count == r2.count && r1.p.p < 0.05);
    CHECK(paired_bootstrap(&d, 1, 1, METRIC_MICRO_F1, 300, 2, ALT_TWO_SIDED, &r1, NULL) == 0);
    CHECK(r1.p.p == 1.0);
    pred_free(&d);
}

static void test_format(void)
{
    char buf[64];
    static const struct {
        double p;
        int digits;
        const char *want;
    } cases[] = {
        {0.032, 2, "0.032"}, {1.0, 2, "1"}, {0.5, 2, "0.5"}, {0.04999, 2, "0.05"},
        {1.1e-190, 2, "1.1e-190"}, {5e-5, 2, "5e-05"}, {0.00012345, 3, "0.000123"},
        {0.0, 2, "0"}, {0.123456, 4, "0.1235"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pvalue_format(pvalue_from_p(cases[i].p), cases[i].digits, buf, sizeof buf);
        CHECK_STR(buf, cases[i].want);
    }
    /* From the log: the same format below 1e-308. */
    static const struct {
        double mant;
        int e10, digits;
        const char *want;
    } logs[] = {
        {1.1, -400, 2, "1.1e-400"}, {9.96, -400, 2, "1e-399"}, {1.0, -1000, 2, "1e-1000"},
        {2.345, -300, 3, "2.35e-300"}, {3.14159, -260, 4, "3.142e-260"},
        {1.2, -120000, 2, "1.2e-120000"},
    };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        double lp = log(logs[i].mant) + logs[i].e10 * log(10.0);
        pvalue_format(pvalue_from_log(lp), logs[i].digits, buf, sizeof buf);
        CHECK_STR(buf, logs[i].want);
    }
    /* Tiny p-values print the same through either path. */
    pvalue_format(pvalue_from_log(log(1.1e-260)), 2, buf, sizeof buf);
    CHECK_STR(buf, "1.1e-260");

    pvalue p;
    CHECK(pvalue_parse("0.05", &p) == 0 && p.p == 0.05);
    CHECK(pvalue_parse("1", &p) == 0 && p.p == 1.0 && p.log_p == 0.0);
    CHECK(pvalue_parse("0", &p) == 0 && p.p == 0.0 && isinf(p.log_p));
    CHECK(pvalue_parse("1.1e-190", &p) == 0 && p.p == 1.1e-190);
    CHECK(pvalue_parse("2.5E-400", &p) == 0 && p.p == 0.0);
    CHECK_NEAR(p.log_p, log(2.5) - 400 * log(10.0), 1e-12);
    CHECK(pvalue_parse(".5", &p) == 0 && p.p == 0.5);
    CHECK(pvalue_parse("abc", &p) == -1);
    CHECK(pvalue_parse("", &p) == -1);
    CHECK(pvalue_parse("0.5x", &p) == -1);
    CHECK(pvalue_parse("1e", &p) == -1);
    CHECK(pvalue_parse(" 0.5", &p) == -1);
    CHECK(pvalue_parse("nan", &p) == -2);
    CHECK(pvalue_parse("1.5", &p) == -2);
    CHECK(pvalue_parse("-0.1", &p) == -2);
    CHECK(pvalue_parse("1e400", &p) == -2);
}

/* Multi-label files whose sets are all empty: no label array behind
   them (this once passed NULL to memcpy and memcmp). */
static void test_empty_sets(void)
{
    char a[256], b[256];
    char *paths[] = {(char *)check_temp_file(a, sizeof a, "id\tgold\tpredicted\n1\t\t\n2\t\t\n"),
                     (char *)check_temp_file(b, sizeof b, "id\tgold\tpredicted\n2\t\t\n1\t\t\n")};
    pred_data d;
    tells_error err;
    CHECK(pred_load(&d, paths, 2, true, &err) == 0);
    CHECK(pred_n(&d) == 2 && vocab_size(d.labels) == 0);
    CHECK(pred_correct(&d, 0, 0) && pred_correct(&d, 1, 1));
    metrics m;
    CHECK(metrics_compute(&d, 1, &m, &err) == 0);
    CHECK(m.accuracy == 1.0 && m.nclasses == 0 && m.macro_f1 == 0.0);
    metrics_free(&m);
    resample_result r;
    CHECK(permutation_test(&d, 0, 1, METRIC_MACRO_F1, 10, 1, ALT_TWO_SIDED, &r, NULL) == 0);
    CHECK(r.delta == 0.0 && r.p.p == 1.0);
    pred_free(&d);
    unlink(a);
    unlink(b);
}

/* The text a report writes, or NULL when it fails (err set). */
static char *report(int (*run)(const statreport_settings *, char *const *, size_t, FILE *,
                               tells_error *),
                    const statreport_settings *st, char *const *files, size_t n,
                    tells_error *err)
{
    char *buf = NULL;
    size_t size;
    FILE *fp = open_memstream(&buf, &size);
    tells_error_clear(err);
    int rc = run(st, files, n, fp, err);
    fclose(fp);
    if (rc == 0)
        return buf;
    free(buf);
    return NULL;
}

/* Wilcoxon and the paired t-test against SciPy, in both regimes. */
static void test_paired(void)
{
    static const char *const sets[] = {"exact", "ties", "n50", "n51"};
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        char file[64];
        snprintf(file, sizeof file, "stat-paired-%s.tsv", sets[k]);
        size_t nx, ny;
        double *x = numbers(file, "x", &nx), *y = numbers(file, "y", &ny);
        CHECK(nx == ny);
        const char *p = sets[k];
        for (int a = ALT_TWO_SIDED; a <= ALT_LESS; a++) {
            const char *alt = alternative_name((alternative)a);
            wilcoxon_result w;
            CHECK(wilcoxon_test(x, y, nx, (alternative)a, true, &w, NULL) == 0);
            if (a == ALT_TWO_SIDED) {
                nearf(w.exact, "wilcoxon.%s.exact", p);
                nearf((double)w.zeros, "wilcoxon.%s.zeros", p);
            }
            nearf(w.t.statistic, "wilcoxon.%s.%s.stat", p, alt);
            nearf(w.t.p.p, "wilcoxon.%s.%s.p", p, alt);
            if (!w.exact) {
                nearf(w.z, "wilcoxon.%s.%s.z", p, alt);
                CHECK(wilcoxon_test(x, y, nx, (alternative)a, false, &w, NULL) == 0);
                nearf(w.t.p.p, "wilcoxon.%s.%s.nocc.p", p, alt);
                nearf(w.z, "wilcoxon.%s.%s.nocc.z", p, alt);
            }
            paired_t_result t;
            CHECK(paired_t_test(x, y, nx, (alternative)a, &t, NULL) == 0);
            nearf(t.t.statistic, "paired_t.%s.%s.t", p, alt);
            nearf(t.t.p.p, "paired_t.%s.%s.p", p, alt);
            if (a == ALT_TWO_SIDED)
                nearf(t.t.df, "paired_t.%s.df", p);
        }
        free(x);
        free(y);
    }
    /* The exact null distribution of R+ for m = 3: sums 0..6 with counts
       1 1 1 2 1 1 1 of 8. */
    double le, ge;
    CHECK(wilcoxon_exact_tails(3, 3.0, &le, &ge) == 0);
    CHECK(le == 5.0 / 8.0 && ge == 5.0 / 8.0);
    CHECK(wilcoxon_exact_tails(3, 0.0, &le, &ge) == 0 && le == 1.0 / 8.0 && ge == 1.0);
    /* Conventions: every difference zero and too few pairs are data
       errors; one nonzero difference is exact with p 1. */
    tells_error err;
    double a[3] = {1, 2, 3}, b[3] = {1, 2, 3}, c[3] = {1, 2, 4};
    wilcoxon_result w;
    CHECK(wilcoxon_test(a, b, 3, ALT_TWO_SIDED, true, &w, &err) < 0 &&
          err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "every difference is zero: the signed-rank test is undefined");
    CHECK(wilcoxon_test(a, c, 3, ALT_TWO_SIDED, true, &w, NULL) == 0);
    CHECK(!w.exact && w.zeros == 2);   /* zeros: the normal approximation */
    paired_t_result t;
    CHECK(paired_t_test(a, c, 1, ALT_TWO_SIDED, &t, &err) < 0);
    CHECK_STR(err.msg, "the paired t-test needs at least 2 pairs, not 1");
    double d[3] = {2, 3, 4};
    CHECK(paired_t_test(a, d, 3, ALT_TWO_SIDED, &t, &err) < 0);
    CHECK_STR(err.msg, "the differences have no variance: the t statistic is undefined");
}

/* Friedman without the tie correction and Nemenyi on data with the mean
   ranks of Demsar's (2006) worked example; the range distribution
   against SciPy and Demsar's Table 5. */
static void test_rank_posthoc(void)
{
    static const char *const sys[] = {"c45", "c45m", "c45cf", "c45mcf"};
    double *col[4];
    size_t n = 0;
    for (int j = 0; j < 4; j++)
        col[j] = numbers("stat-demsar.tsv", sys[j], &n);
    CHECK(n == 14);
    double *scores = malloc(n * 4 * sizeof *scores), rank[4];
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 4; j++)
            scores[i * 4 + (size_t)j] = col[j][i];
    test_result r;
    CHECK(friedman_test_ties(scores, n, 4, false, &r, rank, NULL) == 0);
    near("demsar.friedman.uncorrected.stat", r.statistic);
    near("demsar.friedman.uncorrected.p", r.p.p);
    CHECK(fabs(r.statistic - 9.28) < 0.005);   /* as Demsar prints it */
    CHECK(friedman_test_ties(scores, n, 4, true, &r, rank, NULL) == 0);
    near("demsar.friedman.corrected.stat", r.statistic);
    near("demsar.friedman.corrected.p", r.p.p);
    for (int j = 0; j < 4; j++)
        nearf(rank[j], "demsar.mean_rank.%d", j);
    /* SciPy's quantile is good to about 1e-7 relative. */
    near_tol("demsar.nemenyi.cd.0.05", nemenyi_cd(0.05, 4, n), 1e-6);
    near_tol("demsar.nemenyi.cd.0.1", nemenyi_cd(0.10, 4, n), 1e-6);
    CHECK(fabs(nemenyi_cd(0.05, 4, n) - 1.25) < 0.005);
    CHECK(fabs(nemenyi_cd(0.10, 4, n) - 1.12) < 0.005);
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++) {
            nemenyi_pair(rank[a], rank[b], 4, n, &r);
            nearf(r.p.p, "demsar.nemenyi.p.%d.%d", a, b);
        }
    free(scores);
    for (int j = 0; j < 4; j++)
        free(col[j]);

    static const size_t ks[] = {2, 3, 4, 5, 7, 10, 20, 50};
    static const double qs[] = {0.5, 2.0, 3.5, 6.0};
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
        for (int a = 0; a < 2; a++) {
            double alpha = a ? 0.10 : 0.05;
            char name[64];
            snprintf(name, sizeof name, "range.q.%zu.%g", ks[i], alpha);
            near_tol(name, range_quantile(alpha, ks[i]), 1e-6);
        }
        for (size_t j = 0; j < sizeof qs / sizeof *qs; j++)
            nearf(range_sf(qs[j], ks[i]), "range.sf.%zu.%g", ks[i], qs[j]);
    }
    /* k = 2: the range of two normals is |N(0, 2)|, so q = sqrt(2) z. */
    CHECK_NEAR(nemenyi_q_alpha(0.05, 2), 1.959963984540054, 1e-12);
    /* Demsar (2006), Table 5, printed to 3 decimals (k = 2..10). */
    static const double table5[2][9] = {
        {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164},
        {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920}};
    for (int a = 0; a < 2; a++)
        for (size_t k = 2; k <= 10; k++)
            CHECK_NEAR(nemenyi_q_alpha(a ? 0.10 : 0.05, k), table5[a][k - 2], 1e-3);

    /* Far in the tail, without a cap on q (it stopped at 40: alpha 1e-250
       gave the q of about 1e-176): quantiles from mpmath's quadrature of
       the same integral at 30 digits more than alpha has zeros, the
       difference of powers taken directly (tests/ref/make-range-tail-ref.py;
       for k = 2 also the closed form erfc(q / 2) = alpha). tells agrees
       to 5e-14 relative at every alpha and k = 2, 3, 10, 50 tried. */
    static const struct { double alpha; size_t k; double q; } tail[] = {
        {1e-10, 3, 9.3776845374316584},     {1e-50, 50, 21.842411079950688},
        {1e-100, 10, 30.38222777575693},    {1e-180, 2, 40.540477788865444},
        {1e-180, 3, 40.594574359290981},    {1e-250, 3, 47.87467849843436},
        {1e-250, 50, 48.124966029102688},   {1e-300, 10, 52.563874323946281},
        {2.3e-308, 2, 53.085270040216022},  {2.3e-308, 10, 53.228392710519925},
    };
    for (size_t i = 0; i < sizeof tail / sizeof *tail; i++) {
        double q = range_quantile(tail[i].alpha, tail[i].k);
        if (!(fabs(q - tail[i].q) <= 1e-12 * tail[i].q)) {
            fprintf(stderr, "range_quantile(%g, %zu) = %.17g, want %.17g\n", tail[i].alpha,
                    tail[i].k, q, tail[i].q);
            check_failures++;
        }
    }
    /* Below the smallest double the log keeps the digits: for k = 3 and
       q = 2 sqrt(2 d), P(R > q) = 3 erfc(sqrt(d)) up to e^(-q^2 / 12)
       (the pairs' events overlap that little): logs from mpmath. */
    CHECK_NEAR(range_log_sf(89.442719099991588, 3), -2003.27445372797, 1e-9);
    CHECK_NEAR(range_log_sf(44.721359549995794, 3), -502.582054215714, 1e-9);
    CHECK(range_sf(89.442719099991588, 3) == 0.0);
    /* The ends: q = 0 for alpha 1, and P(R > 0) = 1. */
    CHECK(range_quantile(1.0, 5) == 0.0);
    CHECK(range_log_sf(0.0, 5) == 0.0);
}

/* Cochran's Q and McNemar without the continuity correction on the
   worked example of mlxtend's user guide. */
static void test_cochran(void)
{
    static const char *const sys[] = {"m1", "m2", "m3"};
    double *col[3];
    size_t n = 0;
    for (int j = 0; j < 3; j++)
        col[j] = numbers("stat-cochran.tsv", sys[j], &n);
    CHECK(n == 100);
    unsigned char *ok = malloc(n * 3);
    long b = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 3; j++)
            ok[i * 3 + (size_t)j] = col[j][i] == 0.0;
        b += ok[i * 3] && !ok[i * 3 + 1];
        c += !ok[i * 3] && ok[i * 3 + 1];
    }
    test_result r;
    CHECK(cochran_q_test(ok, n, 3, &r, NULL) == 0);
    near("cochran.q", r.statistic);
    near("cochran.p", r.p.p);
    CHECK(r.df == 2.0);
    near("mcnemar.uncorrected.b", (double)b);
    near("mcnemar.uncorrected.c", (double)c);
    mcnemar_chi2_uncorrected(b, c, &r);
    near("mcnemar.uncorrected.stat", r.statistic);
    near("mcnemar.uncorrected.p", r.p.p);
    /* Cochran's Q of two systems is McNemar's uncorrected chi-squared. */
    unsigned char *two = malloc(n * 2);
    for (size_t i = 0; i < n; i++) {
        two[i * 2] = ok[i * 3];
        two[i * 2 + 1] = ok[i * 3 + 1];
    }
    test_result q2;
    CHECK(cochran_q_test(two, n, 2, &q2, NULL) == 0);
    CHECK_NEAR(q2.statistic, r.statistic, 1e-12);
    /* Every block all right or all wrong: statistic 0, p 1. */
    memset(ok, 1, n * 3);
    CHECK(cochran_q_test(ok, n, 3, &r, NULL) == 0 && r.statistic == 0.0 && r.p.p == 1.0);
    mcnemar_chi2_uncorrected(0, 0, &r);
    CHECK(r.statistic == 0.0 && r.p.p == 1.0);
    free(ok);
    free(two);
    for (int j = 0; j < 3; j++)
        free(col[j]);
}

/* A fixed label set: the averages divide by it, labels outside it are
   errors. */
static void test_fixed_labels(void)
{
    char path[256];
    check_temp_file(path, sizeof path, "id\tgold\tpredicted\n1\ta,b\ta,b\n2\tc,d\tc\n3\te\te\n");
    char *files[1] = {path};
    label_set ls;
    tells_error err;
    CHECK(label_set_parse(&ls, "a,b,c,d,e,f", &err) == 0 && ls.n == 6);
    pred_data d;
    CHECK(pred_load_fixed(&d, files, 1, true, &ls, &err) == 0);
    metrics m;
    CHECK(metrics_compute(&d, 0, &m, &err) == 0);
    /* one error (d missed) over 3 examples and 6 labels: 1/18 */
    CHECK_NEAR(m.hamming_loss, 1.0 / 18.0, 1e-15);
    CHECK(m.nclasses == 6);
    CHECK_NEAR(m.macro_f1, (1 + 1 + 1 + 0 + 1 + 0) / 6.0, 1e-15);
    tally t;
    CHECK(tally_init_for(&t, &d) == 0 && t.fixed);
    tally_add_system(&t, &d, 0);
    CHECK(tally_metric(&t, METRIC_MACRO_F1) == m.macro_f1);
    tally_free(&t);
    metrics_free(&m);
    pred_free(&d);
    /* without it: the 5 labels that occur, 1/15 */
    CHECK(pred_load(&d, files, 1, true, &err) == 0);
    CHECK(metrics_compute(&d, 0, &m, &err) == 0);
    CHECK_NEAR(m.hamming_loss, 1.0 / 15.0, 1e-15);
    CHECK(m.nclasses == 5);
    metrics_free(&m);
    pred_free(&d);
    label_set_free(&ls);
    CHECK(label_set_parse(&ls, "a,b", &err) == 0);
    CHECK(pred_load_fixed(&d, files, 1, true, &ls, &err) < 0 && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "gold label 'c' is not one of --labels");
    CHECK(err.line == 3);
    label_set_free(&ls);
    CHECK(label_set_parse(&ls, "a,b,a", &err) < 0 && err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "--labels: label 'a' given twice");
    CHECK(label_set_parse(&ls, "a,", &err) < 0);
    CHECK_STR(err.msg, "--labels: empty label in the list");
    CHECK(label_set_parse(&ls, "x,y", &err) == 0);
    CHECK(pred_load_fixed(&d, files, 1, false, &ls, &err) < 0);
    CHECK_STR(err.msg, "gold label 'a,b' is not one of --labels");
    label_set_free(&ls);
    unlink(path);
}

/* What the shell tests cannot reach: the reports' own checks of what
   the program checks first, and the kinds of their errors. */
static void test_statreport(void)
{
    statreport_settings st;
    statreport_defaults(&st);
    CHECK(st.samples == 10000 && st.seed == 1 && st.alpha == 0.05 && st.digits == 2);
    tells_error err;
    char *out, x[256], y[256];
    char *files[3] = {(char *)check_temp_file(x, sizeof x, "1\n1\n"),
                      (char *)check_temp_file(y, sizeof y, "seed\tacc\tf1\n1\t0.5\t2\n"
                                        "2\t0.7\t2\n3\t0.6\t2\n"), NULL};

    CHECK(!report(statreport_metrics, &st, files, 0, &err) && err.kind == TELLS_ERR_USAGE);
    CHECK(!report(statreport_friedman, &st, files, 2, &err) && err.kind == TELLS_ERR_USAGE);
    CHECK(!report(statreport_welch, &st, files, 1, &err) && err.kind == TELLS_ERR_USAGE);
    /* Zero variance in both is about the data, not a file. */
    char *ones[2] = {files[0], files[0]};
    CHECK(!report(statreport_welch, &st, ones, 2, &err) && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "both samples have zero variance: the t statistic is undefined");
    CHECK(err.file[0] == '\0');
    /* Two columns of one file, each named in the detail. */
    st.column[0] = "acc";
    st.column[1] = "f1";
    st.ncolumns = 2;
    CHECK((out = report(statreport_welch, &st, files + 1, 1, &err)) != NULL);
    char want[600];
    snprintf(want, sizeof want, "a=%s[acc] b=%s[f1] n_a=3 n_b=3", y, y);
    static const char head[] = "test\tstatistic\tdf\tp_value\tdetail\nwelch\t";
    CHECK(out && strncmp(out, head, strlen(head)) == 0 && strstr(out, want));
    free(out);
    CHECK(friedman_test((const double[]){1, 2}, 1, 1, &(test_result){0},
                        (double[1]){0}, &err) < 0 && err.kind == TELLS_ERR_USAGE);
    unlink(x);
    unlink(y);
}

int main(void)
{
    load_refs();
    test_metrics();
    test_mcnemar();
    test_friedman();
    test_welch();
    test_bh();
    test_tails();
    test_contrast();
    test_resampling();
    test_format();
    test_empty_sets();
    test_statreport();
    test_paired();
    test_rank_posthoc();
    test_cochran();
    test_fixed_labels();
    for (size_t i = 0; i < nrefs; i++)
        if (!refs[i].used) {
            fprintf(stderr, "reference value %s not checked\n", refs[i].name);
            check_failures++;
        }
    printf("%zu reference values, largest relative error %.3g (%s)\n", nrefs,
           max_rel, max_name);
    CHECK_DONE();
}
