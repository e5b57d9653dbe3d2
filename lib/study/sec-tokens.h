/* The study's token counts (study/sec-tokens.c), for the sections that
   measure tokens further (log-odds). */
#ifndef TELLS_STUDY_SEC_TOKENS_H
#define TELLS_STUDY_SEC_TOKENS_H

#include "stats/competency.h"
#include "stats/counts.h"
#include "stats/pmi.h"
#include "study/core.h"

typedef struct tokens_state {
    token_counts tokens;       /* hypotheses */
    pmi_table pmi;
    competency_table comp;
} tokens_state;

extern const study_section section_tokens;

static inline const tokens_state *study_tokens(const study *s)
{
    return study_state(s, &section_tokens);
}

#endif
