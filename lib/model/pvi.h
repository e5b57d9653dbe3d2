/* Pointwise V-information (Ethayarajh, Choi and Swayamdipta 2022,
   "Understanding Dataset Difficulty with V-Usable Information"), by
   cross-fitting: the examples are dealt into K folds as
   baseline_cross_validate deals them (model/folds.h: the hypotheses of a
   premise together unless group says none); for each fold, g_x is a fastText model trained on the other
   folds (on the hypothesis, or on premise and hypothesis) and g_null the
   label distribution of those folds, the optimum of a model that sees no
   input. For an example x of gold label y in the fold:
       PVI(x -> y) = -log2 g_null(y) + log2 g_x(y),
   and the V-information of the corpus (or of a class) is the mean PVI
   of its examples, with a bootstrap percentile interval (examples
   resampled with replacement, within the class for a class) and a
   one-sided one-sample t-test of mean PVI > 0: t = mean / (sd /
   sqrt(n)), n - 1 degrees of freedom, p = P(T >= t) (GSL's
   gsl_cdf_tdist_Q, from the tail's log where that is below 1e-250, so
   that a p under 1e-308 is still a number).

   Token-level artefacts (the paper's section 4.3): for every example and
   every distinct token of its hypothesis, the PVI drop when every
   occurrence of the token is deleted from the hypothesis, the fold's
   g_x and g_null unchanged: PVI(x -> y) - PVI(x without the token -> y),
   averaged per class over the examples holding the token. */
#ifndef TELLS_PVI_H
#define TELLS_PVI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/dataset.h"
#include "text/redact.h"
#include "base/error.h"
#include "model/baseline.h"
#include "stats/stattest.h"

enum { PVI_BOOTSTRAP_SAMPLES = 2000 };

typedef struct pvi_options {
    size_t folds;              /* K [5] */
    baseline_input input;      /* what g_x reads [hypothesis] */
    ft_train_args ft;          /* 1 thread for the same output every time */
    unsigned long seed;        /* the folds' deal and the bootstrap */
    fold_grouping group;       /* the folds' groups [GROUP_BY_PREMISE] */
    bool tokens;               /* also the token drops */
    bool tune;                 /* g_x's epochs and learning rate chosen on
                                  each fold's training rows, as
                                  baseline_config.tune (the study's) */
    size_t samples;            /* bootstrap resamples [PVI_BOOTSTRAP_SAMPLES] */
    size_t threads;            /* resamples drawn side by side: each has its
                                  own stream, so any number gives the same
                                  intervals [1] */
    /* pvi_from_probabilities: g_null's probabilities of every row (n x
       L, label ids), a model of empty inputs cross-fitted elsewhere;
       NULL: the label shares of each row's training folds [NULL] */
    const double *null_prob;
    double level;              /* of the interval [0.95] */
    void (*progress)(const char *msg, void *user);   /* may be NULL */
    void *progress_user;
} pvi_options;

void pvi_options_default(pvi_options *o);

/* The mean PVI of a set of examples, its interval and its test. */
typedef struct pvi_mean {
    size_t n;
    double mean, low, high;    /* the mean and its bootstrap interval */
    double sd;                 /* the sample standard deviation (NAN below 2) */
    bool tested;               /* n >= 2 and sd > 0: t is defined */
    double t;                  /* mean / (sd / sqrt(n)), NAN untested */
    pvalue p;                  /* one-sided one-sample t-test of mean > 0,
                                  n - 1 df; 1 untested */
} pvi_mean;

typedef struct pvi_token {
    size_t class_id, token;    /* dataset label id; id in pvi_result.tokens */
    size_t n;                  /* examples of the class holding the token */
    double drop;               /* mean PVI drop */
} pvi_token;

typedef struct pvi_result {
    size_t n;                  /* = the dataset's examples, in its order */
    double *pvi, *p_gold, *p_null;
    size_t *pred;              /* g_x's most probable label */
    size_t *fold;
    pvi_mean all;
    pvi_mean *by_class;        /* per dataset label id */
    size_t nclasses;
    vocab *tokens;             /* with opt.tokens */
    pvi_token *tok;            /* every class and token with an example */
    size_t ntok;
} pvi_result;

/* Every example of d. A data error when d has fewer examples than folds,
   or a fold's other folds lack the gold label of one of its examples. */
int pvi_run(const dataset *d, const pvi_options *o, pvi_result *out, tells_error *err);
void pvi_result_free(pvi_result *r);
/* PVI from g_x's probabilities computed elsewhere by the same
   cross-fitting (baseline_cross_validate over every row of d in order,
   with o->folds and o->seed): prob[i * L + l] is row i's probability of
   label id l, pred[i] its predicted label. No token drops. */
int pvi_from_probabilities(const dataset *d, const double *prob, const size_t *pred,
                           const pvi_options *o, pvi_result *out, tells_error *err);

/* "id gold pvi p_gold p_null predicted", 6 decimals. */
int pvi_write_examples(FILE *fp, const dataset *d, const pvi_result *r);
/* "class n v_info ci_low ci_high": "all" first, then the classes in byte
   order; 6 decimals. */
int pvi_write_summary(FILE *fp, const dataset *d, const pvi_result *r);
/* "class token n pvi_drop": classes in byte order, tokens by drop
   descending then by token, those in at least min_count examples of the
   class; at most top per class (0: all). A token the gate shown
   withholds (text/redact.h; NULL: none) is written "[withheld]". */
int pvi_write_tokens(FILE *fp, const dataset *d, const pvi_result *r, size_t min_count,
                     size_t top, const struct redact_gate *shown, tells_error *err);
/* The ids of the examples with PVI below threshold (low) or at least
   threshold (high), in dataset order, as idfile_write writes them. */
int pvi_write_ids(const char *path, const dataset *d, const pvi_result *r, double threshold,
                  bool low, tells_error *err);

#endif
