#include <config.h>
#include "stats/interval.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <limits.h>
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

/* A resample of n examples matters here only through how many of its
   draws fall in each pattern of outcomes (a right and b wrong, ...), and
   those counts are multinomial: n draws over the patterns' shares of the
   examples. gsl_ran_multinomial draws them directly, a few binomial draws
   per resample instead of n: the same bootstrap distribution as drawing
   the examples one by one (its K binomials take n as an unsigned int). */
static int prepare(size_t n, size_t samples, double level, double **stat, gsl_rng **rng,
                   unsigned long seed, tells_error *err)
{
    if (n == 0 || samples == 0 || !(level > 0 && level < 1))
        return tells_error_usage(err, "a bootstrap interval needs examples, resamples and "
                                 "a level between 0 and 1");
    if (n > UINT_MAX)
        return tells_error_set(err, NULL, 0, "%zu examples are too many to resample (at "
                               "most %u)", n, UINT_MAX);
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
    /* The patterns: both alike, only a right, only b right. */
    size_t count[3] = {0};
    for (size_t i = 0; i < n; i++)
        count[(a[i] != 0) == (b[i] != 0) ? 0 : a[i] ? 1 : 2]++;
    double share[3] = {(double)count[0], (double)count[1], (double)count[2]};
    double *stat;
    gsl_rng *rng;
    if (prepare(n, samples, level, &stat, &rng, seed, err) < 0)
        return -1;
    out->estimate = ((double)count[1] - (double)count[2]) / (double)n;
    for (size_t s = 0; s < samples; s++) {
        unsigned int c[3];
        gsl_ran_multinomial(rng, 3, (unsigned int)n, share, c);
        stat[s] = ((double)c[1] - (double)c[2]) / (double)n;
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
    /* The patterns (in the subset, right): 2 in + right. */
    size_t count[4] = {0};
    for (size_t i = 0; i < n; i++)
        count[2 * (in[i] != 0) + (c[i] != 0)]++;
    size_t m = count[2] + count[3], right = count[1] + count[3], right_in = count[3];
    if (m == 0)
        return tells_error_set(err, NULL, 0, "no example in the subset");
    double share[4] = {(double)count[0], (double)count[1], (double)count[2],
                       (double)count[3]};
    double *stat;
    gsl_rng *rng;
    if (prepare(n, samples, level, &stat, &rng, seed, err) < 0)
        return -1;
    out->estimate = (double)right_in / (double)m - (double)right / (double)n;
    size_t kept = 0;
    for (size_t s = 0; s < samples; s++) {
        unsigned int k[4];
        gsl_ran_multinomial(rng, 4, (unsigned int)n, share, k);
        /* A resample without a subset example says nothing: skip it. */
        if (k[2] + k[3])
            stat[kept++] = (double)k[3] / (double)(k[2] + k[3]) -
                           (double)(k[1] + k[3]) / (double)n;
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
