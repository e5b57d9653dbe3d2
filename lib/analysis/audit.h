/* Auditing new annotation batches against a reference corpus: does a
   batch bring new or stronger shortcuts? Each check yields findings with
   a test; the p-values of one group (a batch file, or one annotator or
   batch value) form one family for Benjamini-Hochberg. */
#ifndef TELLS_AUDIT_H
#define TELLS_AUDIT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/baseline.h"
#include "stats/counts.h"
#include "base/dataset.h"
#include "base/error.h"
#include "analysis/heuristics.h"
#include "stats/stattest.h"
#include "base/u64map.h"

typedef struct audit_options {
    size_t folds;             /* cross-validation of the reference [5] */
    ft_train_args ft;         /* the hypothesis-only model */
    double alpha;             /* FDR level [0.05] */
    uint64_t min_count;       /* batch examples with a token to test it [5] */
    double pseudo;            /* reference pseudo-examples per token [10] */
    double predictable;       /* flag an example at p(gold) >= this [0.9] */
    size_t top_pmi;           /* reference top-PMI tokens per class [15] */
    /* Annotator heuristics to compare (tells-heur's), or NULL for none. */
    const heuristic_set *heuristics;
    void (*progress)(const char *msg, void *user);
    void *progress_user;
} audit_options;

void audit_options_default(audit_options *o);

/* What the reference contributes: counts, its own predictability by
   cross-validation, its top-PMI tokens, and its hypotheses for duplicate
   detection. */
typedef struct audit_reference {
    dataset data;
    token_counts tokens;       /* hypothesis, per class */
    ft_model *model;
    double cv_accuracy, cv_gold_prob;
    size_t cv_n;
    vocab *tells;              /* top-PMI tokens */
    u64map exact, near;        /* hypothesis hashes -> reference row + 1 */
    double *heur;              /* [heuristic * labels + label]: pairs that
                                  satisfy it, when audit_options.heuristics */
} audit_reference;

/* Loads the reference; model_path, when given, is a model saved by
   audit_save_model (its cross-validated figures travel beside it in
   MODEL.ref), else the model is trained here. */
int audit_reference_load(audit_reference *ref, const char *path,
                         const char *model_path, const audit_options *o,
                         tells_error *err);
/* Saves the reference model and MODEL.ref, atomically. */
int audit_save_model(const audit_reference *ref, const char *path,
                     tells_error *err);
void audit_reference_free(audit_reference *ref);

typedef struct finding {
    char check[160];           /* "predictability", "token:stat", ... */
    bool weaker;               /* a difference the other way: not a finding */
    double batch, reference;   /* the compared values */
    bool tested;
    test_result test;
    pvalue q;                  /* BH-adjusted within the group */
    bool significant;
    char detail[256];
} finding;

typedef struct example_flags {
    size_t row;
    double p_gold;
    char flags[512];
    int nflags;
} example_flags;

typedef struct audit_group {
    char name[256];
    const dataset *data;
    size_t *rows;
    size_t n;
    finding *f;
    size_t nf, fcap;
    example_flags *ex;         /* [n], worst first after audit_group_run */
} audit_group;

/* Runs every check on the rows of one group. */
int audit_group_run(audit_group *g, const audit_reference *ref,
                    const audit_options *o, tells_error *err);
void audit_group_free(audit_group *g);

void audit_write_summary_header(FILE *fp);
void audit_write_summary(FILE *fp, const audit_group *g);
void audit_write_flags_header(FILE *fp);
void audit_write_flags(FILE *fp, const audit_group *g);

#endif
