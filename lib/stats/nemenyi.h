/* The Nemenyi post-hoc test after Friedman's test (Demsar 2006, section
   3.2.2): two of k systems ranked over n blocks differ when their mean
   ranks differ by at least the critical difference
   CD = q_alpha sqrt(k (k + 1) / (6 n)), q_alpha the studentized range
   quantile for k means and infinite df divided by sqrt(2) (Demsar's
   Table 5). The range distribution is integrated here, so any k >= 2
   and alpha work; tests/unit/test-stat.c checks Table 5. */
#ifndef TELLS_NEMENYI_H
#define TELLS_NEMENYI_H

#include <stddef.h>

#include "base/error.h"
#include "stats/stattest.h"

/* log P(R > q) for R the range of k independent standard normals (the
   studentized range with infinite df; SciPy's studentized_range.sf(q, k,
   inf)): k times the integral of phi(z) (Phi(z)^(k-1) - (Phi(z) -
   Phi(z - q))^(k-1)), by the trapezoidal rule, which converges
   geometrically for this smooth, fast-decaying integrand, summed in
   logs: no underflow for any q (P(R > 60) is below the smallest double
   for every k up to 10^6). k >= 2. */
double range_log_sf(double q, size_t k);
/* P(R > q): exp(range_log_sf(q, k)), 0 once it underflows. */
double range_sf(double q, size_t k);
/* The q with range_sf(q, k) = alpha, by bisection on the log: any alpha
   in (0, 1), down to the smallest subnormal double, without a cap on q
   (0 for alpha >= 1). */
double range_quantile(double alpha, size_t k);
/* Demsar's q_alpha = range_quantile(alpha, k) / sqrt(2). */
double nemenyi_q_alpha(double alpha, size_t k);
/* The critical difference of mean ranks for k systems over n blocks. */
double nemenyi_cd(double alpha, size_t k, size_t nblocks);

/* The pairwise test of mean ranks a and b: statistic |a - b|, p =
   range_sf(|a - b| / sqrt(k (k + 1) / (6 n)) * sqrt(2), k) (as
   scikit-posthocs' posthoc_nemenyi_friedman), kept as its log when tiny;
   df NAN. */
void nemenyi_pair(double mean_rank_a, double mean_rank_b, size_t k, size_t nblocks,
                  test_result *r);

#endif
