#include <config.h>
#include "stats/ranktest.h"

#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"

static int by_value(const void *a, const void *b, void *ctx)
{
    const double *x = ctx;
    double u = x[*(const size_t *)a], v = x[*(const size_t *)b];
    return (u > v) - (u < v);
}

int kruskal_wallis(const double *x, const size_t *g, size_t n, size_t k, test_result *r,
                   tells_error *err)
{
    size_t *order = array_new(n, sizeof *order), *size = array_new(k, sizeof *size);
    double *rank_sum = array_new(k, sizeof *rank_sum);
    if (!order || !size || !rank_sum) {
        free(order);
        free(size);
        free(rank_sum);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        size[g[i]]++;
    }
    size_t groups = 0;
    for (size_t j = 0; j < k; j++)
        groups += size[j] > 0;
    int rc = 0;
    if (groups < 2) {
        rc = tells_error_usage(err, "the Kruskal-Wallis test needs two groups with "
                               "observations, not %zu", groups);
        goto done;
    }
    qsort_r(order, n, sizeof *order, by_value, (void *)x);
    double ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && x[order[j]] == x[order[i]])
            j++;
        double t = (double)(j - i), rank = (double)(i + j + 1) / 2.0;  /* 1-based mean */
        for (size_t m = i; m < j; m++)
            rank_sum[g[order[m]]] += rank;
        ties += t * t * t - t;
        i = j;
    }
    double N = (double)n, h = 0;
    for (size_t j = 0; j < k; j++)
        if (size[j])
            h += rank_sum[j] * rank_sum[j] / (double)size[j];
    h = 12.0 / (N * (N + 1.0)) * h - 3.0 * (N + 1.0);
    double correction = 1.0 - ties / (N * N * N - N);
    r->df = (double)(groups - 1);
    if (correction <= 0) {
        /* Every observation the same: the groups cannot differ. */
        r->statistic = 0;
        r->p = pvalue_from_p(1.0);
    } else {
        r->statistic = h / correction;
        if (r->statistic < 0)
            r->statistic = 0;  /* rounding of a zero */
        r->p = stat_chi2_sf(r->statistic, r->df);
    }
done:
    free(order);
    free(size);
    free(rank_sum);
    return rc;
}
