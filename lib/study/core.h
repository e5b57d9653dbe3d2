/* The study's core, for its sections (study/sec-*.c): what a study
   holds, what a section is, and the services every section uses. Not for
   programs (they see study/study.h).

   A section is one step of the study: a descriptor (study_section) with
   its name, the resources it needs and provides, its state (a struct of
   its own, allocated by the core), and the functions that run it, add
   its rows to summary.tsv, write its figures and its part of the report,
   and free its state; and the descriptions of its checks. The table of
   sections (study/sections.c) is their order: the order they run in, of
   their rows in summary.tsv and of their parts of the report. The core
   checks the table when a study starts (every resource a section needs
   is provided by one before it), runs the sections in turn, timing
   each, then the verdicts and the report. */
#ifndef TELLS_STUDY_CORE_H
#define TELLS_STUDY_CORE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/baselines.h"
#include "base/dataset.h"
#include "base/npy.h"
#include "base/outfile.h"
#include "model/extpred.h"
#include "study/figure.h"
#include "study/page.h"
#include "study/provenance.h"
#include "study/study.h"
#include "text/redact.h"
#include "study/verdicts.h"

enum { STUDY_MAX_STEPS = 32, STUDY_PMI_TOP = 15 };

/* The MedNLI study's settings the sections share. */
enum { STUDY_BOOTSTRAP = 2000, STUDY_MIN_COUNT = 5 };

/* What a section provides for the sections after it. */
typedef enum study_resource {
    RES_CORPUS = 1 << 0,       /* the corpus: data, classes, prepared.tsv */
    RES_EVALUATION = 1 << 1,   /* which split trains and which is scored */
    RES_MODELS = 1 << 2,       /* the evaluated rows, each model right or not */
    RES_TOKENS = 1 << 3,       /* the hypotheses' token counts */
    RES_LENGTHS = 1 << 4,
    RES_HEURISTICS = 1 << 5,   /* the heuristic set */
    RES_VECTORS = 1 << 6,      /* the hypothesis vectors, hypothesis.npy */
    RES_AFLITE = 1 << 7,       /* easy and difficult, easy.ids, difficult.ids */
    RES_CV = 1 << 8,           /* every row's cross-validated predictions */
    RES_HELDOUT = 1 << 9,
    RES_AUDIT = 1 << 10,
    RES_MEASURES = 1 << 11,    /* PVI, cartography */
    RES_LOGODDS = 1 << 12
} study_resource;

typedef struct study_section study_section;

/* A study: the core's part. The sections' results are in their states. */
struct study_result {
    const study_config *cfg;
    const char *dir;
    char name[256];
    /* The corpus (section prepare). */
    char *prepared;            /* DIR/prepared.tsv */
    const char *input;         /* the prepared corpus the sections read: the
                                  given one, or DIR/prepared.tsv */
    dataset data;              /* its rows in the order of their ids
                                  (dataset_sort_by_id): every result the
                                  same for any order of the input's rows */
    size_t *data_pos;          /* each row's place in the input, from 0 */
    size_t nclasses;
    size_t *class_order;       /* label ids in byte order */
    size_t *class_n;           /* examples per label id */
    /* --redact: the tokens that may be shown (text/redact.h), built from
       the corpus by section prepare; NULL without --redact. And the key
       of the keyed ids, when given. */
    redact_gate *gate;
    redact_key id_key;
    /* The evaluation (section prepare). */
    bool cv;
    size_t folds;
    char train[128], eval[128];
    /* The hypothesis-only model's predictions given (section prepare):
       cross-fitted over every row, and of the evaluated split. */
    bool given;
    ext_predictions given_cv, given_eval;
    char given_name[128];
    char given_entry[140];     /* "given:NAME", its entries in comparisons */
    /* The premise-aware model's, of the evaluated rows. */
    bool given_pair;
    ext_predictions pair_pred;
    char pair_name[128];
    char pair_entry[140];
    /* PVI's g_null, when given: every row's. */
    bool given_null;
    ext_predictions null_pred;
    size_t neval;              /* the evaluated rows (section baselines) */
    size_t *eval_row;          /* their dataset rows */
    dataset all;               /* all.tsv, once study_all made it */
    bool all_loaded;
    verdicts v;
    run_record run;            /* how the study was made (run.json) */
    study_step step[STUDY_MAX_STEPS];
    size_t nsteps;
    /* The table, and each section's state in its order. */
    const study_section *const *sections;
    size_t nsections;
    void **state;
};
typedef struct study_result study;

/* Batch b as DIR/batch.tsv (batch-K.tsv for several), prepared like the
   corpus unless a prepared TSV already, once: later calls find the file.
   Its path (free it), or NULL. */
char *study_batch_file(const study *s, size_t b, tells_error *err);
/* --redact (study/redaction.c): the leak check of the folder, after the
   files the redacted study leaves out are removed (the prepared corpus
   and batches, heur-pairs.tsv, hypothesis.npy): an error naming the
   file, the line and the fragment when it finds corpus text. */
int study_redaction_check(study *s, tells_error *err);

struct study_section {
    const char *name;          /* the step's name, in --progress and the report */
    const char *writes;        /* its files, one line for --help */
    unsigned needs, provides;  /* study_resource bits */
    size_t state_size;         /* its state, zeroed before run */
    int (*run)(study *s, void *state, tells_error *err);
    /* Each optional (NULL: nothing to add). */
    int (*verdicts)(study *s, void *state, verdicts *v, tells_error *err);
    int (*figures)(study *s, void *state, figset *f, tells_error *err);
    void (*page)(study *s, void *state, page *pg);
    /* Lines of its own in the report's list of verdicts, after those of
       its checks. */
    void (*verdict_lines)(study *s, void *state, page *pg);
    void (*free)(void *state);
    const study_check *checks;
    size_t nchecks;
    /* Its run reads only the corpus and the configuration, writes only
       its state and its own files, and says nothing: with more than one
       thread it starts in a thread of its own once the sections before
       it have provided its needs, beside the sections between, and is
       waited for at its place in the table (study_run). It should not
       use base/tasks.h's pool: a call would wait for the other sections'
       fits to end. */
    bool beside;
};

/* A section's checks: .checks and .nchecks of an array. */
#define STUDY_CHECKS(array) .checks = (array), .nchecks = sizeof (array) / sizeof *(array)

/* The table of sections, in order (study/sections.c). */
extern const study_section *const study_sections[];
extern const size_t study_nsections;

/* 0 when every section's needs are provided by the sections before it;
   else -1 with err naming the section and what it lacks. */
int study_table_check(const study_section *const *table, size_t n, tells_error *err);

/* The state of section sec in s (NULL when the table has no such
   section). */
void *study_state(const study *s, const study_section *sec);

/* ---- services ---- */

/* A progress line, when the study reports progress. */
void study_say(const study *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The progress callback of analyses run inside a section (their lines
   indented). */
void study_forward_progress(const char *msg, void *user);
/* DIR/name, or NULL with err set; the caller frees it. */
char *study_path(const study *s, const char *name, tells_error *err);
/* Writes DIR/name with w (base/outfile.h: out_write). */
int study_write(const study *s, const char *name, out_writer w, void *ctx, tells_error *err);
/* A batch's name in the audit's rows (audit:NAME:CHECK) and the report:
   the file the user gave, without its folders. */
const char *study_batch_name(const char *given);
/* Removes a file the study wrote and no longer needs (a working copy, a
   model used once), so that the folder keeps only what it found. rc is
   the caller's status: the first error is kept, and a removal that fails
   after a success is one ("PATH: cannot remove: ..."); a file already
   gone is not. Returns the status that results. */
int study_remove(const char *path, int rc, tells_error *err);
/* A matrix with a row per example, between the input's order (that of
   prepared.tsv: hypothesis.npy's and --embeddings') and the study's rows
   (s->data's, by id). study_rows_from_input puts x's rows, in the
   input's order, in the study's (in place; -1 with err set out of
   memory); study_write_input_order (an out_writer, ctx a study_rows)
   writes a matrix of the study's rows in the input's order. */
int study_rows_from_input(const study *s, npy_matrix *x, tells_error *err);
/* The study's row of each of the input's rows, in the input's order (the
   inverse of data_pos); NULL out of memory. */
size_t *study_input_rows(const study *s);
typedef struct study_rows {
    const study *s;
    const npy_matrix *x;
} study_rows;
int study_write_input_order(FILE *fp, void *ctx, tells_error *err);
/* all.tsv: every row in one split "all", written and loaded once. */
int study_all(study *s, tells_error *err);
/* Copies from into to line by line; with split_all, the split column of
   every row after the header becomes "all". */
int study_copy_lines(const char *from, const char *to, bool split_all, tells_error *err);
/* Prepares inputs as tells-prep does with the study's options. */
int study_prepare_inputs(const study *s, const prep_input *in, size_t n, const char *path,
                         tells_error *err);
/* A comparison of the study's baselines (analysis/baselines.h): the
   evaluation's training split and folds, the study's seed and progress. */
void study_comparison_setup(study *s, comparison_config *cc);
/* The entry of model on split, or NULL. */
const comparison_entry *study_entry(const comparison *cmp, const char *model,
                                    const char *split);
/* The hypothesis-only model's name in comparisons: the given
   predictions' name, else "fasttext". */
const char *study_hypothesis_model(const study *s);
/* It in words: "hypothesis-only fastText model", or "hypothesis-only
   model NAME (predictions given)". */
const char *study_hypothesis_shown(const study *s, char *buf, size_t size);
/* What shows a degenerate model (issue: a model that predicts one
   label for nearly everything, or gives nearly the same probabilities
   to every example, or is below the majority class on its own training
   rows), so that no verdict of "no shortcut" rests on it unsaid. */
enum { STUDY_ONE_CLASS_PERMILLE = 950,     /* one label for 95% or more */
       STUDY_ONE_CLASS_GOLD_PERMILLE = 900 /* though its gold share is under 90% */ };
#define STUDY_CONSTANT_SD 0.01             /* every label's probability varies less */
typedef struct study_model_check {
    double top_share;          /* the share of rows given the most predicted label */
    const char *top;           /* that label (the first in byte order of equals) */
    double top_gold_share;     /* its share of the rows' gold labels */
    double prob_sd;            /* the largest sd of one label's probability; NAN none */
    double train_accuracy;     /* on its training rows; NAN unknown (given) */
    double train_majority;     /* the majority class's share of those rows */
    bool one_class, constant, underfit;
} study_model_check;
/* The check of predictions p of a model of s (labels ids of d, a
   dataset with s's labels by name), with its training accuracy (NAN:
   unknown) and the training rows' majority share. */
void study_model_check_set(const study *s, const dataset *d, const predictions *p,
                           double train_accuracy, double train_majority,
                           study_model_check *c);
static inline bool study_model_degenerate(const study_model_check *c)
{
    return c->one_class || c->constant || c->underfit;
}
/* Adds the row model_warning:NAME for a degenerate model (nothing for a
   sound one): untested, value the top share, detail the measures and
   reasons, sentence what is wrong (shown: the model) and then
   consequence, what that means for the rows resting on it. */
int study_model_warning(verdicts *vs, const char *name, const char *shown,
                        const study_model_check *c, const char *consequence,
                        tells_error *err);
/* When the model is degenerate, ends v's detail with
   warning=model_warning:NAME and its sentence with says (NULL: that a
   "no" here is no evidence of no shortcut). */
void study_model_warn_row(verdict *v, const char *name, const study_model_check *c,
                          const char *says);
/* The majority class's share of the rows of split of s's corpus (every
   row for "all"). */
double study_majority_share(const study *s, const char *split);

/* The hypothesis vectors of AFLite and cartography in words: "the
   averaged hypothesis vectors", or "the hypothesis embeddings given
   (FILE)". */
const char *study_vectors_shown(const study *s, char *buf, size_t size);
/* Sets cc to score the predictions x given for a model (its entries
   named entry) in place of fastText: of the evaluated split alone when
   the study trains on a split (*eval_slot, which must outlive cc, names
   it), of the training rows' folds when cc cross-validates. */
void study_given_model(const study *s, comparison_config *cc, const ext_predictions *x,
                       const char *entry, const char **eval_slot);
/* The mean of n flags (NAN for none). */
double study_mean(const unsigned char *x, size_t n);
/* Class k in byte order: its label id and its name. */
size_t study_class(const study *s, size_t k);
const char *study_class_name(const study *s, size_t k);
/* The name of label id. */
const char *study_label(const study *s, size_t label);
/* The numbers of a sentence about a difference: value and reference in
   percent, the effect and its interval in points, and p. */
typedef struct study_diff {
    char a[32], b[32], d[32], lo[32], hi[32], p[64];
} study_diff;
void study_diff_words(const verdict *v, study_diff *w);
/* The header line of a figure's data file: first, then the class names
   in byte order, tab-separated. */
void study_class_header(FILE *fp, const study *s, const char *first);
/* A box per class, in byte order, from NAME.dat (one block of values per
   class): the script of the lengths' and the pairs' box plots, with
   ylabel (a gnuplot string, quoted) and the y range yrange ("[0:*]"). */
void study_class_boxes_script(FILE *fp, const study *s, const char *name, const char *ylabel,
                              const char *yrange);
/* The sentence of the row named check as a paragraph of the page, when
   there is such a row. */
void study_sentence(const study *s, page *pg, const char *check);
/* "12.3%", and a p-value with 2 significant digits, for sentences. */
void study_percent(char *buf, size_t size, double x);
void study_pvalue(char *buf, size_t size, pvalue p);

#endif
