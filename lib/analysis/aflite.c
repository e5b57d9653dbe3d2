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

/* Order of examples for removal: score descending; equal scores by a
   hash of the example's key in the round's tie stream (subsample_hash),
   then by position. Scores are compared as exact fractions correct / held.
   The keys make the order follow the examples wherever they sit, and the
   stream changes with the seed and the round. */
typedef struct rank_ctx {
    const unsigned *correct, *held;
    const uint64_t *key;
    uint64_t stream;
} rank_ctx;

/* The scores of a and b compared: -1 when a's is higher. */
static int score_cmp(const rank_ctx *rank, size_t a, size_t b)
{
    /* score 0 when never held out: 0 / 1 */
    uint64_t ca = rank->correct[a], ha = rank->held[a] ? rank->held[a] : 1;
    uint64_t cb = rank->correct[b], hb = rank->held[b] ? rank->held[b] : 1;
    uint64_t l = ca * hb, r = cb * ha;
    return l > r ? -1 : l < r;
}

static int by_tie(const rank_ctx *rank, size_t a, size_t b)
{
    uint64_t ta = subsample_hash(rank->key[a], rank->stream);
    uint64_t tb = subsample_hash(rank->key[b], rank->stream);
    if (ta != tb)
        return ta < tb ? -1 : 1;
    return a < b ? -1 : a > b;
}

static int by_score(const void *pa, const void *pb, void *ctx)
{
    const rank_ctx *rank = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = score_cmp(rank, a, b);
    return c ? c : by_tie(rank, a, b);
}

static int by_tie_only(const void *pa, const void *pb, void *ctx)
{
    return by_tie(ctx, *(const size_t *)pa, *(const size_t *)pb);
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

/* order[0 .. n) as qsort_r with by_score gives it, as far as its first
   `first` positions go: the counting sort puts ties by position, and
   only the runs of equal scores that start before `first` are then put
   in their hash order (the rest of the order is not used). */
static void order_by_score(const score_ranks *sr, const rank_ctx *rank, size_t n,
                           size_t first, size_t *order)
{
    const unsigned *correct = rank->correct, *held = rank->held;
    if (!sr->rank) {
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        qsort_r(order, n, sizeof *order, by_score, (void *)rank);
        return;
    }
    size_t side = sr->models + 1, *start = sr->start;
    memset(start, 0, (sr->nranks + 1) * sizeof *start);
    for (size_t i = 0; i < n; i++)
        start[sr->rank[held[i] * side + correct[i]] + 1]++;
    for (size_t r = 0; r < sr->nranks; r++)
        start[r + 1] += start[r];
    for (size_t i = 0; i < n; i++)   /* in position order */
        order[start[sr->rank[held[i] * side + correct[i]]]++] = i;
    for (size_t s = 0, e; s < first && s < n; s = e) {
        for (e = s + 1; e < n && score_cmp(rank, order[s], order[e]) == 0; e++)
            ;
        qsort_r(order + s, e - s, sizeof *order, by_tie_only, (void *)rank);
    }
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

/* aflite_run's state: its inputs, and its arrays over the examples that
   remain. */
typedef struct aflite_work {
    float *x;
    size_t dim;
    int *y;
    size_t classes;
    const aflite_options *o;
    aflite_result *res;
    size_t n, m;               /* models, training size */
    size_t nalive;             /* the examples that remain */
    bool last;                 /* the last round ran: fewer than k removed or
                                  fewer than m remain */
    size_t *alive;             /* input row of each example */
    uint64_t *key;             /* its key for the draws */
    size_t threads;
    subsample_work *draw;      /* per thread */
    unsigned char *by_model, *failed, *in_train;
    size_t *order;
    unsigned *correct, *held;
    bool *drop;
    float *row_tmp;            /* a row of x, while order_by_key moves them */
    size_t *inv, *in_order;    /* input row -> position + 1; positions in
                                  input order */
    logreg_fit *warm;          /* the last round's models, to start from */
    score_ranks ranks;
} aflite_work;

/* w's arrays for rows examples; -1 out of memory. */
static int aflite_work_alloc(aflite_work *w, size_t rows)
{
    size_t n = w->n;
    w->alive = malloc(rows * sizeof *w->alive);
    w->key = malloc(rows * sizeof *w->key);
    w->threads = tasks_threads(w->o->lr.threads);
    w->draw = array_new(w->threads, sizeof *w->draw);
    w->by_model = malloc(rows * n);
    w->failed = malloc(n);
    w->order = malloc(rows * sizeof *w->order);
    w->correct = malloc(rows * sizeof *w->correct);
    w->held = malloc(rows * sizeof *w->held);
    w->in_train = malloc(rows * n);
    w->drop = malloc(rows * sizeof *w->drop);
    w->row_tmp = malloc(w->dim * sizeof *w->row_tmp + 1);
    w->inv = malloc(rows * sizeof *w->inv);
    w->in_order = malloc(rows * sizeof *w->in_order);
    int rc = score_ranks_init(&w->ranks, n) < 0 ? -1 : 0;
    if (rc < 0 || !w->alive || !w->key || !w->draw || !w->by_model || !w->failed ||
        !w->order || !w->correct || !w->held || !w->in_train || !w->drop || !w->row_tmp || !w->inv ||
        !w->in_order)
        return -1;
    return 0;
}

static void aflite_work_free(aflite_work *w)
{
    score_ranks_free(&w->ranks);
    logreg_free(w->warm);
    free(w->alive);
    free(w->key);
    for (size_t t = 0; w->draw && t < w->threads; t++)
        subsample_work_free(&w->draw[t]);
    free(w->draw);
    free(w->by_model);
    free(w->failed);
    free(w->order);
    free(w->correct);
    free(w->held);
    free(w->in_train);
    free(w->drop);
    free(w->row_tmp);
    free(w->inv);
    free(w->in_order);
}

/* Centres the columns of the rows x dim matrix x: the intercept absorbs
   the shift, so the models and their predictions are the same, but
   float32 products no longer lose digits to large common offsets. -1 out
   of memory. */
static int centre_columns(float *x, size_t rows, size_t dim)
{
    double *mean = array_new(dim, sizeof *mean);
    if (!mean)
        return -1;
    for (size_t i = 0; i < rows; i++)
        for (size_t k = 0; k < dim; k++)
            mean[k] += x[i * dim + k];
    for (size_t i = 0; i < rows; i++)
        for (size_t k = 0; k < dim; k++)
            x[i * dim + k] = (float)((double)x[i * dim + k] - mean[k] / (double)rows);
    free(mean);
    return 0;
}

/* Rows by key, then position. */
static int by_key(const void *pa, const void *pb, void *ctx)
{
    const uint64_t *key = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (key[a] != key[b])
        return key[a] < key[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Puts the examples in the order of their keys, moving the rows of x and
   y in place (following the permutation's cycles): every sum the models
   take over the examples then runs in the same order however the input
   was ordered, so the run is the same for any order of the rows. Sets
   alive and key. */
static void order_by_key(aflite_work *w, size_t rows)
{
    const uint64_t *row_keys = w->o->row_keys;
    size_t *perm = w->order, dim = w->dim;
    for (size_t i = 0; i < rows; i++)
        perm[i] = i;
    qsort_r(perm, rows, sizeof *perm, by_key, (void *)row_keys);
    bool *done = w->drop;
    memset(done, 0, rows * sizeof *done);
    float *tmp = w->row_tmp;
    for (size_t s = 0; s < rows; s++) {
        if (done[s] || perm[s] == s)
            continue;
        memcpy(tmp, w->x + s * dim, dim * sizeof *tmp);
        int ys = w->y[s];
        size_t j = s;
        while (perm[j] != s) {   /* position j takes the row of input row perm[j] */
            memcpy(w->x + j * dim, w->x + perm[j] * dim, dim * sizeof *tmp);
            w->y[j] = w->y[perm[j]];
            done[j] = true;
            j = perm[j];
        }
        memcpy(w->x + j * dim, tmp, dim * sizeof *tmp);
        w->y[j] = ys;
        done[j] = true;
    }
    for (size_t i = 0; i < rows; i++) {
        w->alive[i] = perm[i];
        w->key[i] = row_keys[perm[i]];
    }
}

/* The training sets of a round: the given ones, or m of the examples
   drawn for each model by their keys (stats/subsample.h), so that a draw
   does not change when another example was removed before it. */
static int round_splits(aflite_work *w, size_t round, tells_error *err)
{
    const aflite_options *o = w->o;
    size_t n = w->n, m = w->m;
    if (round == 1 && o->first_splits) {
        size_t *pos = w->order;   /* input row -> position, all rows alive */
        for (size_t p = 0; p < w->nalive; p++)
            pos[w->alive[p]] = p;
        memset(w->in_train, 0, w->nalive * n);
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < m; i++)
                w->in_train[pos[o->first_splits[j * m + i]] * n + j] = 1;
        return 0;
    }
    draw_job dj = {.key = w->key, .rows = w->nalive, .m = m, .models = n, .seed = o->seed,
                   .round = round, .by_model = w->by_model, .in_train = w->in_train,
                   .failed = w->failed, .work = w->draw};
    tasks_run(w->threads, n, draw_task, &dj);
    if (memchr(w->failed, 1, n))
        return tells_error_nomem(err, NULL, 0);
    tasks_run(w->threads, (w->nalive + TRANSPOSE_ROWS - 1) / TRANSPOSE_ROWS, transpose_task,
              &dj);
    return 0;
}

/* The round's models, started from the last round's unless cold_start:
   each example's right predictions and times held out. */
static int round_fit(aflite_work *w, logreg_stats *stats, tells_error *err)
{
    const aflite_options *o = w->o;
    logreg_data d = {.x = w->x, .rows = w->nalive, .dim = w->dim, .ld = w->dim, .y = w->y,
                     .classes = w->classes};
    logreg_fit *fit = logreg_train_held_out(&d, w->in_train, w->n,
                                            o->cold_start ? NULL : w->warm, &o->lr, w->correct,
                                            w->held, stats, err);
    if (!fit)
        return -1;
    logreg_free(w->warm);
    w->warm = fit;
    return 0;
}

/* The examples to remove, the first in w->order: at most cutoff of the
   best scored, each at least tau. */
static size_t round_choose(aflite_work *w, aflite_round *r)
{
    const aflite_options *o = w->o;
    const unsigned *correct = w->correct, *held = w->held;
    const size_t *order = w->order;
    size_t nalive = w->nalive;
    for (size_t i = 0; i < nalive; i++)
        r->at_tau += score_of(correct[i], held[i]) >= o->tau;
    rank_ctx rank = {correct, held, w->key, subsample_stream(o->seed, r->round, UINT64_MAX)};
    order_by_score(&w->ranks, &rank, nalive, o->cutoff, w->order);
    size_t k = 0;
    while (k < o->cutoff && k < nalive && score_of(correct[order[k]], held[order[k]]) >= o->tau)
        k++;
    r->removed = k;
    r->remaining = nalive - k;
    return k;
}

static void stats_add(logreg_stats *sum, const logreg_stats *s)
{
    sum->flops += s->flops;
    sum->seconds += s->seconds;
    sum->passes += s->passes;
    sum->iterations += s->iterations;
    if (s->max_iterations > sum->max_iterations)
        sum->max_iterations = s->max_iterations;
    sum->unconverged += s->unconverged;
}

/* Removes the first k of w->order in round round; the others move up,
   in order. */
static void round_remove(aflite_work *w, size_t k, size_t round)
{
    size_t nalive = w->nalive, dim = w->dim;
    memset(w->drop, 0, nalive * sizeof *w->drop);
    for (size_t i = 0; i < k; i++) {
        w->drop[w->order[i]] = true;
        w->res->removed_in[w->alive[w->order[i]]] = round;
    }
    w->res->easy += k;
    size_t to = 0;
    for (size_t i = 0; i < nalive; i++) {
        if (w->drop[i])
            continue;
        if (to != i) {
            memmove(w->x + to * dim, w->x + i * dim, dim * sizeof *w->x);
            w->y[to] = w->y[i];
            w->alive[to] = w->alive[i];
            w->key[to] = w->key[i];
        }
        to++;
    }
    w->nalive = to;
}

/* A round over the examples that remain: the training sets, the models,
   the scores and the removal. 0, or the status that stops the run, err
   set. */
static int run_round(aflite_work *w, tells_error *err)
{
    const aflite_options *o = w->o;
    double t0 = now();
    size_t round = ++w->res->rounds;
    if (round_splits(w, round, err) < 0)
        return -1;
    memset(w->inv, 0, w->res->rows * sizeof *w->inv);
    for (size_t p = 0; p < w->nalive; p++)
        w->inv[w->alive[p]] = p + 1;
    for (size_t i = 0, p = 0; i < w->res->rows; i++)
        if (w->inv[i])
            w->in_order[p++] = w->inv[i] - 1;
    aflite_round r = {.round = round, .examples = w->nalive, .rows = w->alive,
                      .in_order = w->in_order,
                      .correct = w->correct, .held = w->held, .chosen = w->order,
                      .in_train = w->in_train, .models = w->n};
    if (round_fit(w, &r.stats, err) < 0)
        return -1;
    size_t k = round_choose(w, &r);
    r.seconds = now() - t0;
    stats_add(&w->res->stats, &r.stats);
    int rc;
    if (o->round_done && (rc = o->round_done(&r, o->user, err)) != 0)
        return rc;
    round_remove(w, k, round);
    w->last = k < o->cutoff || w->nalive < w->m;
    return 0;
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
    aflite_work w = {.x = x, .dim = dim, .y = y, .classes = classes, .o = o, .res = res,
                     .n = n, .m = m, .nalive = rows};
    int rc = 0;
    if (aflite_work_alloc(&w, rows) < 0 || !res->removed_in)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0 && o->row_keys)
        order_by_key(&w, rows);
    for (size_t i = 0; rc == 0 && !o->row_keys && i < rows; i++) {
        w.alive[i] = i;
        w.key[i] = i;
    }
    if (rc == 0 && centre_columns(x, rows, dim) < 0)
        rc = tells_error_nomem(err, NULL, 0);
    while (rc == 0 && !w.last && w.nalive > stop &&
           (o->max_rounds == 0 || res->rounds < o->max_rounds))
        rc = run_round(&w, err);
    aflite_work_free(&w);
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
        for (size_t q = 0; q < r->examples; q++) {
            size_t i = r->in_order[q];
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
    for (size_t q = 0; rec->spool && q < r->examples; q++) {
        size_t i = r->in_order[q];
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
