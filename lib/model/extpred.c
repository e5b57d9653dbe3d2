/* Predictions of a model tells did not train, checked against the
   corpus (model/extpred.h). */
#include <config.h>
#include "model/extpred.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/number.h"

typedef struct ext_header {
    long id, predicted, gold;
    size_t *pcol;              /* per corpus label id: its p_ column */
    size_t ncols;
} ext_header;

static int read_header(const ext_predictions *x, const dataset *d, char *line, size_t len,
                       long lineno, ext_header *h, tells_error *err)
{
    if (header_line_check(line, len, x->file, lineno, err) < 0)
        return -1;
    tab_row row = {0};
    if (tab_row_split(&row, line, len, x->file, lineno, err) < 0)
        return -1;
    size_t L = vocab_size(d->labels);
    h->id = h->predicted = h->gold = -1;
    h->ncols = row.n;
    h->pcol = array_new(L, sizeof *h->pcol);
    bool *have = array_new(L, sizeof *have);
    int rc = h->pcol && have ? 0 : tells_error_nomem(err, x->file, lineno);
    for (size_t j = 0; rc == 0 && j < row.n; j++) {
        const char *name = row.field[j];
        if (strcmp(name, "id") == 0)
            h->id = (long)j;
        else if (strcmp(name, "predicted") == 0)
            h->predicted = (long)j;
        else if (strcmp(name, "gold") == 0)
            h->gold = (long)j;
        else if (strncmp(name, "p_", 2) == 0) {
            long l = vocab_find(d->labels, name + 2, row.len[j] - 2);
            if (l < 0)
                rc = tells_error_set(err, x->file, lineno, "column %s: '%s' is not a label "
                                     "of the corpus", name, name + 2);
            else {
                h->pcol[l] = j;
                have[l] = true;
            }
        }
    }
    if (rc == 0 && (h->id < 0 || h->predicted < 0))
        rc = tells_error_set(err, x->file, lineno, "not a predictions file: the header needs "
                             "columns id, predicted and p_LABEL for each label");
    for (size_t l = 0; rc == 0 && l < L; l++)
        if (!have[l])
            rc = tells_error_set(err, x->file, lineno, "no column p_%s (a probability for "
                                 "each label of the corpus)", vocab_str(d->labels, l));
    free(have);
    tab_row_free(&row);
    return rc;
}

static int read_row(ext_predictions *x, const dataset *d, const ext_header *h, char *line, size_t len, long lineno, tab_row *row,
                    tells_error *err)
{
    if (text_line_check(line, len, x->file, lineno, err) < 0 ||
        tab_row_split(row, line, len, x->file, lineno, err) < 0)
        return -1;
    if (row->n != h->ncols)
        return tab_columns_error(err, x->file, lineno, h->ncols, row->n, NULL);
    const char *id = row->field[h->id];
    if (!*id)
        return tells_error_set(err, x->file, lineno, "empty id");
    long i = dataset_row(d, id, row->len[h->id]);
    if (i < 0)
        return tells_error_set(err, x->file, lineno, "id '%s' is not in the corpus", id);
    if (x->line[i])
        return tells_error_set(err, x->file, lineno, "duplicate id '%s' (first on line %ld)",
                               id, x->line[i]);
    const char *pred = row->field[h->predicted];
    long p = vocab_find(d->labels, pred, row->len[h->predicted]);
    if (p < 0)
        return tells_error_set(err, x->file, lineno, "unknown label '%s' in column predicted",
                               pred);
    const example *e = &d->ex[i];
    if (h->gold >= 0 && strcmp(row->field[h->gold], vocab_str(d->labels, e->label)) != 0)
        return tells_error_set(err, x->file, lineno, "gold '%s' differs from the corpus's "
                               "'%s' for id '%s'", row->field[h->gold],
                               vocab_str(d->labels, e->label), id);
    double *pr = x->prob + (size_t)i * x->nlabels;
    for (size_t l = 0; l < x->nlabels; l++) {
        const char *s = row->field[h->pcol[l]];
        if (prob_parse(s, &pr[l]) < 0)
            return tells_error_set(err, x->file, lineno, "invalid probability '%s' in column "
                                   "p_%s (expected a number from 0 to 1)", s,
                                   vocab_str(d->labels, l));
    }
    char msg[128];
    if (prob_check(pr, x->nlabels, msg, sizeof msg) < 0)
        return tells_error_set(err, x->file, lineno, "%s", msg);
    x->line[i] = lineno;
    x->pred[i] = (size_t)p;
    x->n++;
    return 0;
}

int ext_predictions_read(ext_predictions *x, const char *path, const dataset *d,
                         tells_error *err)
{
    memset(x, 0, sizeof *x);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    snprintf(x->file, sizeof x->file, "%s", r.name);
    x->nrows = d->n;
    x->nlabels = vocab_size(d->labels);
    x->line = array_new(d->n, sizeof *x->line);
    x->pred = array_new(d->n, sizeof *x->pred);
    x->prob = array_new(d->n * x->nlabels, sizeof *x->prob);
    int rc = x->line && x->pred && x->prob ? 0 : tells_error_nomem(err, r.name, 0);
    ext_header h = {0};
    tab_row row = {0};
    char *line;
    size_t len;
    bool header = false;
    int got = 0;
    while (rc == 0 && (got = header ? line_reader_next(&r, &line, &len, err)
                                    : line_reader_header(&r, &line, &len, err)) == 1) {
        if (!header) {
            rc = read_header(x, d, line, len, r.lineno, &h, err);
            header = true;
        } else if (len == 0)
            continue;
        else
            rc = read_row(x, d, &h, line, len, r.lineno, &row, err);
    }
    if (got < 0)
        rc = -1;
    if (rc == 0 && x->n == 0)
        rc = tells_error_set(err, r.name, 0, "no predictions in the file");
    free(h.pcol);
    tab_row_free(&row);
    line_reader_close(&r);
    if (rc < 0)
        ext_predictions_free(x);
    return rc;
}

void ext_predictions_free(ext_predictions *x)
{
    free(x->line);
    free(x->pred);
    free(x->prob);
    memset(x, 0, sizeof *x);
}

int ext_predictions_cover(const ext_predictions *x, const dataset *d, const char *split,
                          tells_error *err)
{
    long want = split ? vocab_find(d->splits, split, strlen(split)) : -1;
    for (size_t i = 0; i < d->n; i++) {
        bool needed = !split || (long)d->ex[i].split == want;
        if (needed && !x->line[i])
            return tells_error_set(err, x->file, 0, "no prediction for id '%s' (line %ld of "
                                   "%s)%s%s", d->ex[i].id, d->ex[i].line, d->source,
                                   split ? ", of the evaluated split " : "",
                                   split ? split : "");
        if (!needed && x->line[i])
            return tells_error_set(err, x->file, x->line[i], "id '%s' is in split '%s', not "
                                   "the evaluated split '%s'", d->ex[i].id,
                                   vocab_str(d->splits, d->ex[i].split), split);
    }
    return 0;
}

int ext_predictions_rows(const ext_predictions *x, const dataset *corpus, const dataset *e,
                         const size_t *rows, size_t n, const size_t *fold, predictions *out,
                         tells_error *err)
{
    memset(out, 0, sizeof *out);
    size_t L = vocab_size(e->labels);
    out->n = n;
    out->nlabels = L;
    out->fit.train_accuracy = NAN;
    out->row = array_new(n, sizeof *out->row);
    out->pred = array_new(n, sizeof *out->pred);
    out->prob = array_new(n * L, sizeof *out->prob);
    out->fold = fold ? array_new(n, sizeof *out->fold) : NULL;
    long *map = array_new(x->nlabels, sizeof *map);   /* corpus label id -> e's */
    int rc = out->row && out->pred && out->prob && (!fold || out->fold) && map
             ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t l = 0; rc == 0 && l < x->nlabels; l++) {
        const char *name = vocab_str(corpus->labels, l);
        map[l] = vocab_find(e->labels, name, strlen(name));
        if (map[l] < 0)
            rc = tells_error_set(err, e->source, 0, "no label '%s' in the data scored", name);
    }
    for (size_t j = 0; rc == 0 && j < n; j++) {
        const example *ex = &e->ex[rows[j]];
        long i = dataset_row(corpus, ex->id, strlen(ex->id));
        if (i < 0 || !x->line[i]) {
            rc = tells_error_set(err, x->file, 0, "no prediction for id '%s'", ex->id);
            break;
        }
        out->row[j] = rows[j];
        out->pred[j] = (size_t)map[x->pred[i]];
        for (size_t l = 0; l < x->nlabels; l++)
            out->prob[j * L + (size_t)map[l]] = x->prob[(size_t)i * x->nlabels + l];
        if (fold)
            out->fold[j] = fold[j];
    }
    free(map);
    if (rc < 0)
        predictions_free(out);
    return rc;
}

double predictions_prob_sd(const predictions *p)
{
    size_t L = p->nlabels;
    if (!p->prob || p->n < 2)
        return NAN;
    double worst = 0;
    for (size_t l = 0; l < L; l++) {
        /* Welford's running mean and sum of squares. */
        double mean = 0, m2 = 0;
        for (size_t j = 0; j < p->n; j++) {
            double v = p->prob[j * L + l], dlt = v - mean;
            mean += dlt / (double)(j + 1);
            m2 += dlt * (v - mean);
        }
        double sd = sqrt(m2 / (double)(p->n - 1));
        if (sd > worst)
            worst = sd;
    }
    return worst;
}
