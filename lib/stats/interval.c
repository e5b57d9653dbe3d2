#include <config.h>
#include "stats/interval.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"

pvalue mcnemar_exact_greater(unsigned long b, unsigned long c)
{
    if (b + c == 0)
        return pvalue_from_p(1.0);
    /* P(X >= b) = P(n - X <= c), and n - X is Binomial(n, 1/2) too. */
    return stat_binom_half_cdf(c, b + c);
}

pvalue mcnemar_exact_two_sided(unsigned long b, unsigned long c)
{
    if (b + c == 0)
        return pvalue_from_p(1.0);
    pvalue t = stat_binom_half_cdf(b < c ? b : c, b + c);   /* the smaller tail */
    if (t.log_p + M_LN2 >= 0)
        return pvalue_from_p(1.0);
    return (pvalue){2 * t.p, t.log_p + M_LN2};
}

double mcnemar_mde(double psi, size_t n, double alpha, double power)
{
    if (n == 0 || !(psi > 0) || psi > 1)
        return NAN;
    double za = gsl_cdf_ugaussian_Qinv(alpha), zb = gsl_cdf_ugaussian_Pinv(power);
    double rn = sqrt((double)n), top = sqrt(psi);
    /* f(delta) = delta sqrt(n) - za sqrt(psi) - zb sqrt(psi - delta^2)
       increases on [0, sqrt(psi)]. */
    double lo = 0, hi = top;
    if (hi * rn - za * sqrt(psi) < 0)
        return top;
    for (int it = 0; it < 200; it++) {
        double mid = (lo + hi) / 2;
        double f = mid * rn - za * sqrt(psi) - zb * sqrt(psi - mid * mid);
        if (f < 0)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* The percentile interval and two-sided p of the resampled statistics. */
static void summarise(double *stat, size_t samples, double level, interval *out)
{
    size_t below = 0, above = 0;
    for (size_t s = 0; s < samples; s++) {
        below += stat[s] <= 0;
        above += stat[s] >= 0;
    }
    gsl_sort(stat, 1, samples);
    double tail = (1.0 - level) / 2.0;
    out->low = gsl_stats_quantile_from_sorted_data(stat, 1, samples, tail);
    out->high = gsl_stats_quantile_from_sorted_data(stat, 1, samples, 1.0 - tail);
    double side = (double)(below < above ? below : above);
    double p = 2.0 * (side + 1.0) / ((double)samples + 1.0);
    out->p = pvalue_from_p(p < 1.0 ? p : 1.0);
}

static int prepare(size_t n, size_t samples, double level, double **stat, gsl_rng **rng,
                   unsigned long seed, tells_error *err)
{
    if (n == 0 || samples == 0 || !(level > 0 && level < 1))
        return tells_error_usage(err, "a bootstrap interval needs examples, resamples and "
                                 "a level between 0 and 1");
    *stat = array_new(samples, sizeof **stat);
    *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!*stat || !*rng) {
        free(*stat);
        if (*rng)
            gsl_rng_free(*rng);
        return tells_error_nomem(err, NULL, 0);
    }
    gsl_rng_set(*rng, seed);
    return 0;
}

int paired_diff_interval(const unsigned char *a, const unsigned char *b, size_t n,
                         size_t samples, unsigned long seed, double level, interval *out,
                         tells_error *err)
{
    double *stat;
    gsl_rng *rng;
    if (prepare(n, samples, level, &stat, &rng, seed, err) < 0)
        return -1;
    long d = 0;
    for (size_t i = 0; i < n; i++)
        d += (long)a[i] - (long)b[i];
    out->estimate = (double)d / (double)n;
    for (size_t s = 0; s < samples; s++) {
        long sum = 0;
        for (size_t j = 0; j < n; j++) {
            size_t i = (size_t)gsl_rng_uniform_int(rng, n);
            sum += (long)a[i] - (long)b[i];
        }
        stat[s] = (double)sum / (double)n;
    }
    summarise(stat, samples, level, out);
    free(stat);
    gsl_rng_free(rng);
    return 0;
}

int subset_diff_interval(const unsigned char *c, const unsigned char *in, size_t n,
                         size_t samples, unsigned long seed, double level, interval *out,
                         tells_error *err)
{
    size_t m = 0, right = 0, right_in = 0;
    for (size_t i = 0; i < n; i++) {
        m += in[i] != 0;
        right += c[i] != 0;
        right_in += in[i] && c[i];
    }
    if (m == 0)
        return tells_error_set(err, NULL, 0, "no example in the subset");
    double *stat;
    gsl_rng *rng;
    if (prepare(n, samples, level, &stat, &rng, seed, err) < 0)
        return -1;
    out->estimate = (double)right_in / (double)m - (double)right / (double)n;
    size_t kept = 0;
    for (size_t s = 0; s < samples; s++) {
        size_t sm = 0, sr = 0, sri = 0;
        for (size_t j = 0; j < n; j++) {
            size_t i = (size_t)gsl_rng_uniform_int(rng, n);
            sr += c[i] != 0;
            if (in[i]) {
                sm++;
                sri += c[i] != 0;
            }
        }
        /* A resample without a subset example says nothing: skip it. */
        if (sm)
            stat[kept++] = (double)sri / (double)sm - (double)sr / (double)n;
    }
    if (kept == 0) {
        free(stat);
        gsl_rng_free(rng);
        return tells_error_set(err, NULL, 0, "the subset is too small to resample");
    }
    summarise(stat, kept, level, out);
    free(stat);
    gsl_rng_free(rng);
    return 0;
}
