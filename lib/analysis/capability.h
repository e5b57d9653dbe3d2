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
#include "base/vocab.h"
#include "analysis/templates.h"
#include "analysis/testtree.h"
#include "text/tokenize.h"

/* Template labels to model classes: "FROM=TO,FROM=TO". */
typedef struct label_pair {
    char *from, *to;
} label_pair;

typedef struct label_map {
    label_pair *pair;
    size_t n, cap;
} label_map;

/* Adds the pairs of spec; an item that is not FROM=TO is a usage error. */
int label_map_parse(label_map *m, const char *spec, tells_error *err);
void label_map_free(label_map *m);
/* The class a label maps to (the last pair for it wins), else label. */
const char *label_map_apply(const label_map *m, const char *label);

/* ---- the classes of a model that does not name its own ---- */

typedef struct class_list {
    char **name;
    size_t n, cap;
} class_list;

/* The classes for a model command or a predictions file: those of spec
   (comma-separated, in its order) when it is not NULL, else every label
   the tests and the held-out data name, in byte order: the MFT labels
   after m, the DIR classes, the tree's outputs and d's labels (ts, tr
   and d may be NULL). A spec that is empty, has an empty item or names a
   class twice is a usage error. */
int class_list_default(class_list *out, const char *spec, const template_set *ts,
                       const label_map *m, const test_tree *tr, const dataset *d,
                       tells_error *err);
void class_list_free(class_list *l);

/* ---- input lines ---- */

/* The line a model reads per case: its text (and premise, tab-separated),
   tokenised and joined by spaces as tells-prep does, or as written when
   tok is NULL; no other tab and no line end. */
typedef struct input_lines {
    char **v;
    size_t n;
} input_lines;

int case_lines(const case_set *cs, const tok_options *tok, input_lines *out, tells_error *err);
/* Every input of a tree (tr->inputs: two for an invariance test). */
int tree_lines(const test_tree *tr, const tok_options *tok, input_lines *out,
               tells_error *err);
void input_lines_free(input_lines *l);
/* Writes the lines, one each, to path (atomically; "-" standard output):
   the cases for a model run elsewhere. */
int input_lines_write(const char *path, const input_lines *l, tells_error *err);
/* Writes the lines to fp (a write error shows when fp is committed). */
void input_lines_print(FILE *fp, const input_lines *l);

/* ---- scoring ---- */

typedef struct run_results {
    size_t n, nclasses;
    size_t *pred;         /* class per case */
    double *prob;         /* n x nclasses, NAN when the model gave none */
    long *expected;       /* MFT: class per case; -1 otherwise */
    bool *pass;           /* per case: MFT its own; INV, DIR its group's */
} run_results;

/* Runs the model on every case in batches of batch lines. An MFT label
   (after m) that is not a class of the model is an error tagged
   TELLS_E_NOT_A_CLASS with the label. */
int run_cases(run_results *r, const case_set *cs, const template_set *s,
              const label_map *m, classifier *c, char *const *lines, size_t batch,
              tells_error *err);
void run_results_free(run_results *r);

/* What the reports read. heldout_recall: per-class recall on held-out
   data, by class index of the model (NAN for a class without gold
   examples); NULL when not evaluated. */
typedef struct report_context {
    const template_set *s;
    const case_set *cs;
    const run_results *r;
    const label_map *m;
    const classifier *c;
    const double *heldout_recall;
    /* --redact: no text (the templates' and the cases'): --by-template
       without its text column, the failures without premise and text. */
    bool redacted;
} report_context;

/* The summary's rows: one per capability, label, type and placeholder
   set, in order of first appearance. */
typedef struct summary_row {
    const char *key;      /* capability, label ("-" for none), type and
                             placeholders, tab-separated */
    size_t templates;     /* templates kept by per-base sampling */
    size_t cases, passed;
    size_t first;         /* the row's first template */
} summary_row;

typedef struct summary {
    summary_row *row;
    size_t n, cap;
    vocab *keys;
} summary;

int summary_compute(summary *sm, const report_context *x, tells_error *err);
void summary_free(summary *sm);
/* Rows with cases whose pass rate is below rate. */
size_t summary_below(const summary *sm, double rate);

/* The writers below fail only when out of memory (err set); a write
   error shows when the output is committed. */

/* Summary: capability, label, type, placeholders, templates, cases,
   passed, pass_rate[, heldout_recall]. */
int report_summary(FILE *fp, const report_context *x, tells_error *err);
int report_by_template(FILE *fp, const report_context *x, tells_error *err);
/* Pass rates per value of placeholder name, per capability, then for
   all. A name no case fills is a data error "NAME: no template uses
   {NAME}". */
int report_by_fill(FILE *fp, const report_context *x, const char *name, tells_error *err);
/* Failing cases as CSV. */
void report_failures(FILE *fp, const report_context *x);

/* ---- held-out evaluation ---- */

/* Held-out evaluation of a model on rows of a prepared TSV. */
typedef struct heldout {
    dataset *d;           /* predict adds labels the data lacks */
    size_t *rows;
    size_t n;
    size_t *pred;         /* dataset label per row (labels the model
                             predicts but the data lacks are added) */
} heldout;

/* Selects the rows of split (NULL: every row) of d, so that their count
   h->n is known before a model runs. */
int heldout_select(heldout *h, dataset *d, const char *split, tells_error *err);
/* Predicts the selected rows with the hypothesis, or premise and
   hypothesis when pair. */
int heldout_predict(heldout *h, bool pair, classifier *c, size_t batch, tells_error *err);
void heldout_free(heldout *h);
/* Recall of each model class on the held-out rows (NAN for a class
   without gold rows): *recall gets a new array of the model's class
   count. */
int heldout_recall(const heldout *h, const classifier *c, double **recall, tells_error *err);
/* class, recall (6 decimals, "-" for NAN), one row per model class. */
void report_recall(FILE *fp, const classifier *c, const double *recall);

/* A named subset of the held-out rows (AFLite's easy or difficult). */
typedef struct partition {
    char *name;
    id_set ids;
} partition;

/* Names the partition (len bytes of name) and loads its id file. */
int partition_load(partition *p, const char *name, size_t len, const char *path,
                   tells_error *err);
void partition_free(partition *p);

/* partition, n, accuracy, micro_f1, macro_f1, recall_LABEL..., then
   change_* of each metric (the partition minus full). A partition none
   of whose ids is an evaluated row is an error. */
int report_partitions(FILE *fp, const heldout *h, partition *parts, size_t nparts,
                      tells_error *err);

#endif
