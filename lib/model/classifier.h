/* The models tells-run tests, behind one interface: a fastText .bin
   (through the shim), a long-running command that answers one line per
   case (how a transformer in Python is tested), or a file of predictions
   made elsewhere from the cases tells-run wrote. Every back-end sees the
   same input lines, so the three give the same report for the same
   answers. An input line is one text, or a premise and a hypothesis
   separated by a tab. */
#ifndef TELLS_CLASSIFIER_H
#define TELLS_CLASSIFIER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "model/modelcmd.h"

typedef struct classifier classifier;

/* The model's classes: from the .bin for fastText; for a command or a
   predictions file, the given list (the order of probabilities in an
   answer). */
int classifier_open_fasttext(classifier **c, const char *path, tells_error *err);
int classifier_open_command(classifier **c, const char *command, char *const *classes,
                            size_t nclasses, tells_error *err);
int classifier_open_predictions(classifier **c, const char *path, char *const *classes,
                                size_t nclasses, tells_error *err);

size_t classifier_nclasses(const classifier *c);
const char *classifier_class(const classifier *c, size_t k);
/* Index of a class by name, -1 when the model has no such class. */
long classifier_find(const classifier *c, const char *name);

/* Predicts lines[0..n): label[i] is a class index; prob[i * nclasses + k]
   the probability of class k, NAN for every class when the model gave
   none. An answer is "LABEL" or "LABEL P1 ... PK" (one probability per
   class, in class order; spaces or tabs), as CheckList's pred_only and
   pred_and_softmax files; the probabilities must be one distribution
   (base/number.h: each from 0 to 1, summing to 1 within
   PROB_SUM_TOLERANCE), and an answer valid UTF-8 without NUL bytes. A
   predictions file is consumed in order across calls; one that ends
   first is an error tagged TELLS_E_FEW_ANSWERS. */
int classifier_predict(classifier *c, const char *const *lines, size_t n, size_t *label,
                       double *prob, tells_error *err);
/* classifier_predict on lines[0..n) in batches of batch lines (all at
   once when batch is 0); prob may be NULL when only labels are wanted. */
int classifier_predict_all(classifier *c, const char *const *lines, size_t n, size_t batch,
                           size_t *label, double *prob, tells_error *err);
/* Checks that a command exited cleanly and a predictions file was used
   up, and frees c. */
int classifier_finish(classifier *c, tells_error *err);
/* Frees c without checks (kills a command). NULL is fine. */
void classifier_abort(classifier *c);

/* For a model command: its timeout and where its stderr lines go (see
   model/modelcmd.h); nothing for the other back-ends. */
void classifier_command_options(classifier *c, const model_cmd_options *o);
/* The number of cases the run will ask c for in all, so that a model
   command's messages count across the run and its input ends with the
   last case; nothing for the other back-ends. */
void classifier_expect(classifier *c, size_t total);

#endif
