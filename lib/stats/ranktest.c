#include <config.h>
#include "stats/ranktest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/u64map.h"

static int by_value(const void *a, const void *b, void *ctx)
{
    const double *x = ctx;
    double u = x[*(const size_t *)a], v = x[*(const size_t *)b];
    return (u > v) - (u < v);
}

/* The rank sums and the ties' sum of t^3 - t of data with few distinct
   values (the features of tells-pairs: shares of a handful of words,
   word counts): each distinct value's count per group through a hash
   map, then only the distinct values sorted. The sums are added in the
   order the sort of every value adds them (runs of ties in increasing
   order, each member adding the run's mean rank), so they are the same
   bits. 1 when done, 0 when x has a NaN, more than about n / 8 distinct
   values (a sort of x is then as quick) or more than about 4 (n / k + 1)
   (the table of counts would outgrow the data), -1 when out of memory;
   rank_sum and ties are only added to when it is done. */
static int ranks_by_distinct(const double *x, const size_t *g, size_t n, size_t k,
                             double *rank_sum, double *ties)
{
    u64map ix;
    if (u64map_init(&ix) < 0)
        return -1;
    double *dv = NULL;
    size_t *cnt = NULL, *order = NULL, dcap = 0, ccap = 0, u = 0;
    /* The most distinct values taken: the table of counts is u by k,
       kept under 4 n entries, so that many classes do not make it larger
       or slower than a sort. */
    size_t most = 4 * (n / k + 1) - 1;
    if (n >= 64 && n / 8 + 1 < most)
        most = n / 8 + 1;
    int rc = 1;
    for (size_t i = 0; rc == 1 && i < n; i++) {
        double v = x[i] == 0 ? 0.0 : x[i];   /* -0 and 0 are one value */
        uint64_t key, at;
        memcpy(&key, &v, sizeof key);
        if (isnan(v)) {
            rc = 0;
            break;
        }
        if (!u64map_get(&ix, key, &at)) {
            if (u == most) {
                rc = 0;
                break;
            }
            at = u;
            if (u64map_put(&ix, key, at) < 0 || ARRAY_RESERVE(dv, dcap, u + 1) < 0 ||
                ARRAY_RESERVE(cnt, ccap, (u + 1) * k) < 0) {
                rc = -1;
                break;
            }
            dv[u] = v;
            memset(cnt + u * k, 0, k * sizeof *cnt);
            u++;
        }
        cnt[at * k + g[i]]++;
    }
    if (rc == 1 && !(order = array_new(u ? u : 1, sizeof *order)))
        rc = -1;
    if (rc == 1) {
        for (size_t d = 0; d < u; d++)
            order[d] = d;
        qsort_r(order, u, sizeof *order, by_value, dv);
        size_t i = 0;
        for (size_t d = 0; d < u; d++) {
            const size_t *c = cnt + order[d] * k;
            size_t t = 0;
            for (size_t j = 0; j < k; j++)
                t += c[j];
            size_t j = i + t;
            double rank = (double)(i + j + 1) / 2.0;  /* 1-based mean */
            for (size_t gj = 0; gj < k; gj++)
                for (size_t m = 0; m < c[gj]; m++)
                    rank_sum[gj] += rank;
            double td = (double)t;
            *ties += td * td * td - td;
            i = j;
        }
    }
    u64map_free(&ix);
    free(dv);
    free(cnt);
    free(order);
    return rc;
}

/* The same by sorting every observation: 0, or -1 when out of memory. */
static int ranks_by_sort(const double *x, const size_t *g, size_t n, double *rank_sum,
                         double *ties)
{
    size_t *order = array_new(n, sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, by_value, (void *)x);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && x[order[j]] == x[order[i]])
            j++;
        double t = (double)(j - i), rank = (double)(i + j + 1) / 2.0;  /* 1-based mean */
        for (size_t m = i; m < j; m++)
            rank_sum[g[order[m]]] += rank;
        *ties += t * t * t - t;
        i = j;
    }
    free(order);
    return 0;
}

int kruskal_wallis(const double *x, const size_t *g, size_t n, size_t k, test_result *r,
                   tells_error *err)
{
    size_t *size = array_new(k, sizeof *size);
    double *rank_sum = array_new(k, sizeof *rank_sum);
    if (!size || !rank_sum) {
        free(size);
        free(rank_sum);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < n; i++)
        size[g[i]]++;
    size_t groups = 0;
    for (size_t j = 0; j < k; j++)
        groups += size[j] > 0;
    int rc = 0;
    if (groups < 2) {
        rc = tells_error_usage(err, "the Kruskal-Wallis test needs two groups with "
                               "observations, not %zu", groups);
        goto done;
    }
    double ties = 0;
    int fast = ranks_by_distinct(x, g, n, k, rank_sum, &ties);
    if (fast < 0 || (fast == 0 && ranks_by_sort(x, g, n, rank_sum, &ties) < 0)) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
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
    free(size);
    free(rank_sum);
    return rc;
}
