/* Prediction files of one or more systems, joined by example id, and the
   evaluation metrics computed from them, defined as scikit-learn defines
   them (so that numbers can be checked against it), for tells-stat. */
#ifndef TELLS_METRICS_H
#define TELLS_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>   /* memcmp, for pred_same_set */

#include "base/error.h"
#include "base/vocab.h"

/* A prediction file is a TSV whose header names at least the columns id,
   gold and predicted (in any order; other columns are ignored). In
   multi-label mode gold and predicted cells are comma-separated label sets
   (an empty cell is the empty set); otherwise each is one label. */
typedef struct pred_data {
    vocab *ids;           /* example ids, in the order of the first file */
    vocab *labels;        /* every label of every gold and predicted cell,
                             or the fixed label set in its order */
    bool multi_label;
    bool fixed_labels;    /* labels is a fixed set (--labels): every label
                             counts in averages, present or not */
    size_t nsys;
    char **names;         /* [nsys] file names for output and messages */
    /* Label sets: source 0 is gold, source s + 1 is system s. The set of
       example i is lab[src][off[src][i] .. off[src][i + 1]), ascending
       label ids without repeats (one label in single-label mode). */
    size_t **off;
    uint32_t **lab;
} pred_data;

/* Reads the files (at most one may be "-", stdin) as systems 0..n-1.
   Every file must hold the same ids, each once, with the same gold label
   as in the first file. */
int pred_load(pred_data *d, char *const *paths, size_t npaths,
              bool multi_label, tells_error *err);

/* A fixed label set, in the order given. */
typedef struct label_set {
    char **name;
    size_t n;
} label_set;

/* Parses "A,B,C" or "@FILE" (one label per line, blank lines skipped).
   An empty or repeated label is a usage error in a list and a data
   error (FILE:LINE) in a file; so is a label holding a tab. */
int label_set_parse(label_set *ls, const char *spec, tells_error *err);
void label_set_free(label_set *ls);

/* pred_load with the label set fixed to fixed (NULL: the labels that
   occur, as pred_load): scikit-learn's labels=... for the averages and
   MultiLabelBinarizer(classes=...) for the Hamming loss. A gold or
   predicted label outside the set is a data error; in multi-label mode
   a label of the set holding a comma is a usage error. */
int pred_load_fixed(pred_data *d, char *const *paths, size_t npaths, bool multi_label,
                    const label_set *fixed, tells_error *err);
void pred_free(pred_data *d);
size_t pred_n(const pred_data *d);
/* The label set of example i from source src (0 gold, s + 1 system s). */
static inline size_t pred_set(const pred_data *d, size_t src, size_t i,
                              const uint32_t **lab)
{
    *lab = d->lab[src] + d->off[src][i];
    return d->off[src][i + 1] - d->off[src][i];
}
/* Whether two sorted label sets are equal. Empty sets may have no array
   behind them: memcmp only non-empty ones. */
static inline bool pred_same_set(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}
/* Whether system sys predicted example i exactly (the whole set). */
bool pred_correct(const pred_data *d, size_t sys, size_t i);

/* The metrics a test can compare. In multi-label mode accuracy is
   subset accuracy. */
typedef enum { METRIC_ACCURACY, METRIC_MACRO_F1, METRIC_MICRO_F1 } metric_kind;
int metric_parse(const char *name, metric_kind *k);
const char *metric_name(metric_kind k);

/* Per-label true positives, false positives and false negatives, and
   exact matches, summed over examples: every metric is a function of
   them, so a bootstrap resample or a permutation only updates counts. */
typedef struct tally {
    size_t nlabels;
    long *tp, *fp, *fn;
    long correct, n;
    bool fixed;           /* every label counts in averages (--labels) */
} tally;

/* -1 only when out of memory. */
int tally_init(tally *t, size_t nlabels);
/* A tally over the labels of d, fixed when d's are. */
int tally_init_for(tally *t, const pred_data *d);
void tally_free(tally *t);
void tally_clear(tally *t);
void tally_copy(tally *dst, const tally *src);
/* Adds w copies (w < 0 removes) of an example with gold set g and
   predicted set p (ascending label ids). */
void tally_add(tally *t, const uint32_t *g, size_t ng, const uint32_t *p,
               size_t np, long w);
/* Adds every example of system sys once. */
void tally_add_system(tally *t, const pred_data *d, size_t sys);
/* The metric over the labels present (tp + fp + fn > 0), as
   scikit-learn's labels = unique_labels(gold, predicted), or over every
   label when t->fixed; 0 when it is undefined (no examples, no
   labels). */
double tally_metric(const tally *t, metric_kind k);
/* Precision, recall and F1 of one label (0 where undefined). */
void tally_class(const tally *t, size_t label, double *precision, double *recall,
                 double *f1);

typedef struct class_metrics {
    uint32_t label;
    double precision, recall, f1;
    long support;         /* gold examples with the label */
} class_metrics;

typedef struct metrics {
    long n;
    size_t nclasses;
    class_metrics *cls;   /* labels in gold or the predictions, byte
                             order; with fixed labels all, in their order */
    double accuracy;      /* multi-label: subset accuracy */
    double macro_precision, macro_recall, macro_f1;
    double micro_precision, micro_recall, micro_f1;
    double kappa, mcc;    /* single-label only; kappa NAN when p_e = 1 */
    double hamming_loss;  /* multi-label only */
} metrics;

int metrics_compute(const pred_data *d, size_t sys, metrics *m, tells_error *err);
void metrics_free(metrics *m);

/* The metrics table: "system metric class value support". After the
   averages a row "labels" names the labels they are over: class the
   labels joined by commas (as in --details), value their number. */
void metrics_write_header(FILE *fp);
void metrics_write(FILE *fp, const pred_data *d, size_t sys,
                   const metrics *m, bool details);

/* Contrast sets: groups of an original example and its contrasts. */
typedef struct contrast_groups {
    size_t ngroups;
    size_t *orig;         /* [ngroups] example index of the original */
    size_t *off;          /* [ngroups + 1] into member */
    size_t *member;       /* example indexes of the contrasts */
} contrast_groups;

typedef struct contrast_result {
    long groups, consistent;
    long originals_correct;
    long contrasts, contrasts_correct;
} contrast_result;

/* Reads a groups file: a header starting "original<TAB>contrast", then
   rows ORIGINAL<TAB>CONTRAST[<TAB>CONTRAST]...; rows with the same
   original are one group. Every id must be in d. */
int contrast_load(contrast_groups *g, const char *path, const pred_data *d,
                  tells_error *err);
void contrast_free(contrast_groups *g);
/* A group is consistent when system sys predicts its original and every
   contrast correctly. */
void contrast_eval(const contrast_groups *g, const pred_data *d, size_t sys,
                   contrast_result *r);
void contrast_write(FILE *fp, const pred_data *d, size_t sys,
                    const contrast_result *r);

#endif
