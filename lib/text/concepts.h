/* Concept linking by lexicon: finds the MeSH descriptors named in a
   prepared text, longest match first, case-insensitively, also inside
   tokens that tells-prep --mesh or --phrases merged ("brain_injury").
   Terms live in a trie over token ids (as phrase.c's), so linking costs
   a few hash lookups per token however large the tree file is.

   The trie, the text parts and linking can fail only for lack of memory:
   they return -1 and leave the report to their callers, which know the
   file and line. The loaders, which read files, set err. */
#ifndef TELLS_CONCEPTS_H
#define TELLS_CONCEPTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "text/mesh.h"
#include "text/tokenize.h"

/* ---- a trie of terms (token sequences), each carrying values ---- */

typedef struct term_trie term_trie;

term_trie *term_trie_new(void);
void term_trie_free(term_trie *t);
/* Adds the term toks (one token or more) carrying value; a term may carry
   several values, each once. *before (may be NULL) gets the first value
   the term carried already, or UINT32_MAX when it carried none. Returns
   1 when added, 0 when the term carried value already, -1 when out of
   memory. */
int term_trie_add(term_trie *t, const token_list *toks, uint32_t value,
                  uint32_t *before);
/* The values of a node, in the order they were added. */
size_t term_trie_values(const term_trie *t, uint32_t node,
                        const uint32_t **values);

/* A match: parts [start, end) spell the term that ends at node. */
typedef struct term_hit {
    uint32_t start, end, node;
} term_hit;

typedef struct term_hits {
    term_hit *v;
    size_t n, cap;
} term_hits;

void term_hits_free(term_hits *h);
/* The leftmost-longest matches in parts, not overlapping (cleared
   first); -1 when out of memory. */
int term_trie_scan(const term_trie *t, const token_list *parts,
                   term_hits *out);

/* Splits a prepared text into the units terms are matched on: tokens
   split at spaces and at the '_' of merged tokens, lowercased as the
   tokenizer does. words is scratch space. -1 when out of memory. */
int text_parts(const char *text, size_t len, token_list *words,
               token_list *parts);
/* A lexicon entry as parts: tokenised with the default tokenizer
   (lowercased, punctuation dropped), then split at '_'. */
int term_parts(const char *term, size_t len, token_list *words,
               token_list *parts);

/* ---- MeSH descriptors ---- */

typedef struct concept_index concept_index;

/* Loads the tree file (mesh.h) and indexes every descriptor's term and
   its uninverted form. A descriptor given two different terms, or a term
   without a word, is an error naming the line. */
concept_index *concept_index_load(const char *mesh_path, tells_error *err);
void concept_index_free(concept_index *ci);
/* Adds a synonym file: "TERM<TAB>DESCRIPTOR" per line; '#' lines and
   blank lines are skipped. The descriptor must be in the tree file; a
   term given twice in the file is an error. */
int concept_index_add_synonyms(concept_index *ci, const char *path,
                               tells_error *err);

const char *concept_index_source(const concept_index *ci);
size_t concept_count(const concept_index *ci);
const char *concept_ui(const concept_index *ci, uint32_t c);
const char *concept_term(const concept_index *ci, uint32_t c);
size_t concept_ntrees(const concept_index *ci, uint32_t c);
/* Tree number k of descriptor c, in file order. */
const char *concept_tree(const concept_index *ci, uint32_t c, size_t k);
/* The descriptor with this unique id, or -1. */
long concept_find_ui(const concept_index *ci, const char *ui);
/* The descriptor with this tree number, or -1. */
long concept_find_tree(const concept_index *ci, const char *tree);
/* Whether one of c's tree numbers lies under prefix (mesh_tree_under);
   *k gets the first such tree number's index. */
int concept_under(const concept_index *ci, uint32_t c, const char *prefix,
                  size_t *k);

/* Descriptors found in a text: parts [start, end) name concept. A term
   carrying several descriptors gives one hit for each. */
typedef struct concept_hit {
    uint32_t concept, start, end;
} concept_hit;

typedef struct concept_hits {
    concept_hit *v;
    size_t n, cap;
    term_hits raw;
} concept_hits;

void concept_hits_free(concept_hits *h);
int concept_link(const concept_index *ci, const token_list *parts,
                 concept_hits *out);

#endif
