/* The study's hypothesis vectors (study/sec-vectors.c), for AFLite. */
#ifndef TELLS_STUDY_SEC_VECTORS_H
#define TELLS_STUDY_SEC_VECTORS_H

#include "base/npy.h"
#include "study/core.h"

typedef struct vectors_state {
    npy_matrix x;              /* the averaged hypothesis vectors, a row per example
                                  (the study's order); AFLite centres, reorders
                                  and compacts it in place, so steps after it
                                  read hypothesis.npy */
    int epochs;                /* the skipgram epochs trained; 0 with --vectors */
    const char *centres;       /* the words trained as centres, "hypothesis"
                                  or "all"; NULL with --vectors */
    double hypothesis_share;   /* the hypotheses' words' share of the
                                  training text's tokens */
} vectors_state;

extern const study_section section_vectors;

static inline const vectors_state *study_vectors(const study *s)
{
    return study_state(s, &section_vectors);
}

#endif
