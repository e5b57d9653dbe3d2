#include <config.h>
#include "analysis/aflite.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/idfile.h"
#include "base/lineio.h"
#include "base/number.h"
#include "base/tasks.h"
#include "stats/subsample.h"

void aflite_options_default(aflite_options *o)
{
    memset(o, 0, sizeof *o);
    o->models = 64;
    o->train_size = 5620;
    o->cutoff = 500;
    o->tau = 0.75;
    logreg_options_default(&o->lr);
}

void aflite_result_free(aflite_result *r)
{
    free(r->removed_in);
    memset(r, 0, sizeof *r);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Order of examples for removal: score descending, ties by position.
   Scores are compared as exact fractions correct / held. */
typedef struct rank_ctx {
    const unsigned *correct, *held;
} rank_ctx;

static int by_score(const void *pa, const void *pb, void *ctx)
{
    const rank_ctx *rank = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    /* score 0 when never held out: 0 / 1 */
    uint64_t ca = rank->correct[a], ha = rank->held[a] ? rank->held[a] : 1;
    uint64_t cb = rank->correct[b], hb = rank->held[b] ? rank->held[b] : 1;
    uint64_t l = ca * hb, r = cb * ha;
    if (l != r)
        return l > r ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Scores are fractions c / h with h at most the number of models: with
   few models, each fraction's rank among all of them (equal fractions
   equal ranks, 1/2 = 2/4) lets a counting sort put the examples in
   by_score's order in linear time. */
typedef struct score_ranks {
    size_t models, nranks;
    unsigned *rank;      /* (models + 1)^2: rank of c / h at h * (models + 1) + c, 0 the best */
    size_t *start;       /* nranks + 1 */
} score_ranks;

enum { RANKED_MODELS_MAX = 256 };

typedef struct fraction {
    unsigned c, h;
} fraction;

static int by_fraction(const void *pa, const void *pb)
{
    const fraction *a = pa, *b = pb;
    uint64_t l = (uint64_t)a->c * b->h, r = (uint64_t)b->c * a->h;
    return l > r ? -1 : l < r;   /* descending */
}

/* 0 when made, 1 when there are too many models (qsort then), -1 out of memory. */
static int score_ranks_init(score_ranks *sr, size_t models)
{
    memset(sr, 0, sizeof *sr);
    if (models > RANKED_MODELS_MAX)
        return 1;
    size_t side = models + 1, nf = 0;
    fraction *f = malloc(side * side * sizeof *f);
    sr->rank = calloc(side * side, sizeof *sr->rank);
    sr->start = malloc((side * side + 1) * sizeof *sr->start);
    if (!f || !sr->rank || !sr->start) {
        free(f);
        free(sr->rank);
        free(sr->start);
        memset(sr, 0, sizeof *sr);
        return -1;
    }
    for (unsigned h = 1; h <= models; h++)
        for (unsigned c = 0; c <= h; c++)
            f[nf++] = (fraction){c, h};
    qsort(f, nf, sizeof *f, by_fraction);
    size_t r = 0;
    for (size_t i = 0; i < nf; i++) {
        if (i > 0 && by_fraction(&f[i - 1], &f[i]) != 0)
            r++;
        sr->rank[f[i].h * side + f[i].c] = (unsigned)r;
    }
    sr->rank[0] = sr->rank[1 * side + 0];   /* never held out: 0 / 1 */
    sr->models = models;
    sr->nranks = nf ? r + 1 : 1;
    free(f);
    return 0;
}

static void score_ranks_free(score_ranks *sr)
{
    free(sr->rank);
    free(sr->start);
}

/* order[0 .. n) as qsort_r with by_score gives it. */
static void order_by_score(const score_ranks *sr, const unsigned *correct,
                           const unsigned *held, size_t n, size_t *order)
{
    if (!sr->rank) {
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        rank_ctx rank = {correct, held};
        qsort_r(order, n, sizeof *order, by_score, &rank);
        return;
    }
    size_t side = sr->models + 1, *start = sr->start;
    memset(start, 0, (sr->nranks + 1) * sizeof *start);
    for (size_t i = 0; i < n; i++)
        start[sr->rank[held[i] * side + correct[i]] + 1]++;
    for (size_t r = 0; r < sr->nranks; r++)
        start[r + 1] += start[r];
    for (size_t i = 0; i < n; i++)   /* in position order: ties by position */
        order[start[sr->rank[held[i] * side + correct[i]]]++] = i;
}

/* The draws of a round: each model's on the threads into its own row of
   by_model (models x rows), then turned into in_train (rows x models) by
   row blocks, so that no two threads write to the same cache line. */
typedef struct draw_job {
    const uint64_t *key;
    size_t rows, m, models;
    uint64_t seed, round;
    unsigned char *by_model, *in_train;
    unsigned char *failed;        /* per model: out of memory */
    subsample_work *work;         /* per thread */
} draw_job;

enum { TRANSPOSE_ROWS = 4096 };

static void draw_task(void *ctx, size_t j, size_t thread)
{
    draw_job *dj = ctx;
    dj->failed[j] = subsample_pick(dj->key, dj->rows, dj->m,
                                   subsample_stream(dj->seed, dj->round, j),
                                   dj->by_model + j * dj->rows, 1, &dj->work[thread]) < 0;
}

static void transpose_task(void *ctx, size_t t, size_t thread)
{
    (void)thread;
    draw_job *dj = ctx;
    size_t r0 = t * TRANSPOSE_ROWS, r1 = r0 + TRANSPOSE_ROWS < dj->rows ? r0 + TRANSPOSE_ROWS : dj->rows;
    for (size_t i = r0; i < r1; i++)
        for (size_t j = 0; j < dj->models; j++)
            dj->in_train[i * dj->models + j] = dj->by_model[j * dj->rows + i];
}

static double score_of(unsigned correct, unsigned held)
{
    return held ? (double)correct / (double)held : 0.0;
}

int aflite_run(float *x, size_t rows, size_t dim, int *y, size_t classes,
               const aflite_options *o, aflite_result *res, tells_error *err)
{
    memset(res, 0, sizeof *res);
    size_t n = o->models, m = o->train_size;
    size_t stop = o->target > m ? o->target : m;
    if (n == 0 || m == 0)
        return tells_error_usage(err, "the ensemble needs models and a training size");
    if (m >= rows)
        return tells_error_set(err, NULL, 0, "the training size m = %zu is not smaller than "
                               "the %zu examples", m, rows);
    res->rows = rows;
    res->removed_in = array_new(rows, sizeof *res->removed_in);
    size_t *alive = malloc(rows * sizeof *alive);          /* input row of each example */
    uint64_t *key = malloc(rows * sizeof *key);            /* its key for the draws */
    size_t threads = tasks_threads(o->lr.threads);
    subsample_work *draw = array_new(threads, sizeof *draw);
    unsigned char *by_model = malloc(rows * n), *failed = malloc(n);
    size_t *order = malloc(rows * sizeof *order);
    unsigned *correct = malloc(rows * sizeof *correct);
    unsigned *held = malloc(rows * sizeof *held);
    unsigned char *in_train = malloc(rows * n);
    bool *drop = malloc(rows * sizeof *drop);
    logreg_fit *warm = NULL;   /* the last round's models, to start from */
    score_ranks ranks;
    int rc = score_ranks_init(&ranks, n) < 0 ? -1 : 0;
    if (rc < 0 || !res->removed_in || !alive || !key || !draw || !by_model || !failed ||
        !order || !correct || !held || !in_train || !drop) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    /* Centre the columns: the intercept absorbs the shift, so the models
       and their predictions are the same, but float32 products no longer
       lose digits to large common offsets. */
    double *mean = array_new(dim, sizeof *mean);
    if (!mean) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t i = 0; i < rows; i++)
        for (size_t k = 0; k < dim; k++)
            mean[k] += x[i * dim + k];
    for (size_t i = 0; i < rows; i++)
        for (size_t k = 0; k < dim; k++)
            x[i * dim + k] = (float)((double)x[i * dim + k] - mean[k] / (double)rows);
    free(mean);
    for (size_t i = 0; i < rows; i++) {
        alive[i] = i;
        key[i] = o->row_keys ? o->row_keys[i] : i;
    }
    size_t nalive = rows;
    while (nalive > stop && (o->max_rounds == 0 || res->rounds < o->max_rounds)) {
        double t0 = now();
        size_t round = ++res->rounds;
        /* Training sets: the given ones, or m of the examples drawn for
           each model by their keys (stats/subsample.h), so that a draw
           does not change when another example was removed before it. */
        if (round == 1 && o->first_splits) {
            memset(in_train, 0, nalive * n);
            for (size_t j = 0; j < n; j++)
                for (size_t i = 0; i < m; i++)
                    in_train[o->first_splits[j * m + i] * n + j] = 1;
        } else {
            draw_job dj = {.key = key, .rows = nalive, .m = m, .models = n, .seed = o->seed,
                           .round = round, .by_model = by_model, .in_train = in_train,
                           .failed = failed, .work = draw};
            tasks_run(threads, n, draw_task, &dj);
            if (memchr(failed, 1, n)) {
                rc = tells_error_nomem(err, NULL, 0);
                goto done;
            }
            tasks_run(threads, (nalive + TRANSPOSE_ROWS - 1) / TRANSPOSE_ROWS, transpose_task, &dj);
        }
        logreg_data d = {.x = x, .rows = nalive, .dim = dim, .ld = dim, .y = y,
                         .classes = classes};
        aflite_round r = {.round = round, .examples = nalive, .rows = alive,
                          .correct = correct, .held = held, .chosen = order,
                          .in_train = in_train, .models = n};
        logreg_fit *fit = logreg_train_held_out(&d, in_train, n, o->cold_start ? NULL : warm,
                                                &o->lr, correct, held, &r.stats, err);
        if (!fit) {
            rc = -1;
            goto done;
        }
        logreg_free(warm);
        warm = fit;
        for (size_t i = 0; i < nalive; i++)
            r.at_tau += score_of(correct[i], held[i]) >= o->tau;
        order_by_score(&ranks, correct, held, nalive, order);
        size_t k = 0;
        while (k < o->cutoff && k < nalive && score_of(correct[order[k]], held[order[k]]) >= o->tau)
            k++;
        r.removed = k;
        r.remaining = nalive - k;
        r.seconds = now() - t0;
        res->stats.flops += r.stats.flops;
        res->stats.seconds += r.stats.seconds;
        res->stats.passes += r.stats.passes;
        res->stats.iterations += r.stats.iterations;
        if (r.stats.max_iterations > res->stats.max_iterations)
            res->stats.max_iterations = r.stats.max_iterations;
        res->stats.unconverged += r.stats.unconverged;
        if (o->round_done && (rc = o->round_done(&r, o->user, err)) != 0)
            goto done;
        /* Remove the chosen ones; the others move up, in order. */
        memset(drop, 0, nalive * sizeof *drop);
        for (size_t i = 0; i < k; i++) {
            drop[order[i]] = true;
            res->removed_in[alive[order[i]]] = round;
        }
        res->easy += k;
        size_t w = 0;
        for (size_t i = 0; i < nalive; i++) {
            if (drop[i])
                continue;
            if (w != i) {
                memmove(x + w * dim, x + i * dim, dim * sizeof *x);
                y[w] = y[i];
                alive[w] = alive[i];
                key[w] = key[i];
            }
            w++;
        }
        nalive = w;
        if (k < o->cutoff || nalive < m)
            break;
    }
done:
    score_ranks_free(&ranks);
    logreg_free(warm);
    free(alive);
    free(key);
    for (size_t t = 0; draw && t < threads; t++)
        subsample_work_free(&draw[t]);
    free(draw);
    free(by_model);
    free(failed);
    free(order);
    free(correct);
    free(held);
    free(in_train);
    free(drop);
    if (rc != 0) {
        aflite_result_free(res);
        return -1;
    }
    return 0;
}

int aflite_read_splits(const char *path, size_t models, size_t train_size, size_t rows,
                       size_t **out, tells_error *err)
{
    *out = NULL;
    line_reader r;
    /* A line holds train_size numbers of up to 20 digits. */
    if (line_reader_open(&r, path, train_size * 21 + 1024, err) < 0)
        return -1;
    size_t *s = malloc(models * train_size * sizeof *s + 1);
    unsigned char *seen = malloc(rows + 1);
    size_t lines = 0;
    int rc = s && seen ? 0 : tells_error_nomem(err, r.name, 0);
    char *line;
    size_t len;
    int got = 0;
    while (rc == 0 && (got = line_reader_next(&r, &line, &len, err)) == 1) {
        if (lines == models) {
            rc = tells_error_set(err, r.name, r.lineno, "more than the %zu lines of the %zu "
                                 "models", models, models);
            break;
        }
        memset(seen, 0, rows);
        size_t count = 0;
        const char *p = line;
        for (;;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            char *e;
            if (*p < '0' || *p > '9') {
                rc = tells_error_set(err, r.name, r.lineno, "expected row numbers separated "
                                     "by spaces");
                break;
            }
            uint64_t v;
            if (number_u64(p, &e, UINT64_MAX, &v) < 0 || v >= rows) {
                /* The digits as given: the number may not fit in 64 bits. */
                rc = tells_error_set(err, r.name, r.lineno, "row %.*s is past the last row "
                                     "(%zu rows, counted from 0)", (int)(e - p), p, rows);
                break;
            }
            if (seen[v]) {
                rc = tells_error_set(err, r.name, r.lineno, "row %" PRIu64 " is given twice",
                                     v);
                break;
            }
            seen[v] = 1;
            if (count < train_size)
                s[lines * train_size + count] = (size_t)v;
            count++;
            p = e;
        }
        if (rc == 0 && count != train_size)
            rc = tells_error_set(err, r.name, r.lineno, "%zu rows, expected the training size "
                                 "%zu", count, train_size);
        lines++;
    }
    if (rc == 0 && got < 0)
        rc = -1;
    if (rc == 0 && lines < models)
        rc = tells_error_set(err, r.name, 0, "%zu lines, expected one for each of the %zu "
                             "models", lines, models);
    line_reader_close(&r);
    free(seen);
    if (rc < 0) {
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int aflite_write_splits(FILE *fp, const aflite_round *r)
{
    for (size_t j = 0; j < r->models; j++) {
        bool first = true;
        for (size_t i = 0; i < r->examples; i++) {
            if (!r->in_train[i * r->models + j])
                continue;
            if (fprintf(fp, first ? "%zu" : " %zu", r->rows[i]) < 0)
                return -1;
            first = false;
        }
        if (putc('\n', fp) == EOF)
            return -1;
    }
    return 0;
}

/* ---- a dataset's run ---- */

size_t aflite_train_size(double fraction, size_t n)
{
    size_t m = (size_t)llround(fraction * (double)n);
    return m ? m : 1;
}

int aflite_classes(const dataset *d, int **y, size_t *classes, tells_error *err)
{
    *y = NULL;
    *classes = vocab_size(d->labels);
    if (dataset_require_examples(d, err) < 0)
        return -1;
    if (*classes < 2)
        return tells_error_set(err, d->source, 0, "one class only ('%s'): nothing to "
                               "classify", vocab_str(d->labels, 0));
    size_t *byte_rank = vocab_sorted_ids(d->labels);
    int *rank_of = malloc(*classes * sizeof *rank_of);
    int *cls = malloc(d->n * sizeof *cls);
    int rc = 0;
    if (!byte_rank || !rank_of || !cls) {
        rc = tells_error_nomem(err, NULL, 0);
        free(cls);
    } else {
        for (size_t k = 0; k < *classes; k++)
            rank_of[byte_rank[k]] = (int)k;
        for (size_t i = 0; i < d->n; i++)
            cls[i] = rank_of[d->ex[i].label];
        *y = cls;
    }
    free(byte_rank);
    free(rank_of);
    return rc;
}

uint64_t *aflite_row_keys(const dataset *d)
{
    uint64_t *k = array_new(d->n, sizeof *k);
    for (size_t i = 0; k && i < d->n; i++)
        k[i] = subsample_id_key(d->ex[i].id, strlen(d->ex[i].id));
    return k;
}

int aflite_check_matrix(const npy_matrix *x, const char *name, const dataset *d,
                        tells_error *err)
{
    if (x->rows != d->n)
        return tells_error_set(err, name, 0, "%zu rows, but %s has %zu examples", x->rows,
                               d->source, d->n);
    if (x->cols == 0)
        return tells_error_set(err, name, 0, "a matrix without columns");
    size_t r, c;
    if (npy_find_nonfinite(x->data, x->rows, x->cols, &r, &c)) {
        float v = x->data[r * x->cols + c];
        return tells_error_set(err, name, 0, "row %zu (id %s), column %zu is %s", r,
                               d->ex[r].id, c, isnan(v) ? "NaN" : "infinite");
    }
    return 0;
}

int aflite_matrix(const dataset *d, const char *embeddings, const char *vectors,
                  const embed_options *eo, npy_matrix *x, tells_error *err)
{
    if (!embeddings) {
        embed_stats es;
        return embed_dataset(d, vectors, eo, x, &es, err);
    }
    if (npy_read(embeddings, x, err) < 0)
        return -1;
    if (aflite_check_matrix(x, display_name(embeddings), d, err) < 0) {
        npy_free(x);
        return -1;
    }
    return 0;
}

/* A score as the spool keeps it: an example's counts in one round. */
typedef struct spool_record {
    uint32_t round, correct, held;
    uint64_t row;
} spool_record;

int aflite_record_init(aflite_record *rec, const dataset *d, const char *scores_name,
                       tells_error *err)
{
    memset(rec, 0, sizeof *rec);
    rec->d = d;
    rec->scores_name = scores_name;
    if (scores_name && !(rec->spool = tmpfile()))
        return tells_error_io(err, scores_name, 0, "cannot create a temporary file");
    return 0;
}

int aflite_record_round(const aflite_round *r, void *user, tells_error *err)
{
    aflite_record *rec = user;
    if (ARRAY_RESERVE(rec->rounds, rec->cap, rec->nrounds + 1) < 0)
        return tells_error_nomem(err, NULL, 0);
    rec->rounds[rec->nrounds++] = (aflite_round_row){r->round, r->examples, r->at_tau,
                                                     r->removed, r->remaining};
    for (size_t i = 0; rec->spool && i < r->examples; i++) {
        spool_record s = {(uint32_t)r->round, r->correct[i], r->held[i], r->rows[i]};
        if (fwrite(&s, sizeof s, 1, rec->spool) != 1)
            return tells_error_io(err, rec->scores_name, 0, "cannot write a temporary file "
                                  "for the scores");
    }
    return 0;
}

void aflite_record_free(aflite_record *rec)
{
    if (rec->spool)
        fclose(rec->spool);
    free(rec->rounds);
    aflite_result_free(&rec->result);
    memset(rec, 0, sizeof *rec);
}

int aflite_write_rounds(FILE *fp, void *record, tells_error *err)
{
    (void)err;
    const aflite_record *rec = record;
    if (fputs("round\texamples\tat_tau\tremoved\tremaining\n", fp) == EOF)
        return -1;
    for (size_t i = 0; i < rec->nrounds; i++) {
        const aflite_round_row *r = &rec->rounds[i];
        if (fprintf(fp, "%zu\t%zu\t%zu\t%zu\t%zu\n", r->round, r->examples, r->at_tau,
                    r->removed, r->remaining) < 0)
            return -1;
    }
    return 0;
}

int aflite_write_scores(FILE *fp, void *record, tells_error *err)
{
    const aflite_record *rec = record;
    const dataset *d = rec->d;
    if (!rec->spool)
        return tells_error_usage(err, "the run kept no scores");
    if (fputs("round\tid\tscore\theld_out\tremoved_in_round\n", fp) == EOF)
        return -1;
    rewind(rec->spool);
    spool_record s;
    while (fread(&s, sizeof s, 1, rec->spool) == 1) {
        size_t removed = rec->result.removed_in[s.row];
        double score = s.held ? (double)s.correct / s.held : 0.0;
        int n = removed ? fprintf(fp, "%u\t%s\t%.6f\t%u\t%zu\n", s.round, d->ex[s.row].id,
                                  score, s.held, removed)
                        : fprintf(fp, "%u\t%s\t%.6f\t%u\t-\n", s.round, d->ex[s.row].id,
                                  score, s.held);
        if (n < 0)
            return -1;
    }
    if (ferror(rec->spool))
        return tells_error_io(err, NULL, 0, "cannot read back a temporary file of the "
                              "scores: %s", strerror(errno));
    return 0;
}

int aflite_write_ids(const char *path, const aflite_record *rec, bool easy,
                     tells_error *err)
{
    const dataset *d = rec->d;
    const char **ids = array_new(d->n, sizeof *ids);
    if (!ids)
        return tells_error_nomem(err, NULL, 0);
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        if ((rec->result.removed_in[i] != 0) == easy)
            ids[n++] = d->ex[i].id;
    int rc = idfile_write(path, ids, n, err);
    free(ids);
    return rc;
}
