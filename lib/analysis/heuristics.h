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

#include "base/error.h"
#include "base/vocab.h"
#include "stats/chisq.h"
#include "stats/stattest.h"
#include "text/concepts.h"

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
    size_t nprefix, prefix_cap;
    size_t *cue;            /* indexes into heuristic_set.cue */
    size_t ncue, cue_cap;
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
    concept_index *own_ci;   /* heuristic_set_open's, freed with the set */
    bool general;            /* REL_HYPERNYM means REL_ANCESTOR */
    heuristic *v;
    size_t n, cap;
    cue_list *cue;
    size_t ncue, cue_cap;
    stop_list *stop;
    size_t nstop, stop_cap;
} heuristic_set;

void heuristic_set_init(heuristic_set *hs, const concept_index *ci);
void heuristic_set_free(heuristic_set *hs);
/* Reads a definition file. A heuristic named as one read from an earlier
   file replaces it (in its place); twice in one file is an error. */
int heuristic_set_load(heuristic_set *hs, const char *path, tells_error *err);
const char *heur_relation_name(heur_relation r);

/* Where the concepts and the heuristics come from; the caller resolves
   every path (it alone knows where its data folder is). */
typedef struct heur_sources {
    const char *mesh;                 /* the MeSH tree file */
    const char *terms;                /* its entry-term file, or NULL */
    bool stem;                        /* link on stems (concept_options) */
    char *const *synonyms;            /* synonym files, in order */
    size_t nsynonyms;
    const char *builtin;              /* the built-in definitions, or NULL */
    char *const *definitions;         /* more definition files, in order */
    size_t ndefinitions;
    bool general;                     /* heuristic_set.general */
    /* Called (when not NULL) on the data folder's files, builtin, and mesh
       and terms when mesh_in_data and terms_in_data, just before each is
       read: the caller's chance to say how to find a missing one. */
    int (*check_data)(const char *path, tells_error *err);
    bool mesh_in_data, terms_in_data;
} heur_sources;

/* Loads the tree file with its entry terms and synonyms, then the built-in definitions
   and the others (each may replace a heuristic of an earlier file), into
   hs, which owns the concept index. On failure hs is left empty. */
int heuristic_set_open(heuristic_set *hs, const heur_sources *src, tells_error *err);

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
                      size_t len, tells_error *err);

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
                    const heur_text *hypothesis, heur_witness *w, tells_error *err);

/* ---- evaluating pairs ---- */

/* Every heuristic on one pair after another. A premise usually comes
   with several hypotheses in a row, so it is analysed again only when it
   differs from the last one. */
typedef struct heur_eval {
    const heuristic_set *hs;
    bool *holds;             /* [hs->n]: the last pair satisfies heuristic h */
    heur_witness *witness;   /* [hs->n], or NULL: what made it, when asked */
    heur_text premise, hypothesis;
    char *last;              /* the premise analysed, when have_last */
    size_t last_len, last_cap;
    bool have_last;
} heur_eval;

/* witnesses: also keep what made each heuristic hold. */
int heur_eval_init(heur_eval *ev, const heuristic_set *hs, bool witnesses,
                   tells_error *err);
void heur_eval_free(heur_eval *ev);
/* Analyses the pair and sets holds (and witness). */
int heur_eval_pair(heur_eval *ev, const char *premise, size_t plen,
                   const char *hypothesis, size_t hlen, tells_error *err);
/* The columns "premise_concepts hypothesis_concepts cues" of the last
   pair for heuristic h, which it satisfies (witnesses kept): concepts as
   "Term (UI TREE)", cues as written, each joined by "; ", "-" when
   empty. */
void heur_eval_write_witness(FILE *fp, const heur_eval *ev, size_t h);

/* ---- counting and testing ---- */

typedef struct heur_tally {
    size_t nheur;
    vocab *classes;          /* in order of first appearance */
    uint64_t *rows;          /* per class: pairs read */
    uint64_t *count;         /* [class * nheur + heuristic] */
    size_t class_cap;        /* classes rows and count have room for */
} heur_tally;

int heur_tally_init(heur_tally *t, size_t nheur, tells_error *err);
void heur_tally_free(heur_tally *t);
/* Counts one pair of class label; holds[h] says which heuristics it
   satisfies. */
int heur_tally_add(heur_tally *t, const char *label, size_t len,
                   const bool *holds, tells_error *err);

typedef struct heur_count_options {
    char *const *splits;     /* count only rows of these splits; none: all */
    size_t nsplits;
    FILE *pairs;             /* or NULL: see heur_count_files */
    bool pairs_redacted;     /* --redact: id, split, label, heuristic only */
} heur_count_options;

/* Counts the pairs of the prepared TSVs files (one corpus) that satisfy
   each heuristic, by class, into t (initialised here; free it also after
   a failure). A split of o->splits without rows, or no rows at all, is
   an error. With o->pairs, writes there the header "id split label
   heuristic premise_concepts hypothesis_concepts cues" and one line per
   satisfying pair and heuristic (heur_eval_write_witness); redacted,
   without the last three columns, which come from the text. */
int heur_count_files(const heuristic_set *hs, char *const *files, size_t nfiles,
                     const heur_count_options *o, heur_tally *t, tells_error *err);

typedef enum { EXPECT_UNIFORM, EXPECT_CLASS_PRIOR } heur_expect;
int heur_expect_parse(const char *s, heur_expect *e);

typedef struct heur_result {
    uint64_t n;              /* satisfying pairs */
    bool tested;             /* n > 0 and two classes or more */
    test_result test;        /* Pearson's chi2 and df; p from method */
    gof_method method;       /* chi-squared, or exact for small expected counts */
    size_t top;              /* class id of the largest count (first in
                                byte order on ties) */
    double top_share;
    double top_expected;     /* the top class's expected share */
} heur_result;

/* The goodness-of-fit test of heuristic h's class counts against a
   uniform share over every class read, or the classes' shares of all
   pairs (gof_test: chi-squared, or the exact multinomial test when an
   expected count is under 5, drawn with seed when it has too many
   outcomes to enumerate). */
int heur_test(const heur_tally *t, size_t h, heur_expect e, unsigned long seed,
              heur_result *r, tells_error *err);

/* What heur_table_write writes. */
typedef struct heur_table {
    const heuristic_set *hs;
    const heur_tally *tally;
    heur_expect expect;
    int digits;              /* significant digits of p-values */
    unsigned long seed;      /* of the Monte Carlo exact tests */
} heur_table;

/* An out_writer for a heur_table: "heuristic n chi2 df p_value test
   top_class top_share" and one count column per class, classes in byte
   order; test is gof_method_name's. */
int heur_table_write(FILE *fp, void *table, tells_error *err);

#endif
