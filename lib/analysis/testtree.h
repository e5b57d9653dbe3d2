/* AdaTest test trees (Ribeiro and Lundberg 2022, microsoft/adatest), in
   either of AdaTest's CSV formats:

   - the current one (topic, input, output, label): label "pass" says the
     output is right for the input, "fail" that it is wrong. AdaTest's
     rule for a model whose output differs from the row's
     (adatest/_test_tree_browser.py, _compute_embeddings_and_scores: the
     row's score becomes NaN, and the new output is a new row left for
     labelling) makes such a row unscored: it is "changed", neither a pass
     nor a failure. TREE_CHANGED_FLIP instead scores it as a classifier
     with one right class per input would: a pass row fails, a fail row
     passes.
   - the format of the paper's time (topic, type, value1, value2, value3):
     "{} should output {}" passes when the model predicts value2 for
     value1, "{} should not output {}" when it does not, and "{} should
     have the same output as {}" (an invariance test, f(x) = f(x')) when
     value1 and value2 get one prediction.

   Rows of other labels or types (topic markers among them) are skipped.
   Failure rates are reported per topic, a topic counting the tests of
   its subtopics (/a/b in /a), and pooled over several runs of a model
   (seeds); two models are compared topic by topic. */
#ifndef TELLS_TESTTREE_H
#define TELLS_TESTTREE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "model/classifier.h"

typedef enum {
    TREE_LABELLED,      /* current format: output and label */
    TREE_SHOULD_OUTPUT, /* "{} should output {}" */
    TREE_SHOULD_NOT,    /* "{} should not output {}" */
    TREE_SAME_OUTPUT    /* "{} should have the same output as {}" */
} tree_kind;

typedef struct tree_test {
    char *topic, *input;
    char *output;         /* NULL for TREE_SAME_OUTPUT */
    char *input2;         /* TREE_SAME_OUTPUT's second input, else NULL */
    tree_kind kind;
    /* Whether a model answering output (for an invariance test, one
       answer for both inputs) passes: label "pass", "should output" and
       invariance tests. */
    bool expect_pass;
    size_t first;         /* index of its (first) input in inputs */
    long line;
} tree_test;

typedef struct test_tree {
    tree_test *t;
    size_t n;
    const char **inputs;  /* every input in test order (two for an
                             invariance test), pointing into t */
    size_t ninputs;
    size_t skipped;       /* topic markers, rows of other labels or types */
    bool paper_format;    /* type and value columns */
    char *source;
} test_tree;

int tree_load(test_tree *tr, const char *path, tells_error *err);
void tree_free(test_tree *tr);

/* What a model's run makes of a test. */
enum { TREE_PASS, TREE_FAIL, TREE_CHANGED };

typedef enum { TREE_CHANGED_SKIP, TREE_CHANGED_FLIP } tree_changed_rule;

/* outcome[i] (TREE_PASS, TREE_FAIL or TREE_CHANGED) of test i for a
   model predicting pred[k] (a class name) for inputs[k]. */
void tree_judge(const test_tree *tr, const char *const *pred, tree_changed_rule rule,
                unsigned char *outcome);

/* Runs c on lines (one per input, in batches of batch) and gives
   *outcome, a new array of tree_judge's outcomes. */
int tree_failures(const test_tree *tr, classifier *c, char *const *lines, size_t batch,
                  tree_changed_rule rule, unsigned char **outcome, tells_error *err);

/* topic, tests, failures, failure_rate, changed; topics in order of first
   appearance, each after its parent, then "(all)". runs: the outcomes of
   nruns runs of one model (seeds), pooled: failures and changed are summed
   over the runs, and failure_rate is failures over the scored (not
   changed) test runs ("nan" when there are none). */
int tree_report_runs(FILE *fp, const test_tree *tr, const unsigned char *const *runs,
                     size_t nruns, tells_error *err);

typedef struct tree_compare_options {
    double threshold;       /* a topic fails when its rate is above it */
    double alpha;           /* FDR level */
    size_t samples;         /* bootstrap resamples */
    unsigned long seed;
} tree_compare_options;

/* The AdaTest paper's settings: threshold 0.2, 5,000 resamples. */
#define TREE_THRESHOLD_DEFAULT 0.2
#define TREE_SAMPLES_DEFAULT 5000

/* Per topic (as tree_report): failures and pooled rates before and
   after, the change, the p-value of the change from a paired bootstrap
   over the topic's tests (each resample draws tests with replacement,
   gsl_rng_uniform_int on mt19937 seeded with seed, every run of a drawn
   test with it; two-sided, |d* - d| >= |d| as tells-stat's paired
   bootstrap, which it equals for one run each and no changed rows), its
   Benjamini-Hochberg q-value over topics, a status: "fixed" when the rate
   went from above threshold to at most it, "broken" the other way, each
   only when q < alpha, else "-"; and the changed test runs before and
   after. */
int tree_compare_runs(FILE *fp, const test_tree *tr, const unsigned char *const *before,
                      size_t nbefore, const unsigned char *const *after, size_t nafter,
                      const tree_compare_options *o, tells_error *err);

#endif
