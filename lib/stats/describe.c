#include <config.h>
#include "stats/describe.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/outfile.h"
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
        free(lt->cls[c].len);
    free(lt->cls);
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
    /* Room for a new class first, so that every class has its entry. */
    size_t before = vocab_size(lt->classes);
    if (ARRAY_RESERVE_MIN(lt->cls, lt->cls_cap, before + 1, 8) < 0)
        return -1;
    long c = vocab_intern(lt->classes, label, llen);
    if (c < 0)
        return -1;
    length_class *k = &lt->cls[c];
    if ((size_t)c == before)
        *k = (length_class){0};
    if (ARRAY_RESERVE(k->len, k->cap, k->n + 1) < 0)
        return -1;
    k->len[k->n++] = v;
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

int lengths_write(const length_table *lt, bool header, FILE *fp, tells_error *err)
{
    size_t nc = vocab_size(lt->classes), total = 0;
    for (size_t c = 0; c < nc; c++)
        total += lt->cls[c].n;
    double *all = malloc((total ? total : 1) * sizeof *all);
    size_t *order = vocab_sorted_ids(lt->classes);
    if (!all || !order) {
        free(all);
        free(order);
        return tells_error_nomem(err, NULL, 0);
    }
    if (header)
        fputs("class\tn\tmean\tmedian\tsd\n", fp);
    size_t k = 0;
    for (size_t i = 0; i < nc; i++) {
        const length_class *c = &lt->cls[order[i]];
        memcpy(all + k, c->len, c->n * sizeof *all);
        k += c->n;
        write_row(fp, vocab_str(lt->classes, order[i]), c->len, c->n);
    }
    if (total)
        write_row(fp, "all", all, total);
    free(all);
    free(order);
    return ferror(fp) ? -1 : 0;
}

static int write_table(FILE *fp, void *ctx, tells_error *err)
{
    return lengths_write(ctx, true, fp, err);
}

int lengths_run(char *const *paths, size_t npaths, text_field field, bool no_header,
                const char *output, tells_error *err)
{
    length_table lt;
    if (lengths_init(&lt) < 0)
        return tells_error_nomem(err, NULL, 0);
    int rc = 0;
    for (size_t i = 0; i < npaths && rc == 0; i++)
        rc = lengths_add_prepared(&lt, paths[i], field, no_header, err);
    if (rc == 0 && vocab_size(lt.classes) == 0)
        rc = prepared_empty_error(err, paths, npaths);
    if (rc == 0)
        rc = out_write(output, write_table, &lt, err);
    lengths_free(&lt);
    return rc;
}
