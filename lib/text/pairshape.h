/* Pair features: how a hypothesis was made from its premise, the place
   of the best-known NLI shortcuts (McCoy et al. 2019's lexical overlap
   and subsequence heuristics, Gururangan et al. 2018's added negation,
   changed numbers, length). Computed on prepared texts (space-separated
   tokens, as tells-prep writes them), over their words: the tokens with
   a letter or a digit (any byte of 0x80 or above counts as a letter), so
   that punctuation is left out; a merged token ("brain_injury") is one
   word; words compare byte for byte with ASCII letters folded to
   lowercase (tells-prep's default tokenizer has lowercased the text
   already; this matters for --keep-case or whitespace-tokenized text).
   Shares count every occurrence.

     overlap            share: of H's words (each occurrence), those that
                        P has; 0 when H has no word
     premise_overlap    share: of P's words (each occurrence), those that H has; 0 when P
                        has no word
     all_in_premise     flag: H has a word and P has every word of H
                        (McCoy et al.'s lexical overlap)
     subsequence        flag: H has a word and H's words are a contiguous
                        run of P's words (McCoy et al.'s subsequence)
     negation           flag: H has a negation cue of the lexicon whose
                        words P does not have, together and in that order
                        (cues found in H as the heuristics find them,
                        text/concepts.h: whole tokens, also inside merged
                        tokens, leftmost-longest; "no pneumonia" after
                        "no evidence of pneumonia" adds none)
     numbers            flag: H has a number that P lacks: a word with a
                        digit or a number word (zero to twenty, the tens,
                        hundred, thousand, million, billion, dozen); and,
                        when the token after it is a unit (mg, kg, ml,
                        days, ...: pair_units), the number with that unit
                        must be in P too ("40 mg" against "40 kg")
     length_difference  count: P's words minus H's words
     new_concept        flag: H names a MeSH descriptor that P does not
                        (linked as the heuristics link them, text/concepts.h)
     more_general       flag: a descriptor of H is a proper ancestor of one
                        of P's (one of its tree numbers is a proper prefix,
                        on a '.', of one of the other's)
     more_specific      flag: a descriptor of H is a proper descendant of
                        one of P's
   The three MeSH features need a concept index (pair_shaper_set_concepts);
   without one they are 0.

   The order of the features is the order of the columns everywhere. */
#ifndef TELLS_PAIRSHAPE_H
#define TELLS_PAIRSHAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "text/concepts.h"

typedef enum {
    PAIR_OVERLAP,
    PAIR_PREMISE_OVERLAP,
    PAIR_ALL_IN_PREMISE,
    PAIR_SUBSEQUENCE,
    PAIR_NEGATION,
    PAIR_NUMBERS,
    PAIR_LENGTH_DIFFERENCE,
    PAIR_NEW_CONCEPT,
    PAIR_MORE_GENERAL,
    PAIR_MORE_SPECIFIC,
    PAIR_NFEATURES
} pair_feature;

typedef enum { PAIR_SHARE, PAIR_FLAG, PAIR_COUNT } pair_kind;

typedef struct pair_feature_info {
    const char *name;          /* "overlap": the column, and pair:NAME */
    pair_kind kind;
    const char *definition;    /* one line, for --help and the report */
} pair_feature_info;

const pair_feature_info *pair_feature_at(pair_feature f);
/* "share", "flag", "count". */
const char *pair_kind_name(pair_kind k);
/* The units a number may carry, NULL-terminated. */
extern const char *const pair_units[];

/* What computes the features: the negation cues. */
typedef struct pair_shaper pair_shaper;

/* Loads a cue lexicon (one phrase per line; '#' lines and blank lines
   skipped; a phrase without a word or given twice is an error naming the
   file and line); NULL: no cues (negation is never set). NULL with err
   set. */
pair_shaper *pair_shaper_load(const char *negation_cues, tells_error *err);
void pair_shaper_free(pair_shaper *ps);
/* Links the texts to MeSH with ci (kept, not owned) for the three MeSH
   features; NULL: none. */
void pair_shaper_set_concepts(pair_shaper *ps, const concept_index *ci);
/* Whether a concept index is set. */
bool pair_shaper_has_concepts(const pair_shaper *ps);

/* The features of one pair into out[PAIR_NFEATURES] (flags 0 or 1).
   Not thread-safe for one shaper (it keeps scratch space); -1 when out of
   memory. */
int pair_shape(pair_shaper *ps, const char *premise, const char *hypothesis, double *out);

#endif
