/* The logistic-regression ensemble of logreg.h: options, fits, held-out
   counts and predictions; the solver's pieces are in logreg-impl.h. */
#include <config.h>
#include "model/logreg.h"
#include "model/logreg-impl.h"

#include <cblas.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/alloc.h"
#include "base/tasks.h"

enum {
    MAX_BATCH = 64         /* models trained together, at most */
};

void logreg_options_default(logreg_options *o)
{
    o->c = 1.0;
    o->tol = 1e-6;
    o->max_iter = 1000;
    o->threads = 1;
}

const char *logreg_blas_core(void)
{
    return openblas_get_corename();
}

const char *logreg_blas_better_core(void)
{
    const char *core = openblas_get_corename();
    if (!core || strcasecmp(core, "Prescott") != 0)
        return NULL;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "Haswell";
#endif
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- training: batches of models with the same classes ---- */

void logreg_free(logreg_fit *f)
{
    if (!f)
        return;
    for (size_t j = 0; f->coef && j < f->models; j++)
        free(f->coef[j]);
    free(f->coef);
    free(f->nclass);
    free(f->cls);
    free(f->outs);
    free(f->pre);
    free(f->pre_cls);
    free(f);
}

/* Sets each held-out row's bit in right for the models js[0..nj). */
static int predict_bits(const logreg_fit *f, const logreg_data *d,
                        const unsigned char *in_train, const size_t *js, size_t nj,
                        uint64_t *right, size_t words, logreg_stats *st);

/* held[i] and correct[i] from the bits of the held-out predictions. */
static void count_held_out(const unsigned char *in_train, size_t rows, size_t models,
                           const uint64_t *right, size_t words, unsigned *correct,
                           unsigned *held)
{
    for (size_t i = 0; i < rows; i++) {
        const unsigned char *tr = in_train + i * models;
        const uint64_t *r = right + i * words;
        unsigned h = 0, c = 0;
        for (size_t j = 0; j < models; j++) {   /* no branch: held out is random */
            unsigned out = tr[j] == 0;
            h += out;
            c += out & (unsigned)(r[j / 64] >> (j % 64));
        }
        held[i] = h;
        correct[i] = c;
    }
}

logreg_fit *logreg_train_held_out(const logreg_data *d, const unsigned char *in_train,
                                  size_t models, const logreg_fit *warm,
                                  const logreg_options *o, unsigned *correct,
                                  unsigned *held, logreg_stats *st, tells_error *err)
{
    double t0 = now();
    openblas_set_num_threads(1);   /* threads are ours: see logreg.h */
    size_t K = d->classes, dim = d->dim, D1 = dim + 1, words = (models + 63) / 64;
    bool scored = correct && held;
    logreg_fit *f = calloc(1, sizeof *f);
    bool *present = array_new(models * K, sizeof *present);
    unsigned char *seen_by_class = array_new(models * K, 1);
    size_t *trained = array_new(models, sizeof *trained);
    gram_cache gc = {.gram = malloc(D1 * D1 * sizeof *gc.gram)};
    size_t *gm = malloc((models ? models : 1) * sizeof *gm);
    bool *done = array_new(models, sizeof *done);
    bool *stale = array_new(models, sizeof *stale);
    int *local = malloc((K ? K : 1) * sizeof *local);
    uint64_t *right = scored ? array_new(d->rows * words, sizeof *right) : NULL;
    if (!f || !present || !seen_by_class || !trained || !gc.gram || !gm || !done || !stale || !local || (scored && !right))
        goto oom;
    f->models = models;
    f->threads = tasks_threads(o->threads);
    f->dim = dim;
    f->classes = K;
    f->nclass = array_new(models, sizeof *f->nclass);
    f->cls = array_new(models * K, sizeof *f->cls);
    f->outs = array_new(models, sizeof *f->outs);
    f->coef = array_new(models, sizeof *f->coef);
    if (!f->nclass || !f->cls || !f->outs || !f->coef)
        goto oom;
    /* Which classes each model's training rows have, and how many rows
       (loops over whole rows of in_train, which vectorize). */
    for (size_t i = 0; i < d->rows; i++) {
        const unsigned char *tr = in_train + i * models;
        unsigned char *seen = seen_by_class + (size_t)d->y[i] * models;
        for (size_t j = 0; j < models; j++) {
            seen[j] |= tr[j];
            trained[j] += tr[j] != 0;
        }
    }
    for (size_t j = 0; j < models; j++)
        for (size_t c = 0; c < K; c++)
            present[j * K + c] = seen_by_class[c * models + j] != 0;
    for (size_t j = 0; j < models; j++) {
        for (size_t c = 0; c < K; c++)
            if (present[j * K + c])
                f->cls[j * K + f->nclass[j]++] = (int)c;
        if (f->nclass[j] < 2) {
            tells_error_set(err, NULL, 0, "the training set of model %zu has %s", j + 1,
                            f->nclass[j] ? "examples of one class only" : "no examples");
            goto fail;
        }
        f->outs[j] = f->nclass[j] == 2 ? 1 : f->nclass[j];
        if (!(f->coef[j] = calloc(f->outs[j] * D1, sizeof *f->coef[j])))
            goto oom;
    }
    /* Batches: models with the same classes, in model order. */
    for (size_t j = 0; j < models; j++) {
        if (done[j])
            continue;
        batch b = {.d = d, .in_train = in_train, .models = models, .o = o,
                   .threads = tasks_threads(o->threads), .gm = gm, .right = right,
                   .words = words, .trained = trained};
        for (size_t i = j; i < models && b.nm < MAX_BATCH; i++)
            if (!done[i] && memcmp(present + i * K, present + j * K, K * sizeof *present) == 0) {
                gm[b.nm++] = i;
                done[i] = true;
            }
        for (size_t c = 0; c < K; c++)
            local[c] = -1;
        for (size_t c = 0; c < f->nclass[j]; c++)
            local[f->cls[j * K + c]] = (int)c;
        if (lr_train_batch(f, &b, local, f->nclass[j], &gc, warm, stale, st, err) < 0)
            goto fail;
    }
    if (scored) {
        /* Models whose last pass was not at their final weights predict
           anew (a line search that gave up). */
        size_t ns = 0;
        for (size_t j = 0; j < models; j++)
            if (stale[j])
                gm[ns++] = j;
        if (ns && predict_bits(f, d, in_train, gm, ns, right, words, st) < 0)
            goto oom;
        count_held_out(in_train, d->rows, models, right, words, correct, held);
    }
    free(present);
    free(seen_by_class);
    free(trained);
    free(gc.gram);
    free(gm);
    free(done);
    free(stale);
    free(local);
    free(right);
    if (st)
        st->seconds += now() - t0;
    return f;
oom:
    tells_error_nomem(err, NULL, 0);
fail:
    free(present);
    free(seen_by_class);
    free(trained);
    free(gc.gram);
    free(gm);
    free(done);
    free(stale);
    free(local);
    free(right);
    logreg_free(f);
    return NULL;
}

logreg_fit *logreg_train(const logreg_data *d, const unsigned char *in_train,
                         size_t models, const logreg_fit *warm, const logreg_options *o,
                         logreg_stats *st, tells_error *err)
{
    return logreg_train_held_out(d, in_train, models, warm, o, NULL, NULL, st, err);
}

/* ---- predictions ---- */

const double *logreg_coef(const logreg_fit *f, size_t j, size_t *outputs)
{
    *outputs = f->outs[j];
    return f->coef[j];
}

/* The class of a model's outputs z (intercepts included). */
static int decide(const logreg_fit *f, size_t j, const float *z)
{
    const int *cls = f->cls + j * f->classes;
    if (f->outs[j] == 1)
        return cls[z[0] > 0];
    size_t best = 0;
    for (size_t c = 1; c < f->outs[j]; c++)
        if (z[c] > z[best])
            best = c;
    return cls[best];
}

int logreg_predict(const logreg_fit *f, size_t j, const float *x)
{
    size_t D1 = f->dim + 1;
    float z[f->outs[j]];
    for (size_t c = 0; c < f->outs[j]; c++) {
        const double *w = f->coef[j] + c * D1;
        double v = w[f->dim];
        for (size_t k = 0; k < f->dim; k++)
            v += w[k] * x[k];
        z[c] = (float)v;
    }
    return decide(f, j, z);
}

typedef struct predict_job {
    const logreg_fit *f;
    const logreg_data *d;
    const unsigned char *in_train;
    const size_t *js;              /* the models */
    size_t nj, cols, ntasks;
    const size_t *col0;            /* first column of each */
    const float *wf;               /* cols x (dim + 1) */
    float *z;                      /* per thread */
    uint64_t *right;
    size_t words;
} predict_job;

static void predict_task(void *ctx, size_t t, size_t thread)
{
    predict_job *p = ctx;
    const logreg_data *d = p->d;
    size_t dim = d->dim, D1 = dim + 1, cols = p->cols;
    size_t r0 = task_start(d->rows, p->ntasks, t), r1 = task_start(d->rows, p->ntasks, t + 1);
    float *z = p->z + thread * BLOCK_ROWS * cols;
    for (size_t r = r0; r < r1; r += BLOCK_ROWS) {
        size_t nb = r1 - r < BLOCK_ROWS ? r1 - r : BLOCK_ROWS;
        const float *xb = d->x + r * d->ld;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)cols, (int)dim,
                    1.0f, xb, (int)d->ld, p->wf, (int)D1, 0.0f, z, (int)cols);
        for (size_t i = 0; i < nb; i++) {
            size_t row = r + i;
            const unsigned char *tr = p->in_train + row * p->f->models;
            uint64_t *right = p->right + row * p->words;
            float *zi = z + i * cols;
            for (size_t a = 0; a < p->nj; a++) {
                size_t j = p->js[a];
                if (tr[j])
                    continue;
                float *za = zi + p->col0[a];
                for (size_t c = 0; c < p->f->outs[j]; c++)
                    za[c] += p->wf[(p->col0[a] + c) * D1 + dim];
                uint64_t bit = (uint64_t)1 << (j % 64);
                if (decide(p->f, j, za) == d->y[row])
                    right[j / 64] |= bit;
                else
                    right[j / 64] &= ~bit;
            }
        }
    }
}

static int predict_bits(const logreg_fit *f, const logreg_data *d,
                        const unsigned char *in_train, const size_t *js, size_t nj,
                        uint64_t *right, size_t words, logreg_stats *st)
{
    size_t dim = d->dim, D1 = dim + 1, nt = task_count(d->rows);
    size_t threads = f->threads < nt ? f->threads : nt;
    for (size_t a0 = 0; a0 < nj; a0 += MAX_BATCH) {
        size_t na = nj - a0 < MAX_BATCH ? nj - a0 : MAX_BATCH;
        size_t col0[MAX_BATCH], cols = 0;
        for (size_t a = 0; a < na; a++) {
            col0[a] = cols;
            cols += f->outs[js[a0 + a]];
        }
        predict_job p = {.f = f, .d = d, .in_train = in_train, .js = js + a0, .nj = na,
                         .cols = cols, .ntasks = nt, .col0 = col0, .right = right,
                         .words = words};
        float *wf = malloc(cols * D1 * sizeof *wf);
        p.z = malloc(threads * BLOCK_ROWS * cols * sizeof *p.z);
        if (!wf || !p.z) {
            free(wf);
            free(p.z);
            return -1;
        }
        for (size_t a = 0; a < na; a++)
            for (size_t k = 0; k < f->outs[js[a0 + a]] * D1; k++)
                wf[col0[a] * D1 + k] = (float)f->coef[js[a0 + a]][k];
        p.wf = wf;
        tasks_run(threads, nt, predict_task, &p);
        if (st)
            st->flops += 2.0 * (double)d->rows * (double)dim * (double)cols;
        free(wf);
        free(p.z);
    }
    return 0;
}

int logreg_held_out(const logreg_fit *f, const logreg_data *d,
                    const unsigned char *in_train, unsigned *correct, unsigned *held,
                    logreg_stats *st, tells_error *err)
{
    double t0 = now();
    openblas_set_num_threads(1);
    size_t words = (f->models + 63) / 64;
    uint64_t *right = array_new(d->rows * words, sizeof *right);
    size_t *js = malloc((f->models ? f->models : 1) * sizeof *js);
    int rc = right && js ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t j = 0; rc == 0 && j < f->models; j++)
        js[j] = j;
    if (rc == 0 && predict_bits(f, d, in_train, js, f->models, right, words, st) < 0)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0)
        count_held_out(in_train, d->rows, f->models, right, words, correct, held);
    free(right);
    free(js);
    if (st)
        st->seconds += now() - t0;
    return rc;
}
