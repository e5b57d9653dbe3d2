/* The whole artifact study of one corpus (tells-study): every analysis of
   tells with the settings of the MedNLI study scaled to the corpus, the
   verdicts they add up to (analysis/verdicts.h) and the report
   (analysis/report.h), written into one folder.

   Files in the folder (every table TSV with a header):
     prepared.tsv      the corpus as tells-prep writes it
     pmi.tsv           top 15 tokens per class by PMI (add-100, min count 5)
     logodds.tsv       log-odds with an informative Dirichlet prior, class
                       against the rest (stats/logodds.h)
     competency.tsv    the competency test of every token in 5 or more
                       hypotheses (stats/competency.h)
     len.tsv           hypothesis length by class
     heur.tsv, heur-pairs.tsv   the annotator heuristics and their pairs
     baseline.tsv, predictions.tsv   majority against hypothesis-only
                       fastText (with details), and the latter's
                       predictions
     pair-baseline.tsv the premise+hypothesis model on the same split(s)
     vectors.bin, hypothesis.npy   skipgram vectors (trained on the corpus
                       unless given) and the averaged hypothesis vectors
     aflite.tsv, aflite-scores.tsv, easy.ids, difficult.ids (+ .sha256)
     all.tsv, partitions.tsv    every row cross-validated, scored in full
                       and on each partition
     pvi.tsv, pvi-summary.tsv, low-pvi.ids, high-pvi.ids   pointwise
                       V-information from partitions.tsv's models
                       (model/pvi.h)
     carto.tsv, carto-easy.ids, carto-ambiguous.ids, carto-hard.ids
                       dataset cartography (model/carto.h)
     compare-partitions.tsv   each partition scheme's accuracy and the
                       Jaccard overlaps of AFLite's, PVI's and
                       cartography's partitions
     hypothesis.bin, hypothesis-baseline.tsv, heldout.tsv   with train and
                       test splits: one hypothesis-only model scored on
                       test in full and by partition
     batch-K.tsv, audit-K.tsv, flags-K.tsv   per --batch
     summary.tsv       the verdicts
     report.html, figures/   the report and its figures' data and scripts
   Which split trains and which is evaluated follows the corpus: with a
   split named "train" and another, train on train and evaluate on "test"
   (else "dev", else the first other split); otherwise K-fold
   cross-validation over every row. */
#ifndef TELLS_STUDY_H
#define TELLS_STUDY_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/heuristics.h"
#include "analysis/verdicts.h"
#include "base/error.h"
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
    char *const *batches;          /* new annotation batches to audit */
    size_t nbatches;
    const char *train;             /* the split to train on [train, when there is
                                      another split] */
    const char *eval;              /* the split the verdicts score [test, else dev,
                                      else the first other split] */
    size_t folds;                  /* without train and test splits [5] */
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
size_t study_steps(const study_result *r, const study_step **steps);

#endif
