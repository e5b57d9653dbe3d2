/* Text length by class: n, mean, median and sample standard deviation
   (GSL), for tells-len. */
#ifndef TELLS_DESCRIBE_H
#define TELLS_DESCRIBE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/prepared.h"
#include "base/error.h"
#include "base/vocab.h"

typedef struct length_table {
    vocab *classes;
    double **len;         /* [class][example]: token count */
    size_t *n, *cap;
    size_t nclasses_cap;
} length_table;

int lengths_init(length_table *lt);
void lengths_free(length_table *lt);
/* Reads the token counts of a field of every row of a prepared TSV. */
int lengths_add_prepared(length_table *lt, const char *path, text_field field,
                         bool no_header, tells_error *err);
/* Writes "class<TAB>n<TAB>mean<TAB>median<TAB>sd" for each class in byte
   order and a final "all" row; numbers with 6 decimals, sd of a single
   value is 0. */
int lengths_write(const length_table *lt, bool header, FILE *fp);

#endif
