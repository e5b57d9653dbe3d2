#include <config.h>
#include "stats/nemenyi.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_erf.h>
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

/* log Phi(x), accurate where Phi(x) underflows. */
static double log_ugaussian_P(double x, double p)
{
    return p > 1e-300 ? log(p) : gsl_sf_log_erfc(-x / M_SQRT2) - M_LN2;
}

double range_log_sf(double q, size_t k)
{
    if (!(q > 0.0))
        return 0.0;
    if (k < 2)
        return -INFINITY;
    /* The integrand is phi(z) times a function of Phi(z) and Phi(z - q):
       below -RANGE_REACH and above q + RANGE_REACH it is negligible, also
       beside its peak near q / 2 (about e^(-q^2 / 4)) when q is large.
       It is summed in logs, each term against the largest, so that a
       tail far below the smallest double keeps its digits. */
    double lo = -RANGE_REACH, hi = q + RANGE_REACH;
    size_t steps = (size_t)ceil((hi - lo) / RANGE_STEP);
    double h = (hi - lo) / (double)steps, top = -INFINITY, sum = 0.0;
    for (size_t i = 0; i <= steps; i++) {
        double z = lo + h * (double)i;
        double a = gsl_cdf_ugaussian_P(z), d = gsl_cdf_ugaussian_P(z - q);
        /* The log of phi(z) (a^m - (a - d)^m) = phi(z) d sum_j a^j (a - d)^(m-1-j);
           sum (times e^top) holds the weighted terms so far. */
        double s = power_difference(a, a - d, 1.0, k - 1);
        double lf = -z * z / 2.0 - 0.5 * log(2.0 * M_PI) + log_ugaussian_P(z - q, d) +
                    log(s) + ((i == 0 || i == steps) ? -M_LN2 : 0.0);
        if (!(lf > -INFINITY))
            continue;
        if (lf > top) {
            sum = sum * exp(top - lf) + 1.0;
            top = lf;
        } else {
            sum += exp(lf - top);
        }
    }
    if (top == -INFINITY)
        return -INFINITY;
    double lp = log((double)k) + log(h) + top + log(sum);
    return lp > 0.0 ? 0.0 : lp;
}

double range_sf(double q, size_t k)
{
    return exp(range_log_sf(q, k));
}

double range_quantile(double alpha, size_t k)
{
    if (!(alpha < 1.0))
        return 0.0;
    if (!(alpha > 0.0))
        return INFINITY;
    /* range_sf falls from 1 at q = 0 towards 0, so some q past the
       answer exists: the bracket doubles until it holds it (a q of 60
       is past even the smallest double for any k a ranking compares). */
    double target = log(alpha), lo = 0.0, hi = 8.0;
    while (range_log_sf(hi, k) > target) {
        lo = hi;
        hi *= 2.0;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = (lo + hi) / 2.0;
        if (range_log_sf(mid, k) > target)
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
    r->p = pvalue_from_log(range_log_sf(r->statistic / rank_se(k, nblocks) * M_SQRT2, k));
}
