/* The study's annotator heuristics (study/sec-heuristics.c), for the
   sections that use the same set (the audit). */
#ifndef TELLS_STUDY_SEC_HEURISTICS_H
#define TELLS_STUDY_SEC_HEURISTICS_H

#include "analysis/heuristics.h"
#include "study/core.h"

typedef struct heuristics_state {
    heuristic_set hs;
    bool open;
    heur_tally tally;
    heur_result *heur;         /* per heuristic */
} heuristics_state;

extern const study_section section_heuristics;

static inline const heuristics_state *study_heuristics(const study *s)
{
    return study_state(s, &section_heuristics);
}

#endif
