/* The study's cross-validated predictions of every example
   (study/sec-partitions.c), for PVI and the comparison of partitions. */
#ifndef TELLS_STUDY_SEC_PARTITIONS_H
#define TELLS_STUDY_SEC_PARTITIONS_H

#include "study/core.h"

typedef struct partitions_state {
    /* partitions.tsv's cross-validated hypothesis-only fastText, per
       dataset row: the labels' probabilities (label ids) and the
       prediction. */
    double *cv_prob;
    size_t *cv_pred;
    study_model_check check;   /* whether that model is degenerate */
} partitions_state;

extern const study_section section_partitions;

static inline const partitions_state *study_partitions(const study *s)
{
    return study_state(s, &section_partitions);
}

#endif
