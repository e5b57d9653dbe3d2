#include <config.h>
#include "stats/chisq.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

int chisq_gof(const double *observed, const double *expected_share, size_t n,
              test_result *r, tells_error *err)
{
    double total = 0, x2 = 0;
    size_t cells = 0;
    for (size_t i = 0; i < n; i++)
        total += observed[i];
    for (size_t i = 0; i < n; i++) {
        double e = total * expected_share[i];
        if (e <= 0) {
            if (observed[i] > 0)
                return tells_error_set(err, NULL, 0, "%g observations in a cell "
                                       "expected to be empty", observed[i]);
            continue;
        }
        x2 += (observed[i] - e) * (observed[i] - e) / e;
        cells++;
    }
    r->statistic = x2;
    r->df = cells > 1 ? (double)(cells - 1) : NAN;
    r->p = cells > 1 ? stat_chi2_sf(x2, r->df) : pvalue_from_p(1.0);
    return 0;
}

int chisq_homogeneity(const double *a, const double *b, size_t n, test_result *r)
{
    double ta = 0, tb = 0;
    size_t cols = 0;
    for (size_t i = 0; i < n; i++) {
        ta += a[i];
        tb += b[i];
        cols += a[i] + b[i] > 0;
    }
    double x2 = 0, t = ta + tb;
    if (cols >= 2 && ta > 0 && tb > 0) {
        for (size_t i = 0; i < n; i++) {
            double col = a[i] + b[i];
            if (col <= 0)
                continue;
            double ea = ta * col / t, eb = tb * col / t;
            x2 += (a[i] - ea) * (a[i] - ea) / ea + (b[i] - eb) * (b[i] - eb) / eb;
        }
    }
    r->statistic = x2;
    if (cols < 2 || ta <= 0 || tb <= 0) {
        r->df = NAN;
        r->p = pvalue_from_p(1.0);
    } else {
        r->df = (double)(cols - 1);
        r->p = stat_chi2_sf(x2, r->df);
    }
    return 0;
}

void proportion_greater(double x1, double n1, double x2, double n2, test_result *r)
{
    double p = (x1 + x2) / (n1 + n2);
    double se = sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
    r->df = NAN;
    if (!(se > 0)) {
        r->statistic = 0;
        r->p = pvalue_from_p(1.0);
        return;
    }
    r->statistic = (x1 / n1 - x2 / n2) / se;
    r->p = stat_norm_sf(r->statistic);
}

/* ---- goodness of fit with small expected counts ---- */

const char *gof_method_name(gof_method m)
{
    switch (m) {
    case GOF_EXACT: return "exact";
    case GOF_MONTE_CARLO: return "monte-carlo";
    default: return "chi2";
    }
}

/* What the exact test needs: the cells with a share above 0, the log of
   their shares, log x! for x up to n, and log P(observed) with the
   tolerance of scipy.stats.binomtest (a probability within 1e-7 of the
   observed one, relatively, counts as no more probable). */
typedef struct multinomial {
    size_t k;
    uint64_t n;
    uint64_t *obs;            /* [k] */
    double *log_s;            /* [k] */
    double *lnfact;           /* [n + 1] */
    double log_pobs, bound;
    double sum;               /* of P(x) / P(observed) over the outcomes counted */
} multinomial;

static void multinomial_free(multinomial *m)
{
    free(m->obs);
    free(m->log_s);
    free(m->lnfact);
}

static double multinomial_log_p(const multinomial *m, const uint64_t *x)
{
    double lp = m->lnfact[m->n];
    for (size_t c = 0; c < m->k; c++)
        lp += (double)x[c] * m->log_s[c] - m->lnfact[x[c]];
    return lp;
}

static int multinomial_init(multinomial *m, const uint64_t *observed, const double *share,
                            size_t k, tells_error *err)
{
    memset(m, 0, sizeof *m);
    for (size_t c = 0; c < k; c++)
        m->n += observed[c];
    m->obs = array_new(k, sizeof *m->obs);
    m->log_s = array_new(k, sizeof *m->log_s);
    m->lnfact = array_new(m->n + 1, sizeof *m->lnfact);
    if (!m->obs || !m->log_s || !m->lnfact) {
        multinomial_free(m);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t c = 0; c < k; c++) {
        if (share[c] > 0) {
            m->obs[m->k] = observed[c];
            m->log_s[m->k++] = log(share[c]);
        } else if (observed[c] > 0) {
            multinomial_free(m);
            return tells_error_set(err, NULL, 0, "%" PRIu64 " observations in a cell "
                                   "expected to be empty", observed[c]);
        }
    }
    for (uint64_t i = 0; i <= m->n; i++)
        m->lnfact[i] = lgamma((double)i + 1.0);
    m->log_pobs = multinomial_log_p(m, m->obs);
    m->bound = m->log_pobs + log1p(1e-7);
    return 0;
}

/* Every outcome of the cells from cell on with left observations, lp the
   log probability of those before it (with log n!). */
static void enumerate_cells(multinomial *m, size_t cell, uint64_t left, double lp)
{
    if (cell + 1 == m->k) {
        lp += (double)left * m->log_s[cell] - m->lnfact[left];
        if (lp <= m->bound)
            m->sum += exp(lp - m->log_pobs);
        return;
    }
    for (uint64_t x = 0; x <= left; x++)
        enumerate_cells(m, cell + 1, left - x,
                        lp + (double)x * m->log_s[cell] - m->lnfact[x]);
}

double multinomial_outcomes(uint64_t n, size_t k)
{
    if (k == 0)
        return n == 0 ? 1 : 0;
    /* C(n + k - 1, k - 1) */
    return round(exp(lgamma((double)n + (double)k) - lgamma((double)k) -
                     lgamma((double)n + 1.0)));
}

int multinomial_exact(const uint64_t *observed, const double *share, size_t k,
                      pvalue *p, tells_error *err)
{
    multinomial m;
    if (multinomial_init(&m, observed, share, k, err) < 0)
        return -1;
    if (m.k <= 1) {
        *p = pvalue_from_p(1.0);
    } else {
        enumerate_cells(&m, 0, m.n, m.lnfact[m.n]);
        double log_p = m.log_pobs + log(m.sum);
        *p = log_p >= 0 ? pvalue_from_p(1.0) : pvalue_from_log(log_p);
    }
    multinomial_free(&m);
    return 0;
}

int multinomial_monte_carlo(const uint64_t *observed, const double *share, size_t k,
                            size_t draws, unsigned long seed, pvalue *p, tells_error *err)
{
    multinomial m;
    if (multinomial_init(&m, observed, share, k, err) < 0)
        return -1;
    size_t cells = m.k;
    uint64_t n = m.n;
    if (cells <= 1 || n > UINT_MAX) {
        multinomial_free(&m);
        *p = pvalue_from_p(1.0);
        return cells <= 1 ? 0 : tells_error_set(err, NULL, 0, "%" PRIu64 " observations: "
                                                "too many to draw", n);
    }
    double *prob = array_new(m.k, sizeof *prob);
    unsigned *draw = array_new(m.k, sizeof *draw);
    uint64_t *x = array_new(m.k, sizeof *x);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!prob || !draw || !x || !rng) {
        free(prob);
        free(draw);
        free(x);
        if (rng)
            gsl_rng_free(rng);
        multinomial_free(&m);
        return tells_error_nomem(err, NULL, 0);
    }
    gsl_rng_set(rng, seed);
    for (size_t c = 0; c < m.k; c++)
        prob[c] = exp(m.log_s[c]);
    size_t as_extreme = 0;
    for (size_t b = 0; b < draws; b++) {
        gsl_ran_multinomial(rng, m.k, (unsigned)m.n, prob, draw);
        for (size_t c = 0; c < m.k; c++)
            x[c] = draw[c];
        as_extreme += multinomial_log_p(&m, x) <= m.bound;
    }
    *p = pvalue_from_p((double)(as_extreme + 1) / (double)(draws + 1));
    free(prob);
    free(draw);
    free(x);
    gsl_rng_free(rng);
    multinomial_free(&m);
    return 0;
}

int gof_test(const uint64_t *observed, const double *share, size_t k, unsigned long seed,
             gof_result *r, tells_error *err)
{
    double *obs = array_new(k, sizeof *obs);
    if (!obs)
        return tells_error_nomem(err, NULL, 0);
    uint64_t n = 0;
    for (size_t c = 0; c < k; c++) {
        obs[c] = (double)observed[c];
        n += observed[c];
    }
    int rc = chisq_gof(obs, share, k, &r->test, err);
    free(obs);
    if (rc < 0)
        return -1;
    r->method = GOF_CHI2;
    /* An expected count of 5 computed as 4.9999999999999991 is 5. */
    size_t cells = 0;
    bool small = false;
    for (size_t c = 0; c < k; c++)
        if (share[c] > 0) {
            cells++;
            small |= (double)n * share[c] < GOF_MIN_EXPECTED * (1 - 1e-12);
        }
    if (!small || cells < 2)
        return 0;
    if (multinomial_outcomes(n, cells) <= GOF_EXACT_MAX_OUTCOMES) {
        r->method = GOF_EXACT;
        return multinomial_exact(observed, share, k, &r->test.p, err);
    }
    r->method = GOF_MONTE_CARLO;
    return multinomial_monte_carlo(observed, share, k, GOF_MONTE_CARLO_DRAWS, seed,
                                   &r->test.p, err);
}

/* ---- a flag against the class: the 2 x k table ---- */

typedef struct table2 {
    size_t k;
    const uint64_t *c;      /* column totals */
    double *lnc;            /* per column: ln C(c_j, x_j) for x_j = 0 .. c_j, at off[j] */
    size_t *off;
    double log_bound;       /* ln P(observed) (1 + 1e-7), without the ln C(N, r) */
    double sum;             /* of exp(ln P - ln P(observed)) over the tables as extreme */
    double log_obs;
    uint64_t *suffix;       /* capacity of columns j .. k-1 */
} table2;

static void enumerate_tables(table2 *t, size_t j, uint64_t left, double acc)
{
    if (j + 1 == t->k) {
        if (left > t->c[j])
            return;
        double lp = acc + t->lnc[t->off[j] + left];
        if (lp <= t->log_bound)
            t->sum += exp(lp - t->log_obs);
        return;
    }
    uint64_t hi = left < t->c[j] ? left : t->c[j];
    uint64_t lo = left > t->suffix[j + 1] ? left - t->suffix[j + 1] : 0;
    for (uint64_t x = lo; x <= hi; x++)
        enumerate_tables(t, j + 1, left - x, acc + t->lnc[t->off[j] + x]);
}

int flag_class_test(const uint64_t *flagged, const uint64_t *total, size_t k,
                    unsigned long seed, gof_result *r, tells_error *err)
{
    double *a = array_new(k ? k : 1, sizeof *a), *b = array_new(k ? k : 1, sizeof *b);
    uint64_t *x = array_new(k ? k : 1, sizeof *x), *c = array_new(k ? k : 1, sizeof *c);
    size_t *off = array_new(k + 1, sizeof *off);
    uint64_t *suffix = array_new(k + 1, sizeof *suffix);
    double *lnc = NULL;
    gsl_rng *rng = NULL;
    int rc = 0;
    if (!a || !b || !x || !c || !off || !suffix) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    /* The classes with examples; the smaller row's counts. */
    size_t m = 0;
    uint64_t nf = 0, n = 0;
    for (size_t j = 0; j < k; j++) {
        if (flagged[j] > total[j]) {
            rc = tells_error_set(err, NULL, 0, "%" PRIu64 " flagged of %" PRIu64 " examples",
                                 flagged[j], total[j]);
            goto done;
        }
        if (total[j] == 0)
            continue;
        a[m] = (double)flagged[j];
        b[m] = (double)(total[j] - flagged[j]);
        x[m] = flagged[j];
        c[m++] = total[j];
        nf += flagged[j];
        n += total[j];
    }
    chisq_homogeneity(a, b, m, &r->test);
    r->method = GOF_CHI2;
    if (m < 2 || nf == 0 || nf == n)
        goto done;
    bool small = false;
    for (size_t j = 0; j < m; j++) {
        double col = (double)c[j];
        small |= col * (double)nf / (double)n < GOF_MIN_EXPECTED * (1 - 1e-12) ||
                 col * (double)(n - nf) / (double)n < GOF_MIN_EXPECTED * (1 - 1e-12);
    }
    if (!small)
        goto done;
    uint64_t row = nf;
    if (n - nf < nf) {
        row = n - nf;
        for (size_t j = 0; j < m; j++)
            x[j] = c[j] - x[j];
    }
    /* ln C(c_j, i) for i = 0 .. min(c_j, row). */
    size_t cells = 0;
    for (size_t j = 0; j < m; j++) {
        off[j] = cells;
        cells += (size_t)((c[j] < row ? c[j] : row) + 1);
    }
    if (!(lnc = array_new(cells, sizeof *lnc))) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t j = 0; j < m; j++) {
        uint64_t top = c[j] < row ? c[j] : row;
        for (uint64_t i = 0; i <= top; i++)
            lnc[off[j] + i] = lgamma((double)c[j] + 1) - lgamma((double)i + 1) -
                              lgamma((double)(c[j] - i) + 1);
    }
    double log_obs = 0;
    for (size_t j = 0; j < m; j++)
        log_obs += lnc[off[j] + x[j]];
    double log_all = lgamma((double)n + 1) - lgamma((double)row + 1) -
                     lgamma((double)(n - row) + 1);
    uint64_t *cap = c;
    table2 t = {.k = m, .c = cap, .lnc = lnc, .off = off, .log_obs = log_obs,
                .log_bound = log_obs + log1p(1e-7), .suffix = suffix};
    suffix[m] = 0;
    for (size_t j = m; j-- > 0;)
        suffix[j] = suffix[j + 1] + (c[j] < row ? c[j] : row);
    if (multinomial_outcomes(row, m) <= GOF_EXACT_MAX_OUTCOMES) {
        r->method = GOF_EXACT;
        enumerate_tables(&t, 0, row, 0);
        double log_p = log_obs - log_all + log(t.sum);
        r->test.p = log_p >= 0 ? pvalue_from_p(1.0) : pvalue_from_log(log_p);
        goto done;
    }
    /* Tables drawn column by column: the flagged of column j among the
       examples left, hypergeometric. */
    if (row > UINT_MAX || n > UINT_MAX) {
        rc = tells_error_set(err, NULL, 0, "%" PRIu64 " examples: too many to draw", n);
        goto done;
    }
    if (!(rng = gsl_rng_alloc(gsl_rng_mt19937))) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    gsl_rng_set(rng, seed);
    r->method = GOF_MONTE_CARLO;
    size_t as_extreme = 0;
    for (size_t d = 0; d < GOF_MONTE_CARLO_DRAWS; d++) {
        uint64_t left = row, rest = n;
        double lp = 0;
        for (size_t j = 0; j < m; j++) {
            unsigned xj = j + 1 == m ? (unsigned)left
                                     : gsl_ran_hypergeometric(rng, (unsigned)c[j],
                                                              (unsigned)(rest - c[j]),
                                                              (unsigned)left);
            lp += lnc[off[j] + xj];
            left -= xj;
            rest -= c[j];
        }
        as_extreme += lp <= t.log_bound;
    }
    r->test.p = pvalue_from_p((double)(as_extreme + 1) / (double)(GOF_MONTE_CARLO_DRAWS + 1));
done:
    if (rng)
        gsl_rng_free(rng);
    free(a);
    free(b);
    free(x);
    free(c);
    free(off);
    free(suffix);
    free(lnc);
    return rc;
}
