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

/* The counts of one token in one class: a cell of the token-by-class
   table that is not zero. */
typedef struct counts_cell {
    uint32_t token, cls;
    uint64_t count;        /* occurrences */
    uint64_t docs;         /* examples containing the token */
} counts_cell;

/* The first classes' counts of a token, side by side. */
enum { COUNTS_DENSE = 4 };
typedef struct counts_pair {
    uint64_t count, docs;
} counts_pair;

/* The table is sparse: beyond the first COUNTS_DENSE classes (a token's
   counts in those share a cache line: NLI's three classes count as fast
   as an array), only the token-class pairs seen together have a cell, so
   memory and work grow with those pairs, not with tokens x classes. */
typedef struct token_counts {
    text_field field;
    counts_tokens analyzer;   /* set after counts_init, before counting */
    vocab *tokens;
    vocab *classes;
    counts_pair *dense;    /* [token * COUNTS_DENSE + class], class < COUNTS_DENSE */
    counts_cell *cells;    /* the other classes' cells: open addressing, nslots
                              slots, count 0 = empty */
    size_t nslots, nhashed;   /* slots, and cells in them */
    size_t ncells;         /* the pairs with a count, dense ones included */
    uint64_t *examples;    /* [class] */
    uint64_t *stamp;       /* [token]: last example that counted it, + 1 */
    uint64_t rows;
    size_t token_cap, class_cap;
    char *scratch;         /* COUNTS_TOKENS_WORDS: the analysed text */
    size_t scratch_cap;
    /* --redact: the tokens the tables may name (text/redact.h); the
       others are written "[withheld]" with their numbers. NULL: all. */
    const struct redact_gate *shown;
} token_counts;

/* Token id's name as a table shows it: itself, or "[withheld]". */
const char *counts_token_shown(const token_counts *tc, size_t id);

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

/* count(t, c) and docs(t, c): 0 when the token was never seen in the
   class. */
void counts_get(const token_counts *tc, size_t cls, size_t token, uint64_t *count,
                uint64_t *docs);
/* The cells in a new array, grouped by class (by_token false) or by token:
   group g is cells[first[g]] .. cells[first[g + 1] - 1] (first has a
   group more than there are classes or tokens), ordered within a group by
   the other id. With rank arrays (a rank per id, NULL: the id itself) the
   groups and the order within them follow the ranks instead. The caller
   frees both arrays; -1 when out of memory. Time and memory linear in the
   cells, tokens and classes. */
int counts_cells(const token_counts *tc, bool by_token, const size_t *token_rank,
                 const size_t *class_rank, counts_cell **cells, size_t **first);
/* Every token's total over the classes, of counts or of docs, in a new
   array (tokens entries); NULL when out of memory. */
uint64_t *counts_token_totals(const token_counts *tc, bool docs);

/* A class's top rows without a row for every token. Where a token is
   absent from a class, the measures (PMI, the competency z, log-odds
   with the corpus as prior) give it a value that depends on the token
   only through its total, and falls as the total grows. So every class's
   absent tokens rank in one order, by total ascending, then by name (or,
   where all of them have the same value, by name alone), and the top N
   of a class are among its present tokens and the first N absent ones.
   A zero_order holds that order of the kept tokens, in groups of equal
   total: group_end[j] is the index past the group of tok[j]. */
typedef struct zero_order {
    size_t *tok;
    size_t *group_end;
    size_t n;
} zero_order;

/* The nk tokens of kept ordered by total ascending then by name in
   groups of equal total, or (total NULL) by name in one group. */
int zero_order_make(zero_order *z, const vocab *tokens, const size_t *kept, size_t nk,
                    const uint64_t *total);
void zero_order_free(zero_order *z);

/* The absent tokens a class's top need rows may hold: walks z, skipping
   tokens t with mark[t] == stamp (those present in the class), and
   calls take(t, ctx, &value) for each token it keeps. take appends t's
   row and sets its value (1), or has no row for t (0), or fails (-1).
   At most need rows are taken from a group; after need rows, a later
   group is looked at only while its value equals the last one taken
   (equal values rank by name, across groups too), and then drop(ctx)
   removes the row that ended the walk. Values must not rise along the
   walk: when one does, the walk stops and returns -2, and the caller
   ranks every token of the class instead. Returns the rows taken, or -1
   (take failed). */
long zero_order_walk(const zero_order *z, size_t need, const size_t *mark, size_t stamp,
                     int (*take)(size_t tok, void *ctx, double *value),
                     void (*drop)(void *ctx), void *ctx);

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
