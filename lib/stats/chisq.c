#include <config.h>
#include "stats/chisq.h"

#include <math.h>

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
