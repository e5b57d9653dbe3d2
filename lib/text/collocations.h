/* Collocation learning in the manner of word2phrase (Mikolov et al.
   2013): a bigram ab becomes a phrase when
     score = (n(ab) - delta) / (n(a) n(b)) * N  >  threshold,
   with n(a), n(b) >= min_count and N the number of tokens. Each further
   pass runs on text with the previous phrases merged, so phrases grow. */
#ifndef TELLS_COLLOCATIONS_H
#define TELLS_COLLOCATIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/prepared.h"
#include "base/error.h"

typedef struct colloc_options {
    double delta;         /* discount [5] */
    double threshold;     /* [100] */
    uint64_t min_count;   /* for n(a), n(b) and n(ab) [5] */
    int passes;           /* [1] */
    text_field field;     /* [both] */
} colloc_options;

typedef struct colloc_phrase {
    char *text;           /* tokens joined by single spaces */
    uint64_t count;
    double score;
    int pass;
} colloc_phrase;

typedef struct colloc_result {
    colloc_phrase *v;     /* score descending, ties by text */
    size_t n;
} colloc_result;

int colloc_learn_prepared(const char *path, bool no_header,
                          const colloc_options *opt, colloc_result *out,
                          tells_error *err);
void colloc_free(colloc_result *r);
/* One phrase per line; with scores, "phrase<TAB>count<TAB>score" after a
   '#' header line (phrase files ignore '#' lines and text after a TAB). */
int colloc_write(const colloc_result *r, bool scores, FILE *fp);

/* A whole run (tells-phrases): learns from the prepared TSV at path and
   writes the phrases (with scores: colloc_write's scored form) to output
   (NULL or "-": standard output) atomically. */
int colloc_run(const char *path, bool no_header, const colloc_options *opt, bool scores,
               const char *output, tells_error *err);

#endif
