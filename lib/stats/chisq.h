/* Chi-squared and proportion tests on counts, with p-values kept in log
   space (stattest.h). */
#ifndef TELLS_CHISQ_H
#define TELLS_CHISQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Goodness of fit when expected counts may be small. */
typedef enum { GOF_CHI2, GOF_EXACT, GOF_MONTE_CARLO } gof_method;
/* "chi2", "exact", "monte-carlo". */
const char *gof_method_name(gof_method m);

/* Cochran's rule: the chi-squared approximation when every expected
   count is at least this. */
#define GOF_MIN_EXPECTED 5.0
/* The exact test enumerates at most this many outcomes ... */
#define GOF_EXACT_MAX_OUTCOMES 1000000.0
/* ... else draws this many. */
#define GOF_MONTE_CARLO_DRAWS 100000

typedef struct gof_result {
    test_result test;         /* statistic and df: Pearson's, whatever the test */
    gof_method method;        /* what gave test.p */
} gof_result;

/* The number of outcomes of n observations in k cells, C(n + k - 1,
   k - 1), as a double (rounded; huge ones approximate). */
double multinomial_outcomes(uint64_t n, size_t k);
/* The exact multinomial goodness-of-fit test of observed counts (n in
   all) against shares (summing to 1): p = the sum of P(x) over every
   outcome x of n observations in the cells with a share above 0 whose
   P(x) is at most P(observed) (1 + 1e-7) (scipy.stats.binomtest's
   tolerance; for two cells, its two-sided test). Enumerates every
   outcome: call it when multinomial_outcomes is small. A cell with no
   share and observations is a data error, as for chisq_gof. */
int multinomial_exact(const uint64_t *observed, const double *share, size_t k,
                      pvalue *p, tells_error *err);
/* The same p estimated from draws samples of the null multinomial
   (gsl_ran_multinomial on mt19937 seeded with seed): (1 + the samples
   no more probable than the observed counts) / (draws + 1). */
int multinomial_monte_carlo(const uint64_t *observed, const double *share, size_t k,
                            size_t draws, unsigned long seed, pvalue *p, tells_error *err);
/* Pearson's chi-squared (chisq_gof) when every expected count n s of a
   cell with a share is at least GOF_MIN_EXPECTED; else the exact test,
   enumerated when there are at most GOF_EXACT_MAX_OUTCOMES outcomes,
   otherwise by GOF_MONTE_CARLO_DRAWS draws seeded with seed. r->test
   keeps Pearson's statistic and df in every case. */
int gof_test(const uint64_t *observed, const double *share, size_t k, unsigned long seed,
             gof_result *r, tells_error *err);

/* Independence of a flag and the class, on the 2 x k table of flagged
   and other examples per class (classes without examples left out):
   Pearson's chi-squared (chisq_homogeneity: no continuity correction, as
   scipy.stats.chi2_contingency(correction=False)) when every expected
   count is at least GOF_MIN_EXPECTED; else the exact conditional test
   (Fisher's for 2 x 2, Freeman and Halton's for 2 x k): p = the sum of
   P(x) over every table x with the observed margins whose P(x) is at most
   P(observed) (1 + 1e-7), P the multivariate hypergeometric, enumerated
   along the smaller row when there are at most GOF_EXACT_MAX_OUTCOMES
   tables, else estimated from GOF_MONTE_CARLO_DRAWS tables drawn with
   those margins (mt19937 seeded with seed) as (1 + as extreme) / (draws
   + 1). r->test keeps Pearson's statistic and df in every case. */
int flag_class_test(const uint64_t *flagged, const uint64_t *total, size_t k,
                    unsigned long seed, gof_result *r, tells_error *err);

#endif
