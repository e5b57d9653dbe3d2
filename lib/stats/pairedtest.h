/* Paired tests of two samples of numbers (line j of one file against line
   j of the other: per-seed or per-fold scores of two systems): the
   Wilcoxon signed-rank test and the paired t-test, as SciPy's wilcoxon
   and ttest_rel compute them. */
#ifndef TELLS_PAIREDTEST_H
#define TELLS_PAIREDTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "stats/stattest.h"

/* The exact rule: at most this many pairs (zeros included), as SciPy's
   method='auto'. */
#define WILCOXON_EXACT_MAX 50

typedef struct wilcoxon_result {
    test_result t;       /* statistic: min(R+, R-) two-sided, else R+ */
    double r_plus, r_minus;
    size_t n;            /* pairs */
    size_t zeros;        /* zero differences, dropped (zero_method='wilcox') */
    size_t tie_groups;   /* groups of equal |d| among the rest */
    bool exact;          /* exact distribution; else the normal approximation */
    double z;            /* the normal approximation's z; NAN when exact */
} wilcoxon_result;

/* The Wilcoxon signed-rank test of x - y. Zero differences are dropped
   (zero_method='wilcox'); the rest are ranked by |d| with average ranks
   for ties. Exact (the distribution of R+ over the 2^m sign patterns)
   when n <= WILCOXON_EXACT_MAX and no difference is zero or tied in
   |d|; otherwise the normal approximation with mean m (m + 1) / 4, the
   tie-corrected variance m (m + 1) (2m + 1) / 24 - sum (t^3 - t) / 48
   and, when continuity, the continuity correction of 0.5 toward the
   mean (SciPy's wilcoxon(correction=True, method='approx')). Data errors:
   different lengths, no pair, every difference zero. */
int wilcoxon_test(const double *x, const double *y, size_t n, alternative alt,
                  bool continuity, wilcoxon_result *r, tells_error *err);

/* P(R+ <= k) and P(R+ >= k) under the null for m nonzero untied
   differences (m <= WILCOXON_EXACT_MAX), from the counts of sign
   patterns. -1 only when out of memory. */
int wilcoxon_exact_tails(size_t m, double k, double *p_le, double *p_ge);

typedef struct paired_t_result {
    test_result t;
    double mean_diff, sd_diff;
    size_t n;
} paired_t_result;

/* The paired t-test of x - y: t = mean(d) / (sd(d) / sqrt(n)), n - 1 df
   (SciPy's ttest_rel). Data errors: different lengths, fewer than 2
   pairs, differences without variance (t undefined). */
int paired_t_test(const double *x, const double *y, size_t n, alternative alt,
                  paired_t_result *r, tells_error *err);

#endif
