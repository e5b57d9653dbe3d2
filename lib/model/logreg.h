/* An ensemble of L2-regularised logistic regressions over the rows of one
   float matrix, trained together: the model of scikit-learn's
   LogisticRegression() (C = 1, intercept not penalised; multinomial for
   three or more classes, a single sigmoid for two), so predictions agree
   with it.

   Solver: L-BFGS (10 correction pairs) run for all models at once, with
   every function and gradient evaluation one pass over the data: two
   single-precision GEMMs (OpenBLAS cblas_sgemm) per block of rows against
   the stacked weights of every model still running, logits X W^T, then
   gradient R^T X. Rows outside a model's training set get residual 0, so
   one product serves all models; their logits give the model's held-out
   predictions (logreg_train_held_out), so the pass that checks the final
   weights also predicts. When every model is at the same point (the
   start) the logits are one model's product.

   Preconditioner (the L-BFGS initial inverse Hessian): from a cold start,
   the Cholesky factor of
       M = a (m / N) [X 1]^T [X 1] + (1/C) diag(1, ..., 1, 0),
   a = p(1 - p) at the start (1/4 for two classes, (1/K)(1 - 1/K) for K),
   m the training size and N the rows: the Hessian at zero weights of an
   average training set (one block shared by the outputs), so that features
   of any scale and correlation converge in about ten iterations where
   plain L-BFGS needs hundreds. From a warm start (an earlier fit), every
   model starts from the mean of the earlier models, and M is the whole
   Hessian there of an average training set, (m / S) times the sum over an
   even sample of S rows (all, up to 2^20) of (diag(p) - p p^T) (x)
   [x 1][x 1]^T plus the penalty: the first steps are then nearly Newton's,
   and a model whose training set is a new random part of nearly the same
   data converges in three or four iterations (the residual error is the
   difference between its training set and the average one). The factor
   is kept in the fit and reused by up to 10 fits in a row, the data
   changing little between them.
   The line search takes the unit step when it satisfies Armijo's condition
   or when the slope along the direction is still negative there (the
   objective is convex, so it decreased), or when the decrease it promises
   is within the objective's rounding (1e-8 of it) and the slope there is
   at most half the slope at the start; else it interpolates the slope.

   Stopping: a model stops when the L-BFGS estimate of its distance to the
   optimum of the objective (summed log loss plus penalty), g^T H g / 2
   with H the L-BFGS inverse Hessian, is at most tol; when 20 step
   reductions in a row fail (rounding has the last word); or after
   max_iter iterations (counted as unconverged).

   Determinism: rows are cut into tasks whose bounds depend on the row
   count only; threads take whole tasks and partial sums are added in task
   order, so the results are the same bits for any number of threads. */
#ifndef TELLS_LOGREG_H
#define TELLS_LOGREG_H

#include <stddef.h>

#include "base/error.h"

typedef struct logreg_data {
    const float *x;     /* rows x dim, row-major, leading dimension ld */
    size_t rows, dim, ld;
    const int *y;       /* class of every row, 0 .. classes-1 */
    size_t classes;
} logreg_data;

typedef struct logreg_options {
    double c;           /* inverse of the L2 penalty strength [1] */
    double tol;         /* stopping tolerance on the objective [1e-6] */
    int max_iter;       /* per model [1000] */
    int threads;        /* [1] */
} logreg_options;

void logreg_options_default(logreg_options *o);

/* OpenBLAS picks its kernels once, when it is loaded, from the CPU's
   model number; a release older than the CPU (Debian 12's 0.3.21 on a
   2023 Xeon) falls back to its slowest, SSE3 kernels ("Prescott"), five
   times slower here. Returns the core type to ask for instead through the
   OPENBLAS_CORETYPE environment variable (SkylakeX with AVX-512, Haswell
   with AVX2 and FMA), or NULL when OpenBLAS chose well or nothing better
   runs on this CPU. A program must be restarted for it to take effect. */
const char *logreg_blas_better_core(void);
/* OpenBLAS's name for the kernels it uses ("SkylakeX"). */
const char *logreg_blas_core(void);

typedef struct logreg_stats {
    double flops;        /* of the GEMMs and SYRKs */
    double seconds;      /* wall time of training and prediction */
    long passes;         /* evaluations: passes over the data */
    long iterations;     /* L-BFGS iterations summed over models */
    long max_iterations; /* the most of any one model */
    size_t unconverged;  /* models stopped by max_iter */
} logreg_stats;

typedef struct logreg_fit logreg_fit;

/* Trains `models` models; row i is in model j's training set when
   in_train[i * models + j] is nonzero. Every training set needs two
   classes. warm (may be NULL) is an earlier fit on similar data: each
   model starts from the mean of warm's models with the same classes
   instead of zero, preconditioned by the Hessian there (see above), which
   saves most iterations and, the objective being strictly convex, leads
   to the same optimum up to tol. Adds to *st (which may be NULL). */
logreg_fit *logreg_train(const logreg_data *d, const unsigned char *in_train,
                         size_t models, const logreg_fit *warm,
                         const logreg_options *o, logreg_stats *st,
                         tells_error *err);
/* logreg_train, and every model's predictions for the rows it did not
   train on, counted as logreg_held_out counts them (held[i] and correct[i]
   set, rows entries each), taken from the pass over the data that checked
   the final weights instead of another one. */
logreg_fit *logreg_train_held_out(const logreg_data *d, const unsigned char *in_train,
                                  size_t models, const logreg_fit *warm,
                                  const logreg_options *o, unsigned *correct,
                                  unsigned *held, logreg_stats *st, tells_error *err);
void logreg_free(logreg_fit *f);

/* Model j's weights as scikit-learn's coef_ and intercept_: outputs rows
   (1 for two classes, the second class's; else one per class) of dim
   weights followed by the intercept. */
const double *logreg_coef(const logreg_fit *f, size_t j, size_t *outputs);
/* Model j's prediction for one row of dim numbers. */
int logreg_predict(const logreg_fit *f, size_t j, const float *x);

/* Every model predicts the rows it did not train on: held[i] counts
   them, correct[i] those predicted right. */
int logreg_held_out(const logreg_fit *f, const logreg_data *d,
                    const unsigned char *in_train, unsigned *correct,
                    unsigned *held, logreg_stats *st, tells_error *err);

#endif
