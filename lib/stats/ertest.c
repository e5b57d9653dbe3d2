#include <config.h>
#include "stats/ertest.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/vocab.h"
#include "stats/stattest.h"

const char *model_file_path(const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (eq && eq != arg && !memchr(arg, '/', (size_t)(eq - arg)))
        return eq + 1;
    return arg;
}

model_file model_file_parse(char *arg)
{
    char *file = (char *)model_file_path(arg);
    if (file == arg)
        return (model_file){NULL, arg};
    file[-1] = '\0';
    return (model_file){arg, file};
}

/* ---- a whole file in memory ---- */

/* Non-blank lines of a file with their numbers (small tables). */
typedef struct text_file {
    char name[1024];
    char **line;
    long *lineno;
    size_t n, line_cap, lineno_cap;
} text_file;

static void text_file_free(text_file *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->line[i]);
    free(f->line);
    free(f->lineno);
    memset(f, 0, sizeof *f);
}

/* Reads path; with header, the first line even when blank (it is the
   header). Every kept line is valid UTF-8 without NUL. */
static int text_file_read(text_file *f, const char *path, bool header, tells_error *err)
{
    memset(f, 0, sizeof *f);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    snprintf(f->name, sizeof f->name, "%s", r.name);
    char *line;
    size_t len;
    int rc = header ? line_reader_header(&r, &line, &len, err) : 0;
    if (!header || rc == 1) {
        bool first = header;
        while (first || (rc = line_reader_next(&r, &line, &len, err)) == 1) {
            rc = -1;
            if (text_line_check(line, len, r.name, r.lineno, err) < 0)
                break;
            if (len > 0 || first) {
                if (ARRAY_RESERVE(f->line, f->line_cap, f->n + 1) < 0 ||
                    ARRAY_RESERVE(f->lineno, f->lineno_cap, f->n + 1) < 0 ||
                    !(f->line[f->n] = strdup(line))) {
                    tells_error_nomem(err, r.name, r.lineno);
                    break;
                }
                f->lineno[f->n++] = r.lineno;
            }
            first = false;
            rc = 0;
        }
    }
    line_reader_close(&r);
    if (rc < 0) {
        text_file_free(f);
        return -1;
    }
    return 0;
}

/* The index of the column named name in a split header, or -1. */
static long column_index(const tab_row *h, const char *name)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->field[i], name) == 0)
            return (long)i;
    return -1;
}

/* Splits line i of f (a copy, so that f keeps it whole) and checks its
   width against want (0: any). */
static int split_row(const text_file *f, size_t i, size_t want, char **copy, tab_row *row,
                     tells_error *err)
{
    free(*copy);
    if (!(*copy = strdup(f->line[i])))
        return tells_error_nomem(err, f->name, f->lineno[i]);
    if (tab_row_split(row, *copy, strlen(*copy), f->name, f->lineno[i], err) < 0)
        return -1;
    if (want && row->n != want)
        return tab_columns_error(err, f->name, f->lineno[i], want, row->n, NULL);
    return 0;
}

/* Mean and sample standard deviation (NAN for fewer than 2 values). */
static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
    double s = 0.0, ss = 0.0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    *mean = n ? s / (double)n : NAN;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

static void put_number(FILE *fp, double v, const char *end)
{
    if (isnan(v))
        fprintf(fp, "nan%s", end);
    else
        fprintf(fp, "%.6f%s", v, end);
}

/* ---- normalised failure rates ---- */

/* A non-negative integer count cell. */
static int parse_count(const char *s, const char *column, const char *file, long line,
                       double *out, tells_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *s < '0' || *s > '9' || *end || errno || v > (1ULL << 53))
        return tells_error_set(err, file, line, "malformed count '%s' in column %s", s,
                               column);
    *out = (double)v;
    return 0;
}

/* The columns of a tells-run table. */
typedef struct run_columns {
    size_t nkey;
    long total, part;     /* cases and passed, or tests and failures */
    bool part_failed;     /* part counts failures */
} run_columns;

static int run_columns_find(const tab_row *h, const char *file, run_columns *c,
                            tells_error *err)
{
    c->nkey = h->n;
    for (size_t i = 0; i < h->n && c->nkey == h->n; i++)
        if (!strcmp(h->field[i], "templates") || !strcmp(h->field[i], "cases") ||
            !strcmp(h->field[i], "tests"))
            c->nkey = i;
    c->total = column_index(h, "cases");
    c->part = column_index(h, "passed");
    c->part_failed = false;
    if (c->total < 0 || c->part < 0) {
        c->total = column_index(h, "tests");
        c->part = column_index(h, "failures");
        c->part_failed = true;
    }
    if (c->total < 0 || c->part < 0)
        return tells_error_set(err, file, 1, "no cases and passed columns, nor tests and "
                               "failures (a table of tells-run)");
    if (c->nkey == 0)
        return tells_error_set(err, file, 1, "no column before %s names the test",
                               h->field[0]);
    return 0;
}

/* The tests of one file: failure rate of test t in rate[t]. */
typedef struct nf_state {
    const model_file *files;
    size_t nfiles, ntests;
    vocab *tests;         /* keys: the key cells joined by tabs */
    long *first_line;     /* [ntests] line of each test in the first file */
    size_t first_line_cap, rate_cap;
    tab_row header;       /* of the first file */
    char *header_copy;
    run_columns cols;
    double *rate;         /* [nfiles * ntests] */
    vocab *models;
    size_t *model_of;     /* [nfiles] */
} nf_state;

/* One table of tells-run being read (read_run_table): its lines, its
   split header and row at hand, and that row's key. */
typedef struct run_table {
    size_t fi;            /* the file's place in the files */
    text_file f;
    tab_row h, row;       /* h: moved to nf_state for the first file */
    char *hcopy, *copy;
    run_columns c;
    char *key;            /* the key cells joined by tabs, then by " / " */
    size_t key_cap, kl;   /* kl: the length of the first */
    const char *shown;    /* the second, for messages */
    long *seen;           /* files after the first: each test's line, 0 before */
} run_table;

/* The header of the table: its columns, which must name the tests as the
   first file's do; the first file's kept in st. */
static int run_table_header(nf_state *st, run_table *rt, tells_error *err)
{
    const text_file *f = &rt->f;
    int rc = 0;
    if (f->n == 0)
        rc = tells_error_set(err, f->name, 0, "empty input: expected a table of tells-run");
    if (rc == 0 && (rc = split_row(f, 0, 0, &rt->hcopy, &rt->h, err)) == 0 &&
        (rc = header_names_check(rt->h.field, rt->h.len, rt->h.n, f->name, 1, err)) == 0)
        rc = run_columns_find(&rt->h, f->name, &rt->c, err);
    if (rc == 0 && rt->fi > 0) {
        bool same = rt->c.nkey == st->cols.nkey;
        for (size_t k = 0; same && k < rt->c.nkey; k++)
            same = strcmp(rt->h.field[k], st->header.field[k]) == 0;
        if (!same)
            rc = tells_error_set(err, f->name, 1, "its tests are named by other columns "
                                 "than those of %s", display_name(st->files[0].path));
    }
    if (rc == 0 && rt->fi == 0) {
        st->cols = rt->c;
        st->header = rt->h;
        st->header_copy = rt->hcopy;
        memset(&rt->h, 0, sizeof rt->h);
        rt->hcopy = NULL;
    }
    if (rc == 0 && rt->fi > 0 && !(rt->seen = calloc(st->ntests + 1, sizeof *rt->seen)))
        rc = tells_error_nomem(err, f->name, 0);
    return rc;
}

/* The key of the row at hand: its key cells joined by tabs, and for
   messages by " / ". */
static int run_row_key(run_table *rt, long line, tells_error *err)
{
    const tab_row *row = &rt->row;
    size_t nkey = rt->c.nkey;
    size_t need = 2;
    for (size_t k = 0; k < nkey; k++)
        need += 2 * row->len[k] + 4;
    if (ARRAY_RESERVE(rt->key, rt->key_cap, need) < 0)
        return tells_error_nomem(err, rt->f.name, line);
    char *key = rt->key;
    size_t kl = 0;
    for (size_t k = 0; k < nkey; k++) {
        if (k)
            key[kl++] = '\t';
        memcpy(key + kl, row->field[k], row->len[k]);
        kl += row->len[k];
    }
    key[kl] = '\0';
    char *shown = key + kl + 1;
    size_t sl = 0;
    for (size_t k = 0; k < nkey; k++) {
        if (k) {
            memcpy(shown + sl, " / ", 3);
            sl += 3;
        }
        memcpy(shown + sl, row->field[k], row->len[k]);
        sl += row->len[k];
    }
    shown[sl] = '\0';
    rt->kl = kl;
    rt->shown = shown;
    return 0;
}

/* The failure rate of the row at hand, from its counts. */
static int run_row_rate(const run_table *rt, long line, double *rate, tells_error *err)
{
    const run_columns *c = &rt->c;
    const tab_row *row = &rt->row;
    const char *name = rt->f.name;
    double total, part;
    int rc;
    if ((rc = parse_count(row->field[c->total], c->part_failed ? "tests" : "cases", name,
                          line, &total, err)) < 0 ||
        (rc = parse_count(row->field[c->part], c->part_failed ? "failures" : "passed",
                          name, line, &part, err)) < 0)
        return rc;
    if (part > total)
        return tells_error_set(err, name, line, "%s %s is more than %s %s",
                               c->part_failed ? "failures" : "passed", row->field[c->part],
                               c->part_failed ? "tests" : "cases", row->field[c->total]);
    if (total == 0)
        return tells_error_set(err, name, line, "test '%s' has no cases", rt->shown);
    double failed = c->part_failed ? part : total - part;
    *rate = failed / total;
    return 0;
}

/* The test of the row at hand: a new one in the first file, else one of
   the first file's, once. */
static int run_row_test(nf_state *st, run_table *rt, long line, long *test,
                        tells_error *err)
{
    const char *name = rt->f.name;
    long t;
    if (rt->fi == 0) {
        size_t before = vocab_size(st->tests);
        if ((t = vocab_intern(st->tests, rt->key, rt->kl)) < 0 ||
            ARRAY_RESERVE(st->first_line, st->first_line_cap, (size_t)t + 1) < 0)
            return tells_error_nomem(err, name, line);
        if ((size_t)t < before)
            return tells_error_set(err, name, line, "test '%s' repeated (first on line %ld)",
                                   rt->shown, st->first_line[t]);
        st->first_line[t] = line;
        st->ntests = vocab_size(st->tests);
    } else {
        t = vocab_find(st->tests, rt->key, rt->kl);
        if (t < 0)
            return tells_error_set(err, name, line, "test '%s' is not in %s", rt->shown,
                                   display_name(st->files[0].path));
        if (rt->seen[t])
            return tells_error_set(err, name, line, "test '%s' repeated (first on line %ld)",
                                   rt->shown, rt->seen[t]);
        rt->seen[t] = line;
    }
    *test = t;
    return 0;
}

/* Line i of the table: its test's failure rate into st->rate (nothing
   for the "(all)" row). */
static int run_table_row(nf_state *st, run_table *rt, size_t i, tells_error *err)
{
    long line = rt->f.lineno[i];
    size_t want = rt->fi ? rt->h.n : st->header.n;
    double rate = 0.0;
    long t = 0;
    int rc;
    if ((rc = split_row(&rt->f, i, want, &rt->copy, &rt->row, err)) < 0)
        return rc;
    if (strcmp(rt->row.field[0], "(all)") == 0)
        return 0;
    if ((rc = run_row_key(rt, line, err)) < 0 ||
        (rc = run_row_rate(rt, line, &rate, err)) < 0 ||
        (rc = run_row_test(st, rt, line, &t, err)) < 0)
        return rc;
    if (rt->fi == 0 && ARRAY_RESERVE(st->rate, st->rate_cap, (size_t)t + 1) < 0)
        return tells_error_nomem(err, rt->f.name, line);
    st->rate[rt->fi * st->ntests + (size_t)t] = rate;
    return 0;
}

/* After the rows: the first file has tests, and a later one every test
   of the first. */
static int run_table_complete(const nf_state *st, run_table *rt, tells_error *err)
{
    if (rt->fi == 0)
        return st->ntests == 0 ? tells_error_set(err, rt->f.name, 0, "no tests") : 0;
    size_t missing = 0, first = 0;
    for (size_t t = st->ntests; t-- > 0;)
        if (!rt->seen[t]) {
            missing++;
            first = t;
        }
    if (!missing)
        return 0;
    /* The key of the first missing test, as messages show keys. */
    const char *k = vocab_str(st->tests, first);
    size_t kl = strlen(k), j = 0;
    if (ARRAY_RESERVE(rt->key, rt->key_cap, 3 * kl + 1) < 0)
        return tells_error_nomem(err, rt->f.name, 0);
    for (size_t i = 0; i <= kl; i++) {
        if (k[i] == '\t') {
            memcpy(rt->key + j, " / ", 3);
            j += 3;
        } else
            rt->key[j++] = k[i];
    }
    return tells_error_set(err, rt->f.name, 0, "test '%s' of %s (line %ld) is missing "
                           "(%zu missing in all)", rt->key, display_name(st->files[0].path),
                           st->first_line[first], missing);
}

static int read_run_table(nf_state *st, size_t fi, tells_error *err)
{
    run_table rt = {.fi = fi};
    if (text_file_read(&rt.f, st->files[fi].path, true, err) < 0)
        return -1;
    int rc = run_table_header(st, &rt, err);
    for (size_t i = 1; rc == 0 && i < rt.f.n; i++)
        rc = run_table_row(st, &rt, i, err);
    if (rc == 0)
        rc = run_table_complete(st, &rt, err);
    free(rt.key);
    free(rt.copy);
    free(rt.hcopy);
    tab_row_free(&rt.row);
    tab_row_free(&rt.h);
    free(rt.seen);
    text_file_free(&rt.f);
    return rc;
}

static void nf_free(nf_state *st)
{
    vocab_free(st->tests);
    vocab_free(st->models);
    free(st->first_line);
    free(st->rate);
    free(st->model_of);
    free(st->header_copy);
    tab_row_free(&st->header);
}

/* Writes the key cells of test t (or "(all)" and "-"s when t is
   ntests), then the model's row. */
static void nf_row(FILE *fp, const nf_state *st, size_t t, const char *model, size_t seeds,
                   double rate, double rate_sd, double norm, double norm_sd)
{
    if (t < st->ntests)
        fprintf(fp, "%s", vocab_str(st->tests, t));
    else
        for (size_t k = 0; k < st->cols.nkey; k++)
            fputs(k ? "\t-" : "(all)", fp);
    fprintf(fp, "\t%s\t%zu\t", model, seeds);
    put_number(fp, rate, "\t");
    put_number(fp, rate_sd, "\t");
    put_number(fp, norm, "\t");
    put_number(fp, norm_sd, "\n");
}

/* Each file's model in model_of: its NAME=, else its file's name. */
static int nf_models(nf_state *st, tells_error *err)
{
    for (size_t fi = 0; fi < st->nfiles; fi++) {
        const model_file *f = &st->files[fi];
        const char *name = f->name ? f->name : display_name(f->path);
        /* The name is a cell of the table, as split and partition names
           are: refused, as they are, when it would break the row. */
        if (strpbrk(name, "\t\n\r"))
            return tells_error_usage(err, "invalid model name '%s' (a tab or line end would "
                                     "break the table's columns)", name);
        long m = vocab_intern(st->models, name, strlen(name));
        if (m < 0)
            return tells_error_nomem(err, NULL, 0);
        st->model_of[fi] = (size_t)m;
    }
    return 0;
}

/* Per test, each of the M models' mean and sd of its seeds' rates
   (mean[m * T + t], sd), and each seed's rate on the scale of the
   models' means (norm[f * T + t]); v has room for a rate per file. */
static void nf_scale(const nf_state *st, size_t M, double *v, double *mean, double *sd,
                     double *norm)
{
    size_t T = st->ntests, nfiles = st->nfiles;
    for (size_t t = 0; t < T; t++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t m = 0; m < M; m++) {
            size_t k = 0;
            for (size_t fi = 0; fi < nfiles; fi++)
                if (st->model_of[fi] == m)
                    v[k++] = st->rate[fi * T + t];
            mean_sd(v, k, &mean[m * T + t], &sd[m * T + t]);
            lo = fmin(lo, mean[m * T + t]);
            hi = fmax(hi, mean[m * T + t]);
        }
        /* Each seed's rate on the scale of the models' means. */
        for (size_t fi = 0; fi < nfiles; fi++)
            norm[fi * T + t] = hi > lo ? (st->rate[fi * T + t] - lo) / (hi - lo) : 0.0;
    }
}

int normalized_failure_report(const model_file *files, size_t nfiles, FILE *fp,
                              tells_error *err)
{
    nf_state st = {.files = files, .nfiles = nfiles};
    int rc = 0;
    st.tests = vocab_new();
    st.models = vocab_new();
    st.model_of = array_new(nfiles, sizeof *st.model_of);
    if (!st.tests || !st.models || !st.model_of)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0)
        rc = nf_models(&st, err);
    size_t nmodels = vocab_size(st.models);
    if (rc == 0 && nmodels < 2)
        rc = tells_error_usage(err, "normalized failure rates compare at least 2 models, "
                               "not %zu", nmodels);
    for (size_t fi = 0; rc == 0 && fi < nfiles; fi++) {
        rc = read_run_table(&st, fi, err);
        if (rc == 0 && fi == 0 &&
            ARRAY_RESERVE(st.rate, st.rate_cap, nfiles * st.ntests) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    size_t T = st.ntests, M = nmodels;
    /* per model: mean and sd of the rate per test; norm[f * T + t] the
       normalised rate of file f */
    double *mean = NULL, *sd = NULL, *norm = NULL, *v = NULL, *avg_rate = NULL,
           *avg_norm = NULL;
    size_t *seeds = NULL;
    if (rc == 0) {
        mean = array_new(M * T, sizeof *mean);
        sd = array_new(M * T, sizeof *sd);
        norm = array_new(nfiles * T, sizeof *norm);
        v = array_new(nfiles, sizeof *v);
        avg_rate = array_new(nfiles, sizeof *avg_rate);
        avg_norm = array_new(nfiles, sizeof *avg_norm);
        seeds = array_new(M, sizeof *seeds);
        if (!mean || !sd || !norm || !v || !avg_rate || !avg_norm || !seeds)
            rc = tells_error_nomem(err, NULL, 0);
    }
    if (rc == 0) {
        for (size_t fi = 0; fi < nfiles; fi++)
            seeds[st.model_of[fi]]++;
        nf_scale(&st, M, v, mean, sd, norm);
        for (size_t fi = 0; fi < nfiles; fi++) {
            double r = 0.0, nr = 0.0;
            for (size_t t = 0; t < T; t++) {
                r += st.rate[fi * T + t];
                nr += norm[fi * T + t];
            }
            avg_rate[fi] = r / (double)T;
            avg_norm[fi] = nr / (double)T;
        }
        for (size_t k = 0; k < st.cols.nkey; k++)
            fprintf(fp, "%s\t", st.header.field[k]);
        fputs("model\tseeds\tfailure_rate\tfailure_rate_sd\tnormalized_failure_rate\t"
              "normalized_failure_rate_sd\n", fp);
        for (size_t t = 0; t <= T; t++)
            for (size_t m = 0; m < M; m++) {
                double nm, nsd, rm, rsd;
                size_t k = 0;
                for (size_t fi = 0; fi < nfiles; fi++)
                    if (st.model_of[fi] == m)
                        v[k++] = t < T ? norm[fi * T + t] : avg_norm[fi];
                mean_sd(v, k, &nm, &nsd);
                if (t < T) {
                    rm = mean[m * T + t];
                    rsd = sd[m * T + t];
                } else {
                    k = 0;
                    for (size_t fi = 0; fi < nfiles; fi++)
                        if (st.model_of[fi] == m)
                            v[k++] = avg_rate[fi];
                    mean_sd(v, k, &rm, &rsd);
                }
                nf_row(fp, &st, t, vocab_str(st.models, m), seeds[m], rm, rsd, nm, nsd);
            }
    }
    free(mean);
    free(sd);
    free(norm);
    free(v);
    free(avg_rate);
    free(avg_norm);
    free(seeds);
    nf_free(&st);
    return rc;
}

/* ---- means and standard deviations across seeds ---- */

static const char METRICS_HEADER[] = "system\tmetric\tclass\tvalue\tsupport";

/* Numbers of a text file: one per line, or column of a TSV whose first
   line is the header (numbers_read's rules and messages). */
static int file_numbers(const text_file *f, const char *column, double **v, size_t *n,
                        tells_error *err)
{
    *n = 0;
    if (!(*v = array_new(f->n, sizeof **v)))
        return tells_error_nomem(err, f->name, 0);
    tab_row row = {0};
    char *copy = NULL;
    long col = 0;
    size_t width = 0, start = 0;
    int rc = 0;
    if (column) {
        if (f->n == 0)
            rc = tells_error_set(err, f->name, 0, "empty input: expected a header naming "
                                 "the column '%s'", column);
        else if ((rc = split_row(f, 0, 0, &copy, &row, err)) == 0 &&
                 (rc = header_names_check(row.field, row.len, row.n, f->name, 1, err)) == 0 &&
                 (col = column_index(&row, column)) < 0)
            rc = tells_error_set(err, f->name, 1, "no '%s' column in the header", column);
        width = row.n;
        start = 1;
    }
    for (size_t i = start; rc == 0 && i < f->n; i++) {
        const char *cell = f->line[i];
        if (column) {
            if ((rc = split_row(f, i, width, &copy, &row, err)) < 0)
                break;
            cell = row.field[col];
        } else if (strchr(cell, '\t')) {
            size_t fields = 1;
            for (const char *q = cell; (q = strchr(q, '\t')); q++)
                fields++;
            rc = tab_columns_error(err, f->name, f->lineno[i], 1, fields, NULL);
            break;
        }
        int ok = number_parse(cell, strlen(cell), &(*v)[*n]);
        if (ok <= 0) {
            rc = tells_error_set(err, f->name, f->lineno[i], ok == 0
                                 ? "malformed number '%s'" : "not a finite number '%s'",
                                 cell);
            break;
        }
        ++*n;
    }
    if (rc == 0 && *n == 0)
        rc = tells_error_set(err, f->name, 0, "no numbers");
    free(copy);
    tab_row_free(&row);
    if (rc < 0) {
        free(*v);
        *v = NULL;
    }
    return rc;
}

static void seeds_row(FILE *fp, const char *system, const char *metric, const char *cls,
                      const double *v, size_t n)
{
    double m, sd;
    mean_sd(v, n, &m, &sd);
    fprintf(fp, "%s\t%s\t%s\t%zu\t", system, metric, cls, n);
    put_number(fp, m, "\t");
    put_number(fp, sd, "\n");
}

/* A metrics table: each system a seed, each (metric, class) a row. */
static int metrics_seeds(const text_file *f, const char *system, FILE *fp, tells_error *err)
{
    vocab *keys = vocab_new(), *systems = vocab_new();
    double *val = NULL;     /* [key * cap_systems + seed], NAN when absent */
    size_t val_cap = 0, nsys_cap = 0;
    tab_row row = {0};
    char *copy = NULL, *key = NULL;
    size_t key_cap = 0;
    int rc = keys && systems ? 0 : tells_error_nomem(err, f->name, 0);
    /* First pass: the systems, so that each key's values have a row. */
    for (size_t i = 1; rc == 0 && i < f->n; i++) {
        if ((rc = split_row(f, i, 5, &copy, &row, err)) < 0)
            break;
        if (vocab_intern(systems, row.field[0], row.len[0]) < 0)
            rc = tells_error_nomem(err, f->name, f->lineno[i]);
    }
    nsys_cap = systems ? vocab_size(systems) : 0;
    for (size_t i = 1; rc == 0 && i < f->n; i++) {
        long line = f->lineno[i];
        if ((rc = split_row(f, i, 5, &copy, &row, err)) < 0)
            break;
        if (strcmp(row.field[1], "labels") == 0)
            continue;
        double x;
        if (strcmp(row.field[3], "nan") == 0)
            x = NAN;
        else if (number_parse(row.field[3], row.len[3], &x) <= 0) {
            rc = tells_error_set(err, f->name, line, "malformed value '%s'", row.field[3]);
            break;
        }
        size_t kl = row.len[1] + row.len[2] + 1;
        if (ARRAY_RESERVE(key, key_cap, kl + 1) < 0) {
            rc = tells_error_nomem(err, f->name, line);
            break;
        }
        snprintf(key, kl + 1, "%s\t%s", row.field[1], row.field[2]);
        size_t before = vocab_size(keys);
        long k = vocab_intern(keys, key, kl);
        size_t sys = (size_t)vocab_find(systems, row.field[0], row.len[0]);
        if (k < 0 || ((size_t)k >= before &&
                      ARRAY_RESERVE(val, val_cap, ((size_t)k + 1) * nsys_cap) < 0)) {
            rc = tells_error_nomem(err, f->name, line);
            break;
        }
        double *slot = val + (size_t)k * nsys_cap;
        if ((size_t)k >= before)
            for (size_t j = 0; j < nsys_cap; j++)
                slot[j] = NAN;
        else if (!isnan(slot[sys])) {
            rc = tells_error_set(err, f->name, line, "metric %s of class %s repeated for "
                                 "system %s", row.field[1], row.field[2], row.field[0]);
            break;
        }
        slot[sys] = x;
    }
    if (rc == 0 && vocab_size(keys) == 0)
        rc = tells_error_set(err, f->name, 0, "no metrics");
    double *v = rc == 0 ? array_new(nsys_cap, sizeof *v) : NULL;
    if (rc == 0 && !v)
        rc = tells_error_nomem(err, f->name, 0);
    for (size_t k = 0; rc == 0 && k < vocab_size(keys); k++) {
        size_t n = 0;
        for (size_t j = 0; j < nsys_cap; j++)
            if (!isnan(val[k * nsys_cap + j]))
                v[n++] = val[k * nsys_cap + j];
        const char *kstr = vocab_str(keys, k), *tab = strchr(kstr, '\t');
        fprintf(fp, "%s\t%.*s\t", system, (int)(tab - kstr), kstr);
        double m, sd;
        mean_sd(v, n, &m, &sd);
        fprintf(fp, "%s\t%zu\t", tab + 1, n);
        put_number(fp, m, "\t");
        put_number(fp, sd, "\n");
    }
    free(v);
    free(val);
    free(key);
    free(copy);
    tab_row_free(&row);
    vocab_free(keys);
    vocab_free(systems);
    return rc;
}

int seeds_report(char *const *paths, size_t npaths, const char *column, FILE *fp,
                 tells_error *err)
{
    if (npaths == 0)
        return tells_error_usage(err, "no file of seeds");
    fputs("system\tmetric\tclass\tseeds\tmean\tsd\n", fp);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < npaths; i++) {
        text_file f;
        if ((rc = text_file_read(&f, paths[i], false, err)) < 0)
            break;
        const char *name = display_name(paths[i]);
        if (!column && f.n > 0 && strcmp(f.line[0], METRICS_HEADER) == 0)
            rc = metrics_seeds(&f, name, fp, err);
        else {
            double *v;
            size_t n;
            if ((rc = file_numbers(&f, column, &v, &n, err)) == 0) {
                seeds_row(fp, name, column ? column : "value", "-", v, n);
                free(v);
            }
        }
        text_file_free(&f);
    }
    return rc;
}
