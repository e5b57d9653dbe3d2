/* What a study keeps for its report: the shared inside of
   study_result, read by analysis/report.c and analysis/figures.c. Not for
   programs (they see study.h). */
#ifndef TELLS_STUDYDATA_H
#define TELLS_STUDYDATA_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/aflite.h"
#include "analysis/audit.h"
#include "analysis/heuristics.h"
#include "analysis/study.h"
#include "analysis/verdicts.h"
#include "base/dataset.h"
#include "model/carto.h"
#include "model/pvi.h"
#include "stats/competency.h"
#include "stats/counts.h"
#include "stats/describe.h"
#include "stats/interval.h"
#include "stats/logodds.h"
#include "stats/pmi.h"

enum { STUDY_MAX_STEPS = 32, STUDY_PMI_TOP = 15 };

/* A model's results on the evaluated rows. */
typedef struct study_model {
    const char *name;          /* "majority", "hypothesis", "pair" */
    unsigned char *right;      /* per evaluated row */
    double accuracy;
    interval ci;               /* of the accuracy itself (vs 0) */
} study_model;

/* Log-odds, PVI and cartography, and the partitions of AFLite, PVI and
   cartography side by side (study_measures_run). */
enum { STUDY_NPARTS = 7, STUDY_MAP_POINTS = 25000, STUDY_CARTO_EPOCHS = 6 };

typedef struct study_measures {
    bool done;
    char why_not[512];         /* when the corpus could not be measured */
    logodds_table logodds;     /* the corpus's own prior, tokens seen 5 times */
    double *cv_prob;           /* partitions.tsv's cross-validated fastText: */
    size_t *cv_pred;           /* per row, labels' probabilities and prediction */
    pvi_result pvi;            /* cross-fitted over every example: from cv_prob */
    carto_dynamics carto;      /* its own training over hypothesis.npy */
    carto_stats cstats;
    const char *name[STUDY_NPARTS];     /* aflite-easy ... carto-hard */
    unsigned char *in[STUDY_NPARTS];    /* per dataset row */
    size_t n[STUDY_NPARTS];
    /* The cross-validated hypothesis-only fastText over every row (PVI's
       g_x, the model of partitions.tsv) on each partition; NAN empty. */
    double accuracy[STUDY_NPARTS];
    interval ci[STUDY_NPARTS];
    double full_accuracy;
    double jaccard[STUDY_NPARTS][STUDY_NPARTS];
} study_measures;

typedef struct study_batch {
    char *path, *name;
    audit_report rep;
} study_batch;

struct study_result {
    const study_config *cfg;
    char name[256];
    dataset data;
    size_t nclasses;
    size_t *class_order;       /* label ids in byte order */
    size_t *class_n;           /* examples per label id */

    token_counts tokens;       /* hypotheses */
    pmi_table pmi;
    competency_table comp;
    length_table lengths;
    test_result kw;
    bool kw_tested;

    heuristic_set hs;
    bool hs_open;
    heur_tally tally;
    heur_result *heur;         /* per heuristic */

    /* The evaluation: what trained and what was scored. */
    bool cv;
    size_t folds;
    char train[128], eval[128];
    size_t neval;
    size_t *eval_row;          /* dataset row of each evaluated example */
    study_model model[3];      /* majority, hypothesis, pair */
    interval hyp_vs_majority, pair_vs_hyp;
    unsigned long hyp_only_b, hyp_only_c, pair_b, pair_c;   /* discordant pairs */
    size_t *confusion;         /* hypothesis-only: [gold * L + predicted], label ids */

    /* AFLite over every row. */
    aflite_round_row *rounds;
    size_t nrounds;
    double *first_scores;      /* the first round's score of every row */
    unsigned char *easy;       /* per dataset row */
    size_t neasy;
    double part_accuracy[3];   /* full, easy, difficult: hypothesis-only on
                                  the evaluated rows; NAN when empty */
    size_t part_n[3];
    interval part_ci[3];
    interval difficult_vs_full;
    bool difficult_tested;

    study_batch *batch;
    size_t nbatches;

    study_measures m;

    verdicts v;
    study_step step[STUDY_MAX_STEPS];
    size_t nsteps;
};

#endif
