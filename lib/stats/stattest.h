/* Significance tests for tells-stat: McNemar, paired bootstrap,
   approximate randomisation, Friedman, Welch's t and Benjamini-Hochberg,
   with distributions from GSL. P-values are carried with their natural
   log, so that one far below the smallest double (1e-308) is still
   reported instead of printing as 0. */
#ifndef TELLS_STATTEST_H
#define TELLS_STATTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"
#include "stats/metrics.h"

typedef struct pvalue {
    double p;       /* may have underflowed to 0 */
    double log_p;   /* natural log; -inf only when p is exactly 0 */
} pvalue;

/* Below this a p-value is taken from its log (GSL's tails lose accuracy
   well before they underflow). */
#define PVALUE_TINY 1e-250

pvalue pvalue_from_p(double p);
pvalue pvalue_from_log(double log_p);
/* p times factor (> 0), in log space when p is tiny; at most 1. */
pvalue pvalue_scale(pvalue p, double factor);
/* Parses a decimal number in [0, 1] ("0.032", "1.1e-190", "1e-400": the
   exponent is read apart, so values below 1e-308 keep their log).
   Returns -1 when malformed, -2 when outside [0, 1] or not finite. */
int pvalue_parse(const char *s, pvalue *out);
/* Formats p with digits significant digits as printf's "%.*g" would,
   but built from log10 p when p is tiny, so 1.1e-400 prints as such. */
void pvalue_format(pvalue p, int digits, char *buf, size_t size);

/* Upper tails P(X >= x), from GSL, or from the log forms below when GSL's
   value is under PVALUE_TINY. */
pvalue stat_chi2_sf(double x, double df);
pvalue stat_norm_sf(double z);
pvalue stat_t_sf(double t, double df);
/* P(X <= k) for X ~ Binomial(n, 1/2). */
pvalue stat_binom_half_cdf(unsigned long k, unsigned long n);
/* P(X >= k) for X ~ Binomial(n, p), 0 < p < 1 and n < 2^32 (GSL's
   counts): scipy.stats.binomtest(k, n, p, alternative="greater").
   Below PVALUE_TINY, from I_p(k, n - k + 1) in logs. */
pvalue stat_binom_sf(unsigned long k, unsigned long n, double p);
/* log Q(a, x), the regularised upper incomplete gamma function, by its
   continued fraction (for x > a + 1; else from GSL). */
double stat_log_gamma_q(double a, double x);
/* log I_x(a, b), the regularised incomplete beta function, by its
   continued fraction (for x < (a + 1) / (a + b + 2); else from GSL). */
double stat_log_beta_inc(double a, double b, double x, double log_x,
                         double log1m_x);

typedef enum { ALT_TWO_SIDED, ALT_GREATER, ALT_LESS } alternative;
int alternative_parse(const char *s, alternative *a);
const char *alternative_name(alternative a);

typedef struct test_result {
    double statistic;
    double df;       /* NAN when the test has none */
    pvalue p;
} test_result;

/* McNemar's test from the discordant counts: b = examples only system A
   got right, c = only B. Exact: statistic min(b, c), two-sided binomial
   p = min(1, 2 P(X <= min(b, c))), X ~ Bin(b + c, 1/2). Chi-squared:
   (|b - c| - 1)^2 / (b + c) with the continuity correction floored at 0,
   1 df; statistic 0 and p 1 when b + c = 0. */
void mcnemar_exact(long b, long c, test_result *r);
void mcnemar_chi2(long b, long c, test_result *r);
/* Without the continuity correction: (b - c)^2 / (b + c), 1 df
   (statsmodels' mcnemar(exact=False, correction=False); Cochran's Q of
   two systems). Statistic 0 and p 1 when b + c = 0. */
void mcnemar_chi2_uncorrected(long b, long c, test_result *r);

/* Welch's unequal-variances t-test of mean(x) - mean(y), as SciPy's
   ttest_ind(equal_var=False). A data error when a sample has fewer than
   2 values or both have zero variance (the t statistic is undefined). */
int welch_test(const double *x, size_t nx, const double *y, size_t ny,
               alternative alt, test_result *r, double *mean_x, double *mean_y,
               tells_error *err);

/* Friedman's test on scores[block * k + system], higher is better, with
   SciPy's tie correction; mean_rank[k] gets mean ranks with 1 the best.
   Statistic 0 and p 1 when every block is a complete tie. Needs k >= 2
   and a block. */
int friedman_test(const double *scores, size_t nblocks, size_t k,
                  test_result *r, double *mean_rank, tells_error *err);
/* The same with or without the tie correction: without it the
   statistic is 12 n / (k (k + 1)) (sum_j mr_j^2 - k (k + 1)^2 / 4) over
   the mean ranks mr_j (Demsar 2006, eq. for chi^2_F; ties still get
   average ranks). Without the correction, blocks that are all ties
   count as they are (statistic 0 only when every mean rank is equal). */
int friedman_test_ties(const double *scores, size_t nblocks, size_t k, bool tie_correction,
                       test_result *r, double *mean_rank, tells_error *err);

/* Cochran's Q of k systems' correctness, correct[block * k + system] 0
   or 1: Q = (k - 1) (k sum_j C_j^2 - T^2) / (k T - sum_i R_i^2) with C_j
   the column (system) totals, R_i the row (block) totals and T the grand
   total; k - 1 df, p from chi-squared (Cochran 1950). Statistic 0 and p
   1 when every block is all right or all wrong (the denominator is 0).
   Needs k >= 2 and a block. */
int cochran_q_test(const unsigned char *correct, size_t nblocks, size_t k,
                   test_result *r, tells_error *err);

/* Benjamini-Hochberg: adj[i] = min over p_(j) >= p_i of m p_(j) / j, at
   most 1 (statsmodels' fdr_bh); reject[i] by the step-up rule at alpha. */
int bh_adjust(const pvalue *p, size_t m, double alpha, pvalue *adj,
              bool *reject, tells_error *err);

/* A paired resampling test of metric(A) - metric(B). */
typedef struct resample_result {
    double a_value, b_value, delta;
    size_t samples;
    size_t count;    /* resamples at least as extreme as delta */
    pvalue p;        /* (count + 1) / (samples + 1) */
} resample_result;

/* Paired bootstrap: each of samples resamples draws n example indexes
   with replacement (gsl_rng_uniform_int on gsl_rng_mt19937 seeded with
   seed) and gets d* = metric(A) - metric(B) on them; as extreme means
   |d* - d| >= |d| (two-sided), d* - d >= d (greater), d* - d <= d (less).
   This and permutation_test fail only when out of memory. */
int paired_bootstrap(const pred_data *d, size_t a, size_t b, metric_kind k,
                     size_t samples, unsigned long seed, alternative alt,
                     resample_result *r, tells_error *err);
/* Approximate randomisation: each resample swaps the two predictions of
   every example where they differ with probability 1/2; as extreme means
   |d*| >= |d|, d* >= d, d* <= d. */
int permutation_test(const pred_data *d, size_t a, size_t b, metric_kind k,
                     size_t samples, unsigned long seed, alternative alt,
                     resample_result *r, tells_error *err);

/* A number as numbers_read takes it (what strtod reads, len bytes, with
   nothing around it): 1 with *v, 0 when malformed, -1 when not finite. */
int number_parse(const char *s, size_t len, double *v);

/* Reads numbers: one per line (blank lines skipped), or with column the
   column of that name of a TSV with a header. Numbers must be finite. */
int numbers_read(const char *path, const char *column, double **v, size_t *n,
                 tells_error *err);
/* numbers_read of k columns of one file at once (k from 1 to
   NUMBERS_MAX_COLUMNS; named columns when k > 1): the file is read once,
   so that stdin serves them all. Column i's numbers go to v[i], n[i];
   every row has one in each. */
enum { NUMBERS_MAX_COLUMNS = 2 };
int numbers_read_columns(const char *path, const char *const *column, size_t k,
                         double **v, size_t *n, tells_error *err);

/* A TSV with a header and a column of p-values, for the FDR correction:
   rows are kept as read; a p-value "-" (no test) is passed over. */
typedef struct p_table {
    char *header;
    char **rows;
    size_t n;
    pvalue *p;        /* [n] */
    bool *has_p;      /* [n] false for "-" */
    size_t m;         /* rows with a p-value */
} p_table;

int p_table_read(p_table *t, const char *path, const char *column,
                 tells_error *err);
void p_table_free(p_table *t);

/* The test table: "test statistic df p_value detail". A NULL p prints
   as "-", a NAN df as "-". */
void test_write_header(FILE *fp);
void test_write(FILE *fp, const char *test, double statistic, double df,
                const pvalue *p, int digits, const char *detail);

#endif
