#include <config.h>
#include "stats/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/lineio.h"
#include "base/alloc.h"
#include "base/fields.h"

static void sort_unique(uint32_t *v, size_t *n)
{
    /* Sets are small: insertion sort. */
    for (size_t i = 1; i < *n; i++) {
        uint32_t x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    *n = k;
}

/* State of one file being read. */
typedef struct loader {
    pred_data *d;
    line_reader r;
    tells_error *err;
    uint32_t *set;        /* the set just parsed */
    size_t set_n, set_cap;
    char *shown;          /* a set of the first file, for messages */
    size_t shown_cap;
} loader;

/* The id of a label: interned, or with a fixed set found in it (-1 with
   err set when it is not, -2 when out of memory). */
static long label_id(loader *ld, const char *s, size_t len, const char *which)
{
    pred_data *d = ld->d;
    if (!d->fixed_labels) {
        long id = vocab_intern(d->labels, s, len);
        return id < 0 ? -2 : id;
    }
    long id = vocab_find(d->labels, s, len);
    if (id < 0)
        tells_error_set(ld->err, ld->r.name, ld->r.lineno, "%s label '%.*s' is not "
                        "one of --labels", which, (int)len, s);
    return id;
}

/* Parses a gold or predicted cell into ld->set. */
static int parse_set(loader *ld, const char *cs, size_t clen, const char *which)
{
    pred_data *d = ld->d;
    ld->set_n = 0;
    if (!d->multi_label) {
        if (clen == 0)
            return tells_error_set(ld->err, ld->r.name, ld->r.lineno,
                                   "empty %s label", which);
        long id = label_id(ld, cs, clen, which);
        if (id == -1)
            return -1;
        if (id < 0 || ARRAY_RESERVE(ld->set, ld->set_cap, 1) < 0)
            return tells_error_nomem(ld->err, ld->r.name, ld->r.lineno);
        ld->set[ld->set_n++] = (uint32_t)id;
        return 0;
    }
    const char *s = cs, *end = cs + clen;
    while (clen > 0) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *e = comma ? comma : end;
        if (e == s)
            return tells_error_set(ld->err, ld->r.name, ld->r.lineno,
                                   "empty label in the %s set '%s'", which, cs);
        long id = label_id(ld, s, (size_t)(e - s), which);
        if (id == -1)
            return -1;
        if (id < 0 || ARRAY_RESERVE(ld->set, ld->set_cap, ld->set_n + 1) < 0)
            return tells_error_nomem(ld->err, ld->r.name, ld->r.lineno);
        ld->set[ld->set_n++] = (uint32_t)id;
        if (!comma)
            break;
        s = comma + 1;
    }
    sort_unique(ld->set, &ld->set_n);
    return 0;
}

/* The labels of a set joined by commas, for a message. */
static const char *show_set(loader *ld, const uint32_t *lab, size_t n)
{
    size_t need = 1;
    for (size_t i = 0; i < n; i++)
        need += vocab_len(ld->d->labels, lab[i]) + 1;
    if (ARRAY_RESERVE(ld->shown, ld->shown_cap, need) < 0)
        return "?";
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            ld->shown[k++] = ',';
        memcpy(ld->shown + k, vocab_str(ld->d->labels, lab[i]),
               vocab_len(ld->d->labels, lab[i]));
        k += vocab_len(ld->d->labels, lab[i]);
    }
    ld->shown[k] = '\0';
    return ld->shown;
}

/* Appends ld->set to a growing label array. The array is allocated
   even while every set is empty (a multi-label file may have only empty
   cells), so that offsets into it are offsets into an object. */
static int append_set(loader *ld, uint32_t **lab, size_t *n, size_t *cap)
{
    if (ARRAY_RESERVE(*lab, *cap, *n + ld->set_n + 1) < 0)
        return tells_error_nomem(ld->err, ld->r.name, ld->r.lineno);
    if (ld->set_n)
        memcpy(*lab + *n, ld->set, ld->set_n * sizeof **lab);
    *n += ld->set_n;
    return 0;
}

/* Empty sets may have no array behind them: memcmp only non-empty ones. */
static bool same_set(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* Finds the id, gold and predicted columns in the header line. */
static int read_header(loader *ld, tab_row *cells, long col[3], long *ncols)
{
    static const char *const names[3] = {"id", "gold", "predicted"};
    char *line;
    size_t len;
    int rc = line_reader_header(&ld->r, &line, &len, ld->err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return tells_error_set(ld->err, ld->r.name, 0,
                               "empty input: expected a header naming the "
                               "columns id, gold and predicted");
    if (tab_row_split(cells, line, len, ld->r.name, 1, ld->err) < 0 ||
        header_names_check(cells->field, cells->len, cells->n, ld->r.name, 1, ld->err) < 0)
        return -1;
    *ncols = (long)cells->n;
    for (int k = 0; k < 3; k++) {
        col[k] = -1;
        for (long i = 0; i < *ncols && col[k] < 0; i++)
            if (strcmp(cells->field[i], names[k]) == 0)
                col[k] = i;
    }
    for (int k = 0; k < 3; k++)
        if (col[k] < 0)
            return tells_error_set(ld->err, ld->r.name, 1,
                                   "no '%s' column in the header (a prediction "
                                   "file needs id, gold and predicted)", names[k]);
    return 0;
}

/* What load_file gathers from file s: each row's id and predicted set,
   and in the first file the gold sets. */
typedef struct file_rows {
    size_t s;             /* the file */
    size_t n;             /* s > 0: the ids of the first file */
    tab_row cells;
    long col[3], ncols;   /* the id, gold and predicted columns; the header's width */
    size_t *row_id, row_cap, nrows;
    size_t *row_off, off_cap;
    uint32_t *plab, *glab;
    size_t np, pcap, ng, gcap;
    size_t *goff, goff_cap;
    long *seen;           /* s > 0: the line of each id, 0 before */
    long **line_of;       /* the line of each id in the first file */
    size_t *line_cap;
} file_rows;

static void file_rows_free(file_rows *fr)
{
    tab_row_free(&fr->cells);
    free(fr->row_id);
    free(fr->row_off);
    free(fr->plab);
    free(fr->glab);
    free(fr->goff);
    free(fr->seen);
}

/* The id of the row at hand: a new one in the first file, else one of
   the first file's, once. */
static int row_id_of(loader *ld, file_rows *fr, const char *id, size_t id_len, long *key)
{
    pred_data *d = ld->d;
    long lineno = ld->r.lineno;
    long k;
    if (fr->s == 0) {
        size_t before = vocab_size(d->ids);
        k = vocab_intern(d->ids, id, id_len);
        if (k < 0 || ((size_t)k >= before &&
                      ARRAY_RESERVE(*fr->line_of, *fr->line_cap, (size_t)k + 1) < 0))
            return tells_error_nomem(ld->err, ld->r.name, lineno);
        if ((size_t)k < before)
            return tells_error_set(ld->err, ld->r.name, lineno,
                                   "duplicate id '%s' (first on line %ld)", id,
                                   (*fr->line_of)[k]);
        (*fr->line_of)[k] = lineno;
    } else {
        k = vocab_find(d->ids, id, id_len);
        if (k < 0)
            return tells_error_set(ld->err, ld->r.name, lineno, "id '%s' is not in %s", id,
                                   d->names[0]);
        if (fr->seen[k])
            return tells_error_set(ld->err, ld->r.name, lineno,
                                   "duplicate id '%s' (first on line %ld)", id, fr->seen[k]);
        fr->seen[k] = lineno;
    }
    *key = k;
    return 0;
}

/* The gold set of the row at hand (id k): kept from the first file, the
   same as there in the others. */
static int row_gold(loader *ld, file_rows *fr, long k)
{
    const char *cell = fr->cells.field[fr->col[1]];
    if (parse_set(ld, cell, fr->cells.len[fr->col[1]], "gold") < 0)
        return -1;
    if (fr->s == 0) {
        if (ARRAY_RESERVE(fr->goff, fr->goff_cap, fr->nrows + 2) < 0)
            return tells_error_nomem(ld->err, ld->r.name, ld->r.lineno);
        fr->goff[fr->nrows] = fr->ng;
        return append_set(ld, &fr->glab, &fr->ng, &fr->gcap);
    }
    const uint32_t *g;
    size_t gn = pred_set(ld->d, 0, (size_t)k, &g);
    if (!same_set(ld->set, ld->set_n, g, gn))
        return tells_error_set(ld->err, ld->r.name, ld->r.lineno,
                               "gold label '%s' of id '%s' differs from '%s' in %s", cell,
                               fr->cells.field[fr->col[0]], show_set(ld, g, gn),
                               ld->d->names[0]);
    return 0;
}

/* A line of the file: its id, gold set and predicted set. */
static int read_row(loader *ld, file_rows *fr, char *line, size_t len)
{
    tells_error *err = ld->err;
    long lineno = ld->r.lineno;
    if (text_line_check(line, len, ld->r.name, lineno, err) < 0 ||
        tab_row_split(&fr->cells, line, len, ld->r.name, lineno, err) < 0)
        return -1;
    if (fr->cells.n != (size_t)fr->ncols)
        return tab_columns_error(err, ld->r.name, lineno, (size_t)fr->ncols, fr->cells.n,
                                 NULL);
    const char *id = fr->cells.field[fr->col[0]];
    size_t id_len = fr->cells.len[fr->col[0]];
    if (id_len == 0)
        return tells_error_set(err, ld->r.name, lineno, "empty id");
    long k = 0;
    if (row_id_of(ld, fr, id, id_len, &k) < 0 || row_gold(ld, fr, k) < 0 ||
        parse_set(ld, fr->cells.field[fr->col[2]], fr->cells.len[fr->col[2]],
                  "predicted") < 0)
        return -1;
    if (ARRAY_RESERVE(fr->row_id, fr->row_cap, fr->nrows + 1) < 0 ||
        ARRAY_RESERVE(fr->row_off, fr->off_cap, fr->nrows + 2) < 0)
        return tells_error_nomem(err, ld->r.name, lineno);
    fr->row_id[fr->nrows] = (size_t)k;
    fr->row_off[fr->nrows] = fr->np;
    if (append_set(ld, &fr->plab, &fr->np, &fr->pcap) < 0)
        return -1;
    fr->nrows++;
    return 0;
}

/* After the rows: the file has examples, and a later file every id of
   the first. */
static int file_complete(loader *ld, const file_rows *fr)
{
    if (fr->nrows == 0)
        return tells_error_set(ld->err, ld->r.name, 0, "no examples");
    if (fr->s == 0 || fr->nrows >= fr->n)
        return 0;
    size_t i = 0;
    while (fr->seen[i])
        i++;
    return tells_error_set(ld->err, ld->r.name, 0,
                           "id '%s' of %s (line %ld) is missing (%zu missing in all)",
                           vocab_str(ld->d->ids, i), ld->d->names[0], (*fr->line_of)[i],
                           fr->n - fr->nrows);
}

/* The sets read into d: the first file's rows are in id order; a later
   file's predicted sets are put in that order. */
static int file_store(loader *ld, file_rows *fr)
{
    pred_data *d = ld->d;
    if (fr->s == 0) {
        fr->goff[fr->nrows] = fr->ng;
        fr->row_off[fr->nrows] = fr->np;
        d->off[0] = fr->goff;
        d->lab[0] = fr->glab;
        d->off[1] = fr->row_off;
        d->lab[1] = fr->plab;
        fr->goff = fr->row_off = NULL;
        fr->glab = fr->plab = NULL;
        return 0;
    }
    size_t n = fr->n, nrows = fr->nrows, *row_off = fr->row_off, *row_id = fr->row_id;
    size_t *off = calloc(n + 1, sizeof *off);
    uint32_t *lab = array_new(fr->np, sizeof *lab);
    if (!off || !lab) {
        free(off);
        free(lab);
        return tells_error_nomem(ld->err, ld->r.name, 0);
    }
    row_off[nrows] = fr->np;
    for (size_t r = 0; r < nrows; r++)
        off[row_id[r] + 1] = row_off[r + 1] - row_off[r];
    for (size_t i = 0; i < n; i++)
        off[i + 1] += off[i];
    for (size_t r = 0; r < nrows; r++)
        memcpy(lab + off[row_id[r]], fr->plab + row_off[r],
               (row_off[r + 1] - row_off[r]) * sizeof *lab);
    d->off[fr->s + 1] = off;
    d->lab[fr->s + 1] = lab;
    return 0;
}

/* Reads file s of d. The first file defines the ids and the gold sets;
   line_of[i] is the line of id i in it. */
static int load_file(pred_data *d, size_t s, const char *path, long **line_of,
                     size_t *line_cap, tells_error *err)
{
    loader ld = {.d = d, .err = err};
    if (line_reader_open(&ld.r, path, 0, err) < 0)
        return -1;
    file_rows fr = {.s = s, .n = s ? vocab_size(d->ids) : 0, .line_of = line_of,
                    .line_cap = line_cap};
    fr.seen = s ? calloc(fr.n + 1, sizeof *fr.seen) : NULL;
    int rc = (s && !fr.seen) ? tells_error_nomem(err, ld.r.name, 0)
                             : read_header(&ld, &fr.cells, fr.col, &fr.ncols);
    char *line;
    size_t len;
    while (rc == 0 && (rc = line_reader_next(&ld.r, &line, &len, err)) == 1)
        rc = read_row(&ld, &fr, line, len) < 0 ? -1 : 0;
    if (rc == 0)
        rc = file_complete(&ld, &fr);
    if (rc == 0)
        rc = file_store(&ld, &fr);
    line_reader_close(&ld.r);
    file_rows_free(&fr);
    free(ld.set);
    free(ld.shown);
    return rc < 0 ? -1 : 0;
}

int pred_load(pred_data *d, char *const *paths, size_t npaths,
              bool multi_label, tells_error *err)
{
    return pred_load_fixed(d, paths, npaths, multi_label, NULL, err);
}

int pred_load_fixed(pred_data *d, char *const *paths, size_t npaths, bool multi_label,
                    const label_set *fixed, tells_error *err)
{
    memset(d, 0, sizeof *d);
    d->multi_label = multi_label;
    d->ids = vocab_new();
    d->labels = vocab_new();
    d->names = calloc(npaths + 1, sizeof *d->names);
    d->off = calloc(npaths + 1, sizeof *d->off);
    d->lab = calloc(npaths + 1, sizeof *d->lab);
    if (!d->ids || !d->labels || !d->names || !d->off || !d->lab) {
        pred_free(d);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; fixed && i < fixed->n; i++) {
        if (multi_label && strchr(fixed->name[i], ',')) {
            pred_free(d);
            return tells_error_usage(err, "--labels: label '%s' holds a comma, which "
                                     "separates the labels of a set", fixed->name[i]);
        }
        if (vocab_intern(d->labels, fixed->name[i], strlen(fixed->name[i])) < 0) {
            pred_free(d);
            return tells_error_nomem(err, NULL, 0);
        }
    }
    d->fixed_labels = fixed != NULL;
    for (size_t s = 0; s < npaths; s++) {
        d->names[s] = strdup(display_name(paths[s]));
        if (!d->names[s]) {
            d->nsys = npaths;
            pred_free(d);
            return tells_error_nomem(err, NULL, 0);
        }
    }
    d->nsys = npaths;
    long *line_of = NULL;
    size_t line_cap = 0;
    int rc = 0;
    for (size_t s = 0; s < npaths && rc == 0; s++)
        rc = load_file(d, s, paths[s], &line_of, &line_cap, err);
    free(line_of);
    if (rc < 0) {
        pred_free(d);
        return -1;
    }
    return 0;
}

void label_set_free(label_set *ls)
{
    for (size_t i = 0; i < ls->n; i++)
        free(ls->name[i]);
    free(ls->name);
    memset(ls, 0, sizeof *ls);
}

/* Adds len bytes of s to ls unless empty or repeated (-1 with err set:
   a usage error for a list, file and line for a file). */
static int label_set_add(label_set *ls, size_t *cap, const char *s, size_t len,
                         const char *file, long line, const long *line_of,
                         tells_error *err)
{
    if (len == 0)
        return file ? tells_error_set(err, file, line, "empty label")
                    : tells_error_usage(err, "--labels: empty label in the list");
    if (memchr(s, '\t', len))
        return file ? tells_error_set(err, file, line, "a label cannot hold a tab")
                    : tells_error_usage(err, "--labels: a label cannot hold a tab");
    for (size_t i = 0; i < ls->n; i++)
        if (strlen(ls->name[i]) == len && memcmp(ls->name[i], s, len) == 0)
            return file ? tells_error_set(err, file, line, "label '%.*s' repeated "
                                          "(first on line %ld)", (int)len, s, line_of[i])
                        : tells_error_usage(err, "--labels: label '%.*s' given twice",
                                            (int)len, s);
    if (ARRAY_RESERVE(ls->name, *cap, ls->n + 1) < 0 || !(ls->name[ls->n] = strndup(s, len)))
        return tells_error_nomem(err, file, line);
    ls->n++;
    return 0;
}

int label_set_parse(label_set *ls, const char *spec, tells_error *err)
{
    memset(ls, 0, sizeof *ls);
    size_t cap = 0;
    int rc = 0;
    if (spec[0] != '@') {
        for (const char *s = spec;;) {
            const char *comma = strchr(s, ',');
            size_t len = comma ? (size_t)(comma - s) : strlen(s);
            if ((rc = label_set_add(ls, &cap, s, len, NULL, 0, NULL, err)) < 0 || !comma)
                break;
            s = comma + 1;
        }
    } else {
        line_reader r;
        if (line_reader_open(&r, spec + 1, 0, err) < 0)
            return -1;
        long *line_of = NULL;
        size_t line_cap = 0;
        char *line;
        size_t len;
        while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
            rc = -1;
            if (text_line_check(line, len, r.name, r.lineno, err) < 0)
                break;
            if (len == 0) {
                rc = 0;
                continue;
            }
            if (ARRAY_RESERVE(line_of, line_cap, ls->n + 1) < 0) {
                tells_error_nomem(err, r.name, r.lineno);
                break;
            }
            line_of[ls->n] = r.lineno;
            if (label_set_add(ls, &cap, line, len, r.name, r.lineno, line_of, err) < 0)
                break;
            rc = 0;
        }
        if (rc == 0 && ls->n == 0)
            rc = tells_error_set(err, r.name, 0, "no labels");
        free(line_of);
        line_reader_close(&r);
    }
    if (rc < 0) {
        label_set_free(ls);
        return -1;
    }
    return 0;
}

void pred_free(pred_data *d)
{
    vocab_free(d->ids);
    vocab_free(d->labels);
    for (size_t s = 0; s <= d->nsys; s++) {
        if (d->names && s < d->nsys)
            free(d->names[s]);
        if (d->off)
            free(d->off[s]);
        if (d->lab)
            free(d->lab[s]);
    }
    free(d->names);
    free(d->off);
    free(d->lab);
    memset(d, 0, sizeof *d);
}

size_t pred_n(const pred_data *d) { return vocab_size(d->ids); }

bool pred_correct(const pred_data *d, size_t sys, size_t i)
{
    const uint32_t *g, *p;
    size_t ng = pred_set(d, 0, i, &g), np = pred_set(d, sys + 1, i, &p);
    return same_set(g, ng, p, np);
}

int metric_parse(const char *name, metric_kind *k)
{
    for (int i = METRIC_ACCURACY; i <= METRIC_MICRO_F1; i++)
        if (strcmp(name, metric_name((metric_kind)i)) == 0) {
            *k = (metric_kind)i;
            return 0;
        }
    return -1;
}

const char *metric_name(metric_kind k)
{
    switch (k) {
    case METRIC_MACRO_F1: return "macro_f1";
    case METRIC_MICRO_F1: return "micro_f1";
    default: return "accuracy";
    }
}

int tally_init(tally *t, size_t nlabels)
{
    memset(t, 0, sizeof *t);
    t->nlabels = nlabels;
    t->tp = array_new(nlabels, sizeof *t->tp);
    t->fp = array_new(nlabels, sizeof *t->fp);
    t->fn = array_new(nlabels, sizeof *t->fn);
    if (!t->tp || !t->fp || !t->fn) {
        tally_free(t);
        return -1;
    }
    return 0;
}

int tally_init_for(tally *t, const pred_data *d)
{
    if (tally_init(t, vocab_size(d->labels)) < 0)
        return -1;
    t->fixed = d->fixed_labels;
    return 0;
}

void tally_free(tally *t)
{
    free(t->tp);
    free(t->fp);
    free(t->fn);
    memset(t, 0, sizeof *t);
}

void tally_clear(tally *t)
{
    memset(t->tp, 0, t->nlabels * sizeof *t->tp);
    memset(t->fp, 0, t->nlabels * sizeof *t->fp);
    memset(t->fn, 0, t->nlabels * sizeof *t->fn);
    t->correct = t->n = 0;
}

void tally_copy(tally *dst, const tally *src)
{
    memcpy(dst->tp, src->tp, src->nlabels * sizeof *dst->tp);
    memcpy(dst->fp, src->fp, src->nlabels * sizeof *dst->fp);
    memcpy(dst->fn, src->fn, src->nlabels * sizeof *dst->fn);
    dst->correct = src->correct;
    dst->n = src->n;
}

void tally_add(tally *t, const uint32_t *g, size_t ng, const uint32_t *p,
               size_t np, long w)
{
    t->n += w;
    if (ng == 1 && np == 1) {   /* the single-label case, kept short */
        if (g[0] == p[0]) {
            t->tp[g[0]] += w;
            t->correct += w;
        } else {
            t->fp[p[0]] += w;
            t->fn[g[0]] += w;
        }
        return;
    }
    if (same_set(g, ng, p, np))
        t->correct += w;
    size_t i = 0, j = 0;   /* merge of two ascending sets */
    while (i < ng || j < np) {
        if (j == np || (i < ng && g[i] < p[j]))
            t->fn[g[i++]] += w;
        else if (i == ng || p[j] < g[i])
            t->fp[p[j++]] += w;
        else {
            t->tp[g[i]] += w;
            i++;
            j++;
        }
    }
}

void tally_add_system(tally *t, const pred_data *d, size_t sys)
{
    size_t n = pred_n(d);
    for (size_t i = 0; i < n; i++) {
        const uint32_t *g, *p;
        size_t ng = pred_set(d, 0, i, &g), np = pred_set(d, sys + 1, i, &p);
        tally_add(t, g, ng, p, np, 1);
    }
}

/* a / b, 0 when b is 0 (scikit-learn's zero_division default). */
static double ratio(double a, double b) { return b != 0.0 ? a / b : 0.0; }

/* F1 as 2 tp / (2 tp + fp + fn): equal to 2PR / (P + R) and 0 when that
   is undefined. */
static double f1_of(double tp, double fp, double fn)
{
    return ratio(2.0 * tp, 2.0 * tp + fp + fn);
}

double tally_metric(const tally *t, metric_kind k)
{
    if (k == METRIC_ACCURACY)
        return ratio((double)t->correct, (double)t->n);
    double tp = 0, fp = 0, fn = 0, f1 = 0;
    size_t present = 0;
    for (size_t c = 0; c < t->nlabels; c++) {
        if (!t->fixed && t->tp[c] + t->fp[c] + t->fn[c] == 0)
            continue;
        present++;
        tp += (double)t->tp[c];
        fp += (double)t->fp[c];
        fn += (double)t->fn[c];
        f1 += f1_of((double)t->tp[c], (double)t->fp[c], (double)t->fn[c]);
    }
    if (k == METRIC_MICRO_F1)
        return f1_of(tp, fp, fn);
    return ratio(f1, (double)present);
}

void tally_class(const tally *t, size_t c, double *precision, double *recall,
                 double *f1)
{
    double tp = (double)t->tp[c], fp = (double)t->fp[c], fn = (double)t->fn[c];
    *precision = ratio(tp, tp + fp);
    *recall = ratio(tp, tp + fn);
    *f1 = f1_of(tp, fp, fn);
}

static int by_label_name(const void *a, const void *b, void *labels)
{
    const class_metrics *x = a, *y = b;
    const vocab *v = labels;
    size_t lx = vocab_len(v, x->label), ly = vocab_len(v, y->label);
    int c = memcmp(vocab_str(v, x->label), vocab_str(v, y->label), lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

int metrics_compute(const pred_data *d, size_t sys, metrics *m, tells_error *err)
{
    memset(m, 0, sizeof *m);
    size_t nl = vocab_size(d->labels);
    tally t;
    if (tally_init_for(&t, d) < 0)
        return tells_error_nomem(err, NULL, 0);
    tally_add_system(&t, d, sys);
    m->cls = array_new(nl, sizeof *m->cls);
    if (!m->cls) {
        tally_free(&t);
        return tells_error_nomem(err, NULL, 0);
    }
    double n = (double)t.n, tr = 0, tp = 0, fp = 0, fn = 0, sum_tp = 0,
           sum_tt = 0, sum_pp = 0, errors = 0;
    for (size_t c = 0; c < nl; c++) {
        double ctp = (double)t.tp[c], cfp = (double)t.fp[c], cfn = (double)t.fn[c];
        if (!t.fixed && ctp + cfp + cfn == 0)
            continue;
        class_metrics *cm = &m->cls[m->nclasses++];
        cm->label = (uint32_t)c;
        cm->precision = ratio(ctp, ctp + cfp);
        cm->recall = ratio(ctp, ctp + cfn);
        cm->f1 = f1_of(ctp, cfp, cfn);
        cm->support = t.tp[c] + t.fn[c];
        m->macro_precision += cm->precision;
        m->macro_recall += cm->recall;
        m->macro_f1 += cm->f1;
        tp += ctp;
        fp += cfp;
        fn += cfn;
        errors += cfp + cfn;
        /* gold count t_c = tp + fn, predicted count p_c = tp + fp */
        tr += ctp;
        sum_tp += (ctp + cfn) * (ctp + cfp);
        sum_tt += (ctp + cfn) * (ctp + cfn);
        sum_pp += (ctp + cfp) * (ctp + cfp);
    }
    if (!t.fixed)
        qsort_r(m->cls, m->nclasses, sizeof *m->cls, by_label_name, d->labels);
    m->n = t.n;
    m->accuracy = ratio((double)t.correct, n);
    m->macro_precision = ratio(m->macro_precision, (double)m->nclasses);
    m->macro_recall = ratio(m->macro_recall, (double)m->nclasses);
    m->macro_f1 = ratio(m->macro_f1, (double)m->nclasses);
    m->micro_precision = ratio(tp, tp + fp);
    m->micro_recall = ratio(tp, tp + fn);
    m->micro_f1 = f1_of(tp, fp, fn);
    m->hamming_loss = m->nclasses ? errors / (n * (double)m->nclasses) : NAN;
    /* Cohen's kappa (p_o - p_e) / (1 - p_e), scaled by n^2. */
    double kden = n * n - sum_tp;
    m->kappa = kden != 0 ? (n * tr - sum_tp) / kden : NAN;
    /* Matthews correlation, multiclass as scikit-learn (Gorodkin's R_K). */
    double cov_yy = n * n - sum_tt, cov_pp = n * n - sum_pp;
    m->mcc = cov_yy * cov_pp != 0 ? (n * tr - sum_tp) / sqrt(cov_yy * cov_pp) : 0.0;
    tally_free(&t);
    return 0;
}

void metrics_free(metrics *m)
{
    free(m->cls);
    memset(m, 0, sizeof *m);
}

void metrics_write_header(FILE *fp)
{
    fputs("system\tmetric\tclass\tvalue\tsupport\n", fp);
}

static void row(FILE *fp, const char *sys, const char *metric, const char *cls,
                double v, long support)
{
    if (isnan(v))
        fprintf(fp, "%s\t%s\t%s\tnan\t%ld\n", sys, metric, cls, support);
    else
        fprintf(fp, "%s\t%s\t%s\t%.6f\t%ld\n", sys, metric, cls, v, support);
}

void metrics_write(FILE *fp, const pred_data *d, size_t sys, const metrics *m,
                   bool details)
{
    const char *s = d->names[sys];
    if (d->multi_label) {
        row(fp, s, "subset_accuracy", "-", m->accuracy, m->n);
        row(fp, s, "hamming_loss", "-", m->hamming_loss, m->n);
    } else
        row(fp, s, "accuracy", "-", m->accuracy, m->n);
    row(fp, s, "macro_precision", "-", m->macro_precision, m->n);
    row(fp, s, "macro_recall", "-", m->macro_recall, m->n);
    row(fp, s, "macro_f1", "-", m->macro_f1, m->n);
    row(fp, s, "micro_precision", "-", m->micro_precision, m->n);
    row(fp, s, "micro_recall", "-", m->micro_recall, m->n);
    row(fp, s, "micro_f1", "-", m->micro_f1, m->n);
    if (!d->multi_label) {
        row(fp, s, "kappa", "-", m->kappa, m->n);
        row(fp, s, "mcc", "-", m->mcc, m->n);
    }
    fprintf(fp, "%s\tlabels\t", s);
    for (size_t c = 0; c < m->nclasses; c++)
        fprintf(fp, "%s%s", c ? "," : "", vocab_str(d->labels, m->cls[c].label));
    fprintf(fp, "%s\t%zu\t%ld\n", m->nclasses ? "" : "-", m->nclasses, m->n);
    if (!details)
        return;
    for (size_t c = 0; c < m->nclasses; c++) {
        const class_metrics *cm = &m->cls[c];
        const char *name = vocab_str(d->labels, cm->label);
        row(fp, s, "precision", name, cm->precision, cm->support);
        row(fp, s, "recall", name, cm->recall, cm->support);
        row(fp, s, "f1", name, cm->f1, cm->support);
    }
}

void contrast_free(contrast_groups *g)
{
    free(g->orig);
    free(g->off);
    free(g->member);
    memset(g, 0, sizeof *g);
}

/* The header of a contrast file: 0, or -1 with err set. */
static int contrast_header(line_reader *r, tells_error *err)
{
    char *line;
    size_t len;
    int rc = line_reader_header(r, &line, &len, err);
    if (rc == 1 && text_line_check(line, len, r->name, 1, err) < 0)
        rc = -1;
    if (rc == 0)
        return tells_error_set(err, r->name, 0, "empty input: expected a header "
                               "'original<TAB>contrast'");
    if (rc < 0)
        return rc;
    return strncmp(line, "original\tcontrast", 17) == 0 &&
                   (line[17] == '\0' || line[17] == '\t')
               ? 0
               : tells_error_set(err, r->name, 1, "the header must start with "
                                 "'original<TAB>contrast'");
}

/* What contrast_load gathers: each original's group, and the (group,
   contrast) pairs in the order read. */
typedef struct contrast_pairs {
    long *group_of;       /* per id: its group as an original, or -1 */
    size_t *pair_g, *pair_m, pg_cap, pm_cap, npairs;
    size_t orig_cap;
    tab_row cells;
} contrast_pairs;

/* A line of a contrast file: an original, a new group unless seen
   before, and its contrasts. */
static int contrast_row(contrast_groups *g, contrast_pairs *cp, const pred_data *d,
                        line_reader *r, char *line, size_t len, tells_error *err)
{
    tab_row *cells = &cp->cells;
    if (text_line_check(line, len, r->name, r->lineno, err) < 0 ||
        tab_row_split(cells, line, len, r->name, r->lineno, err) < 0)
        return -1;
    if (cells->n < 2)
        return tells_error_set(err, r->name, r->lineno,
                               "expected an original id and at least one contrast id");
    size_t group = 0;
    for (size_t c = 0; c < cells->n; c++) {
        if (cells->len[c] == 0)
            return tells_error_set(err, r->name, r->lineno, "empty id");
        long k = vocab_find(d->ids, cells->field[c], cells->len[c]);
        if (k < 0)
            return tells_error_set(err, r->name, r->lineno, "id '%s' is not in %s",
                                   cells->field[c], d->names[0]);
        if (c == 0) {
            if (cp->group_of[k] < 0) {
                if (ARRAY_RESERVE(g->orig, cp->orig_cap, g->ngroups + 1) < 0)
                    return tells_error_nomem(err, r->name, r->lineno);
                cp->group_of[k] = (long)g->ngroups;
                g->orig[g->ngroups++] = (size_t)k;
            }
            group = (size_t)cp->group_of[k];
            continue;
        }
        if (ARRAY_RESERVE(cp->pair_g, cp->pg_cap, cp->npairs + 1) < 0 ||
            ARRAY_RESERVE(cp->pair_m, cp->pm_cap, cp->npairs + 1) < 0)
            return tells_error_nomem(err, r->name, r->lineno);
        cp->pair_g[cp->npairs] = group;
        cp->pair_m[cp->npairs++] = (size_t)k;
    }
    return 0;
}

/* g's members: the pairs by group (a counting sort). */
static int contrast_members(contrast_groups *g, const contrast_pairs *cp, const char *name,
                            tells_error *err)
{
    g->off = calloc(g->ngroups + 1, sizeof *g->off);
    g->member = array_new(cp->npairs, sizeof *g->member);
    size_t *fill = calloc(g->ngroups + 1, sizeof *fill);
    int rc = 0;
    if (!g->off || !g->member || !fill)
        rc = tells_error_nomem(err, name, 0);
    else {
        for (size_t p = 0; p < cp->npairs; p++)
            g->off[cp->pair_g[p] + 1]++;
        for (size_t k = 0; k < g->ngroups; k++)
            g->off[k + 1] += g->off[k];
        for (size_t p = 0; p < cp->npairs; p++)
            g->member[g->off[cp->pair_g[p]] + fill[cp->pair_g[p]]++] = cp->pair_m[p];
    }
    free(fill);
    return rc;
}

int contrast_load(contrast_groups *g, const char *path, const pred_data *d,
                  tells_error *err)
{
    memset(g, 0, sizeof *g);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    size_t n = pred_n(d);
    contrast_pairs cp = {.group_of = array_new(n, sizeof *cp.group_of)};
    int rc = cp.group_of ? contrast_header(&r, err) : tells_error_nomem(err, r.name, 0);
    for (size_t i = 0; rc == 0 && i < n; i++)
        cp.group_of[i] = -1;
    char *line;
    size_t len;
    while (rc == 0 && (rc = line_reader_next(&r, &line, &len, err)) == 1)
        rc = contrast_row(g, &cp, d, &r, line, len, err) < 0 ? -1 : 0;
    if (rc == 0 && g->ngroups == 0)
        rc = tells_error_set(err, r.name, 0, "no groups");
    if (rc == 0)
        rc = contrast_members(g, &cp, r.name, err);
    line_reader_close(&r);
    free(cp.group_of);
    free(cp.pair_g);
    free(cp.pair_m);
    tab_row_free(&cp.cells);
    if (rc < 0) {
        contrast_free(g);
        return -1;
    }
    return 0;
}

void contrast_eval(const contrast_groups *g, const pred_data *d, size_t sys,
                   contrast_result *r)
{
    memset(r, 0, sizeof *r);
    for (size_t k = 0; k < g->ngroups; k++) {
        bool all = pred_correct(d, sys, g->orig[k]);
        r->originals_correct += all;
        for (size_t j = g->off[k]; j < g->off[k + 1]; j++) {
            bool ok = pred_correct(d, sys, g->member[j]);
            r->contrasts++;
            r->contrasts_correct += ok;
            all = all && ok;
        }
        r->groups++;
        r->consistent += all;
    }
}

void contrast_write(FILE *fp, const pred_data *d, size_t sys,
                    const contrast_result *r)
{
    const char *s = d->names[sys];
    row(fp, s, "consistency", "-", ratio((double)r->consistent, (double)r->groups),
        r->groups);
    row(fp, s, "original_accuracy", "-",
        ratio((double)r->originals_correct, (double)r->groups), r->groups);
    row(fp, s, "contrast_accuracy", "-",
        ratio((double)r->contrasts_correct, (double)r->contrasts), r->contrasts);
}
