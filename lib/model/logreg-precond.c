/* The preconditioner of model/logreg (logreg-impl.h): the Gram matrix of
   a cold start, the Hessian at a warm start, and the checked float inverse
   of either, by LAPACK's Cholesky factorisation. */
#include <config.h>
#include "model/logreg-impl.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/tasks.h"

enum {
    HESS_BLOCK = 256,      /* sampled rows per product of the warm Hessian */
    HESS_TASKS = 8,        /* its tasks, at most */
    HESS_ROWS = 1 << 20    /* rows it samples, at most */
};

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

/* See logreg-impl.h. */
int lr_gram_matrix(const logreg_data *d, size_t threads, double *gram, logreg_stats *st)
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

/* ---- the inverse M^-1, in float, checked ---- */

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

/* See logreg-impl.h. */
int lr_make_preconditioner(const double *m, size_t n, float *inv)
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
               give the others (lr_warm_hessian): three small products. */
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

/* See logreg-impl.h. */
int lr_warm_hessian(const logreg_data *d, const double *w, size_t outs, double m,
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
