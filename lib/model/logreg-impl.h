/* The inside of model/logreg, shared by its pieces and by nothing else
   (other modules see logreg.h):
     logreg.c          the interface: fits, held-out counts, predictions
     logreg-precond.c  the preconditioner: the Gram matrix, the Hessian at
                       a warm start, the float inverse of either, checked
     logreg-pass.c     one pass over the data: the losses and gradients of
                       several models (the GEMMs and the softmax)
     logreg-batch.c    a batch of models with the same classes, trained
                       together by L-BFGS
   Names with external linkage start with lr_. */
#ifndef TELLS_LOGREG_IMPL_H
#define TELLS_LOGREG_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/logreg.h"

enum {
    TASK_MIN_ROWS = 512,   /* rows per task, at least */
    MAX_TASKS = 64,        /* tasks per pass, at most */
    BLOCK_ROWS = 1024,     /* rows per GEMM */
    MEMORY = 10            /* L-BFGS correction pairs (scipy's maxcor) */
};

struct logreg_fit {
    size_t models, dim, classes, threads;
    size_t *nclass;     /* per model */
    int *cls;           /* per model, `classes` slots, ascending */
    size_t *outs;       /* per model: 1 for two classes, else nclass */
    double **coef;      /* per model: outs x (dim + 1) */
    /* The inverse of a warm Hessian (lr_warm_hessian) that the next fit
       may reuse: its size, classes and the fits it served. */
    float *pre;
    size_t pre_p, pre_nclass;
    int *pre_cls;
    int pre_age;
};

/* ---- tasks: fixed row ranges, taken by threads in any order (base/tasks.h) ---- */

static inline size_t task_count(size_t rows)
{
    size_t t = (rows + TASK_MIN_ROWS - 1) / TASK_MIN_ROWS;
    return t < 1 ? 1 : t > MAX_TASKS ? MAX_TASKS : t;
}

static inline size_t task_start(size_t rows, size_t ntasks, size_t t)
{
    return (size_t)((unsigned long long)rows * t / ntasks);
}

/* ---- the preconditioner (logreg-precond.c) ---- */

/* The Gram matrix [X 1]^T [X 1] into gram: (dim + 1)^2, the intercept
   last; full symmetric. -1 when out of memory. */
int lr_gram_matrix(const logreg_data *d, size_t threads, double *gram, logreg_stats *st);
/* The preconditioner M^-1, in float, of the positive definite n x n
   matrix m (row-major; kept): its rounding only perturbs the first guess
   of each step, but the rounded inverse of a badly conditioned M can be
   indefinite, so it is checked (a Cholesky factor of it) and, failing
   that, M gets a growing diagonal shift (any positive definite
   preconditioner leads to the same optimum). -1 when none helps, -2 out
   of memory. */
int lr_make_preconditioner(const double *m, size_t n, float *inv);
/* h (P x P, lower triangle, P = outs (dim + 1)): m / S times the Hessian
   of the summed log loss at w (outs x (dim + 1)) over an even sample of S
   rows, plus the penalty lambda; for K outputs, the direction that adds
   the same number to every intercept (no change to any probability, so
   no curvature, and no gradient along it ever) gets some, so that h is
   positive definite. -1 when out of memory. */
int lr_warm_hessian(const logreg_data *d, const double *w, size_t outs, double m,
                    double lambda, size_t threads, double *h, logreg_stats *st);

/* ---- training one batch: models with the same classes ---- */

typedef struct batch {
    const logreg_data *d;
    const unsigned char *in_train;
    size_t models;
    const logreg_options *o;
    size_t threads;
    size_t nm;              /* models in the batch */
    size_t *gm;             /* their indices */
    uint64_t *right;        /* per row, a bit per model: held-out row predicted
                               right at the last point evaluated (NULL: not
                               wanted) */
    size_t words;           /* of right per row */
    const size_t *trained;  /* per model (all of them): its training rows */
} batch;

typedef enum { ST_NEW_DIRECTION, ST_BACKTRACK, ST_DONE } model_state;

/* lr_evaluate's buffers, made at its first call (the most models) and
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

/* ---- one pass (logreg-pass.c) ---- */

/* Loss and gradient at wt of the n models in list (positions in the
   batch; local: a class's index among the batch's classes, or -1), into
   ft and gt, and their held-out predictions there into b->right; shared:
   every model is at the same point (one product of logits). -1 when out
   of memory. */
int lr_evaluate(solver *s, const batch *b, const int *local, const size_t *list, size_t n,
                bool shared, logreg_stats *st);
void lr_pass_buffers_free(pass_buffers *pb);

/* ---- the L-BFGS loop (logreg-batch.c) ---- */

/* The Gram matrix, computed when a batch first needs it. */
typedef struct gram_cache {
    double *gram;
    bool ready;
} gram_cache;

/* Trains the models of batch b (their classes: nclass, local maps a class
   to its index among them) from zero or from warm's (see logreg.h),
   every model's weights into fit; stale[j] tells whether model j's last
   pass was at a point other than its final weights (its bits in
   b->right are then not its final predictions). */
int lr_train_batch(logreg_fit *fit, batch *b, const int *local, size_t nclass,
                   gram_cache *gc, const logreg_fit *warm, bool *stale, logreg_stats *st,
                   tells_error *err);

#endif
