/* Corpus preparation: raw corpora in, the prepared TSV out. */
#ifndef TELLS_PREP_H
#define TELLS_PREP_H

#include <stdbool.h>

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
    /* Each id replaced by its keyed hash (text/redact.h); NULL: kept. */
    const struct redact_key *id_key;
} prep_options;

typedef struct prep_file_stats {
    long written;
    long unlabeled;   /* label "-" or empty: skipped */
    long invalid;     /* skipped with skip_invalid */
} prep_file_stats;

/* Called once per input when it has been read. */
typedef void (*prep_report_fn)(const prep_input *in, const prep_file_stats *st,
                               void *user);

/* Reads the inputs in order and writes the prepared TSV to output (NULL
   or "-": standard output) atomically; report, when not NULL, is called
   after each input. Each input must give an example: one without
   records (empty, blank lines only, or a header only) is the error "no
   examples in the input", one whose records were all skipped "no
   examples left: N skipped without a gold label, M invalid". */
int prep_run(const prep_options *opt, const prep_input *inputs, size_t ninputs,
             const char *output, prep_report_fn report, void *user, tells_error *err);

/* The phrases to merge (prep_options.phrases): those of the phrase files
   (phrase_set_load) and the terms of a MeSH tree file (mesh_file, or
   NULL), tokenised with tok. *out is NULL when there are none; the
   caller frees it with phrase_set_free. */
int prep_load_phrases(const char *const *files, size_t nfiles, const char *mesh_file,
                      const tok_options *tok, phrase_set **out, tells_error *err);

#endif
