#include <config.h>
#include "stats/nemenyi.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

/* The trapezoidal step and the reach beyond which phi(z) < 1e-21. */
#define RANGE_STEP 0.02
#define RANGE_REACH 9.5

/* a^m - b^m = (a - b) sum_{i < m} a^i b^(m - 1 - i), with a - b = d given
   exactly, so that a tiny difference keeps its digits. */
static double power_difference(double a, double b, double d, size_t m)
{
    double sum = 0.0, ai = 1.0;
    for (size_t i = 0; i < m; i++) {   /* Horner in b */
        sum = sum * b + ai;
        ai *= a;
    }
    return d * sum;
}

double range_sf(double q, size_t k)
{
    if (!(q > 0.0))
        return 1.0;
    if (k < 2)
        return 0.0;
    /* The integrand is phi(z) times a function of Phi(z) and Phi(z - q):
       below -RANGE_REACH and above q + RANGE_REACH it is negligible. */
    double lo = -RANGE_REACH, hi = q + RANGE_REACH, sum = 0.0;
    size_t steps = (size_t)ceil((hi - lo) / RANGE_STEP);
    double h = (hi - lo) / (double)steps;
    for (size_t i = 0; i <= steps; i++) {
        double z = lo + h * (double)i;
        double a = gsl_cdf_ugaussian_P(z), d = gsl_cdf_ugaussian_P(z - q);
        double f = exp(-z * z / 2.0) / sqrt(2.0 * M_PI) * power_difference(a, a - d, d, k - 1);
        sum += (i == 0 || i == steps) ? f / 2.0 : f;
    }
    double p = (double)k * h * sum;
    return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

double range_quantile(double alpha, size_t k)
{
    /* range_sf falls from 1 at q = 0; q = 40 is beyond any k a ranking
       compares (range_sf(40, k) < k^2 1e-300). */
    double lo = 0.0, hi = 40.0;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = (lo + hi) / 2.0;
        if (range_sf(mid, k) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2.0;
}

double nemenyi_q_alpha(double alpha, size_t k)
{
    return range_quantile(alpha, k) / M_SQRT2;
}

/* sqrt(k (k + 1) / (6 n)): the standard error of a difference of mean ranks. */
static double rank_se(size_t k, size_t nblocks)
{
    double kk = (double)k;
    return sqrt(kk * (kk + 1.0) / (6.0 * (double)nblocks));
}

double nemenyi_cd(double alpha, size_t k, size_t nblocks)
{
    return nemenyi_q_alpha(alpha, k) * rank_se(k, nblocks);
}

void nemenyi_pair(double mean_rank_a, double mean_rank_b, size_t k, size_t nblocks,
                  test_result *r)
{
    r->statistic = fabs(mean_rank_a - mean_rank_b);
    r->df = NAN;
    r->p = pvalue_from_p(range_sf(r->statistic / rank_se(k, nblocks) * M_SQRT2, k));
}
