/* Annotator heuristics: conditions on the MeSH concepts and cue phrases
   of a premise and its hypothesis, read from definition files, and the
   chi-squared test of whether the pairs that satisfy one are spread
   evenly over the classes.

   A definition file has one directive per line, the directive's name and
   its value separated by whitespace; '#' lines and blank lines are
   skipped:
     heuristic NAME           starts a heuristic (letters, digits, - and _)
     description TEXT         one line of prose, for people
     premise-tree PREFIX...   the premise has a concept under one of the
     hypothesis-tree PREFIX...  prefixes (a category letter or a tree
                              number); @FILE reads "PREFIX<TAB>TERM" lines
     relation R               some premise concept and some hypothesis
                              concept (of those the other conditions
                              admit) are related: hypernym, ancestor,
                              descendant or same (see heur_relation)
     stop FILE                "DESCRIPTOR<TAB>TERM" lines: concepts this
                              heuristic ignores on both sides
     premise-cue FILE...      the text contains a phrase of one of these
     hypothesis-cue FILE...   cue lists (one phrase per line)
   A pair satisfies a heuristic when all its conditions hold. Files named
   in a definition are found relative to the definition file's folder. */
#ifndef TELLS_HEURISTICS_H
#define TELLS_HEURISTICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "text/concepts.h"
#include "base/error.h"
#include "stats/stattest.h"
#include "base/vocab.h"

typedef enum {
    REL_NONE,
    REL_HYPERNYM,     /* ancestor or descendant, as heuristic_set.general */
    REL_ANCESTOR,     /* a hypothesis tree number is a proper ancestor of a
                         premise one: the hypothesis generalises */
    REL_DESCENDANT,   /* a premise tree number is a proper ancestor of a
                         hypothesis one: the hypothesis specialises */
    REL_SAME          /* the same descriptor */
} heur_relation;

enum { SIDE_PREMISE, SIDE_HYPOTHESIS };

typedef struct heur_side {
    char **prefix;          /* tree prefixes; none: no tree condition */
    size_t nprefix;
    size_t *cue;            /* indexes into heuristic_set.cue */
    size_t ncue;
} heur_side;

typedef struct heuristic {
    char *name, *description;
    char *source;           /* definition file and line, for messages */
    long line;
    heur_side side[2];
    heur_relation relation;
    long stop;              /* index into heuristic_set.stop, or -1 */
} heuristic;

typedef struct cue_list {
    char *path;
    term_trie *trie;
} cue_list;

typedef struct stop_list {
    char *path;
    unsigned char *stopped;  /* per concept */
} stop_list;

typedef struct heuristic_set {
    const concept_index *ci;
    bool general;            /* REL_HYPERNYM means REL_ANCESTOR */
    heuristic *v;
    size_t n;
    cue_list *cue;
    size_t ncue;
    stop_list *stop;
    size_t nstop;
} heuristic_set;

void heuristic_set_init(heuristic_set *hs, const concept_index *ci);
void heuristic_set_free(heuristic_set *hs);
/* Reads a definition file. A heuristic named as one read from an earlier
   file replaces it (in its place); twice in one file is an error. */
int heuristic_set_load(heuristic_set *hs, const char *path, tells_error *err);
const char *heur_relation_name(heur_relation r);

/* A premise or hypothesis, analysed once for every heuristic. */
typedef struct heur_text {
    token_list words, parts;
    concept_hits hits;
    uint32_t *concepts;      /* distinct, in order of first mention */
    size_t nconcepts, cap;
    term_hits *cues;         /* [heuristic_set.ncue] */
    size_t ncues;
} heur_text;

void heur_text_init(heur_text *t);
void heur_text_free(heur_text *t);
int heur_text_analyse(heur_text *t, const heuristic_set *hs, const char *text,
                      size_t len);

/* What made a pair satisfy a heuristic: the concepts of each side (with
   the tree number that counted, or -1) and the cue phrases. */
typedef struct heur_item {
    uint32_t concept;
    int32_t tree;            /* index into the concept's tree numbers */
} heur_item;

typedef struct heur_witness {
    heur_item *item[2];
    size_t nitem[2], cap[2];
} heur_witness;

void heur_witness_free(heur_witness *w);
/* 1 when the pair satisfies heuristic h, 0 when not, -1 when out of
   memory; w (may be NULL) gets the witnesses. */
int heuristic_holds(const heuristic_set *hs, size_t h, const heur_text *premise,
                    const heur_text *hypothesis, heur_witness *w);
/* The audit columns "premise_concepts hypothesis_concepts cues" of a
   satisfying pair: concepts as "Term (UI TREE)", cues as written, each
   joined by "; ", "-" when empty. */
void heur_witness_write(FILE *fp, const heuristic_set *hs, size_t h,
                        const heur_witness *w, const heur_text *premise,
                        const heur_text *hypothesis);

/* ---- counting and testing ---- */

typedef struct heur_tally {
    size_t nheur;
    vocab *classes;          /* in order of first appearance */
    uint64_t *rows;          /* per class: pairs read */
    uint64_t *count;         /* [heuristic * class_cap + class] */
    size_t class_cap;
} heur_tally;

int heur_tally_init(heur_tally *t, size_t nheur);
void heur_tally_free(heur_tally *t);
/* Counts one pair of class label; holds[h] says which heuristics it
   satisfies. -1 when out of memory. */
int heur_tally_add(heur_tally *t, const char *label, size_t len,
                   const bool *holds);

typedef enum { EXPECT_UNIFORM, EXPECT_CLASS_PRIOR } heur_expect;
int heur_expect_parse(const char *s, heur_expect *e);

typedef struct heur_result {
    uint64_t n;              /* satisfying pairs */
    bool tested;             /* n > 0 and two classes or more */
    test_result test;        /* chi-squared goodness of fit */
    size_t top;              /* class id of the largest count (first in
                                byte order on ties) */
    double top_share;
} heur_result;

/* The goodness-of-fit test of heuristic h's class counts against a
   uniform share over every class read, or the classes' shares of all
   pairs. -1 when out of memory. */
int heur_test(const heur_tally *t, size_t h, heur_expect e, heur_result *r);
/* The table "heuristic n chi2 df p_value top_class top_share" and one
   count column per class, classes in byte order; p-values with digits
   significant digits. -1 on a write error or when out of memory. */
int heur_table_write(FILE *fp, const heuristic_set *hs, const heur_tally *t,
                     heur_expect e, int digits);

#endif
