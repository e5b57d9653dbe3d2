#include <config.h>
#include "stats/statreport.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "stats/nemenyi.h"
#include "stats/pairedtest.h"

/* Room for a detail field: several file names and numbers. */
enum { DETAIL_MAX = 8192 };

void statreport_defaults(statreport_settings *s)
{
    memset(s, 0, sizeof *s);
    s->metric = METRIC_ACCURACY;
    s->samples = 10000;
    s->seed = 1;
    s->alt = ALT_TWO_SIDED;
    s->alpha = 0.05;
    s->digits = 2;
}

int statreport_metrics(const statreport_settings *s, char *const *files, size_t nfiles,
                       FILE *fp, tells_error *err)
{
    if (nfiles == 0)
        return tells_error_usage(err, "no prediction file");
    pred_data d;
    if (pred_load_fixed(&d, files, nfiles, s->multi, s->labels, err) < 0)
        return -1;
    int rc = 0;
    metrics_write_header(fp);
    for (size_t sys = 0; sys < d.nsys && rc == 0; sys++) {
        metrics m;
        if ((rc = metrics_compute(&d, sys, &m, err)) == 0) {
            metrics_write(fp, &d, sys, &m, s->details);
            metrics_free(&m);
        }
    }
    pred_free(&d);
    return rc;
}

int statreport_contrast(const statreport_settings *s, char *const *files, size_t nfiles,
                        FILE *fp, tells_error *err)
{
    if (nfiles == 0 || !s->groups)
        return tells_error_usage(err, "contrast sets need a groups file and a "
                                 "prediction file");
    pred_data d;
    if (pred_load(&d, files, nfiles, s->multi, err) < 0)
        return -1;
    contrast_groups g;
    if (contrast_load(&g, s->groups, &d, err) < 0) {
        pred_free(&d);
        return -1;
    }
    metrics_write_header(fp);
    for (size_t sys = 0; sys < d.nsys; sys++) {
        contrast_result r;
        contrast_eval(&g, &d, sys, &r);
        contrast_write(fp, &d, sys, &r);
    }
    contrast_free(&g);
    pred_free(&d);
    return 0;
}

int statreport_mcnemar(const statreport_settings *s, char *const *files, FILE *fp,
                       tells_error *err)
{
    pred_data d;
    if (pred_load(&d, files, 2, s->multi, err) < 0)
        return -1;
    long b = 0, c = 0;
    size_t n = pred_n(&d);
    for (size_t i = 0; i < n; i++) {
        bool a_ok = pred_correct(&d, 0, i), b_ok = pred_correct(&d, 1, i);
        b += a_ok && !b_ok;
        c += !a_ok && b_ok;
    }
    char detail[DETAIL_MAX];
    test_result r;
    test_write_header(fp);
    mcnemar_exact(b, c, &r);
    snprintf(detail, sizeof detail, "a=%s b=%s a_only=%ld b_only=%ld n=%zu "
             "alternative=two-sided", d.names[0], d.names[1], b, c, n);
    test_write(fp, "mcnemar_exact", r.statistic, r.df, &r.p, s->digits, detail);
    if (s->no_continuity)
        mcnemar_chi2_uncorrected(b, c, &r);
    else
        mcnemar_chi2(b, c, &r);
    snprintf(detail, sizeof detail, "a=%s b=%s a_only=%ld b_only=%ld n=%zu "
             "correction=%s alternative=two-sided", d.names[0], d.names[1], b, c, n,
             s->no_continuity ? "none" : "continuity");
    test_write(fp, "mcnemar_chi2", r.statistic, r.df, &r.p, s->digits, detail);
    pred_free(&d);
    return 0;
}

int statreport_resample(const statreport_settings *s, resample_kind kind,
                        char *const *files, FILE *fp, tells_error *err)
{
    pred_data d;
    if (pred_load_fixed(&d, files, 2, s->multi, s->labels, err) < 0)
        return -1;
    resample_result r;
    int rc = kind == RESAMPLE_BOOTSTRAP
                 ? paired_bootstrap(&d, 0, 1, s->metric, s->samples, s->seed, s->alt, &r, err)
                 : permutation_test(&d, 0, 1, s->metric, s->samples, s->seed, s->alt, &r, err);
    if (rc < 0) {
        pred_free(&d);
        return -1;
    }
    char detail[DETAIL_MAX];
    int used = snprintf(detail, sizeof detail, "metric=%s%s a=%s b=%s a_value=%.6f "
                        "b_value=%.6f n=%zu samples=%zu seed=%lu count=%zu alternative=%s",
                        s->multi && s->metric == METRIC_ACCURACY ? "subset_" : "",
                        metric_name(s->metric), d.names[0], d.names[1], r.a_value,
                        r.b_value, pred_n(&d), r.samples, s->seed, r.count,
                        alternative_name(s->alt));
    /* No resample as extreme: p is the floor 1/(B + 1), a bound. */
    if (r.count == 0 && used >= 0 && (size_t)used < sizeof detail)
        snprintf(detail + used, sizeof detail - (size_t)used, " p_bound=<1/%zu",
                 r.samples + 1);
    test_write_header(fp);
    test_write(fp, kind == RESAMPLE_BOOTSTRAP ? "bootstrap" : "permutation", r.delta,
               NAN, &r.p, s->digits, detail);
    pred_free(&d);
    return 0;
}

/* The column of file i of a test reading numbers. */
static const char *column_of(const statreport_settings *s, int i)
{
    return s->ncolumns == 2 ? s->column[i] : s->column[0];
}

/* A file name with the column read from it: "runs.tsv[acc]". */
static void name_with_column(char *buf, size_t size, const char *path,
                             const char *column)
{
    if (column)
        snprintf(buf, size, "%s[%s]", display_name(path), column);
    else
        snprintf(buf, size, "%s", display_name(path));
}

/* scores[block * k + system]: 1 where system got example block right. */
static int example_blocks(const statreport_settings *s, char *const *files, size_t k,
                          pred_data *d, double **scores, size_t *n, tells_error *err)
{
    if (pred_load(d, files, k, s->multi, err) < 0)
        return -1;
    *n = pred_n(d);
    if (!(*scores = array_new(*n * k, sizeof **scores)))
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < *n; i++)
        for (size_t sys = 0; sys < k; sys++)
            (*scores)[i * k + sys] = pred_correct(d, sys, i);
    return 0;
}

/* scores[block * k + system]: line block of the numbers of file system. */
static int number_blocks(const statreport_settings *s, char *const *files, size_t k,
                         double **scores, size_t *n, tells_error *err)
{
    int rc = 0;
    for (size_t sys = 0; sys < k && rc == 0; sys++) {
        double *v;
        size_t m;
        if ((rc = numbers_read(files[sys], s->column[0], &v, &m, err)) < 0)
            break;
        if (sys == 0) {
            *n = m;
            if (!(*scores = array_new(m * k, sizeof **scores)))
                rc = tells_error_nomem(err, NULL, 0);
        } else if (m != *n)
            rc = tells_error_set(err, display_name(files[sys]), 0,
                                 "%zu numbers, but %s has %zu (line j of every file is "
                                 "block j)", m, display_name(files[0]), *n);
        for (size_t i = 0; rc == 0 && i < *n; i++)
            (*scores)[i * k + sys] = v[i];
        free(v);
    }
    return rc;
}

int statreport_friedman(const statreport_settings *s, char *const *files, size_t k,
                        FILE *fp, tells_error *err)
{
    if (k < 3)
        return tells_error_usage(err, "Friedman's test compares at least 3 systems, "
                                 "not %zu", k);
    double *scores = NULL, *mean_rank = array_new(k, sizeof *mean_rank);
    size_t n = 0;
    pred_data d = {0};
    int rc = !mean_rank ? tells_error_nomem(err, NULL, 0)
             : s->scores ? number_blocks(s, files, k, &scores, &n, err)
                         : example_blocks(s, files, k, &d, &scores, &n, err);
    test_result r;
    if (rc == 0)
        rc = friedman_test_ties(scores, n, k, !s->no_ties, &r, mean_rank, err);
    if (rc == 0) {
        char detail[DETAIL_MAX];
        test_write_header(fp);
        snprintf(detail, sizeof detail, "blocks=%s n=%zu k=%zu ties=%s",
                 s->scores ? "scores" : "examples", n, k,
                 s->no_ties ? "uncorrected" : "corrected");
        test_write(fp, "friedman", r.statistic, r.df, &r.p, s->digits, detail);
        for (size_t sys = 0; sys < k; sys++) {
            char name[2048];
            name_with_column(name, sizeof name, s->scores ? files[sys] : d.names[sys],
                             s->scores ? s->column[0] : NULL);
            snprintf(detail, sizeof detail, "system=%s best=1", name);
            test_write(fp, "friedman_mean_rank", mean_rank[sys], NAN, NULL, s->digits,
                       detail);
        }
        if (s->nemenyi) {
            double q = nemenyi_q_alpha(s->alpha, k), cd = nemenyi_cd(s->alpha, k, n);
            snprintf(detail, sizeof detail, "alpha=%g q_alpha=%.6f k=%zu n=%zu", s->alpha,
                     q, k, n);
            test_write(fp, "nemenyi_cd", cd, NAN, NULL, s->digits, detail);
            for (size_t a = 0; a < k; a++)
                for (size_t b = a + 1; b < k; b++) {
                    char na[2048], nb[2048];
                    name_with_column(na, sizeof na, s->scores ? files[a] : d.names[a],
                                     s->scores ? s->column[0] : NULL);
                    name_with_column(nb, sizeof nb, s->scores ? files[b] : d.names[b],
                                     s->scores ? s->column[0] : NULL);
                    test_result pr;
                    nemenyi_pair(mean_rank[a], mean_rank[b], k, n, &pr);
                    snprintf(detail, sizeof detail, "a=%s b=%s mean_rank_a=%.6f "
                             "mean_rank_b=%.6f cd=%.6f differ=%s", na, nb, mean_rank[a],
                             mean_rank[b], cd, pr.statistic >= cd ? "yes" : "no");
                    test_write(fp, "nemenyi", pr.statistic, pr.df, &pr.p, s->digits,
                               detail);
                }
        }
    }
    pred_free(&d);
    free(scores);
    free(mean_rank);
    return rc;
}

int statreport_cochran(const statreport_settings *s, char *const *files, size_t k,
                       FILE *fp, tells_error *err)
{
    if (k < 3)
        return tells_error_usage(err, "Cochran's Q compares at least 3 systems, not %zu",
                                 k);
    pred_data d;
    if (pred_load(&d, files, k, s->multi, err) < 0)
        return -1;
    size_t n = pred_n(&d);
    unsigned char *correct = array_new(n * k, 1);
    int rc = correct ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < n; i++)
        for (size_t sys = 0; sys < k; sys++)
            correct[i * k + sys] = pred_correct(&d, sys, i);
    test_result r;
    if (rc == 0)
        rc = cochran_q_test(correct, n, k, &r, err);
    if (rc == 0) {
        char detail[DETAIL_MAX];
        snprintf(detail, sizeof detail, "blocks=examples n=%zu k=%zu", n, k);
        test_write_header(fp);
        test_write(fp, "cochran_q", r.statistic, r.df, &r.p, s->digits, detail);
    }
    free(correct);
    pred_free(&d);
    return rc;
}

/* Reads the two samples of a test of numbers: two files, or two columns
   of one (nfiles 1); each needs min numbers ("need at least MIN numbers
   for WHY"). */
static int two_samples(const statreport_settings *s, char *const *files, size_t nfiles,
                       size_t min, const char *why, double *v[2], size_t n[2],
                       char name[2][2048], tells_error *err)
{
    int rc = 0;
    v[0] = v[1] = NULL;
    n[0] = n[1] = 0;
    /* Two columns of one file are read in one pass: it may be stdin. */
    if (nfiles == 1)
        rc = numbers_read_columns(files[0], s->column, 2, v, n, err);
    for (int i = 0; i < 2 && rc == 0; i++) {
        const char *path = files[nfiles == 1 ? 0 : i];
        if (nfiles != 1)
            rc = numbers_read(path, column_of(s, i), &v[i], &n[i], err);
        if (rc == 0 && n[i] < min)
            rc = tells_error_set(err, display_name(path), 0,
                                 "need at least %zu numbers for %s, found %zu", min, why,
                                 n[i]);
        name_with_column(name[i], sizeof name[i], path, column_of(s, i));
    }
    return rc;
}

int statreport_paired(const statreport_settings *s, paired_kind kind, char *const *files,
                      size_t nfiles, FILE *fp, tells_error *err)
{
    if (nfiles != 2 && !(nfiles == 1 && s->ncolumns == 2))
        return tells_error_usage(err, "a paired test compares two files, or two columns "
                                 "of one");
    double *v[2];
    size_t n[2];
    char name[2][2048];
    int rc = two_samples(s, files, nfiles, kind == PAIRED_T ? 2 : 1,
                         kind == PAIRED_T ? "a variance" : "a test", v, n, name, err);
    if (rc == 0 && n[0] != n[1])
        rc = tells_error_set(err, name[1], 0, "%zu numbers, but %s has %zu (pair j is "
                             "line j of both)", n[1], name[0], n[0]);
    char detail[DETAIL_MAX];
    if (rc == 0 && kind == PAIRED_WILCOXON) {
        wilcoxon_result w;
        if ((rc = wilcoxon_test(v[0], v[1], n[0], s->alt, !s->no_continuity, &w, err)) == 0) {
            char z[64] = "";
            if (!w.exact)
                snprintf(z, sizeof z, " z=%.6f correction=%s", w.z,
                         s->no_continuity ? "none" : "continuity");
            snprintf(detail, sizeof detail, "a=%s b=%s n=%zu zeros=%zu r_plus=%.15g "
                     "r_minus=%.15g tied_groups=%zu method=%s%s alternative=%s", name[0],
                     name[1], w.n, w.zeros, w.r_plus, w.r_minus, w.tie_groups,
                     w.exact ? "exact" : "normal", z, alternative_name(s->alt));
            test_write_header(fp);
            test_write(fp, "wilcoxon", w.t.statistic, w.t.df, &w.t.p, s->digits, detail);
        }
    } else if (rc == 0) {
        paired_t_result t;
        if ((rc = paired_t_test(v[0], v[1], n[0], s->alt, &t, err)) == 0) {
            snprintf(detail, sizeof detail, "a=%s b=%s n=%zu mean_diff=%.6f sd_diff=%.6f "
                     "alternative=%s", name[0], name[1], t.n, t.mean_diff, t.sd_diff,
                     alternative_name(s->alt));
            test_write_header(fp);
            test_write(fp, "paired_t", t.t.statistic, t.t.df, &t.t.p, s->digits, detail);
        }
    }
    free(v[0]);
    free(v[1]);
    return rc;
}

int statreport_welch(const statreport_settings *s, char *const *files, size_t nfiles,
                     FILE *fp, tells_error *err)
{
    if (nfiles != 2 && !(nfiles == 1 && s->ncolumns == 2))
        return tells_error_usage(err, "Welch's test compares two files, or two columns "
                                 "of one");
    double *v[2];
    size_t n[2];
    char name[2][2048];
    int rc = two_samples(s, files, nfiles, 2, "a variance", v, n, name, err);
    test_result r;
    double mean[2];
    if (rc == 0)
        rc = welch_test(v[0], n[0], v[1], n[1], s->alt, &r, &mean[0], &mean[1], err);
    if (rc == 0) {
        char detail[DETAIL_MAX];
        snprintf(detail, sizeof detail, "a=%s b=%s n_a=%zu n_b=%zu mean_a=%.6f "
                 "mean_b=%.6f alternative=%s", name[0], name[1], n[0], n[1],
                 mean[0], mean[1], alternative_name(s->alt));
        test_write_header(fp);
        test_write(fp, "welch", r.statistic, r.df, &r.p, s->digits, detail);
    }
    free(v[0]);
    free(v[1]);
    return rc;
}

int statreport_fdr(const statreport_settings *s, const char *path, FILE *fp,
                   tells_error *err)
{
    p_table t;
    if (p_table_read(&t, path, s->column[0] ? s->column[0] : "p_value", err) < 0)
        return -1;
    pvalue *p = array_new(t.m, sizeof *p), *adj = array_new(t.m, sizeof *adj);
    bool *reject = array_new(t.m, sizeof *reject);
    int rc = 0;
    if (!p || !adj || !reject)
        rc = tells_error_nomem(err, NULL, 0);
    size_t m = 0;
    for (size_t i = 0; rc == 0 && i < t.n; i++)
        if (t.has_p[i])
            p[m++] = t.p[i];
    if (rc == 0)
        rc = bh_adjust(p, m, s->alpha, adj, reject, err);
    if (rc == 0) {
        char method[128];
        snprintf(method, sizeof method, "benjamini-hochberg m=%zu alpha=%g", m, s->alpha);
        fprintf(fp, "%s\tp_adjusted\treject\tfdr\n", t.header);
        m = 0;
        for (size_t i = 0; i < t.n; i++) {
            if (!t.has_p[i]) {
                fprintf(fp, "%s\t-\t-\t-\n", t.rows[i]);
                continue;
            }
            char buf[64];
            pvalue_format(adj[m], s->digits, buf, sizeof buf);
            fprintf(fp, "%s\t%s\t%s\t%s\n", t.rows[i], buf, reject[m] ? "yes" : "no",
                    method);
            m++;
        }
    }
    free(p);
    free(adj);
    free(reject);
    p_table_free(&t);
    return rc;
}
