/* Token-class PMI with add-k smoothing and a minimum count:
     keep w with sum_c count(w,c) >= min_count;
     s(w,c) = count(w,c) + k for every kept w and every class;
     PMI(w,c) = log2 p(w,c) / (p(w,.) p(.,c)), p from s. */
#ifndef TELLS_PMI_H
#define TELLS_PMI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/competency.h"
#include "stats/counts.h"
#include "stats/logodds.h"

typedef struct pmi_options {
    bool binary;          /* count(w,c) = examples containing w */
    uint64_t min_count;
    double smoothing;
    size_t top;           /* entries kept per class, the first by PMI; 0 = all */
} pmi_options;

typedef struct pmi_entry {
    size_t token;
    double pmi;
    uint64_t count;       /* raw count(w,c) */
    double class_share;   /* examples of c containing w / examples of c */
} pmi_entry;

typedef struct pmi_class {
    size_t class_id;
    pmi_entry *entries;   /* kept tokens, PMI descending, ties by token (the
                             first opt.top of them when top is set) */
    size_t n;
} pmi_class;

typedef struct pmi_table {
    pmi_class *classes;   /* in byte order of their names */
    size_t nclasses;
    size_t kept;          /* tokens that passed min_count */
} pmi_table;

/* Time: the token-class cells seen, plus per class its top entries (with
   top set) or every kept token (top 0), plus sorting the kept tokens
   once; not tokens x classes for a top. */
int pmi_compute(const token_counts *tc, const pmi_options *opt, pmi_table *out);
void pmi_free(pmi_table *t);
/* Writes "class<TAB>token<TAB>pmi<TAB>count<TAB>class_share" rows, at most
   top per class (0 = all), numbers with 6 decimals. */
int pmi_write(const pmi_table *t, const token_counts *tc, size_t top,
              bool header, FILE *fp);

/* PMI as the MedNLI study's published code computes it
   (crherlihy/clinical_nli_artifacts, src/analysis/lexical.py at commit
   b330f71199a75baa06d259ce1ba0bee8e857dd2d, get_pmi_by_label with the
   settings of its example_cfg.ini), over counts of scikit-learn words
   (COUNTS_TOKENS_WORDS):
     p(w) = (count(w) + k) / sum over every word v of (count(v) + k),
       count(w) its occurrences in the whole corpus, stop words included;
     V_c = the words of class c that are not scikit-learn's English stop
       words and are in at least min_df examples of c;
     p(w|c) = (count(w,c) + k) / sum over v in V_c of (count(v,c) + k);
     p(c) = examples of c / examples;
     PMI(w,c) = log2 p(w|c) / (p(w) p(c)) for w in V_c.
   The entries' class_share holds p(w|c): the code's printed "%" column. */
int pmi_published_compute(const token_counts *tc, double smoothing, uint64_t min_df,
                          pmi_table *out);
/* "class token pmi count percent" rows, percent = 100 p(w|c) with 2
   decimals and '%' (Python's "{:.2%}"), at most top per class. */
int pmi_published_write(const pmi_table *t, const token_counts *tc, size_t top, FILE *fp);
/* Whether word is one of scikit-learn's English stop words (the list of
   release 0.24, which the published code's environment pins). */
bool pmi_stop_word(const char *word);

/* A whole table run (tells-pmi): which inputs, what to compute, what to
   write. */
/* What a table ranks tokens by. */
typedef enum { MEASURE_PMI, MEASURE_Z, MEASURE_LOGODDS, MEASURE_PMI_PUBLISHED } pmi_measure;

/* Parses "pmi", "z", "logodds" or "pmi-published"; -1 otherwise. */
int pmi_measure_parse(const char *name, pmi_measure *m);

typedef struct pmi_job {
    text_field field;
    pmi_measure measure;  /* z: the competency test (stats/competency.h) */
    pmi_options opt;      /* opt.min_count is z's too */
    double alpha;         /* z: the family-wise level [0.01] */
    bool class_prior;     /* z: p0 = each class's share, not 1/classes */
    bool exact;           /* z: p from the exact binomial tail */
    size_t top;           /* rows per class, 0 = all */
    bool no_header;       /* the inputs are headerless prepared TSV */
    bool from_counts;     /* the inputs are counts files: sum them */
    bool emit_counts;     /* write the counts (counts_write), not the table */
    int threads;          /* for counting a large file (counts_add_prepared) */
    const char *prior;    /* logodds: a background corpus's counts, or NULL */
    double prior_scale;   /* logodds: multiplies the prior counts [1] */
    /* --redact: the tokens the table may name (text/redact.h); the others
       read "[withheld]". NULL: all. */
    const struct redact_gate *shown;
} pmi_job;

/* Counts the inputs as one corpus (or sums the counts files) and writes
   the table, or the counts, to output (NULL or "-": standard output)
   atomically. Inputs without a single example are an error. */
int pmi_run(const pmi_job *job, char *const *paths, size_t npaths, const char *output,
            tells_error *err);

#endif
