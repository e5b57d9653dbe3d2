/* Multi-token phrases (learned collocations, lexicon terms) matched on
   token boundaries, longest match first, and merged into one token.
   A trie over token ids whose edges live in one hash table, so matching
   costs a few lookups per token however many phrases are loaded. */
#ifndef TELLS_PHRASE_H
#define TELLS_PHRASE_H

#include <stddef.h>

#include "base/error.h"
#include "text/tokenize.h"

typedef struct phrase_set phrase_set;

phrase_set *phrase_set_new(void);
void phrase_set_free(phrase_set *ps);
/* Number of distinct phrases of two or more tokens. */
size_t phrase_set_size(const phrase_set *ps);
/* Adds the tokens of t as one phrase; phrases of fewer than two tokens
   are ignored (nothing to merge). Returns -1 when out of memory. */
int phrase_set_add(phrase_set *ps, const token_list *t);
/* Reads a phrase file: one phrase per line, tokenised with opt; text
   after a TAB and lines starting with '#' are ignored. */
int phrase_set_load(phrase_set *ps, const char *path, const tok_options *opt,
                    tells_error *err);
/* Writes into out the tokens of in with every longest phrase match
   joined by '_'. */
int phrase_set_merge(const phrase_set *ps, const token_list *in,
                     token_list *out);

#endif
