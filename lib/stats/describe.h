/* Text length by class: n, mean, median and sample standard deviation
   (GSL), for tells-len. */
#ifndef TELLS_DESCRIBE_H
#define TELLS_DESCRIBE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/prepared.h"
#include "base/error.h"
#include "base/vocab.h"

typedef struct length_class {
    double *len;          /* token count of each example */
    size_t n, cap;
} length_class;

typedef struct length_table {
    vocab *classes;
    length_class *cls;    /* by class id */
    size_t cls_cap;
} length_table;

int lengths_init(length_table *lt);
void lengths_free(length_table *lt);
/* Reads the token counts of a field of every row of a prepared TSV. */
int lengths_add_prepared(length_table *lt, const char *path, text_field field,
                         bool no_header, tells_error *err);
/* Writes "class<TAB>n<TAB>mean<TAB>median<TAB>sd" for each class in byte
   order and a final "all" row; numbers with 6 decimals, sd of a single
   value is 0. Sorts each class's lengths. -1 when out of memory (err
   set) or on a write error (err left alone: out_write names the file). */
int lengths_write(const length_table *lt, bool header, FILE *fp, tells_error *err);

/* A whole run (tells-len): reads the inputs as one corpus and writes the
   table with its header to output (NULL or "-": standard output)
   atomically. Inputs without a single example are an error. */
int lengths_run(char *const *paths, size_t npaths, text_field field, bool no_header,
                const char *output, tells_error *err);

#endif
