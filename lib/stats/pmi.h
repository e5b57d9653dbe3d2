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

typedef struct pmi_options {
    bool binary;          /* count(w,c) = examples containing w */
    uint64_t min_count;
    double smoothing;
} pmi_options;

typedef struct pmi_entry {
    size_t token;
    double pmi;
    uint64_t count;       /* raw count(w,c) */
    double class_share;   /* examples of c containing w / examples of c */
} pmi_entry;

typedef struct pmi_class {
    size_t class_id;
    pmi_entry *entries;   /* kept tokens, PMI descending, ties by token */
    size_t n;
} pmi_class;

typedef struct pmi_table {
    pmi_class *classes;   /* in byte order of their names */
    size_t nclasses;
    size_t kept;          /* tokens that passed min_count */
} pmi_table;

int pmi_compute(const token_counts *tc, const pmi_options *opt, pmi_table *out);
void pmi_free(pmi_table *t);
/* Writes "class<TAB>token<TAB>pmi<TAB>count<TAB>class_share" rows, at most
   top per class (0 = all), numbers with 6 decimals. */
int pmi_write(const pmi_table *t, const token_counts *tc, size_t top,
              bool header, FILE *fp);

/* A whole table run (tells-pmi): which inputs, what to compute, what to
   write. */
/* What a table ranks tokens by. */
typedef enum { MEASURE_PMI, MEASURE_Z } pmi_measure;

/* Parses "pmi" or "z"; -1 otherwise. */
int pmi_measure_parse(const char *name, pmi_measure *m);

typedef struct pmi_job {
    text_field field;
    pmi_measure measure;  /* z: the competency test (stats/competency.h) */
    pmi_options opt;      /* opt.min_count is z's too */
    double alpha;         /* z: the family-wise level [0.01] */
    bool class_prior;     /* z: p0 = each class's share, not 1/classes */
    size_t top;           /* rows per class, 0 = all */
    bool no_header;       /* the inputs are headerless prepared TSV */
    bool from_counts;     /* the inputs are counts files: sum them */
    bool emit_counts;     /* write the counts (counts_write), not the table */
    int threads;          /* for counting a large file (counts_add_prepared) */
} pmi_job;

/* Counts the inputs as one corpus (or sums the counts files) and writes
   the table, or the counts, to output (NULL or "-": standard output)
   atomically. Inputs without a single example are an error. */
int pmi_run(const pmi_job *job, char *const *paths, size_t npaths, const char *output,
            tells_error *err);

#endif
