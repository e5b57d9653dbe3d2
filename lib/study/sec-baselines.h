/* The study's baselines (study/sec-baselines.c), for the sections that
   score partitions with their models. */
#ifndef TELLS_STUDY_SEC_BASELINES_H
#define TELLS_STUDY_SEC_BASELINES_H

#include "model/baseline.h"
#include "stats/interval.h"
#include "study/core.h"

/* The models, scored on the same evaluated rows: the majority class,
   fastText on the hypothesis, on one bag of the words of both (the MedNLI
   paper's), on the pair's features (model/pairfeat.h: premise-aware), and
   on the premise alone (a check of the folds). */
typedef enum {
    STUDY_MAJORITY, STUDY_HYPOTHESIS, STUDY_PAIR, STUDY_AWARE, STUDY_PREMISE, STUDY_NMODELS
} study_model_id;

typedef struct study_model {
    const char *name;          /* "majority", "hypothesis", "pair", "pair-features",
                                  "premise" */
    unsigned char *right;      /* per evaluated row (study.eval_row) */
    double accuracy;
    interval ci;               /* of the accuracy itself (vs 0) */
    model_fit fit;             /* fastText's fit of its training rows */
} study_model;

typedef struct baselines_state {
    study_model model[STUDY_NMODELS];
    interval hyp_vs_majority, pair_vs_hyp, aware_vs_hyp, premise_vs_majority;
    unsigned long hyp_only_b, hyp_only_c, pair_b, pair_c;   /* discordant pairs */
    unsigned long aware_b, aware_c;
    /* (hypothesis - majority) / (premise-aware - majority): how much of
       the premise-aware model's gain the hypothesis alone gets, with a
       bootstrap percentile interval; share_ok when the gain is positive. */
    double share, share_low, share_high;
    bool share_ok;
    size_t *confusion;         /* hypothesis-only: [gold * L + predicted], label ids */
    long majority_label;       /* the majority model's answer (label id); -1 when
                                  the folds' majorities differ */
    study_model_check check;   /* whether the hypothesis-only model is degenerate */
    study_model_check aware_check;  /* and the premise-aware one */
} baselines_state;

extern const study_section section_baselines;

static inline const baselines_state *study_baselines(const study *s)
{
    return study_state(s, &section_baselines);
}

#endif
