/* AdaTest test trees: a CSV of tests (topic, input, output, label),
   where label "pass" says the output is right for the input and "fail"
   that it is wrong. A model fails a pass test when it predicts anything
   but the output, and a fail test when it predicts the output. Reports
   failure rates per topic, and compares two models topic by topic. */
#ifndef TELLS_TESTTREE_H
#define TELLS_TESTTREE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "model/classifier.h"

typedef struct tree_test {
    char *topic, *input, *output;
    bool expect_pass;     /* label "pass" */
    long line;
} tree_test;

typedef struct test_tree {
    tree_test *t;
    size_t n;
    size_t skipped;       /* topic markers and rows labelled neither
                             pass nor fail */
    char *source;
} test_tree;

int tree_load(test_tree *tr, const char *path, tells_error *err);
void tree_free(test_tree *tr);

/* failed[i]: whether the model predicting pred[i] (a class name) for
   test i fails it. */
void tree_outcomes(const test_tree *tr, const char *const *pred, bool *failed);

/* Runs c on lines (the input of each test, in batches of batch) and
   gives *failed, a new array of tree_outcomes. */
int tree_failures(const test_tree *tr, classifier *c, char *const *lines, size_t batch,
                  bool **failed, tells_error *err);

/* topic, tests, failures, failure_rate; the last row "(all)". */
int tree_report(FILE *fp, const test_tree *tr, const bool *failed, tells_error *err);

typedef struct tree_compare_options {
    double threshold;       /* failure rate that separates ok from failing */
    double alpha;           /* FDR level */
    size_t samples;         /* bootstrap resamples */
    unsigned long seed;
} tree_compare_options;

/* Per topic: failures and rates before and after, the change, the
   paired-bootstrap p-value of the change in failure rate (tells-stat's),
   its Benjamini-Hochberg q-value over topics, and a status: "fixed"
   when the rate went from at least threshold to below it, "broken" the
   other way, each only when q < alpha; else "-". */
int tree_compare(FILE *fp, const test_tree *tr, const bool *before, const bool *after,
                 const tree_compare_options *o, tells_error *err);

#endif
