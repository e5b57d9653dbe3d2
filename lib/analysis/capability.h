/* Scoring capability tests and writing their reports: MFT cases must
   get their template's label, INV groups one prediction, DIR groups a
   class probability that moves the stated way. Also the held-out
   evaluation a pass rate is read beside: per-class recall, and the
   full set against easy/difficult partitions. */
#ifndef TELLS_CAPABILITY_H
#define TELLS_CAPABILITY_H

#include <stdbool.h>
#include <stdio.h>

#include "model/classifier.h"
#include "base/dataset.h"
#include "base/error.h"
#include "base/idfile.h"
#include "analysis/templates.h"
#include "text/tokenize.h"

/* Template labels to model classes: "FROM=TO,FROM=TO". */
typedef struct label_map {
    char **from, **to;
    size_t n;
} label_map;

int label_map_parse(label_map *m, const char *spec, tells_error *err);
void label_map_free(label_map *m);
const char *label_map_apply(const label_map *m, const char *label);

/* The input line of every case: its text (and premise, tab-separated),
   tokenised and joined by spaces as tells-prep does, or as written when
   tok is NULL. */
int case_lines(const case_set *cs, const tok_options *tok, char ***lines, tells_error *err);
void lines_free(char **lines, size_t n);
/* One text so (NULL when out of memory). */
char *input_line(const tok_options *tok, const char *text);

typedef struct run_results {
    size_t n, nclasses;
    size_t *pred;         /* class per case */
    double *prob;         /* n x nclasses, NAN when the model gave none */
    long *expected;       /* MFT: class per case; -1 otherwise */
    bool *pass;           /* per case: MFT its own; INV, DIR its group's */
} run_results;

/* Runs the model on every case in batches of batch lines. */
int run_cases(run_results *r, const case_set *cs, const template_set *s,
              const label_map *m, classifier *c, char *const *lines, size_t batch,
              tells_error *err);
void run_results_free(run_results *r);

/* Per-class recall on held-out data, by class index of the model (NAN
   for a class without gold examples); NULL when not evaluated. */
typedef struct report_context {
    const template_set *s;
    const case_set *cs;
    const run_results *r;
    const label_map *m;
    const classifier *c;
    const double *heldout_recall;
} report_context;

/* Summary: capability, label, type, placeholders, templates, cases,
   passed, pass_rate[, heldout_recall]; rows in order of first
   appearance. *below counts rows under fail_under (when >= 0). */
int report_summary(FILE *fp, const report_context *x, double fail_under, size_t *below);
int report_by_template(FILE *fp, const report_context *x);
/* Pass rates per value of placeholder name, per capability. */
int report_by_fill(FILE *fp, const report_context *x, const char *name, tells_error *err);
/* Failing cases as CSV. */
int report_failures(FILE *fp, const report_context *x);

/* Held-out evaluation of a model on rows of a prepared TSV. */
typedef struct heldout {
    const dataset *d;
    size_t *rows;
    size_t n;
    size_t *pred;         /* dataset label per row (labels the model
                             predicts but the data lacks are added) */
} heldout;

/* Predicts the rows of split (NULL: every row) with the hypothesis, or
   premise and hypothesis when pair. */
int heldout_predict(heldout *h, dataset *d, const char *split, bool pair, classifier *c,
                    size_t batch, tells_error *err);
void heldout_free(heldout *h);
/* Recall of each model class on the held-out rows. */
int heldout_recall(const heldout *h, const classifier *c, double *recall, tells_error *err);

/* partition, n, accuracy, micro_f1, macro_f1, recall_LABEL..., then
   change_* of each metric (the partition minus full). */
int report_partitions(FILE *fp, const heldout *h, char *const *names, id_set *parts,
                      size_t nparts, tells_error *err);

#endif
