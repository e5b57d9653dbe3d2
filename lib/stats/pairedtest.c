#include <config.h>
#include "stats/pairedtest.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"

int wilcoxon_exact_tails(size_t m, double k, double *p_le, double *p_ge)
{
    /* count[s]: sign patterns of ranks 1..m whose positive ranks sum to s;
       at most 2^50 each, exact in a double. */
    size_t top = m * (m + 1) / 2;
    double *count = array_new(top + 1, sizeof *count);
    if (!count)
        return -1;
    count[0] = 1.0;
    for (size_t i = 1; i <= m; i++)
        for (size_t s = i * (i + 1) / 2; s >= i; s--)
            count[s] += count[s - i];
    double total = ldexp(1.0, (int)m), le = 0.0, ge = 0.0;
    for (size_t s = 0; s <= top; s++) {
        if ((double)s <= k)
            le += count[s];
        if ((double)s >= k)
            ge += count[s];
    }
    free(count);
    *p_le = le / total;
    *p_ge = ge / total;
    return 0;
}

static int by_abs(const void *a, const void *b)
{
    double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
    return (x > y) - (x < y);
}

int wilcoxon_test(const double *x, const double *y, size_t n, alternative alt,
                  bool continuity, wilcoxon_result *r, tells_error *err)
{
    if (n == 0)
        return tells_error_set(err, NULL, 0, "the signed-rank test needs a pair");
    double *d = array_new(n, sizeof *d);
    if (!d)
        return tells_error_nomem(err, NULL, 0);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] - y[i] != 0.0)
            d[m++] = x[i] - y[i];
    r->n = n;
    r->zeros = n - m;
    if (m == 0) {
        free(d);
        return tells_error_set(err, NULL, 0, "every difference is zero: the "
                               "signed-rank test is undefined");
    }
    qsort(d, m, sizeof *d, by_abs);
    /* Average ranks of runs of equal |d|; ties adds t^3 - t per run. */
    double r_plus = 0.0, r_minus = 0.0, ties = 0.0;
    r->tie_groups = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i + 1;
        while (j < m && fabs(d[j]) == fabs(d[i]))
            j++;
        double t = (double)(j - i), rank = ((double)i + 1.0 + (double)j) / 2.0;
        if (j - i > 1) {
            r->tie_groups++;
            ties += t * t * t - t;
        }
        for (size_t q = i; q < j; q++) {
            if (d[q] > 0.0)
                r_plus += rank;
            else
                r_minus += rank;
        }
        i = j;
    }
    free(d);
    r->r_plus = r_plus;
    r->r_minus = r_minus;
    double T = alt == ALT_TWO_SIDED ? fmin(r_plus, r_minus) : r_plus;
    r->t.statistic = T;
    r->t.df = NAN;
    r->exact = n <= WILCOXON_EXACT_MAX && r->zeros == 0 && r->tie_groups == 0;
    if (r->exact) {
        double p_le, p_ge;
        if (wilcoxon_exact_tails(m, r_plus, &p_le, &p_ge) < 0)
            return tells_error_nomem(err, NULL, 0);
        r->z = NAN;
        double p = alt == ALT_GREATER ? p_ge : alt == ALT_LESS ? p_le
                                                               : 2.0 * fmin(p_le, p_ge);
        r->t.p = pvalue_from_p(fmin(1.0, p));
        return 0;
    }
    double mm = (double)m, mean = mm * (mm + 1.0) / 4.0;
    double se = sqrt((mm * (mm + 1.0) * (2.0 * mm + 1.0) - ties / 2.0) / 24.0);
    double shift = 0.0;
    if (continuity)
        shift = alt == ALT_GREATER ? 0.5 : alt == ALT_LESS ? -0.5
                : T > mean ? 0.5 : T < mean ? -0.5 : 0.0;
    r->z = (T - mean - shift) / se;
    r->t.p = alt == ALT_GREATER ? stat_norm_sf(r->z)
             : alt == ALT_LESS ? stat_norm_sf(-r->z)
                               : pvalue_scale(stat_norm_sf(fabs(r->z)), 2.0);
    return 0;
}

int paired_t_test(const double *x, const double *y, size_t n, alternative alt,
                  paired_t_result *r, tells_error *err)
{
    if (n < 2)
        return tells_error_set(err, NULL, 0, "the paired t-test needs at least 2 "
                               "pairs, not %zu", n);
    double *d = array_new(n, sizeof *d);
    if (!d)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < n; i++)
        d[i] = x[i] - y[i];
    r->n = n;
    r->mean_diff = gsl_stats_mean(d, 1, n);
    r->sd_diff = gsl_stats_sd_m(d, 1, n, r->mean_diff);
    free(d);
    if (!isfinite(r->mean_diff) || !isfinite(r->sd_diff))
        return tells_error_set(err, NULL, 0, "values too large: their variance "
                               "overflows a double");
    if (!(r->sd_diff > 0.0))
        return tells_error_set(err, NULL, 0, "the differences have no variance: "
                               "the t statistic is undefined");
    double t = r->mean_diff / (r->sd_diff / sqrt((double)n));
    r->t.statistic = t;
    r->t.df = (double)(n - 1);
    r->t.p = alt == ALT_GREATER ? stat_t_sf(t, r->t.df)
             : alt == ALT_LESS ? stat_t_sf(-t, r->t.df)
                               : pvalue_scale(stat_t_sf(fabs(t), r->t.df), 2.0);
    return 0;
}
