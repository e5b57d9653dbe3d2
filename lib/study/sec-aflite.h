/* The study's AFLite partitions (study/sec-aflite.c), for the sections
   that score them further. */
#ifndef TELLS_STUDY_SEC_AFLITE_H
#define TELLS_STUDY_SEC_AFLITE_H

#include "analysis/aflite.h"
#include "stats/interval.h"
#include "study/core.h"

/* The evaluated rows in full and in each of AFLite's partitions. */
typedef enum { AFLITE_FULL, AFLITE_EASY, AFLITE_DIFFICULT, AFLITE_NPARTS } aflite_part;

typedef struct aflite_state {
    aflite_round_row *rounds;
    size_t nrounds;
    double *first_scores;      /* the first round's score of every row */
    unsigned char *easy;       /* per dataset row */
    size_t neasy;
    size_t k, m;               /* the cutoff and the training size used */
    double tau;                /* the score at which an example may be removed */
    /* Hypothesis-only accuracy on the evaluated rows of each part; NAN
       when empty. */
    double accuracy[AFLITE_NPARTS];
    size_t n[AFLITE_NPARTS];
    interval ci[AFLITE_NPARTS];
    /* The difficult partition's accuracy minus the full set's, with its
       interval: descriptive (the partition was defined on these rows),
       its p unused. */
    interval difficult_vs_full;
    bool difficult_compared;
} aflite_state;

extern const study_section section_aflite;

static inline const aflite_state *study_aflite(const study *s)
{
    return study_state(s, &section_aflite);
}

#endif
