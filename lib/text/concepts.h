/* Concept linking by lexicon: finds the MeSH descriptors named in a
   prepared text, longest match first, case-insensitively, also inside
   tokens that tells-prep --mesh or --phrases merged ("brain_injury").
   The terms are the tree file's headings and, optionally, every entry
   term of an entry-term file (entryterms.h), matched on Snowball stems
   (stem.h) or on exact tokens. Terms live in a trie over token ids (as
   phrase.c's), so linking costs a few hash lookups per token however
   large the thesaurus is.

   The trie, the text parts and linking can fail only for lack of memory:
   they return -1 and leave the report to their callers, which know the
   file and line. The loaders, which read files, set err. */
#ifndef TELLS_CONCEPTS_H
#define TELLS_CONCEPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
/* The node that spells toks (node 0, the root, for none), made when
   new; -1 when out of memory. */
long term_trie_insert(term_trie *t, const token_list *toks);
/* Adds value to node's values (also when it carries it); -1 when out
   of memory. */
int term_trie_push(term_trie *t, uint32_t node, uint32_t value);
/* The child of node along token tok, or -1. */
long term_trie_child(const term_trie *t, uint32_t node, const char *tok, size_t len);
/* Number of nodes, the root included. */
size_t term_trie_nodes(const term_trie *t);

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

typedef struct concept_options {
    const char *terms;  /* an entry-term file, or NULL: headings only */
    bool stem;          /* match Snowball stems, not exact tokens */
} concept_options;

/* What an index holds, and what its loading left out. */
typedef struct concept_stats {
    size_t descriptors, tree_numbers;
    size_t term_rows;          /* rows of the entry-term file */
    size_t terms;              /* distinct (descriptor, term) pairs indexed,
                                  uninverted forms included */
    size_t permuted_skipped;   /* permuted terms with a comma: not indexed */
    size_t unknown_rows;       /* rows of descriptors the tree file lacks: */
    size_t unknown_descriptors;/* skipped, and how many descriptors */
    size_t abbreviations;      /* short abbreviations: matched in capitals */
    size_t keys;               /* distinct match keys */
    size_t ambiguous_keys;     /* keys of several descriptors */
} concept_stats;

/* Loads the tree file (mesh.h) and indexes every descriptor's heading
   and its uninverted form; with o->terms, also every entry term of that
   file whose descriptor the tree file has (the others are skipped and
   counted: check tags such as Female have no tree number). Permuted terms with a
   comma ("Behavior, Smoking") are skipped: running text never has them
   and the file holds the order text uses ("Smoking Behavior"); an entry
   term with exactly one ", " ("Blood Pressure, High") is also indexed
   uninverted ("High Blood Pressure"), as headings are. An entry term
   that is an abbreviation (lexical tag ABB or ACR, or written in
   capitals) links only where the text spells it as it is, not through a
   stem ("aid" is not AIDS), and, when it has at most three characters
   ("LET", "AID", "TAN"), only where the text has it in capitals. A descriptor given two different
   headings, a term without a word, or an entry term whose DescriptorName
   is not the tree file's heading for it (another MeSH version) is an
   error naming the file and line. o may be NULL: headings only, exact
   tokens. */
concept_index *concept_index_open(const char *mesh_path, const concept_options *o,
                                  tells_error *err);
/* concept_index_open with headings only and exact tokens. */
concept_index *concept_index_load(const char *mesh_path, tells_error *err);
const concept_stats *concept_index_stats(const concept_index *ci);
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

/* Descriptors found in a text: parts [start, end) name concept. Where
   the matched key belongs to several descriptors, those whose term is
   spelled exactly as the text (lowercased) win; when none is, each gives
   a hit ("smokes": Smoke and Smoking, both stemmed to "smoke"). */
typedef struct concept_hit {
    uint32_t concept, start, end;
} concept_hit;

/* The hits, and the caller's scratch space for finding them (a stemmer
   among it, so one concept_hits per thread). Zero-initialised or
   concept_hits_init. */
typedef struct concept_hits {
    concept_hit *v;
    size_t n, cap;
    term_hits raw;
    token_list words, cased, lower, keys;
    struct stemmer *stemmer;
} concept_hits;

void concept_hits_init(concept_hits *h);
void concept_hits_free(concept_hits *h);
/* Links the parts of a text (as text_parts splits it; lowercased or as
   written). -1 when out of memory. */
int concept_link(const concept_index *ci, const token_list *parts,
                 concept_hits *out);
/* Links a prepared text, or any text split at spaces: the parts are
   h->cased (as written), so a short abbreviation links where the text
   has its capitals. -1 when out of memory. */
int concept_link_text(const concept_index *ci, const char *text, size_t len,
                      concept_hits *out);
/* The rows "id field start end text descriptor name tree_numbers" of
   the hits (tells-concepts' output): text is the linked parts as
   written, joined by spaces; tree numbers are comma-separated. */
void concept_hits_write(FILE *fp, const concept_index *ci, const concept_hits *h,
                        const char *id, const char *field);

#endif
