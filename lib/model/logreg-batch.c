/* A batch of models of model/logreg (logreg-impl.h) with the same classes,
   trained together by L-BFGS: the preconditioned two-loop recursion, the
   line search, and the choice of the preconditioner. */
#include <config.h>
#include "model/logreg-impl.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/tasks.h"

enum {
    MAX_BACKTRACKS = 20,
    SOLVE_ROWS = 32,       /* rows of the stack per task of the preconditioner */
    HESS_REUSE = 10        /* fits that share one warm preconditioner, at most */
};
static const double ARMIJO = 1e-4;
/* The objective's relative rounding, roughly: float32 logits. */
static const double ROUNDING = 1e-8;

/* ---- the solver's state ---- */

static void solver_free(solver *s)
{
    free(s->w); free(s->g); free(s->dir); free(s->wt); free(s->gt);
    free(s->f); free(s->ft); free(s->gd); free(s->step);
    free(s->s); free(s->yv); free(s->rho); free(s->alpha);
    free(s->hist); free(s->head); free(s->iter); free(s->backtracks);
    free(s->state); free(s->chol); free(s->minv); free(s->stack); free(s->prod);
    free(s->yrow);
    lr_pass_buffers_free(&s->pb);
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

/* ---- directions: the two-loop recursion ---- */

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

/* ---- the start: the warm point, the preconditioner ---- */

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

/* From a warm start: warm's preconditioner when the data changed little
   since (the same size and classes, and fewer than HESS_REUSE fits
   served), *age the fits it served; else the inverse of the Hessian at
   start of an average training set of m rows (lr_warm_hessian). When
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
    if (lr_warm_hessian(b->d, start, s->outs, m, s->lambda, b->threads, s->chol, st) < 0)
        return tells_error_nomem(err, NULL, 0);
    int pre = lr_make_preconditioner(s->chol, P, s->minv);
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
    if (!gc->ready && lr_gram_matrix(d, b->threads, gc->gram, st) < 0)
        return tells_error_nomem(err, NULL, 0);
    gc->ready = true;
    double curv = s->outs == 1 ? 0.25 : (1.0 / (double)nclass) * (1.0 - 1.0 / (double)nclass);
    double scale = curv * m / (double)d->rows;
    for (size_t k = 0; k < D1 * D1; k++)
        s->chol[k] = scale * gc->gram[k];
    for (size_t k = 0; k < dim; k++)
        s->chol[k * D1 + k] += s->lambda;
    int pre = lr_make_preconditioner(s->chol, D1, s->minv);
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

/* ---- the L-BFGS loop ---- */

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
    if (lr_evaluate(s, b, local, list, nm, true, st) < 0)
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

/* See logreg-impl.h. */
int lr_train_batch(logreg_fit *fit, batch *b, const int *local, size_t nclass,
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
        if ((rc = lr_evaluate(&s, b, local, list, n, false, st)) < 0) {
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
