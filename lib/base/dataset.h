/* A prepared TSV held in memory, for the programs that need every row
   at once (training, evaluation, filtering). */
#ifndef TELLS_DATASET_H
#define TELLS_DATASET_H

#include <stddef.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/vocab.h"

typedef struct example {
    const char *id, *premise, *hypothesis;
    const char *extra;  /* further columns, tab-joined ("" when none) */
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
    char *extra_header;  /* names of further columns, tab-joined, or NULL */
    vocab *ids;        /* every example's id: vocab id = row */
    arena texts;       /* the rows' texts */
} dataset;

/* Reads a whole prepared TSV, every id once ("duplicate id 'ID' (first
   on line N)"). A header alone loads as an empty dataset. */
int dataset_load(dataset *d, const char *path, tells_error *err);
/* 0 when d has an example, else -1 with "no examples in the input" (for
   every caller that needs a corpus). */
int dataset_require_examples(const dataset *d, tells_error *err);
void dataset_free(dataset *d);
/* Puts d's rows in the byte order of their ids and numbers its labels
   and splits by their first appearance in that order, so that whatever
   is computed from d in row order is the same for any order of the
   input's rows. With pos, *pos (freed by the caller) gets each row's
   place in the order it had, from 0. -1 only out of memory (err set),
   d then as it was. */
int dataset_sort_by_id(dataset *d, size_t **pos, tells_error *err);

/* rows[0 .. n) (every row when rows is NULL) in the byte order of their
   ids, in a new array (freed by the caller); NULL out of memory. For
   work that reads rows in order (fastText's training, a shuffle's start,
   resamples), so that it is the same for any order of the input. */
size_t *dataset_rows_by_id(const dataset *d, const size_t *rows, size_t n);

/* Index of a further column by name, -1 when absent. */
long dataset_column(const dataset *d, const char *name);
/* The value of further column k of example e, copied into buf. */
const char *example_column(const example *e, long k, char *buf, size_t size);
/* The row of the example with this id (len bytes), -1 when none. */
long dataset_row(const dataset *d, const char *id, size_t len);
/* Row count of a split, by name (0 when absent). */
size_t dataset_split_size(const dataset *d, const char *split);

#endif
