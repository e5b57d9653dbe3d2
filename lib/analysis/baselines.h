/* A baseline comparison: the majority class and fastText trained on one
   split of a dataset and evaluated on the others (or cross-validated
   within it), scored over whole splits and over partitions given as id
   files. A fastText model far above the majority class on the
   hypothesis alone means the corpus can be solved without the premise. */
#ifndef TELLS_BASELINES_H
#define TELLS_BASELINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/dataset.h"
#include "base/error.h"
#include "base/idfile.h"
#include "model/baseline.h"
#include "model/extpred.h"

/* Rows of a split whose id is in an id file, scored apart. */
typedef struct comparison_partition {
    const char *name;          /* not "full", which names the whole split */
    const char *path;          /* the id file */
} comparison_partition;

typedef struct comparison_config {
    const char *train;         /* the split to train on ["train"] */
    /* Splits to evaluate on, by name; NULL: every split but train. */
    const char *const *eval;
    size_t neval;
    /* > 0: K-fold cross-validation within the training split instead,
       its pooled held-out predictions reported as split "cv". */
    size_t folds;
    fold_grouping group;       /* the folds' groups [by premise] */
    baseline_input input;
    bool run_majority, run_fasttext;
    /* Majority label of each evaluated split, and of each partition's
       rows in it (the MedNLI reference code's majority class of each
       evaluated set). */
    bool majority_from_eval;
    ft_train_args ft;          /* ft.seed also seeds the folds' deal */
    bool tune;                 /* fastText's epochs and lr chosen on the
                                  training rows (baseline_config.tune) */
    size_t jobs;               /* fits side by side (baseline_config.jobs) */
    /* Keep the fastText model trained on the whole training split (also
       after cross-validation, which trains it for this alone). */
    bool keep_model;
    const comparison_partition *parts;
    size_t nparts;
    /* Predictions given in place of fastText's (a model trained
       elsewhere, model/extpred.h), read against given_corpus, a dataset
       with the ids of the one compared on: with folds, cross-fitted on
       the same folds (they are not checked here); else for the
       evaluated splits. Their entries are named given_name. NULL:
       fastText. */
    const ext_predictions *given;
    const dataset *given_corpus;
    const char *given_name;
    void (*progress)(const char *msg, void *user);  /* may be NULL */
    void *progress_user;
} comparison_config;

/* Training on "train", both models, fastText on the hypothesis with
   word bigrams and one thread (deterministic for a seed). */
void comparison_config_default(comparison_config *c);

/* One evaluated split of one model. */
typedef struct comparison_entry {
    const char *model;         /* "majority" or "fasttext" */
    const char *split;         /* a split name, or "cv" */
    predictions pred;
    /* With majority_from_eval, majority's predictions of each partition's
       rows (part_pred[k] for partition k): the majority label of the
       partition's rows of the split (with folds: of each fold), not the
       split's. NULL otherwise: the partition is scored on pred. */
    predictions *part_pred;
} comparison_entry;

typedef struct comparison {
    const dataset *data;
    baseline_input input;
    comparison_entry *entry;   /* majority's first, then fastText's */
    size_t n, cap;
    const char *predicted_by;  /* the model of the predictions file */
    ft_model *model;           /* with keep_model, else NULL */
    const char **part_name;
    id_set *part_ids;
    size_t *part_unknown;      /* per partition: ids no row of data has */
    size_t nparts;
} comparison;

/* Runs the models of c on d (which must outlive cmp): an unknown split,
   a training split of fewer than two examples or of one class, an
   unreadable id file, a partition without rows in an evaluated split
   (in "cv" with folds: the training split) or a failed model is an
   error, and then cmp holds nothing to free. Ids of a partition that no
   row of d has are counted in part_unknown, for the caller to warn
   about: a partition may cover more than d (AFLite over a larger
   corpus). */
int comparison_run(comparison *cmp, const dataset *d, const comparison_config *c,
                   tells_error *err);
void comparison_free(comparison *cmp);

/* The table: "model input split n micro_f1 macro_f1 accuracy", with
   partitions a partition column after split ("full" for the whole split)
   and the change of each score from the full split. details adds, after
   a blank line, a confusion matrix and per-class scores per entry, each
   block after a "# " line naming model, input and split. */
int comparison_write_table(FILE *fp, comparison *cmp, bool details, tells_error *err);
/* "id split gold predicted p_LABEL..." for every evaluated row of
   fastText (majority's when fastText did not run); labels in byte
   order. */
int comparison_write_predictions(FILE *fp, const comparison *cmp, tells_error *err);

#endif
