#include <config.h>
#include "base/dataset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/prepared.h"

/* After ESTIMATE_ROWS rows, and again after 16 times as many, and so
   on, the rows of a regular file are estimated from their bytes so far
   and room made for them, at most 16 times the rows so far (a file whose
   first rows are short reserves no more than that): the ids' table and
   the examples then grow once or twice, not a dozen times. */
enum { ESTIMATE_ROWS = 1024, ESTIMATE_GROWTH = 16 };

static void reserve_rows(dataset *d, vocab *ids, size_t *cap, const prepared_reader *r,
                         uint64_t first_row)
{
    struct stat st;
    /* This row starts where the d->n rows read so far end. */
    uint64_t read = r->lr.line_start - first_row;
    if (fstat(fileno(r->lr.fp), &st) != 0 || !S_ISREG(st.st_mode) || read == 0 ||
        (uint64_t)st.st_size <= r->lr.line_start)
        return;
    /* The rows so far in the bytes so far; a twentieth more for
       longer rows ahead. A failed reservation only leaves the growth
       as it was. */
    double est = (double)d->n * (double)((uint64_t)st.st_size - first_row) / (double)read;
    est *= 1.05;
    if (est > (double)d->n * ESTIMATE_GROWTH)
        est = (double)d->n * ESTIMATE_GROWTH;
    if (est >= (double)(UINT32_MAX / 2))
        return;
    size_t n = (size_t)est + 1;
    if (vocab_reserve(ids, n) == 0)
        ARRAY_RESERVE_MIN(d->ex, *cap, n, 1024);
}

int dataset_load(dataset *d, const char *path, tells_error *err)
{
    memset(d, 0, sizeof *d);
    prepared_reader r;
    if (prepared_open(&r, path, false, err) < 0)
        return -1;
    d->splits = vocab_new();
    d->labels = vocab_new();
    d->source = strdup(display_name(path));
    /* Every id once, kept: scores by id file, predictions and filters
       pick rows by id (dataset_row). */
    vocab *ids = d->ids = vocab_new();
    size_t cap = 0;
    prepared_row row;
    int rc = d->splits && d->labels && d->source && ids ? 0
             : tells_error_nomem(err, r.lr.name, 0);
    uint64_t first_row = 0;          /* where the rows start, in the file */
    size_t next_estimate = ESTIMATE_ROWS;
    while (rc == 0 && (rc = prepared_next(&r, &row, err)) == 1) {
        rc = 0;
        if (d->n == 0)
            first_row = r.lr.line_start;
        else if (d->n == next_estimate) {
            reserve_rows(d, ids, &cap, &r, first_row);
            next_estimate = next_estimate <= SIZE_MAX / ESTIMATE_GROWTH
                                ? next_estimate * ESTIMATE_GROWTH : 0;
        }
        long k = vocab_intern(ids, row.field[PREP_ID], row.len[PREP_ID]);
        if (k < 0 || ARRAY_RESERVE_MIN(d->ex, cap, d->n + 1, 1024) < 0) {
            rc = tells_error_nomem(err, r.lr.name, row.lineno);
            break;
        }
        if ((size_t)k < d->n) {
            rc = tells_error_set(err, r.lr.name, row.lineno,
                                 "duplicate id '%s' (first on line %ld)", row.field[PREP_ID],
                                 d->ex[k].line);
            break;
        }
        /* A row's texts together, from an arena (a malloc and a free per
           row took 8 ms of the 60 that 98,420 rows take to load and free):
           id, premise, hypothesis, further columns. */
        size_t li = row.len[PREP_ID] + 1, lp = row.len[PREP_PREMISE] + 1,
               lh = row.len[PREP_HYPOTHESIS] + 1, lx = row.extra_len + 1;
        char *block = arena_take(&d->texts, li + lp + lh + lx);
        long s = vocab_intern(d->splits, row.field[PREP_SPLIT], row.len[PREP_SPLIT]);
        long l = vocab_intern(d->labels, row.field[PREP_LABEL], row.len[PREP_LABEL]);
        if (!block || s < 0 || l < 0) {
            rc = tells_error_nomem(err, r.lr.name, row.lineno);
            break;
        }
        example *e = &d->ex[d->n++];
        e->id = memcpy(block, row.field[PREP_ID], li);
        e->premise = memcpy(block + li, row.field[PREP_PREMISE], lp);
        e->hypothesis = memcpy(block + li + lp, row.field[PREP_HYPOTHESIS], lh);
        char *extra = block + li + lp + lh;
        if (row.extra)
            memcpy(extra, row.extra, row.extra_len);
        extra[row.extra_len] = '\0';
        e->extra = extra;
        e->split = (size_t)s;
        e->label = (size_t)l;
        e->line = row.lineno;
    }
    if (rc == 0 && r.extra_header && !(d->extra_header = strdup(r.extra_header)))
        rc = tells_error_nomem(err, r.lr.name, 0);
    prepared_close(&r);
    if (rc < 0) {
        dataset_free(d);
        return -1;
    }
    return 0;
}

void dataset_free(dataset *d)
{
    arena_free(&d->texts);
    free(d->ex);
    vocab_free(d->splits);
    vocab_free(d->labels);
    vocab_free(d->ids);
    free(d->source);
    free(d->extra_header);
    memset(d, 0, sizeof *d);
}

long dataset_column(const dataset *d, const char *name)
{
    size_t len, want = strlen(name);
    for (long k = 0; d->extra_header; k++) {
        const char *f = tab_field_at(d->extra_header, (size_t)k, &len);
        if (!f)
            break;
        if (len == want && memcmp(f, name, len) == 0)
            return k;
    }
    return -1;
}

const char *example_column(const example *e, long k, char *buf, size_t size)
{
    size_t len;
    const char *f = k < 0 ? NULL : tab_field_at(e->extra, (size_t)k, &len);
    if (!f)
        len = 0;
    if (len >= size)
        len = size - 1;
    memcpy(buf, f ? f : "", len);
    buf[len] = '\0';
    return buf;
}

static int by_id(const void *a, const void *b, void *ctx)
{
    const example *ex = ctx;
    return strcmp(ex[*(const size_t *)a].id, ex[*(const size_t *)b].id);
}

/* v (the labels, which = 1, or the splits) numbered again by first
   appearance in the rows order[0 .. n) of ex: the new vocabulary, and
   each old id's new one in map; NULL out of memory. */
static vocab *renumber(const vocab *v, const example *ex, const size_t *order, size_t n,
                       int which, size_t *map)
{
    vocab *w = vocab_new();
    for (size_t i = 0; w && i < n; i++) {
        size_t old = which ? ex[order[i]].label : ex[order[i]].split;
        long k = vocab_intern(w, vocab_str(v, old), vocab_len(v, old));
        if (k < 0) {
            vocab_free(w);
            return NULL;
        }
        map[old] = (size_t)k;
    }
    return w;
}

size_t *dataset_rows_by_id(const dataset *d, const size_t *rows, size_t n)
{
    size_t *out = array_new(n, sizeof *out);
    if (!out)
        return NULL;
    bool sorted = true;
    for (size_t i = 0; i < n; i++) {
        out[i] = rows ? rows[i] : i;
        if (i > 0 && sorted && strcmp(d->ex[out[i - 1]].id, d->ex[out[i]].id) > 0)
            sorted = false;
    }
    /* Rows already in order (the study's: its dataset is sorted) cost
       one pass, not a sort of strings scattered in memory. */
    if (!sorted)
        qsort_r(out, n, sizeof *out, by_id, d->ex);
    return out;
}

int dataset_sort_by_id(dataset *d, size_t **pos, tells_error *err)
{
    size_t nl = vocab_size(d->labels), ns = vocab_size(d->splits);
    size_t *order = dataset_rows_by_id(d, NULL, d->n);
    size_t *lmap = array_new(nl, sizeof *lmap), *smap = array_new(ns, sizeof *smap);
    example *ex = array_new(d->n, sizeof *ex);
    vocab *ids = vocab_new(), *labels = NULL, *splits = NULL;
    int rc = order && lmap && smap && ex && ids && vocab_reserve(ids, d->n) == 0 ? 0 : -1;
    if (rc == 0) {
        labels = renumber(d->labels, d->ex, order, d->n, 1, lmap);
        splits = renumber(d->splits, d->ex, order, d->n, 0, smap);
        rc = labels && splits ? 0 : -1;
    }
    for (size_t i = 0; rc == 0 && i < d->n; i++) {
        ex[i] = d->ex[order[i]];
        ex[i].label = lmap[ex[i].label];
        ex[i].split = smap[ex[i].split];
        if (vocab_intern(ids, ex[i].id, strlen(ex[i].id)) != (long)i)
            rc = -1;
    }
    if (rc < 0) {
        free(order);
        free(ex);
        vocab_free(ids);
        vocab_free(labels);
        vocab_free(splits);
        free(lmap);
        free(smap);
        return tells_error_nomem(err, NULL, 0);
    }
    free(d->ex);
    d->ex = ex;
    vocab_free(d->ids);
    d->ids = ids;
    vocab_free(d->labels);
    d->labels = labels;
    vocab_free(d->splits);
    d->splits = splits;
    free(lmap);
    free(smap);
    if (pos)
        *pos = order;
    else
        free(order);
    return 0;
}

long dataset_row(const dataset *d, const char *id, size_t len)
{
    return d->ids ? vocab_find(d->ids, id, len) : -1;
}

int dataset_require_examples(const dataset *d, tells_error *err)
{
    return d->n ? 0 : tells_error_set(err, d->source, 0, "no examples in the input");
}

size_t dataset_split_size(const dataset *d, const char *split)
{
    long s = vocab_find(d->splits, split, strlen(split));
    size_t n = 0;
    for (size_t i = 0; s >= 0 && i < d->n; i++)
        n += d->ex[i].split == (size_t)s;
    return n;
}
