/* Pair-level artifacts (tells-pairs, the study's pairs section): the pair
   features of every example (text/pairshape.h), each feature's
   association with the label, and a classifier that reads only the pair
   features, against the majority class.

   Association, over the examples given (every class with examples):
     share and count features: Kruskal-Wallis H of the feature by class
       (stats/ranktest.h: scipy.stats.kruskal with the tie correction),
       with each class's mean and median;
     flags: the 2 x k table of flagged and other examples per class,
       Pearson's chi-squared, or the exact conditional test when an
       expected count is under 5 (stats/chisq.h: flag_class_test), with
       each class's share flagged.
   The examples of one premise are not independent (they share its words),
   and these tests treat them as if they were: they say that a feature and
   the label go together in this corpus, not how sure that would be of
   new premises. The classifier below, whose folds keep a premise's
   hypotheses together, is the question a reviewer can lean on.

   The classifier: scikit-learn's LogisticRegression() (model/logreg.h;
   C = 1, multinomial) on the raw features, trained on the training rows
   and scored on the evaluated ones; the majority class of the same
   training rows is its reference, and McNemar's exact one-sided test
   asks whether it beats it (as the study's hypothesis_only does). Rows
   are taken in the order of their ids and classes in the byte order of
   their names, so the result does not depend on the corpus's row
   order. */
#ifndef TELLS_ANALYSIS_PAIRS_H
#define TELLS_ANALYSIS_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/dataset.h"
#include "base/error.h"
#include "model/folds.h"
#include "stats/chisq.h"
#include "text/pairshape.h"

/* The features of every row of d: x[i * PAIR_NFEATURES + f]; NULL with
   err set when out of memory. The caller frees it. */
double *pairs_compute(const dataset *d, pair_shaper *ps, tells_error *err);

/* A feature's association with the label; per-class arrays in the byte
   order of the class names (classes without examples included, n = 0). */
typedef struct pair_assoc {
    pair_feature feature;
    bool tested;                /* false when fewer than two classes have examples
                                   or the feature has one value throughout */
    test_result test;           /* H and df, or Pearson's X^2 and df; p of the test used */
    gof_method method;          /* flags: what gave p (chi2, exact, monte-carlo) */
    size_t nclasses;
    uint64_t *n;                /* examples per class */
    uint64_t *flagged;          /* flags: examples flagged per class */
    double *mean, *median;      /* per class (a flag's mean is its share, its
                                   median NAN: not computed) */
} pair_assoc;

/* The association of every feature over the rows of d in rows (all rows
   when rows is NULL; n of them), into out[PAIR_NFEATURES]; class k is
   class_order[k], a label id of d (byte order of the names): every label
   id of d once (nclasses of them). */
int pairs_associate(const dataset *d, const size_t *rows, size_t n, const double *x,
                    const size_t *class_order, size_t nclasses, unsigned long seed,
                    pair_assoc *out, tells_error *err);
void pairs_assoc_free(pair_assoc *a);

/* The association table: "feature kind test statistic df p" and, per
   class, "CLASS_mean CLASS_median CLASS_n" (a flag's n is its flagged
   examples, its median "-"). */
int pairs_write_assoc(FILE *fp, const pair_assoc *a, const dataset *d,
                      const size_t *class_order, tells_error *err);
/* The per-example table: "id split label" and one column per feature
   (shares with 6 decimals, flags 0 or 1, counts as integers). */
int pairs_write_features(FILE *fp, const dataset *d, const double *x, tells_error *err);

/* The classifier over the pair features. part[i] for row i of d: -1 not
   used; with models = 1, PAIRS_TRAIN trains and PAIRS_EVAL is scored;
   with models = K > 1 (cross-validation), the fold 0 .. K-1: every row
   is scored by the model trained on the other folds. */
enum { PAIRS_TRAIN = -2, PAIRS_EVAL = 0 };
typedef struct pair_model {
    size_t n;                   /* scored rows */
    unsigned long right, majority_right;
    unsigned long only_model, only_majority;   /* McNemar's b and c */
    pvalue p;                   /* exact, one-sided: the model beats the majority */
    double mde;                 /* the gain found with 80% power at 0.05 */
    double train_accuracy;      /* on their own training rows, pooled over the models */
    size_t majority_label;      /* of all the training rows pooled (in
                                   cross-validation each fold's rows are scored
                                   against its own training rows' majority) */
    unsigned char *model_ok;    /* per row of d: scored and right */
    unsigned char *majority_ok; /* per row of d: scored and the majority right */
} pair_model;

/* The study's design for part (model/folds.h: split_design): train on
   the training split and score the evaluated one (*models = 1), else
   K-fold cross-validation over every row, folds grouped as g says
   (*models = K). *design gets "train on S, scored on T" or "K-fold
   cross-validation". split_design's errors. */
int pairs_plan(const dataset *d, const char *train, const char *eval, size_t folds,
               fold_grouping g, unsigned long seed, int *part, size_t *models, char *design,
               size_t size, tells_error *err);

int pairs_classify(const dataset *d, const double *x, const int *part, size_t models,
                   int threads, pair_model *out, tells_error *err);
void pair_model_free(pair_model *m);

#endif
