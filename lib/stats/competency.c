#include <config.h>
#include "stats/competency.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void competency_options_default(competency_options *o)
{
    o->class_prior = false;
    o->min_count = 1;
    o->alpha = 0.01;
}

void competency_free(competency_table *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}

typedef struct sort_ctx {
    const vocab *tokens;
    const size_t *class_rank;
} sort_ctx;

static int by_class_z(const void *a, const void *b, void *arg)
{
    const competency_row *x = a, *y = b;
    const sort_ctx *s = arg;
    if (x->class_id != y->class_id)
        return s->class_rank[x->class_id] < s->class_rank[y->class_id] ? -1 : 1;
    if (x->z != y->z)
        return x->z > y->z ? -1 : 1;
    return strcmp(vocab_str(s->tokens, x->token), vocab_str(s->tokens, y->token));
}

int competency_compute(const token_counts *tc, const competency_options *o,
                       competency_table *out, tells_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    if (nc < 2)
        return tells_error_set(err, NULL, 0, "one class only: nothing to test");
    uint64_t rows = 0;
    for (size_t c = 0; c < nc; c++)
        rows += tc->examples[c];
    size_t ntested = 0;
    for (size_t t = 0; t < nt; t++) {
        uint64_t n = 0;
        for (size_t c = 0; c < nc; c++)
            n += tc->docs[c][t];
        ntested += n >= o->min_count && n > 0;
    }
    size_t *order = vocab_sorted_ids(tc->classes);
    size_t *rank = array_new(nc, sizeof *rank);
    out->rows = array_new(ntested * nc, sizeof *out->rows);
    if (!order || !rank || !out->rows) {
        free(order);
        free(rank);
        competency_free(out);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < nc; i++)
        rank[order[i]] = i;
    out->tested = ntested * nc;
    out->threshold = out->tested ? o->alpha / (double)out->tested : o->alpha;
    for (size_t t = 0; t < nt; t++) {
        uint64_t n = 0;
        for (size_t c = 0; c < nc; c++)
            n += tc->docs[c][t];
        if (n < o->min_count || n == 0)
            continue;
        for (size_t c = 0; c < nc; c++) {
            competency_row *r = &out->rows[out->n++];
            r->class_id = c;
            r->token = t;
            r->n = n;
            r->p_hat = (double)tc->docs[c][t] / (double)n;
            r->p0 = o->class_prior ? (double)tc->examples[c] / (double)rows
                                   : 1.0 / (double)nc;
            /* A class without examples has p0 = 0: no token can favour it. */
            if (r->p0 <= 0 || r->p0 >= 1) {
                r->z = 0;
                r->p = pvalue_from_p(1.0);
            } else {
                r->z = (r->p_hat - r->p0) / sqrt(r->p0 * (1 - r->p0) / (double)n);
                r->p = stat_norm_sf(r->z);
            }
            r->significant = r->p.p >= PVALUE_TINY ? r->p.p <= out->threshold
                                                   : r->p.log_p <= log(out->threshold);
            out->significant += r->significant;
        }
    }
    sort_ctx s = {tc->tokens, rank};
    qsort_r(out->rows, out->n, sizeof *out->rows, by_class_z, &s);
    free(order);
    free(rank);
    return 0;
}

int competency_write(FILE *fp, const competency_table *t, const token_counts *tc,
                     size_t top, bool only_significant, int digits)
{
    fputs("class\ttoken\tn\tp_hat\tz\tp_value\tsignificant\n", fp);
    size_t shown = 0;
    for (size_t i = 0; i < t->n; i++) {
        const competency_row *r = &t->rows[i];
        if (i == 0 || r->class_id != t->rows[i - 1].class_id)
            shown = 0;
        if ((top && shown >= top) || (only_significant && !r->significant))
            continue;
        shown++;
        char p[64];
        pvalue_format(r->p, digits, p, sizeof p);
        fprintf(fp, "%s\t%s\t%llu\t%.6f\t%.6f\t%s\t%s\n", vocab_str(tc->classes, r->class_id),
                vocab_str(tc->tokens, r->token), (unsigned long long)r->n, r->p_hat, r->z, p,
                r->significant ? "yes" : "no");
    }
    return ferror(fp) ? -1 : 0;
}

double competency_critical_z(double threshold)
{
    return gsl_cdf_ugaussian_Qinv(threshold);
}

double competency_boundary(double p0, double threshold, uint64_t n)
{
    double z = competency_critical_z(threshold);
    return p0 + z * sqrt(p0 * (1 - p0) / (double)n);
}
