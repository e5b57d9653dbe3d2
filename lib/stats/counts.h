/* Token-by-class counts over one field of a prepared TSV. Counts are
   plain integers, so counts of shards of a corpus can be summed (emitted
   with counts_write, merged with counts_merge_file) and give exactly
   what one pass over the whole corpus gives. */
#ifndef TELLS_COUNTS_H
#define TELLS_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/prepared.h"
#include "base/vocab.h"

/* What a token is: the prepared text's space-separated tokens, or
   scikit-learn CountVectorizer's default analyzer over that text (the
   MedNLI study's published code, tells-pmi --measure pmi-published):
   lowercased, maximal runs of two or more word characters. Word
   characters are as Python's \w for ASCII (letters, digits, '_'); other
   characters are word characters too, except Latin-1 punctuation and
   symbols, General Punctuation (U+2000-U+206F) and CJK punctuation
   (U+3000-U+303F); only ASCII and Latin-1 letters are lowercased. */
typedef enum { COUNTS_TOKENS_PREPARED, COUNTS_TOKENS_WORDS } counts_tokens;

typedef struct token_counts {
    text_field field;
    counts_tokens analyzer;   /* set after counts_init, before counting */
    vocab *tokens;
    vocab *classes;
    uint64_t **count;      /* [class][token]: occurrences */
    uint64_t **docs;       /* [class][token]: examples containing the token */
    uint64_t *examples;    /* [class] */
    uint64_t *stamp;       /* [token]: last example that counted it, + 1 */
    uint64_t rows;
    size_t token_cap, class_cap;
    char *scratch;         /* COUNTS_TOKENS_WORDS: the analysed text */
    size_t scratch_cap;
} token_counts;

int counts_init(token_counts *tc, text_field field);
void counts_free(token_counts *tc);

/* Counts one example: its label and its field's text (space-separated
   tokens); for FIELD_BOTH pass both texts, else the second is ignored. */
int counts_add(token_counts *tc, const char *label, size_t label_len,
               const char *text, size_t len, const char *text2, size_t len2);
/* Counts every row of a prepared TSV, using up to `threads` threads on
   byte ranges of a large regular file (one thread for pipes and small
   files). The counts do not depend on the number of threads. */
int counts_add_prepared(token_counts *tc, const char *path, bool no_header,
                        int threads, tells_error *err);
/* Adds the counts of other into tc. */
int counts_merge(token_counts *tc, const token_counts *other);

/* The mergeable counts file: a "key<TAB>value" header (with a "tokens
   words" line for COUNTS_TOKENS_WORDS, which merging requires to match),
   then token<TAB>class<TAB>count<TAB>docs rows in byte order. -1 when out of
   memory (err set) or on a write error (err left alone: out_write names
   the file). */
int counts_write(const token_counts *tc, FILE *fp, tells_error *err);
/* Adds the counts of a counts file, or of several concatenated ones.
   Every number and the sums of all counts and of all examples (with
   those tc holds) must fit in 64 bits; in each file, a class's examples
   line and a token-class row come once, and docs is at most the count
   (at least 1 when the count is not 0) and at most the class's examples.
   -1 with err at the line otherwise. */
int counts_merge_file(token_counts *tc, const char *path, tells_error *err);

#endif
