/* Premise-blind (and premise-aware) baselines over a dataset: the
   majority class and a fastText classifier. Predictions carry a label
   and, for fastText, a probability per label. */
#ifndef TELLS_BASELINE_H
#define TELLS_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/dataset.h"
#include "model/folds.h"
#include "base/error.h"
#include "model/ftshim.h"

/* What a model reads: the hypothesis; the premise and hypothesis as one
   bag of words (the MedNLI paper's baseline); or the pair's features
   (model/pairfeat.h), which a linear model can use to relate them; or
   the premise alone (a check: grouped by premise, it has nothing to
   learn). */
typedef enum { INPUT_HYPOTHESIS, INPUT_PAIR, INPUT_PAIR_FEATURES, INPUT_PREMISE } baseline_input;

/* Joins premise and hypothesis in pair mode, so that the model can tell
   which side a word came from only by position. */
#define PAIR_SEPARATOR "__sep__"

int baseline_input_parse(const char *name, baseline_input *in);
const char *baseline_input_name(baseline_input in);

/* How a fastText model fitted its training rows: the share of them it
   gets right, and the epochs and learning rate it was trained with (with
   cross-validation: the training rows' share over all folds, and the
   settings most folds chose). */
typedef struct model_fit {
    double train_accuracy;     /* NAN when not measured */
    int epoch;
    double lr;
    bool tuned;                /* chosen on an inner validation split */
    size_t folds_tuned;        /* cross-validation: folds whose choice it is */
    size_t tune_rows;          /* tuned: the rows of that split, both parts
                                  (fewer than train_rows above the cap,
                                  baseline_config.tune_rows) */
    size_t train_rows;         /* the rows it was trained on */
    int tuned_epoch;           /* the epochs the tuning chose; epoch is
                                  fewer when it chose them on a sample
                                  (baseline_config.tune_rows) */
} model_fit;

typedef struct predictions {
    size_t n;
    size_t *row;          /* dataset row of each prediction */
    size_t *pred;         /* predicted label (dataset label id) */
    double *prob;         /* n x nlabels probabilities, or NULL */
    size_t nlabels;       /* dataset label count */
    size_t *fold;         /* cross-validation's fold of each (0 ..), or NULL */
    model_fit fit;        /* fastText's; zero for the majority class */
} predictions;

void predictions_free(predictions *p);

/* Rows of a split, in file order; caller frees; NULL when out of
   memory. */
size_t *split_rows(const dataset *d, size_t split, size_t *n);

/* The most frequent label among rows (ties: first in byte order). */
int majority_label(const dataset *d, const size_t *rows, size_t n, size_t *label,
                   tells_error *err);
/* Predicts label for every row. */
int predict_constant(const dataset *d, const size_t *rows, size_t n, size_t label,
                     predictions *out, tells_error *err);

/* Predicts for each of rows the majority label (majority_label) of the
   rows of its group, group[i] < ngroups for rows[i]: the majority class
   of each evaluated set, as the MedNLI reference code computes it. */
int predict_group_majority(const dataset *d, const size_t *rows, const size_t *group,
                           size_t n, size_t ngroups, predictions *out, tells_error *err);

/* Writes fastText's training text to fp: -1 with err set on its own
   failures, or just -1 on a write error. */
typedef int (*train_text_writer)(FILE *fp, void *ctx, tells_error *err);
/* Trains fastText on the text write produces, through a temporary file
   (base/tempfile.h) that is checked complete and non-empty first and
   removed afterwards; NULL with err set on failure. */
ft_model *fasttext_train_text(train_text_writer write, void *ctx, const ft_train_args *args,
                              tells_error *err);
/* Trains fastText on rows (text per `in`); NULL with err set on failure.
   A dim of FT_DIM_CLASSIFIER (model/ftshim.h) becomes the labels of d
   less one, from FT_CLASSIFIER_DIM to FT_CLASSIFIER_DIM_MAX. */
ft_model *fasttext_train_rows(const dataset *d, const size_t *rows, size_t n,
                              baseline_input in, const ft_train_args *args,
                              tells_error *err);
int fasttext_predict_rows(ft_model *m, const dataset *d, const size_t *rows,
                          size_t n, baseline_input in, predictions *out,
                          tells_error *err);
typedef enum { MODEL_MAJORITY, MODEL_FASTTEXT } model_kind;

/* Fits side by side at most: each holds a model and a temporary file
   (base/tempfile.h tracks a fixed number). */
enum { BASELINE_MAX_JOBS = 8 };

typedef struct baseline_config {
    model_kind kind;
    baseline_input input;
    bool majority_from_eval;   /* majority label of the evaluated rows */
    ft_train_args ft;
    /* Choose fastText's epochs and learning rate among BASELINE_TUNE_GRID
       on an inner split of the training rows (a fifth held out, by
       `group`), the least log loss there, the first of equal ones; then
       train on all of them with it. Above tune_rows training rows, the
       inner split is drawn from about tune_rows of them (whole groups,
       dealt as the folds are), and the fit on all of them makes the
       updates the chosen epochs make over those, rounded up to whole
       epochs: ceil(epochs x tune_rows / training rows) (model_fit.
       tuned_epoch keeps the chosen ones). */
    bool tune;
    size_t tune_rows;          /* the cap on the tuning rows; 0 is
                                  BASELINE_TUNE_ROWS */
    fold_grouping group;
    /* Fits that may run side by side (the tuning grid's, the folds'):
       each is fastText with ft.threads, so with ft.threads 1 the results
       are the same bytes whatever jobs is; 0 or 1 runs them in turn. */
    size_t jobs;               /* at most BASELINE_MAX_JOBS are used */
    void (*progress)(const char *msg, void *user);  /* may be NULL */
    void *progress_user;
} baseline_config;

/* The most training rows the tuning grid is fitted on: a corpus the size
   of MedNLI or SNLI dev is tuned on all of its rows; SNLI train on about
   a tenth of them, and its settings then make the updates they made over
   those over every row, rounded up to whole epochs. */
enum { BASELINE_TUNE_ROWS = 50000 };

/* fastText trained on train rows as c says (tuned when c->tune), and,
   when fit is not NULL, its fit: the share of those rows it gets right
   (one more pass over them), the settings used. NULL with err set on
   failure. */
ft_model *baseline_train(const dataset *d, const size_t *train, size_t ntrain,
                         const baseline_config *c, model_fit *fit, tells_error *err);
/* Trains on train rows and predicts eval rows. */
int baseline_fit_predict(const dataset *d, const size_t *train, size_t ntrain,
                         const size_t *eval, size_t neval, const baseline_config *c,
                         predictions *out, tells_error *err);
/* K-fold cross-validation within rows, folds as cv_assign deals them
   (model/folds.h: by premise unless plan->group says none): every row is
   predicted once, by the model trained on the other folds. Predictions
   come in the order of rows, with their folds. */
int baseline_cross_validate(const dataset *d, const size_t *rows, size_t n,
                            const cv_plan *plan, const baseline_config *c,
                            predictions *out, tells_error *err);

/* Saves a model atomically (base/outfile.h: a temporary file beside path,
   synced, then renamed), so that a full disk leaves the old file and is
   an error. Unlike other outputs, "-" is a file of that name: a model is
   read back by name. */
int fasttext_save(ft_model *m, const char *path, tells_error *err);
/* The file fasttext_save writes for path ("./-" for "-"; NULL for NULL). */
const char *fasttext_model_path(const char *path);

#endif
