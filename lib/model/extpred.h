/* Predictions of a model tells did not train (a fine-tuned BioBERT, a
   ClinicalBERT run, any classifier), read from the project's prediction
   TSV and checked against the corpus they are for, so that the study can
   score them in place of its own fastText models.

   The file: a header naming at least the columns id, predicted and
   p_LABEL for every label of the corpus, in any order; then one row per
   example. Columns named p_ANYTHING are reserved for labels (one that
   names no label is an error). Other columns are ignored (split and fold, as
   tells-baseline's predictions.tsv and the study's folds.tsv have
   them), but for gold, which when present must be the corpus's label of
   the row. Every id must be an id of the corpus, once; predicted a label
   of the corpus; the p_ columns one distribution (base/number.h:
   prob_check). The file may hold a subset of the corpus's rows: which
   ones it must hold is the caller's to say (ext_predictions_cover). */
#ifndef TELLS_EXTPRED_H
#define TELLS_EXTPRED_H

#include <stdbool.h>
#include <stddef.h>

#include "base/dataset.h"
#include "base/error.h"
#include "model/baseline.h"

typedef struct ext_predictions {
    char file[1024];           /* the file as messages name it */
    size_t nrows;              /* the corpus's rows */
    size_t nlabels;            /* the corpus's labels */
    long *line;                /* per corpus row: the line of its prediction, 0 none */
    size_t *pred;              /* per corpus row: the predicted label id */
    double *prob;              /* per corpus row: nlabels probabilities, by label id */
    size_t n;                  /* rows with a prediction */
} ext_predictions;

/* Reads path (not "-") against the corpus d: the errors above, each at
   file:line ("id 'x' is not in the corpus", "duplicate id 'x' (first on
   line 3)", "unknown label 'x' in column predicted", "gold 'x' differs
   from the corpus's 'y'", "no column p_LABEL", "invalid probability
   ..."); an empty file or a header without rows is an error too. */
int ext_predictions_read(ext_predictions *x, const char *path, const dataset *d,
                         tells_error *err);
void ext_predictions_free(ext_predictions *x);

/* 0 when x has a prediction for every row of d whose split is split
   (every row for split NULL) and for no other row; else -1 naming the
   first row without one (its line in d's file) or the first row of
   another split that has one (its line in x's file). */
int ext_predictions_cover(const ext_predictions *x, const dataset *d, const char *split,
                          tells_error *err);

/* The predictions of rows[0..n) of e, a dataset with the corpus's ids
   (the corpus, or all.tsv made from it): their labels mapped by name.
   -1 naming the first row without a prediction. fold (NULL: none) is
   kept as the predictions' folds (cross-validation's, 0 ..). */
int ext_predictions_rows(const ext_predictions *x, const dataset *corpus, const dataset *e,
                         const size_t *rows, size_t n, const size_t *fold, predictions *out,
                         tells_error *err);

/* Whether a model's probabilities vary, over its predictions p (tells'
   own or given): the largest sample standard deviation, across the
   rows, of one label's probability; NAN without probabilities or with
   fewer than 2 rows. */
double predictions_prob_sd(const predictions *p);

#endif
