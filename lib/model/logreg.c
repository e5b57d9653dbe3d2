#include <config.h>
#include "model/logreg.h"
#include "model/vmath.h"

#include <cblas.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/alloc.h"
#include "base/tasks.h"

enum {
    TASK_MIN_ROWS = 512,   /* rows per task, at least */
    MAX_TASKS = 64,        /* tasks per pass, at most */
    BLOCK_ROWS = 1024,     /* rows per GEMM */
    MAX_BATCH = 64,        /* models trained together, at most */
    MEMORY = 10,           /* L-BFGS correction pairs (scipy's maxcor) */
    MAX_BACKTRACKS = 20,
    HESS_BLOCK = 256,      /* sampled rows per product of the warm Hessian */
    SOLVE_ROWS = 32,       /* rows of the stack per task of the preconditioner */
    HESS_TASKS = 8,        /* its tasks, at most */
    HESS_ROWS = 1 << 20,   /* rows it samples, at most */
    HESS_REUSE = 10,       /* fits that share one, at most */
    SUM_TASKS = 16         /* slices of the sum of a pass's partial gradients */
};
static const double ARMIJO = 1e-4;
/* The objective's relative rounding, roughly: float32 logits. */
static const double ROUNDING = 1e-8;

struct logreg_fit {
    size_t models, dim, classes, threads;
    size_t *nclass;     /* per model */
    int *cls;           /* per model, `classes` slots, ascending */
    size_t *outs;       /* per model: 1 for two classes, else nclass */
    double **coef;      /* per model: outs x (dim + 1) */
    /* The inverse of a warm Hessian (warm_hessian) that the next fit may
       reuse: its size, classes and the fits it served. */
    float *pre;
    size_t pre_p, pre_nclass;
    int *pre_cls;
    int pre_age;
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

/* ---- tasks: fixed row ranges, taken by threads in any order (base/tasks.h) ---- */

static size_t task_count(size_t rows)
{
    size_t t = (rows + TASK_MIN_ROWS - 1) / TASK_MIN_ROWS;
    return t < 1 ? 1 : t > MAX_TASKS ? MAX_TASKS : t;
}

static size_t task_start(size_t rows, size_t ntasks, size_t t)
{
    return (size_t)((unsigned long long)rows * t / ntasks);
}

/* ---- the Gram matrix [X 1]^T [X 1] ---- */

typedef struct gram_job {
    const logreg_data *d;
    size_t ntasks;
    float *g;         /* per task: dim x dim (lower triangle) */
    double *sum;      /* per task: column sums */
} gram_job;

static void gram_task(void *ctx, size_t t, size_t thread)
{
    (void)thread;
    gram_job *j = ctx;
    const logreg_data *d = j->d;
    size_t r0 = task_start(d->rows, j->ntasks, t), r1 = task_start(d->rows, j->ntasks, t + 1);
    float *g = j->g + t * d->dim * d->dim;
    double *sum = j->sum + t * d->dim;
    memset(g, 0, d->dim * d->dim * sizeof *g);
    memset(sum, 0, d->dim * sizeof *sum);
    for (size_t r = r0; r < r1; r += BLOCK_ROWS) {
        size_t nb = r1 - r < BLOCK_ROWS ? r1 - r : BLOCK_ROWS;
        const float *xb = d->x + r * d->ld;
        cblas_ssyrk(CblasRowMajor, CblasLower, CblasTrans, (int)d->dim, (int)nb, 1.0f, xb,
                    (int)d->ld, 1.0f, g, (int)d->dim);
        for (size_t i = 0; i < nb; i++)
            for (size_t k = 0; k < d->dim; k++)
                sum[k] += xb[i * d->ld + k];
    }
}

/* gram: (dim + 1)^2, the intercept last; full symmetric. */
static int gram_matrix(const logreg_data *d, size_t threads, double *gram, logreg_stats *st)
{
    size_t dim = d->dim, D1 = dim + 1, nt = task_count(d->rows);
    gram_job j = {.d = d, .ntasks = nt};
    j.g = malloc(nt * dim * dim * sizeof *j.g + 1);
    j.sum = malloc(nt * dim * sizeof *j.sum + 1);
    if (!j.g || !j.sum) {
        free(j.g);
        free(j.sum);
        return -1;
    }
    tasks_run(threads, nt, gram_task, &j);
    memset(gram, 0, D1 * D1 * sizeof *gram);
    for (size_t t = 0; t < nt; t++) {
        const float *g = j.g + t * dim * dim;
        for (size_t a = 0; a < dim; a++) {
            for (size_t b = 0; b <= a; b++)
                gram[a * D1 + b] += g[a * dim + b];
            gram[dim * D1 + a] += j.sum[t * dim + a];
        }
    }
    gram[dim * D1 + dim] = (double)d->rows;
    for (size_t a = 0; a < D1; a++)
        for (size_t b = 0; b < a; b++)
            gram[b * D1 + a] = gram[a * D1 + b];
    free(j.g);
    free(j.sum);
    if (st)
        st->flops += (double)d->rows * (double)dim * (double)(dim + 1);
    return 0;
}

/* LAPACK's Cholesky factorisation, from OpenBLAS (configure checks it);
   OpenBLAS installs no LAPACK header. */
extern void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

/* In-place Cholesky factor L (lower triangle, A = L L^T, the upper
   triangle zeroed) of a positive definite n x n row-major matrix; -1 when
   it is not. Row-major lower is LAPACK's column-major upper. */
static int cholesky(double *a, size_t n)
{
    int nn = (int)n, info = 0;
    dpotrf_("U", &nn, a, &nn, &info);
    if (info != 0)
        return -1;
    for (size_t j = 0; j < n; j++)
        for (size_t k = j + 1; k < n; k++)
            a[j * n + k] = 0;
    return 0;
}

extern void dpotri_(const char *uplo, const int *n, double *a, const int *lda, int *info);

/* The inverse of A, in float, from A's factor by cholesky() (destroyed);
   -1 when LAPACK refuses it. */
static int spd_inverse(double *l, size_t n, float *inv)
{
    int nn = (int)n, info = 0;
    dpotri_("U", &nn, l, &nn, &info);
    if (info != 0)
        return -1;
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k <= j; k++)
            inv[j * n + k] = inv[k * n + j] = (float)l[j * n + k];
    return 0;
}

/* The preconditioner M^-1, in float, of the positive definite n x n
   matrix m (row-major; kept): its rounding only perturbs the first guess
   of each step, but the rounded inverse of a badly conditioned M can be
   indefinite, so it is checked (a Cholesky factor of it) and, failing
   that, M gets a growing diagonal shift (any positive definite
   preconditioner leads to the same optimum). -1 when none helps, -2 out
   of memory. */
static int make_preconditioner(const double *m, size_t n, float *inv)
{
    double *work = malloc(n * n * sizeof *work);
    if (!work)
        return -2;
    double diag = 0, shift = 0;
    for (size_t k = 0; k < n; k++)
        diag += fabs(m[k * n + k]);
    diag /= (double)n;
    int rc = -1;
    for (int attempt = 0; rc < 0 && attempt < 6; attempt++) {
        memcpy(work, m, n * n * sizeof *work);
        for (size_t k = 0; k < n; k++)
            work[k * n + k] += shift;
        if (cholesky(work, n) == 0 && spd_inverse(work, n, inv) == 0) {
            for (size_t k = 0; k < n * n; k++)
                work[k] = inv[k];
            rc = cholesky(work, n);
        }
        shift = shift > 0 ? shift * 100 : 1e-7 * diag;
    }
    free(work);
    return rc;
}

/* ---- one pass: loss and gradient of several models ---- */

typedef struct pass {
    const logreg_data *d;
    const unsigned char *in_train;
    size_t models;          /* columns of in_train */
    size_t na;              /* models in this pass */
    const size_t *gm;       /* their indices */
    const int *local;       /* class -> index among the batch's classes, or -1 */
    size_t outs, cols;      /* outputs per model, na * outs */
    const float *wf;        /* cols x (dim + 1): weights, intercept */
    float *bias;            /* cols: the intercepts, together */
    bool shared;            /* every model's point is the same: one product */
    uint64_t *right;        /* per row, a bit per model: held-out row predicted
                               right at this point (NULL: not wanted) */
    size_t words;           /* of right per row */
    size_t ntasks;
    float *gt;              /* per task: cols x dim */
    double *ft;             /* per task: na losses */
    double *bt;             /* per task: cols intercept gradients */
    float *z;               /* per thread: thread_floats */
    uint32_t *idx;          /* per thread: thread_indices */
} pass;

/* Whether the logits z (intercepts included) of a model pick the class of
   local index y (-1: a class the model does not know). */
static inline bool picks(const float *z, size_t outs, int y)
{
    if (outs == 1)
        return (z[0] > 0) == (y == 1);
    /* Without branches: which class wins is as good as random. */
    size_t best = 0;
    float top = z[0];
    for (size_t c = 1; c < outs; c++) {
        bool more = z[c] > top;
        best = more ? c : best;
        top = more ? z[c] : top;
    }
    return (int)best == y;
}

/* Residuals (probability minus target) of one training row in place of
   its logits; returns the row's loss. */
static double softmax_residual(float *z, const float *wf, size_t D1, size_t outs, int y)
{
    float zmax = -INFINITY;
    for (size_t c = 0; c < outs; c++) {
        z[c] += wf[c * D1 + D1 - 1];
        if (z[c] > zmax)
            zmax = z[c];
    }
    float s = 0, zy = z[y] - zmax;
    /* e^x and log x as softmax_block computes them, so that a shared
       pass gives the numbers of a pass of every model */
    for (size_t c = 0; c < outs; c++)
        z[c] -= zmax;
    vmath_exp(z, outs);
    for (size_t c = 0; c < outs; c++)
        s += z[c];
    float log_s = s;
    vmath_log(&log_s, 1);
    double loss = (double)log_s - (double)zy;
    float inv = 1.0f / s;
    for (size_t c = 0; c < outs; c++)
        z[c] *= inv;
    z[y] -= 1.0f;
    return loss;
}

static double binary_residual(float *z, const float *wf, size_t D1, int y)
{
    float v = *z + wf[D1 - 1];
    /* log(1 + e^v) - y v, and sigmoid(v) - y, without overflow */
    double loss;
    float p;
    if (v > 0) {
        float e = expf(-v);
        loss = (double)v + (double)log1pf(e);
        p = 1.0f / (1.0f + e);
    } else {
        float e = expf(v);
        loss = (double)log1pf(e);
        p = e / (1.0f + e);
    }
    if (y == 1)
        loss -= (double)v;
    *z = p - (float)y;
    return loss;
}

/* The rows r .. r + nb - 1 of a pass whose models are all at the same
   point, from one model's logits zs: every model's residuals into z (nb x
   cols), losses into f, intercept gradients into bsum, predictions into
   right; the same numbers as one model at a time. */
static void shared_rows(const pass *p, size_t r, size_t nb, float *zs, float *z, double *f,
                        double *bsum)
{
    const logreg_data *d = p->d;
    size_t D1 = d->dim + 1, cols = p->cols, outs = p->outs;
    float *tmp = zs + BLOCK_ROWS * outs;
    for (size_t i = 0; i < nb; i++) {
        size_t row = r + i;
        const unsigned char *tr = p->in_train + row * p->models;
        uint64_t *right = p->right ? p->right + row * p->words : NULL;
        int y = p->local[d->y[row]];
        float *zr = zs + i * outs;
        if (right) {
            for (size_t c = 0; c < outs; c++)
                tmp[c] = zr[c] + p->wf[c * D1 + D1 - 1];
        }
        bool pick = right && picks(tmp, outs, y), trained = false;
        double loss = 0;
        for (size_t a = 0; a < p->na; a++) {
            float *za = z + i * cols + a * outs;
            size_t j = p->gm[a];
            if (!tr[j]) {
                if (right && pick)
                    right[j / 64] |= (uint64_t)1 << (j % 64);
                else if (right)
                    right[j / 64] &= ~((uint64_t)1 << (j % 64));
                memset(za, 0, outs * sizeof *za);
                continue;
            }
            if (!trained) {
                loss = outs == 1 ? binary_residual(zr, p->wf, D1, y)
                                 : softmax_residual(zr, p->wf, D1, outs, y);
                trained = true;
            }
            memcpy(za, zr, outs * sizeof *za);
            f[a] += loss;
            for (size_t c = 0; c < outs; c++)
                bsum[a * outs + c] += za[c];
        }
    }
}

/* A thread's scratch of a pass: a block's logits (BLOCK_ROWS x cols),
   the shared model's (BLOCK_ROWS x outs, then outs), and, for the softmax
   of the training pairs (row, model), their shifted logits, sums and
   true-class logits gathered (BLOCK_ROWS x (cols + 2 na)). */
static size_t thread_floats(size_t cols, size_t outs, size_t na)
{
    return BLOCK_ROWS * (cols + outs) + outs + BLOCK_ROWS * (cols + 2 * na);
}

/* ... and its lists: a row's models in and out of training (2 na), the
   gathered pairs' logit offsets, models and classes (3 BLOCK_ROWS na). */
static size_t thread_indices(size_t na)
{
    return 2 * na + 3 * BLOCK_ROWS * na;
}

/* The softmax residuals and losses of a block's training pairs (row,
   model), for two or more outputs, as softmax_residual computes them one
   pair at a time: the logits of the pairs are shifted by their maximum
   and gathered, so that e^x and log x run over whole arrays (vmath.h),
   then scattered back as residuals. Which pairs train is random (m / N
   of them): the pairs are listed without branching on it, which would
   be mispredicted half the time. Held-out pairs get zero residuals and,
   when asked for, their predictions. */
static void add_bias(float *restrict z, const float *restrict bias, size_t n)
{
    for (size_t k = 0; k < n; k++)
        z[k] += bias[k];
}

static inline __attribute__((always_inline)) void
softmax_block_outs(const pass *p, size_t r, size_t nb, float *z, float *gather, uint32_t *idx,
                   double *f, double *bsum, size_t outs)
{
    const logreg_data *d = p->d;
    size_t cols = p->cols, na = p->na;
    float *ev = gather, *sums = ev + BLOCK_ROWS * cols, *zy = sums + BLOCK_ROWS * na;
    uint32_t *in = idx, *out = in + na, *pos = out + na, *model = pos + BLOCK_ROWS * na,
             *cls = model + BLOCK_ROWS * na;
    size_t ne = 0;
    for (size_t i = 0; i < nb; i++) {
        size_t row = r + i;
        const unsigned char *tr = p->in_train + row * p->models;
        uint64_t *right = p->right ? p->right + row * p->words : NULL;
        int y = p->local[d->y[row]];
        float *zr = z + i * cols;
        add_bias(zr, p->bias, cols);   /* after the product, as softmax_residual: the same bits */
        size_t nin = 0, nout = 0;
        for (size_t a = 0; a < na; a++) {
            size_t t = tr[p->gm[a]] != 0;
            in[nin] = out[nout] = (uint32_t)a;
            nin += t;
            nout += 1 - t;
        }
        for (size_t h = 0; h < nout; h++) {
            size_t a = out[h];
            float *za = zr + a * outs;
            if (right) {
                uint64_t bit = (uint64_t)1 << (p->gm[a] % 64);
                if (picks(za, outs, y))
                    right[p->gm[a] / 64] |= bit;
                else
                    right[p->gm[a] / 64] &= ~bit;
            }
            for (size_t c = 0; c < outs; c++)   /* a loop: outs is small */
                za[c] = 0;
        }
        for (size_t t = 0; t < nin; t++) {
            size_t a = in[t];
            float *za = zr + a * outs;
            float zmax = za[0];
            for (size_t c = 1; c < outs; c++)
                zmax = za[c] > zmax ? za[c] : zmax;
            float *e = ev + ne * outs;
            for (size_t c = 0; c < outs; c++)
                e[c] = za[c] - zmax;
            zy[ne] = za[y] - zmax;
            pos[ne] = (uint32_t)(i * cols + a * outs);
            model[ne] = (uint32_t)a;
            cls[ne++] = (uint32_t)y;
        }
    }
    vmath_exp(ev, ne * outs);
    for (size_t k = 0; k < ne; k++) {
        float *e = ev + k * outs, sum = 0;
        for (size_t c = 0; c < outs; c++)
            sum += e[c];
        float inv = 1.0f / sum;
        for (size_t c = 0; c < outs; c++)
            e[c] *= inv;
        sums[k] = sum;
    }
    vmath_log(sums, ne);
    for (size_t k = 0; k < ne; k++) {
        float *za = z + pos[k];
        size_t a = model[k];
        for (size_t c = 0; c < outs; c++)
            za[c] = ev[k * outs + c];
        za[cls[k]] -= 1.0f;
        f[a] += (double)sums[k] - (double)zy[k];
        for (size_t c = 0; c < outs; c++)
            bsum[a * outs + c] += za[c];
    }
}

/* Three classes, the usual case, with the class loops unrolled. */
static void softmax_block(const pass *p, size_t r, size_t nb, float *z, float *gather,
                          uint32_t *idx, double *f, double *bsum)
{
    if (p->outs == 3)
        softmax_block_outs(p, r, nb, z, gather, idx, f, bsum, 3);
    else
        softmax_block_outs(p, r, nb, z, gather, idx, f, bsum, p->outs);
}

static void pass_task(void *ctx, size_t t, size_t thread)
{
    pass *p = ctx;
    const logreg_data *d = p->d;
    size_t dim = d->dim, D1 = dim + 1, cols = p->cols, outs = p->outs;
    size_t r0 = task_start(d->rows, p->ntasks, t), r1 = task_start(d->rows, p->ntasks, t + 1);
    float *z = p->z + thread * thread_floats(cols, outs, p->na), *zs = z + BLOCK_ROWS * cols;
    float *g = p->gt + t * cols * dim;
    double *f = p->ft + t * p->na, *bsum = p->bt + t * cols;
    memset(f, 0, p->na * sizeof *f);
    memset(bsum, 0, cols * sizeof *bsum);
    bool first = true;
    for (size_t r = r0; r < r1; r += BLOCK_ROWS) {
        size_t nb = r1 - r < BLOCK_ROWS ? r1 - r : BLOCK_ROWS;
        const float *xb = d->x + r * d->ld;
        if (p->shared) {
            /* One model's logits, residual and prediction serve them all. */
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)outs, (int)dim,
                        1.0f, xb, (int)d->ld, p->wf, (int)D1, 0.0f, zs, (int)outs);
            shared_rows(p, r, nb, zs, z, f, bsum);
        } else {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)cols, (int)dim,
                        1.0f, xb, (int)d->ld, p->wf, (int)D1, 0.0f, z, (int)cols);
        }
        if (!p->shared && outs > 1)
            softmax_block(p, r, nb, z, zs + BLOCK_ROWS * outs + outs,
                          p->idx + thread * thread_indices(p->na), f, bsum);
        /* Two classes: one sigmoid output per model. */
        for (size_t i = 0; !p->shared && outs == 1 && i < nb; i++) {
            size_t row = r + i;
            const unsigned char *tr = p->in_train + row * p->models;
            uint64_t *right = p->right ? p->right + row * p->words : NULL;
            int y = p->local[d->y[row]];
            for (size_t a = 0; a < p->na; a++) {
                float *za = z + i * cols + a;
                const float *w = p->wf + a * D1;
                if (!tr[p->gm[a]]) {
                    if (right) {
                        *za += w[dim];
                        uint64_t bit = (uint64_t)1 << (p->gm[a] % 64);
                        if (picks(za, 1, y))
                            right[p->gm[a] / 64] |= bit;
                        else
                            right[p->gm[a] / 64] &= ~bit;
                    }
                    *za = 0;
                    continue;
                }
                f[a] += binary_residual(za, w, D1, y);
                bsum[a] += *za;
            }
        }
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)cols, (int)dim, (int)nb,
                    1.0f, z, (int)cols, xb, (int)d->ld, first ? 0.0f : 1.0f, g, (int)dim);
        first = false;
    }
    if (first)
        memset(g, 0, cols * dim * sizeof *g);
}

/* ---- training one batch: models with the same classes ---- */

typedef struct batch {
    const logreg_data *d;
    const unsigned char *in_train;
    size_t models;
    const logreg_options *o;
    size_t threads;
    size_t nm;              /* models in the batch */
    size_t *gm;             /* their indices */
    uint64_t *right;        /* see pass, or NULL */
    size_t words;
    const size_t *trained;  /* per model (all of them): its training rows */
} batch;

typedef enum { ST_NEW_DIRECTION, ST_BACKTRACK, ST_DONE } model_state;

/* evaluate's buffers, made at its first call (the most models) and
   reused: fresh ones every pass cost page faults. */
typedef struct pass_buffers {
    size_t models;          /* the models they are made for */
    size_t *gm;
    float *wf, *gt, *z, *bias;
    double *ft, *bt, *acc;
    uint32_t *idx;
} pass_buffers;

typedef struct solver {
    size_t nm, P, outs, D1, dim;
    double lambda, tol;
    double *w, *g, *dir, *wt, *gt;    /* nm x P */
    double *f, *ft, *gd, *step;       /* nm */
    double *s, *yv, *rho, *alpha;     /* nm x MEMORY (x P) */
    int *hist, *head, *iter, *backtracks;
    model_state *state;
    size_t pw;                        /* preconditioner width: D1 (one block shared
                                         by every output) or P (all outputs) */
    double *chol;                     /* pw x pw: the Cholesky factor's work */
    float *minv;                      /* pw x pw: the preconditioner, M^-1 */
    float *stack, *prod;              /* 2 nm P: vectors as rows, and times M^-1 */
    size_t *yrow;                     /* nm: see directions */
    pass_buffers pb;
} solver;

static void pass_buffers_free(pass_buffers *pb)
{
    free(pb->gm); free(pb->wf); free(pb->gt); free(pb->z);
    free(pb->bias); free(pb->ft); free(pb->bt); free(pb->acc);
    free(pb->idx);
}

static void solver_free(solver *s)
{
    free(s->w); free(s->g); free(s->dir); free(s->wt); free(s->gt);
    free(s->f); free(s->ft); free(s->gd); free(s->step);
    free(s->s); free(s->yv); free(s->rho); free(s->alpha);
    free(s->hist); free(s->head); free(s->iter); free(s->backtracks);
    free(s->state); free(s->chol); free(s->minv); free(s->stack); free(s->prod);
    free(s->yrow);
    pass_buffers_free(&s->pb);
}

static int solver_alloc(solver *s, size_t nm, size_t outs, size_t dim, bool full)
{
    memset(s, 0, sizeof *s);
    s->nm = nm;
    s->outs = outs;
    s->dim = dim;
    s->D1 = dim + 1;
    s->P = outs * s->D1;
    s->pw = full ? s->P : s->D1;
    size_t P = s->P;
#define ALLOC(x, n) ((x) = array_new((n), sizeof *(x)))
    if (!ALLOC(s->w, nm * P) || !ALLOC(s->g, nm * P) || !ALLOC(s->dir, nm * P) ||
        !ALLOC(s->wt, nm * P) || !ALLOC(s->gt, nm * P) || !ALLOC(s->f, nm) ||
        !ALLOC(s->ft, nm) || !ALLOC(s->gd, nm) || !ALLOC(s->step, nm) ||
        !ALLOC(s->s, nm * MEMORY * P) || !ALLOC(s->yv, nm * MEMORY * P) ||
        !ALLOC(s->rho, nm * MEMORY) || !ALLOC(s->alpha, nm * MEMORY) ||
        !ALLOC(s->hist, nm) || !ALLOC(s->head, nm) || !ALLOC(s->iter, nm) ||
        !ALLOC(s->backtracks, nm) || !ALLOC(s->state, nm) ||
        !ALLOC(s->chol, s->pw * s->pw) || !ALLOC(s->minv, s->pw * s->pw) ||
        !ALLOC(s->stack, 2 * nm * P) || !ALLOC(s->prod, 2 * nm * P) ||
        !ALLOC(s->yrow, nm)) {
        solver_free(s);
        return -1;
    }
#undef ALLOC
    return 0;
}

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* New L-BFGS directions for the models in list: the two-loop recursion
   with H0 = gamma M^-1. The models' q vectors, then their last y
   vectors, are stacked as rows and multiplied by M^-1 at once (one GEMM
   in float, the rows in chunks on the threads): y M^-1 y gives gamma. */
typedef struct solve_job {
    solver *s;
    size_t rows;
} solve_job;

/* Rows t * SOLVE_ROWS .. of the stack times M^-1, in chunks of a fixed
   size, so that the bits do not depend on the threads. */
static void solve_task(void *ctx, size_t t, size_t thread)
{
    (void)thread;
    const solve_job *j = ctx;
    const solver *s = j->s;
    size_t r0 = t * SOLVE_ROWS, r1 = r0 + SOLVE_ROWS < j->rows ? r0 + SOLVE_ROWS : j->rows;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(r1 - r0), (int)s->pw,
                (int)s->pw, 1.0f, s->stack + r0 * s->pw, (int)s->pw, s->minv, (int)s->pw,
                0.0f, s->prod + r0 * s->pw, (int)s->pw);
}

/* The two loops of the recursion run on the threads, a model per task:
   each model's numbers are its own, whatever the threads. */
typedef struct direction_job {
    solver *s;
    const size_t *list;
    const size_t *yrow;   /* per model: its y row in the stack, or SIZE_MAX */
    size_t per;
} direction_job;

/* The slot of model a's h-th newest correction pair, and its vectors. */
static size_t pair_slot(const solver *s, size_t a, int h)
{
    return a * MEMORY + (size_t)((s->head[a] - 1 - h + MEMORY) % MEMORY);
}

static const double *pair_s(const solver *s, size_t slot)
{
    return s->s + slot * s->P;
}

static const double *pair_y(const solver *s, size_t slot)
{
    return s->yv + slot * s->P;
}

static void first_loop_task(void *ctx, size_t l, size_t thread)
{
    (void)thread;
    const direction_job *j = ctx;
    solver *s = j->s;
    size_t P = s->P, pw = s->pw, a = j->list[l];
    double *q = s->dir + a * P;
    memcpy(q, s->g + a * P, P * sizeof *q);
    for (int h = 0; h < s->hist[a]; h++) {   /* newest first */
        size_t slot = pair_slot(s, a, h);
        const double *yi = pair_y(s, slot);
        double al = s->rho[slot] * dot(pair_s(s, slot), q, P);
        s->alpha[slot] = al;
        for (size_t k = 0; k < P; k++)
            q[k] -= al * yi[k];
    }
    float *row = s->stack + l * j->per * pw;
    for (size_t k = 0; k < P; k++)
        row[k] = (float)q[k];
    if (s->hist[a]) {
        const double *y = pair_y(s, pair_slot(s, a, 0));
        row = s->stack + j->yrow[l] * pw;
        for (size_t k = 0; k < P; k++)
            row[k] = (float)y[k];
    }
}

static void second_loop_task(void *ctx, size_t l, size_t thread)
{
    (void)thread;
    const direction_job *j = ctx;
    solver *s = j->s;
    size_t P = s->P, pw = s->pw, a = j->list[l];
    double *r = s->dir + a * P;
    const float *mq = s->prod + l * j->per * pw;
    double gamma = 1.0;
    if (s->hist[a]) {
        size_t slot = pair_slot(s, a, 0);
        const double *yi = pair_y(s, slot);
        const float *my = s->prod + j->yrow[l] * pw;   /* M^-1 y */
        double yMy = 0;
        for (size_t k = 0; k < P; k++)
            yMy += yi[k] * (double)my[k];
        if (yMy > 0)
            gamma = dot(pair_s(s, slot), yi, P) / yMy;
    }
    for (size_t k = 0; k < P; k++)
        r[k] = gamma * (double)mq[k];
    for (int h = s->hist[a] - 1; h >= 0; h--) {   /* oldest first */
        size_t slot = pair_slot(s, a, h);
        const double *si = pair_s(s, slot);
        double be = s->rho[slot] * dot(pair_y(s, slot), r, P);
        double c = s->alpha[slot] - be;
        for (size_t k = 0; k < P; k++)
            r[k] += c * si[k];
    }
    for (size_t k = 0; k < P; k++)
        r[k] = -r[k];
    s->gd[a] = dot(s->g + a * P, r, P);
    s->state[a] = ST_NEW_DIRECTION;
}

static void directions(solver *s, const size_t *list, size_t n, size_t threads)
{
    if (n == 0)
        return;
    size_t pw = s->pw, per = s->P / pw;   /* rows of the stack per vector */
    size_t nq = n * per, ny = 0;
    for (size_t l = 0; l < n; l++) {
        s->yrow[l] = s->hist[list[l]] ? nq + ny : SIZE_MAX;
        ny += s->hist[list[l]] ? per : 0;
    }
    direction_job dj = {s, list, s->yrow, per};
    tasks_run(threads, n, first_loop_task, &dj);
    solve_job j = {s, nq + ny};
    size_t tasks = (nq + ny + SOLVE_ROWS - 1) / SOLVE_ROWS;
    tasks_run(threads < tasks ? threads : tasks, tasks, solve_task, &j);
    tasks_run(threads, n, second_loop_task, &dj);
}

/* The tasks' partial gradients summed in task order, so the same bits
   for any thread count; the threads take slices of the sum. */
typedef struct sum_job {
    const float *parts;   /* ntasks x len */
    double *acc;          /* len */
    size_t ntasks, len;
} sum_job;

static void sum_task(void *ctx, size_t t, size_t thread)
{
    (void)thread;
    const sum_job *j = ctx;
    size_t k0 = task_start(j->len, SUM_TASKS, t), k1 = task_start(j->len, SUM_TASKS, t + 1);
    for (size_t p = 0; p < j->ntasks; p++) {
        const float *g = j->parts + p * j->len;
        for (size_t k = k0; k < k1; k++)
            j->acc[k] += g[k];
    }
}

/* Buffers for passes of n models: pb as it is when it has room for them,
   else made anew. -1 when out of memory. */
static int pass_buffers_make(pass_buffers *pb, size_t n, size_t outs, size_t D1, size_t nt,
                             size_t threads)
{
    size_t cols = n * outs, dim = D1 - 1;
    if (n > pb->models) {   /* made once: the first call has the most models, nm */
        pass_buffers_free(pb);
        pb->models = n;
        pb->gm = malloc(n * sizeof *pb->gm);
        pb->wf = malloc(cols * D1 * sizeof *pb->wf);
        pb->gt = malloc(nt * cols * dim * sizeof *pb->gt + 1);
        pb->ft = malloc(nt * n * sizeof *pb->ft);
        pb->bt = malloc(nt * cols * sizeof *pb->bt);
        pb->z = malloc(threads * thread_floats(cols, outs, n) * sizeof *pb->z);
        pb->idx = malloc(threads * thread_indices(n) * sizeof *pb->idx);
        pb->bias = malloc(cols * sizeof *pb->bias);
        pb->acc = malloc(cols * dim * sizeof *pb->acc);
    }
    if (pb->gm && pb->wf && pb->gt && pb->ft && pb->bt && pb->z && pb->idx && pb->bias &&
        pb->acc)
        return 0;
    pb->models = 0;   /* made anew by a next call */
    return -1;
}

/* The losses and gradients at wt of the n models in list, from the nt
   tasks' sums of a pass (pb), with the penalty: into ft and gt. */
static void pass_results(solver *s, const size_t *list, size_t n, const pass_buffers *pb,
                         size_t nt)
{
    size_t P = s->P, D1 = s->D1, dim = s->dim, outs = s->outs, cols = n * outs;
    for (size_t l = 0; l < n; l++) {
        size_t a = list[l];
        const double *w = s->wt + a * P;
        double *g = s->gt + a * P;
        double f = 0, pen = 0;
        for (size_t t = 0; t < nt; t++)
            f += pb->ft[t * n + l];
        for (size_t c = 0; c < outs; c++) {
            for (size_t k = 0; k < dim; k++) {
                double wk = w[c * D1 + k];
                g[c * D1 + k] = pb->acc[(l * outs + c) * dim + k] + s->lambda * wk;
                pen += wk * wk;
            }
            double bs = 0;
            for (size_t t = 0; t < nt; t++)
                bs += pb->bt[t * cols + l * outs + c];
            g[c * D1 + dim] = bs;
        }
        s->ft[a] = f + 0.5 * s->lambda * pen;
    }
}

/* Loss and gradient at wt of the models in list (positions in the
   batch). */
static int evaluate(solver *s, const batch *b, const int *local, const size_t *list,
                    size_t n, bool shared, logreg_stats *st)
{
    const logreg_data *d = b->d;
    size_t P = s->P, D1 = s->D1, dim = s->dim, outs = s->outs, cols = n * outs;
    size_t nt = task_count(d->rows), threads = b->threads < nt ? b->threads : nt;
    pass_buffers *pb = &s->pb;
    if (pass_buffers_make(pb, n, outs, D1, nt, threads) < 0)
        return -1;
    memset(pb->acc, 0, cols * dim * sizeof *pb->acc);
    for (size_t l = 0; l < n; l++) {
        pb->gm[l] = b->gm[list[l]];
        const double *w = s->wt + list[l] * P;
        for (size_t k = 0; k < P; k++)
            pb->wf[l * P + k] = (float)w[k];
    }
    for (size_t k = 0; k < cols; k++)
        pb->bias[k] = pb->wf[k * D1 + dim];
    pass p = {.d = d, .in_train = b->in_train, .models = b->models, .na = n, .gm = pb->gm,
              .local = local, .outs = outs, .cols = cols, .wf = pb->wf, .bias = pb->bias,
              .shared = shared, .right = b->right, .words = b->words, .ntasks = nt,
              .gt = pb->gt, .ft = pb->ft, .bt = pb->bt, .z = pb->z, .idx = pb->idx};
    tasks_run(threads, nt, pass_task, &p);
    sum_job sj = {pb->gt, pb->acc, nt, cols * dim};
    tasks_run(b->threads, SUM_TASKS, sum_task, &sj);
    pass_results(s, list, n, pb, nt);
    if (st) {
        st->passes++;
        st->flops += 2.0 * (double)d->rows * (double)dim * (double)(cols + (shared ? outs : cols));
    }
    return 0;
}

/* Accepts the trial point of model a as its new iterate. */
static void accept(solver *s, size_t a)
{
    size_t P = s->P;
    double *sn = s->s + (a * MEMORY + (size_t)s->head[a]) * P;
    double *yn = s->yv + (a * MEMORY + (size_t)s->head[a]) * P;
    for (size_t k = 0; k < P; k++) {
        sn[k] = s->wt[a * P + k] - s->w[a * P + k];
        yn[k] = s->gt[a * P + k] - s->g[a * P + k];
    }
    double sy = dot(sn, yn, P);
    if (sy > 1e-12 * sqrt(dot(sn, sn, P) * dot(yn, yn, P))) {
        s->rho[a * MEMORY + (size_t)s->head[a]] = 1.0 / sy;
        s->head[a] = (s->head[a] + 1) % MEMORY;
        if (s->hist[a] < MEMORY)
            s->hist[a]++;
    }
    memcpy(s->w + a * P, s->wt + a * P, P * sizeof *s->w);
    memcpy(s->g + a * P, s->gt + a * P, P * sizeof *s->g);
    s->f[a] = s->ft[a];
    s->iter[a]++;
    s->backtracks[a] = 0;
}

/* The mean of warm's models whose classes are cls[0..nclass) into start
   (outs x D1); false when none has them. */
static bool warm_start(const logreg_fit *warm, const int *cls, size_t nclass, double *start,
                       size_t len)
{
    size_t count = 0;
    memset(start, 0, len * sizeof *start);
    for (size_t j = 0; warm && j < warm->models; j++) {
        if (warm->nclass[j] != nclass || warm->dim + 1 != len / (nclass == 2 ? 1 : nclass) ||
            memcmp(warm->cls + j * warm->classes, cls, nclass * sizeof *cls) != 0)
            continue;
        for (size_t k = 0; k < len; k++)
            start[k] += warm->coef[j][k];
        count++;
    }
    for (size_t k = 0; count && k < len; k++)
        start[k] /= (double)count;
    return count > 0;
}

/* ---- the preconditioner at a warm start ---- */

/* The Hessian of the summed log loss at a point w, over an even sample of
   the rows: rows floor(q N / S) for q < S. Per task (a fixed number, so
   that the sums do not depend on the threads) its lower triangle in
   float; for K outputs, sum_i (diag(p_i) - p_i p_i^T) (x) [x_i 1][x_i 1]^T
   as K diagonal blocks of p_ic-weighted Gram matrices less one product
   of the rows (p_i (x) [x_i 1]). */
typedef struct hess_job {
    const logreg_data *d;
    size_t samples, ntasks, outs, P;
    const float *wf;        /* outs x (dim + 1) */
    float *h;               /* per task: P x P */
    float *buf;             /* per thread: HESS_BLOCK x (D1 + P + outs) */
} hess_job;

static void hess_task(void *ctx, size_t t, size_t thread)
{
    hess_job *j = ctx;
    const logreg_data *d = j->d;
    size_t dim = d->dim, D1 = dim + 1, P = j->P, outs = j->outs;
    size_t q0 = task_start(j->samples, j->ntasks, t), q1 = task_start(j->samples, j->ntasks, t + 1);
    float *xt = j->buf + thread * HESS_BLOCK * (D1 + P + outs), *u = xt + HESS_BLOCK * D1;
    float *z = u + HESS_BLOCK * P, *h = j->h + t * P * P;
    memset(h, 0, P * P * sizeof *h);
    for (size_t q = q0; q < q1; q += HESS_BLOCK) {
        size_t nb = q1 - q < HESS_BLOCK ? q1 - q : HESS_BLOCK;
        for (size_t i = 0; i < nb; i++) {
            size_t row = (size_t)((unsigned long long)(q + i) * d->rows / j->samples);
            memcpy(xt + i * D1, d->x + row * d->ld, dim * sizeof *xt);
            xt[i * D1 + dim] = 1.0f;
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)outs, (int)D1, 1.0f,
                    xt, (int)D1, j->wf, (int)D1, 0.0f, z, (int)outs);
        if (outs == 1) {
            for (size_t i = 0; i < nb; i++) {
                float pr = 1.0f / (1.0f + expf(-z[i]));
                float r = sqrtf(pr * (1.0f - pr));
                for (size_t k = 0; k < D1; k++)
                    xt[i * D1 + k] *= r;
            }
            cblas_ssyrk(CblasRowMajor, CblasLower, CblasTrans, (int)D1, (int)nb, 1.0f, xt,
                        (int)D1, 1.0f, h, (int)P);
            continue;
        }
        for (size_t i = 0; i < nb; i++) {
            float *zi = z + i * outs, zmax = -INFINITY, sum = 0;
            for (size_t c = 0; c < outs; c++)
                zmax = zi[c] > zmax ? zi[c] : zmax;
            for (size_t c = 0; c < outs; c++)
                sum += zi[c] = expf(zi[c] - zmax);
            for (size_t c = 0; c < outs; c++)
                zi[c] /= sum;
        }
        if (outs == 3) {
            /* The blocks of a row's curvature sum to zero along every row
               and column of classes (its probabilities sum to 1), so with
               three classes the diagonal blocks, p_c (1 - p_c) [x 1][x 1]^T,
               give the others (warm_hessian): three small products. */
            for (size_t c = 0; c < outs; c++) {
                for (size_t i = 0; i < nb; i++) {
                    float pc = z[i * outs + c], r = sqrtf(pc * (1.0f - pc));
                    for (size_t k = 0; k < D1; k++)
                        u[i * D1 + k] = r * xt[i * D1 + k];
                }
                cblas_ssyrk(CblasRowMajor, CblasLower, CblasTrans, (int)D1, (int)nb, 1.0f, u,
                            (int)D1, 1.0f, h + c * D1 * P + c * D1, (int)P);
            }
            continue;
        }
        for (size_t i = 0; i < nb; i++)
            for (size_t c = 0; c < outs; c++)
                for (size_t k = 0; k < D1; k++)
                    u[i * P + c * D1 + k] = z[i * outs + c] * xt[i * D1 + k];
        cblas_ssyrk(CblasRowMajor, CblasLower, CblasTrans, (int)P, (int)nb, -1.0f, u, (int)P,
                    1.0f, h, (int)P);
        for (size_t i = 0; i < nb; i++)
            for (size_t c = 0; c < outs; c++) {
                float r = sqrtf(z[i * outs + c]);
                for (size_t k = 0; k < D1; k++)
                    u[i * P + c * D1 + k] = r * xt[i * D1 + k];
            }
        for (size_t c = 0; c < outs; c++)
            cblas_ssyrk(CblasRowMajor, CblasLower, CblasTrans, (int)D1, (int)nb, 1.0f,
                        u + c * D1, (int)P, 1.0f, h + c * D1 * P + c * D1, (int)P);
    }
}

/* h (P x P, lower triangle): m / S times the sampled Hessian at w (outs x
   D1), plus the penalty; for K outputs, the direction that adds the same
   number to every intercept (no change to any probability, so no
   curvature, and no gradient along it ever) gets some, so that h is
   positive definite. -1 when out of memory. */
static int warm_hessian(const logreg_data *d, const double *w, size_t outs, double m,
                        double lambda, size_t threads, double *h, logreg_stats *st)
{
    size_t dim = d->dim, D1 = dim + 1, P = outs * D1;
    size_t S = d->rows < HESS_ROWS ? d->rows : HESS_ROWS;
    size_t nt = (S + TASK_MIN_ROWS - 1) / TASK_MIN_ROWS;
    nt = nt < 1 ? 1 : nt > HESS_TASKS ? HESS_TASKS : nt;
    threads = threads < nt ? threads : nt;
    hess_job j = {.d = d, .samples = S, .ntasks = nt, .outs = outs, .P = P};
    float *wf = malloc(P * sizeof *wf);
    j.h = malloc(nt * P * P * sizeof *j.h);
    j.buf = malloc(threads * HESS_BLOCK * (D1 + P + outs) * sizeof *j.buf);
    if (!wf || !j.h || !j.buf) {
        free(wf);
        free(j.h);
        free(j.buf);
        return -1;
    }
    for (size_t k = 0; k < P; k++)
        wf[k] = (float)w[k];
    j.wf = wf;
    tasks_run(threads, nt, hess_task, &j);
    double scale = m / (double)S;
    for (size_t a = 0; a < P; a++)
        for (size_t b = 0; b <= a; b++) {
            if (outs == 3 && a / D1 != b / D1)
                continue;
            double v = 0;
            for (size_t t = 0; t < nt; t++)
                v += j.h[t * P * P + a * P + b];
            h[a * P + b] = scale * v;
        }
    if (outs == 3) {
        /* H12 = (H33 - H11 - H22) / 2, and so on: from H11 + H12 + H13 = 0
           and its likes. The diagonal blocks hold their lower triangles. */
#define HB(c, r, k) (r >= k ? h[((c) * D1 + (r)) * P + (c) * D1 + (k)] \
                            : h[((c) * D1 + (k)) * P + (c) * D1 + (r)])
        for (size_t c = 1; c < 3; c++)
            for (size_t c2 = 0; c2 < c; c2++) {
                size_t o = 3 - c - c2;   /* the third class */
                for (size_t r = 0; r < D1; r++)
                    for (size_t k = 0; k < D1; k++)
                        h[(c * D1 + r) * P + c2 * D1 + k] =
                            0.5 * (HB(o, r, k) - HB(c, r, k) - HB(c2, r, k));
            }
#undef HB
    }
    for (size_t c = 0; c < outs; c++)
        for (size_t k = 0; k < dim; k++)
            h[(c * D1 + k) * P + c * D1 + k] += lambda;
    if (outs > 1) {
        double trace = 0;
        for (size_t c = 0; c < outs; c++)
            trace += h[(c * D1 + dim) * P + c * D1 + dim];
        double mu = trace / (double)(outs * (outs - 1));
        for (size_t c = 0; c < outs; c++)
            for (size_t c2 = 0; c2 <= c; c2++)
                h[(c * D1 + dim) * P + c2 * D1 + dim] += mu;
    }
    free(wf);
    free(j.h);
    free(j.buf);
    if (st)
        st->flops += (double)S * (outs == 3 ? 3.0 * D1 * D1
                                  : (double)P * P + (outs > 1 ? (double)outs * D1 * D1 : 0));
    return 0;
}

/* The Gram matrix, computed when a batch first needs it. */
typedef struct gram_cache {
    double *gram;
    bool ready;
} gram_cache;

/* From a warm start: warm's preconditioner when the data changed little
   since (the same size and classes, and fewer than HESS_REUSE fits
   served), *age the fits it served; else the inverse of the Hessian at
   start of an average training set of m rows (warm_hessian). When
   rounding spoilt that one, *hessian is false and the cold one is due. */
static int warm_preconditioner(solver *s, const batch *b, const logreg_fit *warm,
                               const int *cls, size_t nclass, const double *start, double m,
                               bool *hessian, int *age, logreg_stats *st, tells_error *err)
{
    size_t P = s->P;
    if (warm->pre && warm->pre_p == P && warm->pre_nclass == nclass &&
        memcmp(warm->pre_cls, cls, nclass * sizeof *cls) == 0 && warm->pre_age + 1 < HESS_REUSE) {
        /* The data changed little since: the same curvature serves. */
        memcpy(s->minv, warm->pre, P * P * sizeof *s->minv);
        *age = warm->pre_age + 1;
        return 0;
    }
    if (warm_hessian(b->d, start, s->outs, m, s->lambda, b->threads, s->chol, st) < 0)
        return tells_error_nomem(err, NULL, 0);
    int pre = make_preconditioner(s->chol, P, s->minv);
    if (pre == -2)
        return tells_error_nomem(err, NULL, 0);
    if (pre < 0) {
        s->pw = s->D1;   /* rounding spoilt it: the cold one */
        *hessian = false;
    }
    return 0;
}

/* The fit keeps a warm preconditioner (the first batch's) for the next
   fit, with its classes and the fits it served. */
static int keep_preconditioner(logreg_fit *fit, const solver *s, const int *cls,
                               size_t nclass, int age, tells_error *err)
{
    size_t P = s->P;
    fit->pre = malloc(P * P * sizeof *fit->pre);
    fit->pre_cls = malloc(nclass * sizeof *fit->pre_cls);
    if (!fit->pre || !fit->pre_cls)
        return tells_error_nomem(err, NULL, 0);
    memcpy(fit->pre, s->minv, P * P * sizeof *fit->pre);
    memcpy(fit->pre_cls, cls, nclass * sizeof *cls);
    fit->pre_p = P;
    fit->pre_nclass = nclass;
    fit->pre_age = age;
    return 0;
}

/* The cold preconditioner: the Hessian at zero of an average training set
   of m rows, a (m / N) [X 1]^T [X 1] + lambda diag(1, .., 1, 0) (one
   block for every output, a = p (1 - p) at p = 1/K). */
static int cold_preconditioner(solver *s, const batch *b, size_t nclass, double m,
                               gram_cache *gc, logreg_stats *st, tells_error *err)
{
    const logreg_data *d = b->d;
    size_t dim = s->dim, D1 = s->D1;
    if (!gc->ready && gram_matrix(d, b->threads, gc->gram, st) < 0)
        return tells_error_nomem(err, NULL, 0);
    gc->ready = true;
    double curv = s->outs == 1 ? 0.25 : (1.0 / (double)nclass) * (1.0 - 1.0 / (double)nclass);
    double scale = curv * m / (double)d->rows;
    for (size_t k = 0; k < D1 * D1; k++)
        s->chol[k] = scale * gc->gram[k];
    for (size_t k = 0; k < dim; k++)
        s->chol[k * D1 + k] += s->lambda;
    int pre = make_preconditioner(s->chol, D1, s->minv);
    if (pre == -2)
        return tells_error_nomem(err, NULL, 0);
    if (pre < 0)
        return tells_error_set(err, NULL, 0, "the features are degenerate (no Cholesky "
                               "factor of the preconditioner)");
    return 0;
}

/* The preconditioner of a batch, s->minv: from a warm start, the Hessian
   there of an average training set, so that the first steps are nearly
   Newton's; else the Hessian at zero (cold_preconditioner). */
static int batch_preconditioner(logreg_fit *fit, solver *s, const batch *b, size_t nclass,
                                const double *start, bool warmed, gram_cache *gc,
                                const logreg_fit *warm, logreg_stats *st, tells_error *err)
{
    size_t count = 0;
    for (size_t a = 0; a < b->nm; a++)
        count += b->trained[b->gm[a]];
    double m = (double)count / (double)b->nm;
    const int *cls = fit->cls + b->gm[0] * fit->classes;
    int age = 0, rc = 0;
    bool hessian = warmed;   /* else the cold one (with two classes, pw = D1 = P) */
    if (warmed)
        rc = warm_preconditioner(s, b, warm, cls, nclass, start, m, &hessian, &age, st, err);
    if (rc == 0 && hessian && !fit->pre)
        rc = keep_preconditioner(fit, s, cls, nclass, age, err);
    if (rc == 0 && !hessian)
        rc = cold_preconditioner(s, b, nclass, m, gc, st, err);
    return rc;
}

/* Every model of the batch at start, list all of them: their loss and
   gradient there, from one product of logits (every model is at the same
   point), and their first directions. */
static int start_models(solver *s, const batch *b, const int *local, const double *start,
                        size_t *list, bool *stale, logreg_stats *st, tells_error *err)
{
    size_t nm = s->nm, P = s->P;
    for (size_t a = 0; a < nm; a++) {
        list[a] = a;
        memcpy(s->w + a * P, start, P * sizeof *s->w);
        memcpy(s->wt + a * P, start, P * sizeof *s->w);
        stale[b->gm[a]] = false;
    }
    if (evaluate(s, b, local, list, nm, true, st) < 0)
        return tells_error_nomem(err, NULL, 0);
    for (size_t a = 0; a < nm; a++) {
        s->f[a] = s->ft[a];
        memcpy(s->g + a * P, s->gt + a * P, P * sizeof *s->g);
    }
    directions(s, list, nm, b->threads);
    return 0;
}

/* The trial points of the models in list still running (a new direction
   starts with the unit step); the list keeps them, in order, and their
   count is returned. A model stops when its estimated distance to the
   optimum, -g^T d / 2, is at most tol, or after max_iter iterations. */
static size_t trial_points(solver *s, const batch *b, size_t *list, size_t n,
                           logreg_stats *st)
{
    size_t P = s->P, ne = 0;
    for (size_t l = 0; l < n; l++) {
        size_t a = list[l];
        if (s->state[a] == ST_NEW_DIRECTION) {
            if (-s->gd[a] <= 2 * s->tol)
                s->state[a] = ST_DONE;
            else if (s->iter[a] >= b->o->max_iter) {
                s->state[a] = ST_DONE;
                if (st)
                    st->unconverged++;
            } else
                s->step[a] = 1.0;
        }
        if (s->state[a] == ST_DONE)
            continue;
        for (size_t k = 0; k < P; k++)
            s->wt[a * P + k] = s->w[a * P + k] + s->step[a] * s->dir[a * P + k];
        list[ne++] = a;
    }
    return ne;
}

/* The line search on the trial points of the models in list, just
   evaluated: a point accepted becomes the model's iterate and the model
   goes into next (their count is returned) for a new direction; else the
   step shrinks, or the model stops after MAX_BACKTRACKS reductions. */
static size_t line_search(solver *s, const batch *b, const size_t *list, size_t n,
                          size_t *next, bool *stale)
{
    size_t P = s->P, nn = 0;
    for (size_t l = 0; l < n; l++) {
        size_t a = list[l];
        double t = s->step[a];
        double slope = dot(s->gt + a * P, s->dir + a * P, P);
        /* Held-out predictions were made at the trial point: they are
           the model's only if it is accepted. */
        /* A unit step whose promised decrease is within the rounding
           of the objective (float32 logits summed over the rows) is
           judged by the slopes instead: less than half the first one
           at its end, the decrease they estimate is at least a
           quarter of the promise. */
        if (s->ft[a] <= s->f[a] + ARMIJO * t * s->gd[a] || slope <= 0 ||
            (t == 1 && -s->gd[a] <= ROUNDING * fabs(s->f[a]) && slope <= -0.5 * s->gd[a])) {
            accept(s, a);
            stale[b->gm[a]] = false;
            next[nn++] = a;
            continue;
        }
        stale[b->gm[a]] = true;
        if (++s->backtracks[a] > MAX_BACKTRACKS) {
            s->state[a] = ST_DONE;   /* rounding has the last word */
        } else {
            /* Where the slope, interpolated linearly, is zero. */
            double tn = t * s->gd[a] / (s->gd[a] - slope);
            s->step[a] = tn < 0.1 * t ? 0.1 * t : tn > 0.9 * t ? 0.9 * t : tn;
            s->state[a] = ST_BACKTRACK;
        }
    }
    return nn;
}

/* The batch's models' weights into fit, their iterations into st. */
static void batch_results(logreg_fit *fit, const batch *b, const solver *s, logreg_stats *st)
{
    for (size_t a = 0; a < s->nm; a++) {
        size_t j = b->gm[a];
        memcpy(fit->coef[j], s->w + a * s->P, s->P * sizeof *s->w);
        if (st) {
            st->iterations += s->iter[a];
            if (s->iter[a] > st->max_iterations)
                st->max_iterations = s->iter[a];
        }
    }
}

/* Trains the models of batch b (their classes: nclass, local maps a class
   to its index among them) from zero or from warm's (warm_start), every
   model's weights into fit; stale[j] tells whether model j's last pass
   was at a point other than its final weights. */
static int train_batch(logreg_fit *fit, batch *b, const int *local, size_t nclass,
                       gram_cache *gc, const logreg_fit *warm, bool *stale, logreg_stats *st,
                       tells_error *err)
{
    const logreg_data *d = b->d;
    size_t outs = nclass == 2 ? 1 : nclass, nm = b->nm, P = outs * (d->dim + 1);
    double *start = array_new(P, sizeof *start);
    bool warmed = start && warm && warm_start(warm, fit->cls + b->gm[0] * fit->classes,
                                              nclass, start, P);
    solver s;
    if (!start || solver_alloc(&s, nm, outs, d->dim, warmed) < 0) {
        free(start);
        return tells_error_nomem(err, NULL, 0);
    }
    size_t *list = malloc(nm * sizeof *list), *next = malloc(nm * sizeof *next);
    int rc = list && next ? 0 : tells_error_nomem(err, NULL, 0);
    s.lambda = 1.0 / b->o->c;
    s.tol = b->o->tol;
    if (rc == 0)
        rc = batch_preconditioner(fit, &s, b, nclass, start, warmed, gc, warm, st, err);
    if (rc == 0)
        rc = start_models(&s, b, local, start, list, stale, st, err);
    size_t n = nm;
    while (rc == 0 && n > 0) {
        n = trial_points(&s, b, list, n, st);
        if (n == 0)
            break;
        if ((rc = evaluate(&s, b, local, list, n, false, st)) < 0) {
            tells_error_nomem(err, NULL, 0);
            break;
        }
        size_t nn = line_search(&s, b, list, n, next, stale);
        directions(&s, next, nn, b->threads);
        /* Keep the order of the batch. */
        size_t k = 0;
        for (size_t l = 0; l < n; l++)
            if (s.state[list[l]] != ST_DONE)
                list[k++] = list[l];
        n = k;
    }
    if (rc == 0)
        batch_results(fit, b, &s, st);
    free(start);
    free(list);
    free(next);
    solver_free(&s);
    return rc;
}

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
        if (train_batch(f, &b, local, f->nclass[j], &gc, warm, stale, st, err) < 0)
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
