#include <config.h>
#include "stats/stattest.h"

#include <errno.h>
#include <float.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"

/* ---- p-values ---- */

pvalue pvalue_from_p(double p)
{
    return (pvalue){p, log(p)};
}

pvalue pvalue_from_log(double log_p)
{
    return (pvalue){exp(log_p), log_p};
}

pvalue pvalue_scale(pvalue p, double factor)
{
    if (p.log_p + log(factor) >= 0.0)
        return pvalue_from_p(1.0);
    if (p.p >= PVALUE_TINY)
        return pvalue_from_p(fmin(1.0, p.p * factor));
    return pvalue_from_log(p.log_p + log(factor));
}

int pvalue_parse(const char *s, pvalue *out)
{
    /* digits [. digits] [e [+-] digits], at least one mantissa digit */
    const char *q = s;
    size_t digits = 0;
    while (*q >= '0' && *q <= '9')
        q++, digits++;
    if (*q == '.')
        for (q++; *q >= '0' && *q <= '9'; q++)
            digits++;
    const char *mant_end = q;
    long e10 = 0;
    bool ok = digits > 0;
    if (ok && (*q == 'e' || *q == 'E')) {
        char *end;
        errno = 0;
        e10 = strtol(q + 1, &end, 10);
        const char *x = q + 1 + (q[1] == '+' || q[1] == '-');
        ok = *x >= '0' && *x <= '9' && !errno && e10 > -100000000 && e10 < 100000000;
        q = end;
    }
    if (!ok || *q) {
        /* A number of the wrong kind (negative, nan, inf) is out of range
           rather than malformed. */
        char *end;
        errno = 0;
        strtod(s, &end);
        return (*s && *s != ' ' && end != s && !*end) ? -2 : -1;
    }
    char mant[64];
    size_t ml = (size_t)(mant_end - s);
    if (ml >= sizeof mant) {
        /* Long mantissas are rare: strtod reads them whole. */
        double p = strtod(s, NULL);
        if (!(p <= 1.0))
            return -2;
        *out = pvalue_from_p(p);
        return 0;
    }
    memcpy(mant, s, ml);
    mant[ml] = '\0';
    double m = strtod(mant, NULL);
    if (m == 0.0) {
        *out = pvalue_from_p(0.0);
        return 0;
    }
    double log_p = log(m) + (double)e10 * M_LN10;
    double p = strtod(s, NULL);
    if (p > 1.0 || log_p > 1e-12)
        return -2;
    *out = p >= PVALUE_TINY ? pvalue_from_p(p) : pvalue_from_log(log_p);
    return 0;
}

void pvalue_format(pvalue p, int digits, char *buf, size_t size)
{
    digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
    if (p.p >= PVALUE_TINY || isnan(p.log_p)) {
        snprintf(buf, size, "%.*g", digits, p.p);
        return;
    }
    if (isinf(p.log_p)) {
        snprintf(buf, size, "0");
        return;
    }
    double l10 = p.log_p / M_LN10;
    double e = floor(l10);
    char m[64];
    snprintf(m, sizeof m, "%.*f", digits - 1, pow(10.0, l10 - e));
    if (strtod(m, NULL) >= 10.0) {   /* 9.96 rounded up to 10 */
        e += 1.0;
        snprintf(m, sizeof m, "%.*f", digits - 1, 1.0);
    }
    /* As %g: no trailing zeros, no lone point. */
    if (strchr(m, '.')) {
        size_t n = strlen(m);
        while (m[n - 1] == '0')
            m[--n] = '\0';
        if (m[n - 1] == '.')
            m[--n] = '\0';
    }
    snprintf(buf, size, "%se%c%02.0f", m, e < 0 ? '-' : '+', fabs(e));
}

/* ---- distributions ---- */

enum { CF_MAX_ITER = 1000000 };
#define CF_EPS 1e-16
#define CF_TINY 1e-300

/* Continued fraction of Q(a, x) after its prefactor (Lentz's method, as
   in Numerical Recipes' gcf). */
static double gamma_q_cf(double a, double x)
{
    double b = x + 1.0 - a, c = 1.0 / CF_TINY, d = 1.0 / b, h = d;
    for (long i = 1; i <= CF_MAX_ITER; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < CF_TINY)
            d = CF_TINY;
        c = b + an / c;
        if (fabs(c) < CF_TINY)
            c = CF_TINY;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < CF_EPS)
            break;
    }
    return h;
}

double stat_log_gamma_q(double a, double x)
{
    if (!(x > a + 1.0))
        return log(gsl_sf_gamma_inc_Q(a, x));
    return -x + a * log(x) - gsl_sf_lngamma(a) + log(gamma_q_cf(a, x));
}

/* Continued fraction of I_x(a, b) after its prefactor (Numerical
   Recipes' betacf). */
static double beta_cf(double a, double b, double x)
{
    double qab = a + b, qap = a + 1.0, qam = a - 1.0, c = 1.0,
           d = 1.0 - qab * x / qap;
    if (fabs(d) < CF_TINY)
        d = CF_TINY;
    d = 1.0 / d;
    double h = d;
    for (long m = 1; m <= CF_MAX_ITER; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < CF_TINY)
            d = CF_TINY;
        c = 1.0 + aa / c;
        if (fabs(c) < CF_TINY)
            c = CF_TINY;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < CF_TINY)
            d = CF_TINY;
        c = 1.0 + aa / c;
        if (fabs(c) < CF_TINY)
            c = CF_TINY;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < CF_EPS)
            break;
    }
    return h;
}

double stat_log_beta_inc(double a, double b, double x, double log_x,
                         double log1m_x)
{
    if (!(x < (a + 1.0) / (a + b + 2.0)))
        return log(gsl_sf_beta_inc(a, b, x));
    return a * log_x + b * log1m_x - gsl_sf_lnbeta(a, b) - log(a) +
           log(beta_cf(a, b, x));
}

pvalue stat_chi2_sf(double x, double df)
{
    if (!(x > 0.0))
        return pvalue_from_p(1.0);
    double p = gsl_cdf_chisq_Q(x, df);
    if (p >= PVALUE_TINY)
        return pvalue_from_p(p);
    return pvalue_from_log(stat_log_gamma_q(df / 2.0, x / 2.0));
}

pvalue stat_norm_sf(double z)
{
    double p = gsl_cdf_ugaussian_Q(z);
    if (p >= PVALUE_TINY)
        return pvalue_from_p(p);
    return pvalue_from_log(-M_LN2 + gsl_sf_log_erfc(z / M_SQRT2));
}

pvalue stat_t_sf(double t, double df)
{
    /* Past 1e10 degrees of freedom t is normal to 1e-10, and GSL's beta
       functions fail on such df (an abort, with its default handler). */
    if (df > 1e10)
        return stat_norm_sf(t);
    double p = gsl_cdf_tdist_Q(t, df);
    if (p >= PVALUE_TINY || !(t > 0.0))
        return pvalue_from_p(p);
    /* Q(t) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2), in logs that
       survive t^2 overflowing. */
    double r = df / t / t;
    double log_x = log(df) - 2.0 * log(t) - log1p(r), log1m_x = -log1p(r);
    return pvalue_from_log(-M_LN2 + stat_log_beta_inc(df / 2.0, 0.5, exp(log_x),
                                                      log_x, log1m_x));
}

pvalue stat_binom_half_cdf(unsigned long k, unsigned long n)
{
    if (k >= n)
        return pvalue_from_p(1.0);
    double p = gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n);
    if (p >= PVALUE_TINY)
        return pvalue_from_p(p);
    /* P(X <= k) = I_{1/2}(n - k, k + 1) */
    return pvalue_from_log(stat_log_beta_inc((double)(n - k), (double)k + 1.0,
                                             0.5, -M_LN2, -M_LN2));
}

pvalue stat_binom_sf(unsigned long k, unsigned long n, double p)
{
    if (k == 0)
        return pvalue_from_p(1.0);
    if (k > n)
        return pvalue_from_log(-INFINITY);
    double q = gsl_cdf_binomial_Q((unsigned)(k - 1), p, (unsigned)n);
    if (q >= PVALUE_TINY)
        return pvalue_from_p(q);
    /* P(X >= k) = I_p(k, n - k + 1) */
    return pvalue_from_log(stat_log_beta_inc((double)k, (double)(n - k) + 1.0, p, log(p),
                                             log1p(-p)));
}

int alternative_parse(const char *s, alternative *a)
{
    for (int i = ALT_TWO_SIDED; i <= ALT_LESS; i++)
        if (strcmp(s, alternative_name((alternative)i)) == 0) {
            *a = (alternative)i;
            return 0;
        }
    return -1;
}

const char *alternative_name(alternative a)
{
    switch (a) {
    case ALT_GREATER: return "greater";
    case ALT_LESS: return "less";
    default: return "two-sided";
    }
}

/* ---- tests ---- */

void mcnemar_exact(long b, long c, test_result *r)
{
    long k = b < c ? b : c;
    r->statistic = (double)k;
    r->df = NAN;
    r->p = b + c == 0 ? pvalue_from_p(1.0)
                      : pvalue_scale(stat_binom_half_cdf((unsigned long)k,
                                                         (unsigned long)(b + c)), 2.0);
}

/* McNemar's chi-squared, |b - c| less `correction` (Edwards': 1, at
   least 0 after it), squared over b + c, against chi-squared with 1 df. */
static void mcnemar_chi2_with(long b, long c, double correction, test_result *r)
{
    r->df = 1.0;
    if (b + c == 0) {
        r->statistic = 0.0;
        r->p = pvalue_from_p(1.0);
        return;
    }
    double d = fabs((double)(b - c)) - correction;
    if (d < 0.0)
        d = 0.0;
    r->statistic = d * d / (double)(b + c);
    r->p = stat_chi2_sf(r->statistic, 1.0);
}

void mcnemar_chi2(long b, long c, test_result *r)
{
    mcnemar_chi2_with(b, c, 1.0, r);
}

void mcnemar_chi2_uncorrected(long b, long c, test_result *r)
{
    mcnemar_chi2_with(b, c, 0.0, r);
}

int welch_test(const double *x, size_t nx, const double *y, size_t ny,
               alternative alt, test_result *r, double *mean_x, double *mean_y,
               tells_error *err)
{
    if (nx < 2 || ny < 2)
        return tells_error_set(err, NULL, 0, "Welch's test needs 2 values in each "
                               "sample, not %zu and %zu", nx, ny);
    double mx = gsl_stats_mean(x, 1, nx), my = gsl_stats_mean(y, 1, ny);
    double vx = gsl_stats_variance_m(x, 1, nx, mx) / (double)nx;
    double vy = gsl_stats_variance_m(y, 1, ny, my) / (double)ny;
    double se2 = vx + vy;
    if (!(se2 > 0.0))
        return tells_error_set(err, NULL, 0, "both samples have zero variance: "
                               "the t statistic is undefined");
    double df = se2 * se2 / (vx * vx / (double)(nx - 1) + vy * vy / (double)(ny - 1));
    if (!isfinite(mx) || !isfinite(my) || !isfinite(se2) || !isfinite(df))
        return tells_error_set(err, NULL, 0, "values too large: their variance "
                               "overflows a double");
    *mean_x = mx;
    *mean_y = my;
    r->statistic = (mx - my) / sqrt(se2);
    r->df = df;
    double t = r->statistic;
    if (alt == ALT_GREATER)
        r->p = stat_t_sf(t, r->df);
    else if (alt == ALT_LESS)
        r->p = stat_t_sf(-t, r->df);
    else
        r->p = pvalue_scale(stat_t_sf(fabs(t), r->df), 2.0);
    return 0;
}

int friedman_test(const double *scores, size_t nblocks, size_t k,
                  test_result *r, double *mean_rank, tells_error *err)
{
    return friedman_test_ties(scores, nblocks, k, true, r, mean_rank, err);
}

int friedman_test_ties(const double *scores, size_t nblocks, size_t k, bool tie_correction,
                       test_result *r, double *mean_rank, tells_error *err)
{
    if (k < 2 || nblocks == 0)
        return tells_error_usage(err, "Friedman's test needs 2 systems and a block, "
                                 "not %zu and %zu", k, nblocks);
    double *sum = calloc(k, sizeof *sum);
    if (!sum)
        return tells_error_nomem(err, NULL, 0);
    double ties = 0.0;
    for (size_t b = 0; b < nblocks; b++) {
        const double *v = scores + b * k;
        /* Average ranks, ascending; k is small. */
        for (size_t i = 0; i < k; i++) {
            size_t below = 0, equal = 0;
            for (size_t j = 0; j < k; j++) {
                below += v[j] < v[i];
                equal += v[j] == v[i];
            }
            sum[i] += (double)below + ((double)equal + 1.0) / 2.0;
            /* a tie group of t adds t (t^2 - 1): t^2 - 1 per member */
            ties += (double)equal * (double)equal - 1.0;
        }
    }
    double n = (double)nblocks, kk = (double)k, ssbn = 0.0;
    for (size_t i = 0; i < k; i++) {
        ssbn += sum[i] * sum[i];
        mean_rank[i] = kk + 1.0 - sum[i] / n;   /* 1 = best */
    }
    double c = tie_correction ? 1.0 - ties / (kk * (kk * kk - 1.0) * n) : 1.0;
    r->df = kk - 1.0;
    if (c <= 1e-12) {
        r->statistic = 0.0;
        r->p = pvalue_from_p(1.0);
    } else {
        r->statistic = (12.0 / (kk * n * (kk + 1.0)) * ssbn - 3.0 * n * (kk + 1.0)) / c;
        if (r->statistic < 0.0)   /* rounding when all mean ranks are equal */
            r->statistic = 0.0;
        r->p = stat_chi2_sf(r->statistic, r->df);
    }
    free(sum);
    return 0;
}

int cochran_q_test(const unsigned char *correct, size_t nblocks, size_t k,
                   test_result *r, tells_error *err)
{
    if (k < 2 || nblocks == 0)
        return tells_error_usage(err, "Cochran's Q needs 2 systems and a block, "
                                 "not %zu and %zu", k, nblocks);
    double *col = calloc(k, sizeof *col);
    if (!col)
        return tells_error_nomem(err, NULL, 0);
    /* Integer sums in doubles: exact below 2^53. */
    double total = 0.0, row_sq = 0.0;
    for (size_t b = 0; b < nblocks; b++) {
        double row = 0.0;
        for (size_t j = 0; j < k; j++)
            if (correct[b * k + j]) {
                col[j] += 1.0;
                row += 1.0;
            }
        total += row;
        row_sq += row * row;
    }
    double kk = (double)k, col_sq = 0.0;
    for (size_t j = 0; j < k; j++)
        col_sq += col[j] * col[j];
    free(col);
    double den = kk * total - row_sq;
    r->df = kk - 1.0;
    if (den <= 0.0) {
        r->statistic = 0.0;
        r->p = pvalue_from_p(1.0);
        return 0;
    }
    r->statistic = (kk - 1.0) * (kk * col_sq - total * total) / den;
    if (r->statistic < 0.0)
        r->statistic = 0.0;
    r->p = stat_chi2_sf(r->statistic, r->df);
    return 0;
}

static int cmp_p(const pvalue *a, const pvalue *b)
{
    if (a->p >= PVALUE_TINY && b->p >= PVALUE_TINY)
        return (a->p > b->p) - (a->p < b->p);
    return (a->log_p > b->log_p) - (a->log_p < b->log_p);
}

static int by_p(const void *x, const void *y, void *arg)
{
    const pvalue *p = arg;
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    int c = cmp_p(&p[i], &p[j]);
    return c ? c : (i > j) - (i < j);
}

int bh_adjust(const pvalue *p, size_t m, double alpha, pvalue *adj,
              bool *reject, tells_error *err)
{
    size_t *order = array_new(m, sizeof *order);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < m; i++)
        order[i] = i;
    qsort_r(order, m, sizeof *order, by_p, (void *)p);
    pvalue run = pvalue_from_p(1.0);
    size_t last = 0;   /* the largest rank i with p_(i) <= i alpha / m */
    for (size_t i = m; i >= 1; i--) {
        const pvalue *pi = &p[order[i - 1]];
        pvalue q = pvalue_scale(*pi, (double)m / (double)i);
        if (cmp_p(&q, &run) < 0)
            run = q;
        adj[order[i - 1]] = run;
        double level = (double)i / (double)m * alpha;
        if (!last && (pi->p >= PVALUE_TINY ? pi->p <= level : pi->log_p <= log(level)))
            last = i;
    }
    for (size_t i = 1; i <= m; i++)
        reject[order[i - 1]] = i <= last;
    free(order);
    return 0;
}

/* ---- resampling tests ---- */

static const double TIE_EPS = 1e-12;

static bool extreme(double ds, double d, alternative alt, bool centred)
{
    if (centred)   /* the bootstrap distribution, shifted to the null */
        ds -= d;
    switch (alt) {
    case ALT_GREATER: return ds >= d - TIE_EPS;
    case ALT_LESS: return ds <= d + TIE_EPS;
    default: return fabs(ds) >= fabs(d) - TIE_EPS;
    }
}

/* Sets up the tallies of both systems over all examples and the
   per-example accuracy differences; fills the observed values. */
typedef struct pair_state {
    tally ta, tb, wa, wb;
    signed char *diff;    /* correct(A) - correct(B) per example */
    long diff_sum;
    size_t *order;        /* the examples in the byte order of their ids: the
                             draws index it, so that they pick the same
                             examples for any order of the files' rows */
    gsl_rng *rng;
} pair_state;

static void pair_free(pair_state *s)
{
    tally_free(&s->ta);
    tally_free(&s->tb);
    tally_free(&s->wa);
    tally_free(&s->wb);
    free(s->diff);
    free(s->order);
    if (s->rng)
        gsl_rng_free(s->rng);
}

/* metric(A) - metric(B); for accuracy one division of an integer sum,
   so that equal differences compare equal. */
static double observed(const tally *a, const tally *b, metric_kind k,
                       long diff_sum, size_t n)
{
    if (k == METRIC_ACCURACY)
        return n ? (double)diff_sum / (double)n : 0.0;
    return tally_metric(a, k) - tally_metric(b, k);
}

static int pair_init(pair_state *s, const pred_data *d, size_t a, size_t b,
                     metric_kind k, size_t samples, unsigned long seed,
                     resample_result *r)
{
    memset(s, 0, sizeof *s);
    size_t n = pred_n(d);
    if (tally_init_for(&s->ta, d) < 0 || tally_init_for(&s->tb, d) < 0 ||
        tally_init_for(&s->wa, d) < 0 || tally_init_for(&s->wb, d) < 0 ||
        !(s->diff = array_new(n, 1)) || !(s->order = vocab_sorted_ids(d->ids)) ||
        !(s->rng = gsl_rng_alloc(gsl_rng_mt19937))) {
        pair_free(s);
        return -1;
    }
    gsl_rng_set(s->rng, seed);
    tally_add_system(&s->ta, d, a);
    tally_add_system(&s->tb, d, b);
    for (size_t i = 0; i < n; i++) {
        s->diff[i] = (signed char)(pred_correct(d, a, i) - pred_correct(d, b, i));
        s->diff_sum += s->diff[i];
    }
    memset(r, 0, sizeof *r);
    r->samples = samples;
    r->a_value = tally_metric(&s->ta, k);
    r->b_value = tally_metric(&s->tb, k);
    r->delta = observed(&s->ta, &s->tb, k, s->diff_sum, n);
    return 0;
}

int paired_bootstrap(const pred_data *d, size_t a, size_t b, metric_kind k,
                     size_t samples, unsigned long seed, alternative alt,
                     resample_result *r, tells_error *err)
{
    pair_state s;
    if (pair_init(&s, d, a, b, k, samples, seed, r) < 0)
        return tells_error_nomem(err, NULL, 0);
    size_t n = pred_n(d);
    for (size_t it = 0; it < samples; it++) {
        long sum = 0;
        if (k != METRIC_ACCURACY) {
            tally_clear(&s.wa);
            tally_clear(&s.wb);
        }
        for (size_t j = 0; j < n; j++) {
            size_t i = s.order[gsl_rng_uniform_int(s.rng, n)];
            if (k == METRIC_ACCURACY) {
                sum += s.diff[i];
                continue;
            }
            const uint32_t *g, *pa, *pb;
            size_t ng = pred_set(d, 0, i, &g), na = pred_set(d, a + 1, i, &pa),
                   nb = pred_set(d, b + 1, i, &pb);
            tally_add(&s.wa, g, ng, pa, na, 1);
            tally_add(&s.wb, g, ng, pb, nb, 1);
        }
        double ds = observed(&s.wa, &s.wb, k, sum, n);
        r->count += extreme(ds, r->delta, alt, true);
    }
    r->p = pvalue_from_p(((double)r->count + 1.0) / ((double)samples + 1.0));
    pair_free(&s);
    return 0;
}

int permutation_test(const pred_data *d, size_t a, size_t b, metric_kind k,
                     size_t samples, unsigned long seed, alternative alt,
                     resample_result *r, tells_error *err)
{
    pair_state s;
    if (pair_init(&s, d, a, b, k, samples, seed, r) < 0)
        return tells_error_nomem(err, NULL, 0);
    size_t n = pred_n(d), nd = 0;
    size_t *disc = array_new(n, sizeof *disc);
    if (!disc) {
        pair_free(&s);
        return tells_error_nomem(err, NULL, 0);
    }
    /* Swapping equal predictions changes nothing: draw only for the rest,
       in the order of their ids. */
    for (size_t q = 0; q < n; q++) {
        size_t i = s.order[q];
        const uint32_t *pa, *pb;
        size_t na = pred_set(d, a + 1, i, &pa), nb = pred_set(d, b + 1, i, &pb);
        if (na != nb || memcmp(pa, pb, na * sizeof *pa) != 0)
            disc[nd++] = i;
    }
    for (size_t it = 0; it < samples; it++) {
        long sum = s.diff_sum;
        if (k != METRIC_ACCURACY) {
            tally_copy(&s.wa, &s.ta);
            tally_copy(&s.wb, &s.tb);
        }
        for (size_t j = 0; j < nd; j++) {
            if (!gsl_rng_uniform_int(s.rng, 2))
                continue;
            size_t i = disc[j];
            if (k == METRIC_ACCURACY) {
                sum -= 2 * s.diff[i];
                continue;
            }
            const uint32_t *g, *pa, *pb;
            size_t ng = pred_set(d, 0, i, &g), na = pred_set(d, a + 1, i, &pa),
                   nb = pred_set(d, b + 1, i, &pb);
            tally_add(&s.wa, g, ng, pa, na, -1);
            tally_add(&s.wa, g, ng, pb, nb, 1);
            tally_add(&s.wb, g, ng, pb, nb, -1);
            tally_add(&s.wb, g, ng, pa, na, 1);
        }
        double ds = observed(&s.wa, &s.wb, k, sum, n);
        r->count += extreme(ds, r->delta, alt, false);
    }
    r->p = pvalue_from_p(((double)r->count + 1.0) / ((double)samples + 1.0));
    free(disc);
    pair_free(&s);
    return 0;
}

/* ---- number files ---- */

int number_parse(const char *s, size_t len, double *v)
{
    if (len == 0 || strchr(" \t\n\v\f\r", s[0]))
        return 0;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end != s + len)
        return 0;
    return isfinite(*v) ? 1 : -1;
}

/* The fields of a header line: their number, and in *col the first one
   named column; false when none is. */
static bool header_column(const char *line, const char *column, size_t *ncols, size_t *col)
{
    size_t want = strlen(column);
    bool found = false;
    *ncols = 0;
    for (const char *s = line;;) {
        const char *tab = strchr(s, '\t');
        size_t l = tab ? (size_t)(tab - s) : strlen(s);
        if (!found && l == want && memcmp(s, column, l) == 0) {
            found = true;
            *col = *ncols;
        }
        ++*ncols;
        if (!tab)
            return found;
        s = tab + 1;
    }
}

/* Field col of a row of len bytes, in *cell and *cell_len (the whole
   row when it has fewer fields); returns the number of fields. */
static size_t row_field(char *line, size_t len, size_t col, char **cell, size_t *cell_len)
{
    char *s = line, *end = line + len;
    size_t k = 0;
    *cell = line;
    *cell_len = len;
    for (;;) {
        char *tab = memchr(s, '\t', (size_t)(end - s));
        char *e = tab ? tab : end;
        if (k++ == col) {
            *cell = s;
            *cell_len = (size_t)(e - s);
        }
        if (!tab)
            return k;
        s = tab + 1;
    }
}

/* Reads the header line of r, which must name column: 0 with the
   header's field count and the column's index, or -1 with err set. */
static int read_header(line_reader *r, const char *column, char **line, size_t *ncols,
                       size_t *col, tells_error *err)
{
    size_t len;
    int rc = line_reader_header(r, line, &len, err);
    if (rc == 0)
        return tells_error_set(err, r->name, 0, "empty input: expected a header "
                               "naming the column '%s'", column);
    if (rc < 0 || header_line_check(*line, len, r->name, 1, err) < 0)
        return -1;
    if (!header_column(*line, column, ncols, col))
        return tells_error_set(err, r->name, 1, "no '%s' column in the header", column);
    return 0;
}

int numbers_read_columns(const char *path, const char *const *column, size_t k,
                         double **v, size_t *n, tells_error *err)
{
    if (k < 1 || k > NUMBERS_MAX_COLUMNS || (k > 1 && !column[0]))
        return tells_error_usage(err, "numbers are read from 1 to %d named columns, not %zu",
                                 NUMBERS_MAX_COLUMNS, k);
    size_t cap[NUMBERS_MAX_COLUMNS] = {0}, col[NUMBERS_MAX_COLUMNS] = {0}, ncols = 1;
    for (size_t i = 0; i < k; i++) {
        v[i] = NULL;
        n[i] = 0;
    }
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    char *line;
    size_t len;
    int rc = column[0] ? read_header(&r, column[0], &line, &ncols, &col[0], err) : 0;
    /* The other columns of the same header (line stays valid until the
       next read). */
    for (size_t i = 1; rc == 0 && i < k; i++)
        if (!header_column(line, column[i], &ncols, &col[i]))
            rc = tells_error_set(err, r.name, 1, "no '%s' column in the header", column[i]);
    while (rc == 0 && (rc = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = -1;
        if (len == 0) {
            rc = 0;
            continue;
        }
        if (text_line_check(line, len, r.name, r.lineno, err) < 0)
            break;
        size_t i;
        for (i = 0; i < k; i++) {
            char *cell;
            size_t cl, fields = row_field(line, len, col[i], &cell, &cl);
            if (fields != ncols) {
                tab_columns_error(err, r.name, r.lineno, ncols, fields, NULL);
                break;
            }
            char after = cell[cl];
            cell[cl] = '\0';
            double x;
            int ok = number_parse(cell, cl, &x);
            if (ok <= 0) {
                tells_error_set(err, r.name, r.lineno, ok == 0 ? "malformed number '%s'"
                                : "not a finite number '%s'", cell);
                break;
            }
            cell[cl] = after;
            if (ARRAY_RESERVE(v[i], cap[i], n[i] + 1) < 0) {
                tells_error_nomem(err, r.name, r.lineno);
                break;
            }
            v[i][n[i]++] = x;
        }
        if (i == k)
            rc = 0;
    }
    if (rc == 0 && n[0] == 0)
        rc = tells_error_set(err, r.name, 0, "no numbers");
    line_reader_close(&r);
    if (rc < 0) {
        for (size_t i = 0; i < k; i++) {
            free(v[i]);
            v[i] = NULL;
            n[i] = 0;
        }
        return -1;
    }
    return 0;
}

int numbers_read(const char *path, const char *column, double **v, size_t *n,
                 tells_error *err)
{
    return numbers_read_columns(path, &column, 1, v, n, err);
}

void p_table_free(p_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i]);
    free(t->rows);
    free(t->header);
    free(t->p);
    free(t->has_p);
    memset(t, 0, sizeof *t);
}

int p_table_read(p_table *t, const char *path, const char *column,
                 tells_error *err)
{
    memset(t, 0, sizeof *t);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    char *line;
    size_t len, rows_cap = 0, p_cap = 0, has_cap = 0, ncols = 0, col = 0;
    int rc = read_header(&r, column, &line, &ncols, &col, err);
    if (rc == 0 && !(t->header = strdup(line)))
        rc = tells_error_nomem(err, r.name, 1);
    while (rc == 0 && (rc = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = -1;
        if (len == 0) {
            rc = 0;
            continue;
        }
        if (text_line_check(line, len, r.name, r.lineno, err) < 0)
            break;
        if (ARRAY_RESERVE(t->rows, rows_cap, t->n + 1) < 0 ||
            ARRAY_RESERVE(t->p, p_cap, t->n + 1) < 0 ||
            ARRAY_RESERVE(t->has_p, has_cap, t->n + 1) < 0 ||
            !(t->rows[t->n] = strdup(line))) {
            tells_error_nomem(err, r.name, r.lineno);
            break;
        }
        size_t i = t->n++;
        char *cell;
        size_t cl, k = row_field(line, len, col, &cell, &cl);
        if (k != ncols) {
            tab_columns_error(err, r.name, r.lineno, ncols, k, NULL);
            break;
        }
        cell[cl] = '\0';
        t->has_p[i] = strcmp(cell, "-") != 0;
        if (t->has_p[i]) {
            int ok = pvalue_parse(cell, &t->p[i]);
            if (ok < 0) {
                tells_error_set(err, r.name, r.lineno, ok == -1
                                ? "malformed p-value '%s'"
                                : "p-value '%s' is not in [0, 1]", cell);
                break;
            }
            t->m++;
        }
        rc = 0;
    }
    if (rc == 0 && t->m == 0)
        rc = tells_error_set(err, r.name, 0, "no p-values");
    line_reader_close(&r);
    if (rc < 0) {
        p_table_free(t);
        return -1;
    }
    return 0;
}

/* ---- output ---- */

void test_write_header(FILE *fp)
{
    fputs("test\tstatistic\tdf\tp_value\tdetail\n", fp);
}

void test_write(FILE *fp, const char *test, double statistic, double df,
                const pvalue *p, int digits, const char *detail)
{
    char pbuf[64] = "-", dbuf[64] = "-";
    if (p)
        pvalue_format(*p, digits, pbuf, sizeof pbuf);
    if (!isnan(df))
        snprintf(dbuf, sizeof dbuf, df == floor(df) && fabs(df) < 1e15 ? "%.0f" : "%.6f",
                 df);
    if (isnan(statistic))
        fprintf(fp, "%s\tnan\t%s\t%s\t%s\n", test, dbuf, pbuf, detail);
    else
        fprintf(fp, "%s\t%.6f\t%s\t%s\t%s\n", test, statistic, dbuf, pbuf, detail);
}
