/* Corpus preparation: raw corpora in, the prepared TSV out. */
#ifndef TELLS_PREP_H
#define TELLS_PREP_H

#include <stdbool.h>
#include <stdio.h>

#include "text/corpus.h"
#include "base/error.h"
#include "text/phrase.h"
#include "text/tokenize.h"

typedef struct prep_input {
    const char *split;
    const char *path;
} prep_input;

typedef struct prep_options {
    tok_options tok;
    corpus_format format;
    corpus_fields fields;
    const phrase_set *phrases;   /* NULL: no merging */
    const char *const *labels;   /* NULL: any label; else NULL-terminated */
    bool skip_invalid;           /* skip bad records instead of failing */
    size_t max_line;
} prep_options;

typedef struct prep_file_stats {
    long written;
    long unlabeled;   /* label "-" or empty: skipped */
    long invalid;     /* skipped with skip_invalid */
} prep_file_stats;

/* Called once per input when it has been read. */
typedef void (*prep_report_fn)(const prep_input *in, const prep_file_stats *st,
                               void *user);

int prep_run(const prep_options *opt, const prep_input *inputs, size_t ninputs,
             FILE *out, prep_report_fn report, void *user, tells_error *err);

#endif
