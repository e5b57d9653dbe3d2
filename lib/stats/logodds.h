/* The log-odds ratio with an informative Dirichlet prior of Monroe,
   Colaresi and Quinn (2008, "Fightin' Words", section 3.5), each class
   against the other classes pooled. With y_w^c the count of token w in
   class c, n^c the class's token total, r the other classes, a_w the
   prior count of w and a_0 the sum of the prior counts:
       delta = ln((y_w^c + a_w) / (n^c + a_0 - y_w^c - a_w))
             - ln((y_w^r + a_w) / (n^r + a_0 - y_w^r - a_w)),
       var = 1 / (y_w^c + a_w) + 1 / (y_w^r + a_w),   z = delta / sqrt(var).
   Natural logarithms. The prior is by default the corpus's own counts
   (a_w = w's count over every class), or the counts of a background
   corpus; both times a scale. */
#ifndef TELLS_LOGODDS_H
#define TELLS_LOGODDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/vocab.h"
#include "stats/counts.h"

/* Prior counts of a background corpus. */
typedef struct logodds_prior {
    vocab *tokens;
    double *count;          /* per token */
    double total;           /* their sum */
} logodds_prior;

/* Reads a prior: a counts file of tells-pmi --emit-counts (the counts of
   every class summed; field must match), or a TSV of token<TAB>count
   lines (an optional first line "token<TAB>count"; counts are finite
   numbers at least 0; a token listed once). */
int logodds_prior_load(logodds_prior *p, const char *path, text_field field, bool binary,
                       tells_error *err);
void logodds_prior_free(logodds_prior *p);

typedef struct logodds_options {
    bool binary;              /* counts are examples holding the token */
    uint64_t min_count;       /* rank tokens seen at least this often in all */
    double prior_scale;       /* multiplies a_w and a_0 [1] */
    const logodds_prior *prior;   /* NULL: the corpus's own counts */
    size_t top;               /* rows kept per class, the first by z; 0 = all */
} logodds_options;

typedef struct logodds_row {
    size_t class_id, token;
    uint64_t count;           /* y_w^c */
    double delta, var, z;
} logodds_row;

typedef struct logodds_table {
    logodds_row *rows;        /* classes in byte order, z descending, ties by token */
    size_t n;
} logodds_table;

/* Every token with a count of at least min_count and a prior count above
   0, for every class (with a top, the first top of each class). With a
   top, time grows with the token-class cells seen and the rows kept:
   where a token is absent from a class its z depends on the token only
   through its count (with the corpus as prior: one order of the absent
   tokens serves every class), or through its count and prior count and
   on the class through the class's token total (a background prior: one
   order per distinct class total). */
int logodds_compute(const token_counts *tc, const logodds_options *o, logodds_table *out,
                    tells_error *err);
void logodds_free(logodds_table *t);
/* "class token count delta var z" (header first), at most top rows per
   class (0 = all), numbers with 6 decimals; -1 on a write error. */
int logodds_write(FILE *fp, const logodds_table *t, const token_counts *tc, size_t top);

#endif
