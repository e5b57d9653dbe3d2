/* Cross-validation folds that keep the hypotheses of one premise
   together, dealt from hashes so that they follow the examples wherever
   they sit.

   In an NLI corpus a premise usually has several hypotheses, often one of
   each label (SNLI dev: 3,159 of its 3,319 premises have three). Folds
   dealt by row put a test row's siblings in training carrying the other
   labels, and a model that reads the premise learns that leak backwards;
   even a hypothesis-only model gains or loses from it. So the default
   groups by premise: examples with the same premise text (byte for byte,
   as prepared) are one group, and a group's examples share a fold.

   The deal: each group's key is the first 8 bytes of the SHA-256 of its
   premise (GROUP_BY_PREMISE) or of the example's id (GROUP_BY_NONE), and
   examples are grouped by key (two texts whose keys agree would share a
   fold: about one chance in 4 x 10^7 for a million premises); the
   groups are taken in the order of their keys' hashes in the seed's fold
   stream (stats/subsample.h), equal hashes by key, and each goes to the
   fold with the fewest examples so far (the lowest-numbered of equal
   ones). Folds then differ
   in size by at most the largest group, and the same examples in any
   order get the same folds. */
#ifndef TELLS_MODEL_FOLDS_H
#define TELLS_MODEL_FOLDS_H

#include <stddef.h>

#include "base/dataset.h"
#include "base/error.h"

typedef enum { GROUP_BY_PREMISE, GROUP_BY_NONE } fold_grouping;

typedef struct cv_plan {
    size_t folds;              /* K */
    unsigned long seed;
    fold_grouping group;       /* [GROUP_BY_PREMISE] */
} cv_plan;

/* "premise" or "none". */
const char *fold_grouping_name(fold_grouping g);
/* 0 and *g set for "premise" or "none", -1 otherwise. */
int fold_grouping_parse(const char *s, fold_grouping *g);

/* Which split trains and which is scored, as the study, the baselines of
   tells-pairs and its classifier choose: with a training split (train, or
   one named "train") and another, train on it and score eval (given, else
   "test", else "dev", else the first other split): *train_out and
   *eval_out set to names in splits, returns 1. Otherwise
   cross-validation over every row: returns 0. Errors: a split the corpus
   lacks (a data error naming its splits), the same split for both, an
   eval or a train without another split (usage errors). */
int split_design(const vocab *splits, const char *train, const char *eval,
                 const char **train_out, const char **eval_out, tells_error *err);

/* fold[j] (0 .. K-1) for each of the n rows of d in rows. A usage error
   for K < 2; a data error when the rows hold fewer groups than folds. */
int cv_assign(const dataset *d, const size_t *rows, size_t n, const cv_plan *p,
              size_t *fold, tells_error *err);

#endif
