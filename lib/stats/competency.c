#include <config.h>
#include "stats/competency.h"
#include "text/redact.h"

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
    o->top = 0;
    o->exact = false;
}

void competency_free(competency_table *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}

typedef struct sort_ctx {
    const token_counts *tc;
} sort_ctx;

/* Rows of one class at a time: z descending, ties by token. */
static int by_class_z(const void *a, const void *b, void *arg)
{
    const competency_row *x = a, *y = b;
    const sort_ctx *s = arg;
    if (x->z != y->z)
        return x->z > y->z ? -1 : 1;
    return redact_token_cmp(s->tc->shown, s->tc->tokens, x->token, y->token);
}

/* What every class's rows are computed from. */
typedef struct comp_state {
    const uint64_t *n;        /* [token]: examples holding it */
    double threshold;
    bool exact;               /* binomial tails */
    size_t c;                 /* the class at hand */
    double p0;
    competency_row *buf;      /* its rows so far */
    size_t nbuf;
} comp_state;

static void comp_row(const comp_state *st, size_t t, uint64_t docs, competency_row *r)
{
    r->class_id = st->c;
    r->token = t;
    r->n = st->n[t];
    r->p_hat = (double)docs / (double)r->n;
    r->p0 = st->p0;
    /* A class without examples has p0 = 0: no token can favour it. */
    if (r->p0 <= 0 || r->p0 >= 1) {
        r->z = 0;
        r->p = pvalue_from_p(1.0);
    } else {
        r->z = (r->p_hat - r->p0) / sqrt(r->p0 * (1 - r->p0) / (double)r->n);
        r->p = st->exact ? stat_binom_sf(docs, r->n, r->p0) : stat_norm_sf(r->z);
    }
    r->significant = r->p.p >= PVALUE_TINY ? r->p.p <= st->threshold
                                           : r->p.log_p <= log(st->threshold);
}

static int comp_take(size_t t, void *ctx, double *value)
{
    comp_state *st = ctx;
    competency_row *r = &st->buf[st->nbuf++];
    comp_row(st, t, 0, r);
    *value = r->z;
    return 1;
}

static void comp_drop(void *ctx)
{
    ((comp_state *)ctx)->nbuf--;
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
    size_t *order = vocab_sorted_ids(tc->classes);
    uint64_t *n = counts_token_totals(tc, true);
    size_t *tested = array_new(nt, sizeof *tested);
    size_t *mark = array_new(nt, sizeof *mark);
    uint64_t *docs = array_new(nt, sizeof *docs);
    counts_cell *cells = NULL;
    size_t *first = NULL;
    zero_order by_n = {0}, by_name = {0};
    comp_state st = {.n = n, .exact = o->exact};
    size_t ntested = 0, cap = 0;
    int rc = order && n && tested && mark && docs &&
             counts_cells(tc, false, NULL, NULL, &cells, &first) == 0 ? 0 : -1;
    for (size_t t = 0; rc == 0 && t < nt; t++)
        if (n[t] >= o->min_count && n[t] > 0)
            tested[ntested++] = t;
    if (rc == 0 && ntested && nc > SIZE_MAX / ntested)
        rc = -1;
    out->tested = ntested * nc;
    out->threshold = out->tested ? o->alpha / (double)out->tested : o->alpha;
    st.threshold = out->threshold;
    /* An absent token has p_hat 0 and z = -p0 / sqrt(p0 (1 - p0) / n), so
       p >= 1/2 (exact: p = 1): never significant below a threshold of
       1/2, and ranked by n (or all at z = 0 when p0 is 0 or 1). */
    bool sparse = o->top && o->top < ntested && out->threshold < 0.5;
    if (rc == 0 && sparse &&
        (zero_order_make(&by_n, tc->tokens, tested, ntested, n) < 0 ||
         zero_order_make(&by_name, tc->tokens, tested, ntested, NULL) < 0))
        rc = -1;
    if (rc == 0 && !(st.buf = array_new(ntested, sizeof *st.buf)))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < nc; i++) {
        size_t c = order[i];
        st.c = c;
        st.p0 = o->class_prior ? (double)tc->examples[c] / (double)rows : 1.0 / (double)nc;
        st.nbuf = 0;
        const counts_cell *cc = cells + first[c], *cend = cells + first[c + 1];
        long walked = -2;
        if (sparse) {
            for (const counts_cell *p = cc; p < cend; p++)
                if (n[p->token] >= o->min_count && n[p->token] > 0) {
                    competency_row *r = &st.buf[st.nbuf++];
                    comp_row(&st, p->token, p->docs, r);
                    out->significant += r->significant;
                    mark[p->token] = i + 1;
                }
            const zero_order *z = st.p0 <= 0 || st.p0 >= 1 ? &by_name : &by_n;
            walked = zero_order_walk(z, o->top, mark, i + 1, comp_take, comp_drop, &st);
            for (size_t j = 0; walked == -2 && j < st.nbuf; j++)
                out->significant -= st.buf[j].significant;   /* counted again below */
        }
        if (walked == -2) {
            for (const counts_cell *p = cc; p < cend; p++)
                docs[p->token] = p->docs;
            for (size_t j = 0; j < ntested; j++) {
                comp_row(&st, tested[j], docs[tested[j]], &st.buf[j]);
                out->significant += st.buf[j].significant;
            }
            st.nbuf = ntested;
            for (const counts_cell *p = cc; p < cend; p++)
                docs[p->token] = 0;
        }
        sort_ctx s = {tc};
        qsort_r(st.buf, st.nbuf, sizeof *st.buf, by_class_z, &s);
        size_t keep = o->top && o->top < st.nbuf ? o->top : st.nbuf;
        if (ARRAY_RESERVE(out->rows, cap, out->n + keep) < 0) {
            rc = -1;
            break;
        }
        if (keep)
            memcpy(out->rows + out->n, st.buf, keep * sizeof *st.buf);
        out->n += keep;
    }
    free(st.buf);
    free(order);
    free(n);
    free(tested);
    free(mark);
    free(docs);
    free(cells);
    free(first);
    zero_order_free(&by_n);
    zero_order_free(&by_name);
    if (rc < 0) {
        competency_free(out);
        return tells_error_nomem(err, NULL, 0);
    }
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
                counts_token_shown(tc, r->token), (unsigned long long)r->n, r->p_hat, r->z, p,
                r->significant ? "yes" : "no");
    }
    return ferror(fp) ? -1 : 0;
}

double competency_critical_z(double threshold)
{
    return gsl_cdf_ugaussian_Qinv(threshold);
}
