/* Auditing new annotation batches against a reference corpus: does a
   batch bring new or stronger shortcuts? Each check yields findings with
   a test; the p-values of one group (a batch file, or one annotator or
   batch value) form one family for Benjamini-Hochberg. */
#ifndef TELLS_AUDIT_H
#define TELLS_AUDIT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/baseline.h"
#include "model/folds.h"
#include "stats/counts.h"
#include "base/dataset.h"
#include "base/error.h"
#include "analysis/heuristics.h"
#include "text/pairshape.h"
#include "stats/stattest.h"
#include "base/u64map.h"

typedef struct audit_options {
    size_t folds;             /* cross-validation of the reference [5] */
    fold_grouping group;      /* the folds' groups [by premise] */
    ft_train_args ft;         /* the hypothesis-only model */
    double alpha;             /* FDR level [0.05] */
    uint64_t min_count;       /* batch examples with a token to test it [5] */
    double pseudo;            /* reference pseudo-examples per token [10] */
    double predictable;       /* flag an example at p(gold) >= this [0.9] */
    size_t top_pmi;           /* reference top-PMI tokens per class [15] */
    /* Annotator heuristics to compare (tells-heur's), or NULL for none. */
    const heuristic_set *heuristics;
    /* The pair features (text/pairshape.h) to compare, or NULL for none:
       by class, the overlap (Welch's t) and the share adding a negation
       (flag_class_test, batch against corpus): pair:overlap:CLASS,
       pair:negation:CLASS. */
    pair_shaper *pairs;
    /* --redact: the tokens a finding may name (text/redact.h); the
       others are named token:[withheld]. NULL: every token. */
    const struct redact_gate *shown;
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
    /* The reference rows the model was trained on: those of every
       cross-validation fold but the first, as many as each fold's model
       had, so that the batch and the reference are scored by models
       trained on as much (0 when loaded from a file). */
    size_t model_n;
    vocab *tells;              /* top-PMI tokens */
    u64map exact, near;        /* hypothesis hashes -> reference row + 1 */
    double *heur;              /* [heuristic * labels + label]: pairs that
                                  satisfy it, when audit_options.heuristics */
    double *pair_x;            /* every row's pair features, when
                                  audit_options.pairs */
} audit_reference;

/* Loads the reference; model_path, when given, is a model saved by
   audit_save_model (its cross-validated figures travel beside it in
   MODEL.ref), else the model is trained here. A reference without
   examples, or of one class, is an error. */
int audit_reference_load(audit_reference *ref, const char *path,
                         const char *model_path, const audit_options *o,
                         tells_error *err);
/* Saves the reference model and MODEL.ref, atomically and as a pair:
   both are written in full before either replaces an old file. */
int audit_save_model(const audit_reference *ref, const char *path,
                     tells_error *err);
void audit_reference_free(audit_reference *ref);

typedef struct finding {
    char check[160];           /* "predictability", "token:stat", ... */
    char shown[160];           /* the name outputs give it: check, or
                                  "token:[withheld]" under --redact */
    char *token;               /* a token check's token, whole (check may
                                  cut a long one short); else NULL */
    bool weaker;               /* a difference the other way: not a finding */
    double batch, reference;   /* the compared values */
    bool tested;
    test_result test;
    pvalue q;                  /* BH-adjusted within the group */
    bool significant;
    char detail[256];
    /* What the compared values are, with the class and the counts, as
       words ("0.796 of the batch's 58 rows with it are contradiction,
       against 0.387 of 1203 in the corpus"): set by every check that
       tests; empty for a finding without a test. */
    char says[256];
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

/* ---- a whole audit: the groups of every batch ---- */

typedef struct audit_report {
    dataset **batches;
    size_t nbatches, batch_cap;
    audit_group *groups;       /* in order of batch, then of name */
    size_t ngroups, group_cap;
} audit_report;

/* Loads the batch at path (at least one example) and adds its groups:
   the whole file, or one per value of column group_column (NULL: none)
   in byte order, named by the file, the value, or "FILE:VALUE" when
   name_by_file. */
int audit_report_add_batch(audit_report *rep, const char *path, const char *group_column,
                           bool name_by_file, tells_error *err);
/* Runs every group, telling o->progress "auditing NAME (N examples)". */
int audit_report_run(audit_report *rep, const audit_reference *ref,
                     const audit_options *o, tells_error *err);
void audit_report_free(audit_report *rep);

/* out_writers for an audit_report: the summary "group check batch
   reference statistic df p_value q_value significant detail" (tokens
   only when significant; p and q with 3 significant digits, as the
   study's summary.tsv shows the same q), and the flags "group id gold p_gold flags" of
   every example, worst first within a group. */
int audit_summary_write(FILE *fp, void *report, tells_error *err);
int audit_flags_write(FILE *fp, void *report, tells_error *err);

/* ---- gates: the kinds of finding that fail an audit ---- */

typedef enum audit_gate {
    AUDIT_GATE_ANY, AUDIT_GATE_PREDICTABILITY, AUDIT_GATE_TOKENS, AUDIT_GATE_TELL_SHARE,
    AUDIT_GATE_BALANCE, AUDIT_GATE_LENGTH, AUDIT_GATE_DUPLICATES, AUDIT_GATE_HEURISTICS,
    AUDIT_NGATES
} audit_gate;

/* "any", "predictability", "tokens", "tell-share", "balance", "length",
   "duplicates", "heuristics". */
const char *audit_gate_name(audit_gate g);
/* The gate of that name, or -1. */
int audit_gate_find(const char *name);
/* Whether finding f fails one of gates (bits 1 << audit_gate): it is
   significant (a duplicate: there is one) and of a kind gated, or any
   kind is. */
bool audit_gate_fails(const finding *f, unsigned gates);

#endif
