/* The whole artifact study of one corpus (tells-study): every analysis of
   tells with the settings of the MedNLI study scaled to the corpus, the
   verdicts they add up to (study/verdicts.h) and the report
   (study/report.h), written into one folder.

   The study is a table of sections (study/core.h, study/sections.c), run
   in order: each writes its own files, adds its own rows to summary.tsv
   and its own part of the report, and describes both (study_step_at,
   study_check_at: what tells-study --help lists).
   Which split trains and which is evaluated follows the corpus: with a
   split named "train" and another, train on train and evaluate on "test"
   (else "dev", else the first other split); otherwise K-fold
   cross-validation over every row. */
#ifndef TELLS_STUDY_H
#define TELLS_STUDY_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/heuristics.h"
#include "study/verdicts.h"
#include "base/error.h"
#include "model/folds.h"
#include "text/prep.h"

/* The most classes a corpus may have. AFLite's logistic regressions,
   warm-started from round to round, precondition with the Hessian of all
   the classes' weights together: about 48 (K (d + 1))^2 bytes for K
   classes of d-dimensional vectors, and (K (d + 1))^3 / 3 operations to
   factor it. At 32 classes of the study's 100-d vectors that is 0.5 GB
   and seconds; it grows with the square and the cube of the classes (5
   GB at 100 classes, and 100,000 classes, one per example, would run
   until killed). The other steps grow linearly with the classes (fastText's
   softmax, predictions.tsv's probability columns, the report's panel per
   class), but for the confusion matrix (K^2 counts). study_run checks it
   as soon as the corpus is read. */
enum { STUDY_MAX_CLASSES = 32 };

/* The words the study's vectors train as skipgram centres (--vector-
   centres): AUTO, the hypotheses' words when they are under
   STUDY_CENTRES_SHARE of the text's tokens and every word otherwise;
   HYPOTHESIS, the hypotheses' words, the only vectors AFLite and
   cartography average; ALL, every word, as fastText trains. */
typedef enum { STUDY_CENTRES_AUTO, STUDY_CENTRES_HYPOTHESIS, STUDY_CENTRES_ALL } study_centres;
#define STUDY_CENTRES_SHARE 0.25

typedef struct study_config {
    const char *name;              /* the corpus's name in the report */
    /* The corpus: a prepared TSV as it is, or inputs prepared with prep
       (and phrase_files / mesh_terms merged, as tells-prep --phrases and
       --mesh). Batches are prepared the same way unless they are
       prepared TSVs already. */
    const char *prepared;
    const prep_input *inputs;
    size_t ninputs;
    prep_options prep;
    char *const *phrase_files;
    size_t nphrase_files;
    const char *mesh_terms;
    heur_sources heur;             /* the heuristics' MeSH tree and definitions */
    const char *vectors;           /* word vectors to use, or NULL to train them */
    const char *negation;          /* the pair features' negation cues
                                      (text/pairshape.h), or NULL: none */
    /* A hypothesis-only model trained elsewhere (model/extpred.h), in
       place of fastText: its predictions of every row, cross-fitted on
       the study's folds (folds.tsv's fold), and with a training split
       its predictions of the evaluated split by the model trained on
       the training split (folds.tsv's role); named model_name. */
    const char *hypothesis_predictions;
    const char *hypothesis_eval_predictions;
    const char *model_name;        /* [the predictions file's name] */
    /* A premise-aware model trained elsewhere, in place of the
       pair-features fastText: its predictions of the evaluated examples
       (cross-fitted over every row when cross-validating, else of the
       evaluated split by the model trained on the training split). */
    const char *pair_predictions;
    /* PVI's g_null trained elsewhere (a model of empty inputs): its
       predictions of every row, cross-fitted on the study's folds; NULL:
       the label shares of each row's training folds. */
    const char *null_predictions;
    /* Embeddings of the hypotheses made elsewhere (a .npy matrix, one
       row per example: in the prepared order, or in embeddings_ids's),
       for AFLite and cartography in place of averaged word vectors. */
    const char *embeddings;
    const char *embeddings_ids;
    /* A training run's dynamics (a folder of epoch files, as tells-carto
       reads them) for cartography in place of its own training. */
    const char *dynamics;
    bool folds_only;               /* prepare, write folds.tsv and stop */
    /* A folder that can be shared under a data-use agreement: no text of
       the corpus in any file, tokens only when they occur in examples of
       at least min_examples premises, the prepared corpus and every
       per-example text table left out, paths cut to file names; checked
       by the leak check (text/redact.h) before study_run returns. */
    bool redact;
    size_t min_examples;           /* [REDACT_MIN_EXAMPLES] */
    const char *id_key;            /* a key file: ids replaced by their
                                      keyed hash (text/redact.h); NULL: kept */
    const char *command;           /* the command line, shell-quoted, for
                                      run.json and the report; or NULL */
    const char *keep_vectors;      /* the trained vectors kept as "vec" (the
                                      trained words, text) or "bin" (the
                                      fastText model); NULL: not kept */
    int vector_epochs;             /* the trained vectors' epochs; 0: sized
                                      to the corpus (embed_auto_epochs) */
    study_centres vector_centres;  /* the words the trained vectors train
                                      as skipgram centres */
    char *const *batches;          /* new annotation batches to audit */
    size_t nbatches;
    const char *train;             /* the split to train on [train, when there is
                                      another split] */
    const char *eval;              /* the split the verdicts score [test, else dev,
                                      else the first other split] */
    size_t folds;                  /* without train and test splits [5] */
    fold_grouping group;           /* the folds' groups [by premise] */
    int epoch;                     /* fastText's, fixed; 0: chosen on the
                                      training rows (with lr) */
    double lr;                     /* fastText's, fixed; 0: chosen */
    int threads;                   /* logistic regressions, counting [1] */
    unsigned long seed;            /* [1] */
    double alpha;                  /* false discovery rate of the verdicts [0.05] */
    double token_alpha;            /* the competency test's level [0.01] */
    bool class_prior;              /* competency p0: class shares, not 1/K */
    bool figures;                  /* draw figures (needs gnuplot) [true] */
    const char *gnuplot;           /* the gnuplot program ["gnuplot"] */
    /* Called at each step with "STEP" and after it with its time. */
    void (*progress)(const char *msg, void *user);
    void *progress_user;
} study_config;

void study_config_default(study_config *c);

typedef struct study_step {
    char name[32];
    double seconds;
} study_step;

typedef struct study_result study_result;

/* Runs the study into dir (an existing, empty folder); on failure dir
   holds what was written so far. A corpus of one class or of more than
   STUDY_MAX_CLASSES is bad data, found before any step but the corpus's
   preparation. *out (free with study_result_free)
   keeps the verdicts and the step times. */
int study_run(const study_config *c, const char *dir, study_result **out, tells_error *err);
void study_result_free(study_result *r);
const verdicts *study_verdicts(const study_result *r);

/* What a step of the study does and writes, for --help: NULL past the
   last. */
typedef struct study_step_doc {
    const char *name;              /* "tokens" */
    const char *writes;            /* "pmi.tsv, competency.tsv: ..." */
} study_step_doc;
const study_step_doc *study_step_at(size_t i);

/* One check of summary.tsv: its name ("hypothesis_only", or a pattern
   such as "token:W:CLASS"), its one-line definition (--help, README),
   and how the report reads its rows: the words after the sentence when
   significant and when not, whether significance is good news (the
   premise helping), whether its rows go in the report's list of
   verdicts (all, only the significant ones, none), and the headline it
   gives the report when it has one. */
typedef enum { CHECK_LIST_ALL, CHECK_LIST_SIGNIFICANT, CHECK_LIST_NONE } study_check_list;
typedef struct study_check {
    const char *name;
    const char *definition;
    const char *yes, *no;
    bool good_if_significant;
    study_check_list list;
    const char *headline_yes, *headline_no;
    /* The id of the report's section that lists its rows in a table of
       its own ("tokens"), instead of the table of all findings. */
    const char *own_table;
} study_check;
/* The checks of every step, in the order of summary.tsv; NULL past the
   last. */
const study_check *study_check_at(size_t i);

#endif
