/* One pass of model/logreg (logreg-impl.h) over the data: the losses and
   gradients of several models at once, two GEMMs per block of rows, with
   the residuals in between (the hot loops, kept together here). */
#include <config.h>
#include "model/logreg-impl.h"
#include "model/vmath.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/tasks.h"

enum {
    SUM_TASKS = 16         /* slices of the sum of a pass's partial gradients */
};

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

static void add_bias(float *restrict z, const float *restrict bias, size_t n)
{
    for (size_t k = 0; k < n; k++)
        z[k] += bias[k];
}

/* The softmax residuals and losses of a block's training pairs (row,
   model), for two or more outputs, as softmax_residual computes them one
   pair at a time: the logits of the pairs are shifted by their maximum
   and gathered, so that e^x and log x run over whole arrays (vmath.h),
   then scattered back as residuals. Which pairs train is random (m / N
   of them): the pairs are listed without branching on it, which would
   be mispredicted half the time. Held-out pairs get zero residuals and,
   when asked for, their predictions. */
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

/* ---- the models evaluated: a pass, its sums in task order ---- */

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

void lr_pass_buffers_free(pass_buffers *pb)
{
    free(pb->gm); free(pb->wf); free(pb->gt); free(pb->z);
    free(pb->bias); free(pb->ft); free(pb->bt); free(pb->acc);
    free(pb->idx);
}

/* Buffers for passes of n models: pb as it is when it has room for them,
   else made anew. -1 when out of memory. */
static int pass_buffers_make(pass_buffers *pb, size_t n, size_t outs, size_t D1, size_t nt,
                             size_t threads)
{
    size_t cols = n * outs, dim = D1 - 1;
    if (n > pb->models) {   /* made once: the first call has the most models, nm */
        lr_pass_buffers_free(pb);
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

/* See logreg-impl.h. */
int lr_evaluate(solver *s, const batch *b, const int *local, const size_t *list, size_t n,
                bool shared, logreg_stats *st)
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
