/* The competency test of Gardner et al. (2021, "Competency Problems: On
   Finding and Removing Artifacts in Language Data"): in a competency
   problem no single token says anything about the label, so for every
   token the share of the examples holding it that have class c should be
   p0 (1 / classes, or the class's share of all examples). For a token in
   n examples, p_hat of them of class c:
       z = (p_hat - p0) / sqrt(p0 (1 - p0) / n),
   one-sided (the token favours c), p = P(Z >= z), and a token-class
   pair is significant when p <= alpha / m, m the pairs tested
   (Bonferroni), as the paper's figure draws its boundary. Counts are
   the examples holding a token (token_counts.docs). With exact, p is
   the exact binomial tail of the same one-sided test instead: with k
   = p_hat n the examples of class c, p = P(X >= k) for X ~ Binomial(n,
   p0), which the normal approximation underestimates for small n or
   p0 near 0 or 1; z is still computed, and still orders the rows. */
#ifndef TELLS_COMPETENCY_H
#define TELLS_COMPETENCY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "stats/counts.h"
#include "stats/stattest.h"

typedef struct competency_options {
    bool class_prior;     /* p0 = the class's share of examples, not 1/K */
    uint64_t min_count;   /* test tokens in at least this many examples [1] */
    double alpha;         /* family-wise level before Bonferroni [0.01] */
    size_t top;           /* rows kept per class, the first by z; 0 = all [0] */
    bool exact;           /* p from the binomial tail, not the normal [false] */
} competency_options;

void competency_options_default(competency_options *o);

typedef struct competency_row {
    size_t class_id, token;
    uint64_t n;           /* examples holding the token */
    double p_hat, p0, z;
    pvalue p;
    bool significant;
} competency_row;

typedef struct competency_table {
    competency_row *rows;   /* classes in byte order, z descending, ties by token;
                               with a top, a class's first top rows only */
    size_t n;
    size_t tested;          /* m: token-class pairs tested */
    double threshold;       /* alpha / m */
    size_t significant;     /* of the m pairs, rows kept or not */
} competency_table;

/* With a top, time grows with the token-class cells seen and the rows
   kept, not with the pairs tested (a token absent from a class has
   p_hat 0, z below 0: never significant, ranked by n). */
int competency_compute(const token_counts *tc, const competency_options *o,
                       competency_table *out, tells_error *err);
void competency_free(competency_table *t);
/* "class token n p_hat z p_value significant" rows (header first), at
   most top per class (0 = all), only significant ones when
   only_significant; numbers with 6 decimals, p-values with digits
   significant digits. A pure writer: -1 on a write error. */
int competency_write(FILE *fp, const competency_table *t, const token_counts *tc,
                     size_t top, bool only_significant, int digits);
/* z*: the standard normal quantile of 1 - threshold. */
double competency_critical_z(double threshold);

#endif
