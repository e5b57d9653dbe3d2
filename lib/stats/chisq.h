/* Chi-squared and proportion tests on counts, with p-values kept in log
   space (stattest.h). */
#ifndef TELLS_CHISQ_H
#define TELLS_CHISQ_H

#include <stddef.h>

#include "base/error.h"
#include "stats/stattest.h"

/* Goodness of fit of observed counts to expected proportions (summing
   to 1): sum (o - e)^2 / e over cells with e > 0, df = those cells - 1.
   A data error when a cell expected to be empty has counts. */
int chisq_gof(const double *observed, const double *expected_share, size_t n,
              test_result *r, tells_error *err);
/* Homogeneity of two rows of counts over n columns (a 2 x n table;
   columns where both rows are 0 are left out), df = columns - 1.
   Statistic 0 and p 1 when fewer than two columns remain. */
int chisq_homogeneity(const double *a, const double *b, size_t n, test_result *r);
/* One-sided two-proportion z-test with the pooled variance: is x1/n1
   greater than x2/n2? */
void proportion_greater(double x1, double n1, double x2, double n2, test_result *r);

#endif
