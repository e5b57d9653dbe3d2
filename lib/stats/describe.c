#include <config.h>
#include "stats/describe.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

#include "base/prepared.h"

int lengths_init(length_table *lt)
{
    memset(lt, 0, sizeof *lt);
    lt->classes = vocab_new();
    return lt->classes ? 0 : -1;
}

void lengths_free(length_table *lt)
{
    for (size_t c = 0; lt->classes && c < vocab_size(lt->classes); c++)
        free(lt->len[c]);
    free(lt->len);
    free(lt->n);
    free(lt->cap);
    vocab_free(lt->classes);
    memset(lt, 0, sizeof *lt);
}

static size_t count_tokens(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && (i == 0 || s[i - 1] == ' '))
            n++;
    return n;
}

static int add_length(length_table *lt, const char *label, size_t llen, double v)
{
    size_t before = vocab_size(lt->classes);
    long c = vocab_intern(lt->classes, label, llen);
    if (c < 0)
        return -1;
    if ((size_t)c >= before && (size_t)c >= lt->nclasses_cap) {
        size_t cap = lt->nclasses_cap ? lt->nclasses_cap * 2 : 8;
        double **len = realloc(lt->len, cap * sizeof *len);
        if (!len)
            return -1;
        lt->len = len;
        size_t *n = realloc(lt->n, cap * sizeof *n);
        if (!n)
            return -1;
        lt->n = n;
        size_t *k = realloc(lt->cap, cap * sizeof *k);
        if (!k)
            return -1;
        lt->cap = k;
        lt->nclasses_cap = cap;
    }
    if ((size_t)c >= before) {
        lt->len[c] = NULL;
        lt->n[c] = lt->cap[c] = 0;
    }
    if (lt->n[c] == lt->cap[c]) {
        size_t cap = lt->cap[c] ? lt->cap[c] * 2 : 1024;
        double *p = realloc(lt->len[c], cap * sizeof *p);
        if (!p)
            return -1;
        lt->len[c] = p;
        lt->cap[c] = cap;
    }
    lt->len[c][lt->n[c]++] = v;
    return 0;
}

int lengths_add_prepared(length_table *lt, const char *path, text_field field,
                         bool no_header, tells_error *err)
{
    prepared_reader r;
    if (prepared_open(&r, path, no_header, err) < 0)
        return -1;
    prepared_row row;
    int rc;
    while ((rc = prepared_next(&r, &row, err)) == 1) {
        size_t n = 0;
        if (field != FIELD_HYPOTHESIS)
            n += count_tokens(row.field[PREP_PREMISE], row.len[PREP_PREMISE]);
        if (field != FIELD_PREMISE)
            n += count_tokens(row.field[PREP_HYPOTHESIS], row.len[PREP_HYPOTHESIS]);
        if (add_length(lt, row.field[PREP_LABEL], row.len[PREP_LABEL], (double)n) < 0) {
            rc = tells_error_nomem(err, r.lr.name, row.lineno);
            break;
        }
    }
    prepared_close(&r);
    return rc < 0 ? -1 : 0;
}

static void write_row(FILE *fp, const char *name, double *v, size_t n)
{
    gsl_sort(v, 1, n);
    double mean = gsl_stats_mean(v, 1, n);
    double median = gsl_stats_median_from_sorted_data(v, 1, n);
    double sd = n > 1 ? gsl_stats_sd_m(v, 1, n, mean) : 0.0;
    fprintf(fp, "%s\t%zu\t%.6f\t%.6f\t%.6f\n", name, n, mean, median, sd);
}

int lengths_write(const length_table *lt, bool header, FILE *fp)
{
    size_t nc = vocab_size(lt->classes), total = 0;
    for (size_t c = 0; c < nc; c++)
        total += lt->n[c];
    double *all = malloc((total ? total : 1) * sizeof *all);
    size_t *order = vocab_sorted_ids(lt->classes);
    if (!all || !order) {
        free(all);
        free(order);
        return -1;
    }
    if (header)
        fputs("class\tn\tmean\tmedian\tsd\n", fp);
    size_t k = 0;
    for (size_t i = 0; i < nc; i++) {
        size_t c = order[i];
        memcpy(all + k, lt->len[c], lt->n[c] * sizeof *all);
        k += lt->n[c];
        write_row(fp, vocab_str(lt->classes, c), lt->len[c], lt->n[c]);
    }
    if (total)
        write_row(fp, "all", all, total);
    free(all);
    free(order);
    return ferror(fp) ? -1 : 0;
}
