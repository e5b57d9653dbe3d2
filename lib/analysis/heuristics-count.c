/* Counting and testing annotator heuristics (heuristics.h): the tally of
   satisfying pairs by class, over prepared files, and its chi-squared
   tests and table. */
#include <config.h>
#include "analysis/heuristics.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "stats/chisq.h"

/* ---- counting and testing ---- */

int heur_tally_init(heur_tally *t, size_t nheur, tells_error *err)
{
    memset(t, 0, sizeof *t);
    t->nheur = nheur;
    t->classes = vocab_new();
    return t->classes ? 0 : tells_error_nomem(err, NULL, 0);
}

void heur_tally_free(heur_tally *t)
{
    vocab_free(t->classes);
    free(t->rows);
    free(t->count);
    memset(t, 0, sizeof *t);
}

int heur_tally_add(heur_tally *t, const char *label, size_t len,
                   const bool *holds, tells_error *err)
{
    long c = vocab_intern(t->classes, label, len);
    if (c < 0)
        return tells_error_nomem(err, NULL, 0);
    if ((size_t)c >= t->class_cap) {
        /* rows and count grow together, count by rows of nheur */
        size_t cap = array_capacity(t->class_cap, (size_t)c + 1, 8);
        uint64_t *rows = array_resize_zeroed(t->rows, t->class_cap, cap, sizeof *rows);
        if (rows)
            t->rows = rows;
        uint64_t *count = rows ? array_resize_zeroed(t->count, t->class_cap * t->nheur,
                                                     cap * t->nheur, sizeof *count)
                               : NULL;
        if (!count)
            return tells_error_nomem(err, NULL, 0);
        t->count = count;
        t->class_cap = cap;
    }
    t->rows[c]++;
    for (size_t h = 0; h < t->nheur; h++)
        t->count[(size_t)c * t->nheur + h] += holds[h];
    return 0;
}

/* The rows of one prepared TSV, into the evaluator and the tally. */
typedef struct count_ctx {
    const heur_count_options *o;
    heur_eval ev;
    heur_tally *tally;
    vocab *splits;           /* o->splits, or NULL: every row */
    uint64_t *split_rows;
} count_ctx;

static int count_pair(count_ctx *cc, const prepared_row *row, tells_error *err)
{
    if (cc->splits) {
        long s = vocab_find(cc->splits, row->field[PREP_SPLIT], row->len[PREP_SPLIT]);
        if (s < 0)
            return 0;
        cc->split_rows[s]++;
    }
    if (heur_eval_pair(&cc->ev, row->field[PREP_PREMISE], row->len[PREP_PREMISE],
                       row->field[PREP_HYPOTHESIS], row->len[PREP_HYPOTHESIS], err) < 0)
        return -1;
    const heuristic_set *hs = cc->ev.hs;
    for (size_t h = 0; cc->o->pairs && h < hs->n; h++) {
        if (!cc->ev.holds[h])
            continue;
        fprintf(cc->o->pairs, "%s\t%s\t%s\t%s", row->field[PREP_ID],
                row->field[PREP_SPLIT], row->field[PREP_LABEL], hs->v[h].name);
        if (!cc->o->pairs_redacted) {
            fputc('\t', cc->o->pairs);
            heur_eval_write_witness(cc->o->pairs, &cc->ev, h);
        }
        fputc('\n', cc->o->pairs);
    }
    return heur_tally_add(cc->tally, row->field[PREP_LABEL], row->len[PREP_LABEL],
                          cc->ev.holds, err);
}

static int count_file(count_ctx *cc, const char *path, tells_error *err)
{
    prepared_reader pr;
    if (prepared_open(&pr, path, false, err) < 0)
        return -1;
    prepared_row row;
    int rc;
    while ((rc = prepared_next(&pr, &row, err)) == 1)
        if ((rc = count_pair(cc, &row, err)) < 0)
            break;
    prepared_close(&pr);
    return rc < 0 ? -1 : 0;
}

int heur_count_files(const heuristic_set *hs, char *const *files, size_t nfiles,
                     const heur_count_options *o, heur_tally *t, tells_error *err)
{
    count_ctx cc = {.o = o, .tally = t};
    int rc = heur_tally_init(t, hs->n, err);
    if (rc == 0)
        rc = heur_eval_init(&cc.ev, hs, o->pairs != NULL, err);
    if (rc == 0 && o->nsplits) {
        cc.splits = vocab_new();
        cc.split_rows = array_new(o->nsplits, sizeof *cc.split_rows);
        if (!cc.splits || !cc.split_rows)
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; i < o->nsplits && rc == 0; i++)
            if (vocab_intern(cc.splits, o->splits[i], strlen(o->splits[i])) < 0)
                rc = tells_error_nomem(err, NULL, 0);
    }
    if (rc == 0 && o->pairs)
        fputs(o->pairs_redacted ? "id\tsplit\tlabel\theuristic\n"
                                : "id\tsplit\tlabel\theuristic\tpremise_concepts\t"
                                  "hypothesis_concepts\tcues\n",
              o->pairs);
    for (size_t i = 0; i < nfiles && rc == 0; i++)
        rc = count_file(&cc, files[i], err);
    const char *source = nfiles == 1 ? display_name(files[0]) : NULL;
    for (size_t i = 0; cc.splits && i < vocab_size(cc.splits) && rc == 0; i++)
        if (cc.split_rows[i] == 0)
            rc = tells_error_set(err, source, 0, "no examples in split '%s'",
                                 vocab_str(cc.splits, i));
    if (rc == 0 && vocab_size(t->classes) == 0)
        rc = tells_error_set(err, source, 0, "no examples in the input");
    vocab_free(cc.splits);
    free(cc.split_rows);
    heur_eval_free(&cc.ev);
    return rc;
}

int heur_expect_parse(const char *s, heur_expect *e)
{
    if (strcmp(s, "uniform") == 0)
        *e = EXPECT_UNIFORM;
    else if (strcmp(s, "class-prior") == 0)
        *e = EXPECT_CLASS_PRIOR;
    else
        return -1;
    return 0;
}

int heur_test(const heur_tally *t, size_t h, heur_expect e, unsigned long seed,
              heur_result *r, tells_error *err)
{
    memset(r, 0, sizeof *r);
    size_t k = vocab_size(t->classes);
    size_t *order = vocab_sorted_ids(t->classes);
    uint64_t *obs = array_new(k, sizeof *obs);
    double *share = array_new(k, sizeof *share);
    if (!order || !obs || !share) {
        free(order);
        free(obs);
        free(share);
        return tells_error_nomem(err, NULL, 0);
    }
    uint64_t total = 0, top = 0;
    for (size_t i = 0; i < k; i++)
        total += t->rows[order[i]];
    for (size_t i = 0; i < k; i++) {
        uint64_t n = t->count[order[i] * t->nheur + h];
        obs[i] = n;
        share[i] = e == EXPECT_UNIFORM ? 1.0 / (double)k
                                       : (double)t->rows[order[i]] / (double)total;
        r->n += n;
        if (i == 0 || n > top) {
            top = n;
            r->top = order[i];
            r->top_expected = share[i];
        }
    }
    if (r->n > 0)
        r->top_share = (double)top / (double)r->n;
    r->tested = r->n > 0 && k >= 2;
    /* A class's pairs are among its rows, so no class with pairs has no
       expected share: the test cannot fail. */
    gof_result g;
    int rc = r->tested ? gof_test(obs, share, k, seed, &g, err) : 0;
    if (r->tested && rc == 0) {
        r->test = g.test;
        r->method = g.method;
    }
    free(order);
    free(obs);
    free(share);
    return rc;
}

int heur_table_write(FILE *fp, void *table, tells_error *err)
{
    const heur_table *tb = table;
    const heur_tally *t = tb->tally;
    size_t k = vocab_size(t->classes);
    size_t *order = vocab_sorted_ids(t->classes);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    fputs("heuristic\tn\tchi2\tdf\tp_value\ttest\ttop_class\ttop_share", fp);
    for (size_t i = 0; i < k; i++)
        fprintf(fp, "\t%s", vocab_str(t->classes, order[i]));
    fputc('\n', fp);
    int rc = 0;
    for (size_t h = 0; h < t->nheur && rc == 0; h++) {
        heur_result r;
        if ((rc = heur_test(t, h, tb->expect, tb->seed, &r, err)) < 0)
            break;
        fprintf(fp, "%s\t%" PRIu64, tb->hs->v[h].name, r.n);
        if (r.tested) {
            char p[64];
            pvalue_format(r.test.p, tb->digits, p, sizeof p);
            fprintf(fp, "\t%.6f\t%.0f\t%s\t%s", r.test.statistic, r.test.df, p,
                    gof_method_name(r.method));
        } else {
            fputs("\t-\t-\t-\t-", fp);
        }
        if (r.n > 0)
            fprintf(fp, "\t%s\t%.6f", vocab_str(t->classes, r.top), r.top_share);
        else
            fputs("\t-\t-", fp);
        for (size_t i = 0; i < k; i++)
            fprintf(fp, "\t%" PRIu64, t->count[order[i] * t->nheur + h]);
        fputc('\n', fp);
    }
    free(order);
    return rc < 0 ? -1 : out_status(fp, err);
}
