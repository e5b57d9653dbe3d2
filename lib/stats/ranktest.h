/* Rank tests: the Kruskal-Wallis H test of whether k groups of numbers
   come from one distribution (hypothesis length by class), as SciPy's
   scipy.stats.kruskal computes it. */
#ifndef TELLS_RANKTEST_H
#define TELLS_RANKTEST_H

#include <stddef.h>

#include "base/error.h"
#include "stats/stattest.h"

/* x[i] is an observation of group g[i] (0 .. k-1). H = 12 / (N (N + 1))
   sum_j R_j^2 / n_j - 3 (N + 1) with R_j the rank sum of group j (ties
   get their average rank), divided by the tie correction
   1 - sum (t^3 - t) / (N^3 - N); df = k - 1; p from chi-squared. Needs two
   non-empty groups (a usage error otherwise); when every observation is
   the same, H = 0 and p = 1. */
int kruskal_wallis(const double *x, const size_t *g, size_t n, size_t k, test_result *r,
                   tells_error *err);

#endif
