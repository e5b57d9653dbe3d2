/* Intervals and tests on per-example correctness (1 right, 0 wrong), for
   comparing two models on the same examples and a subset of examples
   with the whole: paired bootstrap percentile intervals (GSL's mt19937
   seeded with seed draws the resamples, so a seed gives the same
   interval) and McNemar's exact one-sided test. A resample is drawn as
   its counts of each pattern of outcomes (gsl_ran_multinomial), which is
   all the statistic reads of it: the bootstrap distribution of drawing n
   examples with replacement, at a cost that does not grow with n. Any
   nonzero byte counts as right. */
#ifndef TELLS_INTERVAL_H
#define TELLS_INTERVAL_H

#include <stddef.h>

#include "base/error.h"
#include "stats/stattest.h"

typedef struct interval {
    double estimate;    /* on the data as they are */
    double low, high;   /* the percentile interval */
    pvalue p;           /* two-sided: twice the smaller share of resamples
                           on either side of 0, (count + 1) / (B + 1) */
} interval;

/* mean(a) - mean(b) over n paired examples; level e.g. 0.95. */
int paired_diff_interval(const unsigned char *a, const unsigned char *b, size_t n,
                         size_t samples, unsigned long seed, double level, interval *out,
                         tells_error *err);
/* mean(c over the examples with in[i]) - mean(c over all): each resample
   draws n examples of all and compares its subset with itself. A data
   error when no example is in the subset. */
int subset_diff_interval(const unsigned char *c, const unsigned char *in, size_t n,
                         size_t samples, unsigned long seed, double level, interval *out,
                         tells_error *err);
/* McNemar's exact test that A is right more often than B: b examples
   only A got right, c only B; p = P(X >= b), X ~ Binomial(b + c, 1/2)
   (1 when b + c = 0). */
pvalue mcnemar_exact_greater(unsigned long b, unsigned long c);
/* McNemar's exact two-sided test that A and B are right equally often:
   p = min(1, 2 min(P(X >= b), P(X <= b))), X ~ Binomial(b + c, 1/2), as
   scipy.stats.binomtest(b, b + c).pvalue (1 when b + c = 0). */
pvalue mcnemar_exact_two_sided(unsigned long b, unsigned long c);
/* The minimum detectable effect of the one-sided test: the smallest difference of
   accuracies delta that a one-sided test at level alpha detects with the
   given power over n paired examples whose discordant share is psi
   (Connor 1987's normal approximation of McNemar's test:
   z(1 - alpha) sqrt(psi) + z(power) sqrt(psi - delta^2) = delta sqrt(n),
   solved for delta by bisection). NAN when n or psi is 0; sqrt(psi) (the
   largest difference psi allows) when even that is not detectable. */
double mcnemar_mde(double psi, size_t n, double alpha, double power);

#endif
