/* A prepared TSV held in memory, for the programs that need every row
   at once (training, evaluation, filtering). */
#ifndef TELLS_DATASET_H
#define TELLS_DATASET_H

#include <stddef.h>

#include "error.h"
#include "vocab.h"

typedef struct example {
    const char *id, *premise, *hypothesis;
    size_t split;      /* id in dataset.splits */
    size_t label;      /* id in dataset.labels */
    long line;
} example;

typedef struct dataset {
    example *ex;
    size_t n;
    vocab *splits;     /* in order of first appearance */
    vocab *labels;     /* in order of first appearance */
    char *source;      /* file name for messages */
} dataset;

int dataset_load(dataset *d, const char *path, tells_error *err);
void dataset_free(dataset *d);
/* Row count of a split, by name (0 when absent). */
size_t dataset_split_size(const dataset *d, const char *split);

#endif
