/* Prediction files (stats/metrics.h): reading them, gold first, into
   pred_data, fixed label sets, and which predictions are right. The
   metrics over them are in metrics.c. */
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
    if (!pred_same_set(ld->set, ld->set_n, g, gn))
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
    return pred_same_set(g, ng, p, np);
}
