/* Scores of predictions against gold labels: the confusion matrix and
   the usual single-label metrics, over all predictions or those whose
   id is in a subset. */
#ifndef TELLS_EVALUATE_H
#define TELLS_EVALUATE_H

#include <stdio.h>

#include "base/dataset.h"
#include "base/error.h"
#include "base/idfile.h"
#include "model/baseline.h"

typedef struct scores {
    size_t n, nlabels;
    size_t *confusion;       /* [gold * nlabels + predicted] */
    double *precision, *recall, *f1;
    size_t *support;         /* gold count per label */
    double accuracy;
    double micro_f1;         /* equals accuracy for single-label data */
    double macro_f1;         /* over labels seen in gold or predictions */
} scores;

/* Scores of the predictions whose id is in subset (which marks them
   seen), or of all when subset is NULL. -1 only when out of memory. */
int scores_compute(scores *s, const dataset *d, const predictions *p,
                   id_set *subset, tells_error *err);
void scores_free(scores *s);

/* "gold<TAB>label..." confusion rows and "class precision recall f1
   support" rows, labels in byte order. */
int scores_write_confusion(const scores *s, const dataset *d, FILE *fp, tells_error *err);
int scores_write_per_class(const scores *s, const dataset *d, FILE *fp, tells_error *err);

#endif
